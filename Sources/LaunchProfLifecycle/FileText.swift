import Glibc
import LaunchProf

/// Small files read whole, without Foundation (procfs, cgroupfs, state files).
enum FileText {
    /// The bytes of `path`, or the errno that stopped the read.
    static func bytes(_ path: String, limit: Int = 1 << 30) -> Result<[UInt8], FileError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(FileError(errno: errno)) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(FileError(errno: errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return .success(bytes)
    }

    /// The text of `path`, or nil when it cannot be read.
    static func text(_ path: String) -> String? {
        guard case .success(let bytes) = bytes(path, limit: 1 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// An errno from a file operation.
struct FileError: Error, Equatable {
    var errno: Int32
}
