import LaunchProf

/// The order in which deferred tasks and prewarm items start: higher first,
/// then in registration order.
///
/// Any integer works; the named levels leave room in between.
public struct BackgroundPriority: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    /// A priority of `rawValue`: higher starts first.
    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Work the user is likely to need soon after launch.
    public static let high = BackgroundPriority(100)
    /// The default.
    public static let normal = BackgroundPriority(0)
    /// Work that can wait for everything else.
    public static let low = BackgroundPriority(-100)

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .high: "high"
        case .normal: "normal"
        case .low: "low"
        default: "\(rawValue)"
        }
    }
}
