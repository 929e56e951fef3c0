import Glibc
import LaunchSupport

/// Whether something accepts TCP connections on localhost:port, on IPv4
/// (127.0.0.1) or IPv6 (::1), as a client would find out: by connecting.
///
/// Loopback connects complete or are refused at once, so a blocking connect
/// costs microseconds; the observer retries every millisecond.
struct PortProbe {
    let port: UInt16
    /// Set once ::1 turns out not to exist here, so it is not retried.
    private var ipv6Unavailable = false

    init(port: Int) { self.port = UInt16(port) }

    /// One attempt on each address; true as soon as one connection succeeds.
    mutating func isAccepting() -> Bool {
        if connectIPv4() { return true }
        guard !ipv6Unavailable else { return false }
        return connectIPv6()
    }

    private func connectIPv4() -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return attempt(family: AF_INET, &address) == 0
    }

    private mutating func connectIPv6() -> Bool {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        withUnsafeMutableBytes(of: &address.sin6_addr) { $0[15] = 1 }  // ::1
        let result = attempt(family: AF_INET6, &address)
        if result == EAFNOSUPPORT || result == EADDRNOTAVAIL { ipv6Unavailable = true }
        return result == 0
    }

    /// 0 on a successful connect, else the errno.
    private func attempt<Address>(family: Int32, _ address: inout Address) -> Int32 {
        let socket: FileDescriptor
        do {
            socket = FileDescriptor(
                try Syscall.check("socket", "localhost:\(port)") {
                    Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                })
        } catch {
            return error.errno
        }
        defer { socket.close() }
        let fd = socket.rawValue
        let length = socklen_t(MemoryLayout<Address>.size)
        do throws(SystemCallError) {
            try Syscall.check("connect", "localhost:\(port)") {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
                }
            }
            return 0
        } catch {
            return error.errno
        }
    }
}

/// Who listens on a local TCP port: /proc/net/tcp{,6} give the listening
/// socket's inode, and the process holding it is the one with a descriptor
/// on `socket:[inode]`. Processes of other users cannot be looked into
/// without privileges; they are then named by uid only.
enum PortHolder {
    /// "pid 1234 (nginx)", "a process of uid 33", or nil when nothing
    /// listens.
    static func describe(port: UInt16) -> String? {
        var inodes: [(inode: String, uid: String)] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = ProcFile.read(table) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                // local_address rem_address st … uid timeout inode
                guard fields.count > 9, fields[3] == "0A", let colon = fields[1].lastIndex(of: ":"),
                    UInt16(fields[1][fields[1].index(after: colon)...], radix: 16) == port
                else { continue }
                inodes.append((String(fields[9]), String(fields[7])))
            }
        }
        guard let first = inodes.first else { return nil }
        let wanted = Set(inodes.map { "socket:[\($0.inode)]" })
        if let holder = holder(of: wanted) { return holder }
        return "a process of uid \(first.uid) (its descriptors are not readable here)"
    }

    private static func holder(of sockets: Set<String>) -> String? {
        guard let processes = opendir("/proc") else { return nil }
        defer { closedir(processes) }
        while let entry = readdir(processes) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), let descriptors = opendir("/proc/\(pid)/fd") else { continue }
            defer { closedir(descriptors) }
            while let fd = readdir(descriptors) {
                let number = withUnsafeBytes(of: fd.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                var target = [CChar](repeating: 0, count: 64)
                let length = readlink("/proc/\(pid)/fd/\(number)", &target, target.count - 1)
                guard length > 0 else { continue }
                let link = String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if sockets.contains(link) {
                    let comm = ProcFile.read("/proc/\(pid)/comm").map { String($0.filter { $0 != "\n" }) } ?? "?"
                    return "pid \(pid) (\(TerminalText.sanitized(comm)))"
                }
            }
        }
        return nil
    }
}
