import Glibc
import LaunchSupport

/// The client of a launch on demand: one connection, one request, one
/// response, on a non-blocking socket the run loop polls. It connects as
/// soon as the program is spawned (the connection waits in the listening
/// socket's backlog while the program launches), sends the request, and
/// notes when the response's first byte and its end arrive.
struct ActivationClient {
    enum State: Equatable {
        case connecting, sending, receiving, done
        case failed(String)
    }

    private(set) var state: State = .connecting
    private var socket: FileDescriptor?
    /// The client socket's number, for poll; -1 once closed.
    var fd: Int32 { socket?.rawValue ?? -1 }
    private var pending: ArraySlice<UInt8>
    private var response: ResponseReader
    /// CLOCK_MONOTONIC of the connect, the response's first byte and its end.
    private(set) var connectedAt: UInt64 = 0
    private(set) var firstByteAt: UInt64?
    private(set) var completedAt: UInt64?

    /// Connects to `address` and queues `request`.
    init(address: ActivationAddress, request: SocketActivation.Request) {
        let host =
            switch address {
            case .tcp: address.description
            case .unix: "localhost"
            }
        pending = request.bytes(host: host)[...]
        response = ResponseReader(isHTTP: request.isHTTP)
        connectedAt = monotonicNanoseconds()
        do throws(SystemCallError) {
            socket = FileDescriptor(try address.socket())
        } catch {
            state = .failed("cannot make the client socket: \(error)")
            return
        }
        let fd = self.fd
        do throws(SystemCallError) {
            let connected = try Syscall.nonBlocking("connect", "\(address)") { address.withSocketAddress { connect(fd, $0, $1) } }
            // nil: a Unix socket with a full backlog, or TCP still handshaking.
            state = connected == nil ? .connecting : .sending
        } catch {
            state = .failed("connect to \(address): \(String(cString: strerror(error.errno)))")
        }
        if state == .sending { send() }
    }

    /// What to poll for.
    var events: Int16 {
        switch state {
        case .connecting, .sending: Int16(POLLOUT)
        case .receiving: Int16(POLLIN)
        case .done, .failed: 0
        }
    }

    var isFinished: Bool {
        switch state {
        case .done, .failed: true
        default: false
        }
    }

    /// Moves on after poll said `revents`.
    mutating func step(revents: Int16) {
        switch state {
        case .connecting:
            guard revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 else { return }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            let fd = self.fd
            do throws(SystemCallError) {
                try Syscall.check("getsockopt", "SO_ERROR") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) }
            } catch {
                fail("connect: \(error)")
                return
            }
            if error != 0 {
                fail("connect: \(String(cString: strerror(error)))")
                return
            }
            state = .sending
            send()
        case .sending:
            send()
        case .receiving:
            receive()
        case .done, .failed:
            return
        }
    }

    private mutating func send() {
        let fd = self.fd
        while !pending.isEmpty {
            let bytes = pending
            do throws(SystemCallError) {
                let written = try Syscall.nonBlocking("send") {
                    bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
                guard let written else { return }  // the socket is full: poll says when to go on
                pending = pending.dropFirst(written)
            } catch {
                fail("sending the request: \(String(cString: strerror(error.errno)))")
                return
            }
        }
        state = .receiving
    }

    private mutating func receive() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // Bounded per round: the run loop keeps its deadlines.
        for _ in 0..<16 {
            let fd = self.fd
            let count: Int
            do throws(SystemCallError) {
                let received = try Syscall.nonBlocking("recv") {
                    buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                }
                guard let received else { return }  // nothing more now
                count = received
            } catch {
                fail("reading the response: \(String(cString: strerror(error.errno)))")
                return
            }
            let now = monotonicNanoseconds()
            if count == 0 {
                // The program closed the connection: the end of a response
                // that had a byte, else no response at all.
                if firstByteAt == nil {
                    fail("the program closed the connection without a response")
                } else if let problem = response.problemAtClose {
                    fail(problem)
                } else {
                    finish(at: now)
                }
                return
            }
            if firstByteAt == nil { firstByteAt = now }
            response.append(buffer[..<count])
            if let problem = response.problem {
                fail(problem)
                return
            }
            if response.isComplete {
                finish(at: now)
                return
            }
        }
    }

    private mutating func finish(at now: UInt64) {
        completedAt = now
        state = .done
        close()
    }

    private mutating func fail(_ message: String) {
        state = .failed(message)
        close()
    }

    mutating func close() {
        socket?.close()
        socket = nil
    }
}
