import LaunchSupport

/// A notify message that did not count: who sent it and what it said.
package struct NotifyRefusal: Sendable, Equatable {
    /// The sender's pid from its credentials (0: none).
    package var pid: Int32
    /// Its command name when the message arrived.
    package var command: String
    /// The message's fields, as `KEY=VALUE` lines.
    package var fields: [String]

    init(pid: Int32, fields: [String]) {
        self.pid = pid
        self.fields = fields
        command = pid > 0 ? ProcessName.of(pid) : "unknown"
    }

    /// "READY=1", or the first field (sanitised, at most 60 characters).
    package var summary: String { Self.summary(of: fields) }

    /// "READY=1" when `fields` hold it, else the first field (sanitised, at
    /// most 60 characters): a message as a run's notes name it.
    package static func summary(of fields: [String]) -> String {
        if fields.contains("READY=1") { return "READY=1" }
        let first = TerminalText.sanitized(fields.first ?? "an empty message")
        return first.count > 60 ? String(first.prefix(60)) + "…" : first
    }
}
