import Glibc
import LaunchProf

/// A TCP listener on 127.0.0.1.
struct Listener {
    let fd: Int32
    /// The bound port (the kernel's pick when asked for 0).
    let port: Int

    struct BindError: Error, CustomStringConvertible {
        var port: Int
        var call: String
        var code: Int32
        var description: String {
            "cannot listen on 127.0.0.1:\(port): \(call) failed: \(String(cString: strerror(code)))"
        }
    }

    init(port requested: Int) throws(BindError) {
        func failure(_ call: String) -> BindError { BindError(port: requested, call: call, code: errno) }
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket") }
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
        guard bound else { throw failure("bind/listen") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// A socket this process was started with (socket activation); its
    /// port is read from it (0 for a Unix socket).
    init(activated socket: ActivatedSocket) {
        fd = socket.descriptor
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket.descriptor, $0, &length) }
        }
        port = named == 0 && address.sin_family == sa_family_t(AF_INET) ? Int(UInt16(bigEndian: address.sin_port)) : 0
    }

    /// Accepts connections and writes `reply(request)` to each, then closes it,
    /// until `stop` fires. The request is what the peer sent within 100 ms
    /// (an HTTP request's header block, or nothing from a peer that only
    /// connects); it is read before the reply, so the close is a clean one.
    func serve(until stop: StopSignals, reply: ([UInt8]) -> String) {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop.readEnd, events: Int16(POLLIN), revents: 0)]
        while true {
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { continue }
            var bytes = Array(reply(Self.request(from: connection)).utf8)
            _ = bytes.withUnsafeMutableBytes { write(connection, $0.baseAddress, $0.count) }
            close(connection)
        }
    }

    /// What the peer sent, up to the end of an HTTP header block, 16 KiB,
    /// its close, or 100 ms of silence.
    private static func request(from connection: Int32) -> [UInt8] {
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var peer = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        while request.count < 16_384, poll(&peer, 1, 100) > 0 {
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            request += buffer[..<count]
            if request.count >= 4, request.suffix(4).elementsEqual([13, 10, 13, 10]) { break }
        }
        return request
    }
}
