import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfLifecycle
import LaunchProfTestSupport
import Testing

/// The background task scheduler with real processes and real time (scaled
/// down): lp-sample-background launched again and again on one schedule.
@Suite("Background tasks", .serialized)
struct BackgroundTaskTests {
    /// A fresh directory for a schedule (and a stand-in for /sys).
    private func scratch(_ name: String) throws -> String {
        let path = "\(NSTemporaryDirectory())/launchprof-background-\(getpid())-\(UUID().uuidString.prefix(8))-\(name)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// One launch of the sample to its exit; its output lines.
    private func launch(_ arguments: [String], environment: [String: String] = [:]) throws -> [String] {
        let process = try SampleProcess("lp-sample-background", arguments, environment: environment, placement: .processGroup)
        process.waitForLine(containing: "done", timeout: 30)
        _ = process.waitForExit(timeout: 30)
        return process.lines
    }

    private func runs(_ lines: [String], of identifier: String) -> [String] {
        lines.filter { $0.hasPrefix("ran \(identifier):") }
    }

    private func schedule(_ directory: String) throws -> String {
        try String(contentsOfFile: "\(directory)/lp-sample-background.background-tasks", encoding: .utf8)
    }

    @Test("a refresh due every 2 s runs once across five launches within 2 s, and again after")
    func refreshRunsAtMostAsOftenAsAsked() throws {
        let state = try scratch("refresh")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let start = Date()
        var ran = 0
        for _ in 0..<5 {
            let lines = try launch(["--state", state, "--interval-ms", "2000"])
            #expect(lines.contains("foreground launch work done"))
            // Nothing runs before launch complete: the run comes after the foreground work.
            if let work = lines.firstIndex(of: "foreground launch work done"),
                let started = lines.firstIndex(of: "started dev.launchprof.refresh")
            {
                #expect(work < started)
            }
            ran += runs(lines, of: "dev.launchprof.refresh").count
        }
        let elapsed = Date().timeIntervalSince(start)
        try #require(elapsed < 2, "the five launches took \(elapsed) s, longer than the interval: the check means nothing")
        #expect(ran == 1, "five launches within 2 s ran the refresh \(ran) times")
        Thread.sleep(forTimeInterval: 2.1 - elapsed)
        let later = try launch(["--state", state, "--interval-ms", "2000"])
        #expect(runs(later, of: "dev.launchprof.refresh") == ["ran dev.launchprof.refresh: succeeded"])
    }

    @Test("each run is an interval in the trace, after the foreground launch work; a failure retries after the backoff")
    func runsAreTraced() throws {
        let state = try scratch("trace")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let trace = "\(state)/sample.lptrace"
        let lines = try launch(["--state", state, "--work-ms", "30"], environment: ["LAUNCHPROF_TRACE": trace])
        #expect(lines.contains("ran dev.launchprof.refresh: succeeded"))
        let read = try TraceReader.read(path: trace)
        let intervals = read.pairIntervals()
        let outcomes = Set(read.events.map(\.name).filter { $0.hasPrefix("dev.launchprof.") && $0.contains(": ") })
        #expect(outcomes == ["dev.launchprof.refresh: succeeded", "dev.launchprof.cleanup: succeeded"], "\(outcomes)")
        let all = intervals.slices + intervals.asyncIntervals
        let traced = all.filter { $0.category.category == "background-task" }
        #expect(Set(traced.map(\.name)) == ["dev.launchprof.refresh", "dev.launchprof.cleanup"])
        #expect(traced.allSatisfy { $0.duration >= 30_000_000 }, "each run did 30 ms of work")
        let foreground = try #require(all.first { $0.name == "foreground launch work" })
        #expect(traced.allSatisfy { $0.startTimestamp >= foreground.endTimestamp }, "nothing ran before launch complete")

        // An expired run is due again after the retry delay (3 s here), not at the next launch.
        let expired = try scratch("retry")
        defer { try? FileManager.default.removeItem(atPath: expired) }
        _ = try launch(["--state", expired, "--work-ms", "2000", "--budget-ms", "100", "--retry-ms", "3000"])
        let expiredAt = Date()
        let soon = try launch(["--state", expired, "--retry-ms", "3000"])
        try #require(Date().timeIntervalSince(expiredAt) < 3, "the next launch came after the backoff: the check means nothing")
        #expect(runs(soon, of: "dev.launchprof.refresh").isEmpty, "retried before its backoff")
        Thread.sleep(forTimeInterval: max(0, 3.2 - Date().timeIntervalSince(expiredAt)))
        let later = try launch(["--state", expired, "--retry-ms", "3000"])
        #expect(runs(later, of: "dev.launchprof.refresh") == ["ran dev.launchprof.refresh: succeeded"])
    }

    @Test("processing that requires external power waits while the power supply says battery")
    func externalPower() throws {
        let state = try scratch("power")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let power = "\(state)/power_supply"
        for (name, type) in [("BAT0", "Battery"), ("AC", "Mains")] {
            try FileManager.default.createDirectory(atPath: "\(power)/\(name)", withIntermediateDirectories: true)
            try "\(type)\n".write(toFile: "\(power)/\(name)/type", atomically: true, encoding: .utf8)
        }
        try "0\n".write(toFile: "\(power)/AC/online", atomically: true, encoding: .utf8)
        try "Discharging\n".write(toFile: "\(power)/BAT0/status", atomically: true, encoding: .utf8)
        for _ in 0..<2 {
            let lines = try launch(["--state", state, "--power", power])
            #expect(runs(lines, of: "dev.launchprof.cleanup").isEmpty, "ran on battery: \(lines)")
        }
        try "1\n".write(toFile: "\(power)/AC/online", atomically: true, encoding: .utf8)
        let plugged = try launch(["--state", state, "--power", power])
        #expect(runs(plugged, of: "dev.launchprof.cleanup") == ["ran dev.launchprof.cleanup: succeeded"])
        let after = try launch(["--state", state, "--power", power])
        #expect(runs(after, of: "dev.launchprof.cleanup").isEmpty, "a one-off that succeeded does not run again")
        // No battery at all (a server): on external power.
        #expect(BackgroundConditions(powerSupplies: "\(state)/nothing-here").hasExternalPower)
    }

    @Test("a run past its budget: the expiration handler runs, the work sees cancellation, the schedule records it")
    func expiry() throws {
        let state = try scratch("expiry")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let lines = try launch(["--state", state, "--work-ms", "5000", "--budget-ms", "200"])
        #expect(lines.contains("expiration handler ran for dev.launchprof.refresh"))
        #expect(lines.contains("work of dev.launchprof.refresh saw cancellation"))
        #expect(lines.contains("ran dev.launchprof.refresh: expired (time budget)"))
        let text = try schedule(state)
        #expect(text.contains("task dev.launchprof.refresh "))
        #expect(text.contains("outcome=expired failures=1"), "\(text)")
    }

    @Test("SIGTERM during a run expires it, records it, and starts nothing more")
    func terminationExpires() throws {
        let state = try scratch("sigterm")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let process = try SampleProcess(
            "lp-sample-background", ["--state", state, "--lifecycle", "--work-ms", "10000"], placement: .processGroup)
        try #require(process.waitForLine(containing: "started dev.launchprof.", timeout: 20) != nil)
        process.send(SIGTERM)
        let ending = process.waitForExit(timeout: 20)
        #expect(ending != nil, "still running 20 s after SIGTERM")
        #expect(
            process.lines.contains { $0.hasPrefix("expiration handler ran for dev.launchprof.") },
            "\(process.lines), ended: \(String(describing: ending))")
        #expect(process.lines.filter { $0.hasPrefix("started ") }.count == 1, "nothing started after SIGTERM: \(process.lines)")
        let text = try schedule(state)
        #expect(text.contains("outcome=expired failures=1"), "\(text)")
    }

