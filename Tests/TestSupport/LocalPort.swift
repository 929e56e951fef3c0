import Glibc
import LaunchBenchmark
import LaunchSupport

/// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, the
/// kernel's pick read back, the socket closed).
public enum LocalPort {
    public static func free() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError(call: "socket", errno: errno) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw SystemCallError(call: "bind", subject: "127.0.0.1:0", errno: errno) }
        return UInt16(bigEndian: address.sin_port)
    }
}
