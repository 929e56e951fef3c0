import Glibc

/// The wait loop of one launch: polls the record pipe, the notify socket,
/// captured output, the pidfd and the interrupt pipe; retries the port probe
/// every millisecond; enforces the timeout; stops a process that stays up
/// after ready (SIGTERM to its group, SIGKILL after the grace period); reaps
/// it with wait4 in every case.
public struct RunObserver {
    private let process: LaunchedProcess
    private let settings: RunSettings
    private let interrupt: InterruptMonitor?
    private var run: ObservedRun
    private var records = LineBuffer(limit: 4096)
    private var stdoutLines = LineBuffer()
    private var stderrLines = LineBuffer()
    private var pattern: Regex<AnyRegexOutput>?
    private var port: PortProbe?
    private var readyOpen: Bool
    private var stdoutOpen: Bool
    private var stderrOpen: Bool
    /// When the process was sent SIGTERM after ready, and the SIGKILL deadline.
    private var stopDeadline: UInt64?
    private var stopSignal: Int32 = SIGTERM
    private var timedOut = false
    /// `--measure resume`: the suspend/resume cycle after ready, and when it
    /// must be over.
    private var cycle = LifecycleCycle()
    private var cycleDeadline: UInt64?
    /// When SIGTERM was sent after ready (`--measure shutdown`).
    private var shutdownSentAt: UInt64?

    public init(process: LaunchedProcess, settings: RunSettings, interrupt: InterruptMonitor? = nil) {
        self.process = process
        self.settings = settings
        self.interrupt = interrupt
        run = ObservedRun(pid: process.pid, exit: .exited(0), usage: ResourceUsage(rusage()))
        readyOpen = process.channels.readyRead >= 0
        stdoutOpen = process.channels.stdoutRead >= 0
        stderrOpen = process.channels.stderrRead >= 0
        switch settings.probe {
        case .output(let text): pattern = try? Regex(text)
        case .port(let number): port = PortProbe(port: number)
        case .exit, .tracer, .notify: break
        }
    }

    /// Runs the loop to the end of the process and returns what it saw.
    public consuming func observe() throws(SystemCallError) -> ObservedRun {
        let t0 = process.startNanoseconds
        let timeoutDeadline = t0 &+ Self.nanoseconds(settings.timeout)
        while true {
            let now = monotonicNanoseconds()
            if interrupt?.isInterrupted == true || run.protocolError != nil || run.measureError != nil {
                run.interrupted = interrupt?.isInterrupted == true
                process.signalGroup(SIGKILL)
                break
            }
            if stopDeadline == nil, run.wallToReady == nil, now >= timeoutDeadline {
                timedOut = true
                process.signalGroup(SIGKILL)
                break
            }
            if let deadline = stopDeadline, now >= deadline, stopSignal == SIGTERM {
                stopSignal = SIGKILL
                process.signalGroup(SIGKILL)
                break
            }
            if let deadline = cycleDeadline {
                cycle.step(process)
                if !cycle.isRunning {
                    cycleDeadline = nil
                    stopAfterReady()
                } else if now >= deadline {
                    run.measureError = cycle.timeoutMessage
                    continue
                }
            }
            if waitOnce(now: now, until: stopDeadline ?? cycleDeadline ?? timeoutDeadline) { break }
        }
        drainAll()
        let end = try process.reap()
        finish(with: end)
        return run
    }

    /// One poll(2) round; true when the process has exited.
    private mutating func waitOnce(now: UInt64, until deadline: UInt64) -> Bool {
        var fds: [pollfd] = []
        let channels = process.channels
        let pidIndex = fds.count
        fds.append(pollfd(fd: process.pidDescriptor, events: Int16(POLLIN), revents: 0))
        if readyOpen { fds.append(pollfd(fd: channels.readyRead, events: Int16(POLLIN), revents: 0)) }
        if stdoutOpen { fds.append(pollfd(fd: channels.stdoutRead, events: Int16(POLLIN), revents: 0)) }
        if stderrOpen { fds.append(pollfd(fd: channels.stderrRead, events: Int16(POLLIN), revents: 0)) }
        if let notify = channels.notify, run.wallToReady == nil {
            fds.append(pollfd(fd: notify.fd, events: Int16(POLLIN), revents: 0))
        }
        if let interrupt { fds.append(pollfd(fd: interrupt.descriptor, events: Int16(POLLIN), revents: 0)) }
        let result = poll(&fds, nfds_t(fds.count), pollTimeout(now: now, deadline: deadline))
        let after = monotonicNanoseconds()
        if result > 0 {
            // Records first: a program that writes `ready` and exits at once
            // must be seen as ready before it is seen as gone.
            drainAll()
            if fds[pidIndex].revents != 0 {
                run.wallToExit = after &- process.startNanoseconds
                return true
            }
        }
        if process.pidDescriptor < 0, process.hasExited() {
            run.wallToExit = after &- process.startNanoseconds
            return true
        }
        if run.wallToReady == nil, var probe = port {
            if probe.isAccepting() { markReady(at: monotonicNanoseconds()) }
            port = probe
        }
        return false
    }

    /// Milliseconds to wait: to the deadline, or 1 ms while the port probe
    /// (or, without a pidfd, the exit check) needs retrying.
    private func pollTimeout(now: UInt64, deadline: UInt64) -> Int32 {
        let remaining = deadline > now ? (deadline - now + 999_999) / 1_000_000 : 0
        var limit = min(remaining, 1_000)
        if (port != nil && run.wallToReady == nil) || process.pidDescriptor < 0 || cycle.isSuspending { limit = min(limit, 1) }
        return Int32(limit)
    }

