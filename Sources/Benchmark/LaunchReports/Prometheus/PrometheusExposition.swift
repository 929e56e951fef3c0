import Foundation
import LaunchEngine

/// Results in Prometheus's text exposition format (version 0.0.4): what
/// `--export-openmetrics` writes for node_exporter's textfile collector and
/// `--push-gateway` sends to a Pushgateway.
///
/// Conventions: base units (`_seconds`, `_bytes`), one HELP and TYPE per
/// family, each family's series together. A metric summarised over the runs
/// is a summary (`quantile` 0.5, 0.9, 0.95 and 0.99, `_sum` and `_count` over
/// the successful runs); run counts, budget and regression verdicts are
/// gauges. Every series carries `target`, `mode` and the `MetricLabels`.
package struct PrometheusExposition: Sendable {
    /// Labels every series carries.
    package var labels: MetricLabels

    /// An exposition with these labels.
    package init(labels: MetricLabels) { self.labels = labels }

    /// One target and mode's series: what one push replaces.
    package struct Group: Sendable, Equatable {
        /// The target the series are of.
        package var target: String
        /// The mode the series are of.
        package var mode: LaunchMode
        /// The exposition text of this group alone.
        package var text: String
    }

    /// Every result's series, family by family.
    package func text(_ document: ResultsDocument) -> String {
        render(families(document, results: document.results))
    }

    /// The series of each target and mode, apart: a Pushgateway group each.
    package func groups(_ document: ResultsDocument) -> [Group] {
        document.results.map { result in
            Group(target: result.target.name, mode: result.mode, text: render(families(document, results: [result])))
        }
    }

    // MARK: - Families

    struct Sample {
        var suffix = ""
        var labels: [(String, String)]
        var value: Double
    }

    struct Family {
        var name: String
        var help: String
        var type: String
        var samples: [Sample] = []
    }

    /// The quantiles each summary has, from `summary`.
    static func quantiles(of summary: MetricSummary) -> [(label: String, value: Double)] {
        [("0.5", summary.median), ("0.9", summary.p90), ("0.95", summary.p95), ("0.99", summary.p99)]
    }

    func families(_ document: ResultsDocument, results: [BenchmarkResult]) -> [Family] {
        var summaries: [String: Family] = [:]
        var order: [String] = []
        var runs = Family(name: "launchprof_runs", help: "Measured runs of the target in this mode.", type: "gauge")
        var failed = Family(
            name: "launchprof_failed_runs", help: "Measured runs that crashed, timed out or exited non-zero.", type: "gauge")
        var timestamp = Family(
            name: "launchprof_last_run_timestamp_seconds", help: "When these results were measured (Unix time).", type: "gauge")
        let measuredAt = Self.unixTime(document.date)
        for result in results {
            let base = [("target", result.target.name), ("mode", result.mode.rawValue)]
            runs.samples.append(Sample(labels: base, value: Double(result.runs.count)))
            failed.samples.append(Sample(labels: base, value: Double(result.runs.filter { !$0.exit.isSuccess }.count)))
            if let measuredAt { timestamp.samples.append(Sample(labels: base, value: measuredAt)) }
            for key in result.summaries.keys.sorted() {
                guard let metric = Metric(key: key), let summary = result.summaries[key],
                    let shape = metric.exposition
                else { continue }
                if summaries[shape.name] == nil {
                    summaries[shape.name] = Family(name: shape.name, help: shape.help, type: "summary")
                    order.append(shape.name)
                }
                let labels = base + shape.labels
                for (quantile, value) in Self.quantiles(of: summary) {
                    summaries[shape.name]!.samples.append(
                        Sample(labels: labels + [("quantile", quantile)], value: value / shape.divisor))
                }
                summaries[shape.name]!.samples.append(
                    Sample(suffix: "_sum", labels: labels, value: summary.mean * Double(summary.count) / shape.divisor))
                summaries[shape.name]!.samples.append(Sample(suffix: "_count", labels: labels, value: Double(summary.count)))
            }
        }
        let names = Set(results.map { "\($0.target.name)\u{0}\($0.mode.rawValue)" })
        func ours(_ target: String, _ mode: LaunchMode) -> Bool { names.contains("\(target)\u{0}\(mode.rawValue)") }
        var budgets = Family(
            name: "launchprof_budget_passed", help: "1 when the budget was met, 0 when it was exceeded or not measured.",
            type: "gauge")
        for budget in document.budgets ?? [] where ours(budget.target, budget.mode) {
            budgets.samples.append(
                Sample(
                    labels: [
                        ("target", budget.target), ("mode", budget.mode.rawValue), ("metric", budget.metric),
                        ("statistic", budget.statistic.rawValue), ("limit", budget.limit),
                    ],
                    value: budget.passed ? 1 : 0))
        }
        var regressed = Family(
            name: "launchprof_regression",
            help: "1 when the metric regressed against the baseline (beyond the threshold and significant), else 0.",
            type: "gauge")
        var change = Family(
            name: "launchprof_change_ratio", help: "The metric's relative change against the baseline (0.1 = 10% higher).",
            type: "gauge")
        if let comparison = document.comparison {
            for item in comparison.changes where ours(item.target, item.mode) {
                let labels = [
                    ("target", item.target), ("mode", item.mode.rawValue), ("metric", item.metric),
                    ("statistic", item.statistic.rawValue), ("baseline", comparison.baseline),
                ]
                regressed.samples.append(Sample(labels: labels, value: item.verdict == .regressed ? 1 : 0))
                change.samples.append(Sample(labels: labels, value: item.change))
            }
        }
        return order.compactMap { summaries[$0] } + [runs, failed, budgets, regressed, change, timestamp]
    }

    func render(_ families: [Family]) -> String {
        var text = ""
        for family in families where !family.samples.isEmpty {
            let name = Self.metricName(family.name)
            text += "# HELP \(name) \(Self.escapeHelp(family.help))\n# TYPE \(name) \(family.type)\n"
            for sample in family.samples {
                let all = sample.labels + labels.pairs.filter { name, _ in !sample.labels.contains { $0.0 == name } }
                let rendered = all.map { "\(Self.labelName($0.0))=\"\(Self.escapeLabel($0.1))\"" }.joined(separator: ",")
                text += "\(name)\(sample.suffix){\(rendered)} \(Self.number(sample.value))\n"
            }
        }
        return text
    }

    /// A label value escaped as the format asks (backslash, double quote and
    /// line feed), scalar by scalar: `"\r\n"` is one Swift Character, so a
    /// check for `"\n"` among Characters never sees the line feed in it.
    /// The format has no escape for any other control character, and a raw
    /// CR breaks line-oriented readers: each C0 control is written as its
    /// Unicode control picture (CR as U+240D ␍), DEL as U+2421 ␡ and each C1
    /// control as U+FFFD.
    static func escapeLabel(_ value: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x5c: out.append(contentsOf: #"\\"#.unicodeScalars)
            case 0x22: out.append(contentsOf: #"\""#.unicodeScalars)
            case 0x0a: out.append(contentsOf: #"\n"#.unicodeScalars)
            default: out.append(visible(scalar))
            }
        }
        return String(out)
    }

    /// HELP text escaped (backslash and line feed), other controls made visible.
    static func escapeHelp(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5c: out.append(contentsOf: #"\\"#.unicodeScalars)
            case 0x0a: out.append(contentsOf: #"\n"#.unicodeScalars)
            default: out.append(visible(scalar))
            }
        }
        return String(out)
    }

    /// `scalar`, or a printable stand-in for a control character.
    private static func visible(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x00..<0x20: Unicode.Scalar(0x2400 + scalar.value)!
        case 0x7f: "\u{2421}"
        case 0x80..<0xa0: "\u{FFFD}"
        default: scalar
        }
    }

    /// A metric name as the format allows (`[a-zA-Z_:][a-zA-Z0-9_:]*`),
    /// anything else replaced by `_`. launchprof's names are constants; this
    /// keeps the exposition valid whatever a name is built from.
    static func metricName(_ name: String) -> String {
        var out = ""
        for (index, byte) in name.utf8.enumerated() {
            let letter = (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a) || byte == 0x5f || byte == 0x3a
            let digit = byte >= 0x30 && byte <= 0x39
            out.append(letter || (digit && index > 0) ? Character(Unicode.Scalar(byte)) : "_")
        }
        return out.isEmpty ? "_" : out
    }

    /// A label name as the format allows (`[a-zA-Z_][a-zA-Z0-9_]*`).
    static func labelName(_ name: String) -> String {
        metricName(name).replacingOccurrences(of: ":", with: "_")
    }

    /// A sample value as the format writes floats (`NaN`, `+Inf`, `-Inf`).
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// An ISO 8601 date as Unix time.
    static func unixTime(_ date: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: date)?.timeIntervalSince1970
    }
}

