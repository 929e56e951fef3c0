import LaunchProf

/// What is known about one prewarm item: a snapshot.
public struct PrewarmItemReport: Sendable, CustomStringConvertible {
    /// The item's name, as traces show it.
    public let name: String
    /// The items this one's `make` reads, made first.
    public let dependencies: [String]
    /// The priority the item was registered with.
    public let priority: BackgroundPriority
    /// How long `make` should take at most; nil: no budget.
    public let budget: Duration?
    /// `nil` until somebody reads the value.
    public internal(set) var firstUse: PrewarmFirstUse?
    /// `nil` until the value is being made.
    public internal(set) var runner: PrewarmRunner?
    /// When `make` started (`CLOCK_MONOTONIC`, nanoseconds); nil until it has.
    public internal(set) var makeStartedNanoseconds: UInt64?
    /// How long `make` took, once it returned or threw.
    public internal(set) var makeNanoseconds: UInt64?
    /// The error `make` threw, described.
    public internal(set) var failure: String?

    /// Whether `make` took longer than the item's budget.
    public var isOverBudget: Bool {
        guard let budget, let makeNanoseconds else { return false }
        return makeNanoseconds > RuntimeClock.nanoseconds(budget)
    }

    public var description: String {
        var parts = [name]
        if let makeNanoseconds { parts.append("made in \(formatMilliseconds(makeNanoseconds))") }
        if let runner { parts.append(runner == .background ? "in background" : "on demand") }
        if isOverBudget, let budget { parts.append("OVER BUDGET (\(budget))") }
        if let failure { parts.append("failed: \(failure)") }
        parts.append("first use: \(firstUse?.description ?? "none")")
        return parts.joined(separator: ", ")
    }
}
