import Foundation
import Glibc
import LaunchAnalysis
import LaunchSupport

/// Why `launchprof record` produced no trace.
public enum RecordError: Error, Sendable, CustomStringConvertible {
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

    public var description: String {
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
        case .foreignTrace(let program, let path, let writer, let launched):
            "\(path) was written by pid \(writer), not by \(program) (pid \(launched)): a program it ran inherited "
                + "LAUNCHPROF_TRACE; a wrapper script must exec the traced program"
        }
    }
}

/// What one recorded launch gave.
public struct RecordedLaunch: Sendable {
    /// The trace it wrote.
    public var trace: Trace
    /// The launch as observed: times, exit, resources.
    public var run: ObservedRun
}

/// Runs a program once with tracing on (LAUNCHPROF_TRACE) and reads its trace.
///
/// With the `exit` probe (the default) it waits for the program to exit.
/// With another probe (tracer, notify, port, output) it waits until the
/// program is ready, then stops it as `launchprof run` does (SIGTERM to its
/// process group, SIGKILL after the grace period), once the trace is written:
/// LAUNCHPROF_TRACE_AT=after-ready makes a LaunchProf program write it just
/// after it says it is ready.
public struct TraceRecorder: Sendable {
    /// A launch neither ready nor exited by then is killed.
    public var timeout: Duration
    /// Where the program's output goes.
    public var output: OutputDisposition
    /// When the launch counts as done.
    public var probe: ReadyProbe
    /// How long a program stopped after ready may take to exit.
    public var grace: Duration
    /// Ctrl-C stops the program (its own process group never sees it).
    public var interrupt: InterruptMonitor?

    /// A recorder with these settings.
    public init(
        timeout: Duration = RunDefaults.timeout, output: OutputDisposition = .inherit, probe: ReadyProbe = .exit,
        grace: Duration = RunDefaults.grace, interrupt: InterruptMonitor? = nil
    ) {
        self.timeout = timeout
        self.output = output
        self.probe = probe
        self.grace = grace
        self.interrupt = interrupt
    }

    /// Launches `target` with its trace going to `tracePath`, waits for it to
    /// exit or be ready (killing its process group at the timeout), and reads
    /// the trace.
    public func record(_ target: LaunchTarget, to tracePath: String) throws(RecordError) -> RecordedLaunch {
        var target = target
        target.environment["LAUNCHPROF_TRACE"] = tracePath
        // With a ready probe, a LaunchProf program writes its trace just
        // after it tells launchprof it is ready (as `run --trace-runs` has
        // it), and the run waits for the file before stopping the program:
        // the recorded time to ready does not include the write.
        if probe != .exit { target.environment["LAUNCHPROF_TRACE_AT"] = "after-ready" }
        // A stale trace from an earlier run must not pass for this one.
        unlink(tracePath)
        target.ready = probe
        let run: ObservedRun
        do {
            let request = RunRequest(
                target: target, timeout: timeout, grace: grace, output: output, traceFile: probe != .exit ? tracePath : nil)
            run = try Spawner().run(request, interrupt: interrupt)
        } catch {
            throw .launch(error)
        }
        if run.interrupted { throw .interrupted }
        let program = target.arguments.first?.string ?? target.name
        if probe != .exit, run.wallToReady == nil {
            throw .notReady(program: program, probe: probe, failure: run.failure ?? "it exited (\(run.exit)) first")
        }
        guard access(tracePath, F_OK) == 0 else {
            if probe != .exit { throw .noTraceAfterReady(program: program, path: tracePath, probe: probe, exit: run.exit) }
            if case .exited = run.exit { throw .noTrace(program: program, path: tracePath, exit: run.exit) }
            throw .failed(program: program, exit: run.exit)
        }
        let trace: Trace
        do {
            trace = try TraceReader.read(path: tracePath)
        } catch {
            throw .unreadable(error)
        }
        guard Int64(trace.header.pid) == Int64(run.pid) else {
            throw .foreignTrace(program: program, path: tracePath, writer: trace.header.pid, launched: run.pid)
        }
        return RecordedLaunch(trace: trace, run: run)
    }
}
