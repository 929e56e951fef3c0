import Glibc

/// Opens files named by untrusted input (a trace's module list, a library
/// path from an ELF file, a trace path) for reading, only when they are
/// regular files.
///
/// A FIFO, a device, a socket or a directory is refused before it is opened
/// for reading: `stat` first, then `open` with O_NONBLOCK (an open of a FIFO
/// without a writer would otherwise block forever) and O_NOCTTY, then
/// `fstat` on the descriptor, so a path swapped for a FIFO between the two
/// checks is still refused.
package enum RegularFile {
    /// Why a path could not be opened as a regular file.
    package enum OpenFailure: Error, Sendable, Equatable, CustomStringConvertible {
        case missing
        /// What the path is instead: "a FIFO", "a directory"...
        case notRegular(kind: String)
        /// The system's reason (permission denied, too many open files...).
        case system(String)

        package var description: String {
            switch self {
            case .missing: "it does not exist"
            case .notRegular(let kind): "it is \(kind), not a regular file"
            case .system(let reason): "cannot open it: \(reason)"
            }
        }
    }

    /// A read-only descriptor of the regular file at `path` and its size.
    /// The descriptor closes itself when its last owner lets it go.
    package static func open(_ path: String) -> Result<(fd: FileDescriptor, size: UInt64), OpenFailure> {
        var status = stat()
        do {
            try Syscall.check("stat", path) { stat(path, &status) }
        } catch {
            return .failure(failure(error.errno))
        }
        if let kind = kind(status.st_mode) { return .failure(.notRegular(kind: kind)) }
        let fd: FileDescriptor
        do {
            fd = FileDescriptor(try Syscall.check("open", path) { Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) })
        } catch {
            return .failure(failure(error.errno))
        }
        do {
            try Syscall.check("fstat", path) { fstat(fd.rawValue, &status) }
        } catch {
            return .failure(failure(error.errno))
        }
        if let kind = kind(status.st_mode) { return .failure(.notRegular(kind: kind)) }
        // st_size of a regular file is never negative.
        return .success((fd, UInt64(max(0, status.st_size))))
    }

    /// nil for a regular file; otherwise what the file is, for messages.
    package static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file (mode \(String(mode, radix: 8)))"
        }
    }

    private static func failure(_ code: Int32) -> OpenFailure {
        code == ENOENT || code == ENOTDIR ? .missing : .system(String(cString: strerror(code)))
    }

    /// Reads up to `count` bytes at `offset` from `fd` (fewer at the end of
    /// the file), or throws why a read failed. An offset past what `off_t`
    /// holds reads nothing, as past the end of any file.
    package static func pread(_ descriptor: FileDescriptor, at offset: UInt64, count: Int) throws(SystemCallError) -> [UInt8] {
        let fd = descriptor.rawValue
        guard count > 0, offset <= UInt64(Int64.max) else { return [] }
        // Reads stop before `off_t` would overflow.
        let room = UInt64(Int64.max) - offset
        let wanted = Int(min(UInt64(count), room))
        var result = [UInt8](repeating: 0, count: wanted)
        var filled = 0
        while filled < wanted {
            let got = try Syscall.check("pread") {
                result.withUnsafeMutableBytes { buffer in
                    Glibc.pread(fd, buffer.baseAddress! + filled, wanted - filled, off_t(offset) + off_t(filled))
                }
            }
            if got == 0 { break }
            filled += got
        }
        result.removeSubrange(filled...)
        return result
    }
}
