import Foundation
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
        #expect(naive.status == 0 && optimized.status == 0, "\(naive.output)\(optimized.output)")
        #expect(checksum(naive.output) != nil)
        #expect(checksum(naive.output) == checksum(optimized.output), "the two launches did different work")
        // "started N ms after launch complete": the start is after the gate
        // (the sample computes start - complete in UInt64 and would trap).
        #expect(optimized.output.contains(" after launch complete ("), "\(optimized.output)")
        #expect(optimized.output.contains("templates "), "\(optimized.output)")
    }

    @Test("a bad flag is an error naming it")
    func badFlag() throws {
        let result = try runDeferredSample(["--launch", "lazy"])
        #expect(result.status == 2)
        #expect(result.error.contains("--launch must be 'naive' or 'optimized', got 'lazy'"))
    }

    private func checksum(_ output: String) -> Substring? {
        output.split(separator: " ").last.map { $0.filter(\.isNumber) }
    }
}

private struct DeferredSampleResult {
    var status: Int32
    var output: String
    var error: String
}

private func runDeferredSample(_ arguments: [String]) throws -> DeferredSampleResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: productPath("lp-sample-deferred"))
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment
        .filter { !$0.key.hasPrefix("LAUNCHPROF_") && $0.key != "NOTIFY_SOCKET" }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Small outputs: reading one pipe to its end cannot block the other.
    let outputText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return DeferredSampleResult(status: process.terminationStatus, output: outputText, error: errorText)
}
