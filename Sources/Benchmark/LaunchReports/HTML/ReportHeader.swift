import Foundation
import LaunchEngine
import LaunchSupport

/// The top of a report: what was measured, where, when, with what, and how often.
struct ReportHeader {
    let report: HTMLReport

    func render() -> String {
        let document = report.document
        let machine = document.machine
        let runs = document.results.reduce(0) { $0 + $1.runs.count }
        let failed = document.results.reduce(0) { $0 + $1.runs.filter { !$0.exit.isSuccess }.count }
        let modes = LaunchMode.allCases.filter { mode in document.results.contains { $0.mode == mode } }.map(\.rawValue)
        var lede = [count(report.targetNames.count, "target")]
        if !modes.isEmpty { lede.append(modes.joined(separator: " and ")) }
        lede.append(count(runs, "measured run"))
        if failed > 0 { lede.append("\(failed) failed") }
        var facts: [(String, String)] = [
            (
                "Machine",
                "\(machine.hostname): \(machine.cpuModel), \(machine.cpuCount) CPUs, "
                    + "\(HumanUnits.bytes(Double(machine.memoryBytes))) memory, \(machine.kernel)"
            ),
            ("Tool", "launchprof \(document.toolVersion)"),
            ("Date", document.date),
            ("Command", Self.shellWords(document.commandLine)),
            ("Runs", runCounts(document)),
        ]
        if let reference = document.reference { facts.append(("Reference", reference)) }
        if let baseline = report.baseline { facts.append(("Baseline", "measured \(baseline.date) on \(baseline.machine.hostname)")) }
        if !report.traces.isEmpty {
            let traces = report.traces.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.path)" }
            facts.append(("Traces", traces.joined(separator: "; ")))
        }
        let list = facts.map { name, value in
            let markup = name == "Command" ? "<code>\(MarkupText.escape(value))</code>" : MarkupText.escape(value)
            return "<dt>\(name)</dt><dd>\(markup)</dd>"
        }
        return """
            <header>
            <h1>Launch report</h1>
            <p class="lede">\(MarkupText.escape(lede.joined(separator: " · ")))</p>
            <dl class="facts">
            \(list.joined(separator: "\n"))
            </dl>
            </header>
            """
    }

    private func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }

    /// "sample-app warm 20, hello-c warm 20 (3 failed)".
    private func runCounts(_ document: ResultsDocument) -> String {
        guard !document.results.isEmpty else { return "none" }
        return document.results.map { result in
            let failed = result.runs.filter { !$0.exit.isSuccess }.count
            return "\(result.label): \(result.runs.count)" + (failed > 0 ? " (\(failed) failed)" : "")
        }.joined(separator: ", ")
    }

    /// argv as a shell would need it typed: words with spaces or quotes in
    /// single quotes.
    static func shellWords(_ arguments: [String]) -> String {
        arguments.map { word in
            let plain =
                !word.isEmpty
                && word.unicodeScalars.allSatisfy { scalar in
                    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_./=:,+@%".unicodeScalars.contains(scalar)
                }
            return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}
