import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfFiles
import LaunchProfTestSupport
import Testing

/// Where bytes go (issue 37, items 7–11): a standard error or output that
/// cannot be written, outputs that cannot be written where asked, a results
/// file's mode, `record` over an earlier trace, and a flood of records.
/// Every case runs the built launchprof on real programs and files.
@Suite("Where bytes go", .serialized)
struct HostileBytesTests {
    static let unwritable: [StreamedLaunchprof.Stream] = [.file("/dev/full"), .closedPipe]

    @Test(
        "standard error and output on /dev/full or a closed pipe: the work is done and the exit status is the same",
        .timeLimit(.minutes(5)), arguments: unwritable)
    func unwritableStandardStreams(stream: StreamedLaunchprof.Stream) throws {
        let scratch = try ScratchDirectory()
        let results = scratch.file("results.json")
        // A successful benchmark: its results written, exit 0 (not SIGILL, 132).
        let passed = try StreamedLaunchprof.run(
            ["run", "-r", "2", "-w", "0", "--export-json", results, "--", "/bin/true"],
            standardOutput: stream, standardError: stream)
        #expect(passed == 0)
        let document = try ResultsDocument.load(from: results)
        #expect(document.results.first?.runs.count == 2)
        // Stderr alone unwritable, stdout a file: the report is still written.
        let report = scratch.file("report.txt")
        FileManager.default.createFile(atPath: report, contents: nil)
        let reported = try StreamedLaunchprof.run(
            ["run", "-r", "1", "-w", "0", "--", "/bin/true"], standardOutput: .file(report), standardError: stream)
        #expect(reported == 0)
        #expect(try scratch.read("report.txt").contains("Warm launch"))
        // A failed launch still exits 3, bad usage 2, help 0.
        let failed = try StreamedLaunchprof.run(
            ["run", "-r", "1", "-w", "0", "--", "/bin/false"], standardOutput: stream, standardError: stream)
        #expect(failed == 3)
        let usage = try StreamedLaunchprof.run(["run", "--no-such-flag"], standardOutput: stream, standardError: stream)
        #expect(usage == 2)
        let help = try StreamedLaunchprof.run(["--help"], standardOutput: stream, standardError: stream)
        #expect(help == 0)
        // record prints its summary on stderr after the trace is written.
        let trace = scratch.file("hello.lptrace")
        let recorded = try StreamedLaunchprof.run(
            ["record", "--quiet", "-o", trace, "--", try Products.path("lp-hello-traced")],
            standardOutput: stream, standardError: stream)
        #expect(recorded == 0)
        #expect(try TraceReader.read(path: trace).header.pid > 0)
    }

