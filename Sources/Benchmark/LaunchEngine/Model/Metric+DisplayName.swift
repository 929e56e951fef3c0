import Foundation
import LaunchSupport

extension Metric {
    /// How reports name the metric: "time to ready", "milestone 'config'".
    public var displayName: String {
        switch self {
        case .wallToReady: "time to ready"
        case .wallToExit: "time to exit"
        case .processEntry: "time to process entry"
        case .main: "time to main"
        // The program names its milestones: escaped for every report.
        case .milestone(let name): "milestone '\(TerminalText.sanitized(name))'"
        case .interval(let key):
            { parts in "interval '\(TerminalText.sanitized(parts.name))' (\(Metric.roleName(parts.thread)))" }(Metric.intervalParts(key))
        case .userCPU: "user CPU"
        case .systemCPU: "system CPU"
        case .cpu: "CPU"
        case .maxRSS: "max RSS"
        case .majorFaults: "major faults"
        case .minorFaults: "minor faults"
        case .voluntaryContextSwitches: "voluntary context switches"
        case .involuntaryContextSwitches: "involuntary context switches"
        case .timeToSuspend: "time to suspend (SIGTSTP to stopped)"
        case .timeToResume: "time to resume (SIGCONT to resumed)"
        case .timeToShutdown: "time to shutdown (SIGTERM to exit)"
        case .firstResponseByte: "first response byte"
        case .warmRequest: "warm request (once up)"
        case .instructions: "instructions"
        case .cycles: "cycles"
        case .cacheReferences: "cache references"
        case .cacheMisses: "cache misses"
        case .branchMisses: "branch misses"
        case .taskClock: "task clock"
        case .pageFaults: "page faults"
        case .contextSwitches: "context switches"
        case .cpuMigrations: "CPU migrations"
        }
    }

    /// How a milestone sub-row names it: "process entry", "main", "config loaded".
    public var detailName: String {
        switch self {
        case .processEntry: "process entry"
        case .milestone(let name): TerminalText.sanitized(name)
        default: displayName.replacingOccurrences(of: "time to ", with: "")
        }
    }
}

extension Metric {
    /// How reports name an interval's role (``IntervalTime/thread``):
    /// "launch path", "encloses the launch path", "off the launch path"; and
    /// older results' "main thread" and "other threads".
    public static func roleName(_ role: String) -> String {
        switch role {
        case "path": "launch path"
        case "enclosing": "encloses the launch path"
        case "off": "off the launch path"
        case "main": "main thread"
        default: "other threads"
        }
    }
}
