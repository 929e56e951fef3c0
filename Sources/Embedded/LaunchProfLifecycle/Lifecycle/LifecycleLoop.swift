import CLaunchProfLifecycle
import CLaunchProfSupport
import Glibc
import LaunchProf
import LaunchProfFiles

/// The lifecycle thread: polls the signal pipe, the heartbeat, the PSI
/// trigger and the clock-change timer; turns signals into transitions run
/// by the handler thread; enforces the suspend and terminate budgets; stops
/// and ends the process by the signals' default actions.
///
/// State-changing work (suspend, resume, terminate, reload) is serial: one
/// operation in flight, later requests wait, termination goes first.
final class LifecycleLoop: @unchecked Sendable {
    // @unchecked: after init, every mutable field is used by the lifecycle
    // thread alone (openMonitors runs before that thread starts).
    let lifecycle: Lifecycle
    let configuration: LifecycleConfiguration
    let signalFD: Int32
    let worker: HandlerWorker
    var memory: MemoryPressureMonitor?
    var clockFD: Int32 = -1
    var heartbeat: Heartbeat?
    /// lp_terminal_state() when last looked at: 0 none, 1 foreground, 2 background.
    var terminal: Int32
    var pending: [Request] = []
    var inFlight: InFlight?
    /// SIGCONT bytes already accounted for by our own stop.
    var continuesToIgnore: UInt64 = 0

    enum Request: Equatable {
        case signal(Int32)
        case launchComplete

        var isTermination: Bool { self == .signal(SIGTERM) || self == .signal(SIGINT) }
    }

    /// An operation whose handlers the handler thread is running.
    struct InFlight {
        var job: UInt64
        var deadline: UInt64?
        var budget: Duration?
        var phase: LifecycleState
        var then: Continuation
        /// A termination is waiting: at the deadline this operation is
        /// abandoned (its continuation dropped), not finished.
        var yieldsToTermination = false
    }

    enum Continuation {
        case nothing
        case stop(signalledAt: UInt64)
        case resumed(continuedAt: UInt64)
        case exit(signal: Int32, signalledAt: UInt64)
        case reloaded(signalledAt: UInt64)
    }

    init(lifecycle: Lifecycle, configuration: LifecycleConfiguration, signalFD: Int32, worker: HandlerWorker) {
        self.lifecycle = lifecycle
        self.configuration = configuration
        self.signalFD = signalFD
        self.worker = worker
        terminal = lp_terminal_state()
        if let period = configuration.heartbeat {
            heartbeat = Heartbeat(period: period, threshold: configuration.minimumUnobservedSuspension)
        }
    }

    /// Arms the kernel notifications; their statuses for the API.
    func openMonitors() -> (memory: MonitorStatus, clock: MonitorStatus) {
        var memoryStatus = MonitorStatus.off
        if let trigger = configuration.memoryPressure {
            switch MemoryPressureMonitor.open(trigger) {
            case .success(let monitor):
                memory = monitor
                memoryStatus = .active("\(monitor.path): \(trigger.triggerText)")
            case .failure(let failure): memoryStatus = .unavailable(failure.reason)
            }
        }
        var clockStatus = MonitorStatus.off
        if configuration.watchesClockChanges {
            clockFD = lp_clock_change_open()
            clockStatus =
                clockFD >= 0
                ? .active("timerfd CLOCK_REALTIME, TFD_TIMER_CANCEL_ON_SET")
                : .unavailable("cannot arm a CLOCK_REALTIME timerfd: \(errnoText(errno))")
        }
        return (memoryStatus, clockStatus)
    }

    // MARK: - The loop

    func run() {
        while true {
            var fds = [pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0)]
            if let memory { fds.append(pollfd(fd: memory.fd, events: Int16(POLLPRI), revents: 0)) }
            if clockFD >= 0 { fds.append(pollfd(fd: clockFD, events: Int16(POLLIN), revents: 0)) }
            let before = lp_now_ns()
            let timeout = timeoutNanoseconds(now: before)
            if let suspension = heartbeat?.willWait(now: before, timeout: timeout ?? 0) {
                LifecycleTrace.event("unobserved suspension", at: before, value: Int64(clamping: suspension.minimumNanoseconds))
                dispatch(.unobservedSuspension(suspension))
            }
            let count = poll(&fds, nfds_t(fds.count), timeout.map { Int32(clamping: ($0 + 999_999) / 1_000_000) } ?? -1)
            let now = lp_now_ns()
            if let suspension = heartbeat?.didWake(now: now) {
                LifecycleTrace.event("unobserved suspension", at: now, value: Int64(clamping: suspension.minimumNanoseconds))
                dispatch(.unobservedSuspension(suspension))
            }
            if count > 0 { handleReadiness(fds, now: now) }
            checkInFlight(now: lp_now_ns())
            startPending()
        }
    }

    private func timeoutNanoseconds(now: UInt64) -> UInt64? {
        var timeout = heartbeat?.period
        if let deadline = inFlight?.deadline {
            let remaining = deadline > now ? deadline - now : 0
            timeout = min(timeout ?? remaining, remaining)
        }
        return timeout
    }

    private func handleReadiness(_ fds: [pollfd], now: UInt64) {
        if fds[0].revents != 0 { readSignalPipe() }
        var index = 1
        if let memory {
            if MemoryPressureMonitor.fired(fds[index].revents) {
                LifecycleTrace.event("memory pressure", at: now)
                dispatch(.memoryPressure(MemoryPressure(nanoseconds: now, source: memory.path)))
            } else if fds[index].revents & Int16(POLLERR | POLLNVAL) != 0 {
                self.memory = nil  // the cgroup went away: the trigger is gone
            }
            index += 1
        }
        if clockFD >= 0, fds[index].revents != 0, lp_clock_change_check(clockFD) == 1 {
            LifecycleTrace.event("wall clock changed", at: now)
            dispatch(.significantTimeChange(TimeChange(nanoseconds: now, offsetNanoseconds: clockOffsetChange())))
        }
    }

    private var lastClockOffset: Int64 = lp_realtime_offset_ns()

    /// How far the wall clock moved against the monotonic clock since last time.
    private func clockOffsetChange() -> Int64 {
        let offset = lp_realtime_offset_ns()
        defer { lastClockOffset = offset }
        return offset &- lastClockOffset
    }

    private func readSignalPipe() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(signalFD, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            for byte in buffer[..<count] { accept(byte) }
        }
    }

    private func accept(_ byte: UInt8) {
        switch Int32(byte) {
        case Int32(LP_LIFECYCLE_COMMAND_WAKE): break
        case Int32(LP_LIFECYCLE_COMMAND_LAUNCH_COMPLETE): pending.append(.launchComplete)
        case SIGCONT where continuesToIgnore > 0: continuesToIgnore -= 1
        case let signal: pending.append(.signal(signal))
        }
    }

    /// Queues `event` for the handlers, outside the serial operations.
    func dispatch(_ event: LifecycleEvent) {
        let lifecycle = lifecycle
        worker.submit { lifecycle.deliver(event) }
    }
}
