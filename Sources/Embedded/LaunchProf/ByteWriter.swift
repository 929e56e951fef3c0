import CLaunchProfSupport
import LaunchProfFormat

#if canImport(Glibc)
import Glibc
#endif

/// Little-endian byte building for trace files.
package struct ByteWriter {
    package var bytes: [UInt8] = []

    package init() {}

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { append(value) }
    package mutating func u32(_ value: UInt32) { append(value) }
    package mutating func u64(_ value: UInt64) { append(value) }
    mutating func i64(_ value: Int64) { append(UInt64(bitPattern: value)) }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func section(_ tag: TraceFormat.Section, _ build: (inout ByteWriter) -> Void) {
        var payload = ByteWriter()
        build(&payload)
        u32(tag.tag)
        u32(0)
        u64(UInt64(payload.bytes.count))
        bytes.append(contentsOf: payload.bytes)
    }
}
