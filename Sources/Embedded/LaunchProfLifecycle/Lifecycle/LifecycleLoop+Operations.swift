import CLaunchProfLifecycle
import CLaunchProfSupport
import Glibc
import LaunchProf
import LaunchProfDeferred
import LaunchProfFiles
import LaunchProfFormat

extension LifecycleLoop {
    /// Starts queued requests while nothing is in flight; termination first.
    /// A termination waits for an operation under way (a resume, a reload)
    /// for at most the terminate budget: one without a deadline of its own
    /// gets that one, and is abandoned when it passes, so a stuck handler
    /// delays termination by no more than its budget.
    func startPending() {
        if var operation = inFlight, operation.phase != .terminating, !operation.yieldsToTermination,
            pending.contains(where: \.isTermination)
        {
            let limit = lp_now_ns() &+ RuntimeClock.nanoseconds(configuration.terminateBudget)
            operation.deadline = min(operation.deadline ?? limit, limit)
            operation.yieldsToTermination = true
            inFlight = operation
        }
        while inFlight == nil, !pending.isEmpty {
            let index = pending.firstIndex { $0.isTermination } ?? 0
            start(pending.remove(at: index))
        }
    }

    private func start(_ request: Request) {
        let now = lp_now_ns()
        let state = lifecycle.state
        switch request {
        case .launchComplete:
            guard state == .launching else { return }
            if LaunchTracker.isBackgroundLaunch {
                // Launched only to run a background task, as iOS does: never active.
                run([.background], cause: .backgroundLaunch, then: .nothing)
            } else {
                run([terminal == 2 ? .background : .active], cause: .launchComplete, then: .nothing)
            }
        case .signal(SIGTSTP):
            startSuspend(from: state, signalledAt: lp_lifecycle_signal_ns(SIGTSTP))
        case .signal(SIGCONT):
            // Not after our own stop: `bg`, `fg`, or the end of a SIGSTOP.
            terminal = lp_terminal_state()
            if state == .active, terminal == 2 {
                run(path(from: state, to: .background), cause: .terminalForegroundChanged, then: .nothing)
            } else if state == .background, terminal != 2 {
                run(path(from: state, to: .active), cause: .terminalForegroundChanged, then: .nothing)
            }
        case .signal(let signal) where signal == SIGTERM || signal == SIGINT:
            startTermination(signal: signal, cause: .terminationSignal(signal), signalledAt: lp_lifecycle_signal_ns(signal))
        case .signal(SIGHUP):
            let at = lp_lifecycle_signal_ns(SIGHUP)
            if terminal != 0 {
                startTermination(signal: SIGHUP, cause: .hangup, signalledAt: at)
            } else {
                startReload(signalledAt: at, now: now)
            }
        case .signal: break
        }
    }

    // MARK: - Operations

    private func startSuspend(from state: LifecycleState, signalledAt: UInt64) {
        if state != .terminating, state != .suspended, lp_lifecycle_group_orphaned() == 1 {
            // The kernel would discard the stop: say so, and change nothing.
            let now = lp_now_ns()
            LifecycleTrace.event("stop discarded by the kernel: orphaned process group", at: now)
            dispatch(.stopDiscarded(nanoseconds: now))
            return
        }
        switch state {
        case .terminating, .suspended: return
        case .launching:
            // No app state to leave yet: stop as the default action would.
            stopAndResume(signalledAt: signalledAt, resumeTransitions: false)
        default:
            inFlight = InFlight(
                job: submitMoves(path(from: state, to: .suspended), cause: .terminalStop),
                deadline: lp_now_ns() &+ RuntimeClock.nanoseconds(configuration.suspendBudget),
                budget: configuration.suspendBudget, phase: .suspended, then: .stop(signalledAt: signalledAt))
        }
    }

    private func startTermination(signal: Int32, cause: LifecycleCause, signalledAt: UInt64) {
        guard lifecycle.state != .terminating else { return }
        lp_lifecycle_set_terminating()
        // systemd: STOPPING=1 "tells the service manager that the service is
        // beginning its shutdown".
        _ = lp_sd_notify("STOPPING=1")
        lp_harness_record("stopping", lp_now_ns(), nil, 0)
        pending.removeAll()
        inFlight = InFlight(
            job: submitMoves([.terminating], cause: cause),
            deadline: lp_now_ns() &+ RuntimeClock.nanoseconds(configuration.terminateBudget),
            budget: configuration.terminateBudget, phase: .terminating,
            then: .exit(signal: signal, signalledAt: signalledAt))
    }

    private func startReload(signalledAt: UInt64, now: UInt64) {
        _ = lp_sd_notify("RELOADING=1\nMONOTONIC_USEC=\(now / 1_000)")
        let lifecycle = lifecycle
        let job = worker.submit { lifecycle.deliver(.reload(nanoseconds: now)) }
        inFlight = InFlight(job: job, deadline: nil, budget: nil, phase: lifecycle.state, then: .reloaded(signalledAt: signalledAt))
    }

    private func run(_ states: [LifecycleState], cause: LifecycleCause, then: Continuation) {
        guard !states.isEmpty else { return }
        inFlight = InFlight(job: submitMoves(states, cause: cause), deadline: nil, budget: nil, phase: states.last!, then: then)
    }

