import LaunchBenchmark

/// `gate --affinity`: a CPU list ("0", "1,3", "0-2"), `auto` (a pilot
/// chooses, the default) or `none` (where the scheduler puts them);
/// docs/gate.md, "Pinning".
enum GateAffinityOption: Equatable {
    case cpus(CPUAffinity)
    case auto
    case none

    /// "auto", "none" or a CPU list; anything else is refused, naming it
    /// and what is taken.
    init(parsing text: String) throws(GateAffinityOptionError) {
        switch text {
        case "auto": self = .auto
        case "none": self = .none
        default:
            do {
                self = .cpus(try CPUAffinity(parsing: text))
            } catch {
                throw GateAffinityOptionError(cpuList: error)
            }
        }
    }
}
