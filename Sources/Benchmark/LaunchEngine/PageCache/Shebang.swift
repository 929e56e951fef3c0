/// The `#!` line of a script, split as the Linux kernel splits it: the
/// interpreter path, then everything after the first blank as one argument.
struct Shebang: Equatable {
    var interpreter: String
    var argument: String?

    init(script: String, head: [UInt8]) throws(FileSetError) {
        let line = head.dropFirst(2).prefix { $0 != 0x0A }
        let text = String(decoding: line, as: UTF8.self).trimmingBlanks()
        guard !text.isEmpty else { throw .badScript(path: script, reason: "the '#!' line names no interpreter") }
        if let blank = text.firstIndex(where: { $0 == " " || $0 == "\t" }) {
            interpreter = String(text[..<blank])
            let rest = String(text[blank...]).trimmingBlanks()
            argument = rest.isEmpty ? nil : rest
        } else {
            interpreter = text
        }
        guard interpreter.hasPrefix("/") else {
            throw .badScript(path: script, reason: "the '#!' interpreter '\(interpreter)' is not an absolute path")
        }
    }

    /// For `#!/usr/bin/env [-S] NAME ...`: NAME, which env looks up in PATH.
    var envProgram: String? {
        guard interpreter.hasSuffix("/env"), let argument else { return nil }
        return argument.split(whereSeparator: { $0 == " " || $0 == "\t" })
            .first { !$0.hasPrefix("-") && !$0.contains("=") }.map(String.init)
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and carriage returns.
    func trimmingBlanks() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
