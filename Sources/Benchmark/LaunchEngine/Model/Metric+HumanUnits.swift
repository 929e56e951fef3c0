import LaunchSupport

extension HumanUnits {
    /// A value of `unit` (as `Metric.Unit` defines it) for people.
    public static func format(_ value: Double, unit: Metric.Unit) -> String {
        switch unit {
        case .nanoseconds: duration(value)
        case .bytes: bytes(value)
        case .count: count(value)
        }
    }
}
