/// The facts of the ELF format both ELF readers use (`ELFImage` for a
/// launch's file set, `ELFSymbolTable` for symbolization): the identification
/// checked once, and the numbers of the specification by name.
package enum ELFFormat {
    /// The ELF magic, `\x7fELF`.
    package static let magic: [UInt8] = [0x7F, 0x45, 0x4C, 0x46]
    /// The size of a 64-bit ELF header.
    package static let headerSize = 64

    /// Program header types.
    package static let ptLoad: UInt32 = 1, ptDynamic: UInt32 = 2, ptInterp: UInt32 = 3, ptNote: UInt32 = 4
    /// Dynamic section tags.
    package static let dtNull: Int64 = 0, dtNeeded: Int64 = 1, dtStrtab: Int64 = 5, dtRpath: Int64 = 15, dtRunpath: Int64 = 29
    /// Dynamic section tags of relocation (counts and binding).
    package static let dtPltrelsz: Int64 = 2, dtRelasz: Int64 = 8, dtRelaent: Int64 = 9, dtRelsz: Int64 = 18, dtRelent: Int64 = 19
    package static let dtBindNow: Int64 = 24, dtFlags: Int64 = 30, dtRelrsz: Int64 = 35
    package static let dtRelacount: Int64 = 0x6fff_fff9, dtRelcount: Int64 = 0x6fff_fffa, dtFlags1: Int64 = 0x6fff_fffb
    /// DF_BIND_NOW in DT_FLAGS, DF_1_NOW in DT_FLAGS_1.
    package static let dfBindNow: UInt64 = 0x8, df1Now: UInt64 = 0x1
    /// Section header types.
    package static let shtSymtab: UInt32 = 2, shtNote: UInt32 = 7, shtNobits: UInt32 = 8, shtDynsym: UInt32 = 11
    /// Symbol types (the low nibble of st_info).
    package static let sttFunc: UInt8 = 2, sttGNUIFunc: UInt8 = 10
    /// The note type of a GNU build id.
    package static let ntGNUBuildID: UInt32 = 3

    /// Checks an ELF header's first bytes (at least the identification):
    /// the magic, 64-bit, little-endian, and a whole header. Every reader
    /// refuses the same files with the same words.
    package static func checkIdentification(_ header: some Collection<UInt8>, path: String) throws(ELFError) {
        let bytes = Array(header.prefix(headerSize))
        guard bytes.count >= 4, Array(bytes.prefix(4)) == magic else {
            throw .notELF(path: path, firstBytes: Array(bytes.prefix(4)))
        }
        guard bytes.count >= headerSize else {
            throw .unsupported(
                path: path, reason: "damaged ELF: the file is \(bytes.count) bytes long, shorter than the 64-byte ELF header")
        }
        guard bytes[4] == 2 else { throw .unsupported(path: path, reason: "32-bit ELF files are not supported (only 64-bit)") }
        guard bytes[5] == 1 else { throw .unsupported(path: path, reason: "big-endian ELF files are not supported") }
    }
}
