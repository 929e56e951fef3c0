/// What ``StateStore/restore(_:)`` found.
public struct StateRestoration: Sendable, Equatable {
    /// The snapshot, when there was a usable one.
    public var snapshot: StateSnapshot?
    /// Why a snapshot on disk was not used, if one was not.
    public var discarded: StateDiscard?
    /// Whether there was a previous run, and whether it ended cleanly.
    public var previousRun: PreviousRun
}
