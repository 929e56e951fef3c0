import LaunchSupport

/// Splits a command written as one string (`launchprof run 'cmd a "b c"'`)
/// into argv with POSIX shell quoting rules, without a shell: no variables,
/// globs, pipes or redirections, only words and quotes.
///
/// - Unquoted whitespace separates words.
/// - `'…'` keeps everything literally.
/// - `"…"` keeps everything but lets `\` escape `"`, `\`, `$` and the backquote.
/// - Outside quotes, `\` escapes the next character.
///
/// It works on bytes: quotes, backslashes and blanks are ASCII, and every
/// other byte (UTF-8 or not) is kept as it is.
package enum CommandSplitter {
    /// argv for `command`; throws on an unterminated quote or trailing backslash.
    package static func split(_ command: String) throws(CommandSplitError) -> [String] {
        try split(ByteString(command)).map(\.string)
    }

    /// argv for `command`, byte for byte.
    package static func split(_ command: ByteString) throws(CommandSplitError) -> [ByteString] {
        var words: [ByteString] = []
        var word: [UInt8] = []
        var inWord = false
        var bytes = command.bytes.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"):
                if inWord { words.append(ByteString(word)) }
                word = []
                inWord = false
            case UInt8(ascii: "'"):
                inWord = true
                word += try singleQuoted(&bytes, command: command)
            case UInt8(ascii: "\""):
                inWord = true
                word += try doubleQuoted(&bytes, command: command)
            case UInt8(ascii: "\\"):
                guard let escaped = bytes.next() else { throw .trailingBackslash(command.string) }
                inWord = true
                word.append(escaped)
            default:
                inWord = true
                word.append(byte)
            }
        }
        if inWord { words.append(ByteString(word)) }
        return words
    }

    private static func singleQuoted(
        _ bytes: inout IndexingIterator<[UInt8]>, command: ByteString
    ) throws(CommandSplitError) -> [UInt8] {
        var text: [UInt8] = []
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "'") { return text }
            text.append(byte)
        }
        throw .unterminatedQuote("'", command.string)
    }

    private static func doubleQuoted(
        _ bytes: inout IndexingIterator<[UInt8]>, command: ByteString
    ) throws(CommandSplitError) -> [UInt8] {
        var text: [UInt8] = []
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "\""):
                return text
            case UInt8(ascii: "\\"):
                guard let next = bytes.next() else { throw .unterminatedQuote("\"", command.string) }
                if !Array("\"\\$`".utf8).contains(next) { text.append(UInt8(ascii: "\\")) }
                text.append(next)
            default:
                text.append(byte)
            }
        }
        throw .unterminatedQuote("\"", command.string)
    }
}

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
