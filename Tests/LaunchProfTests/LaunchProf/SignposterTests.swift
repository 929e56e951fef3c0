import Glibc
import Testing

@testable import LaunchProf

/// Signposter, the value programs hold, tested in its own module: what it
/// records reaches the process's timeline as intervals and events with
/// their category, thread, values and ids. Names are unique to each test
/// (other tests record into the same process-wide ring at the same time).
@Suite("Signposter")
struct SignposterTests {
    private static func timeline(category: String) -> LaunchTimeline {
        var timeline = LaunchTimeline.current()
        timeline.intervals = timeline.intervals.filter { $0.category == category }
        timeline.events = timeline.events.filter { $0.category == category }
        return timeline
    }

    @Test("an interval has its begin and end on the recording thread, with its value, in its category")
    func intervals() throws {
        Tracer.enable()
        let category = "signposter-intervals-\(getpid())"
        let signposter = Signposter(subsystem: "tests", category: category)
        #expect(signposter.isEnabled)
        let state = signposter.beginInterval("load", value: 7)
        usleep(2_000)
        signposter.endInterval("load", state, value: 9)
        let dynamic = signposter.beginInterval(dynamicName: "load \(category)")
        signposter.endInterval(dynamicName: "load \(category)", dynamic)
        let answer = signposter.withIntervalSignpost("compute") { 42 }
        #expect(answer == 42)
        let recorded = Self.timeline(category: category).intervals
        let load = try #require(recorded.first { $0.name == "load" })
        let end = try #require(load.end)
        #expect(end - load.start >= 2_000_000, "the interval lasts the 2 ms slept")
        #expect(load.subsystem == "tests" && load.threadID == load.endThreadID)
        #expect(load.value == 7)
        #expect(recorded.contains { $0.name == "load \(category)" && $0.end != nil }, "dynamic names")
        #expect(recorded.contains { $0.name == "compute" && $0.end != nil }, "withIntervalSignpost")
    }

    @Test("intervals with their own ids overlap on one thread and still pair")
    func overlappingIDs() throws {
        Tracer.enable()
        let category = "signposter-ids-\(getpid())"
        let signposter = Signposter(subsystem: "tests", category: category)
        let first = signposter.beginInterval("request", id: signposter.makeSignpostID())
        let second = signposter.beginInterval("request", id: signposter.makeSignpostID())
        signposter.endInterval("request", first)
        signposter.endInterval("request", second)
        signposter.emitEvent("tick", value: 3)
        let timeline = Self.timeline(category: category)
        #expect(timeline.intervals.filter { $0.name == "request" && $0.end != nil }.count == 2)
        #expect(timeline.events.contains { $0.name == "tick" && $0.value == 3 })
    }
}
