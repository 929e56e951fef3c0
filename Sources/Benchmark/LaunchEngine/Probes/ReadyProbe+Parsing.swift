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