    @Test("a background launch runs only its task, skips the foreground work, and is background from launch complete")
    func backgroundLaunch() throws {
        let state = try scratch("background")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["LAUNCHPROF_BACKGROUND_TASK": "dev.launchprof.refresh"]
        let process = try SampleProcess(
            "lp-sample-background", ["--state", state, "--lifecycle"], environment: environment, placement: .processGroup)
        process.waitForLine(containing: "lifecycle state:", timeout: 30)
        _ = process.waitForExit(timeout: 30)
        let lines = process.lines
        #expect(lines.contains("background launch for dev.launchprof.refresh"))
        #expect(lines.contains("started dev.launchprof.refresh (background launch)"))
        #expect(lines.contains("ran dev.launchprof.refresh: succeeded"))
        #expect(!lines.contains("foreground launch work done"))
        #expect(!lines.contains { $0.contains("dev.launchprof.cleanup") }, "only the task it was launched for")
        #expect(lines.contains("lifecycle state: background"))
        // Launched again at once for the same task: not due, nothing runs.
        let again = try SampleProcess("lp-sample-background", ["--state", state], environment: environment, placement: .processGroup)
        again.waitForLine(containing: "not due", timeout: 30)
        _ = again.waitForExit(timeout: 30)
        #expect(again.lines.contains("dev.launchprof.refresh is not due: nothing ran"))
    }

