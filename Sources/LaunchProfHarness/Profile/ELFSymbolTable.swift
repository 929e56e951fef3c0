import Foundation

/// The function symbols of one ELF file (.symtab, or .dynsym when the file
/// is stripped), sorted by address, for turning sampled PCs into names.
///
/// The file is memory-mapped, not read; only 64-bit little-endian ELF is
/// understood (what the sampler runs on).
struct ELFSymbolTable: Sendable {
    struct Symbol: Sendable {
        var start: UInt64
        var size: UInt64
        var name: String
    }

    /// Sorted by `start`.
    let symbols: [Symbol]
    /// The GNU build id, from the .note.gnu.build-id section (empty if none).
    let buildID: [UInt8]
    /// The file has a DWARF line table (.debug_line, or .zdebug_line when
    /// compressed the old way), so source lines can be looked up in it.
    let hasLineTable: Bool

    /// Where distributions install the file's separate debug info
    /// (Debian's -dbg and -dbgsym packages, Fedora's debuginfo): found by
    /// build id, as llvm-symbolizer and gdb find it.
    var separateDebugFile: String? {
        guard buildID.count > 1 else { return nil }
        let hex = buildID.map { String($0 / 16, radix: 16) + String($0 % 16, radix: 16) }.joined()
        return "/usr/lib/debug/.build-id/\(hex.prefix(2))/\(hex.dropFirst(2)).debug"
    }

    /// The symbol covering ELF virtual address `address`, if any. A symbol of
    /// size 0 covers up to the next symbol.
    func symbol(at address: UInt64) -> Symbol? {
        var low = 0, high = symbols.count
        while low < high {
            let mid = (low + high) / 2
            if symbols[mid].start <= address { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let found = symbols[low - 1]
        if found.size > 0 { return address < found.start + found.size ? found : nil }
        return found
    }

    /// Reads `path`; nil when it is not a readable 64-bit ELF file.
    static func read(path: String) -> ELFSymbolTable? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        return data.withUnsafeBytes { parse(ELFBytes(raw: $0)) }
    }

    private static func parse(_ file: ELFBytes) -> ELFSymbolTable? {
        guard file.count >= 64, file.u32(0) == 0x464C_457F, file.u8(4) == 2, file.u8(5) == 1 else { return nil }
        let shoff = Int(file.u64(0x28)), shentsize = Int(file.u16(0x3A)), shnum = Int(file.u16(0x3C))
        let shstrndx = Int(file.u16(0x3E))
        guard shentsize >= 64, shoff > 0, shoff + shentsize * shnum <= file.count else { return nil }
        struct SectionHeader { var name: UInt32, type: UInt32, offset: Int, size: Int, link: Int, entsize: Int }
        let sections = (0..<shnum).map { index -> SectionHeader in
            let at = shoff + index * shentsize
            return SectionHeader(
                name: file.u32(at), type: file.u32(at + 4), offset: Int(file.u64(at + 0x18)),
                size: Int(file.u64(at + 0x20)), link: Int(file.u32(at + 0x28)), entsize: Int(file.u64(at + 0x38)))
        }
        func valid(_ section: SectionHeader) -> Bool {
            section.offset >= 0 && section.size >= 0 && section.offset + section.size <= file.count
        }
        // SHT_SYMTAB = 2, SHT_DYNSYM = 11, SHT_NOTE = 7.
        let table = sections.first { $0.type == 2 && valid($0) } ?? sections.first { $0.type == 11 && valid($0) }
        var symbols: [Symbol] = []
        if let table, table.link < sections.count, valid(sections[table.link]), table.entsize >= 24 {
            let strings = sections[table.link]
            for index in 0..<(table.size / table.entsize) {
                let at = table.offset + index * table.entsize
                let info = file.u8(at + 4)
                let type = info & 0xF
                let shndx = file.u16(at + 6)
                // STT_FUNC = 2, STT_GNU_IFUNC = 10; defined (section index not 0).
                guard type == 2 || type == 10, shndx != 0 else { continue }
                let nameOffset = Int(file.u32(at))
                guard nameOffset < strings.size else { continue }
                let name = file.cString(at: strings.offset + nameOffset, limit: strings.offset + strings.size)
                guard !name.isEmpty else { continue }
                symbols.append(Symbol(start: file.u64(at + 8), size: file.u64(at + 16), name: name))
            }
        }
        symbols.sort { ($0.start, $1.size) < ($1.start, $0.size) }
        var buildID: [UInt8] = []
        for section in sections where section.type == 7 && valid(section) {
            var at = section.offset
            let end = section.offset + section.size
            while at + 12 <= end {
                let nameSize = Int(file.u32(at)), descSize = Int(file.u32(at + 4)), type = file.u32(at + 8)
                let name = at + 12, desc = name + (nameSize + 3) & ~3
                guard desc + descSize <= end else { break }
                if type == 3, nameSize == 4, file.cString(at: name, limit: name + 4) == "GNU" {
                    buildID = (0..<descSize).map { file.u8(desc + $0) }
                }
                at = desc + (descSize + 3) & ~3
            }
        }
        var hasLineTable = false
        if shstrndx < sections.count, valid(sections[shstrndx]) {
            let names = sections[shstrndx]
            hasLineTable = sections.contains { section in
                let name = file.cString(at: names.offset + Int(section.name), limit: names.offset + names.size)
                return (name == ".debug_line" || name == ".zdebug_line") && section.type != 8 && section.size > 0  // not SHT_NOBITS
            }
        }
        return ELFSymbolTable(symbols: symbols, buildID: buildID, hasLineTable: hasLineTable)
    }
}

/// Bounds-checked little-endian reads over a mapped file (out of range reads 0).
private struct ELFBytes {
    let raw: UnsafeRawBufferPointer
    var count: Int { raw.count }

    func u8(_ at: Int) -> UInt8 { at >= 0 && at < raw.count ? raw[at] : 0 }
    func u16(_ at: Int) -> UInt16 { UInt16(integer(at, 2)) }
    func u32(_ at: Int) -> UInt32 { UInt32(integer(at, 4)) }
    func u64(_ at: Int) -> UInt64 { integer(at, 8) }

    private func integer(_ at: Int, _ size: Int) -> UInt64 {
        guard at >= 0, at + size <= raw.count else { return 0 }
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(raw[at + index]) << (8 * index) }
        return value
    }

    func cString(at start: Int, limit: Int) -> String {
        var end = start
        let bound = min(limit, raw.count)
        while end < bound, raw[end] != 0 { end += 1 }
        guard start < end else { return "" }
        return String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<end]), as: UTF8.self)
    }
}
