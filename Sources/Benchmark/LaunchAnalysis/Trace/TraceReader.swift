import Foundation
import LaunchSupport

#if canImport(Glibc)
import Glibc
#endif

/// Reads and validates trace files written by the embedded library.
///
/// Every length, count and index is checked against the bytes actually there
/// before it is used, so a truncated, damaged or hostile file is rejected
/// with a `TraceReadError` naming the file and the byte offset — never a
/// crash, never an out-of-bounds read, never an allocation sized by an
/// unchecked count.
package enum TraceReader {
    /// The trace format version this build reads.
    package static let supportedVersion: UInt32 = TraceFileFormat.version

    /// Reads the trace file at `path`.
    package static func read(path: String) throws(TraceReadError) -> Trace {
        try parse(readFile(path), path: path)
    }

    /// Parses trace bytes; `path` names them in errors.
    package static func parse(_ data: Data, path: String) throws(TraceReadError) -> Trace {
        try parse([UInt8](data), path: path)
    }

    /// Parses trace bytes; `path` names them in errors.
    package static func parse(_ bytes: [UInt8], path: String) throws(TraceReadError) -> Trace {
        try TraceParser(bytes: bytes, path: path).parse()
    }

    /// The header of trace bytes alone, checked as `parse(_:path:)`
    /// checks it (for what needs a time of the header before the rest, as
    /// the kernel samples' window does).
    package static func header(of bytes: [UInt8], path: String) throws(TraceReadError) -> TraceHeader {
        try TraceParser(bytes: bytes, path: path).parseHeader().0
    }

    /// Largest trace file read: a full ring of the largest capacity the
    /// writer allows is far smaller; anything bigger is not a trace.
    static let maximumFileSize: UInt64 = 4 << 30

    /// The whole file, with the system's reason when it cannot be read. Only
    /// a regular file is opened (a FIFO or device is refused without
    /// blocking), and no more than its size at open is read.
    package static func readFile(_ path: String) throws(TraceReadError) -> [UInt8] {
        let (fd, size): (FileDescriptor, UInt64)
        switch RegularFile.open(path) {
        case .success(let file): (fd, size) = file
        case .failure(.missing): throw .cannotRead(path: path, reason: String(cString: strerror(ENOENT)))
        case .failure(let failure): throw .cannotRead(path: path, reason: failure.description)
        }
        defer { fd.close() }
        guard size <= maximumFileSize else {
            throw .cannotRead(path: path, reason: "it is \(size) bytes long, larger than any trace (at most \(maximumFileSize))")
        }
        // A file growing while it is read is cut at its size at open.
        do {
            return try RegularFile.pread(fd, at: 0, count: Int(size))
        } catch {
            throw .cannotRead(path: path, reason: String(cString: strerror(error.errno)))
        }
    }
}
