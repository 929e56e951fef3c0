import Testing

@testable import LaunchAnalysis
@testable import LaunchEngine

/// A signal of the in-process sampler that the kernel merged with a pending
/// one weighs every period its thread's event counted since the previous
/// signal: the profile keeps its stack for one period and the others under
/// "[periods without a stack]" alone, and the summary says how many.
struct MergedSampleTests {
    func trace(_ samples: [TraceSample], cpuMicroseconds: UInt64) -> Trace {
        let module = TraceModule(path: "/no/such/library.so", bias: 0x1000_0000, start: 0x1000_0000, end: 0x1010_0000, buildID: [])
        return SampledTrace.make(samples, modules: [module], rate: 4000, timerMode: .threadCPUEvent, cpuMicroseconds: cpuMicroseconds)
    }

    func sample(weight: UInt32, merged: Bool, at time: UInt64) -> TraceSample {
        TraceSample(
            timestamp: time, threadID: 7, weight: weight, handlerNanoseconds: 1000, truncated: false, unwindFailed: false,
            loaderBusy: false, frames: [0x1000_0040, 0x1000_0100], merged: merged)
    }

    @Test func aMergedSampleKeepsItsStackForOnePeriodAndTheRestUnderNoFunction() throws {
        // Seven periods (1.75 ms at 4 kHz): two signals of their own, then one
        // that came for five.
        let samples = [
            sample(weight: 1, merged: false, at: 1), sample(weight: 1, merged: false, at: 2), sample(weight: 5, merged: true, at: 3),
        ]
        let profile = try Symbolizer().symbolize(trace(samples, cpuMicroseconds: 1750), name: "merged")
        let stacks = profile.stacks.map { (names: $0.frames.map { profile.frames[$0].name }, weight: $0.weight) }
        #expect(stacks.count == 4)
        #expect(stacks.prefix(3).allSatisfy { $0.weight == 1 && $0.names.last == "library.so+0x40" })
        #expect(stacks[3].names == [Symbolizer.unstackedFrame] && stacks[3].weight == 4)
        #expect(profile.totalWeight == 7, "every period counted stays in the profile")
        #expect(profile.sampleCount == 3, "three samples were taken, whatever stacks hold them")

        let text = ProfileSummary(profile).text
        #expect(text.hasPrefix("3 samples (weight 7, ≈1.8 ms CPU) on 1 thread at 4000 Hz"), "\(text)")
        #expect(
            text.contains(
                "sampled threads' CPU time 1.8 ms: 3 stacks for 7 periods (43%); 4 more periods counted without a stack (their signals merged with a pending one), under [periods without a stack]"
            ), "\(text)")
    }

    @Test func withoutAMergedSampleTheSummarySaysNothingOfThem() throws {
        let samples = [sample(weight: 1, merged: false, at: 1), sample(weight: 1, merged: false, at: 2)]
        let profile = try Symbolizer().symbolize(trace(samples, cpuMicroseconds: 500), name: "plain")
        #expect(profile.stacks.count == 2)
        let text = ProfileSummary(profile).text
        #expect(text.contains("2 stacks for 2 periods (100%)\n"), "\(text)")
        #expect(!text.contains(Symbolizer.unstackedFrame))
    }
}
