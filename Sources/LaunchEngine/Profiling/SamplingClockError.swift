/// A sampling clock that is neither `cpu` nor `wall`.
public struct SamplingClockError: Error, Sendable, CustomStringConvertible {
    /// The flag or key it came from.
    public var flag: String
    /// What was given.
    public var value: String

    public var description: String { "\(flag) must be cpu or wall, got '\(value)'" }
}
