import Testing

@testable import LaunchBenchmark

/// Metric keys are what results, budgets and baselines name metrics by: the
/// one list of unnamed metrics must round-trip through them.
@Suite struct MetricTests {
    @Test("every unnamed metric once, its key read back as itself, none of the named groups")
    func unnamedListIsWhole() {
        #expect(Set(Metric.unnamed).count == Metric.unnamed.count)
        for metric in Metric.unnamed {
            #expect(Metric(key: metric.key) == metric, "\(metric.key)")
            #expect(metric.group != .named, "\(metric.key)")
        }
        #expect(Metric(key: "milestone:config loaded") == .milestone("config loaded"))
        #expect(Metric(key: "interval:main/build index") == .interval("main/build index"))
        #expect(Metric(key: "wall_to_nowhere") == nil)
    }

    @Test("the config's list of metric names holds every key and the aliases")
    func configNames() {
        for metric in Metric.unnamed { #expect(Metric.configNames.contains(metric.key), "\(metric.key)") }
        #expect(Metric.configNames.contains("wall_to_ready (ready)") && Metric.configNames.contains("main (pre_main)"))
    }
}
