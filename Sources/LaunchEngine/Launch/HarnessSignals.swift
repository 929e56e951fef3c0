import Glibc

/// Signal dispositions launchprof needs, whatever it inherited.
public enum HarnessSignals {
    /// Call once at start-up, before any run:
    /// - SIGCHLD back to its default: a parent that ignores it (some CI
    ///   runners and shells do) would make the kernel reap launchprof's
    ///   children itself, losing their status and resources;
    /// - SIGPIPE ignored: writing `--show-output` or a report to a closed
    ///   pipe must be an error launchprof handles (and cleans up after), not
    ///   a death that skips the clean-up.
    public static func prepare() {
        signal(SIGCHLD, SIG_DFL)
        signal(SIGPIPE, SIG_IGN)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGCHLD)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }
}
