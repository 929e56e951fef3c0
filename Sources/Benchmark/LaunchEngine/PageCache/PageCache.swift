import Foundation
import Glibc
import LaunchSupport

/// Evicting files from the kernel's page cache and measuring how much of a
/// file is in it.
///
/// Eviction uses posix_fadvise(POSIX_FADV_DONTNEED), which needs no root but
/// only drops clean pages that no process has mapped: a library every
/// process maps (libc) stays resident while they live. `ProcessMappings`
/// finds out who holds a page.
package enum PageCache {
    /// The kernel's page size in bytes.
    package static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Drops `path`'s pages from the page cache: a file, or every regular file
    /// below a directory. Returns the files it evicted.
    @discardableResult
    package static func evict(path: String) throws(PageCacheError) -> [String] {
        let files = try regularFiles(under: path)
        for file in files { try evict(file: file) }
        return files
    }

    /// Drops one file's clean, unmapped pages. Dirty pages are written back
    /// first (fdatasync), since DONTNEED would otherwise skip them.
    package static func evict(file path: String) throws(PageCacheError) {
        try withDescriptor(path) { fd throws(PageCacheError) in
            _ = fdatasync(fd)  // a read-only or special file may refuse; eviction still applies
            let code = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
            if code != 0 { throw .systemCall(path: path, call: "posix_fadvise", reason: String(cString: strerror(code))) }
        }
    }

    /// How many of `path`'s pages are in the page cache (mmap + mincore;
    /// mapping does not read anything, mincore only looks).
    package static func residency(of path: String) throws(PageCacheError) -> ResidencyReport.File {
        try withDescriptor(path) { fd throws(PageCacheError) in
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw failure(path, "fstat") }
            let size = Int(info.st_size)
            let pages = (size + pageSize - 1) / pageSize
            guard pages > 0 else { return ResidencyReport.File(path: path, residentPages: 0, totalPages: 0) }
            guard let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0),
                mapping != UnsafeMutableRawPointer(bitPattern: -1)
            else { throw failure(path, "mmap") }
            defer { munmap(mapping, size) }
            var vector = [UInt8](repeating: 0, count: pages)
            guard mincore(mapping, size, &vector) == 0 else { throw failure(path, "mincore") }
            let resident = vector.reduce(0) { $0 + Int($1 & 1) }
            return ResidencyReport.File(path: path, residentPages: resident, totalPages: pages)
        }
    }

    // MARK: - Dropping every cache

    static let dropCachesPath = "/proc/sys/vm/drop_caches"

    /// Why dropping all caches is not possible here, or nil when it is
    /// (root and a writable /proc/sys/vm/drop_caches).
    package static var dropAllCachesUnavailableReason: String? {
        if geteuid() != 0 { return "it needs root (running as uid \(geteuid()))" }
        do {
            try Syscall.check("access", dropCachesPath) { access(dropCachesPath, W_OK) }
        } catch {
            return "\(dropCachesPath) is not writable here (\(String(cString: strerror(error.errno))); a container?)"
        }
        return nil
    }

    /// Writes dirty data back (sync) and drops the whole page cache, dentries
    /// and inodes ("3" to /proc/sys/vm/drop_caches). Mapped pages stay.
    package static func dropAllCaches() throws(PageCacheError) {
        if let reason = dropAllCachesUnavailableReason { throw .dropCachesUnavailable(reason: reason) }
        sync()
        do throws(SystemCallError) {
            let fd = FileDescriptor(try Syscall.check("open", dropCachesPath) { open(dropCachesPath, O_WRONLY | O_CLOEXEC) })
            defer { fd.close() }
            var failure: SystemCallError?
            Array("3\n".utf8).withUnsafeBytes { bytes in
                do throws(SystemCallError) { try fd.writeAll(bytes) } catch { failure = error }
            }
            if let failure { throw failure }
        } catch {
            throw .dropCachesUnavailable(reason: String(cString: strerror(error.errno)))
        }
    }

    // MARK: - Helpers

    /// `path` itself when it is a file; every regular file below it when it is
    /// a directory (symlinks are not followed, so a tree is walked once).
    static func regularFiles(under path: String) throws(PageCacheError) -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw failure(path, "stat") }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            return (info.st_mode & S_IFMT) == S_IFREG ? [path] : []
        }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            throw failure(path, "opendir")
        }
        var files: [String] = []
        for entry in entries.sorted() {
            let child = path.hasSuffix("/") ? path + entry : path + "/" + entry
            if FilePaths.isSymlink(child) { continue }
            files += try regularFiles(under: child)
        }
        return files
    }

    private static func withDescriptor<T>(
        _ path: String, _ body: (Int32) throws(PageCacheError) -> T
    ) throws(PageCacheError) -> T {
        let fd: FileDescriptor
        do {
            fd = FileDescriptor(try Syscall.check("open", path) { open(path, O_RDONLY | O_CLOEXEC) })
        } catch {
            throw .systemCall(path: path, call: "open", reason: String(cString: strerror(error.errno)))
        }
        defer { fd.close() }
        return try body(fd.rawValue)
    }

    private static func failure(_ path: String, _ call: String) -> PageCacheError {
        .systemCall(path: path, call: call, reason: String(cString: strerror(errno)))
    }
}

/// Why evicting files from, or measuring them in, the page cache failed.
package enum PageCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call on `path` failed (`call` and the system's reason).
    case systemCall(path: String, call: String, reason: String)
    /// `--drop-caches` was asked for but this machine does not allow it.
    case dropCachesUnavailable(reason: String)

    package var description: String {
        switch self {
        case .systemCall(let path, let call, let reason):
            return "\(call) on '\(path)' failed: \(reason)"
        case .dropCachesUnavailable(let reason):
            return "cannot drop all caches: \(reason); run as root on a machine with a writable "
                + "/proc/sys/vm/drop_caches, or use per-file eviction (without --drop-caches)"
        }
    }
}
