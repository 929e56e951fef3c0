import Foundation
import LaunchEngine
import LaunchSupport

/// Maps values (nanoseconds, bytes, counts) to pixels, with round tick values.
package struct LinearScale: Sendable {
    package var domain: ClosedRange<Double>
    package var range: ClosedRange<Double>
    package var unit: Metric.Unit
    /// Distance between ticks, in the value's own unit.
    package var step: Double

    /// A scale from 0 (or the smallest value, if negative) to just past the
    /// largest, extended to a round tick so the last tick closes the axis.
    /// Ticks are round in the unit the labels use (2 MiB, not 2,000,000 B).
    package init(
        upTo maximum: Double, from minimum: Double = 0, unit: Metric.Unit, range: ClosedRange<Double>, tickCount: Int = 6
    ) {
        let low = Swift.min(0, minimum)
        let high = Swift.max(maximum, low + 1)  // an empty or all-zero sample still gets an axis
        let divisor = Self.labelUnit(for: Swift.max(abs(low), high), unit: unit).divisor
        step = Self.niceStep((high - low) / divisor / Double(tickCount)) * divisor
        domain = (low / step).rounded(.down) * step...(high / step).rounded(.up) * step
        self.range = range
        self.unit = unit
    }

    package func callAsFunction(_ value: Double) -> Double {
        let span = domain.upperBound - domain.lowerBound
        let fraction = span > 0 ? (value - domain.lowerBound) / span : 0
        return range.lowerBound + fraction * (range.upperBound - range.lowerBound)
    }

    /// Round values from the start to the end of the domain.
    package var ticks: [Double] {
        var ticks: [Double] = []
        var value = domain.lowerBound
        while value <= domain.upperBound + step * 1e-9, ticks.count < 100 {
            ticks.append(abs(value) < step * 1e-9 ? 0 : value)
            value += step
        }
        return ticks
    }

    /// Tick labels in one unit for the whole axis, with as many decimals as
    /// the step needs: "0", "2.5 ms", "5 ms" (no "5.00 ms").
    package var tickLabels: [String] {
        let ticks = ticks
        let (divisor, symbol) = Self.labelUnit(for: ticks.map(abs).max() ?? 0, unit: unit)
        // The fewest decimals that show every tick exactly (2.5 needs one).
        let scaled = ticks.map { $0 / divisor }
        let decimals =
            (0...3).first { decimals in
                let factor = pow(10, Double(decimals))
                return scaled.allSatisfy { abs(($0 * factor).rounded() - $0 * factor) < 1e-6 }
            } ?? 3
        return scaled.map { $0 == 0 ? "0" : HumanUnits.fixed($0, decimals: decimals) + symbol }
    }

    /// 1, 2, 2.5 or 5 times a power of ten, at least `rough`.
    static func niceStep(_ rough: Double) -> Double {
        guard rough > 0, rough.isFinite else { return 1 }
        let power = pow(10, log10(rough).rounded(.down))
        for multiple in [1, 2, 2.5, 5] where multiple * power >= rough * (1 - 1e-9) {
            return multiple * power
        }
        return 10 * power
    }

    /// The unit an axis reaching `largest` is labelled in.
    static func labelUnit(for largest: Double, unit: Metric.Unit) -> (divisor: Double, symbol: String) {
        switch unit {
        case .nanoseconds:
            let time = HumanUnits.timeUnit(for: largest)
            return (time.nanoseconds, " " + time.symbol)
        case .bytes:
            let units: [(Double, String)] = [(1, " B"), (1024, " KiB"), (1_048_576, " MiB"), (1_073_741_824, " GiB")]
            return units.last { largest >= $0.0 * 2 } ?? (1, " B")
        case .count:
            return (1, "")
        }
    }
}
