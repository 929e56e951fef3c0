/// Reads little-endian integers and byte runs from a range of a byte array,
/// never past the range's end: every read checks first and throws.
///
/// A cursor over the whole file reports running out as truncation; a cursor
/// over one section's payload reports it as a malformed section, since the
/// file itself was long enough.
struct TraceByteCursor {
    let bytes: [UInt8]
    let path: String
    /// What the range is, for messages ("the strings section at byte 112").
    let context: String
    let truncationIsFileEnd: Bool
    private(set) var offset: Int
    let end: Int

    init(bytes: [UInt8], path: String, range: Range<Int>, context: String, truncationIsFileEnd: Bool) {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "cursor range outside the bytes")
        self.bytes = bytes
        self.path = path
        self.context = context
        self.truncationIsFileEnd = truncationIsFileEnd
        self.offset = range.lowerBound
        self.end = range.upperBound
    }

    var remaining: Int { end - offset }

    /// Throws unless `count` more bytes are there for `what`.
    func require(_ count: Int, for what: String) throws(TraceReadError) {
        guard count > remaining else { return }
        if truncationIsFileEnd {
            throw .truncated(
                path: path, offset: offset,
                detail: "\(what) at byte \(offset) needs \(count) bytes but only \(remaining) remain")
        }
        throw .malformed(
            path: path, offset: offset,
            detail: "\(context) ends at byte \(end), but \(what) at byte \(offset) needs \(count) bytes")
    }

    mutating func u8(_ what: String) throws(TraceReadError) -> UInt8 {
        UInt8(try integer(1, what))
    }

    mutating func u16(_ what: String) throws(TraceReadError) -> UInt16 {
        UInt16(try integer(2, what))
    }

    mutating func u32(_ what: String) throws(TraceReadError) -> UInt32 {
        UInt32(try integer(4, what))
    }

    mutating func u64(_ what: String) throws(TraceReadError) -> UInt64 {
        try integer(8, what)
    }

    mutating func i64(_ what: String) throws(TraceReadError) -> Int64 {
        Int64(bitPattern: try integer(8, what))
    }

    /// The next `count` bytes.
    mutating func take(_ count: Int, _ what: String) throws(TraceReadError) -> ArraySlice<UInt8> {
        try require(count, for: what)
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// Moves ahead `count` bytes.
    mutating func skip(_ count: Int, _ what: String) throws(TraceReadError) {
        try require(count, for: what)
        offset += count
    }

    private mutating func integer(_ size: Int, _ what: String) throws(TraceReadError) -> UInt64 {
        try require(size, for: what)
        var value: UInt64 = 0
        for index in 0..<size {
            // Checked above: offset + size <= end <= bytes.count.
            value |= UInt64(bytes[offset + index]) << (8 * index)
        }
        offset += size
        return value
    }
}
