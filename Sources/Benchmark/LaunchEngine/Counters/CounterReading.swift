import CLaunchProfSpawn
import Glibc

/// What the spawner's perf_event_open counters read for one run
/// (`lp_spawn_counters`, docs/counts.md), as counts and as a report of
/// what was and was not measured.
package struct CounterReading: Sendable, Equatable {
    /// The counts; nil fields were not measured.
    package var counts: LaunchCounts
    /// Which counters were measured, and why the others were not.
    package var report: CounterReport

    /// The metric of each `lp_spawn_counter`, in its order.
    static let metrics: [Metric] = [
        .instructions, .cycles, .cacheReferences, .cacheMisses, .branchMisses, .taskClock, .pageFaults, .contextSwitches,
        .cpuMigrations,
    ]

    /// The reading of `raw`; nil when the spawn was not counted.
    init?(_ raw: lp_spawn_counters) {
        guard raw.read_at != 0 else { return nil }
        let errors = withUnsafeBytes(of: raw.error) { Array($0.bindMemory(to: Int32.self)) }
        let values = withUnsafeBytes(of: raw.value) { Array($0.bindMemory(to: UInt64.self)) }
        let running = withUnsafeBytes(of: raw.running_ns) { Array($0.bindMemory(to: UInt64.self)) }
        let enabled = withUnsafeBytes(of: raw.enabled_ns) { Array($0.bindMemory(to: UInt64.self)) }
        var counts = LaunchCounts()
        var measured: [String] = []
        var gaps: [CounterReport.Gap] = []
        for (index, metric) in Self.metrics.enumerated() where index < errors.count {
            if errors[index] != 0 {
                gaps.append(CounterReport.Gap(counter: metric.key, reason: Self.reason(errors[index], metric: metric)))
                continue
            }
            if enabled[index] > 0, running[index] == 0 {
                gaps.append(CounterReport.Gap(counter: metric.key, reason: "opened, but the kernel never scheduled it (no free counter)"))
                continue
            }
            measured.append(metric.key)
            let value = values[index]
            switch metric {
            case .instructions: counts.instructions = value
            case .cycles: counts.cycles = value
            case .cacheReferences: counts.cacheReferences = value
            case .cacheMisses: counts.cacheMisses = value
            case .branchMisses: counts.branchMisses = value
            case .taskClock: counts.taskClock = value
            case .pageFaults: counts.pageFaults = value
            case .contextSwitches: counts.contextSwitches = value
            default: counts.cpuMigrations = value
            }
        }
        let until =
            raw.read_at == 1
            ? "to ready (read when launchprof's probe fired)" : "to the launched process's exit (the exit probe, or a run that ended first)"
        let space =
            raw.user_only != 0
            ? "user space only: perf_event_paranoid allows no kernel counting to this user, so exec, page-fault and system-call work in the kernel is left out"
            : "user and kernel work of every process and thread of the tree"
        report = CounterReport(
            source: .perf, measured: measured, unavailable: gaps,
            scope: "perf_event_open on the launched tree (inherit, enable_on_exec), from its exec \(until); \(space)")
        self.counts = counts
    }

    private static func reason(_ code: Int32, metric: Metric) -> String {
        let names: [Int32: String] = [ENOENT: "ENOENT", EOPNOTSUPP: "EOPNOTSUPP", ENODEV: "ENODEV", EACCES: "EACCES", EPERM: "EPERM"]
        let text = "\(names[code] ?? "errno \(code)") (\(String(cString: strerror(code))))"
        switch code {
        case ENOENT, EOPNOTSUPP, ENODEV:
            return metric.isHardwareCounter
                ? "\(text): this machine exposes no hardware counter for it (a VM or container "
                    + "without a virtual PMU); use --counts callgrind for instructions"
                : "\(text): the kernel has no such software counter"
        case EACCES, EPERM:
            return "\(text): perf_event_open is not allowed (kernel.perf_event_paranoid, or a seccomp profile)"
        case ENOSYS:
            return "\(text): the kernel has no perf_event_open"
        default:
            return "perf_event_open failed: \(text)"
        }
    }
}

extension Metric {
    /// Counted by the CPU's performance monitoring unit (absent in most VMs).
    var isHardwareCounter: Bool {
        switch self {
        case .instructions, .cycles, .cacheReferences, .cacheMisses, .branchMisses: true
        default: false
        }
    }
}
