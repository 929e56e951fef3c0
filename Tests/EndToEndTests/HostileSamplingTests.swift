import Foundation
import Glibc
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// Hostile world III, kernel sampling (issue 37, items 12–16): the sample
/// file in a hostile place, a disk that fills while samples are written,
/// launchprof killed mid-profile, a tree too deep for a bounded walk, and a
/// program that fails. Real processes and files throughout.
@Suite(.serialized)
struct HostileSamplingTests {
    static var allowed: Bool { SamplingMethod.kernelUnavailableReason() == nil }

    /// About `milliseconds` of CPU in `burn_hot_function`, then `tail`.
    static func burner(milliseconds: Int, tail: String = "return 0;") -> String {
        """
        #include <signal.h>
        #include <stdio.h>
        #include <time.h>
        #include <unistd.h>
        __attribute__((noinline)) double burn_hot_function(long ms) {
            struct timespec start, now; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start); double x = 0;
            do { for (int i = 0; i < 100000; i++) x += (double)i * 1e-9; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now); }
            while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
            return x;
        }
        int main(void) { printf("%f\\n", burn_hot_function(\(milliseconds))); fflush(stdout); \(tail) }
        """
    }

    /// `launchprof profile --quiet --output-dir DIRECTORY --name NAME OPTIONS -- COMMAND`.
    static func profile(
        _ command: [String], in directory: String, name: String, options: [String] = [], prefix: [String] = []
    ) throws -> CommandRun {
        let launchprof = try Products.path("launchprof")
        let arguments =
            ["profile", "--quiet", "--runs", "1", "--hz", "1000", "--output-dir", directory, "--name", name] + options + ["--"] + command
        if prefix.isEmpty { return try CommandRun.run(launchprof, arguments, timeout: 120) }
        return try CommandRun.run(prefix[0], Array(prefix.dropFirst()) + [launchprof] + arguments, timeout: 120)
    }

    // MARK: - 12. A FIFO where the sample file would be

    /// The sink a library caller names is opened without blocking and
    /// without following links, then checked: a FIFO (no reader: an open
    /// for writing would block forever), a symbolic link or a directory is
    /// refused at once, named, and left as it was.
    @Test func sinkPathThatIsNotARegularFileIsRefusedAtOnce() throws {
        let scratch = try ScratchDirectory()
        let fifo = scratch.file("sink.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        #expect(throws: SampleSinkError.notRegular(path: fifo, kind: "a FIFO")) { try SampleSink.file(at: fifo) }
        #expect(Date().timeIntervalSince(started) < 5)
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO is left as it was")

        let target = scratch.file("elsewhere")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
        let link = scratch.file("sink.link")
        try #require(symlink(target, link) == 0)
        #expect(throws: SampleSinkError.notRegular(path: link, kind: "a symbolic link")) { try SampleSink.file(at: link) }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep", "the link's target is untouched")
        #expect(throws: SampleSinkError.notRegular(path: scratch.path, kind: "a directory")) {
            try SampleSink.file(at: scratch.path)
        }

        let regular = scratch.file("sink")
        try Data(repeating: 1, count: 100).write(to: URL(fileURLWithPath: regular))
        let sink = try SampleSink.file(at: regular)
        #expect(sink.name.contains(regular))
        #expect((try FileManager.default.attributesOfItem(atPath: regular)[.size] as? Int) == 0, "emptied")
        #expect(SampleSinkError.notRegular(path: fifo, kind: "a FIFO").description.contains("'\(fifo)' is a FIFO"))
    }

    /// `profile` itself writes its samples to a file with no name, so a FIFO
    /// at the path it once used (`NAME.lptrace.samples`) is never opened:
    /// the profile is made and the FIFO is left alone.
    @Test(.enabled(if: allowed, "perf events are not allowed here"))
    func profileIgnoresAFIFOAtTheOldSamplePath() throws {
        let scratch = try ScratchDirectory()
        let program = try scratch.compile("hot", Self.burner(milliseconds: 100))
        let output = scratch.file("out")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let fifo = "\(output)/hot.lptrace.samples"
        try #require(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        let run = try Self.profile([program], in: output, name: "hot")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(Date().timeIntervalSince(started) < 60)
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        #expect(FileManager.default.fileExists(atPath: "\(output)/hot.lptrace"))
    }

