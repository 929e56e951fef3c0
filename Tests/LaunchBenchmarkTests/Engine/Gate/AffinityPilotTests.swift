import Foundation
import LaunchBenchmark
import Synchronization
import Testing

@testable import LaunchEngine

/// `gate --affinity auto`: the pilot's schedule and the choice, with
/// scripted launch times (no process, no clock but a scripted one).
@Suite("The affinity pilot")
struct AffinityPilotTests {
    static func rule() throws -> SequentialDecisionRule { try SequentialDecisionRule(threshold: 0.02, maxPairs: 10000) }

    static func trial(_ cpus: String?, base: Double, head: Double, width: Double?, pairs: Int = 12) -> AffinityTrial {
        AffinityTrial(cpus: cpus, pairs: pairs, baseMedian: base, headMedian: head, width: width)
    }

    @Test("a launch faster unpinned than on its fastest CPU by more than 5%, either side, stays unpinned")
    func parallelStaysUnpinned() {
        let split = [
            Self.trial(nil, base: 11.9, head: 9.81, width: 0.05), Self.trial("0", base: 11.8, head: 11.8, width: 0.01),
            Self.trial("1", base: 11.8, head: 12.0, width: 0.01),
        ]
        let (index, reason) = AffinityChoice.choose(split)
        #expect(index == nil)
        #expect(reason.contains("the head launches 16.9% faster unpinned than on its fastest CPU"), "\(reason)")
        // The async-main program's 9% (docs/gate.md, "What pinning changes"), on the base.
        let async = [
            Self.trial(nil, base: 12.6, head: 12.6, width: 0.05), Self.trial("0", base: 13.8, head: 12.6, width: 0.01),
            Self.trial("1", base: 14.5, head: 12.6, width: 0.01),
        ]
        #expect(AffinityChoice.choose(async).index == nil)
    }

    @Test("one thread's launch is pinned to the CPU whose pairs were narrowest, if narrower than unpinned")
    func serialIsPinnedWhereNarrowest() {
        // The sample app's medians: unpinned between the two CPUs'.
        let app = [
            Self.trial(nil, base: 260, head: 261, width: 0.06), Self.trial("0", base: 256, head: 257, width: 0.03),
            Self.trial("1", base: 271, head: 270, width: 0.02),
        ]
        let (index, reason) = AffinityChoice.choose(app)
        #expect(index == 2)
        #expect(reason.contains("±1.0% pinned against ±3.0% unpinned"), "\(reason)")
        // Pinned no narrower (every CPU contended): unpinned.
        let contended = [
            Self.trial(nil, base: 3.0, head: 3.0, width: 0.02), Self.trial("0", base: 3.0, head: 3.0, width: 0.03),
            Self.trial("1", base: 3.1, head: 3.1, width: 0.04),
        ]
        #expect(AffinityChoice.choose(contended).index == nil)
        #expect(AffinityChoice.choose(contended).reason.contains("no narrower"))
        // Too few pairs for an interval counts as infinitely wide.
        let unknown = [Self.trial(nil, base: 3.0, head: 3.0, width: nil), Self.trial("0", base: 3.0, head: 3.0, width: 0.03)]
        #expect(AffinityChoice.choose(unknown).index == 1)
        let none = [Self.trial(nil, base: 3.0, head: 3.0, width: 0.02), Self.trial("0", base: 3.0, head: 3.0, width: nil)]
        #expect(AffinityChoice.choose(none).index == nil)
    }

    /// One scripted pilot run: (side, CPUs, warm-up).
    typealias Call = (side: GateSide, cpus: String?, warmup: Bool)

    @Test("a warm-up round, then every setting once a round, its pair's order alternating; steps unpinned make it pin")
    func scheduleAndSteps() throws {
        var generator = SeededGenerator(seed: 7)
        var calls: [Call] = []
        let candidates = AffinityPilot.candidates(allowed: CPUAffinity(cpus: [0, 1]))
        #expect(candidates == [nil, CPUAffinity(cpus: [0]), CPUAffinity(cpus: [1])])
        let pilot = AffinityPilot(candidates: candidates, rule: try Self.rule(), limit: nil)
        let (choice, affinity) = pilot.run { side, cpus, warmup in
            calls.append((side, cpus?.description, warmup))
            let noise = Double.random(in: -0.005...0.005, using: &generator)
            // Unpinned, a third of the launches lose a 4 ms tick (a
            // multi-threaded server beside a busy core); pinned, none do,
            // and CPU 1 is 3% slower.
            let step = cpus == nil && Double.random(in: 0..<1, using: &generator) < 0.33 ? 4e6 : 0
            let speed = cpus?.cpus == [1] ? 1.03 : 1
            return 25e6 * speed * (1 + noise) + step
        }
        #expect(calls.count == 6 + 12 * 6)
        #expect(calls.prefix(6).allSatisfy(\.warmup) && !calls.dropFirst(6).contains { $0.warmup })
        #expect(choice.runs == 72)
        for cpus in [nil, "0", "1"] as [String?] {
            let mine = calls.dropFirst(6).filter { $0.cpus == cpus }
            #expect(mine.count == 24)
            // Pairs are adjacent calls; base first in half of them.
            let baseFirst = stride(from: 0, to: mine.count, by: 2).filter { mine[$0].side == .base }.count
            #expect(baseFirst == 6, "\(cpus ?? "unpinned"): \(baseFirst)")
        }
        #expect(choice.trials.map(\.pairs) == [12, 12, 12])
        #expect(affinity != nil && choice.chosen == affinity?.description, "\(choice.reason)")
        #expect(choice.reason.contains("no faster unpinned"), "\(choice.reason)")
    }

    @Test("a pilot cut short by its share of the budget, or by a failed run, stays unpinned and says why")
    func shortPilots() throws {
        let candidates = AffinityPilot.candidates(allowed: CPUAffinity(cpus: [0, 1]))
        // One second a run: the warm-up takes 6 s, round 0 ends at 12 s, past
        // the 10 s share, so one round of six is measured.
        let seconds = Mutex<UInt64>(0)
        var timed = AffinityPilot(candidates: candidates, rule: try Self.rule(), limit: .seconds(10))
        timed.clock = { seconds.withLock { $0 } * 1_000_000_000 }
        let short = timed.run { _, _, _ in
            seconds.withLock { $0 += 1 }
            return 1e7
        }
        #expect(short.affinity == nil)
        #expect(short.choice.reason.contains("only 1 of the 6 pilot rounds"), "\(short.choice.reason)")
        #expect(short.choice.elapsed == 12)

        var calls = 0
        let failed = AffinityPilot(candidates: candidates, rule: try Self.rule(), limit: nil).run { _, _, _ in
            calls += 1
            return calls == 20 ? nil : 1e7
        }
        #expect(calls == 20)
        #expect(failed.affinity == nil)
        #expect(failed.choice.reason.contains("a pilot run failed"), "\(failed.choice.reason)")
        // One CPU: nothing to try, and no run.
        #expect(AffinityPilot.candidates(allowed: CPUAffinity(cpus: [3])) == [nil])
        let single = AffinityPilot(candidates: [nil], rule: try Self.rule(), limit: nil).run { _, _, _ in
            Issue.record("a pilot of one CPU ran a launch")
            return 1e7
        }
        #expect(single.choice.runs == 0 && single.choice.reason == "one CPU: nothing to choose")
        #expect(AffinityPilot.candidates(allowed: CPUAffinity(cpus: Array(0..<8))).compactMap { $0?.cpus } == [[0], [4], [7]])
    }
}
