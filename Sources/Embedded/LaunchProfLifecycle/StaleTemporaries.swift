import Glibc

/// Removes the temporary files AtomicFile leaves beside a file when its
/// writer dies between creating and renaming them
/// (`<file>.tmp.<pid>.<random>`), once their writer is gone: the writer's
/// pid no longer exists (ESRCH). A live writer's, and this process's, are
/// left alone.
enum StaleTemporaries {
    /// In `directory`, the temporary files of the files named `names`.
    static func remove(in directory: String, of names: [String]) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        let prefixes = names.map { "\($0).tmp." }
        while let entry = readdir(stream) {
            let fileName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let prefix = prefixes.first(where: { fileName.hasPrefix($0) }),
                let pid = Int32(fileName.dropFirst(prefix.count).prefix { $0 != "." }), pid > 0,
                pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink("\(directory)/\(fileName)")
        }
    }
}
