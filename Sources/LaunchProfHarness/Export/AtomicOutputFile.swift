#if canImport(Glibc)
import Glibc
#endif

/// Why an output file could not be written.
public struct OutputFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "cannot write '\(path)': \(reason)" }
}

/// Writes whole files or nothing: the bytes go to a temporary file in the
/// same directory, which is then renamed over `path`, so a reader never sees
/// half an output and a failed write leaves any old file untouched.
public enum AtomicOutputFile {
    public static func write(_ text: String, to path: String) throws(OutputFileError) {
        try write(Array(text.utf8), to: path)
    }

    public static func write(_ bytes: [UInt8], to path: String) throws(OutputFileError) {
        let temporary = temporaryPath(for: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputFileError(path: path, reason: systemError()) }
        var failure: String?
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = systemError()
                break
            }
            written += count
        }
        if close(fd) != 0, failure == nil { failure = systemError() }
        if failure == nil, rename(temporary, path) != 0 { failure = systemError() }
        if let failure {
            unlink(temporary)
            throw OutputFileError(path: path, reason: failure)
        }
    }

    /// `dir/.name.tmp-PID-RANDOM`: same directory, so rename stays on one
    /// file system; hidden, and unique per process.
    private static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(directory).\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
