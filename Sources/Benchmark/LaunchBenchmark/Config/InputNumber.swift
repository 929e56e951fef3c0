import Foundation

/// The one validated way a number a user typed (a flag, a launchprof.yml
/// value, an environment variable) becomes a duration or a count.
///
/// Checked before any conversion: NaN, infinity, a negative value or one so
/// large that it would overflow `Duration` or the harness's UInt64
/// nanosecond deadlines is an `InputNumberError` naming the input — never
/// a trap (`--timeout inf` and `timeout: 1e10` trapped in `Int64(_:)`).
package enum InputNumber {
    /// The longest duration accepted anywhere: 1,000,000 s (11.6 days).
    /// Far above any launch, far below what `now + timeout` in UInt64
    /// nanoseconds (584 years) or `Duration` can hold.
    package static let maximumSeconds: Double = 1_000_000
    /// The largest run or sample count accepted: each run is a process, so
    /// more is a typo (and counts size arrays).
    package static let maximumCount = 1_000_000

    /// `seconds` as a duration; zero only when `allowZero`.
    package static func duration(
        seconds: Double, of input: String, allowZero: Bool = false
    ) throws(InputNumberError) -> Duration {
        let shown = format(seconds)
        guard !seconds.isNaN else { throw InputNumberError(input: input, value: shown, problem: "is not a number") }
        guard seconds.isFinite else {
            throw InputNumberError(input: input, value: shown, problem: "must be a finite number of seconds")
        }
        guard allowZero ? seconds >= 0 : seconds > 0 else {
            throw InputNumberError(
                input: input, value: shown, problem: allowZero ? "cannot be negative" : "must be a positive number of seconds")
        }
        guard seconds <= maximumSeconds else {
            throw InputNumberError(input: input, value: shown, problem: "must be at most \(format(maximumSeconds)) seconds")
        }
        // Exact enough and in range: at most 1e15 ns, well inside Int64.
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// `10s`, `500ms`, `250us`, `40ns`, or a bare number of seconds.
    package static func duration(parsing text: String, of input: String, allowZero: Bool = false) throws(InputNumberError) -> Duration {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) { return try duration(seconds: seconds, of: input, allowZero: allowZero) }
        for (suffix, scale) in [("ms", 1e-3), ("us", 1e-6), ("µs", 1e-6), ("ns", 1e-9), ("s", 1.0)] where trimmed.hasSuffix(suffix) {
            guard let value = Double(trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)) else { break }
            // Checked on the seconds value: NaN and infinity stay what they are.
            return try duration(seconds: value * scale, of: input, allowZero: allowZero)
        }
        throw InputNumberError(input: input, value: text, problem: "expected a duration like 10s or 500ms (or a number of seconds)")
    }

    /// `value` as a count in `range`.
    package static func count(_ value: Int, of input: String, in range: ClosedRange<Int>) throws(InputNumberError) -> Int {
        guard range.contains(value) else {
            let problem =
                range.upperBound == Int.max
                ? "must be at least \(range.lowerBound)" : "must be from \(range.lowerBound) to \(range.upperBound)"
            throw InputNumberError(input: input, value: String(value), problem: problem)
        }
        return value
    }

    /// A whole number written in `text`, in `range`.
    package static func count(parsing text: String, of input: String, in range: ClosedRange<Int>) throws(InputNumberError) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw InputNumberError(input: input, value: text, problem: "expected a whole number")
        }
        return try count(value, of: input, in: range)
    }

    private static func format(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// A number from a flag, a config file or the environment that is out of
/// range or not a number: names the input, the value and the rule.
package struct InputNumberError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The flag (`--timeout`), config place (`launchprof.yml: defaults.timeout`) or variable.
    package var input: String
    /// The value as given.
    package var value: String
    /// What is wrong with it ("must be a positive number of seconds").
    package var problem: String

    package var description: String { "\(input) \(problem), got '\(value)'" }
}
