import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `launchprof run` as a user runs it: the real binary, real targets, its
/// output, exports and exit status.
@Suite("launchprof run")
struct RunCommandTests {
    @Test("/bin/true: table on stdout, JSON export with every run, exit 0")
    func binTrue() throws {
        let json = Products.temporaryPath("true.json")
        defer { unlink(json) }
        let result = try launchprof(["run", "-r", "5", "-w", "1", "--export-json", json, "/bin/true"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("/bin/true"))
        let document = try JSONDecoder().decode(ResultsDocument.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(document.version == ResultsDocument.currentVersion)
        #expect(document.results.count == 1)
        #expect(document.results[0].runs.count == 5)
        #expect(document.results[0].runs.allSatisfy { $0.exit == .exited(0) && ($0.wallToExit ?? 0) > 0 })
        #expect(document.results[0].summaries["wall_to_ready"]?.count == 5)
    }

    @Test("two quoted commands, named, with a reference and a Markdown export")
    func twoCommands() throws {
        let markdown = Products.temporaryPath("two.md")
        defer { unlink(markdown) }
        let result = try launchprof([
            "run", "-r", "3", "-w", "0", "-n", "nothing", "-n", "echo", "--reference", "nothing",
            "--export-markdown", markdown, "/bin/true", "/bin/echo 'a b'",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("nothing") && result.standardOutput.contains("echo"))
        let text = try String(contentsOfFile: markdown, encoding: .utf8)
        #expect(text.contains("nothing") && text.contains("echo"))
    }

    @Test("the sample app to tracer ready, argv after '--', milestones in the table")
    func sampleApp() throws {
        let app = try Products.path("lp-sample-app")
        let result = try launchprof(["run", "-r", "3", "-w", "1", "--ready", "tracer", "--", app, "--words", "2000"])
        #expect(result.status == 0, "\(result.standardError)")
        for milestone in ["config loaded", "index ready", "workers warm"] {
            #expect(result.standardOutput.contains(milestone))
        }
    }

    @Test("the sample server to notify ready, stopped after each run, nothing left behind")
    func sampleServer() throws {
        let server = try Products.path("lp-sample-server")
        let json = Products.temporaryPath("server.json")
        defer { unlink(json) }
        let result = try launchprof([
            "run", "-r", "3", "-w", "0", "--ready", "notify", "--export-json", json, "--", server, "--port", "0",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let document = try JSONDecoder().decode(ResultsDocument.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        let runs = document.results[0].runs
        #expect(runs.allSatisfy { $0.exit == .stoppedByHarness(signal: SIGTERM) && $0.wallToReady != nil })
        #expect(runs.allSatisfy { $0.milestones.map(\.name) == ["routes loaded", "listening"] })
    }

    @Test("--output-dir keeps each run's output in its own file")
    func outputDirectory() throws {
        let directory = Products.temporaryPath("outputs")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try launchprof(["run", "-r", "2", "-w", "1", "-n", "hello", "--output-dir", directory, "/bin/echo hi"])
        #expect(result.status == 0, "\(result.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(files == ["hello-warm-run-1.log", "hello-warm-run-2.log", "hello-warm-warmup-1.log"])
        #expect(try String(contentsOfFile: "\(directory)/hello-warm-run-2.log", encoding: .utf8) == "hi\n")
    }

    @Test("adaptive stopping stays within --min-runs and --max-runs")
    func adaptiveRuns() throws {
        let json = Products.temporaryPath("adaptive.json")
        defer { unlink(json) }
        let result = try launchprof(["run", "-w", "0", "-m", "3", "-M", "5", "--min-time", "0", "--export-json", json, "/bin/true"])
        #expect(result.status == 0, "\(result.standardError)")
        let document = try JSONDecoder().decode(ResultsDocument.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect((3...5).contains(document.results[0].runs.count))
    }

    @Test("a crash exits 3 with a message naming the target and the run")
    func crash() throws {
        let result = try launchprof(["run", "-r", "2", "-w", "0", "-n", "crasher", "--shell", "kill -SEGV $$"])
        #expect(result.status == 3)
        #expect(result.standardError.contains("target 'crasher' (warm), run 1: crashed: killed by signal 11 (SIGSEGV)"))
    }

    @Test("a hang is killed at the timeout, exit 3")
    func timeout() throws {
        let result = try launchprof(["run", "-r", "1", "-w", "0", "--timeout", "0.5", "--", "/bin/sleep", "30"])
        #expect(result.status == 3)
        #expect(result.standardError.contains("run 1: timed out"))
    }

    @Test("a missing or non-executable program exits 3 naming it")
    func missingProgram() throws {
        let missing = try launchprof(["run", "-r", "1", "launchprof-no-such-program --flag"])
        #expect(missing.status == 3)
        #expect(missing.standardError.contains("program 'launchprof-no-such-program' not found in PATH"))
        // Executable bits on a text file without #!: the kernel refuses it.
        let text = Products.temporaryPath("not-a-program")
        defer { unlink(text) }
        try ExecutableFile.write("just text\n", to: text)
        let notExecutable = try launchprof(["run", "-r", "1", "-n", "text", "--", text])
        #expect(notExecutable.status == 3)
        #expect(notExecutable.standardError.contains("'\(text)' is not executable: the kernel cannot run it"))
        chmod(text, 0o644)
        let noPermission = try launchprof(["run", "-r", "1", "--", text])
        #expect(noPermission.status == 3)
        #expect(noPermission.standardError.contains("'\(text)' is not executable: no execute permission"))
    }

    @Test(
        "bad usage exits 2 with a message",
        arguments: [
            (["run", "--bogus", "/bin/true"], "Unknown option '--bogus'"),
            (["run", "--ready", "soon", "/bin/true"], "unknown ready probe 'soon'"),
            (["run", "--ready", "port:0", "/bin/true"], "is not a TCP port"),
            (["run", "'unterminated"], "unterminated ' quote"),
            (["run", "-r", "0", "/bin/true"], "--runs must be from 1 to 1000000, got '0'"),
            (["run", "--reference", "x", "/bin/true"], "--reference 'x' names no target"),
            (["run"], "no command to run"),
            (["run", "--mode", "cold", "--evict", "/nonexistent/x", "/bin/true"], "--evict '/nonexistent/x' does not exist"),
            (["run", "--evict", "/tmp", "/bin/true"], "add --mode cold"),
            (["run", "-m", "5", "-M", "2", "/bin/true"], "--min-runs (5) is more than --max-runs (2)"),
            (["run", "/bin/true", "--", "/bin/true"], "not both"),
            // Numbers that trapped in Int64(_:) before one validated parser took them.
            (["run", "-r", "1", "--timeout", "inf", "/bin/true"], "--timeout must be a finite number of seconds, got 'inf'"),
            (["run", "-r", "1", "--timeout", "nan", "/bin/true"], "--timeout is not a number, got 'nan'"),
            (["run", "-r", "1", "--timeout", "1e300", "/bin/true"], "--timeout must be at most 1000000 seconds, got '1e+300'"),
            (["run", "-r", "1", "--timeout=-5", "/bin/true"], "--timeout must be a positive number of seconds, got '-5'"),
            (["run", "-r", "1", "--grace", "1e19", "/bin/true"], "--grace must be at most 1000000 seconds, got '1e+19'"),
            (["run", "-r", "1", "--grace=-1", "/bin/true"], "--grace cannot be negative, got '-1'"),
            (["run", "--min-time", "inf", "/bin/true"], "--min-time must be a finite number of seconds, got 'inf'"),
            (["run", "-r", "9223372036854775807", "/bin/true"], "--runs must be from 1 to 1000000, got '9223372036854775807'"),
            (["run", "-r", "1", "--warmup=-3", "/bin/true"], "--warmup must be from 0 to 1000000, got '-3'"),
            (["run", "-M", "99999999", "/bin/true"], "--max-runs must be from 1 to 1000000, got '99999999'"),
            (["run", "-r", "1", "--profile", "--profile-hz", "0", "/bin/true"], "--profile-hz must be from 1 to 100000, got '0'"),
            (["run", "-r", "1", "--profile", "--profile-runs", "5000", "/bin/true"], "--profile-runs must be from 1 to 1000, got '5000'"),
            (["profile", "--timeout", "inf", "/bin/true"], "--timeout must be a finite number of seconds, got 'inf'"),
            (["profile", "--grace", "1e300", "/bin/true"], "--grace must be at most 1000000 seconds"),
            (["record", "--timeout", "1e10", "/bin/true"], "--timeout must be at most 1000000 seconds, got '10000000000'"),
        ])
    func badUsage(_ arguments: [String], _ message: String) throws {
        let result = try launchprof(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    /// Cold runs resolve the program's libraries from its ELF headers: a
    /// damaged header (e_phoff near 2^64) trapped in ELFImage's offset
    /// arithmetic; now the run fails with a message naming the file.
    @Test func coldRunOfAProgramWithADamagedELFHeaderNamesTheFile() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/bin/true")))
        for index in 0..<8 { bytes[0x20 + index] = index == 0 ? 0xF0 : 0xFF }
        let program = Products.temporaryPath("damaged-elf")
        try ExecutableFile.write("", to: program)
        try Data(bytes).write(to: URL(fileURLWithPath: program))
        defer { unlink(program) }
        let result = try launchprof(["run", "-r", "1", "-w", "0", "--mode", "cold", program])
        #expect(result.status == 3, "\(result.standardError)")
        // The message names the canonical path (the temporary directory may
        // end in '/').
        let name = (program as NSString).lastPathComponent
        #expect(result.standardOutput.contains("\(name)': damaged ELF: the program header table"), "\(result.standardOutput)")
    }

    @Test(
        "SIGINT (or SIGTERM) mid-benchmark: the child is killed, the JSON export still written, exit 130",
        arguments: [SIGINT, SIGTERM])
    func interrupt(_ signal: Int32) throws {
        let marker = "30.\(UInt32.random(in: 100_000...999_999))"
        let json = Products.temporaryPath("interrupted.json")
        defer { unlink(json) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Products.path("launchprof"))
        process.arguments = ["run", "-r", "5", "-w", "0", "--export-json", json, "/bin/true", "/bin/sleep \(marker)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the sleep (the second target's first run) is running.
        let deadline = Date().addingTimeInterval(30)
        while processes(withArgument: marker).isEmpty, Date() < deadline { usleep(20_000) }
        #expect(!processes(withArgument: marker).isEmpty)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(processes(withArgument: marker).isEmpty)
        let document = try JSONDecoder().decode(ResultsDocument.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(document.results.first?.runs.count == 1)
        #expect(document.results.last?.runs.isEmpty == true)
        #expect(document.results.allSatisfy { $0.warnings.contains { $0.message.contains("interrupted") } })
    }

    @Test("SIGINT while profiling: the profiled child is killed, the measured results are still written, exit 130")
    func interruptWhileProfiling() throws {
        let marker = "0.2\(UInt32.random(in: 100_000...999_999))"
        let directory = Products.temporaryPath("interrupted-profile")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Products.path("launchprof"))
        process.arguments = [
            "run", "-r", "2", "-w", "0", "--profile", "--profile-runs", "100", "--profile-dir", directory,
            "--export-json", "\(directory)/results.json", "--report", "\(directory)/report.html", "/bin/sleep \(marker)",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait for a profiled launch: the sleep whose trace goes to the
        // profile directory (the kernel samples it: no variable of the
        // sampler's).
        let deadline = Date().addingTimeInterval(60)
        var profiled: [pid_t] = []
        while profiled.isEmpty, Date() < deadline {
            profiled = processes(withArgument: marker).filter { pid in
                let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
                return String(decoding: environment, as: UTF8.self).contains("LAUNCHPROF_TRACE=\(directory)")
            }
            usleep(10_000)
        }
        try #require(!profiled.isEmpty, "no profiled launch of the sleep within 60 s")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(processes(withArgument: marker).isEmpty)
        let document = try ResultsDocument.load(from: "\(directory)/results.json")
        #expect(document.results.first?.runs.count == 2)
        #expect(document.profiles == nil, "no target was profiled to the end")
        #expect(FileManager.default.fileExists(atPath: "\(directory)/report.html"))
    }

    /// Runs in the temporary directory: the package root has a launchprof.yml
    /// that `run` without a command would read.

    /// Live processes with `argument` in their command line.
    private func processes(withArgument argument: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                data.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == argument })
            else { return nil }
            let stat = (try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8)) ?? ""
            return stat.contains(") Z ") ? nil : pid
        }
    }
}
