import Foundation

extension ResultsDocument {
    /// A document for results measured just now on this machine: today's date
    /// (ISO 8601, UTC), `MachineDescription.current()` and this launchprof's version.
    public static func measuredNow(
        commandLine: [String], reference: String?, results: [BenchmarkResult], date: Date = Date()
    ) -> ResultsDocument {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return ResultsDocument(
            toolVersion: launchprofVersion, date: formatter.string(from: date), commandLine: commandLine,
            machine: .current(), reference: reference, results: results)
    }
}
