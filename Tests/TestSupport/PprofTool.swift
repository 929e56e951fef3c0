import Foundation
import Testing

/// `go tool pprof` (Debian's golang-go, installed by Scripts/install-deps.sh):
/// the independent reader of the pprof profiles launchprof writes. Run with
/// `-symbolize=none`, so what it shows is what the file holds.
public enum PprofTool {
    /// What `-top` said: the total and each function's flat (self) value.
    public struct Top: Sendable {
        /// The whole profile's value ("… of N total").
        public var total: Double
        /// (function, flat value), as listed.
        public var flat: [(name: String, value: Double)]

        /// The flat value of the functions whose name contains `name`.
        public func flat(containing name: String) -> Double {
            flat.filter { $0.name.contains(name) }.reduce(0) { $0 + $1.value }
        }
    }

    /// `go tool pprof ARGUMENTS PATH`'s standard output; fails with its
    /// standard error when it fails.
    public static func run(_ arguments: [String], _ path: String) throws -> String {
        let run = try CommandRun.run(
            "/usr/bin/env", ["go", "tool", "pprof", "-symbolize=none"] + arguments + [path], timeout: 300)
        try #require(
            run.status == 0,
            "go tool pprof \(arguments) '\(path)' failed (\(run.status)); is golang-go installed (Scripts/install-deps.sh)? \(run.standardError)"
        )
        return run.standardOutput
    }

    /// `-top` of sample type `sampleIndex`, every node kept.
    public static func top(_ path: String, sampleIndex: String = "samples", focus: [String] = []) throws -> Top {
        let text = try run(
            ["-top", "-nodecount=1000000", "-nodefraction=0", "-edgefraction=0", "-sample_index=\(sampleIndex)"] + focus, path)
        var top = Top(total: 0, flat: [])
        var inTable = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Showing nodes accounting for"), let of = line.range(of: " of "), let end = line.range(of: " total") {
                top.total = number(line[of.upperBound..<end.lowerBound]) ?? 0
            } else if line.trimmingCharacters(in: .whitespaces).hasPrefix("flat  flat%") {
                inTable = true
            } else if inTable {
                // "flat flat% sum% cum cum% name…": the name may hold spaces.
                let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
                guard fields.count == 6, let value = number(fields[0]) else { continue }
                top.flat.append((String(fields[5]), value))
            }
        }
        return top
    }

    /// `-tags`: each label's values with their totals of `sampleIndex`.
    public static func tags(_ path: String, sampleIndex: String = "samples") throws -> [String: [String: Double]] {
        let text = try run(["-tags", "-sample_index=\(sampleIndex)"], path)
        var tags: [String: [String: Double]] = [:]
        var key: String?
        for line in text.split(separator: "\n") {
            // " phase: Total 327.0" starts a label; "   300.0 (91.74%): before ready" is one of its values.
            if line.contains(": Total "), !line.contains("%)"), let colon = line.firstIndex(of: ":") {
                key = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let key, let colon = line.range(of: "): ") ?? line.range(of: ": ") else { continue }
            let head = line[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
            let value = String(line[colon.upperBound...]).trimmingCharacters(in: .whitespaces)
            guard let amount = number(head.split(separator: " ").first ?? "") else { continue }
            tags[key, default: [:]][value] = amount
        }
        return tags
    }

    /// "327", "1.5k", "300ms" and the like: pprof scales what it prints.
    static func number(_ text: some StringProtocol) -> Double? {
        var digits = String(text).trimmingCharacters(in: .whitespaces)
        let scales: [(String, Double)] = [("k", 1e3), ("M", 1e6), ("G", 1e9)]
        for (suffix, scale) in scales where digits.hasSuffix(suffix) {
            digits.removeLast(suffix.count)
            return Double(digits).map { $0 * scale }
        }
        return Double(digits)
    }
}
