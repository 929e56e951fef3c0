/// Why a run was stopped without a measurement.
enum RunAbort: Equatable, Sendable {
    /// A record on LAUNCHPROF_RECORD_FD that this launchprof cannot read.
    case protocolError(String)
    /// What `--measure` or `--activate` asked for could not be measured.
    case measure(String)
}
