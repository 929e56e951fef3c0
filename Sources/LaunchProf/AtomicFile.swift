#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a trace (or state) file could not be written.
public enum TraceWriteError: Error, CustomStringConvertible, Equatable {
    /// The temporary file beside `path` could not be created.
    case open(path: String, errno: Int32)
    /// Writing or syncing the temporary file for `path` failed.
    case write(path: String, errno: Int32)
    /// The finished temporary file could not be renamed into place.
    case rename(from: String, to: String, errno: Int32)
    /// The trace ring could not be allocated.
    case outOfMemory

    public var description: String {
        switch self {
        case let .open(path, code): "cannot create '\(path)': \(errnoText(code))"
        case let .write(path, code): "cannot write '\(path)': \(errnoText(code))"
        case let .rename(from, to, code): "cannot rename '\(from)' to '\(to)': \(errnoText(code))"
        case .outOfMemory: "cannot allocate the trace ring"
        }
    }
}

package func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// Writes whole files or nothing: a temporary file beside the target, then
/// rename(2), so a reader never sees half a file.
///
/// The temporary file has a name no one can predict and is created only if
/// it does not exist yet (`O_EXCL | O_NOFOLLOW`): two threads or processes
/// saving the same file at once each write their own and the last rename
/// wins with a whole file, and no one can plant a symlink for us to follow.
package enum AtomicFile {
    package static func write(
        _ bytes: [UInt8], to path: String, sync: Bool = false, mode: mode_t = 0o644
    ) throws(TraceWriteError) {
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 {
            temporary = "\(path).tmp.\(getpid()).\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .open(path: temporary, errno: errno) }
        // The mode asked for, whatever the umask (a state file must be 0600).
        fchmod(fd, mode)
        var failure: TraceWriteError?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = .write(path: temporary, errno: errno)
                    return
                }
                offset += written
            }
        }
        if failure == nil, sync, fsync(fd) != 0 { failure = .write(path: temporary, errno: errno) }
        close(fd)
        if let failure {
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .rename(from: temporary, to: path, errno: code)
        }
    }
}

package enum StandardError {
    package static func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
