import Foundation
import LaunchBenchmark
import Synchronization
import Testing

@testable import LaunchEngine

/// `gate --affinity auto`: the pilot's schedule and the choice, with
/// scripted launch times (no process, no clock but a scripted one).
@Suite("The affinity pilot")
struct AffinityPilotTests {
    static func trial(_ cpus: String?, base: Double, head: Double, runs: Int = 12) -> AffinityTrial {
        AffinityTrial(cpus: cpus, runs: runs, baseMedian: base, headMedian: head)
    }

    @Test("a launch faster unpinned than on its fastest CPU by more than 5%, either side, stays unpinned and spans CPUs")
    func parallelStaysUnpinned() {
        // gate-pinning.sh's "split": the head's work on two threads at once.
        let split = [
            Self.trial(nil, base: 11.9, head: 9.81), Self.trial("0", base: 11.8, head: 11.8), Self.trial("1", base: 11.8, head: 12.0),
        ]
        let (index, spans, reason) = AffinityChoice.choose(split)
        #expect(index == nil)
        #expect(spans)
        #expect(reason.contains("the head launches 16.9% faster unpinned than on its fastest CPU"), "\(reason)")
        // The async-main program (docs/gate.md, "What pinning changes"): 8.7%, on the base.
        let async = [
            Self.trial(nil, base: 12.6, head: 13.9), Self.trial("0", base: 13.8, head: 13.9), Self.trial("1", base: 14.5, head: 14.4),
        ]
        #expect(AffinityChoice.choose(async).index == nil)
        #expect(AffinityChoice.choose(async).spansCPUs)
        #expect(AffinityChoice.choose(async).reason.hasPrefix("the base launches 8.7% faster"), "\(AffinityChoice.choose(async).reason)")
    }

    @Test("one thread's launch is pinned to the CPU where both sides were fastest")
    func serialIsPinnedWhereFastest() {
        // The sample app's medians: unpinned between the two CPUs'.
        let app = [Self.trial(nil, base: 260, head: 261), Self.trial("0", base: 256, head: 257), Self.trial("1", base: 271, head: 270)]
        let (index, spans, reason) = AffinityChoice.choose(app)
        #expect(index == 1)
        #expect(!spans)
        #expect(reason.contains("1.6% slower unpinned than on its fastest CPU"), "\(reason)")
        // The Hummingbird sample beside a busy core: unpinned loses ticks.
        let server = [
            Self.trial(nil, base: 19.7, head: 20.6), Self.trial("0", base: 17.4, head: 18.0), Self.trial("1", base: 17.4, head: 17.7),
        ]
        #expect(AffinityChoice.choose(server).index == 2)
        // Up to 5% faster unpinned is the vCPUs' difference, not threads.
        let near = [Self.trial(nil, base: 10.0, head: 10.0), Self.trial("0", base: 10.4, head: 10.4)]
        #expect(AffinityChoice.choose(near).index == 1)
        #expect(AffinityChoice.choose(near).reason.contains("at most 3.8% faster unpinned"), "\(AffinityChoice.choose(near).reason)")
        // Nothing measured on one side: unpinned, and no evidence that the
        // launch spans CPUs (its runs keep pairing on the same CPU).
        for missing in [
            [Self.trial(nil, base: 10, head: 10, runs: 0), Self.trial("0", base: 9, head: 9)],
            [Self.trial(nil, base: 10, head: 10), Self.trial("0", base: 0, head: 0, runs: 0)],
        ] {
            #expect(AffinityChoice.choose(missing).index == nil)
            #expect(!AffinityChoice.choose(missing).spansCPUs)
        }
    }

    /// One scripted pilot run: (side, CPUs, warm-up).
    typealias Call = (side: GateSide, cpus: String?, warmup: Bool)

    @Test("a warm-up round, then every setting once a round, its pair's order alternating; ticks lost unpinned make it pin")
    func scheduleAndSteps() throws {
        var generator = SeededGenerator(seed: 7)
        var calls: [Call] = []
        let candidates = AffinityPilot.candidates(allowed: CPUAffinity(cpus: [0, 1]))
        #expect(candidates == [nil, CPUAffinity(cpus: [0]), CPUAffinity(cpus: [1])])
        let pilot = AffinityPilot(candidates: candidates, limit: nil)
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
        #expect(choice.trials.map(\.runs) == [12, 12, 12])
        // CPU 0, the faster one.
        #expect(affinity == CPUAffinity(cpus: [0]) && choice.chosen == "0", "\(choice.reason)")
        #expect(choice.reason.contains("slower unpinned than on its fastest CPU"), "\(choice.reason)")
    }

    @Test("a pilot cut short by its share of the budget, or by a failed run, stays unpinned and says why")
    func shortPilots() throws {
        let candidates = AffinityPilot.candidates(allowed: CPUAffinity(cpus: [0, 1]))
        // One second a run: the warm-up takes 6 s, and the third pair of
        // round 0 would start at 10 s, the share: no round is whole.
        let seconds = Mutex<UInt64>(0)
        var timed = AffinityPilot(candidates: candidates, limit: .seconds(10))
        timed.clock = { seconds.withLock { $0 } * 1_000_000_000 }
        let short = timed.run { _, _, _ in
            seconds.withLock { $0 += 1 }
            return 1e7
        }
        #expect(short.affinity == nil)
        #expect(short.choice.reason.contains("only 0 of the 6 pilot rounds"), "\(short.choice.reason)")
        #expect(short.choice.elapsed == 10)
        #expect(short.choice.runs == 4)

        var calls = 0
        let failed = AffinityPilot(candidates: candidates, limit: nil).run { _, _, _ in
            calls += 1
            return calls == 20 ? nil : 1e7
        }
        #expect(calls == 20)
        #expect(failed.affinity == nil)
        #expect(failed.choice.reason.contains("a pilot run failed"), "\(failed.choice.reason)")
        // One CPU: nothing to try, and no run.
        #expect(AffinityPilot.candidates(allowed: CPUAffinity(cpus: [3])) == [nil])
        let single = AffinityPilot(candidates: [nil], limit: nil).run { _, _, _ in
            Issue.record("a pilot of one CPU ran a launch")
            return 1e7
        }
        #expect(single.choice.runs == 0 && single.choice.reason == "one CPU: nothing to choose")
        #expect(AffinityPilot.candidates(allowed: CPUAffinity(cpus: Array(0..<8))).compactMap { $0?.cpus } == [[0], [4], [7]])
    }
}
