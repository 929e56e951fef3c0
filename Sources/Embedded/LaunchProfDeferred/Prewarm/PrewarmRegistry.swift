import LaunchProf

/// Makes expensive values in the background during launch, so they are ready
/// when first needed.
///
/// Register each value with a name, its dependencies and a `make` closure;
/// ``prewarm()`` checks the dependency graph and starts making the items on
/// background threads, dependencies first, higher priority first, at most
/// ``PrewarmConfiguration/maximumConcurrentItems`` at a time. Read a value
/// through its ``Prewarmed`` handle: at once when it is ready (a hit), after
/// a wait when it is being made (a wait), or made on the spot when prewarming
/// has not reached it (a miss, dependencies first). Each value is made
/// exactly once, whatever the race; an error thrown by `make` is kept and
/// rethrown to every reader.
///
/// ```swift
/// let registry = PrewarmRegistry.shared
/// let config = registry.register("config") { try Config.load() }
/// let cache = registry.register("cache", dependsOn: ["config"], budget: .milliseconds(20)) {
///     try Cache(config: config.value)
/// }
/// try registry.prewarm()
/// // ... later, on first use:
/// let c = try cache.value
/// print(registry.summary)   // prewarm: 2 items, 1 hits, ...
/// ```
///
/// Every `make` is an interval in the trace (subsystem `launchprof`,
/// category `prewarm`), and every first use an event (`<name>: hit`,
/// `<name>: wait` with the wait in ns, `<name>: miss`).
public final class PrewarmRegistry: Sendable {
    /// The process-wide registry.
    public static let shared = PrewarmRegistry()

    /// How this registry makes its items.
    public let configuration: PrewarmConfiguration
    let state = Locked(PrewarmSchedule())
    static let signposter = Signposter(subsystem: "launchprof", category: "prewarm")

    /// A registry of its own (tests, or a subsystem that wants its own); most programs use ``shared``.
    public init(configuration: PrewarmConfiguration = PrewarmConfiguration()) {
        self.configuration = configuration
    }

    /// Registers a value to prewarm. Dependencies are checked by
    /// ``prewarm()`` (and by the first read), so items can be registered in
    /// any order. `make` may read its dependencies' values (a dependency's
    /// error reaches it there: dependencies order the work, they do not
    /// cancel it). It must not read the value of an item it does not declare
    /// as a dependency when that item could depend on it: the two would wait
    /// for each other.
    public func register<T: Sendable>(
        _ name: String, dependsOn dependencies: [String] = [], priority: BackgroundPriority = .normal,
        budget: Duration? = nil, _ make: @escaping @Sendable () throws -> T
    ) -> Prewarmed<T> {
        let node = state.withLock { state in
            let node = PrewarmNode(
                name: name, dependencies: dependencies, priority: priority, budget: budget,
                order: state.nodes.count, make: { try make() })
            state.add(node)
            return node
        }
        return Prewarmed(node: node, registry: self)
    }

    /// Checks the dependency graph and starts making every item not yet made
    /// in the background; returns at once. Call it again after registering
    /// more items.
    ///
    /// - Throws: ``PrewarmError`` naming a duplicate name, an unknown
    ///   dependency or a cycle; nothing is started then.
    public func prewarm() throws(PrewarmError) {
        let workers = try state.withLock { state throws(PrewarmError) in
            try state.validate()
            state.queueAll()
            return state.claimWorkers(limit: configuration.maximumConcurrentItems)
        }
        Self.signposter.emitEvent("prewarm", value: Int64(workers))
        for _ in 0..<workers { startWorker() }
    }

    /// Waits until every item ``prewarm()`` started is made, or `timeout`
    /// passes; returns whether all were.
    @discardableResult
    public func waitUntilFinished(timeout: Duration? = nil) -> Bool {
        ThreadSemaphore.wait(timeout: timeout) { waiter in
            state.withLock { state in
                if state.unfinishedTargets == 0 { return true }
                state.drainWaiters.append(waiter)
                return false
            }
        }
    }

    /// Every item, in registration order.
    public var items: [PrewarmItemReport] { state.withLock { $0.nodes }.map(\.report) }

    /// First uses by kind (hit, wait, miss) and the hit rate.
    public var summary: PrewarmSummary { PrewarmSummary(items: items) }
}
