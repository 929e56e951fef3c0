/// What the launch sampler recorded (trace sections 5 and 6): call stacks
/// sampled on each thread's CPU time, and the modules loaded when it stopped.
package struct TraceSampling: Sendable, Equatable {
    /// Requested samples per CPU-second of each thread.
    package var rate: UInt32
    /// The deepest stack a sample keeps.
    package var maxDepth: UInt32
    /// How samples were triggered.
    package var timerMode: TimerMode
    /// Only the main thread was sampled (libunwind was not preloaded).
    package var mainThreadOnly: Bool
    /// glibc's loader locks were not found, so the handler could not avoid
    /// unwinding while a thread was taking one (see docs/sampling.md).
    package var loaderUnguarded: Bool
    /// New threads were armed as they started, by the preload library's
    /// pthread_create hook (otherwise a helper thread found them by scanning
    /// /proc/self/task every 2 ms, and missed threads shorter than that).
    package var threadsHooked: Bool
    /// Kernel sampling in user space only (kernel.perf_event_paranoid 2):
    /// time in the kernel (system calls, page faults) was not sampled.
    package var kernelUnsampled = false
    /// CLOCK_MONOTONIC ns when sampling started and stopped (0: not stopped).
    package var startNanoseconds: UInt64
    /// When sampling stopped (`CLOCK_MONOTONIC`, nanoseconds); 0: not stopped.
    package var stopNanoseconds: UInt64
    /// Samples the buffer had no room for.
    package var lost: UInt64
    /// Samples whose stack could not be walked (kept as their PC alone).
    package var failed: UInt64
    /// tid -> thread name, for every thread the sampler armed.
    package var threadNames: [UInt32: String]
    /// The samples, sorted by time.
    package var samples: [TraceSample]
    /// The loaded modules, sorted by start address.
    package var modules: [TraceModule]
    /// The CPU time the sampled threads' perf events counted while they were
    /// sampled, in microseconds (summed over merged launches); 0 under POSIX
    /// timers, which count nothing.
    package var sampledCPUMicroseconds: UInt64 = 0

    /// How samples were triggered.
    package enum TimerMode: UInt32, Sendable, Equatable, CustomStringConvertible {
        /// No timer was armed.
        case none = 0
        /// A CPU-time timer per thread.
        case threadCPUTime = 1
        /// One process-wide profiling timer (`ITIMER_PROF`).
        case processProfilingTimer = 2
        /// A task-clock perf event per thread: a signal every period of CPU time.
        case threadCPUEvent = 3
        /// A wall-clock timer per thread: every thread, running or waiting.
        case threadWallClock = 4
        /// A task-clock perf event per CPU opened by the harness on the
        /// launched tree: stacks copied by the kernel, unwound by launchprof.
        case kernel = 5

        package var description: String {
            switch self {
            case .none: "none"
            case .threadCPUTime: "per-thread CPU-time timers"
            case .processProfilingTimer: "setitimer(ITIMER_PROF)"
            case .threadCPUEvent: "per-thread task-clock perf events"
            case .threadWallClock: "per-thread wall-clock timers"
            case .kernel: "kernel task-clock sampling"
            }
        }
    }

    /// Several launches' sampling as one: the first's rate, depth, timer mode
    /// and times; samples of all in order; lost and failed summed; a flag
    /// that warns (main thread only, loader unguarded) set if any run set it,
    /// threads hooked only if all did; the first run's modules (addresses
    /// of the others differ: symbolize each with its own).
    package static func merged(_ samplings: [TraceSampling]) -> TraceSampling {
        guard var merged = samplings.first else {
            preconditionFailure("TraceSampling.merged needs at least one sampling")
        }
        for other in samplings.dropFirst() {
            merged.mainThreadOnly = merged.mainThreadOnly || other.mainThreadOnly
            merged.loaderUnguarded = merged.loaderUnguarded || other.loaderUnguarded
            merged.threadsHooked = merged.threadsHooked && other.threadsHooked
            merged.lost += other.lost
            merged.sampledCPUMicroseconds += other.sampledCPUMicroseconds
            merged.failed += other.failed
            merged.threadNames.merge(other.threadNames) { $1 }
            merged.samples += other.samples
        }
        return merged
    }

    /// The module containing `address`, if any.
    package func module(containing address: UInt64) -> TraceModule? {
        var low = 0, high = modules.count
        while low < high {
            let mid = (low + high) / 2
            if modules[mid].end <= address { low = mid + 1 } else { high = mid }
        }
        guard low < modules.count, modules[low].start <= address else { return nil }
        return modules[low]
    }
}
