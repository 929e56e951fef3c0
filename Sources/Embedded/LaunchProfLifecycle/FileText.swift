import Glibc
import LaunchProf

/// Small files read whole, without Foundation (procfs, sysfs, cgroupfs,
/// state files, schedules), treated as hostile: only a regular file is
/// read, and never more than a limit.
///
/// The file is opened with `O_NONBLOCK` (a FIFO in its place would
/// otherwise block the open until a writer comes, forever), `O_NOCTTY` and
/// `O_CLOEXEC`, then `fstat` on the descriptor decides: anything but a
/// regular file (a FIFO, /dev/zero behind a symlink, a directory, a socket)
/// is refused before a byte is read. Procfs and sysfs files are regular
/// files whose size the kernel does not know in advance, so the limit is
/// enforced on what is read, not only on `st_size`.
enum FileText {
    /// The bytes of `path`, at most `limit` of them, or why not.
    static func bytes(_ path: String, limit: Int) -> Result<[UInt8], FileReadError> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.system(errno: errno)) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .failure(.system(errno: errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular(kind: FileReadError.kind(status.st_mode))) }
        // st_size of a regular file is never negative; procfs says 0.
        let size = Int(clamping: max(0, status.st_size))
        guard size <= limit else { return .failure(.tooLarge(limit: limit)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.system(errno: errno))
            }
            if count == 0 { break }
            // Grown since fstat, or a pseudo-file with more than it said.
            guard count <= limit - bytes.count else { return .failure(.tooLarge(limit: limit)) }
            bytes.append(contentsOf: chunk[..<count])
        }
        return .success(bytes)
    }

    /// The text of `path` (at most 4 MiB), or nil when it cannot be read.
    static func text(_ path: String) -> String? {
        guard case .success(let bytes) = bytes(path, limit: 4 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
