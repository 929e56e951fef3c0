/// The samples of one or more traces (launches of the same program) with
/// every PC turned into a name: the model the folded, speedscope and flame
/// graph writers share.
package struct SymbolizedProfile: Sendable {
    /// A function (or an unknown address) in a module. One frame per
    /// function, not per line: where in the function a sample was is the
    /// stack's `Stack/location`.
    package struct Frame: Hashable, Sendable {
        /// The function, demangled.
        package var name: String
        /// The module's file name ("" when the address is in no module).
        package var module: String
        /// The source file the function is in and the line it starts on,
        /// from the module's debug info (nil without it, or without llvm-symbolizer).
        package var file: String? = nil
        /// The source file and line, when llvm-symbolizer found them.
        package var line: Int? = nil
        /// A call the compiler inlined into its caller (the frame below it):
        /// it has no machine frame of its own, the debug info tells of it.
        package var inlined = false

        /// A frame of `name` in `module`.
        package init(name: String, module: String, file: String? = nil, line: Int? = nil, inlined: Bool = false) {
            (self.name, self.module, self.file, self.line, self.inlined) = (name, module, file, line, inlined)
        }
    }

    /// One sample: frame indices from the root (outermost) to the leaf.
    package struct Stack: Sendable {
        /// Which launch (index into ``runStarts``) it was taken in.
        package var run: Int = 0
        /// The sampled thread.
        package var threadID: UInt32
        /// When the sample was taken (`CLOCK_MONOTONIC`, nanoseconds).
        package var timestamp: UInt64
        /// The CPU time the sample stands for, in units of the profile's weight (see SymbolizedProfile/totalWeight).
        package var weight: UInt32
        /// Indexes into `SymbolizedProfile/frames`, outermost first.
        package var frames: [Int]
        /// The source line the leaf was executing, when the debug info says.
        package var location: SourceLocation? = nil

        /// A sample of `threadID` at `timestamp` in launch `run`.
        package init(
            run: Int = 0, threadID: UInt32, timestamp: UInt64, weight: UInt32, frames: [Int],
            location: SourceLocation? = nil
        ) {
            (self.run, self.threadID, self.timestamp, self.weight) = (run, threadID, timestamp, weight)
            (self.frames, self.location) = (frames, location)
        }
    }

    /// Every distinct frame, indexed by the stacks.
    package var frames: [Frame]
    /// Every sample's stack, in time order.
    package var stacks: [Stack]
    /// The sampled threads' names by thread id.
    package var threadNames: [UInt32: String]
    /// The launches' sampling, merged: samples of all, lost and failed
    /// counts summed, flags of any (`TraceSampling/merged(_:)`).
    package var sampling: TraceSampling
    /// When sampling started in each launch (CLOCK_MONOTONIC ns).
    package var runStarts: [UInt64]
    /// Problems met while symbolizing (unreadable module, build id
    /// mismatch, llvm-symbolizer failing).
    package var warnings: [String]
    /// Sampled modules have debug info, but no llvm-symbolizer was found to
    /// read it: the profile has no source lines nor inlined frames.
    package var lineToolMissing = false
    /// A name for the profile (the program).
    package var name: String

    /// A profile of `stacks` over `frames`.
    package init(
        frames: [Frame], stacks: [Stack], threadNames: [UInt32: String], sampling: TraceSampling,
        runStarts: [UInt64], warnings: [String], lineToolMissing: Bool = false, name: String
    ) {
        (self.frames, self.stacks, self.threadNames, self.sampling) = (frames, stacks, threadNames, sampling)
        (self.runStarts, self.warnings, self.lineToolMissing, self.name) = (runStarts, warnings, lineToolMissing, name)
    }

    /// Nanoseconds of CPU time one unit of weight stands for.
    package var nanosecondsPerWeight: Double { 1e9 / Double(sampling.rate) }

    /// The total weight of all samples.
    package var totalWeight: UInt64 { stacks.reduce(0) { $0 + UInt64($1.weight) } }

    /// How many samples were taken: a stack each, but for the periods a
    /// merged signal stood for without a stack of their own (a stack of
    /// `[periods without a stack]` alone, `TraceSample/merged`).
    package var sampleCount: Int { stacks.count - sampling.samples.count { $0.unstackedPeriods > 0 } }

    /// How many launches were sampled.
    package var runCount: Int { runStarts.count }

    /// "name (tid)" for a thread, after "run N: " when there are several.
    package func threadLabel(_ tid: UInt32, run: Int = 0) -> String {
        let thread = threadNames[tid].flatMap { $0.isEmpty ? nil : "\($0) (\(tid))" } ?? "thread \(tid)"
        return runCount > 1 ? "run \(run + 1): \(thread)" : thread
    }
}
