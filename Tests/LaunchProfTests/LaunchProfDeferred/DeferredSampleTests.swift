import Foundation
import LaunchProfTestSupport
import Testing

/// The deferred initializer gated on the real, process-wide launch complete,
/// through lp-sample-deferred in a child process (in this test process the
/// launch state is shared by all tests, so it cannot be completed here).
@Suite("Deferred sample")
struct DeferredSampleTests {
    @Test("both launches do the same work; the optimized one defers it until after launch complete")
    func naiveAndOptimized() throws {
        let naive = try runDeferredSample(["--launch", "naive"])
        let optimized = try runDeferredSample(["--launch", "optimized"])
        #expect(naive.status == 0 && optimized.status == 0, "\(naive.standardOutput)\(optimized.standardOutput)")
        #expect(checksum(naive.standardOutput) != nil)
        #expect(checksum(naive.standardOutput) == checksum(optimized.standardOutput), "the two launches did different work")
        // "started N ms after launch complete": the start is after the gate
        // (the sample computes start - complete in UInt64 and would trap).
        #expect(optimized.standardOutput.contains(" after launch complete ("), "\(optimized.standardOutput)")
        #expect(optimized.standardOutput.contains("templates "), "\(optimized.standardOutput)")
    }

    @Test("a bad flag is an error naming it")
    func badFlag() throws {
        let result = try runDeferredSample(["--launch", "lazy"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--launch must be 'naive' or 'optimized', got 'lazy'"))
    }

    private func checksum(_ output: String) -> Substring? {
        output.split(separator: " ").last.map { $0.filter(\.isNumber) }
    }
}

/// Runs lp-sample-deferred without the harness's variables of the process
/// running the tests.
private func runDeferredSample(_ arguments: [String]) throws -> CommandRun {
    try CommandRun.run(
        try Products.path("lp-sample-deferred"), arguments, removing: { $0.hasPrefix("LAUNCHPROF_") || $0 == "NOTIFY_SOCKET" },
        timeout: 60)
}
