import Glibc

/// A read-only file read with pread, for headers at arbitrary offsets; or
/// the same reads over bytes in memory (tests, the fuzz target).
package struct RandomAccessFile {
    let path: String
    private let fd: FileDescriptor?
    private let contents: [UInt8]?
    /// The file's size at open: reads are cut to it, so no buffer is ever
    /// sized by a count from the file beyond the bytes that are there.
    private let size: UInt64

    /// Opens `path` only if it is a regular file (see `RegularFile`).
    package init(path: String) throws(ELFError) {
        self.path = path
        self.contents = nil
        switch RegularFile.open(path) {
        case .success(let file): (self.fd, self.size) = file
        case .failure(.missing): throw .missing(path: path)
        case .failure(let failure): throw .unreadable(path: path, reason: failure.description)
        }
    }

    init(path: String, contents: [UInt8]) {
        self.path = path
        self.fd = nil
        self.contents = contents
        self.size = UInt64(contents.count)
    }

    func close() { fd?.close() }

    /// Runs `body` with the file, closing it afterwards.
    package func withClose<T>(_ body: (RandomAccessFile) throws(ELFError) -> T) throws(ELFError) -> T {
        defer { close() }
        return try body(self)
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file, none
    /// past it, whatever the offset).
    package func bytes(at offset: UInt64, count: Int) throws(ELFError) -> [UInt8] {
        if let contents {
            guard count > 0, offset < UInt64(contents.count) else { return [] }
            // offset < contents.count, so it fits in Int.
            let start = Int(offset)
            return Array(contents[start..<start + min(count, contents.count - start)])
        }
        guard offset < size else { return [] }
        // size - offset < size: fits in Int when the file's size does.
        let present = Int(clamping: size - offset)
        guard let fd else { throw .unsupported(path: path, reason: "read failed: the file is not open") }
        do {
            return try RegularFile.pread(fd, at: offset, count: min(count, present))
        } catch {
            throw .unsupported(path: path, reason: "read failed: \(String(cString: strerror(error.errno)))")
        }
    }

    /// The NUL-terminated string at `offset` (at most 4 KiB).
    func cString(at offset: UInt64, what: String = "a string") throws(ELFError) -> String {
        let bytes = try bytes(at: offset, count: 4096)
        guard let end = bytes.firstIndex(of: 0) else {
            throw .unsupported(
                path: path, reason: "damaged ELF: \(what) at file offset \(offset) is unterminated or past the end of the file")
        }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
