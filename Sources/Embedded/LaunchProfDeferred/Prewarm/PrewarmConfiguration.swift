import LaunchProf

/// How a ``PrewarmRegistry`` warms its items.
public struct PrewarmConfiguration: Sendable {
    /// How many items may be made at the same time in the background.
    public var maximumConcurrentItems: Int
    /// Called for every item whose `make` took longer than its budget, on the
    /// thread that made it.
    public var onOverBudget: (@Sendable (PrewarmItemReport) -> Void)?

    /// A configuration; by default one item is made at a time and nothing is told of budgets overrun.
    ///
    /// - Precondition: `maximumConcurrentItems >= 1`.
    public init(maximumConcurrentItems: Int = 1, onOverBudget: (@Sendable (PrewarmItemReport) -> Void)? = nil) {
        precondition(
            maximumConcurrentItems >= 1,
            "PrewarmConfiguration.maximumConcurrentItems must be at least 1, got \(maximumConcurrentItems)")
        self.maximumConcurrentItems = maximumConcurrentItems
        self.onOverBudget = onOverBudget
    }
}
