import Glibc

/// What the dynamic loader needs to know of an ELF file: its interpreter
/// (PT_INTERP), the libraries it names (DT_NEEDED) and where it says to look
/// for them (DT_RUNPATH, DT_RPATH).
///
/// Reads only 64-bit little-endian files (x86_64, aarch64, riscv64), with
/// pread: the headers and the dynamic string table, never the whole file.
package struct ELFImage: Sendable, Equatable {
    /// The PT_INTERP path; nil for a statically linked executable or a library.
    package var interpreter: String?
    /// Whether the file has a PT_DYNAMIC segment (static-pie binaries have one
    /// but no interpreter).
    package var isDynamic: Bool
    package var needed: [String]
    package var runpath: [String]
    package var rpath: [String]
    /// What the loader relocates in this file, from its dynamic section.
    package var relocations = Relocations()
    /// The file carries LaunchProf's ELF note (`.note.launchprof`, type
    /// 0x4c50, name "LaunchProf"): a program that links LaunchProf, which
    /// writes its own trace.
    package var linksLaunchProf = false

    /// The relocation counts of a dynamic section: what the loader's work
    /// on the file at start-up is proportional to.
    package struct Relocations: Sendable, Equatable {
        /// Entries of DT_RELA / DT_REL (relative ones included).
        package var entries: UInt64 = 0
        /// Of them, relative relocations (DT_RELACOUNT / DT_RELCOUNT): one add each, no symbol lookup.
        package var relative: UInt64 = 0
        /// Bytes of packed relative relocations (DT_RELRSZ).
        package var packedRelativeBytes: UInt64 = 0
        /// PLT relocations (DT_PLTRELSZ / entry size).
        package var plt: UInt64 = 0
        /// Bound at start-up (DT_BIND_NOW, DF_BIND_NOW, DF_1_NOW): every PLT
        /// relocation is a symbol lookup then, not a lazy stub.
        package var bindNow = false
    }

    /// The ELF magic, `\x7fELF`.
    package static let magic = ELFFormat.magic

    private typealias Tag = ELFFormat

    private struct Segment {
        var type: UInt32, offset: UInt64, vaddr: UInt64, filesz: UInt64
    }

    /// Reads the ELF headers of `path`. A path that is not a regular file
    /// (a FIFO, a device, a directory) is refused without blocking.
    package static func read(path: String) throws(ELFError) -> ELFImage {
        let file = try RandomAccessFile(path: path)
        defer { file.close() }
        return try read(file)
    }

    /// Reads the ELF headers from `bytes` (a file's contents, for tests and
    /// the fuzz target); `path` names them in errors.
    package static func parse(_ bytes: [UInt8], path: String) throws(ELFError) -> ELFImage {
        try read(RandomAccessFile(path: path, contents: bytes))
    }

    /// Most DT_NEEDED entries read from one file: ld.so has no limit, but
    /// real programs name a few dozen; each costs a string read.
    static let maximumNeeded = 4096

    private static func read(_ file: RandomAccessFile) throws(ELFError) -> ELFImage {
        let header = try file.bytes(at: 0, count: ELFFormat.headerSize)
        try ELFFormat.checkIdentification(header, path: file.path)
        let segments = try readSegments(file, header: header)
        var image = ELFImage(interpreter: nil, isDynamic: false, needed: [], runpath: [], rpath: [])
        if let interp = segments.first(where: { $0.type == Tag.ptInterp }) {
            image.interpreter = try readInterpreter(file, segment: interp)
        }
        if let dynamic = segments.first(where: { $0.type == Tag.ptDynamic }) {
            image.isDynamic = true
            try image.readDynamic(file, dynamic: dynamic, segments: segments)
        }
        image.linksLaunchProf = segments.contains { $0.type == Tag.ptNote && hasLaunchProfNote(file, segment: $0) }
        return image
    }

    private static func readSegments(_ file: RandomAccessFile, header: [UInt8]) throws(ELFError) -> [Segment] {
        let phoff = header.loadLE(UInt64.self, at: 0x20)
        let phentsize = Int(header.loadLE(UInt16.self, at: 0x36))
        let phnum = Int(header.loadLE(UInt16.self, at: 0x38))
        // The kernel and ld.so accept only 56-byte ELF64 program headers.
        guard phentsize == 56, phnum < 4096 else {
            throw .unsupported(
                path: file.path, reason: "damaged ELF: bad program header table (\(phnum) x \(phentsize) bytes; entries are 56 bytes)")
        }
        // At most 4095 * 56 bytes.
        let size = phentsize * phnum
        let table = try file.bytes(at: phoff, count: size)
        guard table.count == size else {
            throw .unsupported(
                path: file.path,
                reason: "damaged ELF: the program header table (\(size) bytes at offset \(phoff)) runs past the end of the file")
        }
        return (0..<phnum).map { index in
            let base = index * phentsize
            return Segment(
                type: table.loadLE(UInt32.self, at: base), offset: table.loadLE(UInt64.self, at: base + 8),
                vaddr: table.loadLE(UInt64.self, at: base + 16), filesz: table.loadLE(UInt64.self, at: base + 32))
        }
    }

    /// Whether the PT_NOTE `segment` holds LaunchProf's note; the notes are
    /// read up to 64 KiB and up to the first malformed one.
    private static func hasLaunchProfNote(_ file: RandomAccessFile, segment: Segment) -> Bool {
        guard let bytes = try? file.bytes(at: segment.offset, count: Int(min(segment.filesz, 65536))) else { return false }
        let name = Array("LaunchProf".utf8) + [0]
        var offset = 0
        while offset + 12 <= bytes.count {
            let nameSize = Int(bytes.loadLE(UInt32.self, at: offset))
            let descriptionSize = Int(bytes.loadLE(UInt32.self, at: offset + 4))
            let type = bytes.loadLE(UInt32.self, at: offset + 8)
            let nameEnd = offset + 12 + nameSize
            guard nameSize <= 4096, descriptionSize <= 65536, nameEnd <= bytes.count else { return false }
            if type == 0x4c50, Array(bytes[(offset + 12)..<nameEnd]) == name { return true }
            offset = (nameEnd + 3) & ~3
            offset = (offset + descriptionSize + 3) & ~3
        }
        return false
    }

    /// The PT_INTERP path: NUL-terminated, inside the file, at most 4 KiB.
    private static func readInterpreter(_ file: RandomAccessFile, segment: Segment) throws(ELFError) -> String {
        let size = Int(min(segment.filesz, 4096))
        let bytes = try file.bytes(at: segment.offset, count: size)
        guard bytes.count == size else {
            throw .unsupported(
                path: file.path,
                reason: "damaged ELF: PT_INTERP (\(segment.filesz) bytes at offset \(segment.offset)) runs past the end of the file")
        }
        let name = bytes.prefix { $0 != 0 }
        guard !name.isEmpty else {
            throw .unsupported(path: file.path, reason: "damaged ELF: PT_INTERP names no interpreter")
        }
        return String(decoding: name, as: UTF8.self)
    }

    private mutating func readDynamic(
        _ file: RandomAccessFile, dynamic: Segment, segments: [Segment]
    ) throws(ELFError) {
        let table = try file.bytes(at: dynamic.offset, count: Int(min(dynamic.filesz, 1 << 20)))
        var strtabAddress: UInt64?
        var neededOffsets: [UInt64] = [], runpathOffset: UInt64?, rpathOffset: UInt64?
        var relaBytes: UInt64 = 0, relaEntry: UInt64 = 24, relBytes: UInt64 = 0, relEntry: UInt64 = 16, pltBytes: UInt64 = 0
        for base in stride(from: 0, to: table.count - 15, by: 16) {
            let tag = Int64(bitPattern: table.loadLE(UInt64.self, at: base))
            let value = table.loadLE(UInt64.self, at: base + 8)
            switch tag {
            case Tag.dtNull: break
            case Tag.dtNeeded: neededOffsets.append(value)
            case Tag.dtStrtab: strtabAddress = value
            case Tag.dtRunpath: runpathOffset = value
            case Tag.dtRpath: rpathOffset = value
            case Tag.dtRelasz: relaBytes = value
            case Tag.dtRelaent: relaEntry = value
            case Tag.dtRelsz: relBytes = value
            case Tag.dtRelent: relEntry = value
            case Tag.dtPltrelsz: pltBytes = value
            case Tag.dtRelacount, Tag.dtRelcount: relocations.relative = value
            case Tag.dtRelrsz: relocations.packedRelativeBytes = value
            case Tag.dtBindNow: relocations.bindNow = true
            case Tag.dtFlags: relocations.bindNow = relocations.bindNow || value & Tag.dfBindNow != 0
            case Tag.dtFlags1: relocations.bindNow = relocations.bindNow || value & Tag.df1Now != 0
            default: continue
            }
            if tag == Tag.dtNull { break }
        }
        // Counts, not offsets: a damaged size gives a wrong estimate, never a
        // read. An entry size of 0 (damaged) counts bytes as 24-byte entries.
        relocations.entries = relaBytes / max(relaEntry, 1) + relBytes / max(relEntry, 1)
        relocations.plt = pltBytes / (relaBytes > 0 || relBytes == 0 ? max(relaEntry, 1) : max(relEntry, 1))
        relocations.relative = min(relocations.relative, relocations.entries)
        guard neededOffsets.count <= Self.maximumNeeded else {
            throw .unsupported(
                path: file.path, reason: "damaged ELF: \(neededOffsets.count) DT_NEEDED entries (at most \(Self.maximumNeeded) are read)")
        }
        guard let strtabAddress else {
            if !neededOffsets.isEmpty || runpathOffset != nil || rpathOffset != nil {
                throw .unsupported(path: file.path, reason: "damaged ELF: the dynamic section names libraries but has no DT_STRTAB")
            }
            return
        }
        // DT_STRTAB is a virtual address: find the loaded segment holding it
        // to turn it into a file offset.
        let load = segments.first { segment in
            let (end, overflow) = segment.vaddr.addingReportingOverflow(segment.filesz)
            return segment.type == Tag.ptLoad && strtabAddress >= segment.vaddr && (overflow || strtabAddress < end)
        }
        // Cannot underflow: strtabAddress >= load.vaddr.
        guard let load, case let (strtab, false) = (strtabAddress - load.vaddr).addingReportingOverflow(load.offset) else {
            throw .unsupported(
                path: file.path, reason: "damaged ELF: DT_STRTAB (0x\(String(strtabAddress, radix: 16))) is outside every loaded segment")
        }
        func string(_ offset: UInt64, _ what: String) throws(ELFError) -> String {
            guard case let (at, false) = strtab.addingReportingOverflow(offset) else {
                throw .unsupported(path: file.path, reason: "damaged ELF: the string offset of \(what) (\(offset)) is out of range")
            }
            return try file.cString(at: at, what: what)
        }
        for offset in neededOffsets { needed.append(try string(offset, "a DT_NEEDED entry")) }
        if let runpathOffset { runpath = try string(runpathOffset, "DT_RUNPATH").split(separator: ":").map(String.init) }
        if let rpathOffset { rpath = try string(rpathOffset, "DT_RPATH").split(separator: ":").map(String.init) }
    }
}

extension Array where Element == UInt8 {
    /// The little-endian integer at `offset`; 0 past the end (callers check sizes first).
    func loadLE<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        let size = MemoryLayout<T>.size
        guard offset >= 0, offset + size <= count else { return 0 }
        var value: T = 0
        for index in (0..<size).reversed() { value = value << 8 | T(self[offset + index]) }
        return value
    }
}
