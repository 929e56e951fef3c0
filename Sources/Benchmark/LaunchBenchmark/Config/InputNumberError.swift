import Foundation

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
