import CLaunchProfSpawn
import Glibc
import LaunchSupport

/// A running child started by `Spawner`: its pid (also its process group),
/// t0, the harness's ends of its channels, and the spawner that watches it.
///
/// The run is ended exactly once (`reap()`): the spawner kills what is
/// left of its tree and returns the resources. If the owner drops it
/// unreaped, deinit does the same, so a thrown error can never leave a
/// process behind.
package final class LaunchedProcess {
    /// The pid; 0 until a quiet spawn's process has exited (``isKnown``).
    package private(set) var pid: pid_t
    /// CLOCK_MONOTONIC ns just before the spawner's vfork (read by it);
    /// until a quiet spawn is known, when launchprof asked for it (a little
    /// earlier: deadlines count from there).
    package private(set) var startNanoseconds: UInt64
    /// Whether the pid and t0 are known (always, but for a quiet spawn
    /// before its exit).
    package private(set) var isKnown: Bool
    /// A quiet spawn that failed.
    private(set) var spawnFailure: LaunchError?
    let channels: ParentChannels
    let service: SpawnService
    /// The program as resolved, for messages.
    let program: String
    /// When the spawner saw the process exit, and its wait status.
    private(set) var exitedAt: UInt64?
    private var exitStatus: Int32 = 0
    /// Whether the kernel last reported the process stopped (and when).
    private(set) var stoppedAt: UInt64?
    private(set) var end: ProcessEnd?
    /// Things the run's report should say (ignored variables, refused senders).
    var notes: [String] = []

    /// A quiet spawn not sent yet, and the child's ends to close once it is.
    private var deferred: (request: SpawnRequest, childEnds: [FileDescriptor])?

    init(
        pid: pid_t?, startNanoseconds: UInt64, channels: ParentChannels, service: SpawnService, program: String,
        deferred: (request: SpawnRequest, childEnds: [FileDescriptor])? = nil
    ) {
        self.deferred = deferred
        self.pid = pid ?? 0
        self.isKnown = pid != nil
        self.startNanoseconds = startNanoseconds
        self.channels = channels
        self.service = service
        self.program = program
    }

    deinit {
        if end == nil { _ = try? reap() }
        channels.closeAll()
    }

    /// Sends a quiet spawn's request, if it was held back: the last thing
    /// before the run loop's first poll. Deadlines count from here.
    func start() throws(LaunchError) {
        guard let pending = deferred else { return }
        deferred = nil
        defer { for fd in pending.childEnds { fd.close() } }
        startNanoseconds = monotonicNanoseconds()
        _ = try service.spawn(pending.request, quiet: true)
    }

    /// The probe fired: a counted spawn's counters are read now.
    func markReady() {
        service.markReady()
    }

    /// Readable when the spawner has something to say about the process.
    var eventDescriptor: Int32 { service.control }

    /// Applies every report the spawner has sent (exit, stop, continue).
    func takeEvents() throws(LaunchError) {
        while let event = try service.nextEvent() { apply(event) }
    }

    private func apply(_ event: lp_spawn_reply) {
        if event.kind == LP_SPAWN_REPLY_SPAWNED.rawValue, !isKnown {
            pid = event.pid
            startNanoseconds = event.nanoseconds
            isKnown = true
            return
        }
        if event.kind == LP_SPAWN_REPLY_FAILED.rawValue, !isKnown {
            spawnFailure = SpawnService.failure(event, program: program)
            return
        }
        guard event.pid == pid else { return }
        switch event.kind {
        case LP_SPAWN_REPLY_EXITED.rawValue:
            exitedAt = event.nanoseconds
            exitStatus = event.status
            stoppedAt = nil
        case LP_SPAWN_REPLY_STOPPED.rawValue: stoppedAt = event.nanoseconds
        case LP_SPAWN_REPLY_CONTINUED.rawValue: stoppedAt = nil
        default: break
        }
    }

    /// Sends `signal` to the child's whole process group (grandchildren in
    /// it too). A group that is already gone is not an error.
    package func signalGroup(_ signal: Int32) {
        guard end == nil else { return }
        service.signal(signal, scope: LP_SPAWN_SCOPE_GROUP)
    }

    /// Sends `signal` to every process of the run's tree, whatever its group
    /// or session (daemons that called setsid).
    package func signalTree(_ signal: Int32) {
        guard end == nil else { return }
        service.signal(signal, scope: LP_SPAWN_SCOPE_TREE)
    }

    /// Whether the process has exited (as far as the spawner has said).
    func hasExited() -> Bool {
        if end != nil || exitedAt != nil { return true }
        try? takeEvents()
        return exitedAt != nil
    }

    /// Whether the process is stopped (SIGTSTP, SIGSTOP).
    func isStopped() -> Bool {
        guard end == nil else { return false }
        try? takeEvents()
        return stoppedAt != nil
    }

    /// Whether `sender` belongs to this run: the launched process or one of
    /// its descendants (followed up the parent chain in /proc; orphans are
    /// the spawner's children, and the spawner serves only this run).
    func isInTree(_ sender: pid_t) -> Bool {
        var current = sender
        for _ in 0..<64 {
            if current == pid { return true }
            if current == service.pid { return sender != service.pid }
            guard current > 1, let parent = Self.parent(of: current) else { return false }
            current = parent
        }
        return false
    }

    /// The parent pid in /proc/PID/stat (after the command name, which may
    /// hold spaces and parentheses: the last ')' ends it).
    static func parent(of pid: pid_t) -> pid_t? {
        guard let text = ProcFile.read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 1 else { return nil }
        return pid_t(fields[1])
    }

    /// Ends the run: the spawner kills whatever is left of its tree and
    /// reaps it all. Returns how the launched process ended and what the
    /// tree used.
    @discardableResult
    func reap() throws(LaunchError) -> ProcessEnd {
        if let end { return end }
        if let pending = deferred {
            // A quiet spawn never sent: nothing was started.
            deferred = nil
            for fd in pending.childEnds { fd.close() }
            let never = ProcessEnd(status: .failedToStart("never started"), usage: ResourceUsage(), tree: TreeUsage())
            end = never
            return never
        }
        if let spawnFailure { throw spawnFailure }
        let (finished, events) = try service.finish(program: program)
        for event in events { apply(event) }
        if let spawnFailure { throw spawnFailure }
        let tree = TreeUsage(
            usage: ResourceUsage(finished.tree), processes: Int(finished.processes),
            largest: finished.largest_pid > 0
                ? LargestProcess(
                    pid: finished.largest_pid, name: SpawnService.text(of: finished.largest_name),
                    maxRSSBytes: UInt64(max(0, finished.largest_rss_kib)) &* 1024)
                : nil,
            unreaped: Int(finished.unreaped))
        let status = finished.error == 0 ? finished.status : exitStatus
        let ended = ProcessEnd(
            status: Self.decode(status), usage: ResourceUsage(finished.process), tree: tree,
            counters: CounterReading(finished.counters), cpu: finished.cpu >= 0 ? Int(finished.cpu) : nil)
        end = ended
        return ended
    }

    /// WIFEXITED/WEXITSTATUS/WTERMSIG, which Swift cannot import as macros.
    static func decode(_ status: Int32) -> ExitStatus {
        let signal = status & 0x7f
        if signal == 0 { return .exited((status >> 8) & 0xff) }
        return .signaled(signal)
    }
}
