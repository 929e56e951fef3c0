import CLaunchProfSupport
import Glibc
import Synchronization
import Testing

@testable import LaunchProf
@testable import LaunchProfDeferred

@Suite("Prewarm registry")
struct PrewarmRegistryTests {
    // MARK: - Exactly once

    @Test("a value is made exactly once while 16 threads read it during prewarm (200 rounds)")
    func exactlyOnceUnderRace() throws {
        for round in 0..<200 {
            let registry = PrewarmRegistry(configuration: PrewarmConfiguration(maximumConcurrentItems: 2))
            let calls = Shared([0, 0, 0])
            let base = registry.register("base") {
                calls.withLock { $0[0] += 1 }
                return spin(round)
            }
            let derived = registry.register("derived", dependsOn: ["base"]) {
                calls.withLock { $0[1] += 1 }
                return try base.value &+ 1
            }
            let other = registry.register("other", priority: .high) {
                calls.withLock { $0[2] += 1 }
                return spin(round &+ 7)
            }
            let wrong = Atomic(0)
            runThreads(16) { index in
                if index == 0 { try? registry.prewarm() }
                for _ in 0..<20 {
                    let expected = spin(round)
                    if (try? base.value) != expected { wrong.add(1, ordering: .relaxed) }
                    if (try? derived.value) != expected &+ 1 { wrong.add(1, ordering: .relaxed) }
                    if (try? other.value) != spin(round &+ 7) { wrong.add(1, ordering: .relaxed) }
                }
            }
            #expect(registry.waitUntilFinished(timeout: .seconds(30)))
            let counts = calls.withLock { $0 }
            try #require(counts == [1, 1, 1], "round \(round): make called \(counts) times")
            let wrongReads = wrong.load(ordering: .relaxed)
            try #require(wrongReads == 0, "round \(round): \(wrongReads) reads saw a wrong value")
        }
    }

