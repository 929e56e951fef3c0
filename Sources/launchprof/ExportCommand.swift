import ArgumentParser

// Placeholder, replaced by the real command.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export")
}
