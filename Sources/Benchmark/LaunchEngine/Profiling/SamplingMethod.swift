import CLaunchProfSpawn
import Glibc

/// How a launch's CPU-clock samples are taken (docs/sampling.md).
public enum SamplingMethod: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// The kernel samples, as `perf record --call-graph dwarf` does: a
    /// task-clock event per CPU that the launched tree inherits, each sample
    /// a copy of the user registers and stack, unwound by launchprof after
    /// the run. Nothing runs in the program: no library, no signal.
    case kernel
    /// The program samples itself: SIGPROF on each thread's perf event and
    /// libunwind in the handler (liblaunchprof-preload.so, or LaunchProf's
    /// own sampler). Needed for the wall clock, and where perf events are
    /// refused.
    case inProcess = "in-process"

    public var description: String { rawValue }

    /// "kernel" or "in-process", or an error that names the flag and the choices.
    public init(parsing text: String, flag: String) throws(SamplingChoiceError) {
        guard let method = Self(rawValue: text) else {
            throw SamplingChoiceError(flag: flag, value: text, choices: Self.allCases.map(\.rawValue))
        }
        self = method
    }

    /// Why the kernel will not sample here (perf events refused), or nil.
    public static func kernelUnavailableReason() -> String? {
        let error = lp_perf_sampling_errno()
        guard error != 0 else { return nil }
        let reason = String(cString: strerror(error))
        switch error {
        case EACCES, EPERM:
            return
                "perf_event_open refused a sampling event (\(reason)): kernel.perf_event_paranoid is above 2, or a seccomp filter (a container's) forbids it"
        case ENOSYS:
            return "this kernel has no perf events (\(reason))"
        default:
            return "perf_event_open refused a sampling event (\(reason))"
        }
    }
}
