import LaunchSupport

/// `gate --affinity auto`: before the gate, a few rounds of base and head
/// unpinned and pinned to each of a few CPUs, interleaved, so that the gate
/// pins where the launch is one thread's work (`AffinityChoice` has the
/// rule; docs/gate.md, "Pinning").
///
/// Each round runs every setting once, its pair in ABBA order across
/// rounds and the settings rotated, so drift reaches each setting alike. A
/// warm-up round comes first. The pilot ends after `rounds` rounds or when
/// its share of the budget is spent (checked before each pair); it runs
/// through a closure, so a test can script it.
package struct AffinityPilot {
    /// The settings tried: nil (unpinned) first, then single CPUs.
    package var candidates: [CPUAffinity?]
    /// Measured rounds at most.
    package var rounds = 12
    /// Fewer measured rounds than this decide nothing: unpinned.
    package var minimumRounds = 6
    /// The pilot's share of the budget; nil: no limit but `rounds`.
    package var limit: Duration?
    /// A clock in nanoseconds (monotonic); a test may script it.
    package var clock: () -> UInt64 = { monotonicNanoseconds() }

    /// The CPUs tried beside unpinned: at most three of `allowed`, the
    /// first, the middle and the last.
    package static func candidates(allowed: CPUAffinity) -> [CPUAffinity?] {
        let cpus = allowed.cpus
        guard cpus.count > 1 else { return [nil] }
        let picked = cpus.count <= 3 ? cpus : [cpus[0], cpus[cpus.count / 2], cpus[cpus.count - 1]]
        return [nil] + picked.map { CPUAffinity(cpus: [$0]) }
    }

    /// A pilot over `candidates`, in at most `limit`.
    package init(candidates: [CPUAffinity?], limit: Duration?) {
        self.candidates = candidates
        self.limit = limit
    }

    /// Runs the pilot. `launch(side, affinity, warmup)` makes one run and
    /// returns its time to ready in nanoseconds, or nil when the run failed
    /// or the gate was interrupted: the pilot then ends, unpinned (the gate
    /// meets the same failure at once). Returns the choice and the CPUs
    /// chosen (nil: unpinned).
    package func run(launch: (GateSide, CPUAffinity?, Bool) -> Double?) -> (choice: AffinityChoice, affinity: CPUAffinity?) {
        guard candidates.count > 1 else {
            return (AffinityChoice(trials: [], chosen: nil, reason: "one CPU: nothing to choose", runs: 0, elapsed: 0), nil)
        }
        let start = clock()
        var times = Array(repeating: (base: [Double](), head: [Double]()), count: candidates.count)
        var done = 0
        var stopped: String?
        let elapsed = { Double(clock() &- start) / 1e9 }
        rounds: for round in -1..<rounds {
            // Unpinned comes first (candidates[0], offset 0 of the warm-up):
            // a spawner started by that run keeps the CPUs of the thread
            // that started it as its unpinned set.
            for offset in 0..<candidates.count {
                let setting = (offset + Swift.max(round, 0)) % candidates.count
                // The share is checked before every pair, the warm-up's too: a
                // slow launch must not spend the gate's budget on its pilot.
                if let limit, elapsed() >= limit.seconds { break rounds }
                let baseFirst = (round + offset) % 2 == 0
                var pair: (base: Double, head: Double) = (0, 0)
                for side in baseFirst ? [GateSide.base, .head] : [.head, .base] {
                    guard let time = launch(side, candidates[setting], round < 0) else {
                        stopped = "a pilot run failed or the gate was interrupted"
                        break rounds
                    }
                    if side == .base { pair.base = time } else { pair.head = time }
                }
                guard round >= 0 else { continue }
                times[setting].base.append(pair.base)
                times[setting].head.append(pair.head)
            }
            if round >= 0 { done += 1 }
        }
        let trials = candidates.indices.map { index in
            AffinityTrial(
                cpus: candidates[index]?.description, runs: times[index].base.count,
                baseMedian: Statistics.median(times[index].base) ?? 0, headMedian: Statistics.median(times[index].head) ?? 0)
        }
        var chosen: Int?
        var spansCPUs = false
        var reason: String
        if let stopped {
            reason = stopped + ": not pinned"
        } else if done < minimumRounds {
            reason = "only \(done) of the \(minimumRounds) pilot rounds needed fit in its share of the budget: not pinned"
        } else {
            (chosen, spansCPUs, reason) = AffinityChoice.choose(trials)
        }
        let affinity = chosen.flatMap { candidates[$0] }
        let choice = AffinityChoice(
            trials: trials, chosen: affinity?.description, reason: reason, spansCPUs: spansCPUs,
            runs: trials.reduce(0) { $0 + 2 * $1.runs }, elapsed: elapsed())
        return (choice, affinity)
    }
}
