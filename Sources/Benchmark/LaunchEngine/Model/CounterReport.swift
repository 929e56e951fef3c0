/// Which counters a result measured, by what, and which it could not, with
/// why: said in the terminal and kept in the JSON, so a count is never read
/// without knowing what it counted.
public struct CounterReport: Sendable, Equatable, Codable {
    /// A counter that was asked for and not measured.
    public struct Gap: Sendable, Equatable, Codable {
        /// Its metric key (`instructions`, `cycles`, …).
        public var counter: String
        /// Why: the kernel's answer (`ENOENT: this machine has no hardware
        /// counter for it`), or what the source cannot count.
        public var reason: String

        /// `counter` was not measured because of `reason`.
        public init(counter: String, reason: String) {
            self.counter = counter
            self.reason = reason
        }
    }

    /// What counted.
    public var source: CountSource
    /// The metric keys measured.
    public var measured: [String]
    /// The counters not measured, and why.
    public var unavailable: [Gap]
    /// What the counts include and leave out, and where they stop.
    public var scope: String

    /// A report of counts taken by `source`.
    public init(source: CountSource, measured: [String], unavailable: [Gap], scope: String) {
        self.source = source
        self.measured = measured
        self.unavailable = unavailable
        self.scope = scope
    }
}
