import Glibc

/// The write end of the stop pipe, for the signal handler (which cannot
/// capture): set once, before the handler is installed.
nonisolated(unsafe) private var stopPipeWriteEnd: Int32 = -1

/// SIGTERM and SIGINT as a readable pipe, so the accept loop can poll for
/// them next to the listener: the self-pipe trick, with a handler that only
/// writes a byte (async-signal-safe).
///
/// The handler is installed with sigaction(2), which is in place when it
/// returns. A Dispatch signal source is not: `resume()` registers it later,
/// on Dispatch's manager thread, and a SIGTERM that came before that (the
/// signal ignored meanwhile, as Dispatch needs) was lost, so a harness that
/// stopped the server right after "listening" had to kill it.
final class StopSignals: Sendable {
    let readEnd: Int32

    private init(readEnd: Int32) { self.readEnd = readEnd }

    static func install() -> StopSignals {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fail("cannot create a pipe: \(String(cString: strerror(errno)))") }
        // Never inherited; and a full pipe must not block the handler.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        stopPipeWriteEnd = ends[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let saved = errno
            var byte: UInt8 = 1
            _ = write(stopPipeWriteEnd, &byte, 1)
            errno = saved
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        for number in [SIGTERM, SIGINT] {
            guard sigaction(number, &action, nil) == 0 else {
                fail("cannot handle signal \(number): \(String(cString: strerror(errno)))")
            }
        }
        return StopSignals(readEnd: ends[0])
    }
}
