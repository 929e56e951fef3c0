import Foundation
import LaunchBenchmark
import LaunchEngine
import LaunchProfTestSupport
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

    @Test("one spawner runs a pinned launch on its CPU, the next unpinned one on all, and refuses a set it cannot use")
    func pinnedSpawns() throws {
        let scratch = try ScratchDirectory()
        let all = try CPUAffinity.current()
        let cpu = try #require(all.cpus.first)
        let spawner = Spawner()
        func allowed(_ affinity: CPUAffinity?, _ name: String) throws -> String {
            var request = RunRequest(
                target: LaunchTarget(name: name, arguments: ["/bin/sh", "-c", "grep Cpus_allowed_list /proc/self/status"]),
                output: .file(scratch.file(name)))
            request.affinity = affinity
            let run = try spawner.run(request)
            #expect(run.exit == .exited(0), "\(run.failure ?? "")")
            return try scratch.read(name).split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        }
        #expect(try allowed(CPUAffinity(cpus: [cpu]), "pinned") == "\(cpu)")
        #expect(try allowed(nil, "unpinned") == all.description)
        #expect(try allowed(CPUAffinity(cpus: [cpu]), "pinned-again") == "\(cpu)")
        // No CPU this process may use: the spawner refuses, naming why.
        var impossible = RunRequest(target: LaunchTarget(name: "true", arguments: ["/bin/true"]))
        impossible.affinity = CPUAffinity(cpus: [CPUAffinity.capacity - 1])
        let refusal: String
        do {
            let run = try spawner.run(impossible)
            refusal = run.failure ?? "ran: \(run.exit)"
        } catch {
            refusal = "\(error)"
        }
        #expect(refusal.contains("cannot run on the CPUs asked for"), "\(refusal)")
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
