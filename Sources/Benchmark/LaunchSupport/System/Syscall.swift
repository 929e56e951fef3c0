import Glibc

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
