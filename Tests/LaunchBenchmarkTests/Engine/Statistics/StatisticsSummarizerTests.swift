import Testing

@testable import LaunchAnalysis
@testable import LaunchBenchmark
@testable import LaunchEngine
@testable import LaunchReports
@testable import LaunchSupport

/// Synthetic runs built from the model: clean data gives no warnings, and each
/// problem (outlier, slow first run, failures, few runs, warm cold runs) gives
/// exactly its warning.
@Suite struct StatisticsSummarizerTests {
    static let target = LaunchTarget(name: "sample-app", arguments: ["/bin/true"])

    /// A successful run; times in milliseconds.
    static func run(_ index: Int, ms: Double, residency: ResidencyReport? = nil) -> RunMeasurement {
        let ns = UInt64(ms * 1_000_000)
        return RunMeasurement(
            index: index, wallToExit: ns, wallToReady: ns, processEntry: ns / 10, main: ns / 5,
            milestones: [MilestoneTime(name: "config", nanoseconds: ns / 2), MilestoneTime(name: "ready", nanoseconds: ns)],
            userCPU: ns / 3, systemCPU: ns / 4, maxRSSBytes: 12 << 20, majorFaults: 0, minorFaults: 300,
            voluntaryContextSwitches: 2, involuntaryContextSwitches: 1, exit: .exited(0), residency: residency)
    }

    /// 20 runs around 10 ms with a little spread (MAD 0.2 ms).
    static func clean(_ count: Int = 20) -> [RunMeasurement] {
        (0..<count).map { run($0, ms: 10 + [0, 0.2, -0.2, 0.1, -0.1, 0.3, -0.3][$0 % 7]) }
    }

    static func warnings(_ runs: [RunMeasurement], mode: LaunchMode = .warm) -> [String] {
        Summarizer().summarize(BenchmarkResult(target: target, mode: mode, runs: runs)).warnings.map(\.message)
    }

