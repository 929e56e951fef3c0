import CLaunchProfSpawn

extension ResourceUsage {
    /// The spawner's figures (nanoseconds, KiB, counts) in launchprof's units.
    init(_ usage: lp_spawn_usage) {
        func count(_ value: Int64) -> UInt64 { UInt64(max(0, value)) }
        self.init(
            userCPU: count(usage.user_ns), systemCPU: count(usage.system_ns),
            maxRSSBytes: count(usage.max_rss_kib) &* 1024,  // Linux reports KiB
            majorFaults: count(usage.major_faults), minorFaults: count(usage.minor_faults),
            voluntaryContextSwitches: count(usage.voluntary_switches),
            involuntaryContextSwitches: count(usage.involuntary_switches))
    }
}
