/// One launch to make and watch to its end: the target and how to start and
/// observe it. The benchmark's runs, `record`, the loader statistics of
/// `explain` and the tools launchprof runs all describe their launch with
/// it, and launchprof's defaults (``RunDefaults``) are its defaults; the
/// spawner's options and the run loop's settings are derived from it here,
/// in one place.
package struct RunRequest: Sendable, Equatable {
    /// What to launch, with its ready probe and socket activation.
    package var target: LaunchTarget
    /// The run is killed with its process tree if neither ready nor exited by then.
    package var timeout: Duration
    /// How long a process stopped after ready may take to exit before SIGKILL.
    package var grace: Duration
    /// Where the program's output goes.
    package var output: OutputDisposition
    /// A file for standard input; nil: /dev/null.
    package var input: String?
    /// Lifecycle phases to time after ready (`--measure`).
    package var measure: [LifecycleMeasure]
    /// The trace the program writes after ready (`--trace-runs`): the run
    /// waits for it before stopping the program.
    package var traceFile: String?
    /// Learn the pid only when the process exits, so launchprof is not woken
    /// while the program starts; taken only where nothing is needed earlier.
    package var quiet: Bool
    /// What counts the launch's events (`--counts`); nil: nothing. Under
    /// callgrind the target runs wrapped in Valgrind (`CallgrindCounter`).
    package var counts: CountSource?
    /// Sample the launch's stacks in the kernel (`KernelSampling`); nil: no.
    package var sampling: KernelSampling?
    /// The CPUs the launch runs on (`gate --affinity`); nil: anywhere.
    package var affinity: CPUAffinity?

    /// A launch of `target` with launchprof's defaults.
    package init(
        target: LaunchTarget, timeout: Duration = RunDefaults.timeout, grace: Duration = RunDefaults.grace,
        output: OutputDisposition = .discard, input: String? = nil, measure: [LifecycleMeasure] = [],
        traceFile: String? = nil, quiet: Bool = false
    ) {
        self.target = target
        self.timeout = timeout
        self.grace = grace
        self.output = output
        self.input = input
        self.measure = measure
        self.traceFile = traceFile
        self.quiet = quiet
    }

    /// How the spawner starts it: pipes for an `output:` probe, a socket for
    /// `notify`, the activated socket, quiet only for the exit probe with
    /// nothing to measure after ready.
    package var spawnOptions: SpawnOptions {
        var options = SpawnOptions.forProbe(target.ready, output: output)
        options.input = input
        // The one place the quiet-spawn rule is decided: only a launch that
        // needs nothing before its exit (the exit probe: no output to match,
        // no notify socket, no window, no socket activation; nothing to
        // time after ready) may be started without waking launchprof.
        options.quiet = quiet && target.ready == .exit && measure.isEmpty && target.activation == nil && sampling == nil
        options.activation = target.activation
        options.display = target.environment["DISPLAY"]
        options.displayTimeout = timeout
        options.counters = counts == .perf
        options.sampling = sampling
        options.affinity = affinity
        return options
    }

    /// How the run loop watches it.
    package var settings: RunSettings {
        var settings = RunSettings(probe: target.ready, timeout: timeout, grace: grace, measure: measure)
        settings.activation = target.activation
        settings.traceFile = traceFile
        settings.counts = counts == .perf
        settings.sampling = sampling != nil
        return settings
    }
}

extension Spawner {
    /// Starts `request` and watches it until it exits, or is ready and
    /// stopped, or times out: everything the run loop saw.
    package func run(_ request: RunRequest, interrupt: InterruptMonitor? = nil) throws(LaunchError) -> ObservedRun {
        if request.counts == .callgrind {
            let counter = try CallgrindCounter(wrapping: request.target, commandLine: try Self.commandLine(of: request.target))
            defer { counter.remove() }
            let process = try spawn(counter.target, options: request.spawnOptions, interrupt: interrupt)
            var observed = try RunLoop(process: process, settings: request.settings, interrupt: interrupt).run()
            counter.read(into: &observed, probe: request.target.ready)
            return observed
        }
        let process = try spawn(request.target, options: request.spawnOptions, interrupt: interrupt)
        return try RunLoop(process: process, settings: request.settings, interrupt: interrupt).run()
    }
}
