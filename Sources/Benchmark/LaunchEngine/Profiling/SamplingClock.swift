/// What the sampler's period counts (docs/sampling.md): each thread's CPU
/// time (where the launch computed), or the wall clock on every thread,
/// running or waiting (where it waited too).
public enum SamplingClock: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// A sample every period of a thread's CPU time: waiting is invisible.
    case cpu
    /// A sample of every thread every period of wall-clock time, each marked
    /// on or off CPU: a thread blocked in read(2), on a lock or in a sleep is
    /// sampled where it waits.
    case wall

    /// The value of LAUNCHPROF_SAMPLE_CLOCK that asks for it.
    public var environmentValue: String { rawValue }

    public var description: String { rawValue }

    /// "cpu" or "wall", or an error that names the flag and the choices.
    public init(parsing text: String, flag: String) throws(SamplingChoiceError) {
        guard let clock = Self(rawValue: text) else {
            throw SamplingChoiceError(flag: flag, value: text, choices: Self.allCases.map(\.rawValue))
        }
        self = clock
    }
}
