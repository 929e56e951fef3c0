import Glibc

/// Signal dispositions launchprof needs, whatever it inherited.
package enum HarnessSignals {
    /// Call once at start-up, before any run:
    /// - SIGCHLD back to its default: a parent that ignores it (some CI
    ///   runners and shells do) would make the kernel reap launchprof's
    ///   children itself, losing their status and resources;
    /// - SIGPIPE ignored: writing `--show-output` or a report to a closed
    ///   pipe must be an error launchprof handles (and cleans up after), not
    ///   a death that skips the clean-up;
    /// - SIGCHLD and the interrupting signals unblocked.
    package static func prepare() {
        signal(SIGCHLD, SIG_DFL)
        signal(SIGPIPE, SIG_IGN)
        // Unblocked, whatever mask launchprof inherited (a parent's blocked
        // signals pass through exec): SIGCHLD, and the signals that interrupt
        // a run, whose handler (InterruptMonitor) never runs while they are
        // blocked. Before any thread is started, so every thread inherits it.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in [SIGCHLD] + InterruptMonitor.signals { sigaddset(&unblocked, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }
}
