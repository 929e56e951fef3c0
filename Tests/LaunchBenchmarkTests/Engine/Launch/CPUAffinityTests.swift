import Foundation
import LaunchBenchmark
import Testing

/// `--affinity`'s CPU lists, and pinning a thread and giving it its set back.
@Suite("CPU affinity")
struct CPUAffinityTests {
    @Test("CPU lists parse as pyperf's --affinity does, and print back compactly")
    func parsing() throws {
        #expect(try CPUAffinity(parsing: "0-2,5").cpus == [0, 1, 2, 5])
        #expect(try CPUAffinity(parsing: "3,1,1").cpus == [1, 3])
        #expect(try CPUAffinity(parsing: "5,0-2").description == "0-2,5")
        for bad in ["", "a", "3-1", "1,,2", "-1", "0-", "99999"] {
            #expect(throws: CPUAffinityError.self, "\(bad)") { try CPUAffinity(parsing: bad) }
        }
        #expect(CPUAffinityError.malformed("3-1", item: "3-1").description.contains("'3-1'"))
    }

    @Test("a thread pinned to one of its CPUs runs only there, and gets its whole set back")
    func pinAndRestore() throws {
        // A thread of its own, so no other test's thread is pinned.
        let outcome = Thread.detachAndWait {
            do {
                let original = try CPUAffinity.current()
                guard let last = original.cpus.last else { return "no CPU" }
                try CPUAffinity(cpus: [last]).apply()
                let pinned = try CPUAffinity.current()
                try original.restore()
                let restored = try CPUAffinity.current()
                return pinned.cpus == [last] && restored == original ? "ok" : "pinned \(pinned), restored \(restored)"
            } catch {
                return "\(error)"
            }
        }
        #expect(outcome == "ok")
        #expect(throws: CPUAffinityError.self) { try CPUAffinity(cpus: [CPUAffinity.capacity - 1]).apply() }
    }
}

extension Thread {
    /// Runs `body` on a new thread and waits for its result.
    fileprivate static func detachAndWait(_ body: @escaping @Sendable () -> String) -> String {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result = ""
        let thread = Thread {
            result = body()
            done.signal()
        }
        thread.start()
        done.wait()
        return result
    }
}
