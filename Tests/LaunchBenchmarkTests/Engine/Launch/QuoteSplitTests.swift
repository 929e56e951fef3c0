import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// Shell-like splitting of quoted commands, without a shell.
@Suite("Command splitting")
struct QuoteSplitTests {
    @Test(
        "words, quotes and escapes",
        arguments: [
            ("/bin/true", ["/bin/true"]),
            ("  cmd   a\tb  ", ["cmd", "a", "b"]),
            ("cmd 'a b' \"c d\"", ["cmd", "a b", "c d"]),
            ("cmd 'it\"s' \"it's\"", ["cmd", "it\"s", "it's"]),
            ("cmd a\\ b \\'q", ["cmd", "a b", "'q"]),
            ("cmd \"a\\\"b\\\\c\\d\"", ["cmd", "a\"b\\c\\d"]),
            ("cmd 'a'\"b\"c", ["cmd", "abc"]),
            ("cmd '' \"\"", ["cmd", "", ""]),
            ("cmd '$HOME' *.txt", ["cmd", "$HOME", "*.txt"]),
            ("", []),
        ])
    func splits(_ input: String, _ expected: [String]) throws {
        #expect(try CommandSplitter.split(input) == expected)
    }

    @Test("bytes that are not UTF-8 are kept as they are, inside and outside quotes")
    func bytesKept() throws {
        let command = ByteString([0x61, 0xff, 0x20, 0x27, 0xfe, 0x20, 0x27, 0x22, 0x5c, 0xc3, 0x22])
        let words = try CommandSplitter.split(command)
        #expect(words == [ByteString([0x61, 0xff]), ByteString([0xfe, 0x20, 0x5c, 0xc3])])
    }

    @Test("an unterminated quote is a clear error")
    func unterminated() {
        #expect(throws: CommandSplitError.unterminatedQuote("'", "cmd 'a")) { try CommandSplitter.split("cmd 'a") }
        #expect(throws: CommandSplitError.unterminatedQuote("\"", "cmd \"a")) { try CommandSplitter.split("cmd \"a") }
        #expect(CommandSplitError.unterminatedQuote("'", "cmd 'a").description.contains("unterminated ' quote"))
    }

    @Test("a trailing backslash is an error")
    func trailingBackslash() {
        #expect(throws: CommandSplitError.trailingBackslash("cmd \\")) { try CommandSplitter.split("cmd \\") }
    }

    @Test("targets: names in order, too many names, duplicates, both forms")
    func targets() throws {
        var builder = TargetBuilder()
        builder.commands = ["sleep 0.1", "'/bin/echo' 'a b'"]
        builder.names = ["nap"]
        let targets = try builder.targets()
        #expect(targets.map(\.name) == ["nap", "'/bin/echo' 'a b'"])
        #expect(targets[1].arguments == ["/bin/echo", "a b"])
        builder.names = ["a", "b", "c"]
        #expect(throws: TargetBuildError.tooManyNames(names: 3, commands: 2)) { try builder.targets() }
        builder.names = ["a", "a"]
        #expect(throws: TargetBuildError.duplicateName("a")) { try builder.targets() }
        builder.names = []
        builder.argv = ["x"]
        #expect(throws: TargetBuildError.bothForms) { try builder.targets() }
        builder.commands = []
        builder.argv = ["/bin/echo", "a b"]
        #expect(try builder.targets().first?.name == "/bin/echo 'a b'")
        builder.argv = []
        builder.commands = ["echo $HOME | wc"]
        builder.useShell = true
        #expect(try builder.targets().first?.arguments == ["echo $HOME | wc"])
    }
}
