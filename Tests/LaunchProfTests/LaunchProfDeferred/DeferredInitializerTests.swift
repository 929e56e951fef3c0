import CLaunchProfSupport
import Glibc
import Synchronization
import Testing

@testable import LaunchProf
@testable import LaunchProfDeferred

/// Deferred initializer tests. All use the manual gate: the process-wide
/// launch state is shared by every test in this process, so none of them
/// calls `recordLaunchComplete()` (the sample covers the launch gate).
///
/// Serialized because the idle tests measure this process's CPU use: tests
/// of this suite running beside them would look like a busy program.
@Suite("Deferred initializer", .serialized)
struct DeferredInitializerTests {
    // MARK: - Gate and delay

    @Test("nothing runs before the gate opens; then everything runs after the idle delay")
    func nothingBeforeGate() throws {
        let ran = Atomic(0)
        let deferred = DeferredInitializer(configuration: testConfiguration(idleDelay: .milliseconds(150)))
        for _ in 0..<3 {
            deferred.deferUntilIdle("count") { ran.add(1, ordering: .relaxed) }
        }
        sleepMilliseconds(300)
        #expect(ran.load(ordering: .relaxed) == 0)
        #expect(deferred.phase == .waitingForGate)
        #expect(deferred.tasks.allSatisfy { $0.startedNanoseconds == nil && $0.outcome == nil })

        deferred.openGate()
        #expect(deferred.waitUntilFinished(timeout: .seconds(30)))
        #expect(ran.load(ordering: .relaxed) == 3)
        let gate = try #require(deferred.gateOpenedNanoseconds)
        for task in deferred.tasks {
            #expect(task.outcome == .succeeded)
            let started = try #require(task.startedNanoseconds)
            // The delay is a lower bound: a sleep never ends early.
            #expect(started >= gate + 150_000_000)
        }
        #expect(deferred.phase == .running)
        #expect(deferred.startReport?.reason == .idleCheckSkipped)
    }

    @Test("a gate opened with no task registered starts no thread until a task comes")
    func gateBeforeTasks() {
        let deferred = DeferredInitializer(configuration: testConfiguration())
        deferred.openGate()
        #expect(deferred.phase == .waitingForGate)
        let task = deferred.deferUntilIdle("late") {}
        #expect(deferred.waitUntilFinished(timeout: .seconds(30)))
        #expect(task.record.outcome == .succeeded)
    }

    // MARK: - Idle detection

    @Test("the idle check waits while threads burn CPU and proceeds soon after they stop")
    func idleWaitsForBurners() throws {
        // Six burners, not two: on a machine loaded by other work (CI, the
        // suite's parallel tests) two can be starved for a whole 50 ms window,
        // which then truly reads as idle; six keep the process's share far
        // above 25% on 2 cores even at a load of 10.
        let burners = CPUBurners(threads: 6)
        let deferred = DeferredInitializer(
            configuration: testConfiguration(
                idle: IdlePolicy(window: .milliseconds(50), maximumCPUShare: 0.25, maximumWait: .seconds(60))))
        let task = deferred.deferUntilIdle("after burn") {}
        deferred.openGate()
        sleepMilliseconds(700)
        #expect(task.record.startedNanoseconds == nil, "ran while two threads were burning CPU")
        let stopped = burners.stop()

        #expect(deferred.waitUntilFinished(timeout: .seconds(60)))
        let started = try #require(task.record.startedNanoseconds)
        try #require(started >= stopped, "started \(stopped - started) ns before the burners stopped")
        // Idle is seen within a few windows; 15 s is slack for a loaded machine.
        #expect(started - stopped < 15_000_000_000)
        guard case .idle(let share)? = deferred.startReport?.reason else {
            Issue.record("expected an idle start, got \(String(describing: deferred.startReport?.reason))")
            return
        }
        #expect(share < 0.25)
    }

    @Test("the maximum idle wait runs the tasks even when the process never goes idle")
    func maximumWaitForcesStart() throws {
        let burners = CPUBurners(threads: 2)
        defer { _ = burners.stop() }
        let deferred = DeferredInitializer(
            configuration: testConfiguration(
                idle: IdlePolicy(window: .milliseconds(50), maximumCPUShare: 0.25, maximumWait: .milliseconds(400))))
        let task = deferred.deferUntilIdle("despite burn") {}
        deferred.openGate()
        #expect(deferred.waitUntilFinished(timeout: .seconds(60)))
        let gate = try #require(deferred.gateOpenedNanoseconds)
        let started = try #require(task.record.startedNanoseconds)
        #expect(started >= gate + 400_000_000)
        #expect(started - gate < 30_000_000_000)
        guard case .timedOut? = deferred.startReport?.reason else {
            Issue.record("expected a timed-out start, got \(String(describing: deferred.startReport?.reason))")
            return
        }
    }

    // MARK: - Order and limits

