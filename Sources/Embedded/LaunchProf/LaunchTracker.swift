import CLaunchProfSampler
import CLaunchProfSupport
import LaunchProfFiles
import LaunchProfFormat

/// Launch milestones, from process entry to launch complete.
///
/// Process entry is recorded by a C constructor before `main` (so pre-main
/// time is visible); everything else is marked by the program. Each milestone
/// is an event in the trace and, when the process was started by `launchprof`,
/// one record on the record socket (LAUNCHPROF_RECORD_FD). ``recordLaunchComplete()`` also tells systemd
/// (`READY=1` on `NOTIFY_SOCKET`).
public enum LaunchTracker {
    /// A named moment of the launch, in CLOCK_MONOTONIC nanoseconds.
    public struct Milestone: Sendable, Equatable {
        /// The milestone's name.
        public let name: String
        /// When it was recorded (`CLOCK_MONOTONIC`, nanoseconds).
        public let nanoseconds: UInt64
    }

    /// Handlers waiting for launch complete. Touched only by
    /// ``onLaunchComplete(_:)`` and ``recordLaunchComplete()``: the milestone
    /// path uses C statics alone, so a first milestone instantiates no
    /// generic type (measured: that was ~30% of LaunchProf's launch cost).
    private struct Completion {
        var done = false
        var handlers: [@Sendable () -> Void] = []
    }

    private static let completion = Locked(Completion())

    /// When the process entered (the constructor ran), CLOCK_MONOTONIC ns.
    public static var processEntryNanoseconds: UInt64 { lp_process_entry_ns() }

    /// When the harness spawned this process, if it did (LAUNCHPROF_SPAWN_NS).
    public static var spawnNanoseconds: UInt64? {
        let ns = lp_spawn_ns()
        return ns == 0 ? nil : ns
    }

    /// Launch start is recorded at process entry, before `main`. Calling this
    /// marks where your own code began (the "main" milestone, reported as time
    /// to main); only the first call counts.
    public static func recordLaunchStart() {
        let now = lp_now_ns()
        guard lp_launch_mark(0, now) != 0 else { return }
        lp_record_at(now, UInt8(LP_KIND_MILESTONE), Names.encode("main"), 0, 0, 0, 0)
        lp_harness_record(LP_RECORD_MAIN, now, nil, 0)
    }

    /// Marks a named milestone of the launch.
    public static func recordMilestone(_ name: StaticString) {
        let now = lp_now_ns()
        let encoded = Names.encode(name)
        lp_record_at(now, UInt8(LP_KIND_MILESTONE), encoded, 0, 0, 0, 0)
        lp_milestone_add(now, encoded)
        guard lp_harness_connected() != 0 else { return }
        if name.hasPointerRepresentation {
            name.utf8Start.withMemoryRebound(to: CChar.self, capacity: name.utf8CodeUnitCount) {
                lp_harness_record(LP_RECORD_MILESTONE, now, $0, name.utf8CodeUnitCount)
            }
        } else {
            sendMilestone(name.description, at: now)
        }
    }

    /// Marks a milestone whose name is only known at run time. The name is
    /// interned on first use (a lock and a hash), so prefer the `StaticString`
    /// form; the label keeps a literal from choosing this slower overload.
    public static func recordMilestone(dynamicName name: String) {
        let now = lp_now_ns()
        let encoded = Names.intern(name)
        lp_record_at(now, UInt8(LP_KIND_MILESTONE), encoded, 0, 0, 0, 0)
        lp_milestone_add(now, encoded)
        if lp_harness_connected() != 0 { sendMilestone(name, at: now) }
    }

