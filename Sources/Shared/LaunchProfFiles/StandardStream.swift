#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or standard error: the one path by which launchprof and
/// the embedded libraries write text for people (reports, notes, errors,
/// the progress line), without Foundation.
///
/// A write never traps and never ends the process. Foundation's
/// `FileHandle.write(_:)` traps (SIGILL, exit 132) when the write fails,
/// which a standard error on a full disk, `2>/dev/full` or a pipe whose
/// reader left makes it do; `print` goes through stdio's buffer, so what
/// it loses is found out at exit, if at all. Here each message is written
/// at once with write(2): EINTR is retried, a short write goes on with the
/// rest, a stream that would block (a descriptor someone made non-blocking)
/// is waited for at most ``blockedBudget`` in all (2 s), and any other failure
/// (EPIPE, ENOSPC, EIO, EBADF) drops the message and answers false. What
/// launchprof does and the status it exits with never depend on whether
/// its messages could be read (SIGPIPE is ignored by launchprof, so a
/// closed pipe is EPIPE here, not a signal).
///
/// `Scripts/checks/check-architecture.py` fails on `print`, `FileHandle`'s
/// standard streams and stdio writes anywhere else under Sources/ (but
/// the sample programs), so there is no second path to forget.
package struct StandardStream: Sendable {
    /// The descriptor written to.
    package let descriptor: Int32

    /// Standard output: what a pipe reads (reports, exports to `-`).
    package static let output = StandardStream(descriptor: 1)
    /// Standard error: notes, progress and errors.
    package static let error = StandardStream(descriptor: 2)

    /// How long one message may wait, in all, for a stream that would
    /// block, before the rest of it is dropped (milliseconds).
    package let blockedBudget: Int32

    /// A stream on `descriptor` (the run loop copies a program's output to
    /// launchprof's with `blockedBudget` 0: it never waits outside its poll).
    package init(descriptor: Int32, blockedBudget: Int32 = 2_000) {
        self.descriptor = descriptor
        self.blockedBudget = blockedBudget
    }

    /// Writes `text` as UTF-8; false when not all of it could be written.
    @discardableResult
    package func write(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes`; false when not all of them could be written.
    @discardableResult
    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        var waited: Int32 = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            let code = written < 0 ? errno : EIO
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK, waited < blockedBudget else { return false }
            // Non-blocking and full: wait for room, 100 ms at a time, within the budget.
            var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&request, 1, 100)
            waited += 100
        }
        return true
    }

    private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }
}
