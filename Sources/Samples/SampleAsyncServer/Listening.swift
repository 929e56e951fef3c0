import Glibc
import LaunchProf

/// A listening socket: the one this process was started with (socket
/// activation), or a new one on 127.0.0.1.
func bind(port requested: Int) -> (fd: Int32, port: Int) {
    if let activated = ActivatedSocket.inherited.first { return (activated.descriptor, localPort(activated.descriptor)) }
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { fail("cannot create a socket: \(String(cString: strerror(errno)))") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(requested).bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard bound, listen(fd, 128) == 0 else { fail("cannot listen on 127.0.0.1:\(requested): \(String(cString: strerror(errno)))") }
    return (fd, localPort(fd))
}

/// The port `fd` is bound to.
func localPort(_ fd: Int32) -> Int {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Answers every connection with a short HTTP response, until a signal ends the process.
func serve(_ fd: Int32) -> Never {
    let response = Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n".utf8)
    var request = [UInt8](repeating: 0, count: 4096)
    while true {
        let connection = accept(fd, nil, nil)
        guard connection >= 0 else {
            if errno == EINTR { continue }
            fail("accept failed: \(String(cString: strerror(errno)))")
        }
        _ = read(connection, &request, request.count)
        _ = response.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        close(connection)
    }
}
