/// A gzip member (RFC 1952) whose deflate stream (RFC 1951) is made of
/// stored blocks: the bytes as they are, in blocks of at most 65,535, each
/// with its length and the length's complement, then the CRC-32 and the
/// length of the whole. Every gzip reader takes it (`gzip -d`, Go's
/// compress/gzip that `go tool pprof` uses, zlib, Python's gzip).
///
/// Why not compress: zlib is the one compressor at hand, and a launchprof
/// that linked libz.so.1 would keep it mapped through every measured run,
/// where a cold run cannot evict a page a live process maps, so every
/// launch of a program that loads zlib would be measured warm (the reason
/// the CLI links Foundation statically: Package.swift). A stored stream
/// costs the compression ratio only: 5 bytes per 64 KiB block, plus 18;
/// lp-sample-app's launch profile (612 samples) is 41,259 bytes so, 10,039
/// through `gzip -9`.
package enum Gzip {
    /// The largest stored block deflate allows.
    static let blockLimit = 65_535

    /// `bytes` as a gzip member of stored deflate blocks.
    package static func stored(_ bytes: [UInt8]) -> [UInt8] {
        // Magic, deflate, no flags, no time, no extra flags, OS 3 (Unix).
        var output: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        output.reserveCapacity(bytes.count + bytes.count / blockLimit * 5 + 23)
        var offset = 0
        repeat {
            let count = min(blockLimit, bytes.count - offset)
            let final: UInt8 = offset + count == bytes.count ? 1 : 0
            // BFINAL, then BTYPE 00 (stored); the rest of the byte is padding.
            output.append(final)
            let length = UInt16(count)  // count ≤ blockLimit = UInt16.max
            appendLittleEndian(UInt32(length) | UInt32(~length) << 16, to: &output)
            output += bytes[offset..<offset + count]
            offset += count
        } while offset < bytes.count
        appendLittleEndian(CRC32.checksum(bytes), to: &output)
        // ISIZE is the length modulo 2^32 (RFC 1952, 2.3.1).
        appendLittleEndian(UInt32(truncatingIfNeeded: bytes.count), to: &output)
        return output
    }

    private static func appendLittleEndian(_ value: UInt32, to output: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
