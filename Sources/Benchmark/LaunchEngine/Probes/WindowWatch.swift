import CLaunchWindow
import Glibc

/// A connection to the X display that reports top-level windows, for
/// `--ready window` and `--ready frame` (docs/window.md). Made before the
/// spawn, so no window of the run can be created before it watches; closed
/// with the run. libxcb is loaded only here, with dlopen.
final class WindowWatch {
    private let watch: OpaquePointer
    /// The display it is connected to, for messages.
    let display: String

    /// Connects to `display` (nil: $DISPLAY).
    init(display: String?) throws(LaunchError) {
        var error = [CChar](repeating: 0, count: 512)
        let opened = display.map { name in lp_window_open(name, &error, error.count) } ?? lp_window_open(nil, &error, error.count)
        guard let opened else {
            throw .window(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        watch = opened
        self.display = display ?? getenv("DISPLAY").map { String(cString: $0) } ?? ""
    }

    deinit { lp_window_close(watch) }

    /// The connection's descriptor, for poll.
    var fd: Int32 { lp_window_fd(watch) }

    /// Whether the server can report drawing (DAMAGE), which `frame` needs.
    var reportsDrawing: Bool { lp_window_has_damage(watch) != 0 }

    /// The next event already received, or nil.
    func next() -> lp_window_event? {
        let event = lp_window_next(watch)
        return event.kind == Int32(LP_WINDOW_NONE.rawValue) ? nil : event
    }

    /// Watches `window`'s own map and title, and (with `drawing`) what is
    /// drawn into it. False when the window is already gone.
    func follow(_ window: UInt32, drawing: Bool) -> Bool { lp_window_follow(watch, window, drawing ? 1 : 0) == 0 }

    /// The pid of the client that made `window` (X-Resource, else
    /// _NET_WM_PID), or nil.
    func owner(of window: UInt32) -> Int32? {
        var fromResource: Int32 = 0
        let pid = lp_window_pid(watch, window, &fromResource)
        return pid > 0 ? pid : nil
    }

    /// Whether `window` is mapped now (nil: gone).
    func isMapped(_ window: UInt32) -> Bool? {
        let mapped = lp_window_is_mapped(watch, window)
        return mapped < 0 ? nil : mapped == 1
    }

    /// Whether `window` shows one flat colour only (nil: gone).
    func isBlank(_ window: UInt32) -> Bool? {
        let blank = lp_window_is_blank(watch, window)
        return blank < 0 ? nil : blank == 1
    }

    /// `window`'s title (at most 4 KiB), or nil when it is gone.
    func title(of window: UInt32) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = lp_window_title(watch, window, &buffer, buffer.count)
        guard length >= 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
