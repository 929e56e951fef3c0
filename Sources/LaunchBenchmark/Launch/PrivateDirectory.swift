import Glibc

/// A new directory only this user can enter (mkdtemp(3): mode 0700, a name
/// no one can predict), for launchprof's own short-lived files.
enum PrivateDirectory {
    /// Makes `base/prefix-XXXXXX`; returns its path.
    static func make(in base: String = RunDefaults.temporaryDirectory, prefix: String) throws(SystemCallError) -> String {
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SystemCallError(call: "mkdtemp", subject: base, errno: errno)
        }
        return String(cString: made)
    }
}
