import LaunchBenchmark

/// `gate --affinity` text that is neither `auto`, `none` nor a CPU list.
struct GateAffinityOptionError: Error, CustomStringConvertible {
    /// Why it is not a CPU list.
    var cpuList: CPUAffinityError

    var description: String { "\(cpuList); or auto (the default) or none" }
}
