#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A listening socket this process was started with by systemd's socket
/// activation (or by anything that speaks its protocol: `launchprof run
/// --activate`, `systemd-socket-activate`): a server started by its first
/// connection accepts on it instead of binding its own, and that connection
/// is already waiting.
///
/// ```swift
/// let socket = ActivatedSocket.inherited.first?.descriptor ?? bindMyOwn()
/// ```
///
/// The protocol, as `sd_listen_fds(3)` reads it: `LISTEN_PID` must be this
/// process's pid (the variables were meant for it, not inherited from a
/// parent), `LISTEN_FDS` counts the descriptors from 3, and
/// `LISTEN_FDNAMES` names them, colon-separated. The variables are read
/// once and removed, so this program's own children do not take the
/// sockets for theirs; the descriptors are made close-on-exec.
public struct ActivatedSocket: Sendable, Equatable {
    /// The descriptor, from 3 on.
    public var descriptor: Int32
    /// Its name (`FileDescriptorName=` of the socket unit), or "unknown", as systemd says when there is none.
    public var name: String

    /// A socket at `descriptor`, named `name`.
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// The first descriptor of the protocol (`SD_LISTEN_FDS_START`).
    public static let firstDescriptor: Int32 = 3

    /// The sockets this process was started with; empty when it was not
    /// socket-activated (or the variables name another process).
    public static let inherited: [ActivatedSocket] = read()

    /// The sockets `environment` describes for process `pid` (the protocol
    /// without the process: for tests and for programs that read the
    /// variables themselves).
    public static func parse(listenPID: String?, listenFDs: String?, listenFDNames: String?, pid: Int32) -> [ActivatedSocket] {
        guard let listenPID, Int32(listenPID) == pid, let listenFDs, let count = Int32(listenFDs), count > 0,
            count <= 4096
        else { return [] }
        let names = listenFDNames.map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) } ?? []
        return (0..<count).map { index in
            ActivatedSocket(
                descriptor: firstDescriptor + index,
                name: Int(index) < names.count && !names[Int(index)].isEmpty ? names[Int(index)] : "unknown")
        }
    }

    private static func read() -> [ActivatedSocket] {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        let sockets = parse(
            listenPID: variable("LISTEN_PID"), listenFDs: variable("LISTEN_FDS"), listenFDNames: variable("LISTEN_FDNAMES"),
            pid: getpid())
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        for socket in sockets {
            let flags = fcntl(socket.descriptor, F_GETFD)
            if flags >= 0 { _ = fcntl(socket.descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
        return sockets.filter { fcntl($0.descriptor, F_GETFD) >= 0 }
    }
}
