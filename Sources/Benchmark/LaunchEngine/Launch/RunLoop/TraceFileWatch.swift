import Glibc
import LaunchSupport

/// `--trace-runs`: waits for the program to write its trace after ready.
/// inotify on the trace's directory wakes the loop when a file there is
/// closed after writing or renamed into place (LaunchProf writes the trace
/// to a temporary file and renames it), and the path is checked then; no
/// polling. Without inotify (a file system that lacks it), the path is
/// checked every millisecond instead.
final class TraceFileWatch: RunEventSource {
    private let path: String
    private var watch: FileDescriptor?
    private var written = false
    /// How often the path is checked without inotify.
    static let fallbackInterval: UInt64 = 1_000_000

    init(path: String) {
        self.path = path
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return }
        let owner = FileDescriptor(fd)
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)
        guard inotify_add_watch(fd, directory.isEmpty ? "/" : directory, mask) >= 0 else { return }
        watch = owner
    }

    var pollRequest: pollfd? {
        guard !written, let watch else { return nil }
        return pollfd(fd: watch.rawValue, events: Int16(POLLIN), revents: 0)
    }

    var retryInterval: UInt64? { written || watch != nil ? nil : Self.fallbackInterval }

    func events(revents: Int16, now: UInt64) throws(LaunchError) -> [RunEvent] {
        guard !written else { return [] }
        if revents != 0, let watch { drain(watch) }
        guard access(path, F_OK) == 0 else { return [] }
        written = true
        watch?.close()
        return [.traceWritten]
    }

    /// Empties the inotify queue (which file changed does not matter: the
    /// path is checked).
    private func drain(_ watch: FileDescriptor) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<64 {
            let count = buffer.withUnsafeMutableBytes { (try? watch.read(into: $0)) ?? nil }
            guard let count, count > 0 else { return }
        }
    }
}
