import LaunchBenchmark
import Testing

/// Damaged files: cut short anywhere, or with bytes flipped anywhere. Each is
/// rejected with the right error and the reader never crashes.
@Suite struct TraceCorruptionTests {
    @Test func everyPrefixIsRejectedAsTruncated() throws {
        let bytes = try TraceTestSupport.smallRealTrace()
        #expect(TraceTestSupport.readError(bytes) == nil)
        for length in 0..<bytes.count {
            let error = TraceTestSupport.readError(Array(bytes[0..<length]))
            #expect(error?.caseName == "truncated", "prefix of \(length) bytes: \(String(describing: error))")
            if let offset = error?.offset { #expect(offset <= length) }
        }
    }

    @Test func truncationMessageNamesTheSectionAndTheBytes() throws {
        let bytes = try TraceTestSupport.smallRealTrace()
        let surgery = TraceFileSurgery(bytes)
        // Cut inside the events section: its declared length no longer fits.
        let eventsOffset =
            96
            + surgery.sections.prefix(surgery.index(of: TraceFileSurgery.events))
            .reduce(0) { $0 + 16 + $1.payload.count }
        let eventsLength = surgery.sections[surgery.index(of: TraceFileSurgery.events)].payload.count
        let cut = Array(bytes[0..<eventsOffset + 16 + 30])
        let error = TraceTestSupport.readError(cut, path: "/tmp/x.lptrace")
        #expect(
            error?.description == "trace '/tmp/x.lptrace' is truncated: events section at byte \(eventsOffset) "
                + "declares \(eventsLength) bytes but only 30 remain")
    }

    @Test func flippedHeaderByteFailsTheChecksum() throws {
        var bytes = try TraceTestSupport.smallRealTrace()
        bytes[16] ^= 0x01  // pid
        let error = TraceTestSupport.readError(bytes)
        #expect(error?.caseName == "checksumMismatch")
        #expect(error?.description.contains("is corrupted") == true)
    }

    @Test func flippedMagicIsNotATrace() throws {
        var bytes = try TraceTestSupport.smallRealTrace()
        bytes[0] = UInt8(ascii: "X")
        let error = TraceTestSupport.readError(bytes, path: "/tmp/m.lptrace")
        #expect(error?.caseName == "notATrace")
        #expect(error?.description == "'/tmp/m.lptrace' is not a launchprof trace: it starts with \"XPTRACE\\x00\", not \"LPTRACE\\0\"")
    }

    @Test func hugeSectionLengthIsTruncationNotACrash() throws {
        var bytes = try TraceTestSupport.smallRealTrace()
        bytes[96 + 15] = 0x7F  // high byte of the first section's length
        let error = TraceTestSupport.readError(bytes)
        #expect(error?.caseName == "truncated")
        #expect(error?.description.contains("strings section at byte 96 declares") == true)
    }

    @Test func flippedEventByteFailsTheChecksum() throws {
        var bytes = try TraceTestSupport.smallRealTrace()
        let surgery = TraceFileSurgery(bytes)
        let eventsAt = surgery.index(of: TraceFileSurgery.events)
        let eventsOffset = 96 + surgery.sections.prefix(eventsAt).reduce(0) { $0 + 16 + $1.payload.count }
        bytes[eventsOffset + 16 + 8 + 32] ^= 0x40  // kind of the first event
        #expect(TraceTestSupport.readError(bytes)?.caseName == "checksumMismatch")
    }

    @Test func flippedChecksumIsAMismatch() throws {
        var bytes = try TraceTestSupport.smallRealTrace()
        bytes[bytes.count - 1] ^= 0x80
        let error = TraceTestSupport.readError(bytes)
        #expect(error?.caseName == "checksumMismatch")
        #expect(error?.offset == bytes.count - 8)
    }

    @Test func everySingleByteFlipIsRejected() throws {
        let bytes = try TraceTestSupport.smallRealTrace()
        for offset in bytes.indices {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = bytes
                damaged[offset] ^= mask
                let error = TraceTestSupport.readError(damaged)
                #expect(error != nil, "flipping byte \(offset) with \(mask) went unnoticed")
            }
        }
    }

    @Test func trailingBytesAfterTheChecksumAreRejected() throws {
        let bytes = try TraceTestSupport.smallRealTrace() + [0, 0, 0]
        let error = TraceTestSupport.readError(bytes)
        #expect(error?.caseName == "malformed")
        #expect(error?.description.contains("3 bytes follow the checksum section") == true)
    }

    @Test func arbitraryBytesNeverCrashTheReader() {
        var generator = SplitMix(seed: 0x1a2b_3c4d)
        for length in [0, 1, 7, 8, 12, 16, 95, 96, 97, 112, 200, 1000] {
            for _ in 0..<50 {
                var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                // Half the time, start like a v1 trace so the deeper checks run.
                if generator.next() & 1 == 0, length >= 16 {
                    bytes.replaceSubrange(0..<8, with: Array("LPTRACE\0".utf8))
                    bytes.replaceSubrange(8..<16, with: [1, 0, 0, 0, 96, 0, 0, 0])
                }
                #expect(TraceTestSupport.readError(bytes) != nil)
            }
        }
    }
}

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
