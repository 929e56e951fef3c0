/// How to start one measured process, beyond the target itself.
package struct SpawnOptions: Sendable, Equatable {
    /// Where the program's output goes.
    package var output: OutputDisposition
    /// Read stdout and stderr through pipes (the `output:REGEX` probe). What
    /// is read is still sent where `output` says.
    package var captureOutput: Bool
    /// Create a private sd_notify socket and pass it in NOTIFY_SOCKET.
    package var notifySocket: Bool
    /// A file for standard input; nil: /dev/null.
    package var input: String?
    /// Learn the pid and t0 only when the process exits, so launchprof is
    /// not woken while the program starts (`LP_SPAWN_FLAG_QUIET`). For
    /// the `exit` probe without captured output only: `RunRequest` decides
    /// it, and the spawner takes it as given.
    /// `LaunchedProcess/pid` is 0 until then.
    package var quiet = false
    /// Connect to the X display before the spawn and watch its top-level
    /// windows (`--ready window`, `--ready frame`).
    package var watchesWindows = false
    /// The X display to watch (the target's DISPLAY); nil: launchprof's own $DISPLAY.
    package var display: String?
    /// How long connecting to the display may take, refused connections
    /// tried again meanwhile (the run's timeout).
    package var displayTimeout: Duration = RunDefaults.timeout
    /// A launch on demand: a listening socket passed as descriptor 3 with
    /// systemd's LISTEN_* variables (the record socket moves to 4).
    package var activation: SocketActivation?
    /// Count the launched tree with perf_event_open (`--counts perf`,
    /// `LP_SPAWN_FLAG_COUNT`): the counts come with the run's resources.
    package var counters = false
    /// Sample the launched tree's stacks in the kernel
    /// (`LP_SPAWN_FLAG_SAMPLE`); nil: no.
    package var sampling: KernelSampling?
    /// The CPUs the process runs on (`gate --affinity`,
    /// `LP_SPAWN_FLAG_AFFINITY`); nil: wherever the spawner's CPUs allow.
    package var affinity: CPUAffinity?

    /// Options for one spawn.
    package init(output: OutputDisposition = .discard, captureOutput: Bool = false, notifySocket: Bool = false) {
        self.output = output
        self.captureOutput = captureOutput
        self.notifySocket = notifySocket
    }

    /// What `probe` needs: pipes for `output:`, a socket for `notify`.
    ///
    /// The notify socket is made only for the notify probe: it costs a socket
    /// and a bind per run, and a NOTIFY_SOCKET makes LaunchProf programs send
    /// a datagram at launch complete, which is work the other probes do not
    /// need to measure. The ready pipe is always passed, for milestones.
    package static func forProbe(_ probe: ReadyProbe, output: OutputDisposition) -> SpawnOptions {
        var options = SpawnOptions(output: output)
        switch probe {
        case .output: options.captureOutput = true
        case .notify: options.notifySocket = true
        case .window, .frame: options.watchesWindows = true
        case .exit, .tracer, .port, .response: break
        }
        return options
    }
}
