import Foundation
import Glibc
import LaunchAnalysis
import LaunchProfFiles
import LaunchSupport

/// Why `launchprof profile` produced no profile.
package enum ProfileError: Error, Sendable, CustomStringConvertible {
    /// The preload library cannot be read.
    case missingPreload(path: String)
    /// A launch could not be recorded.
    case record(RecordError)
    /// The samples could not be symbolized.
    case symbolize(Symbolizer.Failure)
    /// An output file could not be written.
    case write(AtomicFileError)
    /// The output directory cannot be created.
    case directory(path: String, reason: String)

    package var description: String {
        switch self {
        case .missingPreload(let path):
            "the preload library '\(path)' cannot be read (build it with 'swift build', or set LAUNCHPROF_PRELOAD_LIBRARY)"
        case .record(let error): error.description
        case .symbolize(let error): error.description
        case .write(let error): error.description
        case .directory(let path, let reason): "cannot create the output directory '\(path)': \(reason)"
        }
    }
}
