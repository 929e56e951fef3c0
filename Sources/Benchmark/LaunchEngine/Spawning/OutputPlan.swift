import Glibc
import LaunchAnalysis

/// Where the output of all runs goes.
package enum OutputPlan: Sendable, Equatable {
    /// The programs' output goes to /dev/null.
    case discard
    /// The programs' output goes to launchprof's own.
    case inherit
    /// One file per run in this directory: `<name>-<mode>-run-<n>.log`.
    case directory(String)

    func disposition(for context: RunContext) -> OutputDisposition {
        switch self {
        case .discard: return .discard
        case .inherit: return .inherit
        case .directory(let directory):
            let safe = String(context.target.name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" })
            let run = context.isWarmup ? "warmup-\(context.index + 1)" : "run-\(context.index + 1)"
            return .file("\(directory)/\(safe.prefix(80))-\(context.mode.rawValue)-\(run).log")
        }
    }
}
