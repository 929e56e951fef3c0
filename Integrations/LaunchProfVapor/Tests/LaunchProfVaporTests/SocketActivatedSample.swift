import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// vapor-launch-sample started as systemd's socket activation starts a
/// server: a listening socket on 127.0.0.1 as its descriptor 3, with
/// `LISTEN_FDS=1` and `LISTEN_PID` its own pid (the shell's, kept by exec).
/// Foundation's `Process` closes every other descriptor in the child, so it
/// is spawned with `posix_spawn`. The test talks to it over real
/// connections, then stops it.
final class SocketActivatedSample {
    let pid: pid_t
    let port: UInt16
    /// Its standard output and error.
    let outputPath: String

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(sample: String, outputPath: String, environment: [String: String] = [:]) throws {
        self.outputPath = outputPath
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "bind/listen on 127.0.0.1:0: errno \(errno)") }
        port = UInt16(bigEndian: address.sin_port)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, listener, 3)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments = ["/bin/sh", "-c", "export LISTEN_PID=$$ LISTEN_FDS=1; exec \"$0\"", sample]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
        guard spawned == 0 else { throw Failure(description: "posix_spawn: error \(spawned)") }
        self.pid = pid
    }

    /// Writes `request` on a new connection and reads until the server
    /// closes it (at most 30 s, then what came).
    func exchange(_ request: String) throws -> String {
        let connection = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard connection >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(connection) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw Failure(description: "connect to 127.0.0.1:\(port): errno \(errno)") }
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { break }
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while received.count < 1_000_000 {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// SIGTERM, then SIGKILL after 10 s: its wait status, and its output.
    func stop() -> (status: Int32, output: String) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for attempt in 0... {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid || waited == -1 { break }
            if attempt == 1000 { kill(pid, SIGKILL) }
            usleep(10_000)
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return (status, output)
    }
}
