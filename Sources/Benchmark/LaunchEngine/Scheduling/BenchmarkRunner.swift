import Foundation
import Glibc
import LaunchSupport

/// The scheduler: runs every target in every mode, interleaved run by run
/// (A B A B …) so slow drift of a shared machine hits all alike; warm-ups
/// first; cold runs prepared before each launch; stops each target and mode
/// by its ``StoppingRule``; stops everything on the first failed run or on
/// SIGINT and returns what was measured.
///
/// Adaptive stopping uses ``StoppingRule/shouldStop(runsSoFar:elapsed:)``,
/// with `elapsed` the wall time since the measured runs began (all targets
/// together, since they interleave).
package struct BenchmarkRunner {
    /// The targets, modes and run counts.
    package var plan: BenchmarkPlan
    /// What runs one launch and measures it.
    package var executor: any RunExecutor
    /// Needed for cold mode; prepares the page cache before each cold run.
    package var coldCache: (any ColdCachePreparer)?
    /// Stops the benchmark when it fires; nil: only a failed run does.
    package var interrupt: InterruptMonitor?
    /// Called after each run (warm-ups too), with the runs measured so far.
    package var progress: ((BenchmarkProgress) -> Void)?

    /// A runner of `plan` through `executor`.
    package init(
        plan: BenchmarkPlan, executor: any RunExecutor, coldCache: (any ColdCachePreparer)? = nil,
        interrupt: InterruptMonitor? = nil, progress: ((BenchmarkProgress) -> Void)? = nil
    ) {
        self.plan = plan
        self.executor = executor
        self.coldCache = coldCache
        self.interrupt = interrupt
        self.progress = progress
    }

    /// One slot per target and mode, in plan order.
    private struct Slot {
        var result: BenchmarkResult
        var warmup: Int
        var stopping: StoppingRule
        /// What the run loop noticed (records from another process, …),
        /// each said once however many runs it happened in.
        var notes: [String] = []
        /// `--counts`: what the first counted run measured and could not.
        var counters: CounterReport?
        var warmups = 0
        var done = false

        mutating func keep(_ new: [String]) {
            for note in new where !notes.contains(note) { notes.append(note) }
        }
    }

    private enum Stop: Error {
        case interrupted
        case failed(RunFailure)
    }

    /// Runs the whole plan. Never throws: failures and interrupts end the
    /// benchmark early and are reported in the outcome.
    package func run() -> MeasuredRuns {
        var slots = plan.targets.flatMap { target in
            plan.modes(of: target).map {
                Slot(
                    result: BenchmarkResult(target: target, mode: $0), warmup: plan.warmup(of: target),
                    stopping: plan.stopping(of: target))
            }
        }
        var outcome = MeasuredRuns(results: [])
        do throws(Stop) {
            try runWarmups(&slots)
            try runMeasured(&slots)
        } catch {
            switch error {
            case .interrupted: outcome.interrupted = true
            case .failed(let failure): outcome.failure = failure
            }
        }
        outcome.results = slots.map { finish($0, outcome: outcome) }
        return outcome
    }

    private func runWarmups(_ slots: inout [Slot]) throws(Stop) {
        let rounds = slots.map(\.warmup).max() ?? 0
        for round in 0..<rounds {
            for index in slots.indices where round < slots[index].warmup {
                let slot = slots[index]
                let context = RunContext(
                    target: slot.result.target, mode: slot.result.mode, index: round, isWarmup: true)
                let (_, observed) = try launch(context, measuredSoFar: [], stopping: slot.stopping)
                slots[index].keep(observed.notes)
            }
        }
    }

    private func runMeasured(_ slots: inout [Slot]) throws(Stop) {
        let start = monotonicNanoseconds()
        while slots.contains(where: { !$0.done }) {
            for index in slots.indices where !slots[index].done {
                let result = slots[index].result
                let context = RunContext(
                    target: result.target, mode: result.mode, index: result.runs.count, isWarmup: false)
                let (measurement, observed) = try launch(context, measuredSoFar: result.runs, stopping: slots[index].stopping)
                slots[index].result.runs.append(measurement)
                slots[index].keep(observed.notes)
                if slots[index].counters == nil { slots[index].counters = observed.counterReport }
                let elapsed = Duration.nanoseconds(Int64(monotonicNanoseconds() - start))
                if slots[index].stopping.shouldStop(runsSoFar: slots[index].result.runs, elapsed: elapsed) {
                    slots[index].done = true
                }
            }
        }
    }

    /// Prepares (cold), launches and checks one run.
    private func launch(
        _ context: RunContext, measuredSoFar: [RunMeasurement], stopping: StoppingRule
    ) throws(Stop) -> (RunMeasurement, ObservedRun) {
        if interrupt?.isInterrupted == true { throw .interrupted }
        let failure = { (reason: String) in
            RunFailure(target: context.target.name, mode: context.mode, run: context.runDescription, reason: reason)
        }
        var residency: ResidencyReport?
        if context.mode == .cold {
            guard let coldCache else { throw .failed(failure("cold mode needs a page-cache preparer")) }
            do {
                residency = try coldCache.prepare(target: context.target)
            } catch {
                throw .failed(failure("cannot evict its files from the page cache: \(error)"))
            }
        }
        let observed: ObservedRun
        do {
            observed = try executor.execute(context)
        } catch {
            // Ctrl-C while connecting to the X display ends the benchmark as an interrupt.
            if interrupt?.isInterrupted == true { throw .interrupted }
            throw .failed(failure("\(error)"))
        }
        if let before = residency, let coldCache { residency = coldCache.measureAfterRun(before) }
        if observed.interrupted || interrupt?.isInterrupted == true { throw .interrupted }
        let measurement = observed.measurement(index: context.index, residency: residency)
        report(context, observed, measured: context.isWarmup ? [] : measuredSoFar + [measurement], stopping: stopping)
        if let reason = observed.failure { throw .failed(failure(reason)) }
        return (measurement, observed)
    }

    private func report(
        _ context: RunContext, _ observed: ObservedRun, measured: [RunMeasurement], stopping: StoppingRule
    ) {
        guard let progress else { return }
        let fixed = stopping.minRuns == stopping.maxRuns ? stopping.maxRuns : nil
        // Only the median, sorted directly: a full summary (with its
        // bootstrap) after every run would cost O(n²) over a long benchmark.
        let times = measured.filter(\.exit.isSuccess).compactMap(\.wallToReady).sorted()
        let median = times.isEmpty ? nil : Double(times[(times.count - 1) / 2] / 2 + times[times.count / 2] / 2)
        progress(
            BenchmarkProgress(
                context: context, observed: observed, measuredRuns: measured.count, plannedRuns: fixed, median: median))
    }

    /// Summaries and warnings, plus what stopped the benchmark early.
    private func finish(_ slot: Slot, outcome: MeasuredRuns) -> BenchmarkResult {
        let result = slot.result
        var summarized = Summarizer().summarize(result)
        summarized.counters = slot.counters
        // Resolved once per result: what attribution names when a library
        // appears on one side only (warm or cold).
        if let files = try? SharedLibraryResolver().fileSet(for: result.target) {
            summarized.libraries = files.files.filter { $0 != files.program }.sorted()
        }
        summarized.warnings.append(contentsOf: slot.notes.map { ResultWarning(.runNote, $0) })
        if let failure = outcome.failure, failure.target == result.target.name, failure.mode == result.mode {
            summarized.warnings.append(ResultWarning(.stopped, "benchmark stopped: \(failure)"))
        }
        if outcome.interrupted {
            summarized.warnings.append(ResultWarning(.interrupted, "interrupted by a signal after \(result.runs.count) measured runs"))
        }
        return summarized
    }
}
