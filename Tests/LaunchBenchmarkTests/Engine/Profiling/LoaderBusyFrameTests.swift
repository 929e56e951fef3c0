import Testing

@testable import LaunchAnalysis
@testable import LaunchEngine

/// A sample the handler could not unwind because a thread held a loader
/// lock keeps its PC alone: the profile puts it under an explicit
/// "[dynamic loader busy]" frame, never under a caller it did not see.
struct LoaderBusyFrameTests {
    func trace(_ samples: [TraceSample]) -> Trace {
        let module = TraceModule(path: "/no/such/library.so", bias: 0x1000_0000, start: 0x1000_0000, end: 0x1010_0000, buildID: [])
        let header = TraceHeader(
            formatVersion: 1, pid: 7, policy: .dropNewest, spawnNanoseconds: nil, processEntryNanoseconds: nil,
            mainNanoseconds: nil, launchCompleteNanoseconds: nil, writtenNanoseconds: nil, capacity: 0, eventCount: 0,
            lostEvents: 0)
        var trace = Trace(path: "t.lptrace", header: header, strings: [], categories: [], threadNames: [:], events: [])
        trace.sampling = TraceSampling(
            rate: 4000, maxDepth: 64, timerMode: .threadCPUEvent, mainThreadOnly: false, loaderUnguarded: false,
            threadsHooked: true, startNanoseconds: 0, stopNanoseconds: 0, lost: 0, failed: 1, threadNames: [:],
            samples: samples, modules: [module], sampledCPUMicroseconds: 500)
        return trace
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
