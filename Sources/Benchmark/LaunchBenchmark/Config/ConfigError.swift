/// A config file that cannot be used: the file, the line and column, the
/// key, and what is wrong.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    /// The config file.
    public var file: String
    /// 1-based; nil when the problem is not at one place (an unreadable file).
    public var line: Int?
    /// The column of the offending value, when known.
    public var column: Int?
    /// Dotted path of the key: `targets[1].budgets[0].limit`; empty for the file itself.
    public var key: String
    /// What is wrong with it.
    public var message: String

    /// An error at `file:line:column`, in `key`.
    public init(file: String, line: Int? = nil, column: Int? = nil, key: String = "", message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// `launchprof.yml:12:7: targets[1].runs: must be at least 1, got 0`.
    public var description: String {
        var place = file
        if let line { place += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        return key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)"
    }
}
