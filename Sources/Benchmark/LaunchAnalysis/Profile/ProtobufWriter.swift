/// The few protocol buffers encodings profile.proto needs, written by hand
/// (https://protobuf.dev/programming-guides/encoding/): varints, and
/// length-delimited fields for strings, bytes, nested messages and packed
/// repeated integers. Fields at their default value are left out, as
/// protoc's encoders do.
///
/// Why not swift-protobuf: a generated encoder would need its package and
/// protoc's plugin at build time for one message type whose encoding fits
/// in this file; the reader side is tested against independent decoders
/// (`go tool pprof`).
struct ProtobufWriter {
    /// The message so far.
    private(set) var bytes: [UInt8] = []

    /// Wire types (encoding guide, "Message Structure").
    private enum WireType: UInt64 {
        case varint = 0
        case lengthDelimited = 2
    }

    /// A varint field (uint64, int64 ≥ 0, bool), left out when 0.
    mutating func integer(_ field: UInt64, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, .varint)
        varint(value)
    }

    /// An int64 field: a negative value is written as its two's complement
    /// in ten bytes, as the encoding says for int64.
    mutating func integer(_ field: UInt64, _ value: Int64) {
        integer(field, UInt64(bitPattern: value))
    }

    /// A bool field, left out when false.
    mutating func boolean(_ field: UInt64, _ value: Bool) {
        integer(field, value ? UInt64(1) : 0)
    }

    /// A repeated integer field, packed (one length-delimited run), left
    /// out when empty.
    mutating func packed(_ field: UInt64, _ values: [UInt64]) {
        guard !values.isEmpty else { return }
        var run = ProtobufWriter()
        for value in values { run.varint(value) }
        lengthDelimited(field, run.bytes)
    }

    /// A string field, always written (an entry of a repeated string field
    /// may be empty: profile.proto's string table starts with "").
    mutating func string(_ field: UInt64, _ value: String) {
        lengthDelimited(field, Array(value.utf8))
    }

    /// A nested message field, always written (an empty one still counts
    /// in a repeated field).
    mutating func message(_ field: UInt64, _ build: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        build(&nested)
        lengthDelimited(field, nested.bytes)
    }

    private mutating func lengthDelimited(_ field: UInt64, _ payload: [UInt8]) {
        tag(field, .lengthDelimited)
        varint(UInt64(payload.count))
        bytes += payload
    }

    private mutating func tag(_ field: UInt64, _ type: WireType) {
        varint(field << 3 | type.rawValue)
    }

    /// Seven bits a byte, least significant first, the high bit set on all
    /// but the last.
    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
