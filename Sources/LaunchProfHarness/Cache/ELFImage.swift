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

    /// The ELF magic, `\x7fELF`.
    package static let magic: [UInt8] = [0x7F, 0x45, 0x4C, 0x46]

    private enum Tag {
        static let ptLoad: UInt32 = 1, ptDynamic: UInt32 = 2, ptInterp: UInt32 = 3
        static let dtNull: Int64 = 0, dtNeeded: Int64 = 1, dtStrtab: Int64 = 5
        static let dtRpath: Int64 = 15, dtRunpath: Int64 = 29
    }

    private struct Segment {
        var type: UInt32, offset: UInt64, vaddr: UInt64, filesz: UInt64
    }

    /// Reads the ELF headers of `path`.
    package static func read(path: String) throws(FileSetError) -> ELFImage {
        let file = try RandomAccessFile(path: path)
        defer { file.close() }
        let header = try file.bytes(at: 0, count: 64)
        guard header.count >= 64, Array(header.prefix(4)) == magic else {
            throw .notAnExecutableFormat(path: path, firstBytes: Array(header.prefix(4)))
        }
        guard header[4] == 2 else {
            throw .unsupportedELF(path: path, reason: "32-bit ELF files are not supported (only 64-bit)")
        }
        guard header[5] == 1 else {
            throw .unsupportedELF(path: path, reason: "big-endian ELF files are not supported")
        }
        let segments = try readSegments(file, header: header)
        var image = ELFImage(interpreter: nil, isDynamic: false, needed: [], runpath: [], rpath: [])
        if let interp = segments.first(where: { $0.type == Tag.ptInterp }) {
            let bytes = try file.bytes(at: interp.offset, count: Int(min(interp.filesz, 4096)))
            image.interpreter = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        if let dynamic = segments.first(where: { $0.type == Tag.ptDynamic }) {
            image.isDynamic = true
            try image.readDynamic(file, dynamic: dynamic, segments: segments)
        }
        return image
    }

    private static func readSegments(_ file: RandomAccessFile, header: [UInt8]) throws(FileSetError) -> [Segment] {
        let phoff = header.loadLE(UInt64.self, at: 0x20)
        let phentsize = Int(header.loadLE(UInt16.self, at: 0x36))
        let phnum = Int(header.loadLE(UInt16.self, at: 0x38))
        guard phentsize >= 56, phnum < 4096 else {
            throw .unsupportedELF(path: file.path, reason: "damaged ELF: bad program header table (\(phnum) x \(phentsize) bytes)")
        }
        let table = try file.bytes(at: phoff, count: phentsize * phnum)
        guard table.count == phentsize * phnum else {
            throw .unsupportedELF(path: file.path, reason: "damaged ELF: program headers run past the end of the file")
        }
        return (0..<phnum).map { index in
            let base = index * phentsize
            return Segment(
                type: table.loadLE(UInt32.self, at: base), offset: table.loadLE(UInt64.self, at: base + 8),
                vaddr: table.loadLE(UInt64.self, at: base + 16), filesz: table.loadLE(UInt64.self, at: base + 32))
        }
    }

    private mutating func readDynamic(
        _ file: RandomAccessFile, dynamic: Segment, segments: [Segment]
    ) throws(FileSetError) {
        let table = try file.bytes(at: dynamic.offset, count: Int(min(dynamic.filesz, 1 << 20)))
        var strtabAddress: UInt64?
        var neededOffsets: [UInt64] = [], runpathOffset: UInt64?, rpathOffset: UInt64?
        for base in stride(from: 0, to: table.count - 15, by: 16) {
            let tag = Int64(bitPattern: table.loadLE(UInt64.self, at: base))
            let value = table.loadLE(UInt64.self, at: base + 8)
            switch tag {
            case Tag.dtNull: break
            case Tag.dtNeeded: neededOffsets.append(value)
            case Tag.dtStrtab: strtabAddress = value
            case Tag.dtRunpath: runpathOffset = value
            case Tag.dtRpath: rpathOffset = value
            default: continue
            }
            if tag == Tag.dtNull { break }
        }
        guard let strtabAddress else { return }
        // DT_STRTAB is a virtual address: find the loaded segment holding it
        // to turn it into a file offset.
        guard let load = segments.first(where: {
            $0.type == Tag.ptLoad && strtabAddress >= $0.vaddr && strtabAddress < $0.vaddr &+ $0.filesz
        }) else {
            throw .unsupportedELF(path: file.path, reason: "damaged ELF: DT_STRTAB is outside every loaded segment")
        }
        let strtab = strtabAddress - load.vaddr + load.offset
        func string(_ offset: UInt64) throws(FileSetError) -> String { try file.cString(at: strtab &+ offset) }
        for offset in neededOffsets { needed.append(try string(offset)) }
        if let runpathOffset { runpath = try string(runpathOffset).split(separator: ":").map(String.init) }
        if let rpathOffset { rpath = try string(rpathOffset).split(separator: ":").map(String.init) }
    }
}

/// A read-only file read with pread, for headers at arbitrary offsets.
struct RandomAccessFile {
    let path: String
    private let fd: Int32

    init(path: String) throws(FileSetError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw .fileNotFound(path: path) }
            throw .notExecutable(path: path, reason: "cannot open it: \(String(cString: strerror(errno)))")
        }
        self.fd = fd
    }

    func close() { Syscall.closeQuietly(fd) }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    func bytes(at offset: UInt64, count: Int) throws(FileSetError) -> [UInt8] {
        guard count > 0 else { return [] }
        var result = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = result.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
            }
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unsupportedELF(path: path, reason: "read failed: \(String(cString: strerror(errno)))")
            }
            filled += got
        }
        return Array(result.prefix(filled))
    }

    /// The NUL-terminated string at `offset` (at most 4 KiB).
    func cString(at offset: UInt64) throws(FileSetError) -> String {
        let bytes = try bytes(at: offset, count: 4096)
        guard let end = bytes.firstIndex(of: 0) else {
            throw .unsupportedELF(path: path, reason: "damaged ELF: unterminated string at offset \(offset)")
        }
        return String(decoding: bytes[..<end], as: UTF8.self)
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
