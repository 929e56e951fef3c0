import LaunchProf

/// A value registered with a ``PrewarmRegistry``: read it when you need it.
///
/// Reading returns at once when the value is ready, waits when it is being
/// made, and makes it on the calling thread (dependencies first) when
/// prewarming has not reached it. The value is made once; an error thrown by
/// `make` is rethrown to every reader.
public struct Prewarmed<T: Sendable>: Sendable {
    let node: PrewarmNode
    let registry: PrewarmRegistry

    /// The item's name.
    public var name: String { node.name }

    /// The value, blocking the calling thread while it is being made
    /// elsewhere. In async code prefer ``value()``, which suspends instead.
    ///
    /// - Throws: The error `make` threw, or a ``PrewarmError`` when the
    ///   registry's dependency graph is invalid.
    public var value: T {
        get throws { try registry.resolve(node, use: true) as! T }
    }

    /// The value, suspending (not blocking a thread) while it is being made
    /// elsewhere. When it must be made on demand, it is made in this task.
    public func value() async throws -> T {
        try await registry.resolveAsync(node, use: true) as! T
    }

    /// Whether the value (or its error) is there, without reading it.
    public var isReady: Bool { node.isDone }

    /// The item's state, timings and first use.
    public var report: PrewarmItemReport { node.report }
}