    @Test("the generated systemd timer and service units pass systemd-analyze verify")
    func systemdUnits() throws {
        let state = try scratch("units")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let units = "\(state)/units"
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        let lines = try launch(["--state", state, "--write-units", units])
        let written = lines.filter { $0.hasPrefix("wrote ") }.map { String($0.dropFirst("wrote ".count)) }
        #expect(written.count == 4, "\(lines)")
        let service = try String(contentsOfFile: "\(units)/lp-sample-background-dev.launchprof.refresh.service", encoding: .utf8)
        #expect(service.contains("Environment=LAUNCHPROF_BACKGROUND_TASK=dev.launchprof.refresh"))
        #expect(service.contains("Type=oneshot"))
        let timer = try String(contentsOfFile: "\(units)/lp-sample-background-dev.launchprof.refresh.timer", encoding: .utf8)
        #expect(timer.contains("OnUnitActiveSec=2s"))
        let cleanup = try String(contentsOfFile: "\(units)/lp-sample-background-dev.launchprof.cleanup.service", encoding: .utf8)
        #expect(cleanup.contains("ConditionACPower=true"))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            Issue.record("systemd-analyze is missing: Scripts/install-deps.sh installs systemd")
            return
        }
        let verify = try CommandRun.run("/usr/bin/systemd-analyze", ["verify"] + written)
        #expect(verify.status == 0, "systemd-analyze verify: \(verify.standardOutput)\(verify.standardError)")
    }

    @Test("bad requests and a corrupt schedule get clear errors, and the schedule file is left as it was")
    func badInput() throws {
        let state = try scratch("bad")
        defer { try? FileManager.default.removeItem(atPath: state) }
        let scheduler = try BackgroundTaskScheduler(directory: state, name: "unit")
        #expect(throws: BackgroundTaskError.notRegistered("a.b")) { try scheduler.submit(.refresh("a.b", every: .seconds(1))) }
        try scheduler.register("a.b") { _ in }
        #expect(throws: BackgroundTaskError.alreadyRegistered("a.b")) { try scheduler.register("a.b") { _ in } }
        #expect(throws: BackgroundTaskError.self) { try scheduler.register("has space") { _ in } }
        #expect(throws: BackgroundTaskError.self) { try scheduler.submit(.refresh("a.b", every: .zero)) }
        let corrupt = "\(state)/broken.background-tasks"
        try "not a schedule\n".write(toFile: corrupt, atomically: true, encoding: .utf8)
        do {
            _ = try BackgroundTaskScheduler(directory: state, name: "broken")
            Issue.record("a corrupt schedule was accepted")
        } catch {
            #expect(error.description.contains(corrupt))
            #expect(error.description.contains("left as it is"))
        }
        #expect(try String(contentsOfFile: corrupt, encoding: .utf8) == "not a schedule\n")
    }
}
