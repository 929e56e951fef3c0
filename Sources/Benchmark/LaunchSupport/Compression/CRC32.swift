/// CRC-32 as gzip (RFC 1952) and zlib compute it: the reflected polynomial
/// 0xEDB88320, initial value and final XOR all ones. "123456789" gives
/// 0xCBF43926.
package enum CRC32 {
    /// One entry per byte value: the CRC of that byte alone, without the
    /// initial and final inversion.
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        return crc
    }

    /// The CRC-32 of `bytes`.
    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
