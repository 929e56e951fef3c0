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
            try Syscall.check("connect", "\(address)") { address.withSocketAddress { connect(fd, $0, $1) } }
            state = .sending
        } catch  where error.errno == EINPROGRESS || error.errno == EAGAIN {
            state = .connecting  // a Unix socket with a full backlog, or TCP still handshaking
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
                let written = try Syscall.check("send") {
                    bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
                pending = pending.dropFirst(written)
            } catch  where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
                return  // the socket is full: poll says when to go on
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
                count = try Syscall.check("recv") { buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
            } catch  where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
                return  // nothing more now
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

    /// One request to a program that is up, start to end: the warm
    /// request. Nanoseconds from connect to the whole response, or why not.
    static func exchange(
        address: ActivationAddress, request: SocketActivation.Request, deadline: UInt64
    ) -> Result<UInt64, ActivationFailure> {
        var client = ActivationClient(address: address, request: request)
        while !client.isFinished {
            let now = monotonicNanoseconds()
            guard now < deadline else {
                client.close()
                return .failure(ActivationFailure(message: "no whole response before the run's timeout"))
            }
            var descriptors = [pollfd(fd: client.fd, events: client.events, revents: 0)]
            let wait = Int32(min((deadline - now) / 1_000_000 + 1, 1_000))
            if (try? Syscall.poll(&descriptors, timeout: wait)) ?? 0 > 0 { client.step(revents: descriptors[0].revents) }
        }
        if case .failed(let message) = client.state { return .failure(ActivationFailure(message: message)) }
        return .success((client.completedAt ?? client.connectedAt) &- client.connectedAt)
    }
}

/// Why a request through the activated socket got no whole response.
struct ActivationFailure: Error {
    var message: String
}

/// Where a response ends: for HTTP, after the header block and the body
/// its `Content-Length` or chunks give (or at close, when neither does);
/// for other bytes, only when the program closes the connection.
struct ResponseReader {
    let isHTTP: Bool
    private var head: [UInt8] = []
    private var headerEnd: Int?
    private var bodyLength: Int?
    private var chunked = false
    /// A chunked body as it arrives, and how far its chunks are walked: the
    /// next chunk's size line starts at `nextChunk`; `chunksDone` once the
    /// last chunk and the blank line after its trailers are in.
    private var body: [UInt8] = []
    private var nextChunk = 0
    private var lastChunkSeen = false
    private var chunksDone = false
    private var bodyCount = 0
    /// A response launchprof cannot read as what was asked.
    private(set) var problem: String?
    /// The header block is limited, as every HTTP client limits it.
    static let headLimit = 64 * 1024

    init(isHTTP: Bool) { self.isHTTP = isHTTP }

    mutating func append(_ bytes: ArraySlice<UInt8>) {
        guard isHTTP else { return }
        if headerEnd == nil {
            // Only the new bytes (and the three before them) can complete the blank line.
            let from = max(0, head.count - 3)
            head.append(contentsOf: bytes)
            guard let end = Self.find([13, 10, 13, 10], in: head[from...]) else {
                if head.count > Self.headLimit { problem = "the response's HTTP header is longer than 64 KiB" }
                return
            }
            headerEnd = end + 4
            parseHead(head[..<end])
            let rest = head[(end + 4)...]
            head.removeSubrange((end + 4)...)
            take(rest)
        } else {
            take(bytes)
        }
    }

    private mutating func take(_ bytes: ArraySlice<UInt8>) {
        bodyCount += bytes.count
        guard chunked, !chunksDone else { return }
        body.append(contentsOf: bytes)
        walkChunks()
    }

    /// Walks the chunks that have arrived since the last walk: each size
    /// line, its data and CRLF; after the zero-size chunk, the trailers up
    /// to a blank line.
    private mutating func walkChunks() {
        while !lastChunkSeen {
            guard let lineEnd = Self.find([13, 10], in: body[nextChunk...]) else { return }
            let sizeText = String(decoding: body[nextChunk..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.filter { $0 != " " && $0 != "\t" }, radix: 16) else { return }
            if size == 0 {
                lastChunkSeen = true
                nextChunk = lineEnd  // the CRLF that ends "0", the start of the blank-line search
            } else {
                guard lineEnd + 2 + size + 2 <= body.count else { return }
                nextChunk = lineEnd + 2 + size + 2
            }
        }
        if Self.find([13, 10, 13, 10], in: body[nextChunk...]) != nil {
            chunksDone = true
        } else {
            // Trailers are still arriving: search only what is new next time.
            nextChunk = max(nextChunk, body.count - 3)
        }
    }

    private mutating func parseHead(_ bytes: ArraySlice<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let status = lines.first, status.hasPrefix("HTTP/"),
            let code = status.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else {
            problem = "the response is not HTTP (it begins \"\(String(text.prefix(40)))\")"
            return
        }
        if (100..<200).contains(code) || code == 204 || code == 304 { bodyLength = 0 }
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingPrefix(while: { $0 == " " })
            if name == "content-length", let length = Int(value.filter { $0 != " " && $0 != "\t" }) { bodyLength = length }
            if name == "transfer-encoding", value.lowercased().contains("chunked") { chunked = true }
        }
    }

    /// Whether the whole response has arrived (without waiting for the close).
    var isComplete: Bool {
        guard isHTTP, headerEnd != nil, problem == nil else { return false }
        if chunked { return chunksDone }
        if let bodyLength { return bodyCount >= bodyLength }
        return false  // ends at close
    }

    /// At the close: nil when what arrived is a whole response.
    var problemAtClose: String? {
        guard isHTTP else { return nil }
        if let problem { return problem }
        guard headerEnd != nil else { return "the connection closed inside the response's HTTP header" }
        if chunked, !chunksDone { return "the connection closed before the last chunk of the response" }
        if let bodyLength, bodyCount < bodyLength {
            return "the connection closed after \(bodyCount) of the \(bodyLength) bytes of the response's body"
        }
        return nil
    }

    /// Where `needle` starts in `haystack`, as an index of the whole array.
    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in haystack.startIndex...(haystack.endIndex - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