    // MARK: - 13. A disk that fills while samples are written

    /// A file-size limit of 4 MiB (`prlimit --fsize`, which the spawner
    /// inherits) cuts the sample file after about 250 samples of 16 KiB
    /// stacks, of about 1,000: the spawner does not die of SIGXFSZ, the file
    /// ends at its last whole record, the header's ending counts what was
    /// not written, and `profile` says so (and the trace counts them lost).
    @Test(.enabled(if: allowed, "perf events are not allowed here"))
    func fullSampleFileIsCountedAndSaid() throws {
        let scratch = try ScratchDirectory(in: "/var/tmp")
        let program = try scratch.compile("hot", Self.burner(milliseconds: 1000))
        let run = try Self.profile(
            [program], in: scratch.path, name: "hot", prefix: ["/usr/bin/prlimit", "--fsize=\(4 << 20)", "--"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("the sample file could not be written (File too large)"), "\(run.standardError)")
        let said = try #require(
            run.standardError.split(separator: "\n").first { $0.contains("samples were lost") }, "\(run.standardError)")
        let trace = try TraceReader.read(path: scratch.file("hot.lptrace"))
        let sampling = try #require(trace.sampling)
        #expect(sampling.lost > 100, "\(said)")
        #expect(sampling.samples.count > 50, "the samples written before the limit are kept")
        #expect(run.standardError.contains("\(sampling.lost) samples lost"), "the summary counts them: \(run.standardError)")
    }

    // MARK: - 14. launchprof killed mid-profile

