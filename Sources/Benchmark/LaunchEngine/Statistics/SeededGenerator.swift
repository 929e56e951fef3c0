/// A small deterministic random number generator (SplitMix64, Steele, Lea &
/// Flood 2014), so that bootstrap intervals are the same on every run and
/// reports are reproducible.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that repeats its sequence for the same `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next number of the sequence.
    package mutating func next() -> UInt64 {
        // Wrapping arithmetic is the algorithm, not an accident.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
