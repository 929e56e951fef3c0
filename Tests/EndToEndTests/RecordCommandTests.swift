import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof record` on real programs, as a user runs it.
@Suite struct RecordCommandTests {
    @Test func recordingTheSampleGivesATraceWithItsMilestonesInOrder() throws {
        let trace = Products.temporaryPath("record.lptrace")
        defer { unlink(trace) }
        let result = try CommandRun.run(
            try Products.path("launchprof"),
            ["record", "--quiet", "--output", trace, "--", try Products.path("lp-sample-app"), "--words", "3000"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("wrote \(trace)"))

        let parsed = try TraceReader.read(path: trace)
        let milestones = parsed.events.filter { $0.kind == .milestone }.map(\.name)
        #expect(milestones == ["main", "config loaded", "index ready", "workers warm"])
        let header = parsed.header
        let spawn = try #require(header.spawnNanoseconds)
        let entry = try #require(header.processEntryNanoseconds)
        let main = try #require(header.mainNanoseconds)
        let complete = try #require(header.launchCompleteNanoseconds)
        #expect(spawn < entry && entry < main && main < complete)
        #expect(parsed.events.filter { $0.kind == .milestone }.map(\.timestamp).allSatisfy { $0 > entry && $0 <= complete })
        #expect(header.lostEvents == 0)
        #expect(parsed.threadNames.values.contains("lp-worker-1"))
    }

    @Test func aProgramWithoutLaunchProfIsExplainedAndExitsWith3() throws {
        let directory = Products.temporaryPath("record-dir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CommandRun.run(try Products.path("launchprof"), ["record", "--", "/bin/true"], workingDirectory: directory)
        #expect(result.status == 3)
        #expect(result.standardError.contains("'/bin/true' exited with status 0 but wrote no trace to 'true.lptrace'"))
        #expect(result.standardError.contains("does it link LaunchProf"))
    }

    @Test func aMissingProgramIsNamedAndExitsWith2() throws {
        let result = try CommandRun.run(try Products.path("launchprof"), ["record", "--", "/no/such/program"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("program '/no/such/program' does not exist"))
    }

    @Test func noCommandIsAUsageError() throws {
        let result = try CommandRun.run(try Products.path("launchprof"), ["record"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("give the command to record after '--'"))
    }
}

/// `--help` on every subcommand prints its help and exits 0 — including
/// those that take a command after `--`, where `--help` after `--` belongs to
/// the program.
@Suite("--help everywhere")
struct HelpTests {
    @Test("every subcommand answers --help and -h", arguments: ["run", "compare", "report", "profile", "record", "export"])
    func help(subcommand: String) throws {
        for flag in ["--help", "-h"] {
            let run = try CommandRun.run(try Products.path("launchprof"), [subcommand, flag])
            #expect(run.status == 0, "\(subcommand) \(flag): \(run.standardError)")
            #expect(run.standardOutput.contains("USAGE: launchprof \(subcommand)"), "\(subcommand) \(flag): \(run.standardOutput)")
        }
    }

    @Test("after --, --help is the program's argument")
    func helpAfterTerminator() throws {
        let trace = Products.temporaryPath("help.lptrace")
        defer { unlink(trace) }
        let run = try CommandRun.run(
            try Products.path("launchprof"), ["record", "--output", trace, "--", "/usr/bin/printf", "%s\\n", "--help"])
        #expect(run.standardOutput == "--help\n")
        #expect(!run.standardOutput.contains("USAGE"))
    }
}
