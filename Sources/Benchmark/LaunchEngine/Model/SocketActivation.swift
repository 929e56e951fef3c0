/// A launch on demand (`--activate`): launchprof listens on the socket
/// itself, starts the program with it as systemd's socket activation does
/// (descriptor 3, `LISTEN_FDS=1`, `LISTEN_PID`, `LISTEN_FDNAMES`), connects
/// at once as a client, so the connection waits in the backlog while the
/// program launches, and sends a request. Time to the first byte of the
/// response and to the whole response is the cold start a user of a
/// socket-activated service or a serverless function waits for; the same
/// request once the program is up (the warm request) shows the launch's
/// share of it.
public struct SocketActivation: Sendable, Equatable, Codable {
    /// Where the socket listens.
    public enum Endpoint: Sendable, Equatable, Codable, CustomStringConvertible {
        /// TCP on 127.0.0.1; port 0 takes a free port for each run.
        case tcp(port: Int)
        /// A Unix stream socket at this path (replaced if a stale socket is there).
        case unix(path: String)

        /// `tcp:PORT` or `unix:PATH`, as `--activate` takes it.
        public var description: String {
            switch self {
            case .tcp(let port): "tcp:\(port)"
            case .unix(let path): "unix:\(path)"
            }
        }
    }

    /// What is sent once connected, and how the response's end is found.
    public enum Request: Sendable, Equatable, Codable {
        /// `GET PATH HTTP/1.1` with `Host` and `Connection: close`; the
        /// response ends where its `Content-Length` or last chunk says, or
        /// when the program closes the connection.
        case httpGet(path: String)
        /// These bytes; the response ends when the program closes the
        /// connection (a protocol without framing has no other end).
        case bytes([UInt8])

        /// The bytes on the wire.
        public func bytes(host: String) -> [UInt8] {
            switch self {
            case .httpGet(let path):
                Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: launchprof\r\nConnection: close\r\n\r\n".utf8)
            case .bytes(let bytes): bytes
            }
        }

        /// Whether the response is read as HTTP.
        public var isHTTP: Bool {
            if case .httpGet = self { return true }
            return false
        }
    }

    /// Where it listens.
    public var endpoint: Endpoint
    /// What the client sends.
    public var request: Request
    /// The name in `LISTEN_FDNAMES` (systemd's `FileDescriptorName=`).
    public var name: String

    /// An activation on `endpoint`, sending `request`.
    public init(endpoint: Endpoint, request: Request = .httpGet(path: "/"), name: String = "launchprof") {
        self.endpoint = endpoint
        self.request = request
        self.name = name
    }

    /// Parses `--activate`: `tcp:PORT` (0 to 65535) or `unix:PATH`.
    public static func endpoint(parsing text: String) throws(SocketActivationError) -> Endpoint {
        if text.hasPrefix("tcp:") {
            let value = text.dropFirst(4)
            guard let port = Int(value), (0...65_535).contains(port) else { throw .badPort(text) }
            return .tcp(port: port)
        }
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw .badPath(text, reason: "the path is empty") }
            guard path.utf8.count < 108 else { throw .badPath(text, reason: "a Unix socket path has at most 107 bytes") }
            return .unix(path: path)
        }
        throw .unknown(text)
    }

    /// Parses `--http-get`: a path that starts with `/` and has no spaces or line breaks.
    public static func httpGet(parsing path: String) throws(SocketActivationError) -> Request {
        guard path.hasPrefix("/"), !path.contains(where: { $0 == " " || $0.isNewline }) else { throw .badHTTPPath(path) }
        return .httpGet(path: path)
    }

    /// Parses `--request`: the text as given, with `\r`, `\n`, `\t`, `\\`
    /// and `\xHH` escapes.
    public static func request(parsing text: String) throws(SocketActivationError) -> Request {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                continue
            }
            switch input.popFirst() {
            case UInt8(ascii: "r"): bytes.append(13)
            case UInt8(ascii: "n"): bytes.append(10)
            case UInt8(ascii: "t"): bytes.append(9)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "x"):
                let digits = String(decoding: input.prefix(2), as: UTF8.self)
                guard digits.count == 2, let value = UInt8(digits, radix: 16) else { throw .badEscape(text) }
                input = input.dropFirst(2)
                bytes.append(value)
            default: throw .badEscape(text)
            }
        }
        guard !bytes.isEmpty else { throw .emptyRequest }
        return .bytes(bytes)
    }
}
