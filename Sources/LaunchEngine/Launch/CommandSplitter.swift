/// Splits a command written as one string (`launchprof run 'cmd a "b c"'`)
/// into argv with POSIX shell quoting rules, without a shell: no variables,
/// globs, pipes or redirections, only words and quotes.
///
/// - Unquoted whitespace separates words.
/// - `'…'` keeps everything literally.
/// - `"…"` keeps everything but lets `\` escape `"`, `\`, `$` and the backquote.
/// - Outside quotes, `\` escapes the next character.
public enum CommandSplitter {
    /// argv for `command`; throws on an unterminated quote or trailing backslash.
    public static func split(_ command: String) throws(CommandSplitError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var characters = command.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'":
                inWord = true
                word += try singleQuoted(&characters, command: command)
            case "\"":
                inWord = true
                word += try doubleQuoted(&characters, command: command)
            case "\\":
                guard let escaped = characters.next() else { throw .trailingBackslash(command) }
                inWord = true
                word.append(escaped)
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return words
    }

    private static func singleQuoted(_ characters: inout String.Iterator, command: String) throws(CommandSplitError) -> String {
        var text = ""
        while let character = characters.next() {
            if character == "'" { return text }
            text.append(character)
        }
        throw .unterminatedQuote("'", command)
    }

    private static func doubleQuoted(_ characters: inout String.Iterator, command: String) throws(CommandSplitError) -> String {
        var text = ""
        while let character = characters.next() {
            switch character {
            case "\"":
                return text
            case "\\":
                guard let next = characters.next() else { throw .unterminatedQuote("\"", command) }
                if !"\"\\$`".contains(next) { text.append("\\") }
                text.append(next)
            default:
                text.append(character)
            }
        }
        throw .unterminatedQuote("\"", command)
    }
}

/// A command string that cannot be split into words.
public enum CommandSplitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A quote opened and never closed.
    case unterminatedQuote(Character, String)
    /// A backslash at the end of the command, escaping nothing.
    case trailingBackslash(String)

    public var description: String {
        switch self {
        case .unterminatedQuote(let quote, let command):
            "command \(command.debugDescription) has an unterminated \(quote) quote; close it, or pass the "
                + "command after '--' to give argv exactly"
        case .trailingBackslash(let command):
            "command \(command.debugDescription) ends with a backslash that escapes nothing"
        }
    }
}
