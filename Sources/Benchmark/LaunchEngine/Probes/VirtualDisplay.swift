import CLaunchWindow
import Glibc

/// A private X display for desktop launches on a machine without one (CI):
/// Xvfb on a free display number of its own choosing (`-displayfd`), with no
/// TCP listener, started by launchprof for one benchmark (`--display
/// virtual`) and stopped after it. It dies with launchprof whatever ends it
/// (PR_SET_PDEATHSIG on the thread that owns it).
package final class VirtualDisplay: Sendable {
    /// The display's name for DISPLAY (`:N`).
    package let name: String
    private let pid: pid_t

    /// Starts Xvfb (`xvfb`, searched in PATH).
    package init(xvfb: String = "Xvfb") throws(LaunchError) {
        var error = [CChar](repeating: 0, count: 512)
        var number: Int32 = 0
        let pid = lp_window_start_xvfb(xvfb, &number, &error, error.count)
        guard pid > 0 else {
            throw .window(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.pid = pid
        name = ":\(number)"
    }

    /// Stops Xvfb and waits until it is gone (its owning thread reaps it):
    /// SIGTERM, then SIGKILL after 2 s. Its lock file and socket are gone
    /// when this returns.
    package func stop() {
        guard kill(pid, SIGTERM) == 0 else { return }
        for attempt in 0..<400 {
            if !Self.isRunning(pid) { return }
            if attempt == 200 { kill(pid, SIGKILL) }
            usleep(10_000)
        }
    }

    /// Whether `pid` is a process that has not exited (a zombie has).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = ProcFile.read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].dropFirst().first != "Z"
    }

    deinit { stop() }
}
