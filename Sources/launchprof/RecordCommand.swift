import ArgumentParser

// Placeholder, replaced by the real command.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "record")
}
