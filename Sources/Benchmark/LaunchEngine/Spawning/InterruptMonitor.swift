import CLaunchProfSpawn
import Glibc
import LaunchSupport
import Synchronization

/// Turns SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT into something the run loop can
/// poll: a pipe that becomes readable, and a flag.
///
/// The signals are caught with sigaction(2) by a handler that writes a byte
/// to the monitor's pipe (`lp_interrupt_catch`), in place when the monitor's
/// init returns: a Dispatch signal source is registered only later, on
/// Dispatch's manager thread, with the signal ignored meanwhile, and a
/// SIGTERM or Ctrl-C in that window was lost. The harness is not killed
/// before it has stopped the child and written what it measured. Children
/// are spawned with default dispositions (exec resets a handler) and in their
/// own process group, so a terminal's Ctrl-C reaches only the harness —
/// which is also why SIGTERM and SIGHUP must be caught: dying from them would
/// leave the child's group running.
package final class InterruptMonitor: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init; the flag is
    // atomic and the pipe is written with single write(2) calls.
    private let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor
    private let interrupted = Atomic<Bool>(false)
    private let registered: Bool
    /// The signals that interrupt a benchmark.
    /// SIGQUIT (Ctrl-\\) too: its default action would dump core and skip
    /// stopping the run (the spawner would still clean up, but only once
    /// launchprof is gone).
    package static let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Whether the monitor took ``signals`` over (and gives them back in ``stop()``).
    package let catchesSignals: Bool

    /// Starts listening for ``signals``; with `catchingSignals: false`, only
    /// ``interrupt()`` interrupts (a library caller that keeps its own
    /// signal handling: a test runner, a server).
    package init(catchingSignals: Bool = true) throws(SystemCallError) {
        catchesSignals = catchingSignals
        var ends: [Int32] = [-1, -1]
        try Syscall.check("pipe2", "interrupt pipe") { lp_pipe(&ends, O_CLOEXEC | O_NONBLOCK) }
        readEnd = FileDescriptor(ends[0])
        writeEnd = FileDescriptor(ends[1])
        guard catchingSignals else {
            registered = false
            return
        }
        do {
            try Syscall.check("lp_interrupt_register", "interrupt pipe") { lp_interrupt_register(ends[1]) }
            registered = true
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            for number in Self.signals {
                try Syscall.check("sigaction", "signal \(number)") { lp_interrupt_catch(number) }
                sigaddset(&unblocked, number)
            }
            // A handler never runs for a blocked signal; threads started from
            // here on inherit this (HarnessSignals.prepare does it for all).
            pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        } catch {
            lp_interrupt_unregister(ends[1])
            for number in Self.signals { signal(number, SIG_DFL) }
            readEnd.close()
            writeEnd.close()
            throw error
        }
    }

    /// Stops listening and restores the signals' default actions.
    package func stop() {
        if catchesSignals {
            for number in Self.signals { signal(number, SIG_DFL) }
        }
        if registered { lp_interrupt_unregister(writeEnd.rawValue) }
    }

    deinit {
        if registered { lp_interrupt_unregister(writeEnd.rawValue) }
        readEnd.close()
        writeEnd.close()
    }

    /// Whether one of the signals has arrived (or ``interrupt()`` was called):
    /// the flag, or the pipe the signal handler writes to become readable.
    package var isInterrupted: Bool {
        if interrupted.load(ordering: .sequentiallyConsistent) { return true }
        var poller = pollfd(fd: readEnd.rawValue, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 1 && poller.revents & Int16(POLLIN) != 0
    }

    /// Readable once a signal has arrived (never drained): poll it with POLLIN.
    var descriptor: Int32 { readEnd.rawValue }

    /// Marks the monitor interrupted as SIGINT would (for tests and callers
    /// that stop a benchmark for other reasons).
    package func interrupt() {
        interrupted.store(true, ordering: .sequentiallyConsistent)
        // The self-pipe only has to become readable: a full pipe already is.
        [UInt8(1)].withUnsafeBytes { bytes in _ = try? writeEnd.writeAll(bytes) }
    }
}
