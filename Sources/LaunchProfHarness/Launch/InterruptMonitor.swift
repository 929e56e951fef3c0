import Dispatch
import Glibc
import Synchronization

/// Turns SIGINT (Ctrl-C) into something the run loop can poll: a pipe that
/// becomes readable, and a flag.
///
/// A Dispatch signal source receives the signal on a queue (not in a signal
/// handler), so the reaction may do anything; SIGINT itself is set to ignored
/// while the monitor runs, so the harness is not killed before it has
/// stopped the child and written what it measured. Children are spawned with
/// default dispositions and in their own process group, so a terminal's
/// Ctrl-C reaches only the harness.
public final class InterruptMonitor: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init; the flag is
    // atomic and the pipe is written with single write(2) calls.
    private let readEnd: Int32
    private let writeEnd: Int32
    private let interrupted = Atomic<Bool>(false)
    private let source: any DispatchSourceSignal

    /// Starts listening for SIGINT.
    public init() throws(SystemCallError) {
        var ends: [Int32] = [-1, -1]
        try Syscall.check("pipe2", "interrupt pipe") { GNUExtensions.pipe2(&ends, O_CLOEXEC | O_NONBLOCK) }
        readEnd = ends[0]
        writeEnd = ends[1]
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "launchprof.sigint"))
        source.setEventHandler { [weak self] in self?.interrupt() }
        source.resume()
    }

    /// Stops listening and restores SIGINT's default action.
    public func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }

    deinit {
        source.cancel()
        Syscall.closeQuietly(readEnd)
        Syscall.closeQuietly(writeEnd)
    }

    /// Whether SIGINT has arrived.
    public var isInterrupted: Bool { interrupted.load(ordering: .sequentiallyConsistent) }

    /// Readable once SIGINT has arrived (never drained): poll it with POLLIN.
    var descriptor: Int32 { readEnd }

    /// Marks the monitor interrupted as SIGINT would (for tests and callers
    /// that stop a benchmark for other reasons).
    public func interrupt() {
        interrupted.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
