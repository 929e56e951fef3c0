/// A target's launch profile as the results keep it (`run --profile`):
/// how much was sampled, the hottest functions, and where the profile's
/// files are. The samples themselves stay in those files.
public struct ProfileRecord: Sendable, Equatable, Codable {
    /// A function and how much of the sampled CPU time it was the leaf of.
    public struct HotFrame: Sendable, Equatable, Codable {
        public var name: String
        public var module: String
        /// Timer periods in which it was the leaf (a sample weighs 1 + the
        /// periods the kernel folded into its signal).
        public var weight: UInt64
        /// Of the profile's whole weight, 0…1.
        public var share: Double

        public init(name: String, module: String, weight: UInt64, share: Double) {
            self.name = name
            self.module = module
            self.weight = weight
            self.share = share
        }
    }

    public var target: String
    public var launches: Int
    public var samples: Int
    /// Timer periods sampled, in all (each ≈ 1/rateHz s of one thread's CPU).
    public var weight: UInt64
    public var rateHz: Int
    /// The hottest functions by self samples, hottest first (at most ten).
    public var hottest: [HotFrame]
    public var flameGraph: String
    public var speedscope: String
    public var folded: String
    public var warnings: [String]

    public init(
        target: String, launches: Int, samples: Int, weight: UInt64, rateHz: Int, hottest: [HotFrame], flameGraph: String,
        speedscope: String, folded: String, warnings: [String] = []
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
    }
}
