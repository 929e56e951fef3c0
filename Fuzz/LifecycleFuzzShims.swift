import LaunchProfFormat

/// What the lifecycle fuzz targets take from LaunchProf and
/// LaunchProfDeferred, whose whole sources would bring the trace ring, the
/// sampler's C and the clocks into the harness: the checksum (the same C
/// function, lp_trace_checksum), the little-endian writer, and the one
/// Duration conversion (RuntimeClock.nanoseconds, copied: keep in step).
enum TraceFormat {
    static func checksum(_ bytes: some Collection<UInt8>) -> UInt64 {
        Array(bytes).withUnsafeBufferPointer { lp_trace_checksum($0.baseAddress, $0.count) }
    }
}

struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
}

enum RuntimeClock {
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return UInt64.max }
        return whole &+ UInt64(attoseconds / 1_000_000_000)
    }
}
