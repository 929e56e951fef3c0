/// A target's launch profile as the results keep it (`run --profile`):
/// how much was sampled, the hottest functions, and where the profile's
/// files are. The samples themselves stay in those files.
public struct ProfileRecord: Sendable, Equatable, Codable {
    /// A function and how much of the sampled CPU time it was the leaf of.
    public struct HotFrame: Sendable, Equatable, Codable {
        /// The function, demangled.
        public var name: String
        /// The file it is in.
        public var module: String
        /// Timer periods in which it was the leaf (a sample weighs 1 + the
        /// periods the kernel folded into its signal).
        public var weight: UInt64
        /// Of the profile's whole weight, 0…1.
        public var share: Double

        /// A function `name` of `module` with `weight` self samples, `share` of all.
        public init(name: String, module: String, weight: UInt64, share: Double) {
            self.name = name
            self.module = module
            self.weight = weight
            self.share = share
        }
    }

    /// The profiled target.
    public var target: String
    /// How many launches were sampled.
    public var launches: Int
    /// How many samples they gave.
    public var samples: Int
    /// Timer periods sampled, in all (each ≈ 1/rateHz s of one thread's CPU).
    public var weight: UInt64
    /// The sampling rate asked for, per CPU-second of each thread (per
    /// second of the wall clock with ``clock`` `wall`).
    public var rateHz: Int
    /// What a period counted: `cpu` (each thread's CPU time) or `wall`
    /// (every thread, running or waiting; stacks rooted at `[on CPU]`,
    /// `[off CPU]` or `[waiting for CPU]`). nil in results written before it
    /// was recorded.
    public var clock: String?
    /// The hottest functions by self samples, hottest first (at most ten).
    public var hottest: [HotFrame]
    /// The flame graph SVG's path.
    public var flameGraph: String
    /// The speedscope JSON's path.
    public var speedscope: String
    /// The folded stacks' path.
    public var folded: String
    /// The gzipped pprof profile's path; nil in results written before
    /// launchprof wrote one.
    public var pprof: String?
    /// What the sampler warned about (main thread only, loader unguarded, …).
    public var warnings: [ResultWarning]

    /// A record with these contents.
    public init(
        target: String, launches: Int, samples: Int, weight: UInt64, rateHz: Int, hottest: [HotFrame], flameGraph: String,
        speedscope: String, folded: String, warnings: [ResultWarning] = [], clock: String? = nil
    ) {
        self.target = target
        self.launches = launches
        self.samples = samples
        self.weight = weight
        self.rateHz = rateHz
        self.hottest = hottest
        self.flameGraph = flameGraph
        self.speedscope = speedscope
        self.folded = folded
        self.warnings = warnings
        self.clock = clock
    }
}
