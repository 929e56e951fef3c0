import LaunchEngine
import LaunchSupport

extension HTMLReport {
    /// The largest differential flame graph a later report draws from its file.
    package static let savedFlameGraphLimit = 64 << 20

    /// For a report made later from saved results (`launchprof report`):
    /// the differential flame graphs `comparison` names, read from the files
    /// the run wrote, by target. A file that is missing, not a regular file
    /// (a FIFO never blocks the read), larger than ``savedFlameGraphLimit``
    /// or not UTF-8 is left out with the reason in `problems`; the page
    /// then names the file instead of drawing it. The run that writes them
    /// passes its SVGs in memory instead.
    package static func savedDifferentialFlameGraphs(
        of comparison: BaselineComparison?
    ) -> (flameGraphs: [String: String], problems: [String]) {
        var flameGraphs: [String: String] = [:]
        var problems: [String] = []
        for difference in comparison?.profileDifferences ?? [] {
            guard let path = difference.flameGraph else { continue }
            switch RegularFile.open(path) {
            case .failure(let failure):
                problems.append("differential flame graph '\(path)' of '\(difference.target)': \(failure)")
            case .success(let file) where file.size > UInt64(savedFlameGraphLimit):
                problems.append(
                    "differential flame graph '\(path)' of '\(difference.target)': \(file.size) bytes, more than the "
                        + "\(savedFlameGraphLimit) a report draws")
            case .success(let file):
                do {
                    let bytes = try RegularFile.pread(file.fd, at: 0, count: Int(file.size))
                    guard let text = String(validating: bytes, as: UTF8.self) else {
                        problems.append("differential flame graph '\(path)' of '\(difference.target)': not UTF-8")
                        continue
                    }
                    flameGraphs[difference.target] = text
                } catch {
                    problems.append("differential flame graph '\(path)' of '\(difference.target)': \(error)")
                }
            }
        }
        return (flameGraphs, problems)
    }
}
