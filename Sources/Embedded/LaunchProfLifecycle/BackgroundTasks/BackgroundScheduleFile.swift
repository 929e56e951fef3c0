import Glibc
import LaunchProf
import LaunchProfDeferred
import LaunchProfFiles

/// The schedule on disk: read as hostile input (``FileText``: a regular
/// file of at most 1 MiB, opened without blocking), written whole or not
/// at all (``AtomicFile``), and changed only in transactions between
/// processes: with byte 0 of the lock file held, the schedule is read
/// again, changed, and written, so two processes sharing it never decide
/// on the same stale copy. Like systemd's `Persistent=` timer stamps, the
/// file is the memory of when things last ran; unlike a stamp (one
/// process, systemd, writes it), it is shared, hence the lock.
final class BackgroundScheduleFile: Sendable {
    let directory: String
    /// `NAME.background-tasks`.
    let fileName: String
    let path: String
    /// The longest a transaction waits for another process's to end: 5 s.
    /// A holder that takes longer is stopped or hostile; the caller gets
    /// ``BackgroundTaskError/scheduleLocked(path:waited:)``.
    static let lockWait = Duration.seconds(5)
    /// Diagnostics already written, so a bad line is reported once per process.
    private let reported = Locked<Set<String>>([])
    /// Whether this process has removed the temporary files of writers that died.
    private let cleaned = Locked(false)

    init(directory: String, name: String) {
        self.directory = directory
        fileName = "\(name).background-tasks"
        path = "\(directory)/\(fileName)"
    }

    var lockPath: String { "\(path).lock" }

    /// The schedule as the file holds it; empty when there is no file.
    /// Lines that are discarded are reported on standard error.
    func read() throws(BackgroundTaskError) -> BackgroundSchedule {
        let bytes: [UInt8]
        switch FileText.bytes(path, limit: BackgroundSchedule.maximumFileSize) {
        case .success(let read): bytes = read
        case .failure(let error) where error.isMissing: return BackgroundSchedule()
        case .failure(let error): throw .unreadableSchedule(path: path, reason: error.description)
        }
        let (schedule, discarded) = try BackgroundSchedule.parse(bytes, path: path)
        for line in discarded where reported.withLock({ $0.insert(line).inserted }) {
            StandardStream.error.write("launchprof: \(line)\n")
        }
        return schedule
    }

    func write(_ schedule: BackgroundSchedule) throws(BackgroundTaskError) {
        do {
            try AtomicFile.write(Array(schedule.text.utf8), to: path, sync: true, mode: 0o600)
        } catch {
            throw .unwritableSchedule(path: path, reason: error.description)
        }
    }

    // MARK: - Transactions

    /// The schedule's lock, taken; waits with a blocking sleep (for
    /// synchronous callers: submit, cancel, an expiry).
    func lock() throws(BackgroundTaskError) -> BackgroundScheduleLock {
        let lock = try BackgroundScheduleLock(path: lockPath)
        var pause = Duration.milliseconds(1)
        let deadline = ContinuousClock.now + Self.lockWait
        while !lock.tryLock(byte: 0) {
            guard ContinuousClock.now < deadline else { throw .scheduleLocked(path: path, waited: Self.lockWait) }
            var request = timespec(tv_sec: 0, tv_nsec: Int(RuntimeClock.nanoseconds(pause)))
            nanosleep(&request, nil)
            pause = min(pause * 2, .milliseconds(50))
        }
        return lock
    }

    /// The schedule's lock, taken; waits with `Task.sleep`, so a wait never
    /// holds a thread of the shared pool.
    func lock() async throws(BackgroundTaskError) -> BackgroundScheduleLock {
        let lock = try BackgroundScheduleLock(path: lockPath)
        var pause = Duration.milliseconds(1)
        let deadline = ContinuousClock.now + Self.lockWait
        while !lock.tryLock(byte: 0) {
            guard ContinuousClock.now < deadline else { throw .scheduleLocked(path: path, waited: Self.lockWait) }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(50))
        }
        return lock
    }

    /// With `lock` held: reads the schedule, lets `change` change it, and
    /// writes it when it changed; returns `change`'s result and the schedule
    /// as written. The lock is released when the caller lets it go.
    func update<Result>(
        holding lock: BackgroundScheduleLock,
        _ change: (inout BackgroundSchedule) throws(BackgroundTaskError) -> Result
    ) throws(BackgroundTaskError) -> (result: Result, schedule: BackgroundSchedule) {
        defer { lock.unlock(byte: 0) }
        // A writer that died between creating its temporary file and the
        // rename left the schedule whole and the temporary file behind.
        let first = cleaned.withLock { cleaned in
            defer { cleaned = true }
            return !cleaned
        }
        if first { StaleTemporaries.remove(in: directory, of: [fileName]) }
        var schedule = try read()
        let before = schedule
        let result = try change(&schedule)
        if schedule != before { try write(schedule) }
        return (result, schedule)
    }
}
