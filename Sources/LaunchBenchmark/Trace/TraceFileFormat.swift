/// Constants of trace format version 1, as the reader needs them
/// (docs/trace-format.md; the writer is `TraceFormat` in LaunchProf, which this
/// module does not link, so the few shared facts are restated here).
enum TraceFileFormat {
    static let magic: [UInt8] = Array("LPTRACE\0".utf8)
    static let version: UInt32 = 1
    /// Version 1 headers are exactly this long; the header-size field lets a
    /// later minor revision grow it, so a reader skips to that offset.
    static let minimumHeaderSize = 96
    /// Section header: tag u32, reserved u32, payload length u64.
    static let sectionHeaderSize = 16
    static let eventRecordSize = 40
    /// Bit 0 of an event's flags: the argument field is valid.
    static let hasArgumentFlag: UInt8 = 1

    /// Section tags; tags not listed are skipped by the reader.
    enum SectionTag: UInt32, CaseIterable {
        case strings = 1
        case categories = 2
        case threads = 3
        case events = 4
        case checksum = 0xFFFF_FFFF

        var name: String {
            switch self {
            case .strings: "strings"
            case .categories: "categories"
            case .threads: "threads"
            case .events: "events"
            case .checksum: "checksum"
            }
        }
    }

    /// A section's name for messages, known tag or not.
    static func sectionName(tag: UInt32) -> String {
        switch tag {
        case 5: "samples"
        case 6: "modules"
        default: SectionTag(rawValue: tag)?.name ?? "unknown (tag \(tag))"
        }
    }

    /// FNV-1a 64 of `bytes`: the checksum the writer stores in the last section.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
