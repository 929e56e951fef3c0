/// One record of the harness pipe protocol (version 1), as the embedded
/// library writes it on LAUNCHPROF_READY_FD (see docs/trace-format.md).
public enum TracerRecord: Sendable, Equatable {
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
    public var nanoseconds: UInt64 {
        switch self {
        case .entry(let ns, _), .main(let ns), .milestone(let ns, _), .ready(let ns), .resumed(let ns), .mainThreadCPU(let ns, _): ns
        }
    }

    /// The protocol version this reader speaks.
    public static let versionPrefix = "LP1"

    /// Parses one line (without its newline). Returns nil for a record kind
    /// this version does not know, so later minor additions are skipped.
    public static func parse(_ line: Substring) throws(TracerRecordError) -> TracerRecord? {
        let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard let version = fields.first, version.hasPrefix("LP") else { throw .malformed(String(line)) }
        guard version == versionPrefix else { throw .unsupportedVersion(String(version), line: String(line)) }
        guard fields.count >= 3, let nanoseconds = UInt64(fields[2]) else { throw .malformed(String(line)) }
        switch fields[1] {
        case "entry":
            guard fields.count == 4, let pid = Int32(fields[3]) else { throw .malformed(String(line)) }
            return .entry(nanoseconds: nanoseconds, pid: pid)
        case "main":
            return .main(nanoseconds: nanoseconds)
        case "milestone":
            guard fields.count == 4 else { throw .malformed(String(line)) }
            return .milestone(nanoseconds: nanoseconds, name: String(fields[3]))
        case "ready":
            return .ready(nanoseconds: nanoseconds)
        case "resumed":
            return .resumed(nanoseconds: nanoseconds)
        case "maincpu":
            guard fields.count == 4, let cpu = UInt64(fields[3]) else { throw .malformed(String(line)) }
            return .mainThreadCPU(nanoseconds: nanoseconds, cpu: cpu)
        default:
            return nil
        }
    }
}

/// A line on the harness pipe that this launchprof cannot read.
public enum TracerRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A record of a protocol version launchprof does not know.
    case unsupportedVersion(String, line: String)
    /// A record that is not `LP1 KIND NANOSECONDS …`.
    case malformed(String)

    public var description: String {
        switch self {
        case .unsupportedVersion(let version, let line):
            "the traced program speaks harness protocol '\(version)', this launchprof reads only "
                + "'\(TracerRecord.versionPrefix)' (record: \"\(line)\"); use a launchprof matching its LaunchProf library"
        case .malformed(let line):
            "malformed record on LAUNCHPROF_READY_FD: \"\(line)\" (expected 'LP1 <kind> <ns> …')"
        }
    }
}
