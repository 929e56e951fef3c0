import LaunchProfFiles

#if canImport(Glibc)
import Glibc
#endif

/// A single status line that rewrites itself on a terminal ("\r" + clear
/// line), e.g. `sample-app (warm)  run 12/30  median 14.2 ms  ETA 3 s`.
/// When the stream is not a terminal it does nothing, so logs and pipes get
/// no control characters.
package struct ProgressLine: Sendable {
    /// What one update shows.
    package struct Status: Sendable, Equatable {
        /// The target and mode.
        package var label: String
        /// 1-based number of the run just finished.
        package var run: Int
        /// Planned runs, nil while adaptive stopping decides.
        package var total: Int?
        /// Median time to ready so far, ns.
        package var median: Double?
        /// The estimated time left, when known.
        package var remaining: Duration?

        /// A status of run `run` of `total`.
        package init(label: String, run: Int, total: Int? = nil, median: Double? = nil, remaining: Duration? = nil) {
            self.label = label
            self.run = run
            self.total = total
            self.median = median
            self.remaining = remaining
        }
    }

    /// Whether standard error is a terminal (nothing is drawn otherwise).
    package let isEnabled: Bool
    private let descriptor: Int32
    private let width: @Sendable () -> Int

    /// A progress line on `descriptor`. With `enabled` nil it is on when the
    /// descriptor is a terminal that understands "clear line" (TERM is not "dumb").
    package init(descriptor: Int32 = STDERR_FILENO, enabled: Bool? = nil) {
        self.descriptor = descriptor
        isEnabled = enabled ?? (isatty(descriptor) == 1 && getenv("TERM").map { String(cString: $0) } != "dumb")
        width = { Self.terminalWidth(descriptor) }
    }

    /// The text of an update, without control characters.
    package static func text(_ status: Status) -> String {
        var parts = [status.label, status.total.map { "run \(status.run)/\($0)" } ?? "run \(status.run)"]
        if let median = status.median { parts.append("median \(HumanUnits.duration(median))") }
        if let remaining = status.remaining { parts.append("ETA \(eta(remaining))") }
        return parts.joined(separator: "  ")
    }

    /// Replaces the line with `status`, cut to the terminal width so it never
    /// wraps (a wrapped line could not be rewritten by "\r").
    package func update(_ status: Status) {
        guard isEnabled else { return }
        let text = String(Self.text(status).prefix(max(10, width() - 1)))
        emit("\r\u{1B}[2K" + text)
    }

    /// Erases the line, before the report is printed.
    package func clear() {
        guard isEnabled else { return }
        emit("\r\u{1B}[2K")
    }

    private func emit(_ text: String) {
        // A progress line that cannot be drawn is not worth failing a run for.
        StandardStream(descriptor: descriptor).write(text)
    }

    /// "3 s", "2 min 5 s", "1 h 2 min".
    static func eta(_ duration: Duration) -> String {
        let seconds = max(0, Int(duration.components.seconds) + (duration.components.attoseconds > 0 ? 1 : 0))
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min \(seconds % 60) s" }
        return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
    }

    private static func terminalWidth(_ descriptor: Int32) -> Int {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
