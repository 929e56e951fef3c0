import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// A C program whose launch does `LP_SPIN` rounds of CPU work (argument 1,
/// else the variable), so a slowdown is injected without a second binary.
let spinProgram = """
    #include <stdlib.h>
    #include <stdio.h>
    int main(int argc, char **argv) {
        const char *text = argc > 1 ? argv[1] : getenv("LP_SPIN");
        long rounds = text ? atol(text) : 0;
        volatile unsigned long sum = 0;
        for (long i = 0; i < rounds; i++) sum += (unsigned long)i * 2654435761u;
        return sum == 42 ? 1 : 0;
    }
    """

/// `launchprof gate --base-command … -- …` on real programs. Serialized:
/// two gates at once would load each other's sides.
@Suite("launchprof gate, two programs", .serialized)
struct SideBySideGateTests {
    @Test(
        "the same program against itself is unchanged, exits 0, says where each run ran, and by default (--affinity auto) where its pilot pinned it"
    )
    func unchanged() throws {
        let scratch = try ScratchDirectory()
        let spin = try scratch.compile("spin", spinProgram, flags: ["-O1"])
        let run = try launchprof([
            "gate", "--base-command", "\(spin) 200000", "--threshold", "10%", "--max-time", "120",
            "--export-json", scratch.file("gate.json"), "--", spin, "200000",
        ])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("unchanged: head"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("noise floor, base against itself"))
        let document = try JSONDecoder().decode(GateDocument.self, from: Data(contentsOf: URL(fileURLWithPath: scratch.file("gate.json"))))
        #expect(document.verdict == .unchanged)
        #expect(document.exitStatus == 0)
        #expect(!document.looks.isEmpty)
        // The spawner read each run's CPU (/proc/PID/stat field 39).
        #expect(document.runs.filter { $0.cpu != nil }.count == document.runs.count)
        #expect(document.baseRuns.count >= 20 && document.headRuns.count >= 20)

        // The pilot: unpinned, then up to three CPUs, each side run 12
        // times in each; the gate ran where it chose, and its time counts
        // the pilot's. One CPU: nothing to try.
        #expect(run.standardOutput.contains("affinity auto: "), "\(run.standardOutput)")
        let choice = try #require(document.affinityChoice)
        let cpus = try CPUAffinity.current().cpus
        guard cpus.count > 1 else { return #expect(choice.trials.isEmpty && choice.runs == 0) }
        #expect(choice.trials.first.map { $0.cpus == nil } == true)
        #expect(choice.trials.count == Swift.min(cpus.count, 3) + 1)
        #expect(choice.trials.allSatisfy { $0.runs == 12 && $0.baseMedian > 0 && $0.headMedian > 0 }, "\(choice.trials)")
        #expect(choice.runs == 24 * choice.trials.count)
        #expect(document.affinity == choice.chosen)
        if let chosen = choice.chosen {
            #expect(document.runs.allSatisfy { $0.cpu.map(String.init) == chosen }, "\(Set(document.runs.map(\.cpu)))")
        }
        #expect(document.elapsed >= choice.elapsed && choice.elapsed > 0)
    }

    @Test("a head with three times the CPU work is regressed, exits 1, and writes JUnit and Markdown")
    func regressed() throws {
        let scratch = try ScratchDirectory()
        let spin = try scratch.compile("spin", spinProgram, flags: ["-O1"])
        let run = try launchprof([
            "gate", "--base-command", spin, "--env", "LP_SPIN=1000000", "--threshold", "5", "--max-time", "120",
            "--export-junit", scratch.file("gate.xml"), "--export-markdown", scratch.file("gate.md"), "--",
            "/bin/sh", "-c", "LP_SPIN=3000000 exec \(spin)",
        ])
        #expect(run.status == 1, "\(run.standardOutput)\(run.standardError)")
        // Either centre may decide: "regressed: head +…" (the median-type
        // interval) or "regressed: the pairs' trimmed mean +…" (the guard,
        // when a busy machine makes the pairs' median lag; docs/gate.md).
        let summary = run.standardOutput.prefix { $0 != "\n" }
        #expect(
            summary.hasPrefix("regressed: head +") || summary.hasPrefix("regressed: the pairs' trimmed mean +"), "\(run.standardOutput)")
        #expect(summary.contains("lies above +5.0%"), "\(run.standardOutput)")
        #expect(try scratch.read("gate.xml").contains("<failure message=\"regressed"))
        #expect(try scratch.read("gate.md").contains("## launchprof gate: regressed"))
    }

