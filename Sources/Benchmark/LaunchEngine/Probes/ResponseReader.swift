/// Where a response ends: for HTTP, after the header block and the body its
/// `Content-Length` or chunks give (or at close, when neither does); for
/// other bytes, only when the program closes the connection.
///
/// The response is hostile: the header block is at most ``headLimit``
/// bytes and the body at most ``bodyLimit``; every length is parsed strictly
/// (digits only, no sign, no overflow); a chunked body is walked as it
/// arrives and only the part not walked yet is kept. Anything else is a
/// ``problem`` that fails the run with its reason. Each `append` does work
/// proportional to the bytes it is given.
struct ResponseReader {
    let isHTTP: Bool
    private var head: [UInt8] = []
    private var headerDone = false
    private var bodyLength: Int?
    private var chunked = false
    /// The part of a chunked body not walked yet; `chunkLeft` bytes of the
    /// current chunk's data (and its CRLF) still to come.
    private var pending: [UInt8] = []
    private var chunkLeft = 0
    private var lastChunkSeen = false
    private var chunksDone = false
    private var bodyCount = 0
    /// A response launchprof cannot read as what was asked.
    private(set) var problem: String?

    /// The header block is limited, as every HTTP client limits it.
    static let headLimit = 64 * 1024
    /// The body launchprof reads of one response: a ready check's answer
    /// is small; an endless or giant body is refused.
    static let bodyLimit = 16 * 1024 * 1024
    /// A chunk-size line (with its extensions) or a trailer line.
    static let lineLimit = 4096

    init(isHTTP: Bool) { self.isHTTP = isHTTP }

    mutating func append(_ bytes: ArraySlice<UInt8>) {
        guard isHTTP, problem == nil else { return }
        guard headerDone else {
            // Only the new bytes (and the three before them) can complete the blank line.
            let from = max(0, head.count - 3)
            head.append(contentsOf: bytes)
            guard let end = Self.find([13, 10, 13, 10], in: head[from...]) else {
                if head.count > Self.headLimit { problem = "the response's HTTP header is longer than 64 KiB" }
                return
            }
            guard end + 4 <= Self.headLimit else {
                problem = "the response's HTTP header is longer than 64 KiB"
                return
            }
            headerDone = true
            parseHead(head[..<end])
            let rest = Array(head[(end + 4)...])
            head = []
            take(rest[...])
            return
        }
        take(bytes)
    }

    private mutating func take(_ bytes: ArraySlice<UInt8>) {
        guard problem == nil else { return }
        bodyCount += bytes.count
        if bodyCount > Self.bodyLimit {
            problem = "the response's body is longer than \(Self.bodyLimit / 1024 / 1024) MiB (launchprof reads at most that of a response)"
            return
        }
        if let bodyLength, !chunked, bodyCount > bodyLength {
            bodyCount = bodyLength  // bytes after the body: not this response's
        }
        guard chunked, !chunksDone else { return }
        pending.append(contentsOf: bytes)
        walkChunks()
    }

    /// Walks the chunks that have arrived: each size line, its data and
    /// CRLF; after the zero-size chunk, the trailers up to a blank line.
    /// What was walked is dropped, so memory stays at one line's worth.
    private mutating func walkChunks() {
        var position = 0
        defer { pending.removeFirst(position) }
        while problem == nil, !chunksDone {
            if chunkLeft > 0 {
                let step = min(chunkLeft, pending.count - position)
                position += step
                chunkLeft -= step
                if chunkLeft > 0 { return }
                continue
            }
            guard let lineEnd = Self.find([13, 10], in: pending[position...]) else {
                if pending.count - position > Self.lineLimit { problem = "a line of the chunked response is longer than 4 KiB" }
                return
            }
            let line = pending[position..<lineEnd]
            position = lineEnd + 2
            if lastChunkSeen {
                // Trailers: a blank line ends them.
                if line.isEmpty { chunksDone = true }
                continue
            }
            guard let size = Self.chunkSize(line) else {
                problem = "the chunked response has a malformed chunk size \"\(Self.printable(line))\""
                return
            }
            if size == 0 {
                lastChunkSeen = true
            } else {
                chunkLeft = size + 2  // the data and its CRLF
            }
        }
    }

    /// A chunk size: hexadecimal digits only (then `;extensions` or
    /// blanks), at most the body limit.
    private static func chunkSize(_ line: ArraySlice<UInt8>) -> Int? {
        let digits = line.prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value = 0
        for byte in digits {
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            value = value * 16 + digit
            if value > bodyLimit { return nil }
        }
        return value
    }

    /// A decimal length: digits only, at most the body limit.
    private static func decimal(_ text: Substring) -> Int? {
        let digits = text.filter { $0 != " " && $0 != "\t" }
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits),
            value <= bodyLimit
        else { return nil }
        return value
    }

    private mutating func parseHead(_ bytes: ArraySlice<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let status = lines.first, status.hasPrefix("HTTP/"),
            let code = status.split(separator: " ").dropFirst().first.flatMap({ Int($0) }), (100...999).contains(code)
        else {
            problem = "the response is not HTTP (it begins \"\(Self.printable(bytes.prefix(40)))\")"
            return
        }
        if (100..<200).contains(code) || code == 204 || code == 304 { bodyLength = 0 }
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingPrefix(while: { $0 == " " })
            if name == "content-length" {
                guard let length = Self.decimal(value) else {
                    problem = "the response's Content-Length \"\(Self.printable(value.utf8.prefix(40)))\" is not a length up to 16 MiB"
                    return
                }
                bodyLength = length
            }
            if name == "transfer-encoding", value.lowercased().contains("chunked") { chunked = true }
        }
    }

    /// Whether the whole response has arrived (without waiting for the close).
    var isComplete: Bool {
        guard isHTTP, headerDone, problem == nil else { return false }
        if chunked { return chunksDone }
        if let bodyLength { return bodyCount >= bodyLength }
        return false  // ends at close
    }

    /// At the close: nil when what arrived is a whole response.
    var problemAtClose: String? {
        guard isHTTP else { return nil }
        if let problem { return problem }
        guard headerDone else { return "the connection closed inside the response's HTTP header" }
        if chunked, !chunksDone { return "the connection closed before the last chunk of the response" }
        if let bodyLength, bodyCount < bodyLength {
            return "the connection closed after \(bodyCount) of the \(bodyLength) bytes of the response's body"
        }
        return nil
    }

    /// Bytes for a message: printable ASCII kept, the rest as `?`.
    private static func printable<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        String(bytes.prefix(40).map { $0 >= 0x20 && $0 < 0x7f ? Character(UnicodeScalar($0)) : "?" })
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
