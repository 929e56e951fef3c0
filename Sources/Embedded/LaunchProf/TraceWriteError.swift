import LaunchProfFiles

/// Why a trace could not be written.
public enum TraceWriteError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The trace file could not be written whole (`AtomicFile`).
    case file(AtomicFileError)
    /// The trace ring could not be allocated.
    case outOfMemory

    public var description: String {
        switch self {
        case .file(let error): "\(error)"
        case .outOfMemory: "cannot allocate the trace ring"
        }
    }
}
