/// Why a history cannot be read from the inputs given.
package enum HistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A path that does not exist.
    case missing(String)
    /// A file named on its own that is not a readable results file.
    case unreadable(ResultsFileError)
    /// A directory with no results file in it.
    case noResults(String, skipped: Int)
    /// More results files than a history reads.
    case tooManyFiles(found: Int, limit: Int)
    /// `git log` in the repository given failed.
    case gitFailed(repository: String, reason: String)
    /// A Prometheus server that could not be read (`--prometheus`).
    case prometheus(url: String, reason: String)

    package var description: String {
        switch self {
        case .missing(let path): "'\(path)' does not exist"
        case .unreadable(let error): error.description
        case let .noResults(path, skipped):
            "'\(path)' holds no launchprof results files"
                + (skipped > 0 ? " (\(skipped) other JSON file\(skipped == 1 ? "" : "s") skipped)" : " (no .json files)")
        case let .tooManyFiles(found, limit):
            "found \(found) results files or more; a history reads at most \(limit) (give fewer, or a narrower directory)"
        case let .gitFailed(repository, reason): "cannot read the commits of '\(repository)' with git log: \(reason)"
        case let .prometheus(url, reason): "--prometheus '\(url)': \(reason)"
        }
    }
}
