import CLaunchProfSpawn
import Glibc
import LaunchSupport

/// An sd_notify socket for one run, as systemd provides one to a service:
/// an AF_UNIX datagram socket the child finds in NOTIFY_SOCKET.
///
/// Every user the service may become can send to it, as to systemd's
/// `/run/systemd/notify` (a root launchprof starting `runuser -u postgres
/// -- postgres`, or a daemon that drops privileges, sends READY=1 as
/// another user): the socket is mode 0622 (connect and sendto check write
/// permission only) in a directory of its own made by mkdtemp, which is
/// opened to 0711 (enter, but not list, create, rename or delete) only
/// once the socket is bound and its mode set, so nothing but launchprof's
/// own socket can ever be at that path, and no other user can replace it
/// or plant a symlink there. The base directory is one every user can
/// enter ($XDG_RUNTIME_DIR, $TMPDIR, /tmp, the first that qualifies). Who
/// may send is not what decides readiness: every message carries its
/// sender's pid (SO_PASSCRED), and only the run's own processes may declare
/// it ready (``drainReady(accepting:)``), as systemd trusts the credentials
/// and not the socket's permissions. File descriptors sent alongside
/// (`FDSTORE=1`, or `systemd-notify`'s barrier) are closed at once, after
/// the message before them was judged, as systemd does.
package final class NotifySocket {
    /// The bound socket, non-blocking and close-on-exec.
    private let descriptor: FileDescriptor
    /// The socket's number, for poll and recvmsg.
    package var fd: Int32 { descriptor.rawValue }
    /// The NOTIFY_SOCKET value for the child: the socket's path.
    package let address: String
    private let directory: String
    /// Whether every user can enter the directories on the way to the
    /// socket (false only when no candidate base allowed it).
    package let everyoneCanReach: Bool
    /// Messages from senders that were not accepted, one per sender (at
    /// most ``refusalLimit``), for the run's notes and its failure message.
    package private(set) var refusals: [NotifyRefusal] = []
    /// Datagrams read, from anyone.
    package private(set) var received = 0
    /// Datagrams from the run's own processes.
    package private(set) var accepted = 0
    /// The fields of the last of them.
    package private(set) var lastAccepted: [String] = []
    /// Senders named at most; a flood of impostors is one sentence each.
    static let refusalLimit = 8
    /// The socket's mode: write (all connect and sendto need) for everyone.
    static let socketMode: mode_t = 0o622
    /// The directory's mode once the socket is in it: others may enter only.
    static let directoryMode: mode_t = 0o711

    package init() throws(SystemCallError) {
        let candidates = [getenv("XDG_RUNTIME_DIR"), getenv("TMPDIR")].compactMap { $0.map { String(cString: $0) } } + ["/tmp"]
        let base = Self.base(among: candidates)
        everyoneCanReach = base.everyone
        directory = try PrivateDirectory.make(in: base.path, prefix: "launchprof-notify")
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
            // chmod follows a symlink, but the directory is still 0700 and
            // ours: nothing but the socket just bound can be at `path`.
            try Syscall.check("chmod", path) { chmod(path, Self.socketMode) }
            try Self.openUp(directory)
        } catch {
            unlink(path)
            rmdir(directory)
            throw error
        }
        descriptor = owner
        self.address = path
    }

    /// The directory mkdtemp made, opened to ``directoryMode`` through a
    /// descriptor that cannot follow a symlink, after checking that it is
    /// still a directory of this user's.
    private static func openUp(_ directory: String) throws(SystemCallError) {
        let fd = try Syscall.check("open", directory) { open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        defer { close(fd) }
        var info = stat()
        try Syscall.check("fstat", directory) { fstat(fd, &info) }
        guard info.st_uid == geteuid(), info.st_mode & S_IFMT == S_IFDIR else {
            throw SystemCallError(call: "fchmod", subject: directory, errno: EPERM)
        }
        try Syscall.check("fchmod", directory) { fchmod(fd, directoryMode) }
    }

    /// The first of `candidates` this user can write in and every user can
    /// enter (each directory from / to it searchable by others); else the
    /// first this user can write in (the socket then reaches this user's
    /// processes only, and a run that times out says so); else /tmp.
    static func base(among candidates: [String]) -> (path: String, everyone: Bool) {
        let usable = candidates.filter { !$0.isEmpty && access($0, W_OK | X_OK) == 0 }
        if let open = usable.first(where: everyoneCanEnter) { return (open, true) }
        let fallback = usable.first ?? "/tmp"
        return (fallback, everyoneCanEnter(fallback))
    }

    /// Whether every user may search each directory on the way to `path`
    /// (symlinks resolved first).
    static func everyoneCanEnter(_ path: String) -> Bool {
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        var prefix = ""
        var directories = ["/"]
        for component in String(cString: resolved).split(separator: "/") {
            prefix += "/" + component
            directories.append(prefix)
        }
        return directories.allSatisfy { directory in
            var info = stat()
            return stat(directory, &info) == 0 && info.st_mode & S_IXOTH != 0
        }
    }

    deinit {
        descriptor.close()
        unlink(address)
        rmdir(directory)
    }

    /// Reads every pending datagram, at most `limit` of them (a flood must
    /// not hold the run loop); true if one from an accepted sender holds a
    /// `READY=1` line. A message from a sender that is not accepted, of any
    /// kind, is kept as a `NotifyRefusal`.
    package func drainReady(limit: Int = 256, accepting accept: (pid_t) -> Bool) -> Bool {
        var ready = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<limit {
            var sender: pid_t = 0
            let count = buffer.withUnsafeMutableBytes { lp_notify_receive(fd, $0.baseAddress, $0.count, &sender) }
            if count < 0 { break }
            received += 1
            let fields = buffer[..<count].split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
            if sender > 0, accept(sender) {
                accepted += 1
                lastAccepted = fields
                if fields.contains("READY=1") { ready = true }
                continue
            }
            guard refusals.count < Self.refusalLimit, !refusals.contains(where: { $0.pid == sender }) else { continue }
            refusals.append(NotifyRefusal(pid: sender, fields: fields))
        }
        return ready
    }
}