extension Metric {
    /// The summary family a metric is exported as: its name, help text,
    /// extra labels and the divisor from launchprof's unit to the base unit.
    var exposition: (name: String, help: String, labels: [(String, String)], divisor: Double)? {
        let seconds = 1e9
        switch self {
        case .wallToReady: return ("launchprof_time_to_ready_seconds", "From the spawn to ready (the ready probe).", [], seconds)
        case .wallToExit: return ("launchprof_time_to_exit_seconds", "From the spawn to the exit of the launched process.", [], seconds)
        case .processEntry:
            return ("launchprof_process_entry_seconds", "From the spawn to process entry (exec and dynamic loading).", [], seconds)
        case .main: return ("launchprof_main_seconds", "From the spawn to main (LaunchTracker.recordLaunchStart).", [], seconds)
        case .milestone(let name):
            return ("launchprof_milestone_seconds", "From the spawn to each launch milestone.", [("milestone", name)], seconds)
        case .interval(let key):
            let (thread, name) = Metric.intervalParts(key)
            return (
                "launchprof_interval_seconds", "Time in each signpost interval up to ready, by thread role (--trace-runs).",
                [("interval", name), ("thread", thread)], seconds
            )
        case .userCPU: return ("launchprof_user_cpu_seconds", "CPU time in user mode of the whole process tree.", [], seconds)
        case .systemCPU: return ("launchprof_system_cpu_seconds", "CPU time in the kernel of the whole process tree.", [], seconds)
        case .cpu: return ("launchprof_cpu_seconds", "User and system CPU time of the whole process tree.", [], seconds)
        case .maxRSS: return ("launchprof_max_rss_bytes", "The largest resident set size of any process of the tree.", [], 1)
        case .majorFaults: return ("launchprof_major_page_faults", "Page faults that read from disk, per launch.", [], 1)
        case .minorFaults: return ("launchprof_minor_page_faults", "Page faults served from memory, per launch.", [], 1)
        case .voluntaryContextSwitches:
            return ("launchprof_voluntary_context_switches", "Times a process of the tree waited, per launch.", [], 1)
        case .involuntaryContextSwitches:
            return ("launchprof_involuntary_context_switches", "Times a process of the tree was preempted, per launch.", [], 1)
        case .timeToSuspend:
            return ("launchprof_time_to_suspend_seconds", "From SIGTSTP to the process stopped (--measure resume).", [], seconds)
        case .timeToResume:
            return ("launchprof_time_to_resume_seconds", "From SIGCONT to LaunchProf's resumed record (--measure resume).", [], seconds)
        case .timeToShutdown: return ("launchprof_time_to_shutdown_seconds", "From SIGTERM to the exit (--measure shutdown).", [], seconds)
        case .firstResponseByte:
            return (
                "launchprof_first_response_byte_seconds",
                "From the spawn to the first byte of the response to the request that waited for the launch (--activate).", [], seconds
            )
        case .warmRequest:
            return (
                "launchprof_warm_request_seconds", "The same request once the program is up, connect to whole response (--activate).", [],
                seconds
            )
        case .instructions:
            return (
                "launchprof_instructions", "Instructions to ready of the launched tree (--counts: perf_event_open or callgrind).", [], 1
            )
        case .cycles: return ("launchprof_cycles", "CPU cycles to ready of the launched tree (--counts perf).", [], 1)
        case .cacheReferences:
            return ("launchprof_cache_references", "Cache references to ready of the launched tree (--counts perf).", [], 1)
        case .cacheMisses: return ("launchprof_cache_misses", "Cache misses to ready of the launched tree (--counts perf).", [], 1)
        case .branchMisses: return ("launchprof_branch_misses", "Branch misses to ready of the launched tree (--counts perf).", [], 1)
        case .taskClock:
            return ("launchprof_task_clock_seconds", "CPU time to ready of the launched tree (--counts perf, task-clock).", [], seconds)
        case .pageFaults: return ("launchprof_page_faults", "Page faults to ready of the launched tree (--counts perf).", [], 1)
        case .contextSwitches:
            return ("launchprof_context_switches", "Context switches to ready of the launched tree (--counts perf).", [], 1)
        case .cpuMigrations: return ("launchprof_cpu_migrations", "CPU migrations to ready of the launched tree (--counts perf).", [], 1)
        }
    }
}
