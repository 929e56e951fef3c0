import LaunchEngine
import LaunchReports
import LaunchSupport

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