    @Test("a budget too small to decide is inconclusive (exit 4) and says that no change could be resolved")
    func inconclusive() throws {
        // Inconclusive by construction, not by chance: the same program at
        // 20 pairs against a 0.1% threshold may be called regressed or
        // improved in up to 5% of sessions (the rule's α; it happened once
        // in CI's full suite, +8.2% [+1.3%, +16%] on a busy machine).
        // Launches of at least 0.2 s fit at most 4 pairs in 1.5 s (pinned,
        // every run pairs), and no interval of 6 or fewer pairs reaches 95%:
        // the rule may not decide, however the runs fall.
        let cpu = try #require(try CPUAffinity.current().cpus.last)
        let run = try launchprof([
            "gate", "--base-command", "/bin/sleep 0.2", "--threshold", "0.1%", "--max-time", "1.5", "--affinity", "\(cpu)",
            "--", "/bin/sleep", "0.2",
        ])
        #expect(run.status == 4, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("inconclusive"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("pairs cannot give a 95.0% interval, so no change could be resolved"))
    }

    @Test("a head that fails to launch exits 3 and names the run; bad usage exits 2")
    func failures() throws {
        let scratch = try ScratchDirectory()
        let spin = try scratch.compile("spin", spinProgram, flags: ["-O1"])
        let failing = try launchprof(["gate", "--base-command", spin, "--", "/bin/false"])
        #expect(failing.status == 3, "\(failing.standardOutput)\(failing.standardError)")
        #expect(failing.standardOutput.contains("head"))
        #expect(failing.standardOutput.contains("exited with status 1"))
        let usage = try launchprof(["gate", "--", spin])
        #expect(usage.status == 2)
        #expect(usage.standardError.contains("--base-command"))
        let threshold = try launchprof(["gate", "--base-command", spin, "--threshold", "150", "--", spin])
        #expect(threshold.status == 2)
    }

    @Test("--activate starts both sides socket-activated; --affinity pins every run to the CPU named")
    func activatedAndPinned() throws {
        let server = try SamplerPrograms.compile(ActivationTests.activatedServer, name: "gate-activated-server", optimization: "-O2")
        defer { unlink(server) }
        let scratch = try ScratchDirectory()
        let cpu = try #require(try CPUAffinity.current().cpus.last)
        let run = try launchprof([
            "gate", "--activate", "tcp:0", "--http-get", "/health", "--affinity", "\(cpu)", "--threshold", "10",
            "--max-time", "120", "--export-json", scratch.file("gate.json"), "--base-command", server, "--", server,
        ])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("unchanged: head"), "\(run.standardOutput)")
        let document = try JSONDecoder().decode(GateDocument.self, from: Data(contentsOf: URL(fileURLWithPath: scratch.file("gate.json"))))
        // Ready is the whole response, after the server's 20 ms of start-up work.
        #expect(document.baseRuns.allSatisfy { ($0.wallToReady ?? 0) >= 20_000_000 && $0.firstResponseByte != nil })
        #expect(document.runs.allSatisfy { $0.cpu == cpu }, "\(Set(document.runs.map(\.cpu)))")
        #expect(document.unpaired == 0)
    }

    @Test("--affinity none runs no pilot and leaves the programs where the scheduler puts them")
    func unpinned() throws {
        let scratch = try ScratchDirectory()
        let run = try launchprof([
            "gate", "--affinity", "none", "--base-command", "/bin/true", "--threshold", "10%", "--max-time", "5",
            "--export-json", scratch.file("none.json"), "--", "/bin/true",
        ])
        #expect([0, 4].contains(run.status), "\(run.standardOutput)\(run.standardError)")
        #expect(!run.standardOutput.contains("affinity auto"), "\(run.standardOutput)")
        let document = try JSONDecoder().decode(GateDocument.self, from: Data(contentsOf: URL(fileURLWithPath: scratch.file("none.json"))))
        #expect(document.affinityChoice == nil && document.affinity == nil)
    }

    @Test("bad --affinity and --activate with another ready probe are bad usage (2), before any run")
    func badPinningAndActivation() throws {
        let malformed = try launchprof(["gate", "--affinity", "0-x", "--base-command", "/bin/true", "--", "/bin/true"])
        #expect(malformed.status == 2)
        #expect(malformed.standardError.contains("'0-x'"), "\(malformed.standardError)")
        let misspelt = try launchprof(["gate", "--affinity", "automatic", "--base-command", "/bin/true", "--", "/bin/true"])
        #expect(misspelt.status == 2)
        #expect(misspelt.standardError.contains("'automatic'"), "\(misspelt.standardError)")
        let unavailable = try launchprof(["gate", "--affinity", "1000", "--base-command", "/bin/true", "--", "/bin/true"])
        #expect(unavailable.status == 2)
        #expect(unavailable.standardError.contains("not all available"), "\(unavailable.standardError)")
        let ready = try launchprof([
            "gate", "--activate", "tcp:0", "--ready", "exit", "--base-command", "/bin/true", "--", "/bin/true",
        ])
        #expect(ready.status == 2, "\(ready.standardError)")
        #expect(ready.standardError.contains("--activate"))
    }
}
