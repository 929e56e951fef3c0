import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// An interval's time on and off CPU, from the thread CPU time its begin and
/// end carry (flag bit 1, docs/trace-format.md), read from trace files.
@Suite struct TraceIntervalCPUTests {
    typealias Event = TraceFileBuilder.Event

    func intervals(_ events: [Event], threads: [(UInt32, String)] = [(1, "main")]) throws -> [String: TraceInterval] {
        var builder = TraceFileBuilder()
        builder.events = events
        builder.threadNames = threads
        let trace = try TraceReader.parse(Data(builder.bytes()), path: "/tmp/cpu.lptrace")
        let paired = trace.pairIntervals()
        return Dictionary((paired.slices + paired.asyncIntervals).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    @Test("begun and ended on one thread: on CPU is the end's CPU time minus the begin's, off CPU the rest of the wall time")
    func oneThread() throws {
        let found = try intervals([
            Event(timestamp: 1_000, kind: .intervalBegin, name: "parse", id: 1, threadCPU: 500),
            Event(timestamp: 11_000, kind: .intervalEnd, name: "parse", id: 1, threadCPU: 3_500),
        ])
        let parse = try #require(found["parse"])
        #expect(parse.begin.threadCPU == 500 && parse.begin.argument == nil, "the CPU time is not a value")
        #expect(parse.onCPU == 3_000 && parse.offCPU == 7_000)
    }

    @Test("begun on one thread and ended on another: unknown, not guessed")
    func twoThreads() throws {
        let found = try intervals(
            [
                Event(timestamp: 1_000, kind: .intervalBegin, name: "await", id: 1, threadID: 1, threadCPU: 500),
                Event(timestamp: 9_000, kind: .intervalEnd, name: "await", id: 1, threadID: 2, threadCPU: 900),
            ], threads: [(1, "main"), (2, "pool")])
        let interval = try #require(found["await"])
        #expect(interval.onCPU == nil && interval.offCPU == nil)
    }

    @Test("a trace without the flag (written before it), a value, or a clock that went back: unknown")
    func unknown() throws {
        let found = try intervals([
            Event(timestamp: 1_000, kind: .intervalBegin, name: "old", id: 1),
            Event(timestamp: 2_000, kind: .intervalEnd, name: "old", id: 1),
            Event(timestamp: 3_000, kind: .intervalBegin, name: "valued", id: 2, value: 7, threadCPU: 100),
            Event(timestamp: 4_000, kind: .intervalEnd, name: "valued", id: 2, threadCPU: 600),
            Event(timestamp: 5_000, kind: .intervalBegin, name: "backwards", id: 3, threadCPU: 900),
            Event(timestamp: 6_000, kind: .intervalEnd, name: "backwards", id: 3, threadCPU: 100),
        ])
        #expect(try #require(found["old"]).onCPU == nil)
        let valued = try #require(found["valued"])
        #expect(valued.begin.argument == 7 && valued.begin.threadCPU == nil, "bit 0 wins: the argument is the value")
        #expect(valued.onCPU == nil)
        #expect(try #require(found["backwards"]).onCPU == nil)
    }

    @Test("more CPU time than wall time (clocks read a little apart): on CPU is held to the duration")
    func heldToTheDuration() throws {
        let found = try intervals([
            Event(timestamp: 1_000, kind: .intervalBegin, name: "spin", id: 1, threadCPU: 0),
            Event(timestamp: 2_000, kind: .intervalEnd, name: "spin", id: 1, threadCPU: 1_200),
        ])
        let spin = try #require(found["spin"])
        #expect(spin.onCPU == 1_000 && spin.offCPU == 0)
    }
}
