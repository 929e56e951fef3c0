import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads and validates trace files written by the embedded library.
///
/// Every length, count and index is checked against the bytes actually there
/// before it is used, so a truncated, damaged or hostile file is rejected
/// with a ``TraceReadError`` naming the file and the byte offset — never a
/// crash, never an out-of-bounds read, never an allocation sized by an
/// unchecked count.
public enum TraceReader {
    /// The trace format version this build reads.
    public static let supportedVersion: UInt32 = TraceFileFormat.version

    /// Reads the trace file at `path`.
    public static func read(path: String) throws(TraceReadError) -> Trace {
        try parse(readFile(path), path: path)
    }

    /// Parses trace bytes; `path` names them in errors.
    public static func parse(_ data: Data, path: String) throws(TraceReadError) -> Trace {
        try parse([UInt8](data), path: path)
    }

    /// Parses trace bytes; `path` names them in errors.
    public static func parse(_ bytes: [UInt8], path: String) throws(TraceReadError) -> Trace {
        try TraceParser(bytes: bytes, path: path).parse()
    }

    /// The whole file, with the system's reason when it cannot be read.
    static func readFile(_ path: String) throws(TraceReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotRead(path: path, reason: systemError()) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .cannotRead(path: path, reason: systemError()) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .cannotRead(path: path, reason: "not a regular file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, reason: systemError())
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
