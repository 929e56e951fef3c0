import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be written.
public enum AtomicWriteError: Error, Equatable, CustomStringConvertible {
    /// The temporary file beside `path` could not be created.
    case create(path: String, errno: Int32)
    /// Writing or syncing the temporary file failed.
    case write(path: String, errno: Int32)
    /// The temporary file could not be renamed to `path`.
    case rename(path: String, errno: Int32)

    public var description: String {
        switch self {
        case let .create(path, code):
            "cannot write '\(path)': \(Self.reason(code)) (creating a temporary file beside it failed)"
        case let .write(path, code): "cannot write '\(path)': \(Self.reason(code))"
        case let .rename(path, code): "cannot write '\(path)': \(Self.reason(code)) (renaming the temporary file failed)"
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// Writes a whole file or nothing: the bytes go to a unique temporary file in
/// the same directory (same file system, so rename(2) is atomic), are synced,
/// and replace the destination in one rename. A reader, or a crash, never
/// sees half a file; on failure the temporary file is removed.
public enum AtomicWrite {
    /// Writes `bytes` to `path` whole or not at all: a unique temporary file beside it, synced, then renamed into place, with `permissions`.
    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(AtomicWriteError) {
        var template = Array("\(path).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .create(path: path, errno: errno) }
        // mkostemp(O_CLOEXEC) is not visible from Swift's Glibc; a child
        // spawned by another thread between these calls could inherit the fd,
        // which costs nothing worse than an open descriptor.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do throws(AtomicWriteError) {
            try writeAll(bytes, to: fd, path: path)
            guard fchmod(fd, permissions) == 0, fsync(fd) == 0 else { throw AtomicWriteError.write(path: path, errno: errno) }
            close(fd)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .rename(path: path, errno: code)
        }
    }

    /// Writes `text` as UTF-8.
    public static func write(_ text: String, to path: String) throws(AtomicWriteError) {
        try write(Array(text.utf8), to: path)
    }

    /// Writes `data`.
    public static func write(_ data: Data, to path: String) throws(AtomicWriteError) {
        try write([UInt8](data), to: path)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(AtomicWriteError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .write(path: path, errno: errno)
            }
            offset += written
        }
    }
}
