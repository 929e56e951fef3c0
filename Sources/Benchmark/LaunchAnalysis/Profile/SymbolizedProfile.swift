/// The samples of one or more traces (launches of the same program) with
/// every PC turned into a name: the model the folded, speedscope and flame
/// graph writers share.
public struct SymbolizedProfile: Sendable {
    /// A function (or an unknown address) in a module. One frame per
    /// function, not per line: where in the function a sample was is the
    /// stack's ``Stack/location``.
    public struct Frame: Hashable, Sendable {
        /// The function, demangled.
        public var name: String
        /// The module's file name ("" when the address is in no module).
        public var module: String
        /// The source file the function is in and the line it starts on,
        /// from the module's debug info (nil without it, or without llvm-symbolizer).
        public var file: String? = nil
        /// The source file and line, when llvm-symbolizer found them.
        public var line: Int? = nil
        /// A call the compiler inlined into its caller (the frame below it):
        /// it has no machine frame of its own, the debug info tells of it.
        public var inlined = false

        /// A frame of `name` in `module`.
        public init(name: String, module: String, file: String? = nil, line: Int? = nil, inlined: Bool = false) {
            (self.name, self.module, self.file, self.line, self.inlined) = (name, module, file, line, inlined)
        }
    }

    /// One sample: frame indices from the root (outermost) to the leaf.
    public struct Stack: Sendable {
        /// Which launch (index into ``runStarts``) it was taken in.
        public var run: Int = 0
        /// The sampled thread.
        public var threadID: UInt32
        /// When the sample was taken (`CLOCK_MONOTONIC`, nanoseconds).
        public var timestamp: UInt64
        /// The CPU time the sample stands for, in units of the profile's weight (see SymbolizedProfile/totalWeight).
        public var weight: UInt32
        /// Indexes into ``SymbolizedProfile/frames``, outermost first.
        public var frames: [Int]
        /// The source line the leaf was executing, when the debug info says.
        public var location: SourceLocation? = nil

        /// A sample of `threadID` at `timestamp` in launch `run`.
        public init(
            run: Int = 0, threadID: UInt32, timestamp: UInt64, weight: UInt32, frames: [Int],
            location: SourceLocation? = nil
        ) {
            (self.run, self.threadID, self.timestamp, self.weight) = (run, threadID, timestamp, weight)
            (self.frames, self.location) = (frames, location)
        }
    }

    /// Every distinct frame, indexed by the stacks.
    public var frames: [Frame]
    /// Every sample's stack, in time order.
    public var stacks: [Stack]
    /// The sampled threads' names by thread id.
    public var threadNames: [UInt32: String]
    /// The launches' sampling, merged: samples of all, lost and failed
    /// counts summed, flags of any (``TraceSampling/merged(_:)``).
    public var sampling: TraceSampling
    /// When sampling started in each launch (CLOCK_MONOTONIC ns).
    public var runStarts: [UInt64]
    /// Problems met while symbolizing (unreadable module, build id
    /// mismatch, llvm-symbolizer failing).
    public var warnings: [String]
    /// Sampled modules have debug info, but no llvm-symbolizer was found to
    /// read it: the profile has no source lines nor inlined frames.
    public var lineToolMissing = false
    /// A name for the profile (the program).
    public var name: String

    /// A profile of `stacks` over `frames`.
    public init(
        frames: [Frame], stacks: [Stack], threadNames: [UInt32: String], sampling: TraceSampling,
        runStarts: [UInt64], warnings: [String], lineToolMissing: Bool = false, name: String
    ) {
        (self.frames, self.stacks, self.threadNames, self.sampling) = (frames, stacks, threadNames, sampling)
        (self.runStarts, self.warnings, self.lineToolMissing, self.name) = (runStarts, warnings, lineToolMissing, name)
    }

    /// Nanoseconds of CPU time one unit of weight stands for.
    public var nanosecondsPerWeight: Double { 1e9 / Double(sampling.rate) }

    /// The total weight of all samples.
    public var totalWeight: UInt64 { stacks.reduce(0) { $0 + UInt64($1.weight) } }

    /// How many launches were sampled.
    public var runCount: Int { runStarts.count }

    /// "name (tid)" for a thread, after "run N: " when there are several.
    public func threadLabel(_ tid: UInt32, run: Int = 0) -> String {
        let thread = threadNames[tid].flatMap { $0.isEmpty ? nil : "\($0) (\(tid))" } ?? "thread \(tid)"
        return runCount > 1 ? "run \(run + 1): \(thread)" : thread
    }
}
