import Glibc

extension RunLoop {
    /// What the run loop saw, as figures: times since t0, how the run
    /// ended (`RunStateMachine` decided it), and what to say about it.
    func observed(ending end: ProcessEnd) -> ObservedRun {
        let t0 = process.startNanoseconds
        func since(_ ns: UInt64) -> UInt64 { ns > t0 ? ns - t0 : 0 }
        var run = ObservedRun(pid: process.pid, exit: end.status, usage: end.usage)
        run.startNanoseconds = t0
        run.tree = end.tree
        run.cpu = end.cpu
        if let reading = end.counters {
            run.counts = reading.counts
            run.counterReport = reading.report
        }
        run.notes = process.notes
        run.processEntry = records.processEntry
        run.main = records.main
        run.milestones = records.milestones
        if case .frame = settings.probe, let first = window?.firstWindowAt {
            // The map before the frame, as a person would time it too.
            run.milestones.append(MilestoneTime(name: "first window", nanoseconds: since(first)))
        }
        run.mainThreadCPU = records.mainThreadCPU
        run.timeToSuspend = machine.timeToSuspend
        run.timeToResume = machine.timeToResume
        run.warmRequest = machine.warmRequest
        if let first = firstRequest?.firstByteAt { run.firstResponseByte = since(first) }
        // What a probe saw and did not count: the notify socket's senders,
        // the display's windows.
        let ignored = (notify?.ignored ?? []) + (machine.readyAt == nil ? window?.ignored ?? [] : [])
        for note in records.notes + machine.notes + ignored where !run.notes.contains(note) {
            run.notes.append(note)
        }
        // Why a run that never became ready did not: what the notify socket
        // got, else the first window seen that did not count.
        if machine.readyAt == nil { run.readinessAccount = notify?.unreadyAccount ?? window?.ignored.first }
        if end.tree.unreaped > 0 {
            run.notes.append("\(end.tree.unreaped) process(es) of the run could not be killed within 5 s (uninterruptible sleep?)")
        }
        run.wallToReady = machine.readyAt.map(since)
        let exitedAt = machine.exitedAt ?? process.exitedAt
        switch machine.end {
        case .timedOut?:
            run.exit = .timedOut
        case .interrupted?:
            run.interrupted = true
        case .aborted(.protocolError(let message))?:
            run.protocolError = message
        case .aborted(.measure(let message))?:
            run.measureError = message
        default:
            break
        }
        if let signal = machine.stopSignal {
            // Stopped by launchprof after ready: no time to exit.
            run.exit = .stoppedByHarness(signal: signal)
            if settings.measure.contains(.shutdown), let sent = machine.stopSentAt {
                if signal == SIGTERM, let exitedAt {
                    run.timeToShutdown = exitedAt &- sent
                } else if !run.interrupted {
                    run.measureError = "--measure shutdown: still running \(settings.grace) after SIGTERM; killed"
                }
            }
        } else if machine.end != .timedOut, let exitedAt {
            run.wallToExit = since(exitedAt)
        }
        if settings.probe == .exit, !run.interrupted { run.wallToReady = run.wallToExit }
        // Output or a datagram read only after exit was still sent before it.
        if let ready = run.wallToReady, let exit = run.wallToExit, ready > exit { run.wallToReady = exit }
        return run
    }
}
