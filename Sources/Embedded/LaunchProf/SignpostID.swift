import CLaunchProfSupport

/// Identifies one interval among others of the same name, so that overlapping
/// intervals (on one thread or across threads) pair correctly.
///
/// Shaped like `OSSignpostID`: use ``exclusive`` when an interval never
/// overlaps itself (launchprof then makes a fresh id per interval anyway), or
/// ``Signposter/makeSignpostID()`` for an id you pass around yourself.
public struct SignpostID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    /// An id with this raw value; ``Signposter/makeSignpostID()`` makes unique ones.
    @inlinable
    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// No explicit id: `beginInterval` makes a fresh one, events carry none.
    public static let exclusive = SignpostID(0)

    /// An id no other interval in this process has (thread id and a
    /// per-thread counter; no shared counter, no lock).
    @inlinable
    public static func make() -> SignpostID {
        SignpostID(lp_make_signpost_id())
    }

    public var description: String { "SignpostID(\(rawValue))" }
}
