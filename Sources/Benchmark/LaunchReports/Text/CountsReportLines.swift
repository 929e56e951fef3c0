import LaunchEngine
import LaunchSupport

/// The terminal's "Counts" block (`--counts`): for each result, the median
/// of every count measured and its spread (MAD as a share of the median:
/// how far a gate on it can trust it), then, once per distinct reason,
/// which counters were not measured and why, and what the counts cover.
struct CountsReportLines {
    /// The colours used.
    var style: ANSIStyle

    func lines(_ document: ResultsDocument) -> [String] {
        let counted = document.results.filter { $0.counters != nil }
        guard !counted.isEmpty else { return [] }
        var lines = [style.bold("Counts")]
        var gaps: [(text: String, counters: [String])] = []
        var scopes: [String] = []
        for result in counted {
            guard let report = result.counters else { continue }
            let figures = Metric.unnamed.filter { $0.group == .counter }.compactMap { metric -> String? in
                guard let summary = result.summaries[metric.key], summary.count > 0 else { return nil }
                let spread = summary.median > 0 ? summary.mad / summary.median * 100 : 0
                return "\(metric.displayName) \(HumanUnits.format(summary.median, unit: metric.unit)) ± \(Self.percent(spread))"
            }
            let measured = figures.isEmpty ? "nothing measured" : figures.joined(separator: ", ")
            lines.append("  " + TerminalText.sanitized("\(result.label) [\(report.source.rawValue)]: \(measured)"))
            for gap in report.unavailable {
                let text = "\(report.source.rawValue): \(gap.reason)"
                if let index = gaps.firstIndex(where: { $0.text == text }) {
                    if !gaps[index].counters.contains(gap.counter) { gaps[index].counters.append(gap.counter) }
                } else {
                    gaps.append((text, [gap.counter]))
                }
            }
            if !scopes.contains(report.scope) { scopes.append(report.scope) }
        }
        for gap in gaps {
            lines.append(style.dim("  not measured: \(gap.counters.joined(separator: ", ")): \(gap.text)"))
        }
        for scope in scopes { lines.append(style.dim("  counted: \(scope)")) }
        return lines
    }

    /// "0.012%", "1.4%".
    static func percent(_ value: Double) -> String {
        value < 0.1 ? "\((value * 1000).rounded() / 1000)%" : "\((value * 10).rounded() / 10)%"
    }
}
