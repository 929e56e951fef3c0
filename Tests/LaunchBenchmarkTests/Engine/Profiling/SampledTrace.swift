@testable import LaunchAnalysis

/// A trace of scripted samples for the symbolizer's tests: no events, one
/// process, the sampling section's figures as given.
enum SampledTrace {
    static func make(
        _ samples: [TraceSample], modules: [TraceModule], rate: UInt32, timerMode: TraceSampling.TimerMode, failed: UInt64 = 0,
        cpuMicroseconds: UInt64 = 0
    ) -> Trace {
        let header = TraceHeader(
            formatVersion: 1, pid: 7, policy: .dropNewest, spawnNanoseconds: nil, processEntryNanoseconds: nil,
            mainNanoseconds: nil, launchCompleteNanoseconds: nil, writtenNanoseconds: nil, capacity: 0, eventCount: 0,
            lostEvents: 0)
        var trace = Trace(path: "t.lptrace", header: header, strings: [], categories: [], threadNames: [:], events: [])
        trace.sampling = TraceSampling(
            rate: rate, maxDepth: 64, timerMode: timerMode, mainThreadOnly: false, loaderUnguarded: false,
            threadsHooked: true, startNanoseconds: 0, stopNanoseconds: 0, lost: 0, failed: failed, threadNames: [:],
            samples: samples, modules: modules, sampledCPUMicroseconds: cpuMicroseconds)
        return trace
    }
}
