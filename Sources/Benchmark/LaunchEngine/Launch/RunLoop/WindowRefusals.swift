import LaunchSupport

/// The windows a `--ready window`/`frame` run saw that did not count, and
/// why: what a run that times out says about the display, as the notify
/// probe names an ignored `READY=1`.
struct WindowRefusals {
    /// Top-level windows of other processes: the window, its owner's pid
    /// and command.
    var foreign: [(window: UInt32, pid: Int32, command: String)] = []
    /// The run's windows mapped with a title the pattern does not match.
    var titles: [UInt32: String] = [:]
    /// The run's mapped windows, and how many drawings left them one flat colour.
    var blankDrawings: [UInt32: Int] = [:]
    /// Override-redirect windows mapped (menus, tooltips, splash screens).
    var overrideRedirect: Set<UInt32> = []

    /// Sentences, at most a few of each kind.
    func sentences(
        launched: Int32, pattern: String?, waitsForFrame: Bool, display: String, unanswered: (count: Int, nanoseconds: UInt64)?
    ) -> [String] {
        var lines: [String] = []
        for seen in foreign.prefix(3) {
            lines.append(
                "ignored top-level window \(Self.hex(seen.window)) on the X display '\(display)': it belongs to pid \(seen.pid) "
                    + "(\(seen.command)), which is not the launched process (pid \(launched)) nor one of its descendants "
                    + "(a program that hands its window to a running instance, or a window of another program)")
        }
        if foreign.count > 3 { lines.append("and \(foreign.count - 3) more top-level windows of other processes") }
        if let pattern {
            for (window, title) in titles.sorted(by: { $0.key < $1.key }).prefix(3) {
                let shown = TerminalText.sanitized(String(title.prefix(200)))
                lines.append(
                    "ignored window \(Self.hex(window)) of the run: its title \"\(shown)\" does not match the pattern '\(pattern)'")
            }
        }
        if waitsForFrame {
            for (window, count) in blankDrawings.sorted(by: { $0.key < $1.key }).prefix(3) {
                lines.append(
                    "window \(Self.hex(window)) of the run was mapped, but its \(count) drawing(s) all left the part of it on "
                        + "the screen one flat colour (no frame yet)")
            }
        }
        if !overrideRedirect.isEmpty {
            lines.append(
                "\(overrideRedirect.count) override-redirect window(s) (menus, tooltips, splash screens) were mapped; they never count")
        }
        if let unanswered {
            lines.append(
                "the X server at '\(display)' has not answered \(unanswered.count) question(s) about windows for "
                    + "\(Self.seconds(unanswered.nanoseconds)) (a frozen server?)")
        }
        return lines
    }

    private static func seconds(_ nanoseconds: UInt64) -> String {
        let tenths = nanoseconds / 100_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }

    private static func hex(_ window: UInt32) -> String { "0x" + String(window, radix: 16) }
}
