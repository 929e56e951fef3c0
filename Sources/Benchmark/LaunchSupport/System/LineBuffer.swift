/// Splits a byte stream read in arbitrary chunks into lines.
///
/// A line longer than `limit` is handed out in pieces of `limit` bytes, so a
/// program that writes megabytes without a newline cannot make the harness
/// buffer it all.
package struct LineBuffer {
    private var pending: [UInt8] = []
    let limit: Int

    package init(limit: Int = 64 * 1024) { self.limit = limit }

    /// Appends `bytes` and calls `body` with each complete line (no newline).
    package mutating func append(_ bytes: UnsafeRawBufferPointer, _ body: (Substring) -> Void) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                emit(body)
            } else {
                pending.append(byte)
                if pending.count >= limit { emit(body) }
            }
        }
    }

    /// Hands out what is left without a newline (at end of stream).
    package mutating func flush(_ body: (Substring) -> Void) {
        if !pending.isEmpty { emit(body) }
    }

    private mutating func emit(_ body: (Substring) -> Void) {
        body(Substring(String(decoding: pending, as: UTF8.self)))
        pending.removeAll(keepingCapacity: true)
    }
}
