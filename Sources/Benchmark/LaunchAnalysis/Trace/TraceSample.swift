/// One sampled call stack.
public struct TraceSample: Sendable, Equatable {
    /// When the sample was taken (`CLOCK_MONOTONIC`, nanoseconds).
    public var timestamp: UInt64
    /// The sampled thread.
    public var threadID: UInt32
    /// Timer periods this sample stands for: 1 under perf events (a signal
    /// every period); 1 + the timer's overrun under POSIX CPU timers, which
    /// fire at the scheduler tick, so above CONFIG_HZ one signal covers
    /// several periods.
    public var weight: UInt32
    /// Time the handler spent unwinding, in nanoseconds.
    public var handlerNanoseconds: UInt32
    /// The stack was deeper than the maximum depth.
    public var truncated: Bool
    /// libunwind failed; `frames` holds only the interrupted PC.
    public var unwindFailed: Bool
    /// A loader lock was taken, so the stack was not walked: `frames` holds
    /// only the interrupted PC.
    public var loaderBusy: Bool
    /// Program counters, leaf first. The first is the interrupted PC; the
    /// others are return addresses.
    public var frames: [UInt64]
    /// Wall clock: the thread used under half the periods' CPU time, so the
    /// signal found it waiting (in a system call, on a lock).
    public var offCPU = false
    /// Wall clock, off CPU: most of the time the thread did not run it was
    /// runnable, waiting for a CPU (a busy machine), not blocked.
    public var waitingForCPU = false
    /// Kernel sampling: the thread was in the kernel (a system call, a page
    /// fault); the frames are the user stack it entered from.
    public var inKernel = false
}
