import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// The real `launchprof` binary given what a hostile world gives it: bytes
/// that are not UTF-8, a NUL in a config, spawns that fail with a large
/// environment, arguments over the kernel's limits, names that would break
/// the Prometheus exposition, and results files with numbers no measurement
/// has.
@Suite("Hostile input: bytes, names and numbers")
struct HostileInputTests {
    // MARK: - Bytes

    @Test("an argument and a variable that are not UTF-8 reach the program byte for byte")
    func nonUTF8BytesArriveExactly() throws {
        let scratch = try ScratchDirectory()
        let out = scratch.file("out")
        let launchprof = try Products.path("launchprof")
        // Through sh, since Foundation's Process takes only Strings.
        let script = """
            FOO="$(printf 'v\\377\\376w')" exec '\(launchprof)' run -r 1 -w 0 -- /bin/sh -c 'printf "%s|%s" "$1" "$FOO" > "$2"' \
            sh "$(printf 'a\\377\\376b')" '\(out)'
            """
        let result = try CommandRun.run("/bin/sh", ["-c", script], workingDirectory: scratch.path)
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = try #require(FileManager.default.contents(atPath: out))
        #expect(Array(bytes) == [0x61, 0xff, 0xfe, 0x62, 0x7c, 0x76, 0xff, 0xfe, 0x77])
    }

    @Test("--shell and a quoted command pass bytes that are not UTF-8 exactly")
    func nonUTF8ShellAndQuotedCommands() throws {
        let scratch = try ScratchDirectory()
        let launchprof = try Products.path("launchprof")
        let shell = """
            exec '\(launchprof)' run -r 1 -w 0 --shell "printf '%s' '$(printf 'x\\377y')' > '\(scratch.file("shell"))'"
            """
        let quoted = """
            exec '\(launchprof)' run -r 1 -w 0 "/bin/sh -c 'printf %s \\"\\$0\\" > \(scratch.file("quoted"))' $(printf 'q\\377')"
            """
        for script in [shell, quoted] {
            let result = try CommandRun.run("/bin/sh", ["-c", script], workingDirectory: scratch.path)
            #expect(result.status == 0, "\(result.standardError)")
        }
        #expect(FileManager.default.contents(atPath: scratch.file("shell")).map(Array.init) == [0x78, 0xff, 0x79])
        #expect(FileManager.default.contents(atPath: scratch.file("quoted")).map(Array.init) == [0x71, 0xff])
    }

    @Test("a NUL in a launchprof.yml command, or '=' in a variable's name, is an exit-2 error naming the file, line and key")
    func nulInConfigCommand() throws {
        let scratch = try ScratchDirectory()
        let config = scratch.file("launchprof.yml")
        try """
        version: 1
        targets:
          - name: injected
            command: ["/bin/echo", "a\\0LD_PRELOAD=/tmp/evil.so"]
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try CommandRun.run(
            try Products.path("launchprof"), ["run", "--config", config], workingDirectory: scratch.path)
        #expect(result.status == 2)
        #expect(result.standardError.contains("\(config):4"), "\(result.standardError)")
        #expect(result.standardError.contains("targets[0].command[1]"), "\(result.standardError)")
        #expect(result.standardError.contains("NUL"), "\(result.standardError)")

        try """
        version: 1
        targets:
          - name: injected
            command: [/bin/true]
            environment: {"A=B": x}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let named = try CommandRun.run(
            try Products.path("launchprof"), ["run", "--config", config], workingDirectory: scratch.path)
        #expect(named.status == 2)
        #expect(named.standardError.contains("\(config):5"), "\(named.standardError)")
        #expect(named.standardError.contains("a name cannot hold '='"), "\(named.standardError)")
    }

    // MARK: - Failed spawns

    @Test("a failed spawn with 256 KiB of environment reports its cause, and the spawner lives on")
    func failedSpawnWithLargeEnvironment() throws {
        let scratch = try ScratchDirectory()
        let noShebang = scratch.file("no-shebang")
        try ExecutableFile.write("echo no interpreter line\n", to: noShebang)
        let missing = scratch.file("missing-interpreter")
        try ExecutableFile.write("#!/nonexistent/interpreter\n", to: missing)
        var environment: [String: String] = [:]
        for index in 0..<128 { environment["LARGE_\(index)"] = String(repeating: "e", count: 2048) }
        for (program, cause) in [
            (noShebang, "the kernel cannot run it"), (missing, "its interpreter /nonexistent/interpreter (its #! line) does not exist"),
        ] {
            let result = try CommandRun.run(
                try Products.path("launchprof"), ["run", "-r", "1", "-w", "0", "--", program], environment: environment,
                workingDirectory: scratch.path)
            #expect(result.status == 3, "\(result.standardError)")
            #expect(result.standardError.contains(cause), "\(result.standardError)")
            #expect(!result.standardError.contains("lost the spawner"), "\(result.standardError)")
        }
    }