    @Test func summariesCoverEveryMeasuredMetric() throws {
        let result = Summarizer().summarize(BenchmarkResult(target: Self.target, mode: .warm, runs: Self.clean()))
        let keys = Set(result.summaries.keys)
        #expect(
            keys == [
                "wall_to_ready", "wall_to_exit", "process_entry", "main", "milestone:config", "milestone:ready",
                "user_cpu", "system_cpu", "cpu", "max_rss", "major_faults", "minor_faults",
                "voluntary_context_switches", "involuntary_context_switches",
            ])
        let ready = try #require(result.summaries["wall_to_ready"])
        #expect(ready.count == 20 && ready.median == 10_000_000)
        #expect(result.summaries["max_rss"]?.median == Double(12 << 20))
        #expect(result.warnings.isEmpty)
    }

    @Test func metricsAreInReportOrder() {
        let order = Summarizer.metrics(measuredBy: Self.clean(3)).map(\.key)
        #expect(
            Array(order.prefix(6)) == ["wall_to_ready", "wall_to_exit", "process_entry", "main", "milestone:config", "milestone:ready"])
        let untraced = [RunMeasurement(index: 0, wallToExit: 5, wallToReady: 5, exit: .exited(0))]
        #expect(!Summarizer.metrics(measuredBy: untraced).contains(.processEntry))
    }

    @Test func outlierIsNamedWithItsRun() throws {
        var runs = Self.clean()
        runs[12] = Self.run(12, ms: 25)
        let warnings = Self.warnings(runs)
        #expect(warnings.count == 1)
        let text = try #require(warnings.first)
        #expect(text.contains("1 of 20 runs are outliers in time to ready"))
        #expect(text.contains("run 13 (25.0 ms)"))
    }

    @Test func slowFirstRunSuggestsWarmupOrColdMode() throws {
        var runs = Self.clean()
        runs[0] = Self.run(0, ms: 40)
        let warnings = Self.warnings(runs)
        #expect(warnings.count == 1)  // reported as a slow first run, not also as an outlier
        let text = try #require(warnings.first)
        #expect(text.contains("first run was much slower than the rest (40.0 ms vs a median of 10.0 ms)"))
        #expect(text.contains("--warmup") && text.contains("--mode cold"))
        #expect(Self.warnings(runs, mode: .cold).first?.contains("residency") == true)
    }

    @Test func failedRunsAreCountedByStatusAndLeftOut() throws {
        var runs = Self.clean()
        runs[3] = RunMeasurement(index: 3, wallToExit: 1_000_000, exit: .exited(1))
        runs[8] = RunMeasurement(index: 8, exit: .signaled(11))
        runs[9] = RunMeasurement(index: 9, wallToExit: 900_000, exit: .exited(1))
        let result = Summarizer().summarize(BenchmarkResult(target: Self.target, mode: .warm, runs: runs))
        #expect(result.summaries["wall_to_ready"]?.count == 17)
        #expect(
            result.warnings == [
                ResultWarning(
                    .failedRuns,
                    "3 of 20 runs failed and are left out of the statistics: exited with status 1 (runs 4, 10); "
                        + "killed by signal 11 (run 9).")
            ])
    }

    @Test func fewRunsAreWeak() {
        #expect(Self.warnings(Self.clean(3)) == ["only 3 successful runs: the statistics are weak; use --runs 10 or more."])
        #expect(Self.warnings([]) == ["no run succeeded: there is nothing to summarize."])
    }

    @Test func highResidencyInColdModeNamesTheFiles() throws {
        let cold = ResidencyReport(files: [
            .init(path: "/usr/bin/app", residentPages: 0, totalPages: 100),
            .init(path: "/usr/lib/libc.so.6", residentPages: 2, totalPages: 500),
        ])
        let stuck = ResidencyReport(files: [
            .init(path: "/usr/bin/app", residentPages: 0, totalPages: 100),
            .init(path: "/usr/lib/libc.so.6", residentPages: 400, totalPages: 500, note: "mapped by another process"),
        ])
        var runs = (0..<10).map { Self.run($0, ms: 10, residency: cold) }
        #expect(Self.warnings(runs, mode: .cold).isEmpty)
        runs[2].residency = stuck
        runs[5].residency = stuck
        let warnings = Self.warnings(runs, mode: .cold)
        #expect(warnings.count == 1)
        let text = try #require(warnings.first)
        #expect(text.contains("2 of 10 cold runs started with more than 10% of the evicted files still cached (up to 67%)"))
        #expect(text.contains("/usr/lib/libc.so.6 80% resident (mapped by another process)"))
        #expect(!text.contains("/usr/bin/app"))
        // Warm mode does not judge residency.
        #expect(Self.warnings(runs, mode: .warm).isEmpty)
    }

    @Test("still-cached files are named largest first, so the few named are the ones that weigh most")
    func highResidencyNamesTheLargestFirst() throws {
        // Seven libraries wholly resident (as when other processes map them):
        // the warning names five, and the largest must be among them whatever
        // order the files came in.
        let sizes = [
            ("libswift_RegexParser.so", 170), ("libswiftCore.so", 2600), ("libswiftGlibc.so", 20), ("libdispatch.so", 130),
            ("libswift_Concurrency.so", 200), ("libBlocksRuntime.so", 4), ("libswiftSwiftOnoneSupport.so", 60),
        ]
        let stuck = ResidencyReport(
            files: sizes.map {
                .init(path: "/opt/swift/lib/\($0.0)", residentPages: $0.1, totalPages: $0.1, note: "mapped by another process")
            })
        let runs = (0..<10).map { Self.run($0, ms: 10, residency: stuck) }
        let text = try #require(Self.warnings(runs, mode: .cold).first)
        let named = [
            "libswiftCore.so", "libswift_Concurrency.so", "libswift_RegexParser.so", "libdispatch.so", "libswiftSwiftOnoneSupport.so",
        ]
        let positions = named.map { name in text.range(of: "/\(name) 100% resident")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil }, "\(text)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(text)")
        #expect(text.hasSuffix("and 2 more."), "\(text)")
        #expect(!text.contains("libswiftGlibc.so") && !text.contains("libBlocksRuntime.so"))
    }

    @Test func allEqualRunsGiveNoWarnings() {
        let runs = (0..<10).map { Self.run($0, ms: 5) }
        #expect(Self.warnings(runs).isEmpty)
    }
}
