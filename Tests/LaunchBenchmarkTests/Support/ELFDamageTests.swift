import Foundation
import Glibc
import LaunchProfTestSupport
import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// The ELF readers (ELFImage for cold-cache resolution, ELFSymbolTable for
/// symbolization) on damaged, hostile and non-regular files: an error naming
/// the file, never a trap, never a blocked open.
@Suite(.timeLimit(.minutes(2))) struct ELFDamageTests {
    /// A scratch copy of a real program, with `patch` applied to its bytes.
    static func damagedCopy(of source: String = "/bin/true", _ name: String, _ patch: (inout [UInt8]) -> Void) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        patch(&bytes)
        let path = TraceTestSupport.temporaryPath(name)
        try ExecutableFile.write(bytes: bytes, to: path)
        return path
    }

    static func put(_ value: UInt64, size: Int, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
    }

    static func load(_ bytes: [UInt8], size: Int, at offset: Int) -> UInt64 {
        (0..<size).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }

    // MARK: - ELFImage (cold-cache resolution)

    @Test func programHeaderOffsetPastEveryFileIsAnErrorNamingTheFile() throws {
        // e_phoff = 2^64 - 16: converting it to off_t trapped.
        let path = try Self.damagedCopy("phoff") { Self.put(0xFFFF_FFFF_FFFF_FFF0, size: 8, at: 0x20, in: &$0) }
        defer { unlink(path) }
        #expect(
            throws: ELFError.unsupported(
                path: path,
                reason:
                    "damaged ELF: the program header table (\(Self.programHeaderBytes) bytes at offset 18446744073709551600) runs past the end of the file"
            )
        ) { try ELFImage.read(path: path) }
    }

    static var programHeaderBytes: Int {
        let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: "/bin/true"))) ?? Data())
        return Int(load(bytes, size: 2, at: 0x36) * load(bytes, size: 2, at: 0x38))
    }

    @Test func segmentOffsetsNearTwoToTheSixtyFourAreErrorsNotTraps() throws {
        // Every program header's offset and size set to huge values.
        let path = try Self.damagedCopy("segments") { bytes in
            let phoff = Int(Self.load(bytes, size: 8, at: 0x20)), size = Int(Self.load(bytes, size: 2, at: 0x36))
            for index in 0..<Int(Self.load(bytes, size: 2, at: 0x38)) {
                Self.put(UInt64.max - 7, size: 8, at: phoff + index * size + 8, in: &bytes)  // p_offset
                Self.put(UInt64.max, size: 8, at: phoff + index * size + 16, in: &bytes)  // p_vaddr
                Self.put(UInt64.max, size: 8, at: phoff + index * size + 32, in: &bytes)  // p_filesz
            }
        }
        defer { unlink(path) }
        let error = #expect(throws: ELFError.self) { try ELFImage.read(path: path) }
        #expect(error?.description.hasPrefix("'\(path)': damaged ELF: PT_INTERP") == true, "\(String(describing: error))")
    }

    @Test func programHeaderEntriesOfTheWrongSizeAreRefused() throws {
        // e_phentsize 64 (the kernel and ld.so read 56-byte entries only).
        let path = try Self.damagedCopy("phentsize") { Self.put(64, size: 2, at: 0x36, in: &$0) }
        defer { unlink(path) }
        let error = #expect(throws: ELFError.self) { try ELFImage.read(path: path) }
        #expect(error?.description.contains("entries are 56 bytes") == true, "\(String(describing: error))")
    }

    @Test func aTableClaimedLargerThanTheFileReadsOnlyWhatIsThere() throws {
        // 4095 entries of 56 bytes (229 kB) at the start of a 1 kB file: the
        // reader must not size a buffer by the claim.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/bin/true")).prefix(1024))
        Self.put(4095, size: 2, at: 0x38, in: &bytes)
        let path = TraceTestSupport.temporaryPath("short-elf")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let error = #expect(throws: ELFError.self) { try ELFImage.read(path: path) }
        #expect(error?.description.contains(path) == true, "\(String(describing: error))")
    }

    @Test func shortAndEmptyInterpreterAreErrors() throws {
        let short = Array("\u{7F}ELF".utf8) + [2, 1, 1, 0]
        #expect(
            throws: ELFError.unsupported(
                path: "short", reason: "damaged ELF: the file is 8 bytes long, shorter than the 64-byte ELF header"
            )
        ) { try ELFImage.parse(short, path: "short") }
        let path = try Self.damagedCopy("nointerp") { bytes in
            let phoff = Int(Self.load(bytes, size: 8, at: 0x20)), size = Int(Self.load(bytes, size: 2, at: 0x36))
            for index in 0..<Int(Self.load(bytes, size: 2, at: 0x38))
            where Self.load(bytes, size: 4, at: phoff + index * size) == 3 {  // PT_INTERP
                let offset = Int(Self.load(bytes, size: 8, at: phoff + index * size + 8))
                bytes[offset] = 0
            }
        }
        defer { unlink(path) }
        #expect(throws: ELFError.unsupported(path: path, reason: "damaged ELF: PT_INTERP names no interpreter")) {
            try ELFImage.read(path: path)
        }
    }

    /// Every 8-byte field of the ELF and program headers set to hostile
    /// values, one at a time: each read either succeeds or throws an error
    /// that names the file.
    @Test func everyHeaderFieldSetToHostileValuesNeverTraps() throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/bin/true")))
        let phoff = Int(Self.load(original, size: 8, at: 0x20))
        let tableEnd = phoff + Int(Self.programHeaderBytes)
        var damaged = 0
        for offset in stride(from: 0x10, to: tableEnd, by: 4) where offset < 0x40 || offset >= phoff {
            for value: UInt64 in [0, 1, 0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, UInt64.max, UInt64.max - 0xFFF] {
                var bytes = original
                Self.put(value, size: min(8, bytes.count - offset), at: offset, in: &bytes)
                do {
                    _ = try ELFImage.parse(bytes, path: "hostile.elf")
                } catch {
                    damaged += 1
                    #expect(error.description.hasPrefix("'hostile.elf'"), "\(error)")
                }
            }
        }
        #expect(damaged > 0)
    }

    // MARK: - ELFSymbolTable (symbolization)

    @Test func sectionHeaderOffsetPastTheFileIsAnErrorNamingTheFile() throws {
        let path = try Self.damagedCopy("shoff") { Self.put(UInt64.max - 63, size: 8, at: 0x28, in: &$0) }
        defer { unlink(path) }
        let error = #expect(throws: ELFError.self) { try ELFSymbolTable.read(path: path) }
        #expect(
            error?.path == path && error?.reason.hasPrefix("damaged ELF: the section header table") == true, "\(String(describing: error))")
    }

    @Test func everySectionHeaderFieldSetToHostileValuesNeverTraps() throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/bin/true")))
        let shoff = Int(Self.load(original, size: 8, at: 0x28))
        let count = Int(Self.load(original, size: 2, at: 0x3C))
        var read = 0
        for offset in stride(from: shoff, to: shoff + 64 * count, by: 8) {
            for value: UInt64 in [0, 0xFFFF_FFFF, 0x7FFF_FFFF_FFFF_FFFF, UInt64.max] {
                var bytes = original
                Self.put(value, size: 8, at: offset, in: &bytes)
                if let table = try? bytes.withUnsafeBytes({ try ELFSymbolTable.parse($0, path: "hostile.elf") }) {
                    read += 1
                    _ = table.symbol(at: UInt64.max)
                }
            }
        }
        #expect(read > 0)
    }

    @Test func symbolSizeRunningPastTwoToTheSixtyFourDoesNotOverflow() {
        let table = ELFSymbolTable(
            symbols: [.init(start: UInt64.max - 16, size: UInt64.max, name: "huge")], buildID: [], hasLineTable: false)
        #expect(table.symbol(at: UInt64.max)?.name == "huge")
        #expect(table.symbol(at: 0) == nil)
    }

    // MARK: - Files that are not regular

    /// A FIFO with no writer: opening it for reading without O_NONBLOCK
    /// blocks forever, and reading it would wait for data.
    @Test func fifoDeviceAndDirectoryAreRefusedWithoutBlocking() throws {
        let fifo = TraceTestSupport.temporaryPath("module.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let cases = [(fifo, "a FIFO"), ("/dev/zero", "a character device"), ("/tmp", "a directory")]
        for (path, kind) in cases {
            #expect(throws: ELFError.unreadable(path: path, reason: "it is \(kind), not a regular file")) {
                try ELFImage.read(path: path)
            }
            #expect(throws: ELFError.unreadable(path: path, reason: "it is \(kind), not a regular file")) {
                try ELFSymbolTable.read(path: path)
            }
            #expect(throws: TraceReadError.cannotRead(path: path, reason: "it is \(kind), not a regular file")) {
                try TraceReader.read(path: path)
            }
        }
    }

    /// `launchprof export`/`profile` symbolize a trace's module list: a
    /// module that is a FIFO, a device or a damaged ELF is skipped with a
    /// warning naming it, and its frames stay module+offset.
    @Test func symbolizerSkipsHostileModulesWithAWarning() throws {
        let fifo = TraceTestSupport.temporaryPath("lib.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let crafted = try Self.damagedCopy("crafted.so") { Self.put(UInt64.max - 63, size: 8, at: 0x28, in: &$0) }
        defer { unlink(crafted) }
        let modules = [fifo, "/dev/zero", crafted]
        var builder = TraceFileBuilder()
        builder.events = [.init(timestamp: 10, kind: .milestone, name: "main")]
        builder.extraSections = TraceFileBuilder.samplingSections(
            frames: modules.indices.map { 0x10_0000 * UInt64($0 + 1) + 0x10 }, modules: modules)
        let path = TraceTestSupport.temporaryPath("hostile-modules.lptrace")
        defer { unlink(path) }
        try Data(builder.bytes()).write(to: URL(fileURLWithPath: path))
        let trace = try TraceReader.read(path: path)
        let profile = try Symbolizer(lineTool: .off).symbolize(trace, name: "hostile")
        #expect(
            profile.warnings.contains(
                "cannot read symbols of '\(fifo)': it is a FIFO, not a regular file; its frames show as module+offset"))
        #expect(
            profile.warnings.contains(
                "cannot read symbols of '/dev/zero': it is a character device, not a regular file; its frames show as module+offset"))
        #expect(profile.warnings.contains { $0.hasPrefix("cannot read symbols of '\(crafted)': damaged ELF: the section header table") })
        #expect(profile.frames.map(\.name).contains("zero+0xf"), "a caller frame is looked up at its return address - 1")
    }
}
