import LaunchSupport

/// Page-cache state before a run.
public enum LaunchMode: String, Sendable, Equatable, Codable, CaseIterable {
    /// Page cache evicted for the executable, its libraries and --evict paths.
    case cold
    /// Page cache hot (warm-up runs first).
    case warm
}
