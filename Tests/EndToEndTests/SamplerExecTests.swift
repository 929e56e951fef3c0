import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// A sampled process that execs (a wrapper such as `env`, a program that
/// re-execs itself) keeps its pid and keeps sampling; a SIGPROF still pending
/// at the exec must not kill the new image before its sampler starts (the
/// preload library ignores SIGPROF across every exec: docs/sampling.md).
@Suite(.serialized)
struct SamplerExecTests {
    /// Spins ~20 ms of CPU, then re-execs itself with execl; the new image
    /// spends its time in burn_after_exec.
    static let reexec = """
        #include <stdio.h>
        #include <string.h>
        #include <unistd.h>
        __attribute__((noinline)) double spin_before_exec(long n) { double x = 0; for (long i = 0; i < n; i++) x += (double)i * 1e-9; return x; }
        __attribute__((noinline)) double burn_after_exec(long n) { double x = 0; for (long i = 0; i < n; i++) x += (double)i * 1e-9; return x; }
        int main(int argc, char **argv) {
          if (argc > 1 && strcmp(argv[1], "again") == 0) { printf("%f\\n", burn_after_exec(150000000)); return 0; }
          if (spin_before_exec(20000000) < 0) return 1;
          execl(argv[0], argv[0], "again", (char *)NULL);
          perror("execl"); return 2; }
        """

    @Test(arguments: [SamplingMethod.kernel, .inProcess])
    func aProgramThatReExecsItselfAtFourKilohertzIsSampledAfterTheExec(method: SamplingMethod) throws {
        let binary = try SamplerPrograms.compile(Self.reexec, name: "exec-reexec")
        defer { unlink(binary) }
        for _ in 0..<3 {
            let profiled = try ProfiledRun.profile([binary], name: "reexec", hz: 4000, options: ["--sampler", method.rawValue])
            defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
            #expect(profiled.leafShare("burn_after_exec") > 0.7, "\(profiled.foldedText)")
        }
    }

    @Test(arguments: [SamplingMethod.kernel, .inProcess])
    func aProgramStartedThroughEnvAtFourKilohertzIsSampled(method: SamplingMethod) throws {
        let binary = try SamplerPrograms.compile(SamplerPrograms.hot, name: "exec-env-hot")
        defer { unlink(binary) }
        for _ in 0..<3 {
            let profiled = try ProfiledRun.profile(
                ["/usr/bin/env", "LP_EXEC_TEST=1", binary], name: "env", hz: 4000, options: ["--sampler", method.rawValue])
            defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
            #expect(profiled.leafShare("burn_hot_function") > 0.6, "\(profiled.foldedText)")
        }
    }
}
