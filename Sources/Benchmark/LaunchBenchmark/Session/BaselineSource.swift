import LaunchEngine

/// The baseline a benchmark is compared with.
public enum BaselineSource: Sendable, Equatable {
    /// A baseline saved with `--save-baseline NAME` (or a results file's path),
    /// read from `BenchmarkSettings/baselineStore` before anything is measured.
    case saved(String)
    /// Results already in memory, with the name reports give them.
    case document(ResultsDocument, name: String)

    /// The name reports give the baseline.
    public var name: String {
        switch self {
        case .saved(let name): name
        case .document(_, let name): name
        }
    }
}
