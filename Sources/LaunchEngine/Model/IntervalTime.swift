import LaunchAnalysis

/// A signpost interval's time in one run (`--trace-runs`): every interval
/// of that name on that kind of thread, begun before ready, added up.
public struct IntervalTime: Sendable, Equatable, Codable {
    /// The interval's name.
    public var name: String
    /// `main` for the launched process's main thread, `other` for the rest:
    /// the thread role the attribution of a change names.
    public var thread: String
    /// Their total duration, in nanoseconds (cut at ready).
    public var nanoseconds: UInt64
    /// How many there were.
    public var count: Int

    /// `count` intervals `name` on `thread` taking `nanoseconds` in all.
    public init(name: String, thread: String, nanoseconds: UInt64, count: Int) {
        self.name = name
        self.thread = thread
        self.nanoseconds = nanoseconds
        self.count = count
    }

    /// `main/NAME` or `other/NAME`: the key of its metric (`interval:main/NAME`).
    public var key: String { "\(thread)/\(name)" }
}
