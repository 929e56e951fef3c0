import LaunchProf
import LaunchProfDeferred

/// A PSI trigger: notify when tasks stalled on memory for at least `stall`
/// within any `window` (see the kernel's Documentation/accounting/psi.rst).
public struct MemoryPressureTrigger: Sendable, Equatable {
    /// `some`: at least one task stalled; `full`: all non-idle tasks did.
    public enum Kind: String, Sendable, Equatable {
        /// At least one task stalled on memory.
        case some
        /// All non-idle tasks stalled on memory at once.
        case full
    }

    /// Which stall counts: one task's (`some`) or all tasks' (`full`).
    public var kind: Kind
    /// How long tasks must stall on memory within `window` for the trigger to fire.
    public var stall: Duration
    /// Without CAP_SYS_RESOURCE the kernel accepts only multiples of 2 s.
    public var window: Duration
    /// The pressure file; nil picks the process's cgroup `memory.pressure`
    /// (cgroup v2) and falls back to /proc/pressure/memory.
    public var path: String?

    /// A trigger on `stall` of memory stall within `window` (the defaults: 150 ms in 2 s, `some`).
    public init(kind: Kind = .some, stall: Duration = .milliseconds(150), window: Duration = .seconds(2), path: String? = nil) {
        self.kind = kind
        self.stall = stall
        self.window = window
        self.path = path
    }

    /// The text written to the pressure file, e.g. "some 150000 2000000".
    public var triggerText: String {
        "\(kind.rawValue) \(RuntimeClock.nanoseconds(stall) / 1_000) \(RuntimeClock.nanoseconds(window) / 1_000)"
    }

    func problem() -> String? {
        guard window >= .milliseconds(500), window <= .seconds(10) else {
            return "memoryPressure.window must be between 500 ms and 10 s (the kernel's limits), got \(window)"
        }
        guard stall > .zero, stall <= window else {
            return "memoryPressure.stall must be positive and at most the window (\(window)), got \(stall)"
        }
        return nil
    }
}