    @Test("tasks run by priority, then in registration order")
    func priorityThenRegistrationOrder() {
        let order = Shared<[String]>([])
        let deferred = DeferredInitializer(configuration: testConfiguration())
        let plan: [(String, BackgroundPriority)] = [
            ("a-low", .low), ("b-normal", .normal), ("c-high", .high), ("d-normal", .normal),
            ("e-high", .high), ("f-custom", BackgroundPriority(50)),
        ]
        for (name, priority) in plan {
            deferred.deferUntilIdle(named: name, priority: priority) { order.withLock { $0.append(name) } }
        }
        deferred.openGate()
        #expect(deferred.waitUntilFinished(timeout: .seconds(30)))
        #expect(order.withLock { $0 } == ["c-high", "e-high", "f-custom", "b-normal", "d-normal", "a-low"])
    }

    @Test("the concurrency limit is never exceeded", arguments: [1, 2, 3])
    func concurrencyLimit(limit: Int) {
        let running = Atomic(0)
        let peak = Atomic(0)
        let deferred = DeferredInitializer(configuration: testConfiguration(limit: limit))
        for _ in 0..<12 {
            deferred.deferUntilIdle("limited") {
                let now = running.add(1, ordering: .sequentiallyConsistent).newValue
                peak.max(now, ordering: .sequentiallyConsistent)
                sleepMilliseconds(15)
                running.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
        deferred.openGate()
        #expect(deferred.waitUntilFinished(timeout: .seconds(60)))
        #expect(peak.load(ordering: .sequentiallyConsistent) <= limit)
        #expect(peak.load(ordering: .sequentiallyConsistent) >= 1)
        #expect(deferred.tasks.allSatisfy { $0.outcome == .succeeded })
    }

    // MARK: - Cancellation, errors, late tasks

    @Test("a task cancelled before it starts never runs; a started one cannot be cancelled")
    func cancellation() throws {
        let ran = Shared<[String]>([])
        let release = ThreadSemaphore()
        let blockerStarted = ThreadSemaphore()
        let deferred = DeferredInitializer(configuration: testConfiguration())
        let blocker = deferred.deferUntilIdle("blocker", priority: .high) {
            blockerStarted.signal()
            release.wait()
            ran.withLock { $0.append("blocker") }
        }
        let doomed = deferred.deferUntilIdle("doomed") { ran.withLock { $0.append("doomed") } }
        let kept = deferred.deferUntilIdle("kept") { ran.withLock { $0.append("kept") } }
        deferred.openGate()
        #expect(blockerStarted.wait(timeoutNanoseconds: 30_000_000_000))
        #expect(blocker.cancel() == false)
        #expect(doomed.cancel() == true)
        #expect(doomed.cancel() == false)
        release.signal()
        #expect(deferred.waitUntilFinished(timeout: .seconds(30)))
        #expect(ran.withLock { $0 } == ["blocker", "kept"])
        #expect(doomed.record.outcome == .cancelled)
        #expect(doomed.record.startedNanoseconds == nil)
        #expect(kept.record.outcome == .succeeded)
        #expect(kept.cancel() == false)
    }

    @Test("cancelling the only queued task leaves nothing to wait for")
    func cancelLastTask() {
        let deferred = DeferredInitializer(configuration: testConfiguration())
        let task = deferred.deferUntilIdle("never") { Issue.record("a cancelled task ran") }
        #expect(task.cancel())
        #expect(deferred.waitUntilFinished(timeout: .seconds(5)))
        deferred.openGate()
        deferred.runNow()
        #expect(task.record.outcome == .cancelled)
    }

    @Test("an error is reported with its text and never stops the other tasks")
    func errorsAreIsolated() throws {
        Tracer.enable()
        let reported = Shared<[String]>([])
        let ran = Atomic(0)
        let deferred = DeferredInitializer(
            configuration: testConfiguration(onError: { task, error in
                reported.withLock { $0.append("\(task.name): \(error)") }
            }))
        deferred.deferUntilIdle("first") { ran.add(1, ordering: .relaxed) }
        let failing = deferred.deferUntilIdle("sync failure") { throw TestFailure("disk on fire 7731") }
        let asyncFailing = deferred.deferUntilIdle("async failure") { () async throws in
            try await Task.sleep(for: .milliseconds(5))
            throw TestFailure("network gone")
        }
        deferred.deferUntilIdle("last") { ran.add(1, ordering: .relaxed) }
        deferred.openGate()
        #expect(deferred.waitUntilFinished(timeout: .seconds(30)))

        #expect(ran.load(ordering: .relaxed) == 2)
        #expect(failing.record.outcome == .failed("disk on fire 7731"))
        #expect(asyncFailing.record.outcome == .failed("network gone"))
        #expect(reported.withLock { $0 }.sorted() == ["async failure: network gone", "sync failure: disk on fire 7731"])
        let names = (TraceRing.global?.snapshot() ?? []).map { Names.text(of: $0.name) }
        if (Tracer.statistics?.lost ?? 0) == 0 {
            #expect(names.contains("sync failure failed: disk on fire 7731"))
        }
    }

    @Test("a task registered while tasks run takes the next slot, without a second idle delay")
    func lateRegistration() throws {
        let release = ThreadSemaphore()
        let firstStarted = ThreadSemaphore()
        let deferred = DeferredInitializer(configuration: testConfiguration(idleDelay: .milliseconds(100)))
        let first = deferred.deferUntilIdle("first") {
            firstStarted.signal()
            release.wait()
        }
        deferred.openGate()
        #expect(firstStarted.wait(timeoutNanoseconds: 30_000_000_000))
        let second = deferred.deferUntilIdle("second") {}
        sleepMilliseconds(50)
        #expect(second.record.startedNanoseconds == nil, "the limit is 1 and the first task still runs")
        release.signal()
        #expect(deferred.waitUntilFinished(timeout: .seconds(30)))
        let firstFinished = try #require(first.record.finishedNanoseconds)
        #expect(try #require(second.record.startedNanoseconds) >= firstFinished)

        // After everything ran: a new task starts on a new thread at once.
        let long = DeferredInitializer(configuration: testConfiguration(idleDelay: .seconds(3)))
        long.deferUntilIdle("warm-up") {}
        long.runNow()
        let third = long.deferUntilIdle("third") {}
        #expect(long.waitUntilFinished(timeout: .seconds(30)))
        let record = third.record
        #expect(try #require(record.queueNanoseconds) < 2_000_000_000, "a late task waited for the idle delay again")
    }

    // MARK: - runNow and async work

    @Test("runNow runs everything at once, even with the gate closed, and returns when done")
    func runNowForcesEverything() {
        let ran = Atomic(0)
        let deferred = DeferredInitializer(configuration: testConfiguration(idleDelay: .seconds(600)))
        for index in 0..<5 {
            deferred.deferUntilIdle(named: "task \(index)") { ran.add(1, ordering: .relaxed) }
        }
        deferred.deferUntilIdle("async") { () async in
            try? await Task.sleep(for: .milliseconds(10))
            ran.add(1, ordering: .relaxed)
        }
        deferred.runNow()
        #expect(ran.load(ordering: .relaxed) == 6)
        #expect(deferred.startReport?.reason == .forced)
        #expect(deferred.tasks.allSatisfy { $0.outcome == .succeeded && $0.runNanoseconds != nil })
    }

    @Test("runNow cuts a long idle delay short")
    func runNowWhileSettling() {
        let deferred = DeferredInitializer(configuration: testConfiguration(idleDelay: .seconds(600)))
        let task = deferred.deferUntilIdle("soon") {}
        deferred.openGate()
        #expect(deferred.phase == .settling)
        let before = lp_now_ns()
        deferred.runNow()
        #expect(lp_now_ns() - before < 30_000_000_000)
        #expect(task.record.outcome == .succeeded)
        #expect(deferred.startReport?.reason == .forced)
    }

    @Test("records carry queued, started and finished times in order")
    func timings() throws {
        let deferred = DeferredInitializer(configuration: testConfiguration())
        let task = deferred.deferUntilIdle("timed") { sleepMilliseconds(20) }
        #expect(task.record.description == "timed [normal]: queued")
        deferred.runNow()
        let record = task.record
        let started = try #require(record.startedNanoseconds)
        let finished = try #require(record.finishedNanoseconds)
        #expect(record.queuedNanoseconds <= started)
        #expect(finished - started >= 20_000_000)
        #expect(record.description.hasPrefix("timed [normal]: succeeded, ran "))
    }
}

// MARK: - Helpers shared with the prewarm tests

/// A manual-gate configuration with no idle check unless asked.
func testConfiguration(
    idleDelay: Duration = .zero, idle: IdlePolicy = .none, limit: Int = 1,
    onError: (@Sendable (DeferredTaskRecord, any Error) -> Void)? = nil
) -> DeferredConfiguration {
    DeferredConfiguration(
        gate: .manual, idleDelay: idleDelay, idle: idle, maximumConcurrentTasks: limit, onError: onError)
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func sleepMilliseconds(_ milliseconds: Int) {
    var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
}

/// Threads that spin on the CPU until stopped.
final class CPUBurners: Sendable {
    private let running = Atomic(true)
    private let finished = ThreadSemaphore()
    private let count: Int

    /// Returns once every burner runs: a thread just created may wait for a
    /// CPU longer than a whole idle window on a loaded machine, and until it
    /// first runs the process is truly idle.
    init(threads: Int) {
        count = threads
        let started = ThreadSemaphore()
        for _ in 0..<threads {
            BackgroundThread.start(name: "test-burner") { [self] in
                started.signal()
                var spin: UInt64 = 0
                while running.load(ordering: .relaxed) { spin = spin &* 31 &+ 1 }
                if spin == 42 { print("") }  // keep the loop
                finished.signal()
            }
        }
        for _ in 0..<threads { started.wait() }
    }

    /// Stops the burners, waits until they have stopped, and returns when
    /// they were told to: they burned at least until then.
    func stop() -> UInt64 {
        let told = lp_now_ns()
        running.store(false, ordering: .relaxed)
        for _ in 0..<count { finished.wait() }
        return told
    }
}
