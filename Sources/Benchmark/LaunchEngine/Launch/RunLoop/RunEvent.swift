/// Something that happened to a run, in the words of the run loop's state
/// machine. The loop's event sources (the spawner's replies, records,
/// output, the notify socket, the activation client, the trace-file watch,
/// the port probe, the interrupt) turn what they read into these; tests
/// script them directly.
///
/// Times are CLOCK_MONOTONIC nanoseconds.
enum RunEvent: Equatable, Sendable {
    /// The ready probe fired at this time.
    case ready(at: UInt64)
    /// The spawner saw the launched process exit.
    case exited(at: UInt64)
    /// The spawner saw the launched process stop (SIGTSTP).
    case stopped(at: UInt64)
    /// The program's `LP1 resumed` record, stamped by the program.
    case resumed(at: UInt64)
    /// The trace file (`--trace-runs`) is there.
    case traceWritten
    /// The warm request ended: its time from connect to the whole response,
    /// or why it got none.
    case warmResponse(Result<UInt64, ActivationFailure>)
    /// Ctrl-C, SIGTERM, SIGHUP or SIGQUIT reached launchprof.
    case interrupted
    /// The run cannot be measured.
    case failed(RunAbort)
}
