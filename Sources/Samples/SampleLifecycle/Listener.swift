import Glibc

/// A TCP listener on 127.0.0.1 that answers each connection with one line.
struct Listener {
    let fd: Int32
    /// The bound port (the kernel's pick when asked for 0).
    let port: Int

    struct BindError: Error, CustomStringConvertible {
        var port: Int
        var code: Int32
        var description: String { "cannot listen on 127.0.0.1:\(port): \(String(cString: strerror(code)))" }
    }

    init(port requested: Int) throws(BindError) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BindError(port: requested, code: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(requested).bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = fd
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 128) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw BindError(port: requested, code: errno) }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Answers connections until the process ends (the lifecycle ends it).
    func serve(reply: (Int32) -> String) -> Never {
        while true {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { continue }  // EINTR, a peer gone
            var bytes = Array(reply(connection).utf8)
            _ = bytes.withUnsafeMutableBytes { write(connection, $0.baseAddress, $0.count) }
            close(connection)
        }
    }
}
