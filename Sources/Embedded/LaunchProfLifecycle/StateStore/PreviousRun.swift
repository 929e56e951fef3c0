/// How the previous run of the program ended, as far as the store knows.
public enum PreviousRun: Sendable, Equatable, CustomStringConvertible {
    /// No earlier run left anything in this store.
    case none
    /// It saved its state at a clean shutdown.
    case endedCleanly
    /// It started (restored from this store) and never shut down cleanly:
    /// crashed, was killed, or the machine went down.
    case endedUncleanly
    /// It left state but did not record how it ended (it never called restore).
    case unknown

    public var description: String {
        switch self {
        case .none: "no previous run"
        case .endedCleanly: "the previous run ended cleanly"
        case .endedUncleanly: "the previous run did not end cleanly (crash, kill or power loss)"
        case .unknown: "how the previous run ended is unknown"
        }
    }
}
