import Testing

@testable import LaunchAnalysis
@testable import LaunchEngine

/// A sample the handler could not unwind because a thread held a loader
/// lock keeps its PC alone: the profile puts it under an explicit
/// "[dynamic loader busy]" frame, never under a caller it did not see.
struct LoaderBusyFrameTests {
    func trace(_ samples: [TraceSample]) -> Trace {
        let module = TraceModule(path: "/no/such/library.so", bias: 0x1000_0000, start: 0x1000_0000, end: 0x1010_0000, buildID: [])
        return SampledTrace.make(samples, modules: [module], rate: 4000, timerMode: .threadCPUEvent, failed: 1, cpuMicroseconds: 500)
    }

    func sample(_ frames: [UInt64], loaderBusy: Bool, at time: UInt64) -> TraceSample {
        TraceSample(
            timestamp: time, threadID: 7, weight: 1, handlerNanoseconds: 0, truncated: false, unwindFailed: false,
            loaderBusy: loaderBusy, frames: frames)
    }

    @Test func aLoaderBusySampleIsItsOwnStackUnderAnExplicitFrame() throws {
        let walked = sample([0x1000_0040, 0x1000_0100], loaderBusy: false, at: 1)
        let busy = sample([0x1000_0040], loaderBusy: true, at: 2)
        let profile = try Symbolizer().symbolize(trace([walked, busy]), name: "busy")
        let names = profile.stacks.map { $0.frames.map { profile.frames[$0].name } }
        #expect(names.count == 2, "one stack per sample")
        #expect(names[0].first != Symbolizer.loaderBusyFrame)
        #expect(names[1] == [Symbolizer.loaderBusyFrame, "library.so+0x40"])
        #expect(profile.stacks.allSatisfy { $0.weight == 1 })
    }
}
