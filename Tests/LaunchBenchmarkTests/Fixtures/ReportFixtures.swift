@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// A small results document with a reference target, a traced target with
/// milestones, and a warning, built from the model for the report tests.
enum ReportFixtures {
    static let machine = MachineDescription(
        hostname: "bench-1", kernel: "Linux 6.8.0 x86_64", cpuModel: "Test CPU @ 3.0GHz", cpuCount: 2,
        memoryBytes: 8 << 30)

    static func runs(ms: Double, count: Int = 20, milestones: Bool = false) -> [RunMeasurement] {
        (0..<count).map { index in
            let ns = UInt64((ms + [0, 0.1, -0.1, 0.2, -0.2][index % 5]) * 1_000_000)
            return RunMeasurement(
                index: index, wallToExit: ns, wallToReady: ns,
                processEntry: milestones ? ns / 10 : nil, main: milestones ? ns / 5 : nil,
                milestones: milestones ? [MilestoneTime(name: "config loaded", nanoseconds: ns / 2)] : [],
                userCPU: 1_500_000, systemCPU: 800_000, maxRSSBytes: 12_900_000, majorFaults: 3, minorFaults: 400,
                exit: .exited(0))
        }
    }

    static func document(reference: String? = "hello-c") -> ResultsDocument {
        let summarizer = Summarizer()
        let hello = summarizer.summarize(
            BenchmarkResult(
                target: LaunchTarget(name: "hello-c", arguments: ["lp-hello-c"]), mode: .warm, runs: runs(ms: 1)))
        var appRuns = runs(ms: 14.2, milestones: true)
        appRuns[7].wallToReady = 60_000_000  // an outlier, so there is a warning
        let app = summarizer.summarize(
            BenchmarkResult(
                target: LaunchTarget(name: "sample-app", arguments: ["lp-sample-app"], ready: .tracer), mode: .warm,
                runs: appRuns))
        return ResultsDocument(
            toolVersion: launchprofVersion, date: "2026-11-22T22:00:00Z", commandLine: ["launchprof", "run", "x"],
            machine: machine, reference: reference, results: [hello, app])
    }
}
