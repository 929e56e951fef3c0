import ArgumentParser

// Placeholder, replaced by the real command.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run")
}
