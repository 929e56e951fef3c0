import CLaunchProfSupport
import Synchronization

/// Launch milestones, from process entry to launch complete.
///
/// Process entry is recorded by a C constructor before `main` (so pre-main
/// time is visible); everything else is marked by the program. Each milestone
/// is an event in the trace and, when the process was started by `launchprof`,
/// one line on the harness pipe. ``recordLaunchComplete()`` also tells systemd
/// (`READY=1` on `NOTIFY_SOCKET`).
public enum LaunchTracker {
    /// A named moment of the launch, in CLOCK_MONOTONIC nanoseconds.
    public struct Milestone: Sendable, Equatable {
        public let name: String
        public let nanoseconds: UInt64
    }

    struct State {
        var mainNs: UInt64 = 0
        var completeNs: UInt64 = 0
        var milestones: [Milestone] = []
        var completionHandlers: [@Sendable () -> Void] = []
    }

    static let state = Mutex(State())

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
        let first = state.withLock { state in
            guard state.mainNs == 0 else { return false }
            state.mainNs = now
            return true
        }
        guard first else { return }
        lp_record_at(now, UInt8(LP_KIND_MILESTONE), Names.encode("main"), 0, 0, 0, 0)
        HarnessPipe.send(kind: "main", nanoseconds: now, name: nil)
    }

    /// Marks a named milestone of the launch.
    public static func recordMilestone(_ name: StaticString) {
        let now = lp_now_ns()
        lp_record_at(now, UInt8(LP_KIND_MILESTONE), Names.encode(name), 0, 0, 0, 0)
        remember(Milestone(name: name.description, nanoseconds: now))
    }

    /// Marks a milestone whose name is only known at run time.
    public static func recordMilestone(_ name: String) {
        let now = lp_now_ns()
        lp_record_at(now, UInt8(LP_KIND_MILESTONE), Names.intern(name), 0, 0, 0, 0)
        remember(Milestone(name: name, nanoseconds: now))
    }

    private static func remember(_ milestone: Milestone) {
        state.withLock { $0.milestones.append(milestone) }
        HarnessPipe.send(kind: "milestone", nanoseconds: milestone.nanoseconds, name: milestone.name)
    }

    /// Marks the launch complete: the program is ready for its user. Only the
    /// first call counts. Tells the harness, sends `READY=1` to systemd, and
    /// runs the handlers registered with ``onLaunchComplete(_:)``.
    public static func recordLaunchComplete() {
        let now = lp_now_ns()
        let handlers: [@Sendable () -> Void]? = state.withLock { state in
            guard state.completeNs == 0 else { return nil }
            state.completeNs = now
            defer { state.completionHandlers = [] }
            return state.completionHandlers
        }
        guard let handlers else { return }
        lp_record_at(now, UInt8(LP_KIND_LAUNCH_COMPLETE), Names.encode("launch complete"), 0, 0, 0, 0)
        HarnessPipe.send(kind: "ready", nanoseconds: now, name: nil)
        _ = lp_sd_notify("READY=1")
        for handler in handlers { handler() }
    }

    /// Whether ``recordLaunchComplete()`` has been called.
    public static var isLaunchComplete: Bool { state.withLock { $0.completeNs != 0 } }

    /// Runs `handler` once launch is complete: at once (on the calling thread)
    /// if it already is, otherwise on the thread that completes it.
    public static func onLaunchComplete(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.completeNs != 0 { return true }
            state.completionHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Milestones recorded so far, in order.
    public static var milestones: [Milestone] { state.withLock { $0.milestones } }

    /// When main began (``recordLaunchStart()``), if recorded.
    public static var mainNanoseconds: UInt64? {
        let ns = state.withLock { $0.mainNs }
        return ns == 0 ? nil : ns
    }

    /// When launch completed, if it has.
    public static var launchCompleteNanoseconds: UInt64? {
        let ns = state.withLock { $0.completeNs }
        return ns == 0 ? nil : ns
    }
}

/// Protocol v1 records on LAUNCHPROF_READY_FD: one line, one write(2) each.
///
///     LP1 entry <ns> <pid>        (written by the C constructor)
///     LP1 main <ns>
///     LP1 milestone <ns> <name>
///     LP1 ready <ns>
enum HarnessPipe {
    /// Names longer than this are cut so each record stays below PIPE_BUF
    /// (4096) and one write(2) stays atomic.
    static let maxNameBytes = 1024

    static func send(kind: String, nanoseconds: UInt64, name: String?) {
        guard lp_harness_connected() != 0 else { return }
        var line = "LP1 \(kind) \(nanoseconds)"
        if let name {
            var clean = String(decoding: name.utf8.prefix(maxNameBytes), as: UTF8.self)
            clean = String(clean.map { $0.isNewline || $0 == "\t" ? " " : $0 })
            line += " " + clean
        }
        line += "\n"
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                _ = lp_harness_write(chars.baseAddress, chars.count)
            }
        }
    }
}
