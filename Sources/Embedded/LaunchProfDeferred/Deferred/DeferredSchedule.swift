import LaunchProf

/// The work a deferred task does.
enum DeferredWork: Sendable {
    case sync(@Sendable () throws -> Void)
    case async(@Sendable () async throws -> Void)
}

/// One registered task: its public record and, until it starts, its work
/// (dropped afterwards so captured values are released).
struct DeferredEntry {
    var record: DeferredTaskRecord
    var work: DeferredWork?
}

/// The mutable state of a ``DeferredInitializer``, guarded by its lock.
struct DeferredSchedule {
    var entries: [DeferredEntry] = []
    /// Ids of tasks not started, in registration order. Picking scans it:
    /// start-up work is tens of tasks, where a heap buys nothing.
    var pending: [Int] = []
    var phase: DeferredInitializer.Phase = .waitingForGate
    var gateOpen = false
    var gateOpenedNanoseconds: UInt64?
    var gateHooked = false
    var settlingThreadStarted = false
    var forced = false
    var startReason: DeferredStartReason?
    var runningSinceNanoseconds: UInt64 = 0
    /// Threads taking tasks (never above the concurrency limit).
    var workers = 0
    /// Tasks started and not yet finished.
    var running = 0
    var drainWaiters: [ThreadSemaphore] = []

    var isDrained: Bool { pending.isEmpty && running == 0 }

    /// Whether the caller should start the settling thread: the gate is
    /// open, there is work, and nobody started it yet.
    mutating func claimSettlingThread() -> Bool {
        guard gateOpen, phase == .waitingForGate, !pending.isEmpty, !settlingThreadStarted else { return false }
        settlingThreadStarted = true
        phase = .settling
        return true
    }

    mutating func beginRunning(reason: DeferredStartReason) {
        phase = .running
        startReason = reason
        runningSinceNanoseconds = RuntimeClock.now
    }

    /// How many more worker threads the caller must start, counted as
    /// started: enough for the queue, within the limit.
    mutating func claimWorkers(limit: Int) -> Int {
        guard phase == .running else { return 0 }
        let count = max(0, min(limit - workers, pending.count - (workers - running)))
        workers += count
        return count
    }

    /// The next task to start: highest priority, then earliest registered.
    mutating func popNext() -> Int? {
        guard var best = pending.indices.first else { return nil }
        for position in pending.indices.dropFirst()
        where entries[pending[position]].record.priority > entries[pending[best]].record.priority {
            best = position
        }
        return pending.remove(at: best)
    }

    mutating func takeDrainWaitersIfDrained() -> [ThreadSemaphore] {
        guard isDrained else { return [] }
        defer { drainWaiters = [] }
        return drainWaiters
    }
}
