import Foundation

/// A number from a flag, a config file or the environment that is out of
/// range or not a number: names the input, the value and the rule.
public struct InputNumberError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The flag (`--timeout`), config place (`launchprof.yml: defaults.timeout`) or variable.
    public var input: String
    /// The value as given.
    public var value: String
    /// What is wrong with it ("must be a positive number of seconds").
    public var problem: String

    public var description: String { "\(input) \(problem), got '\(value)'" }
}
