import Foundation
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP socket on 127.0.0.1.
final class Listener: Sendable {
    let descriptor: Int32
    let port: UInt16

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(port: UInt16) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }
}

/// Answers every connection with "hello" on a thread of its own, until a
/// graceful shutdown shuts the listening socket (which wakes `accept`).
struct HelloServer: Service {
    let listener: Listener

    func run() async throws {
        await withGracefulShutdownHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    serve()
                    done.resume()
                }
            }
        } onGracefulShutdown: {
            shutdown(listener.descriptor, Int32(SHUT_RDWR))
        }
    }

    private func serve() {
        let response = Array("HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nhello\n".utf8)
        while true {
            let connection = accept(listener.descriptor, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return  // shut down
            }
            var request = [UInt8](repeating: 0, count: 4096)
            _ = read(connection, &request, request.count)
            _ = response.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            close(connection)
        }
    }
}
