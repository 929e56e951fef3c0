import Glibc
import LaunchProf
import LaunchProfFiles

/// Whether a kernel notification the lifecycle asked for is working.
public enum MonitorStatus: Sendable, Equatable, CustomStringConvertible {
    /// Not asked for in the configuration (or the lifecycle is not started).
    case off
    /// Armed on this file or clock.
    case active(String)
    /// Asked for but not available here; the reason says why.
    case unavailable(String)

    public var description: String {
        switch self {
        case .off: "off"
        case .active(let source): "active (\(source))"
        case .unavailable(let reason): "unavailable: \(reason)"
        }
    }
}
