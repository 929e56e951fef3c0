import LaunchProf

/// One prewarm item: its recipe and a cell that is filled exactly once.
///
/// Whoever first claims the cell (a prewarm thread or a reader) makes the
/// value; everyone else either reads it or waits for it. The state machine
/// (not started -> running -> done) lives under one lock, so no race can
/// make a value twice.
final class PrewarmNode: Sendable {
    let name: String
    let dependencies: [String]
    let priority: BackgroundPriority
    let budget: Duration?
    /// Registration order: the tie-break after priority.
    let order: Int
    let make: @Sendable () throws -> any Sendable
    private let state: Locked<State>

    private enum Progress {
        case notStarted
        case running
        case done(Result<any Sendable, any Error>)
    }

    private enum Waiter {
        case thread(ThreadSemaphore)
        case task(CheckedContinuation<Void, Never>)
    }

    private struct State {
        var progress = Progress.notStarted
        var waiters: [Waiter] = []
        var report: PrewarmItemReport
    }

    /// What a reader found.
    enum Access {
        case ready(Result<any Sendable, any Error>, isFirstUse: Bool)
        /// Being made elsewhere; `isFirstUse` says whether the wait is the
        /// item's first use (to be timed).
        case inProgress(isFirstUse: Bool)
        /// Was not started: the reader has claimed it and must make it.
        case claimed(isFirstUse: Bool)
    }

    init(
        name: String, dependencies: [String], priority: BackgroundPriority, budget: Duration?, order: Int,
        make: @escaping @Sendable () throws -> any Sendable
    ) {
        self.name = name
        self.dependencies = dependencies
        self.priority = priority
        self.budget = budget
        self.order = order
        self.make = make
        let report = PrewarmItemReport(name: name, dependencies: dependencies, priority: priority, budget: budget)
        state = Locked(State(report: report))
    }

    var report: PrewarmItemReport { state.withLock { $0.report } }

    var isDone: Bool {
        state.withLock {
            if case .done = $0.progress { return true }
            return false
        }
    }

    /// Claims the item for `runner` if nobody has; returns whether it did.
    func claim(by runner: PrewarmRunner) -> Bool {
        state.withLock { state in
            guard case .notStarted = state.progress else { return false }
            state.progress = .running
            state.report.runner = runner
            return true
        }
    }

    /// Looks at the item for a reader, claiming it when it was not started.
    /// A `use` (a read of this item's value, not a dependency being forced)
    /// records the item's first use.
    func access(use: Bool) -> Access {
        state.withLock { state in
            let isFirstUse = use && state.report.firstUse == nil
            switch state.progress {
            case .done(let result):
                if isFirstUse { state.report.firstUse = .hit }
                return .ready(result, isFirstUse: isFirstUse)
            case .running:
                // Filled in with the duration when the wait ends.
                if isFirstUse { state.report.firstUse = .wait(nanoseconds: 0) }
                return .inProgress(isFirstUse: isFirstUse)
            case .notStarted:
                if isFirstUse { state.report.firstUse = .miss }
                state.progress = .running
                state.report.runner = .onDemand
                return .claimed(isFirstUse: isFirstUse)
            }
        }
    }

    func recordWait(nanoseconds: UInt64) {
        state.withLock { $0.report.firstUse = .wait(nanoseconds: nanoseconds) }
    }

    /// Blocks the calling thread until the item is done.
    func waitForResult() -> Result<any Sendable, any Error> {
        let semaphore = ThreadSemaphore()
        let early: Result<any Sendable, any Error>? = state.withLock { state in
            if case .done(let result) = state.progress { return result }
            state.waiters.append(.thread(semaphore))
            return nil
        }
        if let early { return early }
        semaphore.wait()
        return result!
    }

    /// Suspends the calling task (no thread blocked) until the item is done.
    func waitForResultAsync() async -> Result<any Sendable, any Error> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isDone = state.withLock { state in
                if case .done = state.progress { return true }
                state.waiters.append(.task(continuation))
                return false
            }
            if isDone { continuation.resume() }
        }
        return result!
    }

    /// The result, once done.
    var result: Result<any Sendable, any Error>? {
        state.withLock {
            if case .done(let result) = $0.progress { return result }
            return nil
        }
    }

    /// Stores the result of `make` and wakes every waiter.
    func finish(
        _ result: Result<any Sendable, any Error>, startedNanoseconds: UInt64, endedNanoseconds: UInt64
    )
        -> PrewarmItemReport
    {
        let (waiters, report) = state.withLock { state in
            state.progress = .done(result)
            state.report.makeStartedNanoseconds = startedNanoseconds
            state.report.makeNanoseconds = endedNanoseconds - startedNanoseconds
            if case .failure(let error) = result { state.report.failure = String(describing: error) }
            defer { state.waiters = [] }
            return (state.waiters, state.report)
        }
        for waiter in waiters {
            switch waiter {
            case .thread(let semaphore): semaphore.signal()
            case .task(let continuation): continuation.resume()
            }
        }
        return report
    }
}
