import Glibc
import LaunchSupport

/// Where the client of a launch on demand connects: a TCP port on
/// 127.0.0.1, or a Unix socket's path.
enum ActivationAddress: Sendable, Equatable, CustomStringConvertible {
    case tcp(port: UInt16)
    case unix(path: String)

    var description: String {
        switch self {
        case .tcp(let port): "127.0.0.1:\(port)"
        case .unix(let path): path
        }
    }

    /// A new close-on-exec, non-blocking stream socket of this address's family.
    func socket() throws(SystemCallError) -> Int32 {
        let family =
            switch self {
            case .tcp: AF_INET
            case .unix: AF_UNIX
            }
        return try Syscall.check("socket", description) {
            Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        }
    }

    /// Calls `body` with this address as a `sockaddr`.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        switch self {
        case .tcp(let port):
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .unix(let path):
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
            }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
    }
}

/// The listening socket of one launch on demand, made by launchprof before
/// the spawn and passed to the program as descriptor 3, as systemd passes a
/// socket unit's. A TCP socket listens on 127.0.0.1 (port 0: a free one,
/// taken for each run); a Unix socket replaces a stale socket at its path
/// (never another kind of file) and is removed after the run.
struct ActivationListener {
    /// The listening socket (close-on-exec here; the spawner gives the child its own copy).
    private let descriptor: FileDescriptor
    /// The listening socket's number, handed to the spawner.
    var fd: Int32 { descriptor.rawValue }
    /// Where the client connects.
    let address: ActivationAddress

    /// Backlog of the listening socket: the first request waits in it.
    static let backlog: Int32 = 128

    init(_ endpoint: SocketActivation.Endpoint, program: String) throws(LaunchError) {
        let requested: ActivationAddress
        switch endpoint {
        case .tcp(let port): requested = .tcp(port: UInt16(port))
        case .unix(let path):
            requested = .unix(path: path)
            var status = stat()
            if lstat(path, &status) == 0 {
                guard status.st_mode & S_IFMT == S_IFSOCK else {
                    throw .activation("--activate unix:\(path): the path exists and is not a socket; launchprof will not replace it")
                }
                // As systemd does: a socket somebody serves is not replaced;
                // only one nobody listens on any more (connect refused) is.
                if let problem = Self.liveness(of: requested) {
                    throw .activation("--activate unix:\(path): \(problem); launchprof will not replace it")
                }
                unlink(path)
            }
        }
        let owner: FileDescriptor
        do throws(SystemCallError) {
            owner = FileDescriptor(try requested.socket())
        } catch {
            throw .system(error, program: program)
        }
        let fd = owner.rawValue
        // A blocking listening socket, as systemd passes one: a program
        // expects accept to wait.
        try? Syscall.setNonBlocking(fd, false)
        var on: Int32 = 1
        if case .tcp = requested {
            _ = try? Syscall.check("setsockopt", "SO_REUSEADDR") {
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            }
        }
        let listening: SystemCallError?
        do throws(SystemCallError) {
            try Syscall.check("bind", "\(requested)") { requested.withSocketAddress { bind(fd, $0, $1) } }
            try Syscall.check("listen", "\(requested)") { listen(fd, Self.backlog) }
            listening = nil
        } catch {
            listening = error
        }
        if let listening {
            let code = listening.errno
            owner.close()
            if code == EADDRINUSE, case .tcp(let port) = requested {
                let holder = PortHolder.describe(port: port) ?? "a process launchprof cannot name"
                throw .activation(
                    "--activate tcp:\(port): the port is already in use by \(holder); stop it or choose another port (tcp:0 takes a free one)"
                )
            }
            throw .activation("--activate \(endpoint): cannot listen on \(requested): \(String(cString: strerror(code)))")
        }
        if case .tcp = requested {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            self.address = .tcp(port: UInt16(bigEndian: address.sin_port))
        } else {
            self.address = requested
        }
        descriptor = owner
    }

    /// Why the socket at `address` must be left alone, or nil when nothing
    /// listens on it (a connect is refused: a stale socket).
    private static func liveness(of address: ActivationAddress) -> String? {
        guard let fd = try? address.socket() else { return "launchprof cannot make a socket to check it" }
        let probe = FileDescriptor(fd)
        defer { probe.close() }
        do throws(SystemCallError) {
            try Syscall.check("connect", "\(address)") { address.withSocketAddress { connect(probe.rawValue, $0, $1) } }
            return "a program is listening on it"
        } catch  where error.errno == ECONNREFUSED {
            return nil
        } catch  where error.errno == EAGAIN || error.errno == EINPROGRESS {
            return "a program is listening on it (its backlog is full)"
        } catch {
            return "launchprof cannot tell whether a program listens on it (connect: \(String(cString: strerror(error.errno))))"
        }
    }

    /// Closes launchprof's copy; a Unix socket's path is removed.
    func close() {
        descriptor.close()
        if case .unix(let path) = address { unlink(path) }
    }
}
