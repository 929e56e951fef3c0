import LaunchEngine

/// How a gate measures and decides: the run settings `run` has where they
/// make sense, plus the decision rule's.
public struct GateSettings: Sendable {
    /// The change that matters, as a fraction (docs/gate.md: why 3%).
    public var threshold: Double = GateSettings.defaultThreshold
    /// The chance of a wrong verdict over the whole session.
    public var alpha: Double = 0.05
    /// How the error is spent over the looks.
    public var spending: ErrorSpending = .pocock
    /// The interval each look takes (docs/gate.md: why both, intersected).
    public var interval: GateInterval = .both
    /// The trimmed mean's guard: the fraction of each tail its pairs'
    /// trimmed mean drops (0.2); nil: the median-type interval alone
    /// decides (docs/gate.md, "The trimmed mean's guard").
    public var trimming: Double? = 0.2
    /// `--affinity`: the CPUs both programs run on; nil leaves them where
    /// the scheduler puts them, paired by the CPU they ran on, or to the
    /// pilot (`choosesAffinity`; docs/gate.md, "Pinning": what each choice
    /// buys).
    public var affinity: CPUAffinity?
    /// `--affinity auto`, the default: a pilot of base and head unpinned and
    /// pinned to a few CPUs chooses `affinity` before the gate
    /// (`AffinityPilot`, `AffinityChoice`; docs/gate.md, "Pinning"); ignored
    /// when `affinity` is set; false (`--affinity none`): where the
    /// scheduler puts them.
    public var choosesAffinity = true
    /// The most measured runs per side: the error-spending schedule's
    /// information fraction is pairs over this. Large, so that the time
    /// budget is what usually ends a session, and its closing look spends
    /// all the error left (a 3.5 ms program reached 3000 runs per side in
    /// 47 s and then closed at 99.6%; with 10000 it closes at 60 s at about 98%).
    public var maxRuns: Int = 10000
    /// The measuring budget; nil: only `maxRuns`.
    public var maxTime: Duration? = .seconds(120)
    /// Unmeasured runs per side first.
    public var warmup: Int = 2
    /// cold or warm.
    public var mode: LaunchMode = .warm
    /// A run neither ready nor exited by then is killed.
    public var timeout: Duration = RunDefaults.timeout
    /// How long a program stopped after ready may take to exit.
    public var grace: Duration = RunDefaults.grace
    /// Where the programs' output goes.
    package var output: OutputPlan = .discard
    /// `--counts`: instructions are counted and judged too.
    public var counts: CountSource?
    /// The threshold for instruction counts, which barely vary (docs/counts.md).
    public var instructionThreshold: Double = 0.01
    /// After a regressed verdict, this many traced runs of each side for
    /// the Why (docs/gate.md, "The Why"), besides the gate's own runs and
    /// five audited launches per side for the loader's time per library;
    /// 0: no Why. Tracing is for programs that report to a LaunchProf
    /// tracer; other programs get the Why of the gate's own runs.
    public var whyRuns: Int = 20
    /// Whether SIGINT/SIGTERM stop the gate (the CLI's way); a library
    /// caller cancels its task instead.
    public var catchesSignals = false

    /// The default `--threshold`, 3%: docs/gate.md says how it was chosen.
    public static let defaultThreshold = 0.03

    /// Default settings.
    public init() {}

    /// The decision rule these settings make for time to ready. With
    /// `counts`, time and instructions each get half of `alpha`, so the
    /// chance that either gives a wrong verdict stays at most `alpha`
    /// (Bonferroni; docs/gate.md).
    package func rule() throws(GateRuleError) -> SequentialDecisionRule {
        try SequentialDecisionRule(
            threshold: threshold, alpha: counts == nil ? alpha : alpha / 2, spending: spending, maxPairs: maxRuns,
            interval: interval, trimming: trimming)
    }

    /// The rule for instructions to ready (`instructionThreshold`, half of
    /// `alpha`), without the trimmed mean's guard: counts do not wait for
    /// the scheduler's tick; nil without `counts`.
    package func instructionRule() throws(GateRuleError) -> SequentialDecisionRule? {
        guard counts != nil else { return nil }
        return try SequentialDecisionRule(
            threshold: instructionThreshold, alpha: alpha / 2, spending: spending, maxPairs: maxRuns, interval: interval,
            trimming: nil)
    }
}
