import LaunchEngine
import LaunchReports
import LaunchSupport

/// What a benchmark session gave: the results document (with budgets,
/// comparison and profiles), what stopped it early if anything did, and the
/// verdict. Writes every format the CLI writes.
public struct BenchmarkOutcome: Sendable {
    /// The results: what `--export-json` writes.
    public var document: ResultsDocument
    /// The results without the profiles: what a saved baseline keeps.
    public var measured: ResultsDocument
    /// The run that stopped the benchmark by failing (crash, timeout,
    /// non-zero exit), if one did; ``document`` holds the runs before it.
    public var failure: RunFailure?
    /// Ctrl-C (or a cancelled task) stopped the benchmark; ``document``
    /// holds the runs measured before.
    public var interrupted: Bool
    /// The baseline compared with, as read.
    public var baseline: (document: ResultsDocument, name: String)?
    /// The profiles, when asked for and measuring succeeded.
    public var profiling: ProfilingOutcome?
    /// Why profiling could not run at all (its directory vanished, …).
    public var profilingError: String?
    /// Where the baseline was saved, when asked for.
    public var savedBaseline: String?
    /// Why the baseline could not be saved.
    public var baselineSaveError: String?

    /// An outcome of these results; ``BenchmarkSession`` makes them.
    public init(
        document: ResultsDocument, measured: ResultsDocument, failure: RunFailure? = nil, interrupted: Bool = false,
        baseline: (document: ResultsDocument, name: String)? = nil
    ) {
        self.document = document
        self.measured = measured
        self.failure = failure
        self.interrupted = interrupted
        self.baseline = baseline
    }

    /// Budgets, regressions and failed launches of ``document``.
    public var verdict: GateVerdict { GateVerdict(document) }

    /// What `launchprof run` exits with. A failed launch or an interrupt
    /// wins (the numbers are incomplete); a budget exceeded or a
    /// regression (1) is not hidden by a target that could not be profiled (3).
    public var status: LaunchExitStatus {
        if failure != nil || baselineSaveError != nil { return .launchFailed }
        if interrupted || profiling?.interrupted == true { return .interrupted }
        let gate = verdict.exitStatus
        if gate != .success { return gate }
        if profilingError != nil || !(profiling?.failed.isEmpty ?? true) { return .launchFailed }
        return .success
    }

    /// Why ``status`` is not success, one line each, for the CLI to print
    /// after the report (a failed budget or regression is in the report itself).
    public var problems: [String] {
        var lines: [String] = []
        if let failure { lines.append(failure.description) }
        if interrupted { lines.append("interrupted; reported the runs measured so far") }
        if let baselineSaveError { lines.append(baselineSaveError) }
        if let profilingError { lines.append(profilingError) }
        return lines
    }

    /// The terminal report `launchprof run` prints: a table per mode,
    /// warnings, budgets, the comparison and the verdict.
    public func terminalReport(colour: Bool = false) -> String {
        TerminalReport.text(document, colour: colour)
    }

    /// Writes each file `files` asks for: JSON, Markdown, JUnit XML and the
    /// HTML report (with the baseline's runs and the flame graphs), each
    /// whole or not at all; then the metrics (exposition file, Pushgateway),
    /// so that a push that fails loses nothing. Stops at the first that
    /// cannot be written; the error names it. Returns the URLs pushed to.
    @discardableResult
    public func write(_ files: ResultsFiles) throws(ResultsWriteError) -> [String] {
        try files.writeDocuments(document)
        if let path = files.html {
            do {
                try HTMLReport(
                    document: document, baseline: baseline?.document,
                    comparison: baseline.map { document.comparison(against: $0.document, named: $0.name) },
                    profiles: profiling?.byTarget ?? [:]
                ).write(to: path)
            } catch {
                throw ResultsWriteError(path: path, reason: "\(error)")
            }
        }
        return try files.metrics?.export(document) ?? []
    }

    /// Throws unless every target launched, every budget was met and nothing
    /// regressed. The error's description is what the CLI prints for it:
    /// the budgets, the comparison with the baseline and the verdict.
    public func requirePassing() throws(LaunchGateFailure) {
        let status = self.status
        guard status != .success else { return }
        throw LaunchGateFailure(status: status, document: document, problems: problems)
    }
}

/// The files a results document is written to; nil: not written.
public struct ResultsFiles: Sendable, Equatable {
    /// `--export-json`: every run and the summary.
    public var json: String?
    /// `--export-markdown`: the summary table, budgets and comparison.
    public var markdown: String?
    /// `--export-junit`: budgets and regression checks as test cases.
    public var junit: String?
    /// The self-contained HTML report (only a ``BenchmarkOutcome`` has the
    /// profiles and baseline runs it draws; ``write(_:)`` skips it).
    public var html: String?
    /// The Prometheus exposition file and Pushgateway, written after the files.
    public var metrics: MetricsExport?

    /// The files to write; nil: not written.
    public init(
        json: String? = nil, markdown: String? = nil, junit: String? = nil, html: String? = nil, metrics: MetricsExport? = nil
    ) {
        self.json = json
        self.markdown = markdown
        self.junit = junit
        self.html = html
        self.metrics = metrics
    }

    /// Writes the JSON, Markdown and JUnit files asked for, then the
    /// metrics; returns the URLs pushed to. Stops at the first that cannot
    /// be written.
    @discardableResult
    public func write(_ document: ResultsDocument) throws(ResultsWriteError) -> [String] {
        try writeDocuments(document)
        return try metrics?.export(document) ?? []
    }

    /// The JSON, Markdown and JUnit files, each whole or not at all.
    func writeDocuments(_ document: ResultsDocument) throws(ResultsWriteError) {
        let exports: [(String?, any ResultsExporter)] = [(json, JSONExporter()), (markdown, MarkdownExporter()), (junit, JUnitExporter())]
        for case let (path?, exporter) in exports {
            do {
                try exporter.write(document, to: path)
            } catch {
                throw ResultsWriteError(path: path, reason: "\(error)")
            }
        }
    }
}

/// A results file that could not be written (exit status 2).
public struct ResultsWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file that could not be written.
    public var path: String
    /// Why, as the exporter or the file system said.
    public var reason: String

    /// An error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { reason.contains(path) ? reason : "\(path): \(reason)" }
}

/// A benchmark that did not pass: a budget exceeded, a regression, a target
/// that failed to launch or an interrupt. Its description is the CLI's own
/// lines for it, so a failing test says what `launchprof run` would.
public struct LaunchGateFailure: Error, Sendable, CustomStringConvertible {
    /// What the benchmark ends with: `LaunchExitStatus.gateFailed`, `LaunchExitStatus.launchFailed` or `LaunchExitStatus.interrupted`.
    public var status: LaunchExitStatus
    /// The results, with the budgets checked and the comparison.
    public var document: ResultsDocument
    /// The failed launch, interrupt or profiling error behind ``status``, one line each.
    public var problems: [String]

    public var description: String {
        var blocks = GateReportLines(style: ANSIStyle(enabled: false)).lines(document)
        blocks += problems
        if blocks.isEmpty { blocks.append(status.description) }
        return blocks.joined(separator: "\n")
    }
}

extension TerminalReport {
    /// The report as text, without colour unless asked.
    public static func text(_ document: ResultsDocument, colour: Bool) -> String {
        // The terminal report throws nothing of its own; a failure would be a bug.
        (try? TerminalReport(colour: colour).export(document)) ?? ""
    }
}
