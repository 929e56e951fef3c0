import Foundation
import Glibc
import LaunchBenchmark
import LaunchProf
import Testing

/// Reading what the real writer wrote: every header field, table and event.
@Suite struct TraceReaderTests {
    @Test func readsEverythingTheWriterWrote() throws {
        let subsystem = TraceTestSupport.uniqueSubsystem("reader")
        let signposter = Signposter(subsystem: subsystem, category: "fields")
        let worker = PinnedThread(name: "lp-test-reader")
        defer { worker.finish() }
        let milestone = "milestone \(subsystem)"
        let before = LaunchTracker.processEntryNanoseconds
        let bytes = try TraceTestSupport.recordTrace {
            worker.run {
                let state = signposter.beginInterval("parse", value: 11)
                signposter.emitEvent(dynamicName: "dynamic é", id: SignpostID(77))
                signposter.endInterval("parse", state, value: -12)
            }
            LaunchTracker.recordMilestone(dynamicName: milestone)
        }
        let trace = try TraceReader.parse(bytes, path: "/tmp/reader.lptrace")

        #expect(trace.path == "/tmp/reader.lptrace")
        #expect(trace.header.formatVersion == 1)
        #expect(trace.header.pid == UInt32(getpid()))
        #expect(trace.header.processEntryNanoseconds == before)
        #expect(trace.header.capacity > 0)
        #expect(trace.header.eventCount == UInt64(trace.events.count))
        #expect(trace.header.writtenNanoseconds.map { $0 >= trace.events.last!.timestamp } == true)
        #expect(trace.categories.first == TraceCategory(subsystem: "launchprof", category: "launch"))
        #expect(trace.categories.contains(TraceCategory(subsystem: subsystem, category: "fields")))
        #expect(zip(trace.events, trace.events.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })

        let tid = worker.tid
        #expect(trace.threadNames[tid] == "lp-test-reader")
        let mine = TraceTestSupport.events(of: trace, subsystem: subsystem)
        try #require(mine.count == 3)
        #expect(mine.map(\.kind) == [.intervalBegin, .event, .intervalEnd])
        #expect(mine.map(\.name) == ["parse", "dynamic é", "parse"])
        #expect(mine.map(\.argument) == [11, nil, -12])
        #expect(mine.allSatisfy { $0.threadID == tid })
        #expect(mine[0].id == mine[2].id && mine[0].id != 0)
        #expect(mine[1].id == 77)

        let marks = trace.events.filter { $0.name == milestone }
        #expect(marks.count == 1)
        #expect(marks.first?.kind == .milestone)
        #expect(marks.first?.categoryIndex == 0)
    }

    @Test func readsFromAFileAndFromData() throws {
        let bytes = try TraceTestSupport.smallRealTrace()
        let path = TraceTestSupport.temporaryPath("file.lptrace")
        defer { unlink(path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fromFile = try TraceReader.read(path: path)
        let fromData = try TraceReader.parse(Data(bytes), path: path)
        #expect(fromFile == fromData)
        #expect(fromFile.events.count == 3)
    }

    @Test func missingFileIsReportedWithTheSystemReason() {
        let path = "/nonexistent/launchprof/trace.lptrace"
        #expect(throws: TraceReadError.cannotRead(path: path, reason: "No such file or directory")) {
            try TraceReader.read(path: path)
        }
    }

    @Test func directoryIsNotATraceFile() {
        #expect(throws: TraceReadError.cannotRead(path: "/tmp", reason: "it is a directory, not a regular file")) {
            try TraceReader.read(path: "/tmp")
        }
    }
}
