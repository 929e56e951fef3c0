import Foundation
import Glibc
import LaunchProfLifecycle
import LaunchProfTestSupport
import Testing

/// The schedule as hostile input, and processes that share it: real
/// launches of lp-sample-background against planted files, two launches
/// racing for one due task, a launch killed in the middle of a run.
@Suite("Background tasks: hostile schedules and shared schedules", .serialized)
struct BackgroundTaskHostileTests {
    private let refresh = "dev.launchprof.refresh"

    private func schedulePath(_ state: String) -> String { "\(state)/lp-sample-background.background-tasks" }

    /// One launch of the sample to its exit: its status and output lines.
    private func launch(_ arguments: [String], timeout: Double = 30) throws -> (SampleProcess.Ending?, [String]) {
        let process = try SampleProcess("lp-sample-background", arguments, placement: .processGroup)
        let ending = process.waitForExit(timeout: timeout)
        return (ending, process.lines)
    }

    private func plant(_ text: String, in state: String) throws {
        try text.write(toFile: schedulePath(state), atomically: true, encoding: .utf8)
    }

    @Test(
        "an out-of-range entry (last, next, failures past Int64, a bad claim) is discarded with a diagnostic naming file and line, never a trap",
        arguments: [
            ("last=9223372036854775807", "last '9223372036854775807' is not a whole number from 0 to 253402300799999"),
            ("next=-1", "next '-1' is not a whole number from 0 to 253402300799999"),
            ("failures=9223372036854775807", "failures '9223372036854775807' is not a whole number from 0 to 1000000"),
            ("failures=99999999999999999999999", "failures '99999999999999999999999' is not a whole number from 0 to 1000000"),
            ("claim=0@5", "claim slot '0' is not a whole number from 1 to 65536"),
        ])
    func outOfRangeEntryDiscarded(field: String, problem: String) throws {
        let state = try ScratchDirectory()
        let path = schedulePath(state.path)
        try plant(
            "launchprof-background-tasks 1\ntask \(refresh) next=0 last=0 outcome=succeeded failures=0 \(field)\n", in: state.path)
        let (ending, lines) = try launch(["--state", state.path])
        #expect(ending == .exited(0), "\(lines)")
        #expect(lines.contains("launchprof: \(path):2: \(problem); the entry is discarded"), "\(lines)")
        // Discarded, the task is as new: due, and run.
        #expect(lines.contains("ran \(refresh): succeeded"), "\(lines)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains(String(field.split(separator: "=")[1])), "the bad value survived: \(text)")
        let (_, again) = try launch(["--state", state.path])
        #expect(!again.contains { $0.contains("discarded") }, "the file was not rewritten whole: \(again)")
    }

    @Test("failures at the cap saturate: an expired run keeps failures=1000000 and a finite retry")
    func failuresSaturate() throws {
        let state = try ScratchDirectory()
        try plant("launchprof-background-tasks 1\ntask \(refresh) next=0 last=0 outcome=failed failures=1000000\n", in: state.path)
        let (ending, lines) = try launch(["--state", state.path, "--work-ms", "5000", "--budget-ms", "50"])
        #expect(ending == .exited(0), "\(lines)")
        #expect(lines.contains("ran \(refresh): expired (time budget)"), "\(lines)")
        let text = try String(contentsOfFile: schedulePath(state.path), encoding: .utf8)
        #expect(text.contains("task \(refresh) ") && text.contains("outcome=expired failures=1000000"), "\(text)")
    }

    @Test("a huge interval, budget, begin or retry delay is refused with a clear error before anything is computed")
    func hugeDurationsRefused() throws {
        let state = try ScratchDirectory()
        let scheduler = try BackgroundTaskScheduler(directory: state.path, name: "unit")
        try scheduler.register("a.b") { _ in }
        let huge = Duration.seconds(Int64.max)
        for request in [
            BackgroundTaskRequest.refresh("a.b", every: huge), .refresh("a.b", every: .seconds(1), timeBudget: huge),
            .processing("a.b", repeatEvery: huge), .refresh("a.b", every: .seconds(1), earliestBegin: Int64.max),
            .refresh("a.b", every: .seconds(1), earliestBegin: -1),
        ] {
            do {
                try scheduler.submit(request)
                Issue.record("accepted \(request)")
            } catch {
                #expect(error.description.contains("task 'a.b'"), "\(error)")
                #expect(error.description.contains("at most 100 years") || error.description.contains("earliest begin"), "\(error)")
            }
        }
        #expect(throws: BackgroundTaskError.self) { _ = try BackgroundTaskScheduler(directory: state.path, retryDelay: huge) }
        // The sample asked for it from its command line: exit 2 with the reason, not a trap.
        let (ending, lines) = try launch(["--state", state.path, "--interval-ms", "9223372036854775807"])
        #expect(ending == .exited(2), "\(lines)")
        #expect(lines.contains { $0.contains("a refresh's minimum interval must be at most 100 years") }, "\(lines)")
    }

    @Test("a FIFO or a symlink to /dev/zero in the schedule's place, or a FIFO as its lock file: refused at once, named")
    func specialFilesRefused() throws {
        for (plantedAt, kind) in [("schedule", "a FIFO"), ("zero", "a character device"), ("lock", "lock file is not a regular file")] {
            let state = try ScratchDirectory()
            let path = schedulePath(state.path)
            switch plantedAt {
            case "schedule": try #require(mkfifo(path, 0o600) == 0)
            case "zero": try #require(symlink("/dev/zero", path) == 0)
            default: try #require(mkfifo("\(path).lock", 0o600) == 0)
            }
            let started = Date()
            let (ending, lines) = try launch(["--state", state.path], timeout: 20)
            #expect(ending == .exited(2), "\(plantedAt): \(lines)")
            #expect(lines.contains { $0.contains(path) && $0.contains(kind) }, "\(plantedAt): \(lines)")
            #expect(Date().timeIntervalSince(started) < 20, "\(plantedAt): the launch hung")
        }
    }

