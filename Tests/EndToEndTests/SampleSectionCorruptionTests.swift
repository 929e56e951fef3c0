import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// A real trace written by liblaunchprof-preload.so, damaged on purpose: the
/// reader rejects truncated and inconsistent sample sections with errors
/// that say what is wrong and where. Damage inside a section is re-sealed
/// with a fresh checksum, so the payload checks (not the checksum) speak.
@Suite(.serialized)
struct SampleSectionCorruptionTests {
    static func realTrace() throws -> [UInt8] {
        let binary = try SamplerPrograms.compile(SamplerPrograms.hot, name: "hot")
        defer { unlink(binary) }
        let path = Products.temporaryPath("hot.lptrace")
        defer { unlink(path) }
        let preload = Products.directory.appendingPathComponent("launchprof_launchprof.resources/liblaunchprof-preload.so").path
        let run = try CommandRun.run(
            binary, [], environment: ["LD_PRELOAD": preload, "LAUNCHPROF_SAMPLE_HZ": "1000", "LAUNCHPROF_TRACE": path])
        try #require(run.status == 0, "\(run.standardError)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Byte offsets of each section's header, by tag.
    static func sections(_ bytes: [UInt8]) -> [UInt32: Int] {
        var found: [UInt32: Int] = [:]
        var offset = 96
        while offset + 16 <= bytes.count {
            let tag = read32(bytes, offset)
            found[tag] = offset
            offset += 16 + Int(read64(bytes, offset + 8))
        }
        return found
    }

    static func read32(_ b: [UInt8], _ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(b[at + $1]) << (8 * $1) } }
    static func read64(_ b: [UInt8], _ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(b[at + $1]) << (8 * $1) } }
    static func write(_ value: UInt64, size: Int, into b: inout [UInt8], at: Int) {
        for index in 0..<size { b[at + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// Recomputes the checksum section (the last 8 bytes).
    static func reseal(_ b: inout [UInt8]) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in b[0..<(b.count - 24)] { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        write(hash, size: 8, into: &b, at: b.count - 8)
    }

    func readError(_ bytes: [UInt8]) -> String? {
        do {
            _ = try TraceReader.parse(bytes, path: "damaged.lptrace")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func damagedSampleSectionsAreRejectedWithClearErrors() throws {
        let original = try Self.realTrace()
        #expect(readError(original) == nil)
        let sections = Self.sections(original)
        let samples = try #require(sections[5]) + 16
        let modules = try #require(sections[6])
        let threadCount = Int(Self.read32(original, samples + 56))
        let firstSample = samples + 64 + threadCount * 20

        // Cut inside the samples section.
        let truncated = Array(original[0..<(samples + 40)])
        #expect(
            readError(truncated)?.contains("is truncated: samples section at byte \(samples - 16) declares") == true,
            "\(readError(truncated) ?? "")")

        /// `value` written over `size` bytes at `at`, the checksum made right
        /// again, must be rejected with an error containing `message`.
        func expectRejected(_ value: UInt64, size: Int, at: Int, _ message: String) {
            var damaged = original
            Self.write(value, size: size, into: &damaged, at: at)
            Self.reseal(&damaged)
            let error = readError(damaged)
            #expect(error?.contains(message) == true, "\(error ?? "accepted")")
        }
        expectRejected(Self.read64(original, samples + 32) + 1000, size: 8, at: samples + 32, "the samples section declares")
        expectRejected(0, size: 2, at: firstSample + 12, "sample 0 at byte \(firstSample) has 0 frames")
        expectRejected(5000, size: 2, at: firstSample + 12, "has 5000 frames (allowed: 1 to the maximum depth 128)")
        expectRejected(9, size: 4, at: samples + 8, "timer mode is 9")
        expectRejected(77, size: 4, at: modules, "no modules (a samples section needs one) section")
        expectRejected(1_000_000, size: 4, at: modules + 16, "the modules section declares 1000000 modules")

        // Damage without a fresh checksum is caught by the checksum.
        var flipped = original
        flipped[firstSample + 30] ^= 0xFF
        #expect(readError(flipped)?.contains("is corrupted: the checksum") == true)
    }
}
