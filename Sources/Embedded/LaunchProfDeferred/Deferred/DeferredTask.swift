import LaunchProf

/// A task registered with a ``DeferredInitializer``: cancel it before it
/// starts, or look at its state.
public struct DeferredTask: Sendable {
    /// Position in registration order.
    public let id: Int
    let initializer: DeferredInitializer

    /// Cancels the task if it has not started; returns whether it did. A task
    /// that already started runs to its end.
    @discardableResult
    public func cancel() -> Bool { initializer.cancel(id: id) }

    /// The task's state and timings now.
    public var record: DeferredTaskRecord { initializer.record(id: id) }
}
