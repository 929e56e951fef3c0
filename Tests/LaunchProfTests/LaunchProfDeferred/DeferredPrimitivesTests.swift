import CLaunchProfSupport
import Testing

@testable import LaunchProf
@testable import LaunchProfDeferred

/// The small pieces the deferred initializer and prewarm registry stand on.
@Suite("Deferred primitives")
struct DeferredPrimitivesTests {
    @Test("a semaphore wait times out no earlier than asked, and a signal wakes it")
    func semaphoreTimeoutAndWake() {
        let semaphore = ThreadSemaphore()
        let before = lp_now_ns()
        #expect(semaphore.wait(timeoutNanoseconds: 30_000_000) == false)
        #expect(lp_now_ns() - before >= 30_000_000)

        BackgroundThread.start(name: "test-signal") {
            sleepMilliseconds(20)
            semaphore.signal()
        }
        #expect(semaphore.wait(timeoutNanoseconds: 30_000_000_000))
        semaphore.signal()
        #expect(semaphore.wait(timeoutNanoseconds: 0), "a pending permit is taken at once")
    }

    @Test("durations convert to whole nanoseconds, clamped at both ends")
    func durationNanoseconds() {
        #expect(RuntimeClock.nanoseconds(.milliseconds(500)) == 500_000_000)
        #expect(RuntimeClock.nanoseconds(.seconds(2) + .nanoseconds(7)) == 2_000_000_007)
        #expect(RuntimeClock.nanoseconds(.milliseconds(-5)) == 0)
        #expect(RuntimeClock.nanoseconds(.seconds(Int64.max)) == UInt64.max)
    }

    @Test("an idle policy with no maximum wait skips the check at once")
    func noIdleCheck() {
        var paused = 0
        let reason = IdleDetector(policy: .none).waitForIdle { _ in
            paused += 1
            return false
        }
        #expect(reason == .idleCheckSkipped)
        #expect(paused == 0)
    }

    @Test("priorities order high, custom, normal, low and describe themselves")
    func priorities() {
        #expect(BackgroundPriority.high > BackgroundPriority(50))
        #expect(BackgroundPriority(50) > .normal)
        #expect(BackgroundPriority.normal > .low)
        #expect(["\(BackgroundPriority.high)", "\(BackgroundPriority(7))"] == ["high", "7"])
    }
}
