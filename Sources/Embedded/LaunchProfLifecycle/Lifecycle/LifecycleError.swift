import Glibc
import LaunchProf
import LaunchProfFiles

/// Why ``Lifecycle/start(_:)`` refused or failed.
public enum LifecycleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A configuration field is out of range (the message names it).
    case invalidConfiguration(String)
    /// `start` was called before; the lifecycle runs once per process.
    case alreadyStarted
    /// The signal self-pipe could not be made (errno).
    case signalSetup(errno: Int32)
    /// A lifecycle thread could not be started (pthread_create's error).
    case threadStart(code: Int32)

    public var description: String {
        switch self {
        case .invalidConfiguration(let problem): "invalid lifecycle configuration: \(problem)"
        case .alreadyStarted: "the lifecycle is already started (Lifecycle.start runs once per process)"
        case .signalSetup(let code): "cannot install the lifecycle signal handlers: \(errnoText(code))"
        case .threadStart(let code): "cannot start a lifecycle thread: \(errnoText(code))"
        }
    }
}
