import Glibc

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
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { Syscall.closeQuietly(fd) }
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
