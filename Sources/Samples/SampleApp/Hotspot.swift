import Glibc

/// Deliberately hot, never inlined: `--hot-ms N` spends N ms of this
/// thread's CPU time here before launch complete, so a profile has one known
/// function on top (the sampler's end-to-end tests look for it by its
/// demangled name). The thread's own clock, not the process's (`clock()`):
/// with the process's, the app's other threads running meanwhile ended the
/// loop early, by however much CPU the scheduler happened to give them, and
/// the hot function's share of a profile moved with the machine's load.
@inline(never)
func computeLaunchHotspot(milliseconds: Int) -> UInt64 {
    guard milliseconds > 0 else { return 0 }
    let end = threadCPUNanoseconds() + UInt64(milliseconds) * 1_000_000
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    repeat {
        // Pure arithmetic between clock reads, so the samples land here (a
        // while loop: no iterator call, even in a debug build).
        var step = 0
        while step < 200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            step &+= 1
        }
    } while threadCPUNanoseconds() < end
    return state
}

/// The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID).
func threadCPUNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}
