import LaunchProf

/// A registered handler and the events it wants.
struct LifecycleRegistration: Sendable {
    enum Filter: Sendable, Equatable {
        case all, transitions, transitionTo(LifecycleState), transitionFrom(LifecycleState)
        case reload, memoryPressure, timeChange, unobservedSuspension, returnedAfterLongBackground
    }

    var filter: Filter
    var handler: @Sendable (LifecycleEvent) -> Void

    func matches(_ event: LifecycleEvent) -> Bool {
        switch (filter, event) {
        case (.all, _), (.transitions, .transition), (.reload, .reload), (.memoryPressure, .memoryPressure),
            (.timeChange, .significantTimeChange), (.unobservedSuspension, .unobservedSuspension),
            (.returnedAfterLongBackground, .returnedAfterLongBackground):
            true
        case (.transitionTo(let state), .transition(let transition)): transition.to == state
        case (.transitionFrom(let state), .transition(let transition)): transition.from == state
        default: false
        }
    }
}

/// Handlers run on the lifecycle's handler thread, one at a time, in the
/// order they were registered; never inside a signal handler. Handlers of a
/// suspend or a termination share that phase's budget.
extension Lifecycle {
    /// Every event.
    public func onEvent(_ handler: @escaping @Sendable (LifecycleEvent) -> Void) {
        register(.all, handler)
    }

    /// Every state transition.
    public func onTransition(_ handler: @escaping @Sendable (LifecycleTransition) -> Void) {
        register(.transitions) { if case .transition(let transition) = $0 { handler(transition) } }
    }

    /// Transitions into `state` (before the process stops for `.suspended`,
    /// before it exits for `.terminating`).
    public func onTransition(to state: LifecycleState, _ handler: @escaping @Sendable (LifecycleTransition) -> Void) {
        register(.transitionTo(state)) { if case .transition(let transition) = $0 { handler(transition) } }
    }

    /// Transitions out of `state`.
    public func onTransition(from state: LifecycleState, _ handler: @escaping @Sendable (LifecycleTransition) -> Void) {
        register(.transitionFrom(state)) { if case .transition(let transition) = $0 { handler(transition) } }
    }

    /// SIGTSTP: runs before the process really stops (within the suspend budget).
    public func onWillSuspend(_ handler: @escaping @Sendable () -> Void) {
        onTransition(to: .suspended) { _ in handler() }
    }

    /// SIGCONT after a suspend: runs as the process comes back.
    public func onResume(_ handler: @escaping @Sendable () -> Void) {
        onTransition(from: .suspended) { _ in handler() }
    }

    /// SIGTERM, SIGINT or a terminal hangup: runs before the process exits
    /// (within the terminate budget); the cause says which.
    public func onWillTerminate(_ handler: @escaping @Sendable (LifecycleCause) -> Void) {
        onTransition(to: .terminating) { handler($0.cause) }
    }

    /// SIGHUP without a controlling terminal: reload configuration. systemd
    /// hears `RELOADING=1` before and `READY=1` after the handlers.
    public func onReload(_ handler: @escaping @Sendable () -> Void) {
        register(.reload) { _ in handler() }
    }

    /// The memory-pressure trigger fired.
    public func onMemoryPressure(_ handler: @escaping @Sendable (MemoryPressure) -> Void) {
        register(.memoryPressure) { if case .memoryPressure(let pressure) = $0 { handler(pressure) } }
    }

    /// The wall clock was set.
    public func onSignificantTimeChange(_ handler: @escaping @Sendable (TimeChange) -> Void) {
        register(.timeChange) { if case .significantTimeChange(let change) = $0 { handler(change) } }
    }

    /// A stop the process could not see was found after the fact.
    public func onUnobservedSuspension(_ handler: @escaping @Sendable (UnobservedSuspension) -> Void) {
        register(.unobservedSuspension) { if case .unobservedSuspension(let suspension) = $0 { handler(suspension) } }
    }

    /// Active again after at least the configuration's
    /// `longBackgroundThreshold` in background (5 minutes by default):
    /// refresh what went stale. Runs after the transition to active.
    public func onReturnAfterLongBackground(_ handler: @escaping @Sendable (Duration) -> Void) {
        register(.returnedAfterLongBackground) { if case .returnedAfterLongBackground(let duration) = $0 { handler(duration) } }
    }

    /// Saves restoration state as the process leaves the foreground: `quick`
    /// on becoming inactive, `complete` on entering background and when
    /// terminating (then marked as a clean shutdown). Saves run on the
    /// handler thread after that transition's handlers, within its budget.
    public func preserveState(
        in store: StateStore, quick: (@Sendable () -> [UInt8]?)? = nil, complete: @escaping @Sendable () -> [UInt8]
    ) {
        core.withLock { $0.preservation = StatePreservation(store: store, quick: quick, complete: complete) }
    }

    private func register(_ filter: LifecycleRegistration.Filter, _ handler: @escaping @Sendable (LifecycleEvent) -> Void) {
        core.withLock { $0.registrations.append(LifecycleRegistration(filter: filter, handler: handler)) }
    }
}

/// What ``Lifecycle/preserveState(in:quick:complete:)`` set up.
struct StatePreservation: Sendable {
    var store: StateStore
    var quick: (@Sendable () -> [UInt8]?)?
    var complete: @Sendable () -> [UInt8]

    /// Saves what `transition` calls for; the failure's text, if any.
    /// Coming back from background through inactive saves nothing: the
    /// complete state is already on disk.
    func save(for transition: LifecycleTransition) -> String? {
        do {
            switch transition.to {
            case .inactive:
                if transition.from == .active, let bytes = quick?() { try store.save(bytes, kind: .quick) }
            case .background: try store.save(complete(), kind: .complete)
            case .terminating: try store.save(complete(), kind: .complete, cleanShutdown: true)
            case .launching, .active, .suspended: break
            }
            return nil
        } catch {
            return error.description
        }
    }
}
