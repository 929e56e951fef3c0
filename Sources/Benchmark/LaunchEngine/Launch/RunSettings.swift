/// Settings of the run loop for one launch.
package struct RunSettings: Sendable, Equatable {
    /// When the launch counts as done.
    package var probe: ReadyProbe
    /// The run is killed (with its process group) if it is neither ready nor
    /// exited by then.
    package var timeout: Duration
    /// How long a process stopped with SIGTERM after ready may take to exit
    /// before it gets SIGKILL.
    package var grace: Duration
    /// Lifecycle phases to measure after ready (`--measure`).
    package var measure: [LifecycleMeasure]
    /// A launch on demand: the request to send through the activated
    /// socket (ready is its whole response), then once more, warm.
    package var activation: SocketActivation?
    /// `--trace-runs`: the trace the program writes after ready; the run
    /// waits for it (at most the grace period) before stopping the program.
    package var traceFile: String?
    /// `--counts perf`: tell the spawner when the run is ready, so its
    /// counters are read then.
    package var counts = false
    /// Kernel-side sampling (`KernelSampling`): tell the spawner when the
    /// run is ready, so sampling stops there.
    package var sampling = false

    /// Settings for one observed run.
    package init(
        probe: ReadyProbe = .exit, timeout: Duration = RunDefaults.timeout, grace: Duration = RunDefaults.grace,
        measure: [LifecycleMeasure] = []
    ) {
        self.probe = probe
        self.timeout = timeout
        self.grace = grace
        self.measure = measure
    }
}
