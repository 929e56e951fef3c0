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
