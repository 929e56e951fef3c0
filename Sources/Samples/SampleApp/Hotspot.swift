import Glibc

/// Deliberately hot, never inlined: `--hot-ms N` spends N ms of CPU here
/// before launch complete, so a profile has one known function on top
/// (the sampler's end-to-end tests look for it by its demangled name).
@inline(never)
func computeLaunchHotspot(milliseconds: Int) -> UInt64 {
    guard milliseconds > 0 else { return 0 }
    let end = clock() + clock_t(milliseconds) * CLOCKS_PER_SEC / 1000
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    repeat {
        // Pure arithmetic between clock reads, so the samples land here (a
        // while loop: no iterator call, even in a debug build).
        var step = 0
        while step < 200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            step &+= 1
        }
    } while clock() < end
    return state
}
