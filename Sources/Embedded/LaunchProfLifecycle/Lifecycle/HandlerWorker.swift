import CLaunchProfLifecycle
import CLaunchProfSupport
import Glibc
import LaunchProf
import LaunchProfDeferred

/// The thread that runs the program's lifecycle handlers, one job at a
/// time, in order. The lifecycle thread hands it work and goes on polling,
/// so a slow handler can be waited for with a budget, not forever.
final class HandlerWorker: Sendable {
    private struct Queue {
        var jobs: [(id: UInt64, body: @Sendable () -> Void)] = []
        var submitted: UInt64 = 0
        var completed: UInt64 = 0
    }

    private let queue = Locked(Queue())
    private let wake = ThreadSemaphore()

    func start() throws(LifecycleError) {
        try LifecycleThread.start(name: "lp-lifecycle-cb") { [self] in
            while true {
                wake.wait()
                guard let job = queue.withLock({ $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }) else { continue }
                job.body()
                queue.withLock { $0.completed = job.id }
                _ = lp_lifecycle_post(UInt8(LP_LIFECYCLE_COMMAND_WAKE))
            }
        }
    }

    /// Queues `body`; returns its id (compare with ``completed``).
    @discardableResult
    func submit(_ body: @escaping @Sendable () -> Void) -> UInt64 {
        let id = queue.withLock { queue in
            queue.submitted += 1
            queue.jobs.append((queue.submitted, body))
            return queue.submitted
        }
        wake.signal()
        return id
    }

    /// The id of the last job finished (jobs finish in order).
    var completed: UInt64 { queue.withLock { $0.completed } }
}

/// Starts the lifecycle's detached threads, or says why it cannot.
enum LifecycleThread {
    static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(LifecycleError) {
        let result = BackgroundThread.spawn(name: name, body)
        if result != 0 { throw .threadStart(code: result) }
    }
}