    @Test("an argument over the kernel's 128 KiB per string is E2BIG with the sizes, before any spawn")
    func argumentOverMaxArgStrlen() throws {
        let scratch = try ScratchDirectory()
        let config = scratch.file("launchprof.yml")
        let long = String(repeating: "a", count: 200_000)
        try """
        version: 1
        targets:
          - name: long
            command: ["/bin/true", "\(long)"]
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try CommandRun.run(
            try Products.path("launchprof"), ["run", "-r", "1", "-w", "0", "--config", config], workingDirectory: scratch.path)
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError.contains("argument 1 is 200000 bytes"), "\(result.standardError)")
        #expect(result.standardError.contains("MAX_ARG_STRLEN"), "\(result.standardError)")
    }

    // MARK: - Prometheus

    @Test("names with CR LF, quotes, backslashes and control characters give an exposition promtool accepts")
    func hostileNamesPassPromtool() throws {
        let candidates: [String] = ["/usr/bin/promtool", "/usr/local/bin/promtool"]
        let promtool = candidates.first { access($0, X_OK) == 0 }
        guard let promtool else {
            print(
                "SKIPPED: promtool is not installed (apt-get install prometheus); Scripts/checks/check-prometheus.sh runs this check in CI")
            return
        }
        let scratch = try ScratchDirectory()
        let metrics = scratch.file("metrics.prom")
        let name = "a\r\nb\"c\\d\u{1}e\u{7f}f\u{85}g\nh\rend"
        let result = try CommandRun.run(
            try Products.path("launchprof"),
            ["run", "-r", "2", "-w", "0", "-n", name, "--label", "note=x\r\ny", "--export-openmetrics", metrics, "--", "/bin/true"],
            workingDirectory: scratch.path)
        #expect(result.status == 0, "\(result.standardError)")
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(!text.unicodeScalars.contains("\r"))
        let expected = "target=\"a␍\\nb\\\"c\\\\d␁e␡f\u{FFFD}g\\nh␍end\""
        #expect(text.contains(expected), "\(text.prefix(400))")
        let check = try CommandRun.run("/bin/sh", ["-c", "'\(promtool)' check metrics < '\(metrics)'"], workingDirectory: scratch.path)
        #expect(check.status == 0, "promtool: \(check.standardOutput) \(check.standardError)")
    }

    // MARK: - Results files

    @Test("report, compare and explain refuse numbers no measurement has, naming the file and field")
    func hostileNumbersInResults() throws {
        let scratch = try ScratchDirectory()
        let good = scratch.file("good.json")
        let made = try CommandRun.run(
            try Products.path("launchprof"), ["run", "-r", "2", "-w", "0", "-n", "t", "--export-json", good, "--", "/bin/true"],
            workingDirectory: scratch.path)
        try #require(made.status == 0, "\(made.standardError)")
        let text = try String(contentsOfFile: good, encoding: .utf8)
        for (index, value) in ["1e25", "-1e-15", "1e300", "-1e300"].enumerated() {
            let bad = scratch.file("bad\(index).json")
            try Self.replacingMedian(of: "cpu", in: text, with: value).write(toFile: bad, atomically: true, encoding: .utf8)
            for arguments in [["report", bad, "-o", scratch.file("r.html")], ["compare", bad, good], ["explain", bad]] {
                let result = try CommandRun.run(try Products.path("launchprof"), arguments, workingDirectory: scratch.path)
                #expect(result.status == 2, "\(arguments[0]) \(value): \(result.standardError)")
                #expect(result.standardError.contains("'\(bad)'"), "\(result.standardError)")
                #expect(result.standardError.contains("results[0].summaries.cpu.median"), "\(result.standardError)")
            }
        }
        // A tiny positive figure is a number a chart can show.
        let tiny = scratch.file("tiny.json")
        try Self.replacingMedian(of: "user_cpu", in: text, with: "1e-300").write(toFile: tiny, atomically: true, encoding: .utf8)
        let report = try CommandRun.run(
            try Products.path("launchprof"), ["report", tiny, "-o", scratch.file("tiny.html")], workingDirectory: scratch.path)
        #expect(report.status == 0, "\(report.standardError)")
    }

    @Test("a results file over 256 MiB is refused with a message before it is read")
    func oversizedResultsFile() throws {
        let scratch = try ScratchDirectory()
        let huge = scratch.file("huge.json")
        // Sparse: no 257 MiB is written.
        let fd = open(huge, O_CREAT | O_WRONLY, 0o600)
        try #require(fd >= 0)
        ftruncate(fd, off_t(257 << 20))
        close(fd)
        let result = try CommandRun.run(try Products.path("launchprof"), ["explain", huge], workingDirectory: scratch.path)
        #expect(result.status == 2)
        #expect(result.standardError.contains("more than the 256 MiB"), "\(result.standardError)")
    }

    /// `text` (a results file) with the median of summary `key` set to `value`.
    static func replacingMedian(of key: String, in text: String, with value: String) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var results = try #require(object["results"] as? [[String: Any]])
        var summaries = try #require(results[0]["summaries"] as? [String: Any])
        var summary = try #require(summaries[key] as? [String: Any])
        summary["median"] = 123_456_789.5
        summaries[key] = summary
        results[0]["summaries"] = summaries
        object["results"] = results
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "123456789.5", with: value)
    }
}
