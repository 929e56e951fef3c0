import CLaunchWindow
import Glibc

/// A private X display for desktop launches on a machine without one (CI):
/// Xvfb on a free display number of its own choosing (`-displayfd`), with no
/// TCP listener, started by launchprof for one benchmark (`--display
/// virtual`) and stopped after it. It dies with launchprof whatever ends it
/// (PR_SET_PDEATHSIG on the thread that owns it).
public final class VirtualDisplay: Sendable {
    /// The display's name for DISPLAY (`:N`).
    public let name: String
    private let pid: pid_t

    /// Starts Xvfb (`xvfb`, searched in PATH).
    public init(xvfb: String = "Xvfb") throws(LaunchError) {
        var error = [CChar](repeating: 0, count: 512)
        var number: Int32 = 0
        let pid = lp_window_start_xvfb(xvfb, &number, &error, error.count)
        guard pid > 0 else {
            throw .window(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.pid = pid
        name = ":\(number)"
    }

    /// Stops Xvfb (its owning thread reaps it).
    public func stop() { kill(pid, SIGTERM) }

    deinit { stop() }
}
