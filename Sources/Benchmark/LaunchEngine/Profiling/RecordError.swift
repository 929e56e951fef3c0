import Foundation
import Glibc
import LaunchAnalysis
import LaunchSupport

/// Why `launchprof record` produced no trace.
package enum RecordError: Error, Sendable, CustomStringConvertible {
    /// The program could not be started.
    case launch(LaunchError)
    /// A system call failed while watching it.
    case system(SystemCallError)
    /// The program crashed or exited with a failure status.
    case failed(program: String, exit: ExitStatus)
    /// The program exited without writing its trace.
    case noTrace(program: String, path: String, exit: ExitStatus)
    /// Stopped with SIGTERM after its ready probe fired, and wrote no trace.
    case noTraceAfterReady(program: String, path: String, probe: ReadyProbe, exit: ExitStatus)
    /// The program never became ready.
    case notReady(program: String, probe: ReadyProbe, failure: String)
    /// Ctrl-C (or SIGTERM, SIGHUP) reached launchprof; the program was stopped.
    case interrupted
    /// The trace it wrote cannot be read.
    case unreadable(TraceReadError)
    /// The trace at the path was written by another process (a program the
    /// target ran, or a stale file put there meanwhile).
    case foreignTrace(program: String, path: String, writer: UInt32, launched: Int32)
    /// The kernel's samples of the launch could not be unwound or added to
    /// its trace: the reason, naming the file.
    case samples(String)
    /// The spawner was to read the launch's mappings at ready, but the
    /// program ended first (`LP_PERF_RECORD_MAPS_MISSED`): its samples
    /// cannot be named. `ProfileRecorder` launches it again with the
    /// kernel's mmap records.
    case mappingsMissed(program: String)
    /// The trace cannot be written to `path` (checked before the launch,
    /// and again when the whole trace replaces the file): the reason.
    case output(path: String, reason: String)
    /// The file for the kernel's samples could not be made.
    case sampleSink(SampleSinkError)

    package var description: String {
        switch self {
        case .launch(let error): error.description
        case .system(let error): "cannot observe the program: \(error)"
        case .failed(let program, let exit):
            "'\(program)' \(exit) and wrote no trace"
        case .noTrace(let program, let path, let exit):
            "'\(program)' \(exit) but wrote no trace to '\(path)': does it link LaunchProf? "
                + "(The trace is written at exit; a program killed by a signal writes none.)"
        case .noTraceAfterReady(let program, let path, let probe, let exit):
            "'\(program)' was ready (\(probe)), then stopped with SIGTERM, \(exit), and wrote no trace to '\(path)': "
                + "a program that links LaunchProf writes it at launch complete; any other writes it at exit, "
                + "which SIGTERM's default action skips (make it exit(0) on SIGTERM, or profile a run that exits by itself)"
        case .notReady(let program, let probe, let failure):
            "'\(program)' never became ready (\(probe)): \(failure)"
        case .interrupted:
            "interrupted; the program and its process group were stopped"
        case .unreadable(let error): error.description
        case .samples(let reason): "the launch's samples: \(reason)"
        case .sampleSink(let error): error.description
        case .mappingsMissed(let program):
            "\(program) ended before its mappings were read at ready: its samples cannot be named (launch it again with the kernel's mmap records)"
        case .output(let path, let reason):
            reason.contains(path) ? reason : "cannot write the trace to '\(path)': \(reason)"
        case .foreignTrace(let program, let path, let writer, let launched):
            "\(path) was written by pid \(writer), not by \(program) (pid \(launched)): a program it ran inherited "
                + "LAUNCHPROF_TRACE; a wrapper script must exec the traced program"
        }
    }
}
