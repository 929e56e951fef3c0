import LaunchSupport

extension LaunchTarget {
    /// The command as one shell line a person can read before it runs, and
    /// could paste to run it the same way: `cd DIR && env NAME=VALUE… ARGV`
    /// (with `/bin/sh -c SCRIPT` for `--shell`), each word quoted.
    ///
    /// A command read from a file may hold anything: control characters
    /// and bidi overrides are written as visible escapes (`TerminalText`),
    /// so what is printed is what runs, and nothing printed can hide it.
    public var shellLine: String {
        var words: [String] = []
        if let workingDirectory { words += ["cd", quoted(workingDirectory), "&&"] }
        if !environment.isEmpty {
            words.append("env")
            for (name, value) in environment.sorted(by: { $0.key < $1.key }) { words.append(quoted("\(name)=\(value)")) }
        }
        let argv = (try? Spawner.commandLine(of: self)) ?? arguments
        words += argv.map { TerminalText.sanitized(Spawner.shellQuoted($0).string) }
        return words.joined(separator: " ")
    }

    private func quoted(_ text: String) -> String {
        TerminalText.sanitized(Spawner.shellQuoted(ByteString(text)).string)
    }
}
