import Foundation
import Glibc

/// Why `launchprof record` produced no trace.
public enum RecordError: Error, Sendable, CustomStringConvertible {
    case launch(LaunchError)
    case system(SystemCallError)
    case failed(program: String, exit: ExitStatus)
    case noTrace(program: String, path: String, exit: ExitStatus)
    case unreadable(TraceReadError)

    public var description: String {
        switch self {
        case .launch(let error): error.description
        case .system(let error): "cannot observe the program: \(error)"
        case .failed(let program, let exit):
            "'\(program)' \(exit) and wrote no trace"
        case .noTrace(let program, let path, let exit):
            "'\(program)' \(exit) but wrote no trace to '\(path)': does it link LaunchProf? "
                + "(The trace is written at exit; a program killed by a signal writes none.)"
        case .unreadable(let error): error.description
        }
    }
}

/// What one recorded launch gave.
public struct RecordedLaunch: Sendable {
    public var trace: Trace
    public var run: ObservedRun
}

/// Runs a program once with tracing on (LAUNCHPROF_TRACE) and reads its trace.
public struct TraceRecorder: Sendable {
    public var timeout: Duration
    public var output: OutputDisposition

    public init(timeout: Duration = .seconds(60), output: OutputDisposition = .inherit) {
        self.timeout = timeout
        self.output = output
    }

    /// Launches `target` with its trace going to `tracePath`, waits for it to
    /// exit (killing its process group at the timeout), and reads the trace.
    public func record(_ target: LaunchTarget, to tracePath: String) throws(RecordError) -> RecordedLaunch {
        var target = target
        target.environment["LAUNCHPROF_TRACE"] = tracePath
        // A stale trace from an earlier run must not pass for this one.
        unlink(tracePath)
        let process: LaunchedProcess
        do {
            process = try Spawner().spawn(target, options: SpawnOptions(output: output))
        } catch {
            throw .launch(error)
        }
        let run: ObservedRun
        do {
            run = try RunObserver(process: process, settings: RunSettings(probe: .exit, timeout: timeout)).observe()
        } catch {
            throw .system(error)
        }
        guard access(tracePath, F_OK) == 0 else {
            let program = target.arguments.first ?? target.name
            if case .exited = run.exit { throw .noTrace(program: program, path: tracePath, exit: run.exit) }
            throw .failed(program: program, exit: run.exit)
        }
        do {
            return RecordedLaunch(trace: try TraceReader.read(path: tracePath), run: run)
        } catch {
            throw .unreadable(error)
        }
    }
}