    @Test("two launches racing for the same due tasks: each task runs exactly once")
    func racingLaunchesRunEachTaskOnce() throws {
        let state = try ScratchDirectory()
        let barrier = "\(state.path)/go"
        // Both launches read the schedule and reach the barrier before either
        // runs anything: without a lock between them, both would run both tasks.
        let launches = try (0..<2).map { _ in
            try SampleProcess(
                "lp-sample-background", ["--state", state.path, "--barrier", barrier, "--work-ms", "300"], placement: .processGroup)
        }
        for process in launches { try #require(process.waitForLine(containing: "at barrier", timeout: 30) != nil) }
        try #require(FileManager.default.createFile(atPath: barrier, contents: nil))
        for process in launches { #expect(process.waitForExit(timeout: 30) == .exited(0), "\(process.lines)") }
        let lines = launches.flatMap(\.lines)
        for task in [refresh, "dev.launchprof.cleanup"] {
            #expect(lines.filter { $0 == "ran \(task): succeeded" }.count == 1, "\(task): \(lines)")
            #expect(lines.filter { $0 == "started \(task)" }.count == 1, "\(task): \(lines)")
        }
    }

    @Test("a launch killed in the middle of a run loses nothing: the next records it as expired and retries after the backoff")
    func killedRunIsRecorded() throws {
        let state = try ScratchDirectory()
        let process = try SampleProcess("lp-sample-background", ["--state", state.path, "--work-ms", "20000"], placement: .processGroup)
        let started = try #require(process.waitForLine(containing: "started dev.launchprof.", timeout: 30))
        let task = String(started.dropFirst("started ".count))
        #expect(try String(contentsOfFile: schedulePath(state.path), encoding: .utf8).contains("claim=1@"))
        process.send(SIGKILL)
        #expect(process.waitForExit() == .signaled(SIGKILL))
        let (ending, lines) = try launch(["--state", state.path, "--retry-ms", "600000"])
        #expect(ending == .exited(0), "\(lines)")
        #expect(
            lines.contains {
                $0.contains("background task '\(task)' was running in a process that ended before recording it")
            }, "\(lines)")
        #expect(!lines.contains("started \(task)"), "retried before its backoff: \(lines)")
        let text = try String(contentsOfFile: schedulePath(state.path), encoding: .utf8)
        let entry = try #require(text.split(separator: "\n").first { $0.hasPrefix("task \(task) ") })
        #expect(entry.contains("outcome=expired failures=1") && !entry.contains("claim="), "\(text)")
    }

    @Test("a process killed while holding the schedule's lock leaves it whole and unlocked; one that holds it is waited for, then named")
    func lockHolderKilled() throws {
        let state = try ScratchDirectory()
        let (first, _) = try launch(["--state", state.path])
        #expect(first == .exited(0))
        let before = try String(contentsOfFile: schedulePath(state.path), encoding: .utf8)
        // Another process takes byte 0 of the lock file (an OFD lock, as the scheduler does) and keeps it.
        let locked = "\(state.path)/holder-locked"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c",
            "import fcntl,os,struct,sys,time; fd=os.open(sys.argv[1], os.O_RDWR|os.O_CREAT, 0o600); "
                + "fcntl.fcntl(fd, fcntl.F_OFD_SETLK, struct.pack('hhqqi', fcntl.F_WRLCK, 0, 0, 1, 0)); "
                + "open(sys.argv[2], 'w').close(); time.sleep(60)",
            "\(schedulePath(state.path)).lock", locked,
        ]
        try holder.run()
        defer { kill(holder.processIdentifier, SIGKILL) }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: locked), Date() < deadline { usleep(10_000) }
        try #require(FileManager.default.fileExists(atPath: locked), "the lock holder never took the lock")
        let (held, lines) = try launch(["--state", state.path])
        #expect(held == .exited(2), "\(lines)")
        #expect(lines.contains { $0.contains("is locked by another process") && $0.contains("nothing was changed") }, "\(lines)")
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(try String(contentsOfFile: schedulePath(state.path), encoding: .utf8) == before)
        let (after, afterLines) = try launch(["--state", state.path])
        #expect(after == .exited(0), "the lock outlived its holder: \(afterLines)")
    }

    @Test("a temporary file left by a writer killed mid-save is removed by the next launch; the schedule it would have replaced is whole")
    func staleTemporaryRemoved() throws {
        let state = try ScratchDirectory()
        let (first, _) = try launch(["--state", state.path])
        #expect(first == .exited(0))
        // A writer that is gone: a process that has exited and been reaped.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let stale = "\(schedulePath(state.path)).tmp.\(gone.processIdentifier).5eed"
        let live = "\(schedulePath(state.path)).tmp.\(getpid()).5eed"
        for path in [stale, live] { try "task half-writ".write(toFile: path, atomically: false, encoding: .utf8) }
        let (ending, lines) = try launch(["--state", state.path])
        #expect(ending == .exited(0), "\(lines)")
        #expect(!FileManager.default.fileExists(atPath: stale), "the dead writer's temporary file stayed")
        #expect(FileManager.default.fileExists(atPath: live), "a live writer's temporary file was removed")
        #expect(try String(contentsOfFile: schedulePath(state.path), encoding: .utf8).hasPrefix("launchprof-background-tasks 1\n"))
    }
}
