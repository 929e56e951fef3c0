import LaunchProf

/// The mutable state of a ``PrewarmRegistry``, guarded by its lock.
struct PrewarmSchedule {
    var nodes: [PrewarmNode] = []
    var byName: [String: PrewarmNode] = [:]
    /// The first name registered twice, reported by validation.
    var duplicate: String?
    /// How many nodes the last successful validation covered.
    var validatedCount = 0
    /// Items queued for the background, not yet claimed by a worker.
    var queued: [PrewarmNode] = []
    /// Names of items made (by anyone).
    var finished: Set<String> = []
    /// Names ``PrewarmRegistry/prewarm()`` asked for.
    var targets: Set<String> = []
    var unfinishedTargets = 0
    var workers = 0
    var drainWaiters: [ThreadSemaphore] = []

    mutating func add(_ node: PrewarmNode) {
        nodes.append(node)
        if byName[node.name] == nil {
            byName[node.name] = node
        } else if duplicate == nil {
            duplicate = node.name
        }
    }

    /// Checks names, dependencies and cycles, unless nothing changed since
    /// the last successful check.
    func validate() throws(PrewarmError) {
        guard validatedCount != nodes.count else { return }
        if let duplicate { throw .duplicateName(duplicate) }
        for node in nodes {
            for dependency in node.dependencies where byName[dependency] == nil {
                throw .unknownDependency(item: node.name, dependency: dependency)
            }
        }
        if let cycle = PrewarmGraph(nodes: nodes, byName: byName).firstCycle() { throw .cycle(cycle) }
    }

    mutating func markValidated() { validatedCount = nodes.count }

    /// Queues every item not yet queued or made.
    mutating func queueAll() {
        markValidated()
        for node in nodes where !targets.contains(node.name) {
            targets.insert(node.name)
            if finished.contains(node.name) { continue }
            unfinishedTargets += 1
            queued.append(node)
        }
    }

    /// How many more workers to start: one per item ready to make, within
    /// the limit; counted as started.
    mutating func claimWorkers(limit: Int) -> Int {
        let ready = queued.count { isReady($0) }
        let count = max(0, min(limit - workers, ready))
        workers += count
        return count
    }

    func isReady(_ node: PrewarmNode) -> Bool {
        node.dependencies.allSatisfy { finished.contains($0) }
    }

    /// The next queued item whose dependencies are made: highest priority,
    /// then earliest registered.
    mutating func popReady() -> PrewarmNode? {
        var best: Int?
        for (position, node) in queued.enumerated() where isReady(node) {
            if let current = best, queued[current].priority >= node.priority { continue }
            best = position
        }
        return best.map { queued.remove(at: $0) }
    }

    /// Records that `node` is made; returns the waiters to wake if every
    /// target is now made.
    mutating func markFinished(_ node: PrewarmNode) -> [ThreadSemaphore] {
        guard finished.insert(node.name).inserted, targets.contains(node.name) else { return [] }
        unfinishedTargets -= 1
        guard unfinishedTargets == 0 else { return [] }
        defer { drainWaiters = [] }
        return drainWaiters
    }
}
