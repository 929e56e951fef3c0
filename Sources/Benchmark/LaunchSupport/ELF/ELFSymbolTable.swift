import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The function symbols of one ELF file (the other half of the one ELF
/// reader, beside `ELFImage`; both check the header with `ELFFormat`) (.symtab, or .dynsym when the file
/// is stripped), sorted by address, for turning sampled PCs into names.
///
/// The file is memory-mapped, not read; only 64-bit little-endian ELF is
/// understood (what the sampler runs on).
package struct ELFSymbolTable: Sendable {
    package struct Symbol: Sendable {
        package var start: UInt64
        package var size: UInt64
        package var name: String
    }

    /// A section the file loads (SHF_ALLOC with an address): where code
    /// without a symbol of its own (jump stubs, stripped functions) is.
    package struct Section: Sendable {
        package var start: UInt64
        package var size: UInt64
        package var name: String
    }

    /// Sorted by `start`.
    let symbols: [Symbol]
    /// The loaded sections, sorted by `start`.
    package var sections: [Section] = []
    /// The GNU build id, from the .note.gnu.build-id section (empty if none).
    package let buildID: [UInt8]
    /// The file has a DWARF line table (.debug_line, or .zdebug_line when
    /// compressed the old way), so source lines can be looked up in it.
    package let hasLineTable: Bool

    /// Where distributions install the file's separate debug info
    /// (Debian's -dbg and -dbgsym packages, Fedora's debuginfo): found by
    /// build id, as llvm-symbolizer and gdb find it.
    package var separateDebugFile: String? {
        guard buildID.count > 1 else { return nil }
        let hex = buildID.map { String($0 / 16, radix: 16) + String($0 % 16, radix: 16) }.joined()
        return "/usr/lib/debug/.build-id/\(hex.prefix(2))/\(hex.dropFirst(2)).debug"
    }

    /// The symbol covering ELF virtual address `address`, if any. A symbol of
    /// size 0 covers up to the next symbol.
    package func symbol(at address: UInt64) -> Symbol? {
        var low = 0, high = symbols.count
        while low < high {
            let mid = (low + high) / 2
            if symbols[mid].start <= address { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let found = symbols[low - 1]
        // found.start <= address, so the subtraction cannot underflow (and a
        // size running past 2^64 cannot overflow an addition).
        if found.size > 0 { return address - found.start < found.size ? found : nil }
        return found
    }

    /// The loaded section that holds ELF virtual address `address`, if any.
    package func section(at address: UInt64) -> Section? {
        // address >= start there, so the subtraction cannot underflow.
        sections.last { $0.start <= address && address - $0.start < $0.size }
    }

    /// The nearest symbol at or before `address` inside `section`: what
    /// code without a symbol of its own (a static function of a file
    /// stripped to .dynsym) follows.
    package func symbol(before address: UInt64, in section: Section) -> Symbol? {
        var low = 0, high = symbols.count
        while low < high {
            let mid = (low + high) / 2
            if symbols[mid].start <= address { low = mid + 1 } else { high = mid }
        }
        guard low > 0, symbols[low - 1].start >= section.start else { return nil }
        return symbols[low - 1]
    }

    /// Files larger than this are not mapped (a damaged size, or not a
    /// program any launch maps).
    static let maximumFileSize: UInt64 = 8 << 30

    /// Reads `path`, memory-mapped. Only regular files are opened (a FIFO or
    /// a device named by a trace's module list is refused without blocking).
    package static func read(path: String) throws(ELFError) -> ELFSymbolTable {
        let (fd, size): (FileDescriptor, UInt64)
        switch RegularFile.open(path) {
        case .success(let file): (fd, size) = file
        case .failure(.missing): throw .missing(path: path)
        case .failure(let failure): throw .unreadable(path: path, reason: failure.description)
        }
        defer { fd.close() }
        guard size <= maximumFileSize else {
            throw .unreadable(path: path, reason: "it is \(size) bytes long (at most \(maximumFileSize) are read)")
        }
        guard size > 0 else { throw .notELF(path: path, firstBytes: []) }
        // Fits in Int: at most 8 GiB.
        let length = Int(size)
        guard let map = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd.rawValue, 0), map != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw .unreadable(path: path, reason: "cannot map it: \(String(cString: strerror(errno)))")
        }
        defer { munmap(map, length) }
        return try parse(UnsafeRawBufferPointer(start: map, count: length), path: path)
    }

    /// Parses an ELF file's bytes; `path` names them in errors. Every offset
    /// and size is checked against `bytes` with overflow-checked arithmetic.
    package static func parse(_ bytes: UnsafeRawBufferPointer, path: String) throws(ELFError) -> ELFSymbolTable {
        let file = ELFBytes(raw: bytes)
        func damaged(_ reason: String) -> ELFError { .unsupported(path: path, reason: "damaged ELF: \(reason)") }
        try ELFFormat.checkIdentification(bytes, path: path)
        let shentsize = Int(file.u16(0x3A)), shnum = Int(file.u16(0x3C)), shstrndx = Int(file.u16(0x3E))
        guard let shoff = file.offset(file.u64(0x28)), shentsize >= 64,
            file.end(of: shoff, count: shnum, size: shentsize) != nil
        else {
            throw damaged("the section header table (\(shnum) x \(shentsize) bytes at offset \(file.u64(0x28))) is not inside the file")
        }
        let sections = (0..<shnum).map { index in
            // Inside the file: checked by `end(of:count:size:)` above.
            SectionHeader(file, at: shoff + index * shentsize)
        }
        let symbols = readSymbols(file, sections: sections)
        let buildID = readBuildID(file, sections: sections)
        var hasLineTable = false
        var loaded: [Section] = []
        if shstrndx < sections.count, let names = sections[shstrndx].range {
            func name(of section: SectionHeader) -> String? {
                guard section.name < UInt64(names.count) else { return nil }
                // section.name < names.count: fits in Int.
                return file.cString(at: names.lowerBound + Int(section.name), limit: names.upperBound)
            }
            hasLineTable = sections.contains { section in
                guard section.size > 0, section.type != ELFFormat.shtNobits, let name = name(of: section) else { return false }
                return name == ".debug_line" || name == ".zdebug_line"
            }
            loaded = sections.compactMap { section in
                guard section.flags & Self.shfAlloc != 0, section.address != 0, section.size > 0, let name = name(of: section),
                    !name.isEmpty
                else { return nil }
                return Section(start: section.address, size: section.size, name: name)
            }.sorted { $0.start < $1.start }
        }
        return ELFSymbolTable(symbols: symbols, sections: loaded, buildID: buildID, hasLineTable: hasLineTable)
    }

    /// The function symbols of .symtab, or of .dynsym when there is none.
    private static func readSymbols(_ file: ELFBytes, sections: [SectionHeader]) -> [Symbol] {
        let table =
            sections.first { $0.type == ELFFormat.shtSymtab && $0.range != nil }
            ?? sections.first { $0.type == ELFFormat.shtDynsym && $0.range != nil }
        guard let table, let entries = table.range, table.entsize >= 24, table.entsize <= UInt64(entries.count),
            table.link < UInt64(sections.count), let strings = sections[Int(table.link)].range
        else { return [] }
        // entsize <= entries.count: fits in Int.
        let entsize = Int(table.entsize)
        var symbols: [Symbol] = []
        for index in 0..<(entries.count / entsize) {
            // Inside `entries`: index * entsize + 24 <= entries.count.
            let at = entries.lowerBound + index * entsize
            let type = file.u8(at + 4) & 0xF
            let shndx = file.u16(at + 6)
            // Functions, defined (section index not 0).
            guard type == ELFFormat.sttFunc || type == ELFFormat.sttGNUIFunc, shndx != 0 else { continue }
            let nameOffset = Int(file.u32(at))
            guard nameOffset < strings.count else { continue }
            let name = file.cString(at: strings.lowerBound + nameOffset, limit: strings.upperBound)
            guard !name.isEmpty else { continue }
            symbols.append(Symbol(start: file.u64(at + 8), size: file.u64(at + 16), name: name))
        }
        symbols.sort { ($0.start, $1.size) < ($1.start, $0.size) }
        return symbols
    }

    /// The GNU build id from the first SHT_NOTE section that has one.
    private static func readBuildID(_ file: ELFBytes, sections: [SectionHeader]) -> [UInt8] {
        for section in sections where section.type == ELFFormat.shtNote {
            guard let range = section.range else { continue }
            var at = range.lowerBound
            // Every offset below is at most range.upperBound plus a few
            // u32-sized amounts: far from Int overflow.
            while at + 12 <= range.upperBound {
                let nameSize = Int(file.u32(at)), descSize = Int(file.u32(at + 4)), type = file.u32(at + 8)
                let name = at + 12, desc = name + (nameSize + 3) & ~3
                guard desc + descSize <= range.upperBound else { break }
                if type == ELFFormat.ntGNUBuildID, nameSize == 4, file.cString(at: name, limit: name + 4) == "GNU" {
                    return (0..<descSize).map { file.u8(desc + $0) }
                }
                at = desc + (descSize + 3) & ~3
            }
        }
        return []
    }

    /// SHF_ALLOC: the section is loaded.
    static let shfAlloc: UInt64 = 0x2

    /// One section header, its offset and size as the file gives them.
    private struct SectionHeader {
        var name: UInt32, type: UInt32, link: UInt32, entsize: UInt64, size: UInt64, flags: UInt64, address: UInt64
        /// The section's bytes in the file; nil when they are not all inside it.
        var range: Range<Int>?

        init(_ file: ELFBytes, at: Int) {
            name = file.u32(at)
            type = file.u32(at + 4)
            flags = file.u64(at + 0x08)
            address = file.u64(at + 0x10)
            size = file.u64(at + 0x20)
            link = file.u32(at + 0x28)
            entsize = file.u64(at + 0x38)
            let offset = file.u64(at + 0x18)
            if let start = file.offset(offset), let end = file.end(of: start, count: 1, size: size) {
                range = start..<end
            }
        }
    }
}

/// Bounds-checked little-endian reads over a mapped file (out of range reads 0).
private struct ELFBytes {
    let raw: UnsafeRawBufferPointer
    var count: Int { raw.count }

    /// `value` as an offset inside the file; nil past its end.
    func offset(_ value: UInt64) -> Int? {
        value <= UInt64(raw.count) ? Int(value) : nil
    }

    /// Where `count` records of `size` bytes starting at `start` end; nil
    /// when they do not all fit in the file (or the arithmetic overflows).
    func end(of start: Int, count: Int, size: UInt64) -> Int? {
        guard case let (total, false) = UInt64(count).multipliedReportingOverflow(by: size),
            case let (end, false) = UInt64(start).addingReportingOverflow(total), end <= UInt64(raw.count)
        else { return nil }
        return Int(end)
    }

    func end(of start: Int, count: Int, size: Int) -> Int? { end(of: start, count: count, size: UInt64(size)) }

    func u8(_ at: Int) -> UInt8 { at >= 0 && at < raw.count ? raw[at] : 0 }
    func u16(_ at: Int) -> UInt16 { UInt16(integer(at, 2)) }
    func u32(_ at: Int) -> UInt32 { UInt32(integer(at, 4)) }
    func u64(_ at: Int) -> UInt64 { integer(at, 8) }

    private func integer(_ at: Int, _ size: Int) -> UInt64 {
        guard at >= 0, at <= raw.count - size else { return 0 }
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(raw[at + index]) << (8 * index) }
        return value
    }

    func cString(at start: Int, limit: Int) -> String {
        guard start >= 0 else { return "" }
        var end = start
        let bound = min(limit, raw.count)
        while end < bound, raw[end] != 0 { end += 1 }
        guard start < end else { return "" }
        return String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<end]), as: UTF8.self)
    }
}
