import LaunchProf

/// The state file format, version 1. All integers little-endian.
///
/// | offset | type | field |
/// |---|---|---|
/// | 0 | 8 bytes | magic `LPSTATE\0` |
/// | 8 | u32 | format version (1) |
/// | 12 | u32 | header size (48) |
/// | 16 | u64 | saved at, CLOCK_REALTIME ns |
/// | 24 | u64 | payload length |
/// | 32 | u8 | kind: 1 quick, 2 complete |
/// | 33 | u8 | flags: bit 0 = saved at a clean shutdown |
/// | 34 | u16 | app version length |
/// | 36 | u32 | pid of the writer |
/// | 40 | u64 | reserved (0) |
/// | 48 | … | app version (UTF-8), then the payload |
/// | end − 8 | u64 | FNV-1a 64 of every byte before it |
enum StateFile {
    static let magic: [UInt8] = Array("LPSTATE\0".utf8)
    static let version: UInt32 = 1
    static let headerSize = 48
    /// The largest state file saved or read: 128 MiB. Restoration state is
    /// what a program needs to put the user back where they were, not its
    /// database; a cap keeps a hostile file (or /dev/zero behind a symlink)
    /// from costing the launch its memory.
    static let maximumFileSize = 128 << 20

    struct Contents: Equatable {
        var savedAtNanoseconds: UInt64
        var kind: StateKind
        var cleanShutdown: Bool
        var appVersion: String
        var writerPID: UInt32
        var payload: [UInt8]
    }

    static func encode(_ contents: Contents) -> [UInt8] {
        var writer = ByteWriter()
        let version = Self.versionBytes(contents.appVersion)
        writer.bytes.reserveCapacity(headerSize + version.count + contents.payload.count + 8)
        writer.bytes += magic
        writer.u32(Self.version)
        writer.u32(UInt32(headerSize))
        writer.u64(contents.savedAtNanoseconds)
        writer.u64(UInt64(contents.payload.count))
        writer.bytes.append(contents.kind.rawValue)
        writer.bytes.append(contents.cleanShutdown ? 1 : 0)
        writer.bytes.append(UInt8(version.count & 0xff))
        writer.bytes.append(UInt8(version.count >> 8))
        writer.u32(contents.writerPID)
        writer.u64(0)
        writer.bytes += version
        writer.bytes += contents.payload
        writer.u64(TraceFormat.checksum(writer.bytes))
        return writer.bytes
    }

    /// The app version's UTF-8, at most 65,535 bytes (its length is a u16),
    /// cut between two characters' scalars, never inside one: a version cut
    /// mid-scalar would read back as another string.
    static func versionBytes(_ version: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in version.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            guard bytes.count + encoded.count <= Int(UInt16.max) else { break }
            bytes += encoded
        }
        return bytes
    }

    /// The contents of `bytes`, or what is wrong with them.
    static func decode(_ bytes: [UInt8]) -> Result<Contents, StateFileProblem> {
        guard bytes.count >= headerSize + 8 else {
            return .failure(.corrupt("truncated: \(bytes.count) bytes, a state file has at least \(headerSize + 8)"))
        }
        guard bytes.starts(with: magic) else { return .failure(.corrupt("not a launchprof state file (bad magic)")) }
        let version = UInt32(truncatingIfNeeded: read(bytes, at: 8, size: 4))
        guard version == Self.version else { return .failure(.unsupportedFormat(version)) }
        let header = Int(read(bytes, at: 12, size: 4))
        let payloadLength = read(bytes, at: 24, size: 8)
        let versionLength = Int(read(bytes, at: 34, size: 2))
        guard header >= headerSize, payloadLength <= UInt64(bytes.count),
            header + versionLength + Int(payloadLength) + 8 == bytes.count
        else { return .failure(.corrupt("lengths do not add up to the file's \(bytes.count) bytes (truncated?)")) }
        let stored = read(bytes, at: bytes.count - 8, size: 8)
        guard stored == TraceFormat.checksum(bytes[..<(bytes.count - 8)]) else {
            return .failure(.corrupt("checksum mismatch"))
        }
        guard let kind = StateKind(rawValue: bytes[32]) else {
            return .failure(.corrupt("unknown state kind \(bytes[32])"))
        }
        let versionStart = header
        let payloadStart = versionStart + versionLength
        return .success(
            Contents(
                savedAtNanoseconds: read(bytes, at: 16, size: 8), kind: kind, cleanShutdown: bytes[33] & 1 != 0,
                appVersion: String(decoding: bytes[versionStart..<payloadStart], as: UTF8.self),
                writerPID: UInt32(truncatingIfNeeded: read(bytes, at: 36, size: 4)),
                payload: Array(bytes[payloadStart..<(payloadStart + Int(payloadLength))])))
    }

    private static func read(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }
}
