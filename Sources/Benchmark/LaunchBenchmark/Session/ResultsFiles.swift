import LaunchEngine
import LaunchProfFiles
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
    /// The Prometheus exposition file and Pushgateway (`--export-openmetrics`,
    /// `--push-gateway`), written after the files.
    package var metrics: MetricsExport?

    /// The files to write; nil: not written.
    public init(json: String? = nil, markdown: String? = nil, junit: String? = nil, html: String? = nil) {
        self.json = json
        self.markdown = markdown
        self.junit = junit
        self.html = html
    }

    /// Every file asked for, with the flag that asks for it, in the order
    /// they are written.
    var destinations: [(output: String, path: String)] {
        let all: [(String, String?)] = [
            ("--export-json", json), ("--export-markdown", markdown), ("--export-junit", junit), ("--report", html),
            ("--export-openmetrics", metrics?.file),
        ]
        return all.compactMap { output, path in path.map { (output, $0) } }
    }

    /// Checks, before anything runs, that every file asked for can be
    /// written where it is asked for: its directory exists and takes a new
    /// file, it is not a directory (`AtomicFile.checkWritable`; nothing is
    /// created or changed), and no other output is asked to the same path
    /// (the last written would replace the other). ``BenchmarkSession/validate()``
    /// calls it for ``BenchmarkSettings/results``, so that a typo in one
    /// path does not cost a whole benchmark. Names every one that fails.
    public func check() throws(ResultsWriteError) {
        var failures: [ResultsWriteFailure] = []
        var seen: [String: String] = [:]
        for (output, path) in destinations {
            if let first = seen[path] {
                failures.append(ResultsWriteFailure(output: output, path: path, reason: "\(first) writes '\(path)' already"))
                continue
            }
            seen[path] = output
            do {
                try AtomicFile.checkWritable(path)
            } catch {
                failures.append(ResultsWriteFailure(output: output, path: path, reason: error.description))
            }
        }
        if !failures.isEmpty { throw ResultsWriteError(failures) }
    }

    /// Writes the JSON, Markdown and JUnit files asked for, then the
    /// metrics; returns the URLs pushed to. Each is written whole or not at
    /// all, and each is written even when another cannot be: the error
    /// names every one that failed.
    @discardableResult
    public func write(_ document: ResultsDocument) throws(ResultsWriteError) -> [String] {
        try write(document, html: nil)
    }

    /// The files in order, `html` writing the HTML report (nil: skipped),
    /// then the metrics, pushed through `spawner` (the session's; nil: one
    /// for the push); failures are collected, not stopped at.
    func write(
        _ document: ResultsDocument, spawner: Spawner? = nil, html writeHTML: ((String) throws -> Void)?
    ) throws(ResultsWriteError) -> [String] {
        var failures: [ResultsWriteFailure] = []
        let exports: [(String, String?, any ResultsExporter)] = [
            ("--export-json", json, JSONExporter()), ("--export-markdown", markdown, MarkdownExporter()),
            ("--export-junit", junit, JUnitExporter()),
        ]
        for case let (output, path?, exporter) in exports {
            do {
                try exporter.write(document, to: path)
            } catch {
                failures.append(ResultsWriteFailure(output: output, path: path, reason: "\(error)"))
            }
        }
        if let path = html, let writeHTML {
            do {
                try writeHTML(path)
            } catch {
                failures.append(ResultsWriteFailure(output: "--report", path: path, reason: "\(error)"))
            }
        }
        var pushed: [String] = []
        if let metrics {
            do {
                pushed = try metrics.export(document, spawner: spawner)
            } catch {
                failures += error.failures
            }
        }
        if !failures.isEmpty { throw ResultsWriteError(failures) }
        return pushed
    }
}
