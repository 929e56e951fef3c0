/// One sampled call stack.
package struct TraceSample: Sendable, Equatable {
    /// When the sample was taken (`CLOCK_MONOTONIC`, nanoseconds).
    package var timestamp: UInt64
    /// The sampled thread.
    package var threadID: UInt32
    /// Timer periods this sample stands for: 1 under perf events (a signal
    /// every period) but for a signal merged with a pending one (``merged``);
    /// 1 + the timer's overrun under POSIX CPU timers, which fire at the
    /// scheduler tick, so above CONFIG_HZ one signal covers several periods.
    package var weight: UInt32
    /// Time the handler spent unwinding, in nanoseconds.
    package var handlerNanoseconds: UInt32
    /// The stack was deeper than the maximum depth.
    package var truncated: Bool
    /// libunwind failed; `frames` holds only the interrupted PC.
    package var unwindFailed: Bool
    /// A loader lock was taken, so the stack was not walked: `frames` holds
    /// only the interrupted PC.
    package var loaderBusy: Bool
    /// Program counters, leaf first. The first is the interrupted PC; the
    /// others are return addresses.
    package var frames: [UInt64]
    /// Wall clock: the thread used under half the periods' CPU time, so the
    /// signal found it waiting (in a system call, on a lock).
    package var offCPU = false
    /// Wall clock, off CPU: most of the time the thread did not run it was
    /// runnable, waiting for a CPU (a busy machine), not blocked.
    package var waitingForCPU = false
    /// Kernel sampling: the thread was in the kernel (a system call, a page
    /// fault); the frames are the user stack it entered from.
    package var inKernel = false
    /// Perf events in the program: the thread's event counted `weight`
    /// periods since its previous signal, the others' signals merged with a
    /// pending one (or skipped by a late timer). The stack is the last
    /// period's; the rest were taken by no stack.
    package var merged = false

    /// The periods a merged sample stood for without a stack of its own
    /// (all but the last, whose stack it is); 0 for any other sample.
    package var unstackedPeriods: UInt32 { merged ? weight - 1 : 0 }
}
