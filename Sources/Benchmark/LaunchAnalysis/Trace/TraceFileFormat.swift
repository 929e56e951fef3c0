import LaunchProfFormat

/// The reader's view of trace format version 1. Every constant comes from
/// launchprof_format.h (LaunchProfFormat), the header the writers compile
/// too (docs/trace-format.md describes the layout).
enum TraceFileFormat {
    static let magic: [UInt8] = Array(LP_TRACE_MAGIC.utf8) + [0]
    static let version: UInt32 = LP_TRACE_VERSION
    /// Version 1 headers are exactly this long; the header-size field lets a
    /// later minor revision grow it, so a reader skips to that offset.
    static let minimumHeaderSize = Int(LP_TRACE_HEADER_SIZE)
    /// Section header: tag u32, reserved u32, payload length u64.
    static let sectionHeaderSize = Int(LP_TRACE_SECTION_HEADER_SIZE)
    static let eventRecordSize = Int(LP_TRACE_EVENT_SIZE)
    /// Bit 0 of an event's flags: the argument field is valid.
    static let hasArgumentFlag = UInt8(LP_FLAG_HAS_ARG)
    /// Bit 1: the argument field is the recording thread's CPU time (interval begins and ends).
    static let threadCPUFlag = UInt8(LP_FLAG_THREAD_CPU)

    /// The sections every version-1 trace holds (and the checksum); other
    /// tags are optional (samples, modules) or unknown, and the table
    /// reader skips them.
    enum SectionTag: CaseIterable {
        case strings, categories, threads, events, checksum

        init?(tag: UInt32) {
            guard let found = Self.allCases.first(where: { $0.tag == tag }) else { return nil }
            self = found
        }

        var tag: UInt32 {
            switch self {
            case .strings: LP_TRACE_SECTION_STRINGS
            case .categories: LP_TRACE_SECTION_CATEGORIES
            case .threads: LP_TRACE_SECTION_THREADS
            case .events: LP_TRACE_SECTION_EVENTS
            case .checksum: LP_TRACE_SECTION_CHECKSUM
            }
        }

        var name: String { TraceFileFormat.sectionName(tag: tag) }
    }

    /// A section's name for messages, known tag or not.
    static func sectionName(tag: UInt32) -> String {
        switch tag {
        case LP_TRACE_SECTION_STRINGS: "strings"
        case LP_TRACE_SECTION_CATEGORIES: "categories"
        case LP_TRACE_SECTION_THREADS: "threads"
        case LP_TRACE_SECTION_EVENTS: "events"
        case LP_TRACE_SECTION_SAMPLES: "samples"
        case LP_TRACE_SECTION_MODULES: "modules"
        case LP_TRACE_SECTION_CHECKSUM: "checksum"
        default: "unknown (tag \(tag))"
        }
    }

    /// FNV-1a 64 of `bytes` (`lp_trace_checksum`, the writers' own): the
    /// checksum the writer stores in the last section.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBufferPointer { lp_trace_checksum($0.baseAddress, $0.count) }
    }
}
