import LaunchSupport

/// A command string that cannot be split into words.
package enum CommandSplitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A quote opened and never closed.
    case unterminatedQuote(Character, String)
    /// A backslash at the end of the command, escaping nothing.
    case trailingBackslash(String)

    package var description: String {
        switch self {
        case .unterminatedQuote(let quote, let command):
            "command \(command.debugDescription) has an unterminated \(quote) quote; close it, or pass the "
                + "command after '--' to give argv exactly"
        case .trailingBackslash(let command):
            "command \(command.debugDescription) ends with a backslash that escapes nothing"
        }
    }
}
