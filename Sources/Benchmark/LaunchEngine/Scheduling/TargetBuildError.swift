import Foundation
import LaunchSupport

/// What is wrong with the commands given to `launchprof run`.
package enum TargetBuildError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No command was given.
    case noCommand
    /// Quoted commands and an argv after `--` were both given.
    case bothForms
    /// A command is empty.
    case emptyCommand
    /// A command cannot be split into words.
    case unsplittable(CommandSplitError)
    /// More `--command-name`s than commands.
    case tooManyNames(names: Int, commands: Int)
    /// Two targets have the same name.
    case duplicateName(String)

    package var description: String {
        switch self {
        case .noCommand:
            "no command to run: give quoted commands ('cmd a' 'cmd b'), one command after '--', or a launchprof.yml (--config)"
        case .bothForms:
            "give either quoted commands or one command after '--', not both"
        case .emptyCommand:
            "a command is empty"
        case .unsplittable(let error):
            error.description
        case .tooManyNames(let names, let commands):
            "\(names) --command-name values for \(commands) command(s); give at most one per command"
        case .duplicateName(let name):
            "two commands are named '\(name)'; name them apart with --command-name"
        }
    }
}
