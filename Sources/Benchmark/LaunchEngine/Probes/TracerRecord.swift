import LaunchProfFormat

/// One record of the record socket protocol (version 1), as the embedded
/// library writes it on LAUNCHPROF_RECORD_FD (see docs/trace-format.md). The
/// version and record kinds are launchprof_format.h's.
package enum TracerRecord: Sendable, Equatable {
    /// `LP1 entry <ns> <pid>`: process entry, before main.
    case entry(nanoseconds: UInt64, pid: Int32)
    /// `LP1 main <ns>`
    case main(nanoseconds: UInt64)
    /// `LP1 milestone <ns> <name>` (the name may contain spaces).
    case milestone(nanoseconds: UInt64, name: String)
    /// `LP1 ready <ns>`: launch complete.
    case ready(nanoseconds: UInt64)
    /// `LP1 resumed <ns>`: the Lifecycle's resume handlers finished after SIGCONT.
    case resumed(nanoseconds: UInt64)
    /// `LP1 maincpu <ns> <cpu-ns>`: just after ready, the main thread's CPU
    /// time so far (the rest of the launch it was waiting).
    case mainThreadCPU(nanoseconds: UInt64, cpu: UInt64)

    /// The record's CLOCK_MONOTONIC timestamp.
    package var nanoseconds: UInt64 {
        switch self {
        case .entry(let ns, _), .main(let ns), .milestone(let ns, _), .ready(let ns), .resumed(let ns), .mainThreadCPU(let ns, _): ns
        }
    }

    /// The protocol version this reader speaks.
    package static let versionPrefix = LP_RECORD_VERSION

    /// Parses one line (without its newline). Returns nil for a record kind
    /// this version does not know, so later minor additions are skipped.
    package static func parse(_ line: Substring) throws(TracerRecordError) -> TracerRecord? {
        let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard let version = fields.first, version.hasPrefix("LP") else { throw .malformed(String(line)) }
        guard version == versionPrefix else { throw .unsupportedVersion(String(version), line: String(line)) }
        guard fields.count >= 3, let nanoseconds = UInt64(fields[2]) else { throw .malformed(String(line)) }
        switch String(fields[1]) {
        case LP_RECORD_ENTRY:
            guard fields.count == 4, let pid = Int32(fields[3]) else { throw .malformed(String(line)) }
            return .entry(nanoseconds: nanoseconds, pid: pid)
        case LP_RECORD_MAIN:
            return .main(nanoseconds: nanoseconds)
        case LP_RECORD_MILESTONE:
            guard fields.count == 4 else { throw .malformed(String(line)) }
            return .milestone(nanoseconds: nanoseconds, name: String(fields[3]))
        case LP_RECORD_READY:
            return .ready(nanoseconds: nanoseconds)
        case LP_RECORD_RESUMED:
            return .resumed(nanoseconds: nanoseconds)
        case LP_RECORD_MAIN_CPU:
            guard fields.count == 4, let cpu = UInt64(fields[3]) else { throw .malformed(String(line)) }
            return .mainThreadCPU(nanoseconds: nanoseconds, cpu: cpu)
        default:
            return nil
        }
    }
}

/// A record on the record socket that this launchprof cannot read.
package enum TracerRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A record of a protocol version launchprof does not know.
    case unsupportedVersion(String, line: String)
    /// A record that is not `LP1 KIND NANOSECONDS …`.
    case malformed(String)

    package var description: String {
        switch self {
        case .unsupportedVersion(let version, let line):
            "the traced program speaks harness protocol '\(version)', this launchprof reads only "
                + "'\(TracerRecord.versionPrefix)' (record: \"\(line)\"); use a launchprof matching its LaunchProf library"
        case .malformed(let line):
            "malformed record on LAUNCHPROF_RECORD_FD: \"\(line)\" (expected 'LP1 <kind> <ns> …')"
        }
    }
}
