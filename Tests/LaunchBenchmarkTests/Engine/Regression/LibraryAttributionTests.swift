import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// A program that gains a shared library, warm: the Why names the library
/// (from each side's resolved dependencies) with the pre-main change beside
/// it; and explain's words when there is nothing to say or no trace.
@Suite("Libraries in the Why, and explain's words", .serialized)
struct LibraryAttributionTests {
    @Test("a new shared-library dependency, warm: the library is named, with the pre-main change")
    func newLibraryWarm() async throws {
        let scratch = try ScratchDirectory()
        let directory = scratch.path
        // A library whose constructor works for 10 ms, so the warm launch grows.
        _ = try LibraryPair.build(
            in: directory,
            library: """
                #include <time.h>
                __attribute__((constructor)) static void start(void) {
                    struct timespec a, b;
                    clock_gettime(CLOCK_MONOTONIC, &a);
                    do clock_gettime(CLOCK_MONOTONIC, &b);
                    while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 10000000L);
                }
                int extra_value(void) { return 1; }
                """)
        let session = BenchmarkSession(
            targets: [
                LaunchTarget(name: "before", arguments: ["\(directory)/before"]),
                LaunchTarget(name: "after", arguments: ["\(directory)/after"]),
            ],
            modes: [.warm], warmup: 1, stopping: .fixed(8), settings: BenchmarkSettings())
        let results = try await session.run().document.results
        try #require(results.count == 2 && results.allSatisfy { result in result.runs.allSatisfy { $0.exit.isSuccess } })
        #expect(results[1].libraries?.contains { $0.hasSuffix("/libextra.so") } == true, "\(results[1].libraries ?? [])")
        let attribution = try #require(LaunchAttribution.attribute(baseline: results[0], current: results[1]))
        let new = try #require(attribution.libraries?.first, "\(attribution.libraries ?? [])")
        #expect(new.isNew && new.path.hasSuffix("/libextra.so") && attribution.libraries?.count == 1)
        let line = try #require(
            attribution.summaryLines.first { $0.contains("new in the launch: libextra.so") }, "\(attribution.summaryLines)")
        // A C program has no pre-main marks: the whole launch's change stands beside it.
        #expect(line.contains("; the launch +"), "\(line)")
    }

    @Test("explain with nothing to say names the numbers; with no successful run it says so")
    func nothingStandsOut() async throws {
        let session = BenchmarkSession(
            targets: [LaunchTarget(name: "hello", arguments: [try Products.path("lp-hello-c")])], modes: [.warm], warmup: 0,
            stopping: .fixed(3), settings: BenchmarkSettings())
        let result = try #require(try await session.run().document.results.first)
        let text = LaunchInsights.nothingStandsOut(in: result)
        #expect(text.hasPrefix("nothing stands out: 3 successful runs, time to ready "), "\(text)")
        var failed = result
        failed.runs = []
        #expect(LaunchInsights.nothingStandsOut(in: failed).hasPrefix("no successful run to explain"))
    }

    @Test("without a trace, the waiting finding says what it needs instead of advice that needs a trace")
    func noTraceNoTraceAdvice() async throws {
        let app = LaunchTarget(
            name: "app", arguments: [try Products.path("lp-sample-app"), "--words", "2000"],
            environment: ["LP_SAMPLE_WAIT_MS": "40"], ready: .tracer)
        let session = BenchmarkSession(targets: [app], modes: [.warm], warmup: 1, stopping: .fixed(3), settings: BenchmarkSettings())
        let result = try #require(try await session.run().document.results.first)
        let insights = LaunchInsights.insights(for: result)
        let waiting = try #require(insights.first { $0.area == .waiting }, "\(insights.map(\.finding))")
        #expect(waiting.action.contains("needs a trace"), "\(waiting.action)")
        for insight in insights {
            #expect(!insight.action.contains("DeferredInitializer") && !insight.action.contains("critical path first"), "\(insight.action)")
        }
        #expect(!insights.contains { $0.area == .criticalPath || $0.area == .otherThreads })
    }
}
