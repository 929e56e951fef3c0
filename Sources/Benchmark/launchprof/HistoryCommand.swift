import ArgumentParser
import Foundation
import LaunchBenchmark

/// `launchprof history RESULTS…`: change points in each series of many
/// results (a fleet's CI artifacts), and a nightly job's verdict.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Find where launch metrics changed over many results files (change points, by E-divisive means).",
        discussion: """
            RESULTS are files written by 'launchprof run --export-json', or directories of them (searched \
            recursively; other JSON there is skipped and listed), as 'launchprof report' takes them. Each target, \
            mode, metric and machine (CI's runner, else the host) is one series of the runs' medians, ordered by \
            the date each was measured, or with --repository by its commit's place in 'git log'. With --prometheus \
            the same series are read from the Prometheus server the fleet pushes to. Change points are \
            found by E-divisive means with a Student's t-test, as Hunter and Apache Otava find them, and a change \
            smaller than the series' own noise is not one (docs/history.md). \
            Exit status: 0 no series' newest change point is a regression beyond --threshold, 1 one is, \
            2 bad usage or an input that cannot be read or written.
            """)

    @Argument(help: "Results files (from 'launchprof run --export-json') or directories of them.")
    var results: [String] = []

    @Option(
        help: ArgumentHelp(
            "Read the series from this Prometheus server instead (the runs the fleet pushed through the Pushgateway), e.g. http://127.0.0.1:9090.",
            valueName: "url"))
    var prometheus: String?

    @Option(help: ArgumentHelp("With --prometheus: how far back to read, as PromQL says it (default 90d).", valueName: "duration"))
    var range: String = "90d"

    @Option(
        help: ArgumentHelp(
            "Order runs by their commit's place in this git repository's log (runs whose commit is not in it are skipped).",
            valueName: "dir"))
    var repository: String?

    @Option(
        help: ArgumentHelp(
            "Exit 1 when a series' newest change point is a regression larger than this (default 5%).", valueName: "percent"),
        transform: { try Fraction(parsing: $0) })
    var threshold: Fraction?

    @Option(
        help: ArgumentHelp("A change point's largest p-value (Student's t-test; default 0.001, as Otava).", valueName: "p"),
        transform: { try Fraction(parsing: $0) })
    var maxPValue: Fraction?

    @Option(help: ArgumentHelp("Points per window of the split step (default 50, as Otava; 4 to 1000).", valueName: "n"))
    var window: Int = 50

    @Option(
        help: ArgumentHelp("Leave out changes of the median smaller than this, besides those under the noise.", valueName: "percent"),
        transform: { try Fraction(parsing: $0) })
    var minChange: Fraction?

    @Option(
        help: ArgumentHelp(
            "How many of the series' noise σ (of successive differences) the median must move to be a change (default 1).",
            valueName: "k"))
    var noiseMultiple: Double = 1

    @Option(help: ArgumentHelp("Only this metric's series, by key (wall_to_ready, max_rss, …; repeatable).", valueName: "key"))
    var metric: [String] = []

    @Option(help: ArgumentHelp("Write the series and change points as JSON to this file.", valueName: "file"))
    var exportJson: String?

    func validate() throws {
        if prometheus != nil {
            guard results.isEmpty else { throw ValidationError("give results files or --prometheus URL, not both") }
            guard repository == nil else { throw ValidationError("--repository orders results files; --prometheus orders by time") }
        } else {
            guard !results.isEmpty else { throw ValidationError("give results files or directories of them, or --prometheus URL") }
        }
        guard noiseMultiple >= 0, noiseMultiple <= 100 else {
            throw ValidationError("--noise-multiple must be from 0 to 100, not \(noiseMultiple)")
        }
        guard (4...1000).contains(window) else { throw ValidationError("--window must be from 4 to 1000 points, not \(window)") }
    }

    func run() throws {
        var history: ResultsHistory
        do {
            if let prometheus {
                history = try PrometheusHistory.load(server: prometheus, range: range)
            } else {
                let order = try repository.map { repository throws(HistoryError) in try GitLog.commits(in: repository) }
                history = try ResultsHistory.load(results, commitOrder: order)
            }
        } catch {
            throw Output.fail("history: \(error.description)", status: .usage)
        }
        if !metric.isEmpty {
            history.series = history.series.filter { metric.contains($0.key.metric) }
            if history.series.isEmpty {
                throw Output.fail("history: no series of metric \(metric.joined(separator: ", ")) in the results", status: .usage)
            }
        }
        for skipped in history.skipped { Output.note("history: skipped \(skipped.path): \(skipped.reason)") }
        let detector = EDivisiveMeans(
            windowLength: window, maxPValue: maxPValue?.value ?? 0.001, minimumChange: minChange?.value ?? 0,
            noiseMultiple: noiseMultiple)
        let analysis = HistoryAnalysis(
            history: history, detector: detector, threshold: threshold?.value ?? 0.05, byGitLog: repository != nil)
        for line in HistoryReportLines.lines(analysis) { Output.line(line) }
        if let exportJson {
            do {
                try analysis.writeJSON(to: exportJson)
            } catch {
                throw Output.fail("history: cannot write '\(exportJson)': \(error)", status: .usage)
            }
        }
        if analysis.exitStatus != .success { throw ExitCode(analysis.exitStatus) }
    }
}
