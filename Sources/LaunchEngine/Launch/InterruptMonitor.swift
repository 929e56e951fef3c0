import CLaunchProfSpawn
import Dispatch
import Glibc
import LaunchSupport
import Synchronization

/// Turns SIGINT (Ctrl-C), SIGTERM, SIGHUP and SIGQUIT into something the run loop can
/// poll: a pipe that becomes readable, and a flag.
///
/// A Dispatch signal source receives each signal on a queue (not in a signal
/// handler), so the reaction may do anything; the signals themselves are set
/// to ignored while the monitor runs, so the harness is not killed before it
/// has stopped the child and written what it measured. Children are spawned
/// with default dispositions and in their own process group, so a terminal's
/// Ctrl-C reaches only the harness — which is also why SIGTERM and SIGHUP
/// must be caught: dying from them would leave the child's group running.
public final class InterruptMonitor: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init; the flag is
    // atomic and the pipe is written with single write(2) calls.
    private let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor
    private let interrupted = Atomic<Bool>(false)
    private let sources: [any DispatchSourceSignal]
    /// The signals that interrupt a benchmark.
    /// SIGQUIT (Ctrl-\\) too: its default action would dump core and skip
    /// stopping the run (the spawner would still clean up, but only once
    /// launchprof is gone).
    public static let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Whether the monitor took ``signals`` over (and gives them back in ``stop()``).
    public let catchesSignals: Bool

    /// Starts listening for ``signals``; with `catchingSignals: false`, only
    /// ``interrupt()`` interrupts (a library caller that keeps its own
    /// signal handling: a test runner, a server).
    public init(catchingSignals: Bool = true) throws(SystemCallError) {
        catchesSignals = catchingSignals
        var ends: [Int32] = [-1, -1]
        try Syscall.check("pipe2", "interrupt pipe") { lp_pipe(&ends, O_CLOEXEC | O_NONBLOCK) }
        readEnd = FileDescriptor(ends[0])
        writeEnd = FileDescriptor(ends[1])
        let queue = DispatchQueue(label: "launchprof.interrupt")
        sources =
            !catchingSignals
            ? []
            : Self.signals.map { number in
                signal(number, SIG_IGN)
                return DispatchSource.makeSignalSource(signal: number, queue: queue)
            }
        for source in sources {
            source.setEventHandler { [weak self] in self?.interrupt() }
            source.resume()
        }
    }

    /// Stops listening and restores the signals' default actions.
    public func stop() {
        for source in sources { source.cancel() }
        if catchesSignals {
            for number in Self.signals { signal(number, SIG_DFL) }
        }
    }

    deinit {
        for source in sources { source.cancel() }
        readEnd.close()
        writeEnd.close()
    }

    /// Whether one of the signals has arrived.
    public var isInterrupted: Bool { interrupted.load(ordering: .sequentiallyConsistent) }

    /// Readable once a signal has arrived (never drained): poll it with POLLIN.
    var descriptor: Int32 { readEnd.rawValue }

    /// Marks the monitor interrupted as SIGINT would (for tests and callers
    /// that stop a benchmark for other reasons).
    public func interrupt() {
        interrupted.store(true, ordering: .sequentiallyConsistent)
        // The self-pipe only has to become readable: a full pipe already is.
        [UInt8(1)].withUnsafeBytes { bytes in _ = try? writeEnd.writeAll(bytes) }
    }
}