    @Test("async readers get the value made once, suspending while it is made")
    func asyncReaders() async throws {
        let registry = PrewarmRegistry()
        let calls = Atomic(0)
        let item = registry.register("slow") {
            calls.add(1, ordering: .relaxed)
            sleepMilliseconds(30)
            return 42
        }
        try registry.prewarm()
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await item.value() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: 42, count: 8))
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    // MARK: - First use

    @Test("first use is a hit when ready, a timed wait when in progress, a miss when not started")
    func hitWaitMiss() throws {
        let registry = PrewarmRegistry(configuration: PrewarmConfiguration(maximumConcurrentItems: 2))
        let makingSlow = ThreadSemaphore()
        let releaseSlow = ThreadSemaphore()
        let ready = registry.register("ready") { "warm" }
        let slow = registry.register("slow") {
            makingSlow.signal()
            releaseSlow.wait()
            return "slow"
        }
        try registry.prewarm()
        #expect(makingSlow.wait(timeoutNanoseconds: 30_000_000_000))
        let cold = registry.register("cold") { "cold" }  // registered after prewarm(): not started

        let waiter = Atomic(false)
        BackgroundThread.start(name: "test-release") {
            sleepMilliseconds(100)
            waiter.store(true, ordering: .relaxed)
            releaseSlow.signal()
        }
        #expect(try slow.value == "slow")
        let released = waiter.load(ordering: .relaxed)
        #expect(released, "the read returned before the value was made")
        _ = registry.waitUntilFinished(timeout: .seconds(30))
        #expect(try ready.value == "warm")
        #expect(try cold.value == "cold")

        #expect(ready.report.firstUse == .hit)
        #expect(ready.report.runner == .background)
        guard case .wait(let waited)? = slow.report.firstUse else {
            Issue.record("expected a wait, got \(String(describing: slow.report.firstUse))")
            return
        }
        #expect(waited >= 50_000_000)
        #expect(cold.report.firstUse == .miss)
        #expect(cold.report.runner == .onDemand)

        let summary = registry.summary
        #expect((summary.hits, summary.waits, summary.misses, summary.unused) == (1, 1, 1, 0))
        #expect(summary.hitRate == 1.0 / 3.0)
        #expect(summary.description.hasPrefix("prewarm: 3 items, 1 hits, 1 waits ("))
        #expect(summary.description.hasSuffix("1 misses, 0 unused, hit rate 33%"))
        // Later reads do not change the first use.
        _ = try cold.value
        #expect(registry.summary.misses == 1)
    }

    @Test("every make is an interval and every first use an event in the trace")
    func traced() throws {
        Tracer.enable()
        let registry = PrewarmRegistry()
        let item = registry.register("traced item 5150") { 1 }
        try registry.prewarm()
        #expect(registry.waitUntilFinished(timeout: .seconds(30)))
        _ = try item.value
        _ = try item.value
        let events = TraceRing.global?.snapshot() ?? []
        guard (Tracer.statistics?.lost ?? 0) == 0 else { return }  // a full ring drops events
        let mine = events.filter { Names.text(of: $0.name).hasPrefix("traced item 5150") }
        let kinds = mine.map { ($0.kind, Names.text(of: $0.name)) }
        #expect(kinds.contains { $0 == (UInt8(LP_KIND_BEGIN), "traced item 5150") })
        #expect(kinds.contains { $0 == (UInt8(LP_KIND_END), "traced item 5150") })
        #expect(kinds.filter { $0 == (UInt8(LP_KIND_EVENT), "traced item 5150: hit") }.count == 1)
    }

    // MARK: - Dependencies

    @Test("items are made after their dependencies, whatever their priority", arguments: [1, 3])
    func dependencyOrder(limit: Int) throws {
        let registry = PrewarmRegistry(configuration: PrewarmConfiguration(maximumConcurrentItems: limit))
        let log = Shared<[String]>([])
        func item(_ name: String, _ dependencies: [String], _ priority: BackgroundPriority) -> Prewarmed<String> {
            registry.register(name, dependsOn: dependencies, priority: priority) {
                sleepMilliseconds(5)
                log.withLock { $0.append(name) }
                return name
            }
        }
        // Registered and prioritized against the dependency order on purpose.
        _ = item("index", ["cache", "config"], .high)
        _ = item("cache", ["config"], .normal)
        _ = item("config", [], .low)
        _ = item("fonts", [], .normal)
        try registry.prewarm()
        #expect(registry.waitUntilFinished(timeout: .seconds(30)))
        let order = log.withLock { $0 }
        #expect(Set(order) == ["index", "cache", "config", "fonts"])
        let position = { (name: String) in order.firstIndex(of: name)! }
        #expect(position("config") < position("cache"))
        #expect(position("cache") < position("index"))
        if limit == 1 {
            // Ready items by priority: config (low) is only ready one besides fonts (normal).
            #expect(order == ["fonts", "config", "cache", "index"])
        }
    }

    @Test("reading an item that was never prewarmed makes its dependencies first, on the caller's thread")
    func onDemandForcesDependencies() throws {
        let registry = PrewarmRegistry()
        let log = Shared<[(String, UInt32)]>([])
        let config = registry.register("config") {
            log.withLock { $0.append(("config", lp_thread_id())) }
            return 2
        }
        let cache = registry.register("cache", dependsOn: ["config"]) {
            log.withLock { $0.append(("cache", lp_thread_id())) }
            return 3
        }
        let index = registry.register("index", dependsOn: ["cache", "config"]) {
            log.withLock { $0.append(("index", lp_thread_id())) }
            return try config.value * cache.value
        }
        #expect(try index.value == 6)
        let entries = log.withLock { $0 }
        #expect(entries.map(\.0) == ["config", "cache", "index"])
        #expect(entries.allSatisfy { $0.1 == lp_thread_id() })
        #expect(index.report.firstUse == .miss)
        #expect(cache.report.runner == .onDemand)
        // `cache` was never read by anyone but `index`'s make.
        #expect(cache.report.firstUse == .hit)
    }

    @Test("a cycle is an error naming it, at prewarm() and at the first read, and nothing is made")
    func cycleIsNamed() throws {
        let registry = PrewarmRegistry()
        let made = Atomic(0)
        _ = registry.register("fonts") { made.add(1, ordering: .relaxed) }
        let config = registry.register("config", dependsOn: ["cache"]) { made.add(1, ordering: .relaxed) }
        _ = registry.register("cache", dependsOn: ["config"]) { made.add(1, ordering: .relaxed) }
        let expected = PrewarmError.cycle(["config", "cache", "config"])
        #expect(throws: expected) { try registry.prewarm() }
        #expect(throws: expected) { try config.value }
        #expect(expected.description == "prewarm cycle: config -> cache -> config; remove one of these dependencies")
        #expect(made.load(ordering: .relaxed) == 0)
    }

    @Test("a longer cycle is reported from where it closes")
    func longerCycle() {
        let registry = PrewarmRegistry()
        _ = registry.register("a", dependsOn: ["b"]) {}
        _ = registry.register("b", dependsOn: ["c"]) {}
        _ = registry.register("c", dependsOn: ["d"]) {}
        _ = registry.register("d", dependsOn: ["b"]) {}
        #expect(throws: PrewarmError.cycle(["b", "c", "d", "b"])) { try registry.prewarm() }
    }

    @Test("unknown dependencies and duplicate names are errors naming them")
    func badRegistrations() {
        let unknown = PrewarmRegistry()
        _ = unknown.register("cache", dependsOn: ["confg"]) {}
        #expect(throws: PrewarmError.unknownDependency(item: "cache", dependency: "confg")) { try unknown.prewarm() }
        #expect(
            PrewarmError.unknownDependency(item: "cache", dependency: "confg").description
                == "prewarm item 'cache' depends on 'confg', which is not registered; register it or fix the name")

        let duplicate = PrewarmRegistry()
        _ = duplicate.register("cache") { 1 }
        _ = duplicate.register("cache") { 2 }
        #expect(throws: PrewarmError.duplicateName("cache")) { try duplicate.prewarm() }
    }

    // MARK: - Errors, budgets, limits

    @Test("an error thrown by make is kept and rethrown to every reader, never remade")
    func errorsAreStored() throws {
        let registry = PrewarmRegistry()
        let calls = Atomic(0)
        let broken = registry.register("broken") { () throws -> Int in
            calls.add(1, ordering: .relaxed)
            throw TestFailure("bad config line 3")
        }
        try registry.prewarm()
        #expect(registry.waitUntilFinished(timeout: .seconds(30)))
        let failures = Atomic(0)
        runThreads(4) { _ in
            do { _ = try broken.value } catch let error as TestFailure where error.description == "bad config line 3" {
                failures.add(1, ordering: .relaxed)
            } catch {}
        }
        #expect(failures.load(ordering: .relaxed) == 4)
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(broken.report.failure == "bad config line 3")
    }

    @Test("an item slower than its budget is reported; one within it is not")
    func budgets() throws {
        let reported = Shared<[String]>([])
        let registry = PrewarmRegistry(
            configuration: PrewarmConfiguration(onOverBudget: { report in
                reported.withLock { $0.append(report.name) }
            }))
        let slow = registry.register("slow", budget: .milliseconds(1)) { sleepMilliseconds(20) }
        let fast = registry.register("fast", budget: .seconds(60)) {}
        let unbudgeted = registry.register("unbudgeted") { sleepMilliseconds(5) }
        try registry.prewarm()
        #expect(registry.waitUntilFinished(timeout: .seconds(30)))
        #expect(slow.report.isOverBudget)
        #expect(try #require(slow.report.makeNanoseconds) >= 20_000_000)
        #expect(!fast.report.isOverBudget)
        #expect(!unbudgeted.report.isOverBudget)
        #expect(reported.withLock { $0 } == ["slow"])
        #expect(registry.summary.overBudget.map(\.name) == ["slow"])
        #expect(registry.summary.unused == 3)
        #expect(registry.summary.hitRate == nil)
    }

    @Test("the background concurrency limit is never exceeded", arguments: [1, 2])
    func concurrencyLimit(limit: Int) throws {
        let registry = PrewarmRegistry(configuration: PrewarmConfiguration(maximumConcurrentItems: limit))
        let running = Atomic(0)
        let peak = Atomic(0)
        for index in 0..<8 {
            _ = registry.register("item \(index)") {
                peak.max(running.add(1, ordering: .sequentiallyConsistent).newValue, ordering: .sequentiallyConsistent)
                sleepMilliseconds(10)
                running.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
        try registry.prewarm()
        #expect(registry.waitUntilFinished(timeout: .seconds(30)))
        #expect(peak.load(ordering: .sequentiallyConsistent) <= limit)
        #expect(registry.items.allSatisfy { $0.runner == .background && $0.makeNanoseconds != nil })
    }
}

/// A few microseconds of deterministic work, so racing readers overlap make.
private func spin(_ seed: Int) -> Int {
    var value = UInt64(truncatingIfNeeded: seed) | 1
    for _ in 0..<2_000 { value = value &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
    return Int(truncatingIfNeeded: value >> 1)
}