    // MARK: - Channels

    private mutating func drainAll() {
        let channels = process.channels
        if readyOpen { readyOpen = drain(channels.readyRead, echo: -1, into: \.records) { $0.handleRecord($1) } }
        if stdoutOpen {
            stdoutOpen = drain(channels.stdoutRead, echo: channels.echo?.stdout ?? -1, into: \.stdoutLines) {
                $0.handleOutput($1)
            }
        }
        if stderrOpen {
            stderrOpen = drain(channels.stderrRead, echo: channels.echo?.stderr ?? -1, into: \.stderrLines) {
                $0.handleOutput($1)
            }
        }
        if let notify = channels.notify, run.wallToReady == nil, notify.drainReady() {
            markReady(at: monotonicNanoseconds())
        }
    }

    /// Reads `fd` until it would block; false once it reached end of file.
    private mutating func drain(
        _ fd: Int32, echo: Int32, into buffer: WritableKeyPath<RunObserver, LineBuffer>,
        _ handle: (inout RunObserver, Substring) -> Void
    ) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 { return errno == EAGAIN || errno == EINTR }
            if count == 0 {
                var lines = self[keyPath: buffer]
                lines.flush { handle(&self, $0) }
                self[keyPath: buffer] = lines
                return false
            }
            if echo >= 0 { chunk.withUnsafeBytes { Self.writeAll(echo, $0.prefix(count)) } }
            // Once ready, output only needs draining; records still count.
            if buffer != \.records, run.wallToReady != nil { continue }
            var lines = self[keyPath: buffer]
            chunk.withUnsafeBytes { bytes in
                lines.append(UnsafeRawBufferPointer(rebasing: bytes.prefix(count))) { handle(&self, $0) }
            }
            self[keyPath: buffer] = lines
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer.SubSequence) {
        var rest = UnsafeRawBufferPointer(rebasing: bytes)
        while !rest.isEmpty {
            let written = write(fd, rest.baseAddress, rest.count)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
    }

    private mutating func handleRecord(_ line: Substring) {
        let record: TracerRecord?
        do throws(TracerRecordError) {
            record = try TracerRecord.parse(line)
        } catch {
            run.protocolError = error.description
            return
        }
        let t0 = process.startNanoseconds
        switch record {
        case .entry(let ns, _): run.processEntry = Self.since(t0, ns)
        case .main(let ns): run.main = Self.since(t0, ns)
        case .milestone(let ns, let name): run.milestones.append(MilestoneTime(name: name, nanoseconds: Self.since(t0, ns)))
        case .ready(let ns): if settings.probe == .tracer { markReady(at: ns) }
        case .resumed(let ns): cycle.resumed(at: ns)
        case nil: break
        }
    }

    private mutating func handleOutput(_ line: Substring) {
        guard run.wallToReady == nil, let pattern else { return }
        if (try? pattern.firstMatch(in: line)) != nil { markReady(at: monotonicNanoseconds()) }
    }

    // MARK: - Ready and stop

    /// Records ready at `ns` (CLOCK_MONOTONIC) and, if the process is still
    /// up, asks its group to terminate.
    private mutating func markReady(at ns: UInt64) {
        guard run.wallToReady == nil else { return }
        run.wallToReady = Self.since(process.startNanoseconds, ns)
        guard settings.probe != .exit, !process.hasExited() else { return }
        if settings.measure.contains(.resume) {
            cycle.start(process)
            cycleDeadline = monotonicNanoseconds() &+ Self.nanoseconds(settings.timeout)
        } else {
            stopAfterReady()
        }
    }

    /// SIGTERM to the group, SIGKILL after the grace period.
    private mutating func stopAfterReady() {
        shutdownSentAt = monotonicNanoseconds()
        process.signalGroup(SIGTERM)
        stopDeadline = monotonicNanoseconds() &+ Self.nanoseconds(settings.grace)
    }

    private mutating func finish(with end: ProcessEnd) {
        run.usage = end.usage
        run.timeToSuspend = cycle.timeToSuspend
        run.timeToResume = cycle.timeToResume
        run.maxRSSIsUpperBound = end.usage.maxRSSBytes <= process.parentPeakRSSBytes
        if timedOut {
            run.exit = .timedOut
            run.wallToExit = nil
        } else if stopDeadline != nil {
            run.exit = .stoppedByHarness(signal: stopSignal)
            if settings.measure.contains(.shutdown), let sent = shutdownSentAt {
                if stopSignal == SIGTERM, let exit = run.wallToExit {
                    run.timeToShutdown = (process.startNanoseconds &+ exit) &- sent
                } else if !run.interrupted {
                    run.measureError = "--measure shutdown: still running \(settings.grace) after SIGTERM; killed"
                }
            }
            run.wallToExit = nil
        } else {
            run.exit = end.status
        }
        if settings.probe == .exit, run.wallToExit != nil, !run.interrupted { run.wallToReady = run.wallToExit }
        // Output or a datagram read only after exit was still sent before it.
        if let ready = run.wallToReady, let exit = run.wallToExit, ready > exit { run.wallToReady = exit }
    }

    private static func since(_ t0: UInt64, _ ns: UInt64) -> UInt64 { ns > t0 ? ns - t0 : 0 }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
