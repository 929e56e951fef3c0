import Foundation
import Glibc
import LaunchProfFiles
import LaunchSupport

/// Why a results file (or baseline) could not be read.
public enum ResultsFileError: Error, Equatable, CustomStringConvertible {
    /// The file cannot be read.
    case unreadable(path: String, reason: String)
    /// The file is not JSON.
    case notJSON(path: String, reason: String)
    /// The JSON has no `version`: not a launchprof results file.
    case missingVersion(path: String)
    /// A results schema this launchprof does not read.
    case unsupportedVersion(path: String, version: Int)
    /// The JSON does not have the results' shape.
    case malformed(path: String, reason: String)
    /// A figure that no measurement has: negative, not finite, or over
    /// ``ResultsDocument/largestFigure``.
    /// (`problem` names the field and its value: one string, not two, since
    /// with a payload of three strings a thrown ResultsFileError jumped to a
    /// wild address in launchprof's debug build, Swift 6.3.1.)
    case outOfRange(path: String, problem: String)
    /// The file is larger than ``ResultsDocument/largestFile``.
    case tooLarge(path: String, bytes: Int)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "cannot read results '\(path)': \(reason)"
        case let .notJSON(path, reason): "results '\(path)' is not valid JSON: \(reason)"
        case let .missingVersion(path):
            "results '\(path)' has no schema \"version\" field; it was not written by launchprof"
        case let .unsupportedVersion(path, version):
            "results '\(path)' has schema version \(version); this launchprof reads version "
                + "\(ResultsDocument.currentVersion)"
        case let .malformed(path, reason): "results '\(path)' is malformed: \(reason)"
        case let .outOfRange(path, problem):
            "results '\(path)': \(problem), which no measurement is (from 0 to 2^62 ns, bytes or a count)"
        case let .tooLarge(path, bytes):
            "results '\(path)' is \(bytes) bytes, more than the \(ResultsDocument.largestFile / 1_048_576) MiB launchprof reads; "
                + "a results file of 100,000 runs is about 85 MiB"
        }
    }
}
