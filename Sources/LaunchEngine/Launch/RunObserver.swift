import CLaunchProfSpawn
import Glibc
import LaunchSupport

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
    private var cycle = SuspendResumeCycle()
    private var cycleDeadline: UInt64?
    /// When SIGTERM was sent after ready (`--measure shutdown`).
    private var shutdownSentAt: UInt64?
    /// Records from the launched process, and from others (ignored).
    private var recordCount = 0
    private var ignoredRecords = 0
    /// Records that arrived before a quiet spawn's pid was known.
    private var unattributed: [(sender: pid_t, bytes: [UInt8])] = []
    private var refusedNotify: pid_t?
    /// The client of a launch on demand: connects once the spawn is sent.
    private var client: ActivationClient?

    /// An observer of `process` under `settings`.
    public init(process: LaunchedProcess, settings: RunSettings, interrupt: InterruptMonitor? = nil) {
        self.process = process
        self.settings = settings
        self.interrupt = interrupt
        run = ObservedRun(pid: process.pid, exit: .exited(0), usage: ResourceUsage())
        run.notes = process.notes
        readyOpen = process.channels.recordRead != nil
        stdoutOpen = process.channels.stdoutRead != nil
        stderrOpen = process.channels.stderrRead != nil
        switch settings.probe {
        case .output(let text): pattern = try? Regex(text)
        case .port(let number): port = PortProbe(port: number)
        case .exit, .tracer, .notify, .response: break
        }
    }

    /// Runs the loop to the end of the process and returns what it saw.
    public consuming func observe() throws(LaunchError) -> ObservedRun {
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
            if try waitOnce(now: now, until: stopDeadline ?? cycleDeadline ?? timeoutDeadline) { break }
        }
        drainAll()
        client?.close()
        let end = try process.reap()
        if !unattributed.isEmpty { attributeHeldRecords() }
        run.pid = process.pid
        if run.wallToExit == nil, !timedOut, stopDeadline == nil, let exited = process.exitedAt {
            run.wallToExit = Self.since(t0, exited)
        }
        finish(with: end)
        return run
    }

    /// One poll(2) round; true when the process has exited.
    private mutating func waitOnce(now: UInt64, until deadline: UInt64) throws(LaunchError) -> Bool {
        // The exit may already be known (a check for readiness or for a stop
        // took the spawner's report): then there is nothing to wait for.
        if let exited = process.exitedAt {
            drainAll()
            run.wallToExit = Self.since(process.startNanoseconds, exited)
            return true
        }
        var fds: [pollfd] = []
        let channels = process.channels
        fds.append(pollfd(fd: process.eventDescriptor, events: Int16(POLLIN), revents: 0))
        for (open, fd) in [(readyOpen, channels.recordRead), (stdoutOpen, channels.stdoutRead), (stderrOpen, channels.stderrRead)] {
            if open, let fd { fds.append(pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)) }
        }
        if let notify = channels.notify, run.wallToReady == nil {
            fds.append(pollfd(fd: notify.fd, events: Int16(POLLIN), revents: 0))
        }
        if let interrupt { fds.append(pollfd(fd: interrupt.descriptor, events: Int16(POLLIN), revents: 0)) }
        // A quiet spawn starts here, with everything ready: between the
        // request and the poll, launchprof does nothing that would compete
        // with the starting program for a CPU.
        try process.start()
        // A launch on demand: the client connects at once; its connection
        // waits in the backlog while the program launches.
        if client == nil, let activation = settings.activation, let listener = channels.activation {
            client = ActivationClient(address: listener.address, request: activation.request)
        }
        let clientIndex = fds.count
        if let client, !client.isFinished { fds.append(pollfd(fd: client.fd, events: client.events, revents: 0)) }
        let result: Int32
        do {
            result = try Syscall.poll(&fds, timeout: pollTimeout(now: now, deadline: deadline))
        } catch {
            throw .system(error, program: process.program)
        }
        if result > 0, clientIndex < fds.count, var active = client {
            active.step(revents: fds[clientIndex].revents)
            client = active
            handleClient()
        }
        if result > 0 {
            // Records first: a program that writes `ready` and exits at once
            // must be seen as ready before it is seen as gone.
            drainAll()
            try process.takeEvents()
            if let failure = process.spawnFailure { throw failure }
            if process.isKnown, !unattributed.isEmpty { attributeHeldRecords() }
            if let exited = process.exitedAt {
                // What it wrote just before exiting is read before the run ends.
                drainAll()
                run.wallToExit = Self.since(process.startNanoseconds, exited)
                return true
            }
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
        if port != nil && run.wallToReady == nil { limit = min(limit, 1) }
        return Int32(limit)
    }

    // MARK: - Channels

    /// Reads what is waiting on every channel, in bounded slices: a child
    /// that writes faster than the harness reads must not keep the loop from
    /// its deadlines (the timeout, the grace period, Ctrl-C).
    private mutating func drainAll() {
        let channels = process.channels
        if readyOpen, let fd = channels.recordRead { readyOpen = drainRecords(fd) }
        if stdoutOpen, let fd = channels.stdoutRead {
            stdoutOpen = drain(fd, echo: channels.echo?.stdout, into: \.stdoutLines) { $0.handleOutput($1) }
        }
        if stderrOpen, let fd = channels.stderrRead {
            stderrOpen = drain(fd, echo: channels.echo?.stderr, into: \.stderrLines) { $0.handleOutput($1) }
        }
        if let notify = channels.notify, run.wallToReady == nil {
            let process = self.process
            if notify.drainReady(accepting: { process.isInTree($0) }) { markReady(at: monotonicNanoseconds()) }
            if let refused = notify.refused, refusedNotify == nil {
                refusedNotify = refused.pid
                note(
                    "ignored READY=1 on the notify socket from pid \(refused.pid) (\(Self.processName(refused.pid))): "
                        + "it is not the launched process nor one of its descendants")
            }
        }
    }

    /// Reads at most `Self.sliceBytes` from `fd`; false once it reached end
    /// of file.
    private mutating func drain(
        _ fd: FileDescriptor, echo: Int32?, into buffer: WritableKeyPath<RunObserver, LineBuffer>,
        _ handle: (inout RunObserver, Substring) -> Void
    ) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var total = 0
        while total < Self.sliceBytes {
            var failed = false
            let read = chunk.withUnsafeMutableBytes { buffer -> Int? in
                do { return try fd.read(into: buffer) } catch {
                    failed = true
                    return nil
                }
            }
            if failed { return false }  // a read error ends the stream as its end of file does
            guard let count = read else { return true }  // nothing more now
            if count == 0 {
                var lines = self[keyPath: buffer]
                lines.flush { handle(&self, $0) }
                self[keyPath: buffer] = lines
                return false
            }
            total += count
            if let echo { chunk.withUnsafeBytes { try? Syscall.writeAll(echo, UnsafeRawBufferPointer(rebasing: $0.prefix(count))) } }
            // Once ready, output only needs draining.
            if run.wallToReady != nil { continue }
            var lines = self[keyPath: buffer]
            chunk.withUnsafeBytes { bytes in
                lines.append(UnsafeRawBufferPointer(rebasing: bytes.prefix(count))) { handle(&self, $0) }
            }
            self[keyPath: buffer] = lines
        }
        return true
    }

    /// Reads at most `Self.sliceRecords` records; false at end of file.
    /// Each record is one datagram with its sender's pid: only the launched
    /// process's records count (a wrapper must exec the traced program, as
    /// `sh -c 'exec prog'` does; a program it merely runs first is not the
    /// launch).
    private mutating func drainRecords(_ fd: FileDescriptor) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<Self.sliceRecords {
            var sender: pid_t = 0
            var truncated: Int32 = 0
            let count: Int
            do {
                count = try Syscall.check("recvmsg", "record socket") {
                    buffer.withUnsafeMutableBytes { lp_record_receive(fd.rawValue, $0.baseAddress, $0.count, &sender, &truncated) }
                }
            } catch {
                return error.errno == EAGAIN || error.errno == EWOULDBLOCK  // nothing more now; else the socket is done
            }
            if count == 0 { return false }
            guard process.isKnown else {
                // A quiet spawn: the pid comes with the exit; the records wait.
                if unattributed.count < Self.recordLimit + 1 { unattributed.append((sender, Array(buffer[..<count]))) }
                continue
            }
            handleRecord(bytes: buffer[..<count], from: sender)
        }
        return true
    }

    /// Records held until the quiet spawn's pid was known, in order.
    private mutating func attributeHeldRecords() {
        let held = unattributed
        unattributed = []
        for record in held { handleRecord(bytes: record.bytes[...], from: record.sender) }
    }

    /// One record (one datagram) from `sender`.
    private mutating func handleRecord(bytes: ArraySlice<UInt8>, from sender: pid_t) {
        guard sender == process.pid else {
            ignoredRecords += 1
            if ignoredRecords == 1 {
                note(
                    "ignored records on LAUNCHPROF_RECORD_FD from pid \(sender) (\(Self.processName(sender))), "
                        + "which is not the launched process (pid \(process.pid)): only the launched program's "
                        + "milestones and readiness count; a wrapper script must exec it")
            }
            return
        }
        recordCount += 1
        if recordCount > Self.recordLimit {
            if recordCount == Self.recordLimit + 1 {
                note("more than \(Self.recordLimit) records on LAUNCHPROF_RECORD_FD in one run; the rest were ignored")
            }
            return
        }
        var lines = records
        bytes.withUnsafeBytes { raw in
            lines.append(raw) { handleRecord($0) }
            lines.flush { handleRecord($0) }
        }
        records = lines
    }

    /// At most this many bytes per output stream, and records, per round.
    static let sliceBytes = 256 * 1024
    static let sliceRecords = 256
    /// Records kept per run (milestones and the rest).
    static let recordLimit = 10_000

    private mutating func note(_ text: String) {
        if !run.notes.contains(text) { run.notes.append(text) }
    }

    /// /proc/PID/comm, sanitised, or "gone".
    static func processName(_ pid: pid_t) -> String {
        guard pid > 0, let text = ProcFile.read("/proc/\(pid)/comm") else { return "gone" }
        return TerminalText.sanitized(String(text.prefix { $0 != "\n" }))
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
        if let ns = record?.nanoseconds, ns < t0 || ns > monotonicNanoseconds() {
            note("ignored a record stamped outside the run (\(ns) ns; the run began at \(t0) ns, CLOCK_MONOTONIC)")
            return
        }
        switch record {
        case .entry(let ns, let pid):
            if pid != process.pid {
                note("ignored an entry record that names pid \(pid), not the launched process (pid \(process.pid))")
                return
            }
            run.processEntry = Self.since(t0, ns)
        case .main(let ns): run.main = Self.since(t0, ns)
        case .milestone(let ns, let name): run.milestones.append(MilestoneTime(name: name, nanoseconds: Self.since(t0, ns)))
        case .ready(let ns): if settings.probe == .tracer { markReady(at: ns) }
        case .resumed(let ns): cycle.resumed(at: ns)
        case .mainThreadCPU(_, let cpu): run.mainThreadCPU = cpu
        case nil: break
        }
    }

    private mutating func handleOutput(_ line: Substring) {
        guard run.wallToReady == nil, let pattern else { return }
        if (try? pattern.firstMatch(in: line)) != nil { markReady(at: monotonicNanoseconds()) }
    }

    // MARK: - Launch on demand

    /// The first request's progress: its first byte, its end (ready), or why
    /// it failed (the run fails, and its process tree is stopped).
    private mutating func handleClient() {
        guard let client, run.wallToReady == nil else { return }
        if let first = client.firstByteAt, run.firstResponseByte == nil {
            run.firstResponseByte = Self.since(process.startNanoseconds, first)
        }
        switch client.state {
        case .done:
            markReady(at: client.completedAt ?? monotonicNanoseconds())
        case .failed(let message):
            run.measureError = "--activate: the first request got no whole response: \(message)"
        default:
            break
        }
    }

    /// The same request once the program is up: connect to whole response.
    private mutating func measureWarmRequest() {
        guard let activation = settings.activation, let listener = process.channels.activation else { return }
        let deadline = monotonicNanoseconds() &+ Self.nanoseconds(settings.timeout)
        switch ActivationClient.exchange(address: listener.address, request: activation.request, deadline: deadline) {
        case .success(let nanoseconds): run.warmRequest = nanoseconds
        case .failure(let failure): note("--activate: the warm request (the same request once up) failed: \(failure.message)")
        }
    }

    /// `--trace-runs`: the program writes its trace just after it said
    /// ready; wait for the file (at most the grace period) before stopping it.
    private mutating func waitForTrace() {
        guard let path = settings.traceFile else { return }
        let deadline = monotonicNanoseconds() &+ Self.nanoseconds(settings.grace)
        while access(path, F_OK) != 0 {
            if monotonicNanoseconds() >= deadline || process.hasExited() { return }
            usleep(500)
        }
    }

    // MARK: - Ready and stop

    /// Records ready at `ns` (CLOCK_MONOTONIC) and, if the process is still
    /// up, asks its group to terminate.
    private mutating func markReady(at ns: UInt64) {
        guard run.wallToReady == nil else { return }
        run.wallToReady = Self.since(process.startNanoseconds, ns)
        guard settings.probe != .exit, !process.hasExited() else { return }
        if settings.traceFile != nil { waitForTrace() }
        if settings.activation != nil { measureWarmRequest() }
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
        run.tree = end.tree
        if end.tree.unreaped > 0 {
            note("\(end.tree.unreaped) process(es) of the run could not be killed within 5 s (uninterruptible sleep?)")
        }
        run.timeToSuspend = cycle.timeToSuspend
        run.timeToResume = cycle.timeToResume
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
