import LaunchEngine
import LaunchSupport

/// What a result says beyond its table row, in the words every report uses:
/// how much a cold launch read from disk and from which files, which files
/// stayed cached because launchprof itself maps them, and the process tree a
/// launch started. Computed from the runs, so a report made later from the
/// JSON says the same.
package struct LaunchFacts: Sendable, Equatable {
    /// Median bytes a cold launch read, per file, largest first.
    package struct FileRead: Sendable, Equatable {
        /// The file.
        package var path: String
        /// The median bytes read from it per launch.
        package var bytes: UInt64
    }

    /// Median over the measured runs of all bytes read (cold runs that
    /// measured it), and the median per file.
    package var bytesRead: UInt64?
    /// The files the launch read from disk, most bytes first.
    package var filesRead: [FileRead] = []
    /// Files that stayed cached because launchprof itself maps them.
    package var expectedResident: [String] = []
    /// Median number of processes reaped per run, when more than one.
    package var processes: Int?
    /// The process with the largest memory peak in the run with the largest
    /// peak, when it is not the launched program itself.
    package var largest: LargestProcess?

    /// The facts of `result`'s runs.
    package init(_ result: BenchmarkResult) {
        let runs = result.runs.filter(\.exit.isSuccess)
        let reports = runs.compactMap(\.residency).filter { $0.totalBytesRead != nil }
        if !reports.isEmpty {
            bytesRead = Self.median(reports.compactMap(\.totalBytesRead))
            var perFile: [String: [UInt64]] = [:]
            var order: [String] = []
            for report in reports {
                for (path, bytes) in report.bytesRead {
                    if perFile[path] == nil { order.append(path) }
                    perFile[path, default: []].append(bytes)
                }
            }
            filesRead = order.compactMap { path in
                let values = perFile[path] ?? []
                // Runs that read nothing of a file count as zero.
                let padded = values + Array(repeating: 0, count: max(0, reports.count - values.count))
                let median = Self.median(padded) ?? 0
                return median > 0 ? FileRead(path: path, bytes: median) : nil
            }.sorted { $0.bytes > $1.bytes }
        }
        var expected: [String] = []
        for report in runs.compactMap(\.residency) {
            for file in report.files where file.expected == true && !expected.contains(file.path) {
                expected.append(file.path)
            }
        }
        expectedResident = expected
        let counts = runs.compactMap(\.processCount)
        if let median = Self.median(counts.map { UInt64($0) }), median > 1 { processes = Int(median) }
        if let peak = runs.max(by: { $0.maxRSSBytes < $1.maxRSSBytes }), let largest = peak.largestProcess,
            let own = peak.process, largest.maxRSSBytes > own.maxRSSBytes
        {
            self.largest = largest
        }
    }

    /// "read 4.10 MiB from disk: libswiftCore.so 2.30 MiB, …" (top `limit`
    /// files), or nil when nothing was measured.
    package func readSentence(limit: Int = 4) -> String? {
        guard let bytesRead else { return nil }
        let top = filesRead.prefix(limit).map { "\(Self.fileName($0.path)) \(HumanUnits.bytes(Double($0.bytes)))" }
        let more = filesRead.count > limit ? ", and \(filesRead.count - limit) more files" : ""
        return "a cold launch read \(HumanUnits.bytes(Double(bytesRead))) from disk (median)"
            + (top.isEmpty ? "" : ": " + top.joined(separator: ", ") + more)
    }

    /// "started 5 processes; the largest, postgres (pid 123), peaked at 40 MiB".
    package func treeSentence() -> String? {
        var parts: [String] = []
        if let processes { parts.append("started \(processes) processes (median per run)") }
        if let largest {
            parts.append(
                "the largest memory peak was \(HumanUnits.bytes(Double(largest.maxRSSBytes))) in \(largest.name) "
                    + "(pid \(largest.pid)), not the launched program")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func median(_ values: [UInt64]) -> UInt64? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let low = sorted[(sorted.count - 1) / 2], high = sorted[sorted.count / 2]
        // The mean of the two middle values without overflow or lost halves.
        return low / 2 + high / 2 + (low % 2 + high % 2) / 2
    }
}
