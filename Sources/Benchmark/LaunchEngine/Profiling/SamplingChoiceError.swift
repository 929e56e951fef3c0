/// A sampling option given a value that is none of its choices: a clock
/// that is neither `cpu` nor `wall`, a sampler neither `kernel` nor
/// `in-process`.
public struct SamplingChoiceError: Error, Sendable, CustomStringConvertible {
    /// The flag or key it came from.
    public var flag: String
    /// What was given.
    public var value: String
    /// What it may be.
    public var choices: [String]

    public var description: String { "\(flag) must be \(choices.joined(separator: " or ")), got '\(value)'" }
}
