import LaunchBenchmark

/// `gate --affinity`: a CPU list ("0", "1,3", "0-2") or `auto` (a pilot
/// chooses; docs/gate.md, "Pinning").
enum GateAffinityOption: Equatable {
    case cpus(CPUAffinity)
    case auto

    /// "auto" or a CPU list; anything else is refused, naming it.
    init(parsing text: String) throws(CPUAffinityError) {
        self = text == "auto" ? .auto : .cpus(try CPUAffinity(parsing: text))
    }
}
