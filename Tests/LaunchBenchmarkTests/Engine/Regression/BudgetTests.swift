import LaunchBenchmark
import Testing

@Suite("Budgets")
struct BudgetTests {
    @Test("quantities: time and size units, counts, errors naming the text")
    func quantities() throws {
        #expect(try Quantity(parsing: "40ms") == Quantity(value: 40e6, unit: .nanoseconds))
        #expect(try Quantity(parsing: "1.5s") == Quantity(value: 1.5e9, unit: .nanoseconds))
        #expect(try Quantity(parsing: "250us") == Quantity(value: 250e3, unit: .nanoseconds))
        #expect(try Quantity(parsing: "250µs") == Quantity(value: 250e3, unit: .nanoseconds))
        #expect(try Quantity(parsing: "900 ns") == Quantity(value: 900, unit: .nanoseconds))
        #expect(try Quantity(parsing: "30MiB") == Quantity(value: 30 * 1_048_576, unit: .bytes))
        #expect(try Quantity(parsing: "2GB") == Quantity(value: 2e9, unit: .bytes))
        #expect(try Quantity(parsing: "512KiB") == Quantity(value: 512 * 1024, unit: .bytes))
        #expect(try Quantity(parsing: "12") == Quantity(value: 12, unit: .count))
        #expect(throws: QuantityError.unknownUnit("40 min", unit: "min")) { try Quantity(parsing: "40 min") }
        #expect(throws: QuantityError.notANumber("fast")) { try Quantity(parsing: "fast") }
        #expect(throws: QuantityError.negative("-3ms")) { try Quantity(parsing: "-3ms") }
        #expect("\(QuantityError.unknownUnit("40 min", unit: "min"))".contains("'40 min' has unknown unit 'min'"))
    }

