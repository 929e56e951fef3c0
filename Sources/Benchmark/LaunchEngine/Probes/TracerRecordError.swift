import LaunchProfFormat

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
