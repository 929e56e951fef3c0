import LaunchProf

// MARK: - Making items: background workers and readers

extension PrewarmRegistry {
    func startWorker() {
        BackgroundThread.start(name: "lp-prewarm") { [self] in
            while let node = takeReady() {
                // A reader may have claimed it meanwhile: it makes it then.
                if node.claim(by: .background) { make(node) }
            }
        }
    }

    private func takeReady() -> PrewarmNode? {
        state.withLock { state in
            guard let node = state.popReady() else {
                state.workers -= 1
                return nil
            }
            return node
        }
    }

    /// Runs `make` for a node this thread has claimed, stores the result and
    /// lets dependents start.
    func make(_ node: PrewarmNode) {
        let interval = Self.signposter.beginInterval(dynamicName: node.name)
        let started = RuntimeClock.now
        let result = Result<any Sendable, any Error> { try node.make() }
        let ended = RuntimeClock.now
        Self.signposter.endInterval(dynamicName: node.name, interval)
        let report = node.finish(result, startedNanoseconds: started, endedNanoseconds: ended)
        if let failure = report.failure {
            Self.signposter.emitEvent(internedName: "\(node.name): failed: \(failure)", value: Int64(ended - started))
        }
        if report.isOverBudget {
            Self.signposter.emitEvent(internedName: "\(node.name): over budget", value: Int64(ended - started))
            configuration.onOverBudget?(report)
        }
        let (waiters, workers) = state.withLock { state in
            (state.markFinished(node), state.claimWorkers(limit: configuration.maximumConcurrentItems))
        }
        for waiter in waiters { waiter.signal() }
        for _ in 0..<workers { startWorker() }
    }

    /// Checks the graph before the first read makes anything on demand, so
    /// forcing dependencies can neither loop nor miss.
    private func ensureValid() throws(PrewarmError) {
        try state.withLock { state throws(PrewarmError) in
            try state.validate()
            state.markValidated()
        }
    }

    /// The value of `node`, read on the calling thread: at once, after a
    /// wait, or made here (dependencies first).
    func resolve(_ node: PrewarmNode, use: Bool) throws -> any Sendable {
        try ensureValid()
        switch node.access(use: use) {
        case .ready(let result, let isFirstUse):
            if isFirstUse { traceUse(node, "hit", 0) }
            return try result.get()
        case .inProgress(let isFirstUse):
            let started = RuntimeClock.now
            let result = node.waitForResult()
            if isFirstUse { recordWait(node, since: started) }
            return try result.get()
        case .claimed(let isFirstUse):
            if isFirstUse { traceUse(node, "miss", 0) }
            for dependency in dependencies(of: node) {
                // A dependency's error reaches `make` when it reads the value.
                _ = try? resolve(dependency, use: false)
            }
            make(node)
            return try node.result!.get()
        }
    }

    /// Like ``resolve(_:use:)``, suspending instead of blocking while an
    /// item is made elsewhere.
    func resolveAsync(_ node: PrewarmNode, use: Bool) async throws -> any Sendable {
        try ensureValid()
        switch node.access(use: use) {
        case .ready(let result, let isFirstUse):
            if isFirstUse { traceUse(node, "hit", 0) }
            return try result.get()
        case .inProgress(let isFirstUse):
            let started = RuntimeClock.now
            let result = await node.waitForResultAsync()
            if isFirstUse { recordWait(node, since: started) }
            return try result.get()
        case .claimed(let isFirstUse):
            if isFirstUse { traceUse(node, "miss", 0) }
            for dependency in dependencies(of: node) {
                _ = try? await resolveAsync(dependency, use: false)
            }
            make(node)
            return try node.result!.get()
        }
    }

    private func dependencies(of node: PrewarmNode) -> [PrewarmNode] {
        state.withLock { state in node.dependencies.compactMap { state.byName[$0] } }
    }

    private func recordWait(_ node: PrewarmNode, since started: UInt64) {
        let waited = RuntimeClock.now - started
        node.recordWait(nanoseconds: waited)
        traceUse(node, "wait", waited)
    }

    private func traceUse(_ node: PrewarmNode, _ kind: String, _ nanoseconds: UInt64) {
        guard Self.signposter.isEnabled else { return }
        Self.signposter.emitEvent(internedName: "\(node.name): \(kind)", value: Int64(nanoseconds))
    }
}
