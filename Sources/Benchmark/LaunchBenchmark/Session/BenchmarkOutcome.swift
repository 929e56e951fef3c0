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
    /// Each differential flame graph drawn against the baseline's profile,
    /// by target: the SVG as written to its file, kept for the HTML report,
    /// which draws it from here, never reading the file back.
    package var differentialFlameGraphs: [String: String] = [:]
    /// The session's spawner, for the Pushgateway push's curl: the
    /// command's one spawner to the end (nil: an outcome made by hand).
    package var spawner: Spawner?
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
    /// so that a push that fails loses nothing. One that cannot be written
    /// does not stop the others: the error names every one that failed.
    /// Returns the URLs pushed to.
    @discardableResult
    public func write(_ files: ResultsFiles) throws(ResultsWriteError) -> [String] {
        try files.write(document, spawner: spawner) { path in
            try HTMLReport(
                document: document, baseline: baseline?.document,
                comparison: baseline.map { document.comparison(against: $0.document, named: $0.name) },
                profiles: profiling?.byTarget ?? [:], differentialFlameGraphs: differentialFlameGraphs
            ).write(to: path)
        }
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

extension TerminalReport {
    /// The report as text, without colour unless asked.
    public static func text(_ document: ResultsDocument, colour: Bool) -> String {
        // The terminal report throws nothing of its own; a failure would be a bug.
        (try? TerminalReport(colour: colour).export(document)) ?? ""
    }
}
