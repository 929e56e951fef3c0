/// A `--ready` value that is not a probe.
public enum ReadyProbeParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a probe launchprof knows.
    case unknown(String)
    /// `port:N` with N not in 1…65535.
    case badPort(String)
    /// `output:REGEX` with a regular expression that does not compile.
    case badPattern(String, reason: String)

    public var description: String {
        switch self {
        case .unknown(let text):
            "unknown ready probe '\(text)': use \(ReadyProbe.formList()); with --activate, also response"
        case .badPort(let text):
            "ready probe port '\(text)' is not a TCP port (1-65535)"
        case .badPattern(let pattern, let reason):
            "ready probe pattern '\(pattern)' is not a valid regular expression: \(reason)"
        }
    }
}
