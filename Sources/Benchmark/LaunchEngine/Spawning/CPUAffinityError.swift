import LaunchSupport

/// Why a CPU set cannot be read or used.
public enum CPUAffinityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--affinity` text that is not a CPU list.
    case malformed(String, item: String)
    /// CPUs this process may not run on.
    case unavailable(CPUAffinity, allowed: CPUAffinity)
    /// sched_getaffinity or sched_setaffinity failed.
    case system(SystemCallError)

    public var description: String {
        switch self {
        case .malformed(let text, let item):
            "'\(text)': '\(item)' is not a CPU or a range of CPUs (give e.g. 0, 1,3 or 0-2, each below \(CPUAffinity.capacity))"
        case .unavailable(let asked, let allowed):
            "CPUs \(asked) are not all available to this process (it may run on \(allowed))"
        case .system(let error): "\(error)"
        }
    }
}
