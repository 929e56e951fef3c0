import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Terminal colours, applied only when the caller asked for colour (the
/// command decides from isatty(1) and NO_COLOR); otherwise text passes through.
package struct ANSIStyle: Sendable {
    /// Whether styles are applied; when false every method returns its text unchanged.
    package var enabled: Bool

    /// A style that colours when `enabled` (see ``wanted(descriptor:environment:)``).
    package init(enabled: Bool) { self.enabled = enabled }

    /// Whether output to `descriptor` should be coloured: it is a terminal,
    /// `NO_COLOR` is unset or empty (https://no-color.org) and `TERM` is not "dumb".
    package static func wanted(
        descriptor: Int32 = STDOUT_FILENO, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        guard isatty(descriptor) == 1 else { return false }
        return (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// `text` in bold.
    package func bold(_ text: String) -> String { wrap(text, "1") }
    /// `text` dimmed.
    package func dim(_ text: String) -> String { wrap(text, "2") }
    /// `text` in yellow: warnings.
    package func yellow(_ text: String) -> String { wrap(text, "33") }
    /// `text` in green: passes.
    package func green(_ text: String) -> String { wrap(text, "32") }
    /// `text` in red: failures.
    package func red(_ text: String) -> String { wrap(text, "31") }
    /// `text` in cyan: names and headings.
    package func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
