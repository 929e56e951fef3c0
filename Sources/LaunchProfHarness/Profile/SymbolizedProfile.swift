/// The samples of one trace with every PC turned into a name: the model the
/// folded, speedscope and flame graph writers share.
public struct SymbolizedProfile: Sendable {
    /// A function (or an unknown address) in a module.
    public struct Frame: Hashable, Sendable {
        public var name: String
        /// The module's file name ("" when the address is in no module).
        public var module: String
    }

    /// One sample: frame indices from the root (outermost) to the leaf.
    public struct Stack: Sendable {
        public var threadID: UInt32
        public var timestamp: UInt64
        public var weight: UInt32
        public var frames: [Int]
    }

    public var frames: [Frame]
    public var stacks: [Stack]
    public var threadNames: [UInt32: String]
    public var sampling: TraceSampling
    /// Problems met while symbolizing (unreadable module, build id mismatch).
    public var warnings: [String]
    /// A name for the profile (the program).
    public var name: String

    /// Nanoseconds of CPU time one unit of weight stands for.
    public var nanosecondsPerWeight: Double { 1e9 / Double(sampling.rate) }

    /// The total weight of all samples.
    public var totalWeight: UInt64 { stacks.reduce(0) { $0 + UInt64($1.weight) } }

    /// "name (tid)" for a thread.
    public func threadLabel(_ tid: UInt32) -> String {
        if let name = threadNames[tid], !name.isEmpty { return "\(name) (\(tid))" }
        return "thread \(tid)"
    }
}
