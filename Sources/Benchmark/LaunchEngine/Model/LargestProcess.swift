/// Which process of a tree had the largest memory peak.
public struct LargestProcess: Sendable, Equatable, Codable {
    /// Its process id.
    public var pid: Int32
    /// Its command name (/proc/PID/comm, at most 15 bytes).
    public var name: String
    /// Its peak resident set size, in bytes.
    public var maxRSSBytes: UInt64

    /// The process `pid`, named `name`, which peaked at `maxRSSBytes`.
    public init(pid: Int32, name: String, maxRSSBytes: UInt64) {
        self.pid = pid
        self.name = name
        self.maxRSSBytes = maxRSSBytes
    }
}