    private func submitMoves(_ states: [LifecycleState], cause: LifecycleCause) -> UInt64 {
        let lifecycle = lifecycle
        return worker.submit {
            for state in states { lifecycle.move(to: state, cause: cause) }
        }
    }

    /// The states between `from` and `to` along active, inactive, background, suspended.
    func path(from: LifecycleState, to: LifecycleState) -> [LifecycleState] {
        let chain: [LifecycleState] = [.active, .inactive, .background, .suspended]
        guard let start = chain.firstIndex(of: from), let end = chain.firstIndex(of: to), start != end else { return [] }
        return start < end ? Array(chain[(start + 1)...end]) : Array(chain[end..<start].reversed())
    }

    // MARK: - Completion

    func checkInFlight(now: UInt64) {
        guard let operation = inFlight else { return }
        if worker.completed >= operation.job {
            inFlight = nil
            finish(operation.then)
        } else if let deadline = operation.deadline, now >= deadline, operation.yieldsToTermination,
            pending.contains(where: \.isTermination)
        {
            // Its handlers are stuck: termination goes first, without them.
            inFlight = nil
            StandardStream.error.write(
                "launchprof: \(operation.phase) handlers still running when termination was asked for; terminating without them\n")
            LifecycleTrace.event("termination pre-empted running handlers", at: now)
        } else if let deadline = operation.deadline, now >= deadline {
            inFlight = nil
            let budget = operation.budget ?? .zero
            StandardStream.error.write(
                "launchprof: \(operation.phase) handlers still running after their budget of \(budget); going on without them\n")
            dispatch(.budgetExceeded(phase: operation.phase, budget: budget))
            if operation.phase == .terminating { lifecycle.saveAfterTerminationOverrun() }
            finish(operation.then)
        }
    }

    private func finish(_ continuation: Continuation) {
        let now = lp_now_ns()
        switch continuation {
        case .nothing: break
        case .stop(let signalledAt):
            // A termination that arrived meanwhile wins over stopping.
            if pending.contains(where: \.isTermination) { return }
            LifecycleTrace.interval("suspend", from: signalledAt, to: now)
            stopAndResume(signalledAt: signalledAt, resumeTransitions: true)
        case .resumed(let continuedAt):
            LifecycleTrace.interval("resume", from: continuedAt, to: now)
            lp_harness_record(LP_RECORD_RESUMED, now, nil, 0)
        case .reloaded(let signalledAt):
            LifecycleTrace.interval("reload", from: signalledAt, to: now)
            _ = lp_sd_notify("READY=1")
            lp_harness_record("reloaded", now, nil, 0)
        case .exit(let signal, let signalledAt):
            LifecycleTrace.interval("terminate", from: signalledAt, to: now)
            exit(by: signal)
        }
    }

    /// Really stops (SIGTSTP's default action), then, once continued,
    /// resumes: back to background, and on to active unless a terminal says
    /// the process is not in the foreground.
    private func stopAndResume(signalledAt: UInt64, resumeTransitions: Bool) {
        let continues = lp_lifecycle_signal_count(SIGCONT)
        let stoppedAt = lp_now_ns()
        lp_lifecycle_stop_self()
        heartbeat?.excuse()
        // The SIGCONT handler normally ran before raise() returned; allow it
        // a moment on another thread. No SIGCONT at all: the kernel discarded
        // the stop (an orphaned process group), and the process never stopped.
        var waited = 0
        while lp_lifecycle_signal_count(SIGCONT) == continues, waited < 2_000 {
            usleep(50)  // up to ~100 ms in all
            waited += 1
        }
        let seen = lp_lifecycle_signal_count(SIGCONT) &- continues
        continuesToIgnore &+= seen
        let continuedAt = seen > 0 ? lp_lifecycle_signal_ns(SIGCONT) : lp_now_ns()
        if seen > 0 {
            LifecycleTrace.interval("suspended", from: stoppedAt, to: continuedAt)
        } else {
            LifecycleTrace.event("stop discarded (orphaned process group)", at: continuedAt)
        }
        terminal = lp_terminal_state()
        guard resumeTransitions else {
            lp_harness_record(LP_RECORD_RESUMED, lp_now_ns(), nil, 0)
            return
        }
        let states = path(from: .suspended, to: terminal == 2 ? .background : .active)
        inFlight = InFlight(
            job: submitMoves(states, cause: .continued), deadline: nil, budget: nil, phase: states.last ?? .background,
            then: .resumed(continuedAt: continuedAt))
    }

    /// Writes the trace (once per process), then ends the process as the
    /// configuration says.
    private func exit(by signal: Int32) -> Never {
        if lp_trace_claim_final_write() != 0 {
            do {
                try Tracer.flush()
            } catch {
                StandardStream.error.write("launchprof: \(error)\n")
            }
        }
        switch configuration.terminationExit {
        case .reraiseSignal: lp_lifecycle_exit_by_signal(signal)
        case .exitStatus: Glibc.exit(128 + signal)
        }
    }
}
