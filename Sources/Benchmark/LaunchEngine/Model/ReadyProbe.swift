import LaunchSupport

/// How the harness decides a launch is complete.
public enum ReadyProbe: Sendable, Equatable, CustomStringConvertible {
    /// The process exited (the default).
    case exit
    /// The embedded library reported launch complete (`LP1 ready` on LAUNCHPROF_RECORD_FD).
    case tracer
    /// sd_notify `READY=1` on the private NOTIFY_SOCKET.
    case notify
    /// A TCP connect to localhost:port succeeds.
    case port(Int)
    /// A line of stdout or stderr matches the regular expression.
    case output(String)
    /// The request sent through the activated socket (`--activate`) was
    /// answered whole.
    case response
    /// The launched process tree mapped its first top-level window (X11),
    /// whose title matches the regular expression when one is given.
    case window(String?)
    /// That window's first content was drawn (X DAMAGE, and the window no
    /// longer one flat colour): an empty map or a blank splash is not it.
    case frame(String?)

    public var description: String {
        switch self {
        case .exit: "exit"
        case .tracer: "tracer"
        case .notify: "notify"
        case .port(let port): "port:\(port)"
        case .output(let pattern): "output:\(pattern)"
        case .response: "response"
        case .window(let title): title.map { "window:\($0)" } ?? "window"
        case .frame(let title): title.map { "frame:\($0)" } ?? "frame"
        }
    }
}
