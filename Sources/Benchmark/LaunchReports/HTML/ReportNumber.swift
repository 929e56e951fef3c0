import Foundation
import LaunchEngine
import LaunchSupport

/// Numbers in a report's hover text: exact, so a reader (or a test) can
/// match them with the JSON results. Durations are milliseconds to the
/// nanosecond, sizes whole bytes, counts as counted.
package enum ReportNumber {
    /// "14.213457 ms", "12900000 B (12.3 MiB)", "3".
    package static func exact(_ value: Double, unit: Metric.Unit) -> String {
        switch unit {
        case .nanoseconds: milliseconds(value)
        case .bytes: "\(HumanUnits.count(value.rounded())) B (\(HumanUnits.bytes(value)))"
        case .count: HumanUnits.count(value)
        }
    }

    /// Nanoseconds as milliseconds with six decimals: "14.213457 ms".
    package static func milliseconds(_ nanoseconds: Double) -> String {
        String(format: "%.6f ms", nanoseconds / 1e6)
    }

    /// A relative change as a signed percentage: "+12.3%", "−4.0%".
    package static func change(_ fraction: Double) -> String {
        let text = HumanUnits.fixed(abs(fraction) * 100, decimals: abs(fraction) < 0.1 ? 1 : 0)
        return (fraction < 0 ? "−" : "+") + text + "%"
    }
}
