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
