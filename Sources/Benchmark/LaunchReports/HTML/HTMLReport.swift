import LaunchAnalysis
import LaunchEngine
import LaunchProfFiles
import LaunchSupport

/// A self-contained HTML report of launch results: a header (machine, tool
/// version, date, command line, run counts), a summary table, the change
/// against a baseline, and per target a launch timeline of the median run,
/// the distribution of every run and, when it was profiled, a flame graph;
/// resources last.
///
/// The page is one file: inline SVG and CSS, no scripts, fonts, images or
/// links outside itself, readable offline and attachable to a CI run. It is
/// written as XHTML-compatible markup, so an XML parser can check it.
package struct HTMLReport: Sendable {
    /// The results the report shows.
    package var document: ResultsDocument
    /// The earlier results drawn beside them, if any.
    package var baseline: ResultsDocument?
    /// Traces by target name; each adds per-thread lanes to that target's timeline.
    package var traces: [String: Trace]
    /// Launch profiles by target name (`run --profile`); each adds a flame
    /// graph after that target's distributions.
    package var profiles: [String: SymbolizedProfile]
    /// Differential flame graphs against the baseline's profile, by target
    /// (SVG documents): the session's, in memory, or those a later `report`
    /// read from the files the results name (`savedDifferentialFlameGraphs`).
    package var differentialFlameGraphs: [String: String]
    /// Where the results came from, for the footer ("results.json").
    package var source: String?
    /// The changes against the baseline the report shows (see `init`).
    package private(set) var comparison: BaselineComparison?

    /// A report of `document`, which only reads what it is given: the
    /// change against a baseline is `comparison` when given (the engine's
    /// `ResultsDocument.comparison(against:named:)`), else the one the
    /// results hold. A `baseline`'s runs are drawn beside the current ones.
    package init(
        document: ResultsDocument, baseline: ResultsDocument? = nil, comparison: BaselineComparison? = nil,
        traces: [String: Trace] = [:], profiles: [String: SymbolizedProfile] = [:],
        differentialFlameGraphs: [String: String] = [:], source: String? = nil
    ) {
        self.document = document
        self.baseline = baseline
        self.traces = traces
        self.profiles = profiles
        self.differentialFlameGraphs = differentialFlameGraphs
        self.source = source
        self.comparison = comparison ?? document.comparison
    }

    /// Target names in the order they first appear in the results.
    var targetNames: [String] {
        var names: [String] = []
        for result in document.results where !names.contains(result.target.name) { names.append(result.target.name) }
        return names
    }

    /// The results of one target, cold before warm.
    func results(of target: String, in document: ResultsDocument) -> [BenchmarkResult] {
        LaunchMode.allCases.flatMap { mode in document.results.filter { $0.target.name == target && $0.mode == mode } }
    }

    /// The budgets of one target, as the results hold them.
    func budgets(of target: String) -> [BudgetEvaluation] {
        (document.budgets ?? []).filter { $0.target == target }
    }

    /// Every chart, in page order: per target its timelines (one per mode,
    /// the trace with the warm one) and its distributions; then the change
    /// against the baseline and the resources.
    package var charts: [ReportChart] {
        var charts: [ReportChart] = []
        for (number, target) in targetNames.enumerated() {
            charts += targetCharts(target, number: number + 1)
        }
        if let changes = comparison?.changes, !changes.isEmpty {
            let chart = ChangeChart(changes: changes)
            charts.append(ReportChart(id: chart.id, title: chart.title, fileName: "changes.svg", canvas: chart.render()))
        }
        if !document.results.isEmpty {
            let chart = ResourceChart(results: document.results, budgets: document.budgets ?? [])
            charts.append(ReportChart(id: chart.id, title: chart.title, fileName: "resources.svg", canvas: chart.render()))
        }
        return charts
    }

    /// The timelines and the distribution chart of one target.
    func targetCharts(_ target: String, number: Int) -> [ReportChart] {
        let results = results(of: target, in: document)
        let prefix = "\(number)-\(ReportChart.slug(target))"
        let traced = results.first { $0.mode == .warm } ?? results.first
        var charts = results.map { result in
            let waterfall = LaunchWaterfall(result: result, trace: result.mode == traced?.mode ? traces[target] : nil)
            let chart = WaterfallChart(waterfall: waterfall, id: "t\(number)-\(result.mode.rawValue)-timeline")
            return ReportChart(
                id: chart.id, title: chart.title, fileName: "\(prefix)-timeline-\(result.mode.rawValue).svg",
                canvas: chart.render())
        }
        let baselines = baseline.map { self.results(of: target, in: $0) } ?? []
        let distribution = DistributionChart(
            target: target, results: results, baselines: baselines, budgets: budgets(of: target), id: "t\(number)-distribution")
        charts.append(
            ReportChart(
                id: distribution.id, title: distribution.title, fileName: "\(prefix)-distribution.svg",
                canvas: distribution.render()))
        if let profile = profiles[target] {
            let chart = ProfileChart(target: target, profile: profile, id: "t\(number)-profile")
            charts.append(ReportChart(id: chart.id, title: chart.title, fileName: "\(prefix)-profile.svg", canvas: chart.render()))
        }
        return charts
    }

    /// The whole page.
    package func html() -> String {
        HTMLPage(report: self).render()
    }

    /// Writes the page to `path`, whole or not at all.
    package func write(to path: String) throws(AtomicFileError) {
        try AtomicFile.write(html(), to: path)
    }
}
