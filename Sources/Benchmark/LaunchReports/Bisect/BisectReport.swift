import LaunchEngine
import LaunchSupport

/// A bisect as the terminal shows it: the answer, every step with its
/// verdict and time, the skipped commits, and the gate the effect comes from.
package enum BisectReport {
    /// The terminal report.
    package static func text(_ document: BisectDocument) -> String {
        var lines = [document.summary]
        if let commit = document.firstSlow {
            lines.append("  commit:  \(commit.hash)")
            lines.append("  subject: \(commit.subject)")
            lines.append("  date:    \(commit.date)")
        }
        if !document.candidates.isEmpty {
            lines.append("  candidates (oldest first):")
            for commit in document.candidates {
                let skipped = document.skipped.contains { $0.commit.hash == commit.hash } ? " (skipped)" : ""
                lines.append("    \(commit.line)\(skipped)")
            }
        }
        if !document.steps.isEmpty {
            lines.append("  steps:")
            for step in document.steps {
                let verdict: String
                if let look = step.look, let judged = step.verdict {
                    verdict =
                        "\(judged) \(GateReport.percent(look.change)) [\(GateReport.percent(look.low)), \(GateReport.percent(look.high))]"
                } else {
                    verdict = step.verdict.map(\.rawValue) ?? (step.kind.hasPrefix("test") ? "skipped" : "not measured")
                }
                lines.append(
                    "    \(step.number). \(step.kind): \(step.head.hash.prefix(12)) against \(step.base.hash.prefix(12)): "
                        + "\(verdict), \(HumanUnits.significant(step.seconds)) s")
            }
        }
        if !document.skipped.isEmpty {
            lines.append("  skipped (as git bisect skip):")
            for skip in document.skipped { lines.append("    \(skip.commit.line): \(skip.reason)") }
        }
        if let gate = document.effectGate, let source = document.effectSource {
            lines.append("  the effect's gate, \(source):")
            lines += GateReport.text(gate).split(separator: "\n").map { "    \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
