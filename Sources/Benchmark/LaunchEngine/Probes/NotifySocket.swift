import CLaunchProfSpawn
import Glibc
import LaunchSupport

/// A private sd_notify socket, as systemd provides one to a service: an
/// AF_UNIX datagram socket the child finds in NOTIFY_SOCKET.
///
/// It lives in a directory of its own, created 0700 (in $XDG_RUNTIME_DIR,
/// else $TMPDIR or /tmp), so no other user can reach it — an abstract name
/// would be visible in /proc/net/unix and writable by anyone. Every message
/// carries its sender's pid (SO_PASSCRED), and only the run's own processes
/// may declare it ready (``drainReady(accepting:)``). File descriptors sent
/// alongside (`FDSTORE=1`, or `systemd-notify`'s barrier) are closed at once,
/// after the message before them was judged, as systemd does.
package final class NotifySocket {
    /// The bound socket, non-blocking and close-on-exec.
    private let descriptor: FileDescriptor
    /// The socket's number, for poll and recvmsg.
    package var fd: Int32 { descriptor.rawValue }
    /// The NOTIFY_SOCKET value for the child: the socket's path.
    package let address: String
    private let directory: String
    /// Messages from senders that were not accepted, one per sender (at
    /// most ``refusalLimit``), for the run's notes and its failure message.
    package private(set) var refusals: [NotifyRefusal] = []
    /// Senders named at most; a flood of impostors is one sentence each.
    static let refusalLimit = 8

    package init() throws(SystemCallError) {
        let candidates = [getenv("XDG_RUNTIME_DIR"), getenv("TMPDIR")].compactMap { $0.map { String(cString: $0) } }
        let base = candidates.first { !$0.isEmpty && access($0, W_OK | X_OK) == 0 } ?? "/tmp"
        directory = try PrivateDirectory.make(in: base, prefix: "launchprof-notify")
        let path = directory + "/notify"
        let flags = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            rmdir(directory)
            throw SystemCallError(call: "bind", subject: path, errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in pathBytes.enumerated() { raw[i] = byte }
        }
        let length = socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + pathBytes.count + 1)
        let socketFD: Int32
        let owner: FileDescriptor
        do throws(SystemCallError) {
            socketFD = try Syscall.check("socket", "AF_UNIX datagram") { socket(AF_UNIX, flags, 0) }
            owner = FileDescriptor(socketFD)
            var on: Int32 = 1
            _ = setsockopt(socketFD, SOL_SOCKET, SO_PASSCRED, &on, socklen_t(MemoryLayout<Int32>.size))
            try Syscall.check("bind", path) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, length) }
                }
            }
        } catch {
            unlink(path)
            rmdir(directory)
            throw error
        }
        descriptor = owner
        self.address = path
    }

    deinit {
        descriptor.close()
        unlink(address)
        rmdir(directory)
    }

    /// Reads every pending datagram, at most `limit` of them (a flood must
    /// not hold the run loop); true if one from an accepted sender holds a
    /// `READY=1` line. A message from a sender that is not accepted, of any
    /// kind, is kept as a ``NotifyRefusal``.
    package func drainReady(limit: Int = 256, accepting accept: (pid_t) -> Bool) -> Bool {
        var ready = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<limit {
            var sender: pid_t = 0
            let count = buffer.withUnsafeMutableBytes { lp_notify_receive(fd, $0.baseAddress, $0.count, &sender) }
            if count < 0 { break }
            let fields = buffer[..<count].split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
            if sender > 0, accept(sender) {
                if fields.contains("READY=1") { ready = true }
                continue
            }
            guard refusals.count < Self.refusalLimit, !refusals.contains(where: { $0.pid == sender }) else { continue }
            refusals.append(NotifyRefusal(pid: sender, fields: fields))
        }
        return ready
    }
}
