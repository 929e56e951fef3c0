import Glibc

/// Why a `SampleSink` could not be made.
package enum SampleSinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The anonymous file could not be created in `directory`.
    case cannotCreate(directory: String, errno: Int32)
    /// The file at `path` could not be opened or emptied.
    case cannotOpen(path: String, errno: Int32)
    /// What is at `path` is not a regular file: `kind` says what it is.
    case notRegular(path: String, kind: String)

    package var description: String {
        switch self {
        case .cannotCreate(let directory, let code):
            "cannot create the sample file in '\(directory)': \(String(cString: strerror(code)))"
        case .cannotOpen(let path, let code):
            "cannot open the sample sink '\(path)': \(String(cString: strerror(code)))"
        case .notRegular(let path, let kind):
            "the sample sink '\(path)' is \(kind), not a regular file: samples are written only to a regular file "
                + "(remove it, or choose another path)"
        }
    }
}
