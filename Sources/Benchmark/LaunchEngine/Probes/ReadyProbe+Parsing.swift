import LaunchSupport

extension ReadyProbe {
    /// Parses `--ready`: `exit`, `tracer`, `notify`, `port:N`, `output:REGEX`,
    /// `window`, `window:TITLE-REGEX`, `frame`, `frame:TITLE-REGEX`, or
    /// `response` (with `--activate`, where it is the only probe). Patterns
    /// are `TextPattern`s: matched in linear time, whatever the text.
    public init(parsing text: String) throws(ReadyProbeParseError) {
        switch text {
        case "exit": self = .exit
        case "tracer": self = .tracer
        case "notify": self = .notify
        case "response": self = .response
        case "window": self = .window(nil)
        case "frame": self = .frame(nil)
        default:
            if text.hasPrefix("port:") {
                let value = text.dropFirst("port:".count)
                guard let port = Int(value), (1...65_535).contains(port) else { throw .badPort(String(value)) }
                self = .port(port)
            } else if text.hasPrefix("output:") {
                let pattern = String(text.dropFirst("output:".count))
                guard !pattern.isEmpty else { throw .badPattern(pattern, reason: "it is empty") }
                do {
                    _ = try TextPattern(pattern)
                } catch {
                    throw .badPattern(pattern, reason: "\(error)")
                }
                self = .output(pattern)
            } else if let colon = text.firstIndex(of: ":"), ["window", "frame"].contains(text[..<colon]) {
                let kind = text[..<colon]
                let pattern = String(text[text.index(after: colon)...])
                guard !pattern.isEmpty else { throw .badPattern(pattern, reason: "it is empty") }
                do {
                    _ = try TextPattern(pattern)
                } catch {
                    throw .badPattern(pattern, reason: "\(error)")
                }
                self = kind == "window" ? .window(pattern) : .frame(pattern)
            } else {
                throw .unknown(text)
            }
        }
    }
}

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
