import Glibc

/// Why a file is still in the page cache after eviction, in a sentence.
enum ResidencyExplanation {
    /// The mappers of `path`, or the filesystem's nature, or what else it may be.
    static func note(for path: String, mappings: ProcessMappings) -> String {
        if let mapped = mappings.note(for: path) { return mapped }
        if isInMemoryFilesystem(path) {
            return "on tmpfs/ramfs: its pages are memory, not cache, and cannot be evicted"
        }
        let unreadable =
            mappings.unreadableProcesses > 0
            ? " (\(mappings.unreadableProcesses) processes' maps could not be read: one of them may map it)" : ""
        return "not mapped by any process launchprof could inspect\(unreadable); "
            + "another process may have read it again since, or its pages were still being written back"
    }

    /// Whether `path` is on tmpfs or ramfs, from the longest matching mount
    /// point in /proc/self/mounts (Glibc's module does not export statfs).
    private static func isInMemoryFilesystem(_ path: String) -> Bool {
        guard let mounts = ProcFile.read("/proc/self/mounts") else { return false }
        var best: (point: String, type: String) = ("", "")
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = String(fields[1]), type = String(fields[2])
            let contains = point == "/" || path == point || path.hasPrefix(point + "/")
            if contains && point.count >= best.point.count { best = (point, type) }
        }
        return best.type == "tmpfs" || best.type == "ramfs"
    }
}
