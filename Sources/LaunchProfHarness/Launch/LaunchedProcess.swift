import Glibc

/// How a reaped process ended, with the resources it used (from wait4).
package struct ProcessEnd: Sendable, Equatable {
    /// `.exited` or `.signaled`, as the kernel reported it.
    package var status: ExitStatus
    package var usage: ResourceUsage
}

/// The rusage fields a launch is measured by, in the harness's units.
public struct ResourceUsage: Sendable, Equatable {
    public var userCPU: UInt64
    public var systemCPU: UInt64
    public var maxRSSBytes: UInt64
    public var majorFaults: UInt64
    public var minorFaults: UInt64
    public var voluntaryContextSwitches: UInt64
    public var involuntaryContextSwitches: UInt64

    init(_ usage: rusage) {
        func nanoseconds(_ time: timeval) -> UInt64 {
            UInt64(max(0, time.tv_sec)) * 1_000_000_000 + UInt64(max(0, time.tv_usec)) * 1_000
        }
        userCPU = nanoseconds(usage.ru_utime)
        systemCPU = nanoseconds(usage.ru_stime)
        maxRSSBytes = UInt64(max(0, usage.ru_maxrss)) * 1024  // Linux reports KiB
        majorFaults = UInt64(max(0, usage.ru_majflt))
        minorFaults = UInt64(max(0, usage.ru_minflt))
        voluntaryContextSwitches = UInt64(max(0, usage.ru_nvcsw))
        involuntaryContextSwitches = UInt64(max(0, usage.ru_nivcsw))
    }
}

/// A running child started by ``Spawner``: its pid (also its process group),
/// t0, the harness's ends of its channels, and a pidfd to wait on.
///
/// The process is reaped exactly once, with wait4 for its rusage. If the
/// owner drops it unreaped, deinit kills the whole group and reaps it, so a
/// thrown error can never leave a process behind.
public final class LaunchedProcess {
    public let pid: pid_t
    /// CLOCK_MONOTONIC ns just before posix_spawn.
    public let startNanoseconds: UInt64
    let channels: ParentChannels
    /// The harness's own peak RSS when it spawned the child. posix_spawn
    /// execs from a vfork-style child sharing the harness's memory, and the
    /// kernel carries that memory's peak into the child's ru_maxrss, so a
    /// child's max RSS at or below this level is only an upper bound.
    let parentPeakRSSBytes: UInt64
    /// Readable when the process exits; -1 where pidfd_open is unavailable.
    let pidDescriptor: Int32
    private(set) var end: ProcessEnd?

    /// argv and envp as passed to posix_spawn, freed in deinit.
    private let spawnStrings: [CStringArray]

    init(
        pid: pid_t, startNanoseconds: UInt64, channels: ParentChannels, parentPeakRSSBytes: UInt64,
        spawnStrings: [CStringArray] = []
    ) {
        self.pid = pid
        self.spawnStrings = spawnStrings
        self.startNanoseconds = startNanoseconds
        self.channels = channels
        self.parentPeakRSSBytes = parentPeakRSSBytes
        self.pidDescriptor = GNUExtensions.pidfdOpen(pid)
    }

    /// The calling process's peak RSS so far (ru_maxrss is in KiB).
    static func ownPeakRSSBytes() -> UInt64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return UInt64(max(0, usage.ru_maxrss)) * 1024
    }

    deinit {
        if end == nil {
            signalGroup(SIGKILL)
            _ = try? reap()
        }
        for fd in [channels.readyRead, channels.stdoutRead, channels.stderrRead, channels.ownedOutputFile, pidDescriptor] {
            Syscall.closeQuietly(fd)
        }
        for strings in spawnStrings { strings.free() }
    }

    /// Sends `signal` to the child's whole process group (grandchildren too).
    /// A group that is already gone is not an error.
    public func signalGroup(_ signal: Int32) {
        guard end == nil else { return }
        _ = kill(-pid, signal)
    }

    /// Whether the process has exited (it may still be unreaped), without
    /// reaping it: the pidfd's readiness, or waitid(WNOWAIT) without one.
    func hasExited() -> Bool {
        end != nil || Self.hasExited(pid)
    }

    /// Whether the child `pid` has exited, without reaping it: waitid(WNOWAIT).
    static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        return result == 0 && info._sifields._sigchld.si_pid == pid
    }

    /// Whether the process is stopped (SIGTSTP, SIGSTOP), without consuming
    /// the notification: waitid(WSTOPPED | WNOWAIT).
    func isStopped() -> Bool {
        guard end == nil else { return false }
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WSTOPPED | WNOHANG | WNOWAIT)
        return result == 0 && info._sifields._sigchld.si_pid == pid && info.si_code == CLD_STOPPED
    }

    /// Reaps the exited process with wait4, first killing whatever else is
    /// left in its group (a daemon it forked, a shell's children): while the
    /// leader is unreaped its group id cannot be reused, so the kill is safe.
    @discardableResult
    func reap() throws(SystemCallError) -> ProcessEnd {
        if let end { return end }
        _ = kill(-pid, SIGKILL)
        var status: Int32 = 0
        var usage = rusage()
        try Syscall.check("wait4", "pid \(pid)") { wait4(pid, &status, 0, &usage) }
        let ended = ProcessEnd(status: Self.decode(status), usage: ResourceUsage(usage))
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
