import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// Ready probes with real programs: the sample app and server, systemd's own
/// sd_notify client, and misbehaving C programs.
@Suite("Ready probes")
struct ProbeTests {
    @Test("tracer: the sample app's milestones arrive in order, after entry and main, before ready")
    func tracer() throws {
        let app = try Products.path("lp-sample-app")
        let run = try launchOnce(LaunchTarget(name: "app", arguments: [app, "--words", "2000"], ready: .tracer))
        // The app exits right after launch complete: whether the exit or the
        // stop after ready ends the run is the state machine's rule
        // (RunStateMachineTests, scripted); here, that the run succeeded.
        #expect(run.failure == nil, "\(run.exit)")
        #expect(run.milestones.map(\.name) == ["config loaded", "index ready", "workers warm"])
        let ready = try #require(run.wallToReady)
        let entry = try #require(run.processEntry)
        let main = try #require(run.main)
        let times = run.milestones.map(\.nanoseconds)
        #expect(entry > 0 && entry < main)
        #expect(main <= times[0])
        #expect(times == times.sorted())
        #expect(try #require(times.last) <= ready)
        if let exit = run.wallToExit { #expect(ready <= exit) }
    }

    @Test("exit probe still collects a traced program's milestones")
    func exitProbeMilestones() throws {
        let app = try Products.path("lp-sample-app")
        let run = try launchOnce(LaunchTarget(name: "app", arguments: [app, "--words", "2000"]))
        #expect(run.milestones.count == 3)
        #expect(run.wallToReady == run.wallToExit)
    }

    @Test("notify: the sample server becomes ready, is stopped by SIGTERM, and leaves nothing behind")
    func notifyServer() throws {
        let server = try Products.path("lp-sample-server")
        let run = try launchOnce(LaunchTarget(name: "server", arguments: [server, "--port", "0"], ready: .notify))
        try expectStoppedServer(run)
    }

    @Test("port: ready when 127.0.0.1:N accepts a connection")
    func portServer() throws {
        let server = try Products.path("lp-sample-server")
        let port = try freeLocalPort()
        let run = try launchOnce(
            LaunchTarget(name: "server", arguments: [server, "--port", "\(port)"], ready: .port(port)))
        try expectStoppedServer(run)
    }

    @Test("output: ready when a line of stdout matches")
    func outputServer() throws {
        let server = try Products.path("lp-sample-server")
        let run = try launchOnce(
            LaunchTarget(name: "server", arguments: [server, "--port", "0"], ready: .output("^listening on 127\\.0\\.0\\.1:[0-9]+")))
        try expectStoppedServer(run)
    }

    @Test("notify: systemd-notify --ready, a real sd_notify client, is seen")
    func systemdNotify() throws {
        let tool = "/usr/bin/systemd-notify"
        try #require(FileManager.default.isExecutableFile(atPath: tool), "systemd-notify is not installed")
        let script = "\(tool) --ready --status='up' || exit 7; exec sleep 300"
        let run = try launchOnce(LaunchTarget(name: "systemd-notify", arguments: [script], useShell: true, ready: .notify))
        #expect(run.exit == .stoppedByHarness(signal: SIGTERM))
        #expect(run.wallToReady != nil)
        #expect(!processIsAlive(run.pid))
    }

    @Test("a program ignoring SIGTERM gets SIGKILL after the grace period")
    func ignoresTerm() throws {
        let scratch = try ScratchDirectory()
        let program = try scratch.compile("stubborn", MisbehavingSource.ignoreTerm)
        let run = try launchOnce(
            LaunchTarget(name: "stubborn", arguments: [program], ready: .output("^ready$")), grace: .milliseconds(300))
        #expect(run.exit == .stoppedByHarness(signal: SIGKILL))
        #expect(run.wallToReady != nil)
        #expect(!processIsAlive(run.pid))
    }

    @Test("a flood of stdout and stderr never blocks the program or the harness")
    func flood() throws {
        let scratch = try ScratchDirectory()
        let program = try scratch.compile("flood", MisbehavingSource.flood)
        // 16 MiB through the pipes before the ready line, then the program exits.
        let run = try launchOnce(
            LaunchTarget(name: "flood", arguments: [program, "16"], ready: .output("^READY")))
        // It exits right after its ready line; how that ends the run is the
        // state machine's rule (RunStateMachineTests): here, a success.
        #expect(run.failure == nil, "\(run.exit)")
        let ready = try #require(run.wallToReady)
        if let exit = run.wallToExit { #expect(ready <= exit) }
        // Flooding after ready, while staying up: stopped, not stuck.
        let staying = try launchOnce(
            LaunchTarget(name: "flood", arguments: [program, "4", "stay"], ready: .output("^READY")))
        #expect(staying.exit == .stoppedByHarness(signal: SIGTERM))
    }

    @Test("captured output is still written to the per-run file")
    func capturedOutputFile() throws {
        let scratch = try ScratchDirectory()
        let run = try launchOnce(
            LaunchTarget(name: "echo", arguments: ["echo one; echo two >&2"], useShell: true, ready: .output("two")),
            output: .file(scratch.file("out")))
        #expect(run.wallToReady != nil)
        let text = try scratch.read("out")
        #expect(text.contains("one\n") && text.contains("two\n"))
    }

    @Test("a program that exits without the probe firing is a failure")
    func exitBeforeReady() throws {
        let run = try launchOnce(LaunchTarget(name: "true", arguments: ["/bin/true"], ready: .tracer))
        #expect(run.exit == .exited(0))
        #expect(run.wallToReady == nil)
        #expect(run.failure?.contains("before it was ready") == true)
    }

    @Test("a record of another protocol version is rejected with a clear error")
    func wrongProtocol() throws {
        let scratch = try ScratchDirectory()
        let program = try scratch.compile("lp2", MisbehavingSource.wrongProtocol)
        let run = try launchOnce(LaunchTarget(name: "lp2", arguments: [program], ready: .tracer))
        let error = try #require(run.protocolError)
        #expect(error.contains("'LP2'") && error.contains("'LP1'"))
        #expect(!processIsAlive(run.pid))
    }

    @Test("LP1 records parse; unknown kinds are skipped; bad lines are errors")
    func recordParsing() throws {
        #expect(try TracerRecord.parse("LP1 entry 12 345") == .entry(nanoseconds: 12, pid: 345))
        #expect(try TracerRecord.parse("LP1 main 13") == .main(nanoseconds: 13))
        #expect(try TracerRecord.parse("LP1 milestone 14 config loaded") == .milestone(nanoseconds: 14, name: "config loaded"))
        #expect(try TracerRecord.parse("LP1 ready 15") == .ready(nanoseconds: 15))
        #expect(try TracerRecord.parse("LP1 resumed 17") == .resumed(nanoseconds: 17))
        #expect(try TracerRecord.parse("LP1 maincpu 19 4000") == .mainThreadCPU(nanoseconds: 19, cpu: 4000))
        #expect(throws: TracerRecordError.malformed("LP1 maincpu 19")) { try TracerRecord.parse("LP1 maincpu 19") }
        #expect(try TracerRecord.parse("LP1 stopping 18") == nil)
        #expect(try TracerRecord.parse("LP1 sample 16 x") == nil)
        #expect(throws: TracerRecordError.unsupportedVersion("LP2", line: "LP2 ready 1")) { try TracerRecord.parse("LP2 ready 1") }
        #expect(throws: TracerRecordError.malformed("LP1 ready soon")) { try TracerRecord.parse("LP1 ready soon") }
        #expect(throws: TracerRecordError.malformed("hello")) { try TracerRecord.parse("hello") }
    }

    @Test("--ready values parse, and bad ones say what is wrong")
    func probeParsing() throws {
        #expect(try ReadyProbe(parsing: "port:8080") == .port(8080))
        #expect(try ReadyProbe(parsing: "output:^ready$") == .output("^ready$"))
        #expect(try ReadyProbe(parsing: "notify") == .notify)
        #expect(throws: ReadyProbeParseError.badPort("99999")) { try ReadyProbe(parsing: "port:99999") }
        #expect(throws: ReadyProbeParseError.unknown("soon")) { try ReadyProbe(parsing: "soon") }
        #expect(throws: (any Error).self) { try ReadyProbe(parsing: "output:(unclosed") }
    }

    private func expectStoppedServer(_ run: ObservedRun) throws {
        #expect(run.exit == .stoppedByHarness(signal: SIGTERM))
        #expect(run.failure == nil)
        #expect(run.wallToExit == nil)
        let ready = try #require(run.wallToReady)
        #expect(ready > (run.main ?? 0))
        #expect(run.milestones.map(\.name) == ["routes loaded", "listening"])
        #expect(run.usage.userCPU + run.usage.systemCPU > 0)
        #expect(run.usage.minorFaults > 0)
        #expect(!processIsAlive(run.pid))
    }
}
