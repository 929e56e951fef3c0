import LaunchAnalysis

/// A signpost interval's time in one run (`--trace-runs`): every interval
/// of that name on that kind of thread, begun before ready, added up.
public struct IntervalTime: Sendable, Equatable, Codable {
    /// The interval's name.
    public var name: String
    /// Its role on the launch's critical path, which the attribution of a
    /// change names: `path` (a step of the path to launch complete, on
    /// whatever thread), `enclosing` (a path step that contains others),
    /// `off` (work the launch did not wait for). Results written before the
    /// critical path have `main` (the process's main thread) or `other`.
    public var thread: String
    /// Their total duration, in nanoseconds (cut at ready).
    public var nanoseconds: UInt64
    /// How many there were.
    public var count: Int
    /// For `path` intervals: whether every one ran on the process's main
    /// thread (then its CPU time, `LP1 maincpu`, is the path's); nil otherwise.
    public var onMainThread: Bool? = nil
    /// How long the threads that ran them were on CPU inside them, in
    /// nanoseconds (each interval's thread CPU time, end minus begin; the
    /// rest of ``nanoseconds`` was off CPU). Nil when any of them is unknown:
    /// begun and ended on different threads, cut at ready, or traced without
    /// the thread's CPU time.
    public var onCPU: UInt64? = nil

    /// `count` intervals `name` on `thread` taking `nanoseconds` in all.
    public init(name: String, thread: String, nanoseconds: UInt64, count: Int) {
        self.name = name
        self.thread = thread
        self.nanoseconds = nanoseconds
        self.count = count
    }

    /// `path/NAME`, `enclosing/NAME`, `off/NAME` (`main/NAME`, `other/NAME`
    /// in older results): the key of its metric (`interval:path/NAME`).
    public var key: String { "\(thread)/\(name)" }
}
