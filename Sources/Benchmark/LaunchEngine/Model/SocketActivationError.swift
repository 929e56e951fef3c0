/// An `--activate` or `--request` that cannot be used.
public enum SocketActivationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither `tcp:` nor `unix:`.
    case unknown(String)
    /// `tcp:` with no port number in range.
    case badPort(String)
    /// `unix:` with a path that cannot be a socket's.
    case badPath(String, reason: String)
    /// A backslash not followed by r, n, t, \ or xHH.
    case badEscape(String)
    /// `--request ''`.
    case emptyRequest
    /// `--http-get` with a path that is not one.
    case badHTTPPath(String)

    public var description: String {
        switch self {
        case .unknown(let text): "--activate '\(text)': use tcp:PORT or unix:PATH"
        case .badPort(let text): "--activate '\(text)': the port must be a number from 0 (any free port) to 65535"
        case let .badPath(text, reason): "--activate '\(text)': \(reason)"
        case .badEscape(let text): "--request '\(text)': a backslash must be followed by r, n, t, \\ or xHH"
        case .emptyRequest: "--request is empty: give the bytes to send (or use --http-get PATH)"
        case .badHTTPPath(let path): "--http-get '\(path)': a path starts with / and has no spaces or line breaks"
        }
    }
}