    /// SIGKILL of launchprof while the program runs: the spawner sees its
    /// socket close and kills the program; the sample file had no name, so
    /// nothing of it is left. The private directory the program's trace is
    /// staged in cannot be removed by a killed process: the next profile of
    /// the same name removes it, and then nothing is left but that
    /// profile's own files.
    @Test(.enabled(if: allowed, "perf events are not allowed here"))
    func killedProfileLeavesNothingBehind() throws {
        let scratch = try ScratchDirectory()
        let marker = scratch.file("started")
        let program = try scratch.compile(
            "spin",
            Self.burner(milliseconds: 60_000).replacingOccurrences(
                of: "int main(void) {",
                with: "int main(void) { FILE *m = fopen(\"\(marker)\", \"w\"); fprintf(m, \"%d\\n\", getpid()); fclose(m);"))
        let output = scratch.file("out")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Products.path("launchprof"))
        process.arguments = ["profile", "--quiet", "--runs", "1", "--hz", "1000", "--output-dir", output, "--name", "spin", "--", program]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Until the program runs and has been sampled a while (a busy
        // machine may take seconds to start it).
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: marker) && Date() < deadline { usleep(20_000) }
        let pid = try #require(
            (try? String(contentsOfFile: marker, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) },
            "the program never started")
        usleep(300_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // The spawner kills the tree once it sees launchprof gone.
        let gone = Date().addingTimeInterval(30)
        while kill(pid, 0) == 0 && Date() < gone { usleep(20_000) }
        #expect(kill(pid, 0) != 0, "the program was killed with launchprof")
        let stranded = try FileManager.default.contentsOfDirectory(atPath: output)
        #expect(stranded.allSatisfy { $0.hasPrefix("spin.lptrace.recording-") }, "only the staging directory: \(stranded)")
        let next = try CommandRun.run(
            try Products.path("launchprof"),
            ["profile", "--quiet", "--runs", "1", "--hz", "1000", "--output-dir", output, "--name", "spin", "--", "/bin/true"])
        #expect(next.status == 0, "\(next.standardError)")
        let left = try FileManager.default.contentsOfDirectory(atPath: output)
        #expect(!left.contains { $0.contains(".recording-") }, "the next profile removed it: \(left)")
        #expect(!left.contains { $0.hasSuffix(".samples") }, "no sample file: \(left)")
    }

    // MARK: - 15. A process 300 forks deep

    /// Each process forks the next and waits for it; the 301st burns CPU.
    /// Every sample of it is the launched tree's: the walk up the parents
    /// has no depth limit (it stopped at 256), so its CPU time is in the
    /// profile and nothing is blamed on fresh periods.
    @Test(.enabled(if: allowed, "perf events are not allowed here"))
    func processThreeHundredForksDeepIsSampled() throws {
        let scratch = try ScratchDirectory()
        let program = try scratch.compile(
            "deep",
            """
            #include <stdio.h>
            #include <stdlib.h>
            #include <sys/wait.h>
            #include <time.h>
            #include <unistd.h>
            __attribute__((noinline)) double burn_at_the_bottom(long ms) {
                struct timespec start, now; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start); double x = 0;
                do { for (int i = 0; i < 100000; i++) x += (double)i * 1e-9; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now); }
                while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
                return x;
            }
            int main(void) {
                for (int depth = 0; depth < 300; depth++) {
                    pid_t child = fork();
                    if (child < 0) return 1;
                    if (child > 0) { int status; waitpid(child, &status, 0); return WIFEXITED(status) ? WEXITSTATUS(status) : 1; }
                }
                return burn_at_the_bottom(400) > 0 ? 0 : 1;
            }
            """)
        let run = try Self.profile([program], in: scratch.path, name: "deep")
        try #require(run.status == 0, "\(run.standardError)")
        let folded = try SamplerPrograms.folded(scratch.file("deep.folded"))
        let total = folded.reduce(UInt64(0)) { $0 + $1.weight }
        let bottom = folded.filter { $0.frames.last?.contains("burn_at_the_bottom") == true }.reduce(UInt64(0)) { $0 + $1.weight }
        #expect(bottom >= 200, "≈400 samples of the deepest process expected; \(bottom) of \(total)")
        // Each of the 301 processes starts with a fresh period and loses
        // what it ran after its last whole one, so the summary may say so
        // (on a busy machine the forks' kernel time makes it pass 10%); what
        // it must not hide is a process left unsampled: the periods without
        // a stack are at most one a process.
        if let match = run.standardError.firstMatch(of: /(\d+) stacks for (\d+) periods/),
            let stacks = Int(match.1), let periods = Int(match.2)
        {
            #expect(periods - stacks <= 301, "\(periods - stacks) periods without a stack: \(run.standardError)")
        } else {
            Issue.record("the summary names the stacks and periods: \(run.standardError)")
        }
    }

    // MARK: - 16. A program that fails

    /// exit(7) and SIGKILL: the profile is written (where a failing launch
    /// spent its time is worth seeing), the failure is said, and `profile`
    /// exits with 3, as `run` does.
    @Test(.enabled(if: allowed, "perf events are not allowed here"))
    func failedProgramExitsWithThree() throws {
        let scratch = try ScratchDirectory()
        let seven = try scratch.compile("seven", Self.burner(milliseconds: 100, tail: "return 7;"))
        let run = try Self.profile([seven], in: scratch.path, name: "seven")
        #expect(run.status == 3, "\(run.standardError)")
        #expect(run.standardError.contains("'\(seven)' exited with status 7"), "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: scratch.file("seven.folded")))

        let killed = try scratch.compile("killed", Self.burner(milliseconds: 100, tail: "kill(getpid(), SIGKILL); return 0;"))
        let second = try Self.profile([killed], in: scratch.path, name: "killed")
        #expect(second.status == 3, "\(second.standardError)")
        #expect(second.standardError.contains("killed by signal 9"), "\(second.standardError)")

        let fine = try scratch.compile("fine", Self.burner(milliseconds: 50))
        #expect(try Self.profile([fine], in: scratch.path, name: "fine").status == 0)
    }
}
