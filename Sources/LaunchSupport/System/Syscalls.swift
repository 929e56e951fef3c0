import Glibc

/// A failed system call: which call, on what, and the errno it set.
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed, e.g. `posix_spawn`.
    public var call: String
    /// What it was applied to, when that helps the reader (a path, a pid).
    public var subject: String?
    /// The error number.
    public var errno: Int32

    /// A failure of `call` on `subject` with `errno`.
    public init(call: String, subject: String? = nil, errno: Int32) {
        self.call = call
        self.subject = subject
        self.errno = errno
    }

    public var description: String {
        let on = subject.map { " (\($0))" } ?? ""
        return "\(call)\(on) failed: \(String(cString: strerror(errno)))"
    }
}

/// The one place where the harness turns `-1`/errno into a typed error and
/// retries calls interrupted by a signal (EINTR).
///
/// Modelled on swift-system's `valueOrErrno`: every syscall of the launch
/// engine goes through here, so EINTR handling is never forgotten.
package enum Syscall {
    /// Runs `body` until it does not fail with EINTR; a `-1` result becomes a
    /// ``SystemCallError`` naming `call` and `subject`.
    @discardableResult
    package static func check<Result: FixedWidthInteger>(
        _ call: String, _ subject: String? = nil, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw SystemCallError(call: call, subject: subject, errno: code)
        }
    }

    /// ``check`` for a call on a non-blocking descriptor: nil when the call
    /// would block (EAGAIN, EWOULDBLOCK, and EINPROGRESS for a connect that
    /// goes on in the background). The one place where "would block"
    /// becomes a result instead of an error, as NIO's `IOResult.wouldBlock`.
    package static func nonBlocking<Result: FixedWidthInteger>(
        _ call: String, _ subject: String? = nil, _ body: () -> Result
    ) throws(SystemCallError) -> Result? {
        do {
            return try check(call, subject, body)
        } catch  where error.errno == EAGAIN || error.errno == EWOULDBLOCK || error.errno == EINPROGRESS {
            return nil
        }
    }
}

/// CLOCK_MONOTONIC in nanoseconds: the clock the tracer uses too, so child
/// and harness timestamps compare directly.
package func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
