/// Everything the run loop saw of one launch. Times are nanoseconds since t0.
///
/// The figures a results document keeps (times to ready and exit, process
/// entry, main, milestones, the lifecycle and activation times, intervals,
/// the main thread's CPU, how it ended) are a ``RunMeasurement`` the loop
/// fills in as it sees them, read and written here by name (`run.wallToReady`);
/// beside it is what only the loop needs.
@dynamicMemberLookup
package struct ObservedRun: Sendable, Equatable {
    /// The launched process's id.
    package var pid: Int32
    /// t0: CLOCK_MONOTONIC just before the spawner's vfork, as it read it;
    /// the run's times count from here.
    package var startNanoseconds: UInt64 = 0
    /// The figures as they are measured; resources and the index are set by
    /// ``measurement(index:residency:)``.
    package var figures: RunMeasurement
    /// The launched process's own resources (wait4 of it).
    package var usage: ResourceUsage
    /// The whole tree's: sums, the largest process, how many were reaped.
    package var tree = TreeUsage()
    /// What the run loop noticed and the report should say once (records
    /// from another process, refused notify senders, ignored variables).
    package var notes: [String] = []
    /// SIGINT arrived during the run; the process was killed and the run
    /// does not count.
    package var interrupted = false
    /// A record on the record socket this launchprof cannot read; the run was killed.
    package var protocolError: String?
    /// `--measure` could not measure what it was asked to; the run was killed.
    package var measureError: String?
    /// For a run that never became ready with `--ready notify`: what
    /// arrived on the notify socket and why it did not count (a `READY=1`
    /// from a process outside the run), or that nothing arrived; part of
    /// the failure.
    package var readinessAccount: String?
    /// With `--counts`: which counters were measured, by what, and why the
    /// others were not.
    package var counterReport: CounterReport?

    /// A run of `pid` so far: it ended with `exit`, having used `usage`.
    package init(
        pid: Int32, wallToReady: UInt64? = nil, wallToExit: UInt64? = nil, exit: ExitStatus, usage: ResourceUsage
    ) {
        self.pid = pid
        self.usage = usage
        figures = RunMeasurement(index: 0, wallToExit: wallToExit, wallToReady: wallToReady, exit: exit)
    }

    /// A figure of the run, by its name in ``RunMeasurement``.
    package subscript<Value>(dynamicMember keyPath: WritableKeyPath<RunMeasurement, Value>) -> Value {
        get { figures[keyPath: keyPath] }
        set { figures[keyPath: keyPath] = newValue }
    }

    /// The run as a measurement, numbered `index` among its target's runs.
    package func measurement(index: Int, residency: ResidencyReport? = nil) -> RunMeasurement {
        // The run's figures are the whole tree's; the launched process's own
        // are kept beside them.
        let total = tree.processes > 0 ? tree.usage : usage
        var measurement = figures
        measurement.index = index
        measurement.residency = residency
        measurement.userCPU = total.userCPU
        measurement.systemCPU = total.systemCPU
        measurement.maxRSSBytes = total.maxRSSBytes
        measurement.majorFaults = total.majorFaults
        measurement.minorFaults = total.minorFaults
        measurement.voluntaryContextSwitches = total.voluntaryContextSwitches
        measurement.involuntaryContextSwitches = total.involuntaryContextSwitches
        if tree.processes > 0 {
            measurement.process = usage
            measurement.processCount = tree.processes
            measurement.largestProcess = tree.largest
        }
        return measurement
    }

    /// Why this run is not a successful launch, or nil if it is.
    package var failure: String? {
        if let protocolError { return protocolError }
        if let measureError { return measureError }
        switch figures.exit {
        case .timedOut:
            let account = readinessAccount.map { "; \($0)" } ?? ""
            return "timed out before it was ready; its process group was killed\(account)"
        case .signaled(let signal): return "crashed: killed by signal \(signal) (\(signalName(signal)))"
        case .exited(let code) where code != 0:
            // What the notify socket got before (a sender refused, or nothing) may be why.
            let account = readinessAccount.map { "; \($0)" } ?? ""
            return "exited with status \(code)\(account)"
        case .failedToStart(let reason): return "failed to start: \(reason)"
        default: break
        }
        if figures.wallToReady == nil {
            let account = readinessAccount.map { "; \($0)" } ?? ""
            return "exited before it was ready (the probe never fired)\(account)"
        }
        return nil
    }
}

/// SIGSEGV, SIGABRT, … for a signal number.
func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS",
        8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM",
        15: "SIGTERM",
    ]
    return names[signal] ?? "signal \(signal)"
}
