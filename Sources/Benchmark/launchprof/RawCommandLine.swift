import LaunchBenchmark

/// launchprof's own argv as the bytes the kernel passed: `CommandLine.arguments`
/// (and so every value ArgumentParser gives) is decoded, with U+FFFD in place
/// of bytes that are not UTF-8, and a command must reach the program exactly.
///
/// ArgumentParser's values say what each word is; these find each one's
/// bytes: the command after `--` is the last words of argv, and a quoted
/// command is the next word of argv that decodes to it.
struct RawCommandLine {
    /// Every word of argv, argv[0] first.
    let words: [ByteString]

    /// The process's own argv.
    static var current: RawCommandLine {
        var words: [ByteString] = []
        for index in 0..<Int(CommandLine.argc) {
            if let word = CommandLine.unsafeArgv[index] { words.append(ByteString(cString: word)) }
        }
        return RawCommandLine(words: words)
    }

    /// The bytes of the last `values.count` words, which must decode to
    /// `values` (the argv ArgumentParser captured after `--` or as the
    /// rest); `values` as UTF-8 where they do not.
    func suffix(matching values: [String]) -> [ByteString] {
        let tail = Array(words.suffix(values.count))
        guard tail.count == values.count, zip(tail, values).allSatisfy({ $0.string == $1 }) else {
            return values.map { ByteString($0) }
        }
        return tail
    }

    /// The bytes of each of `values`, matched in order against the words
    /// of argv before `end` (positional values keep their order in argv).
    func words(matching values: [String], before end: Int? = nil) -> [ByteString] {
        let searched = words.prefix(end ?? words.count).dropFirst()
        var cursor = searched.startIndex
        return values.map { value in
            guard let found = searched[cursor...].firstIndex(where: { $0.string == value }) else { return ByteString(value) }
            cursor = found + 1
            return searched[found]
        }
    }
}
