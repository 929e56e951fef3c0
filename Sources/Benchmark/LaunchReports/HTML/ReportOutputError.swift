import Foundation
import LaunchProfFiles
import LaunchSupport

/// Why a report's chart files could not be written.
package enum ReportOutputError: Error, Sendable, CustomStringConvertible {
    /// The directory for the chart files could not be created.
    case directory(path: String, reason: String)
    /// A file could not be written.
    case file(AtomicFileError)
    /// The summary could not be exported.
    case export(String)

    package var description: String {
        switch self {
        case let .directory(path, reason): "cannot create the chart directory '\(path)': \(reason)"
        case .file(let error): error.description
        case .export(let reason): "cannot write the Markdown summary: \(reason)"
        }
    }
}
