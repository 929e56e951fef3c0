import Foundation
import LaunchProfFiles
import LaunchSupport

extension ReportChart {
    /// Writes `charts` as standalone SVG files in `directory` (created when
    /// missing), each whole or not at all; returns the paths written.
    static func write(_ charts: [ReportChart], to directory: String) throws(ReportOutputError) -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .directory(path: directory, reason: (error as NSError).localizedDescription)
        }
        var written: [String] = []
        for chart in charts {
            let path = (directory as NSString).appendingPathComponent(chart.fileName)
            do {
                try AtomicFile.write(chart.markup(standalone: true) + "\n", to: path)
            } catch {
                throw .file(error)
            }
            written.append(path)
        }
        return written
    }
}

extension HTMLReport {
    /// Writes every chart as a standalone SVG file in `directory` (created
    /// when missing) and `summary.md`: the Markdown tables with the charts
    /// linked, for a README or a pull-request comment. Each file is written
    /// whole or not at all. Returns the paths written, summary last.
    @discardableResult
    package func writeCharts(to directory: String) throws(ReportOutputError) -> [String] {
        let charts = charts
        let written = try ReportChart.write(charts, to: directory)
        let summary = (directory as NSString).appendingPathComponent("summary.md")
        do {
            try AtomicFile.write(try markdownSummary(charts), to: summary)
        } catch let error as AtomicFileError {
            throw .file(error)
        } catch {
            throw .export(String(describing: error))
        }
        return written + [summary]
    }

    /// The Markdown summary: a section per target with its charts, the
    /// change and resource charts, then the tables `--export-markdown` writes.
    func markdownSummary(_ charts: [ReportChart]) throws -> String {
        var lines = ["# Launch report", ""]
        func image(_ chart: ReportChart) -> String {
            let alt = chart.title.replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")")
            return "![\(alt)](\(chart.fileName))"
        }
        for (number, target) in targetNames.enumerated() {
            lines += ["## \(target)", ""]
            lines += charts.filter { $0.id.hasPrefix("t\(number + 1)-") }.flatMap { [image($0), ""] }
        }
        if let changes = charts.first(where: { $0.id == "changes" }) { lines += ["## Against the baseline", "", image(changes), ""] }
        if let resources = charts.first(where: { $0.id == "resources" }) { lines += ["## Resources", "", image(resources), ""] }
        if document.results.isEmpty {
            lines += ["The results hold no targets: nothing was measured.", ""]
            return lines.joined(separator: "\n")
        }
        return lines.joined(separator: "\n") + (try MarkdownExporter().export(document))
    }
}