    @Test("limits: absolute, ratio, ratio to another metric, default reference")
    func limits() throws {
        #expect(try Budget.Limit(parsing: "<= 40ms", defaultReference: nil) == .absolute(Quantity(value: 40e6, unit: .nanoseconds)))
        #expect(try Budget.Limit(parsing: "1.2x hello-c", defaultReference: nil) == .ratio(1.2, reference: "hello-c"))
        #expect(try Budget.Limit(parsing: "≤ 1.2× hello-c", defaultReference: nil) == .ratio(1.2, reference: "hello-c"))
        #expect(
            try Budget.Limit(parsing: "3x hello-c exit", defaultReference: nil)
                == .ratio(3, reference: "hello-c", metric: .wallToExit))
        #expect(try Budget.Limit(parsing: "2x", defaultReference: "plain") == .ratio(2, reference: "plain"))
        #expect(throws: BudgetLimitError.ratioWithoutReference("2x")) { try Budget.Limit(parsing: "2x", defaultReference: nil) }
        #expect(throws: BudgetLimitError.badRatio("0x hello")) { try Budget.Limit(parsing: "0x hello", defaultReference: nil) }
        #expect(throws: BudgetLimitError.unknownMetric("2x a speed", "speed")) {
            try Budget.Limit(parsing: "2x a speed", defaultReference: nil)
        }
    }

    @Test("evaluation of each statistic against an absolute limit")
    func statistics() throws {
        // Time to exit 1…10 ms: p50 5.5, p90 9.1, p95 9.55, p99 9.91, mean 5.5, max 10, min 1.
        let result = Self.result("app", times: (1...10).map { Double($0) * 1e6 })
        let expected: [(SummaryStatistic, Double)] = [
            (.min, 1e6), (.p50, 5.5e6), (.p90, 9.1e6), (.p95, 9.55e6), (.p99, 9.91e6), (.mean, 5.5e6), (.max, 10e6),
        ]
        for (statistic, value) in expected {
            let passing = Budget(
                target: "app", metric: .wallToExit, statistic: statistic,
                limit: .absolute(Quantity(value: value + 1, unit: .nanoseconds)))
            let failing = Budget(
                target: "app", metric: .wallToExit, statistic: statistic,
                limit: .absolute(Quantity(value: value - 1, unit: .nanoseconds)))
            let evaluations = BudgetEvaluator(budgets: [passing, failing]).evaluate([result])
            #expect(evaluations.count == 2)
            #expect(abs(evaluations[0].observed! - value) < 1e-6, "\(statistic)")
            #expect(evaluations[0].passed, "\(statistic): \(evaluations[0].message)")
            #expect(!evaluations[1].passed, "\(statistic): \(evaluations[1].message)")
            #expect(evaluations[1].message.contains(">"))
        }
    }

    @Test("ratio budgets use the reference's statistic in the same mode; missing data fails clearly")
    func ratios() throws {
        let app = Self.result("app", times: Array(repeating: 12e6, count: 5))
        let reference = Self.result("hello", times: Array(repeating: 10e6, count: 5))
        let budgets = [
            Budget(target: "app", metric: .wallToExit, limit: .ratio(1.25, reference: "hello")),
            Budget(target: "app", metric: .wallToExit, limit: .ratio(1.1, reference: "hello")),
            Budget(target: "app", metric: .milestone("loaded"), limit: .ratio(2, reference: "hello")),
            Budget(target: "app", mode: .cold, metric: .wallToExit, limit: .ratio(2, reference: "hello")),
        ]
        let evaluations = BudgetEvaluator(budgets: budgets).evaluate([app, reference])
        #expect(evaluations.count == 3)  // the cold budget has no cold result to apply to
        #expect(evaluations[0].passed && abs(evaluations[0].ratio! - 1.2) < 1e-9)
        #expect(evaluations[0].limitValue == 12.5e6)
        #expect(!evaluations[1].passed)
        #expect(!evaluations[2].passed)
        #expect(evaluations[2].message.contains("not measured"), "\(evaluations[2].message)")
        #expect(evaluations[2].message.contains("milestone 'loaded'"), "\(evaluations[2].message)")
    }

    @Test("a target whose runs all failed fails its budget, naming why")
    func failedRuns() throws {
        var result = Self.result("app", times: [1e6, 2e6])
        for index in result.runs.indices { result.runs[index].exit = .signaled(11) }
        let budget = Budget(target: "app", metric: .wallToExit, limit: .absolute(Quantity(value: 1e9, unit: .nanoseconds)))
        let evaluation = try #require(BudgetEvaluator(budgets: [budget]).evaluate([result]).first)
        #expect(!evaluation.passed)
        #expect(evaluation.message.contains("no successful run"))
    }

    @Test("max RSS that is only launchprof's own peak: a budget above it passes, one below it cannot be checked")
    func rssUpperBound() throws {
        var result = Self.result("app", times: [1e6, 2e6])
        for index in result.runs.indices {
            result.runs[index].maxRSSBytes = 26 << 20
            result.runs[index].maxRSSIsUpperBound = true
        }
        let generous = Budget(
            target: "app", metric: .maxRSS, statistic: .max, limit: .absolute(Quantity(value: 64 * 1_048_576, unit: .bytes)))
        let tight = Budget(target: "app", metric: .maxRSS, statistic: .max, limit: .absolute(Quantity(value: 8 * 1_048_576, unit: .bytes)))
        let evaluations = BudgetEvaluator(budgets: [generous, tight]).evaluate([result])
        #expect(evaluations[0].passed && evaluations[0].message.contains("(an upper bound: launchprof's own peak)"))
        #expect(!evaluations[1].passed && evaluations[1].message.contains("cannot be checked"))
        let comparison = BaselineComparer(budgets: [generous]).compare(
            baseline: BaselineComparerTests.document([result]), current: BaselineComparerTests.document([result]), baselineName: "b")
        #expect(comparison.changes.map { $0.metric } == ["wall_to_ready"])
        #expect(comparison.warnings.contains { $0.message.contains("max_rss: not compared") })
    }

    static func result(_ name: String, mode: LaunchMode = .warm, times: [Double]) -> BenchmarkResult {
        let runs = times.enumerated().map { index, time in
            RunMeasurement(index: index, wallToExit: UInt64(time), wallToReady: UInt64(time), exit: .exited(0))
        }
        return BenchmarkResult(target: LaunchTarget(name: name, arguments: ["/bin/\(name)"]), mode: mode, runs: runs)
    }
}