    @Test("StandardStream: false on /dev/full, a closed descriptor and a full non-blocking pipe, within its budget; never a trap")
    func standardStreamNeverTraps() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        defer { close(full) }
        #expect(!StandardStream(descriptor: full).write("lost\n"))
        // (A closed pipe is EPIPE only where SIGPIPE is ignored, as in
        // launchprof: unwritableStandardStreams runs that case.)
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        close(ends[1])
        #expect(!StandardStream(descriptor: ends[1]).write("lost\n"))  // EBADF
        // A non-blocking pipe nobody reads: the write gives up after its budget.
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let big = String(repeating: "x", count: 1 << 20)
        let started = Date()
        #expect(!StandardStream(descriptor: ends[1], blockedBudget: 300).write(big))
        #expect(Date().timeIntervalSince(started) < 30)
        // A file takes it all.
        let scratch = try ScratchDirectory()
        let fd = open(scratch.file("out"), O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(fd) }
        #expect(StandardStream(descriptor: fd).write(big))
        #expect(try scratch.read("out").utf8.count == 1 << 20)
    }

    @Test("an export into a directory that does not exist fails before the first launch, naming it", .timeLimit(.minutes(2)))
    func unwritableExportCheckedBeforeLaunch() throws {
        let scratch = try ScratchDirectory()
        let launched = scratch.file("launched")
        let run = try launchprof(
            [
                "run", "-r", "1", "-w", "0", "--export-json", scratch.file("missing/results.json"),
                "--export-markdown", scratch.file("results.md"), "--report", scratch.file("results.json"),
                "--", "/bin/sh", "-c", "touch '\(launched)'",
            ], in: scratch.path)
        #expect(run.status == 2)
        #expect(access(launched, F_OK) != 0, "the target was launched")
        #expect(access(scratch.file("results.md"), F_OK) != 0)
        #expect(run.standardError.contains("--export-json"), "\(run.standardError)")
        #expect(run.standardError.contains("missing/results.json"), "\(run.standardError)")
        #expect(run.standardError.contains("does not exist"), "\(run.standardError)")
        // A path that is a directory, and one under a regular file, are named too.
        let directory = try launchprof(
            ["run", "-r", "1", "-w", "0", "--export-junit", scratch.path, "--", "/bin/sh", "-c", "touch '\(launched)'"],
            in: scratch.path)
        #expect(directory.status == 2)
        #expect(directory.standardError.contains("it is a directory"), "\(directory.standardError)")
        FileManager.default.createFile(atPath: scratch.file("plain"), contents: Data())
        let underFile = try launchprof(
            ["run", "-r", "1", "-w", "0", "--report", scratch.file("plain/r.html"), "--", "/bin/sh", "-c", "touch '\(launched)'"],
            in: scratch.path)
        #expect(underFile.status == 2)
        #expect(underFile.standardError.contains("is not a directory"), "\(underFile.standardError)")
        // Two outputs to one file: the second would replace the first.
        let twice = try launchprof(
            [
                "run", "-r", "1", "-w", "0", "--export-json", scratch.file("same"), "--export-markdown", scratch.file("same"),
                "--", "/bin/sh", "-c", "touch '\(launched)'",
            ], in: scratch.path)
        #expect(twice.status == 2)
        #expect(twice.standardError.contains("--export-markdown: "), "\(twice.standardError)")
        #expect(twice.standardError.contains("--export-json writes"), "\(twice.standardError)")
        #expect(access(launched, F_OK) != 0, "the target was launched")
    }

    @Test("an export that fails at the end: the other outputs are written and the failed one is named", .timeLimit(.minutes(2)))
    func failedExportDoesNotStopTheOthers() throws {
        let scratch = try ScratchDirectory()
        let doomed = scratch.file("doomed")
        try FileManager.default.createDirectory(atPath: doomed, withIntermediateDirectories: false)
        // The target removes the JSON's directory during the benchmark, after the check.
        let run = try launchprof(
            [
                "run", "-r", "1", "-w", "0", "--export-json", doomed + "/results.json",
                "--export-markdown", scratch.file("results.md"), "--export-junit", scratch.file("junit.xml"),
                "--report", scratch.file("report.html"), "--", "/bin/rmdir", doomed,
            ], in: scratch.path)
        #expect(run.status == 2)
        #expect(run.standardError.contains("--export-json"), "\(run.standardError)")
        #expect(run.standardError.contains("doomed/results.json"), "\(run.standardError)")
        for written in ["results.md", "junit.xml", "report.html"] {
            #expect(access(scratch.file(written), F_OK) == 0, "\(written) was not written")
        }
        #expect(run.standardOutput.contains("Warm launch"))
    }

    @Test("a 0600 results file stays 0600 when it is rewritten; a new one is 0644; an asked mode wins")
    func rewrittenFileKeepsItsMode() throws {
        let scratch = try ScratchDirectory()
        let results = scratch.file("results.json")
        FileManager.default.createFile(atPath: results, contents: Data("{}".utf8), attributes: [.posixPermissions: 0o600])
        let run = try launchprof(["run", "-r", "1", "-w", "0", "--export-json", results, "--", "/bin/true"], in: scratch.path)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(Self.mode(of: results) == 0o600)
        #expect(try ResultsDocument.load(from: results).results.count == 1)
        // The one write path, directly: new files, kept modes, asked modes.
        let fresh = scratch.file("fresh")
        try AtomicFile.write(Array("a".utf8), to: fresh)
        #expect(Self.mode(of: fresh) == 0o644)
        chmod(fresh, 0o640)
        try AtomicFile.write(Array("b".utf8), to: fresh)
        #expect(Self.mode(of: fresh) == 0o640)
        try AtomicFile.write(Array("c".utf8), to: fresh, mode: 0o600)
        #expect(Self.mode(of: fresh) == 0o600)
        #expect(try scratch.read("fresh") == "c")
    }

    @Test("record -o FILE keeps the earlier trace when the program fails, and replaces it whole when it succeeds", .timeLimit(.minutes(2)))
    func recordKeepsTheEarlierTrace() throws {
        let scratch = try ScratchDirectory()
        let trace = scratch.file("app.lptrace")
        let hello = try Products.path("lp-hello-traced")
        let first = try launchprof(["record", "--quiet", "-o", trace, "--", hello], in: scratch.path)
        #expect(first.status == 0, "\(first.standardError)")
        chmod(trace, 0o600)
        let earlier = try Data(contentsOf: URL(fileURLWithPath: trace))
        // A program that fails, one killed by a signal, one that writes no trace.
        for command in [["/bin/sh", "-c", "exit 7"], ["/bin/sh", "-c", "kill -KILL $$"], ["/bin/true"]] {
            let failed = try launchprof(["record", "--quiet", "-o", trace, "--"] + command, in: scratch.path)
            #expect(failed.status == 3, "\(command): \(failed.standardError)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == earlier, "\(command) changed the trace")
        }
        // Nothing left beside it: no staging directory, no temporary file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["app.lptrace"])
        let second = try launchprof(["record", "--quiet", "-o", trace, "--", hello], in: scratch.path)
        #expect(second.status == 0, "\(second.standardError)")
        let replaced = try TraceReader.read(path: trace)
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) != earlier)
        #expect(replaced.header.pid > 0)
        #expect(Self.mode(of: trace) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["app.lptrace"])
        // A trace that cannot be written where asked: before the launch.
        let launched = scratch.file("launched")
        let missing = try launchprof(
            ["record", "-o", scratch.file("missing/app.lptrace"), "--", "/bin/sh", "-c", "touch '\(launched)'"], in: scratch.path)
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("does not exist"), "\(missing.standardError)")
        #expect(access(launched, F_OK) != 0, "the program was launched")
    }

    @Test("200,000 milestones from one launch: the drop is counted, the table stays short, the JSON keeps 10,000", .timeLimit(.minutes(5)))
    func milestoneFloodIsSaid() throws {
        let scratch = try ScratchDirectory()
        let results = scratch.file("flood.json")
        let run = try launchprof(
            [
                "run", "-r", "1", "-w", "0", "--timeout", "120", "--command-name", "flood", "--export-json", results, "--",
                try Products.path("lp-sample-app"), "--words", "100", "--workers", "1", "--milestones", "200000",
            ], in: scratch.path)
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.count < 60, "\(lines.count) lines on the terminal")
        #expect(run.standardOutput.contains("more: --export-json"))
        let said = lines.first { $0.contains("more than 10000 records") }
        #expect(said != nil, "\(run.standardOutput)")
        // The program sent its own records too (entry, main, launch complete…).
        let dropped = said.flatMap { $0.firstMatch(of: /dropped (\d+)/) }.flatMap { Int($0.1) }
        #expect((190_000...190_100).contains(dropped ?? 0), "\(said ?? "")")
        let document = try ResultsDocument.load(from: results)
        let milestones = document.results.first?.summaries.keys.filter { $0.hasPrefix("milestone:") } ?? []
        #expect((9_990...10_000).contains(milestones.count), "\(milestones.count) milestones kept")
    }

    private static func mode(of path: String) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return status.st_mode & 0o7777
    }
}
