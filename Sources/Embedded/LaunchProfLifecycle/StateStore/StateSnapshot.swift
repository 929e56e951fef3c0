/// A restored snapshot.
public struct StateSnapshot: Sendable, Equatable {
    /// The bytes the program saved.
    public var bytes: [UInt8]
    /// Which of the two snapshots this is.
    public var kind: StateKind
    /// The app version that saved it.
    public var appVersion: String
    /// When it was saved, CLOCK_REALTIME ns since the epoch.
    public var savedAtNanoseconds: UInt64
    /// How old it was when restored.
    public var age: Duration
    /// Saved by a clean shutdown (will-terminate), not on the way to background.
    public var savedAtCleanShutdown: Bool
}
