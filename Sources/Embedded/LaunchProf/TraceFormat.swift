import CLaunchProfSupport
import LaunchProfFormat

#if canImport(Glibc)
import Glibc
#endif

/// Trace file format, version 1: the constants of launchprof_format.h
/// (LaunchProfFormat), which the C sampler and the harness's reader share
/// (docs/trace-format.md is the full description).
///
/// All integers little-endian. A fixed header, then sections
/// (tag u32, reserved u32, length u64, payload), the last of which is the
/// checksum section holding the FNV-1a 64 of every byte before it.
package enum TraceFormat {
    package static let magic: [UInt8] = Array(LP_TRACE_MAGIC.utf8) + [0]
    package static let version: UInt32 = LP_TRACE_VERSION
    package static let headerSize: UInt32 = LP_TRACE_HEADER_SIZE
    package static let eventSize = Int(LP_TRACE_EVENT_SIZE)

    /// A section tag.
    package struct Section: Sendable {
        package let tag: UInt32
        package static let strings = Section(tag: LP_TRACE_SECTION_STRINGS)
        package static let categories = Section(tag: LP_TRACE_SECTION_CATEGORIES)
        package static let threads = Section(tag: LP_TRACE_SECTION_THREADS)
        package static let events = Section(tag: LP_TRACE_SECTION_EVENTS)
        package static let checksum = Section(tag: LP_TRACE_SECTION_CHECKSUM)
    }

    /// FNV-1a, 64-bit (`lp_trace_checksum`, the one the C sampler uses).
    package static func checksum(_ bytes: some Collection<UInt8>) -> UInt64 {
        bytes.withContiguousStorageIfAvailable { lp_trace_checksum($0.baseAddress, $0.count) }
            ?? Array(bytes).withUnsafeBufferPointer { lp_trace_checksum($0.baseAddress, $0.count) }
    }
}
