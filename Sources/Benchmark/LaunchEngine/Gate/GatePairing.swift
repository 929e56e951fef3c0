#if canImport(Glibc)
import Glibc
#endif

/// Pairs a gate's runs as they arrive: each run with the nearest earlier
/// unpaired run of the other side that ran on the same CPU (or, with
/// ``sameCPU`` false, on any CPU), at most ``window`` positions back.
///
/// Why same CPU: on this project's 2-vCPU machine a 3 ms CPU-bound launch
/// took 3.15 ms on one vCPU and 3.7–3.9 ms on the other (issue 38), so an
/// unpaired median flips between the two modes; a ratio of two runs on the
/// same CPU carries only the change and that CPU's noise. A run whose
/// neighbours all ran elsewhere is left unpaired (counted, not used).
/// Runs of unknown CPU count as one CPU of their own.
///
/// Why not always: the CPU recorded is the one the launch's main thread
/// last ran on. A launch whose threads run at once on both CPUs, or that
/// moves off a busy one, is no one CPU's, and matching that CPU only
/// leaves runs out: on the async-main, Hummingbird and sample-app
/// programs left unpinned, each ABBA block's neighbours paired whatever
/// their CPU gave 1.18–1.29 times the information (pairs / spread²) of
/// same-CPU pairs, and on a single-threaded C program with a core busy
/// 0.96–1.02 times; on that C program unpinned on a quiet machine, 0.32
/// times (docs/gate.md, "Pairs when the launch spans CPUs"). In ABBA order
/// the neighbours are A₁B₁ and B₂A₂, so half the pairs run base first.
///
/// The pairs are disjoint, so their log-ratios are independent given the
/// machine's state, which is what the interval of their centre
/// (`SequentialDecisionRule`) needs.
package struct GatePairing: Sendable, Equatable {
    /// How many positions apart two paired runs may be: 3 keeps every pair
    /// inside one ABBA block or across the boundary of two.
    package var window: Int
    /// Whether two runs pair only if they ran on the same CPU.
    package var sameCPU: Bool
    /// ln(head / base) of each pair, in the order they were formed.
    package private(set) var logRatios: [Double] = []
    /// The CPU of each pair whose runs ran on the same CPU (nil: unknown),
    /// in the order formed; a pair across CPUs counts in ``acrossCPUs``.
    package private(set) var cpus: [Int?] = []
    /// Pairs whose runs ran on different CPUs (only with ``sameCPU`` false).
    package private(set) var acrossCPUs = 0
    /// ln of one base run over another (on the same CPU with ``sameCPU``), the sign alternated
    /// pair by pair (later/earlier, then earlier/later) so that drift does
    /// not move its centre: the base against itself, the session's noise floor.
    package private(set) var baseLogRatios: [Double] = []
    /// Runs that found no partner within the window.
    package private(set) var unpaired = 0

    private var waiting: [GateObservation] = []
    private var waitingBase: [GateObservation] = []

    /// An empty pairing; `window` must be at least 1 (smaller is taken as 1).
    package init(window: Int = 3, sameCPU: Bool = true) {
        self.window = Swift.max(1, window)
        self.sameCPU = sameCPU
    }

    /// Adds the next run (positions must increase).
    package mutating func add(_ run: GateObservation) {
        expire(before: run.position)
        if let index = waiting.lastIndex(where: { $0.side != run.side && matches($0, run) }) {
            let partner = waiting.remove(at: index)
            let (base, head) = run.side == .head ? (partner, run) : (run, partner)
            logRatios.append(Self.log(head.value) - Self.log(base.value))
            if partner.cpu == run.cpu { cpus.append(run.cpu) } else { acrossCPUs += 1 }
        } else {
            waiting.append(run)
        }
        guard run.side == .base else { return }
        if let index = waitingBase.lastIndex(where: { matches($0, run) }) {
            let earlier = waitingBase.remove(at: index)
            let ratio = Self.log(run.value) - Self.log(earlier.value)
            baseLogRatios.append(baseLogRatios.count % 2 == 0 ? ratio : -ratio)
        } else {
            waitingBase.append(run)
        }
    }

    /// Whether two runs may pair: on the same CPU, or on any.
    private func matches(_ a: GateObservation, _ b: GateObservation) -> Bool { !sameCPU || a.cpu == b.cpu }

    /// Drops waiting runs too far back to pair with the run at `position`.
    private mutating func expire(before position: Int) {
        let expired = waiting.filter { position - $0.position > window }
        unpaired += expired.count
        waiting.removeAll { position - $0.position > window }
        // Base runs are 3 apart within a block (A B B A): one more.
        waitingBase.removeAll { position - $0.position > window + 1 }
    }

    /// ln of a positive value; a value that is not positive (which a
    /// measured time never is) is taken as the smallest positive double
    /// rather than producing −∞ or NaN.
    private static func log(_ value: Double) -> Double {
        Glibc.log(Swift.max(value, Double.leastNormalMagnitude))
    }
}
