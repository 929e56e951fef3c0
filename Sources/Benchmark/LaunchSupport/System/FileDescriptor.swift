import Glibc
import Synchronization

/// A descriptor this process owns, closed exactly once: by ``close()``, or at
/// the latest when the last reference to it goes, so an error path that
/// forgets one leaks nothing. Its reads and writes go through `Syscall`
/// (EINTR retried, failures typed).
///
/// A class, so that the structures that hand descriptors from the spawn to
/// the run loop share one owner instead of copying a number; the value is
/// atomic, so a close races with nothing.
package final class FileDescriptor: Sendable {
    private let raw: Atomic<Int32>

    /// Takes ownership of `rawValue`, an open descriptor.
    package init(_ rawValue: Int32) { raw = Atomic(rawValue) }

    /// The descriptor's number, or -1 once it is closed.
    package var rawValue: Int32 { raw.load(ordering: .acquiring) }

    /// Closes it; later calls do nothing. close(2) is not retried on EINTR:
    /// the descriptor is gone whatever it reports.
    package func close() {
        let fd = raw.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { _ = Glibc.close(fd) }
    }

    deinit { close() }

    /// One read(2) into `buffer`: the bytes read (0 at end of file), or nil
    /// when a non-blocking descriptor has nothing now (EAGAIN).
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int? {
        try Syscall.nonBlocking("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `bytes` (write(2) until done).
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        try Syscall.writeAll(rawValue, bytes)
    }

    /// Sets or clears O_NONBLOCK.
    package func setNonBlocking(_ nonBlocking: Bool = true) throws(SystemCallError) {
        try Syscall.setNonBlocking(rawValue, nonBlocking)
    }
}

extension Syscall {
    /// Writes all of `bytes` to `fd`, a descriptor this process does not own
    /// (standard output, another's file): write(2) until done.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        var rest = bytes
        while !rest.isEmpty {
            let written = try check("write") { Glibc.write(fd, rest.baseAddress, rest.count) }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
    }

    /// Sets or clears O_NONBLOCK on `fd`.
    package static func setNonBlocking(_ fd: Int32, _ nonBlocking: Bool = true) throws(SystemCallError) {
        let flags = try check("fcntl", "F_GETFL") { fcntl(fd, F_GETFL) }
        try check("fcntl", "F_SETFL") { fcntl(fd, F_SETFL, nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) }
    }

    /// poll(2) on `fds` for at most `timeout` ms: how many are ready. A
    /// signal ends the wait early with 0, so that the caller recomputes its
    /// deadline rather than waiting the whole timeout again.
    package static func poll(_ fds: inout [pollfd], timeout: Int32) throws(SystemCallError) -> Int32 {
        let count = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeout) }
        if count >= 0 { return count }
        if errno == EINTR { return 0 }
        throw SystemCallError(call: "poll", errno: errno)
    }
}
