import Glibc

/// A new directory only this user can enter (mkdtemp(3): mode 0700, a name
/// no one can predict), for launchprof's own short-lived files.
package enum PrivateDirectory {
    /// Where launchprof keeps files of its own for a moment: `$TMPDIR`, else /tmp.
    package static var temporaryBase: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// Makes `base/prefix-XXXXXX`; returns its path.
    package static func make(in base: String = temporaryBase, prefix: String) throws(SystemCallError) -> String {
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SystemCallError(call: "mkdtemp", subject: base, errno: errno)
        }
        return String(cString: made)
    }
}