    private static func sendMilestone(_ name: String, at now: UInt64) {
        var name = name
        name.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { lp_harness_record(LP_RECORD_MILESTONE, now, $0.baseAddress, $0.count) }
        }
    }

    /// Marks the launch complete: the program is ready for its user. Only the
    /// first call counts. Tells the harness, sends `READY=1` to systemd, and
    /// runs the handlers registered with ``onLaunchComplete(_:)``.
    public static func recordLaunchComplete() {
        let now = lp_now_ns()
        guard lp_launch_mark(1, now) != 0 else { return }
        lp_sampler_stop()  // the sampler (LAUNCHPROF_SAMPLE_HZ) covers the launch only
        lp_record_at(now, UInt8(LP_KIND_LAUNCH_COMPLETE), Names.encode("launch complete"), 0, 0, 0, 0)
        if lp_trace_at_ready() == 1 {
            // Before telling the harness: once it sees ready, the file is whole.
            do {
                try Tracer.flush()
            } catch {
                StandardStream.error.write("launchprof: \(error)\n")
            }
        }
        lp_harness_record(LP_RECORD_READY, now, nil, 0)
        // After ready, so it costs time to ready nothing: how much of the
        // launch the main thread spent running (the rest it waited).
        lp_harness_main_cpu(now)
        _ = lp_sd_notify("READY=1")
        if lp_trace_at_ready() == 2 {
            // After telling the harness (`launchprof run --trace-runs`): time
            // to ready does not include writing the trace; the harness waits
            // for the file before it stops the process.
            do {
                try Tracer.flush()
            } catch {
                StandardStream.error.write("launchprof: \(error)\n")
            }
        }
        let handlers = completion.withLock { state in
            state.done = true
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }

    /// Whether ``recordLaunchComplete()`` has been called.
    public static var isLaunchComplete: Bool { lp_launch_time(1) != 0 }

    /// Runs `handler` once launch is complete: at once (on the calling thread)
    /// if it already is, otherwise on the thread that completes it.
    public static func onLaunchComplete(_ handler: @escaping @Sendable () -> Void) {
        let runNow = completion.withLock { state in
            if state.done { return true }
            state.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Milestones recorded so far, in order (the first 1024).
    public static var milestones: [Milestone] {
        let capacity = Int(LP_MAX_MILESTONES)
        var times = [UInt64](repeating: 0, count: capacity)
        var names = [UInt64](repeating: 0, count: capacity)
        let count = lp_milestones(&times, &names, capacity)
        return (0..<count).map { Milestone(name: Names.text(of: names[$0]), nanoseconds: times[$0]) }
    }

    /// The LAUNCHPROF_* variables this process was started with. LaunchProf
    /// reads them once at process entry and removes them from the
    /// environment, so the programs this one runs are not taken for it (their
    /// records and traces would go to the harness as this launch's). A program
    /// that wants a child traced as well passes these on to it explicitly.
    /// Empty in a setuid or setcap program, where none is honoured.
    public static var harnessEnvironment: [String: String] {
        var variables: [String: String] = [:]
        for index in 0..<lp_env_count() {
            var value: UnsafePointer<CChar>?
            guard let name = lp_env_entry(index, &value), let value else { continue }
            variables[String(cString: name)] = String(cString: value)
        }
        return variables
    }

    /// The background task this process was launched to run, when it was
    /// launched for one (`LAUNCHPROF_BACKGROUND_TASK`, which the systemd
    /// units `BackgroundTaskScheduler` generates set): a background launch,
    /// as iOS launches an app just to run a task. Such a launch runs the
    /// task and skips its foreground launch work; nil for a normal launch.
    public static var backgroundTaskIdentifier: String? {
        lp_env("LAUNCHPROF_BACKGROUND_TASK").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether this is a background launch (``backgroundTaskIdentifier`` is set).
    public static var isBackgroundLaunch: Bool { backgroundTaskIdentifier != nil }

    /// When main began (``recordLaunchStart()``), if recorded.
    public static var mainNanoseconds: UInt64? {
        let ns = lp_launch_time(0)
        return ns == 0 ? nil : ns
    }

    /// When launch completed, if it has.
    public static var launchCompleteNanoseconds: UInt64? {
        let ns = lp_launch_time(1)
        return ns == 0 ? nil : ns
    }
}

// Protocol v1 records on LAUNCHPROF_RECORD_FD (docs/trace-format.md), one
// line and one write(2) each, formatted in C (lp_harness_record):
//
//     LP1 entry <ns> <pid>        (written by the C constructor)
//     LP1 main <ns>
//     LP1 milestone <ns> <name>
//     LP1 ready <ns>
