import LaunchSupport

/// A process's command name for messages: /proc/PID/comm, sanitised for
/// the terminal, or "gone".
enum ProcessName {
    static func of(_ pid: Int32) -> String {
        guard pid > 0, let text = ProcFile.read("/proc/\(pid)/comm") else { return "gone" }
        return TerminalText.sanitized(String(text.prefix { $0 != "\n" }))
    }
}
