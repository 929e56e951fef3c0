import LaunchProf

/// Where an item's value was made.
public enum PrewarmRunner: Sendable, Equatable {
    /// On a prewarm thread, started by ``PrewarmRegistry/prewarm()``.
    case background
    /// On the thread that asked for it (or for an item depending on it).
    case onDemand
}
