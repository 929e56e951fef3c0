import LaunchAnalysis

/// Why a `--trace` given to a report cannot be used.
package enum ReportTraceError: Error, Sendable, CustomStringConvertible {
    /// The trace cannot be read.
    case unreadable(TraceReadError)
    /// `NAME=PATH` names no target of the results.
    case unknownTarget(argument: String, name: String, targets: [String])
    /// No target runs the program that wrote the trace.
    case noMatch(path: String, process: String?, targets: [String])
    /// Several targets run the program that wrote the trace; name one with `NAME=PATH`.
    case ambiguous(path: String, candidates: [String])
    /// Two traces were given for one target.
    case twice(target: String, first: String, second: String)

    package var description: String {
        switch self {
        case .unreadable(let error):
            "--trace: \(error)"
        case let .unknownTarget(argument, name, targets):
            "--trace '\(argument)': no target is named '\(name)' in the results (targets: \(Self.list(targets)))"
        case let .noMatch(path, process, targets):
            "--trace '\(path)': matches no target by file name\(process.map { " or process name '\($0)'" } ?? "") "
                + "(targets: \(Self.list(targets))); name one with --trace NAME=\(path)"
        case let .ambiguous(path, candidates):
            "--trace '\(path)' matches several targets (\(Self.list(candidates))); name one with --trace NAME=\(path)"
        case let .twice(target, first, second):
            "target '\(target)' has two traces, '\(first)' and '\(second)'; give one trace per target"
        }
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.map { "'\($0)'" }.joined(separator: ", ")
    }
}
