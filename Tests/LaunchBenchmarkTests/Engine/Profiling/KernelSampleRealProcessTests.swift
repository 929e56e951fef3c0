import CLaunchProfPerf
import Foundation
import LaunchAnalysis
import LaunchProfTestSupport
import Testing

/// CLaunchProfPerf on a real process's samples: a small collector (compiled
/// here; lp-spawn does the same for launchprof) samples a C program with a
/// task-clock event per CPU, as `perf record --call-graph dwarf` does, and
/// the stacks walked offline must be the program's: its hot function, called
/// from main, called from the C library's start-up.
@Suite("Kernel sample sink: a real process")
struct KernelSampleRealProcessTests {
    static let target = """
        #include <stdio.h>
        __attribute__((noinline)) double burn_hot_function(long n) { double x = 0; for (long i = 0; i < n; i++) x += (double)i * 1e-9; return x; }
        int main(void) { printf("%f\\n", burn_hot_function(150000000)); return 0; }
        """

    /// collector SINK HZ PROGRAM: runs PROGRAM sampled, writes the sink,
    /// prints the program's pid.
    static let collector = """
        #define _GNU_SOURCE
        #include <linux/perf_event.h>
        #include <stdint.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <sys/mman.h>
        #include <sys/syscall.h>
        #include <sys/wait.h>
        #include <time.h>
        #include <unistd.h>
        struct header { char magic[8]; uint32_t version, header_size; uint64_t sample_type, regs_user_mask;
          uint32_t stack_user_bytes, hz; uint64_t period_ns; uint32_t cpus, clock; int32_t error; uint32_t flags;
          int32_t sink_error; uint32_t reserved; uint64_t unwritten_samples, unwritten_records; };
        int main(int argc, char **argv) {
          int go[2]; if (argc < 4 || pipe(go) != 0) return 2;
          pid_t pid = fork();
          if (pid == 0) { char c; close(go[1]); if (read(go[0], &c, 1) != 1) _exit(126); execv(argv[3], argv + 3); _exit(127); }
          close(go[0]);
          int cpus = (int)sysconf(_SC_NPROCESSORS_CONF); if (cpus > 256) cpus = 256;
          static void *rings[256]; size_t pages = 256, page = (size_t)sysconf(_SC_PAGESIZE), size = pages * page;
          struct perf_event_attr a; memset(&a, 0, sizeof a);
          a.size = sizeof a; a.type = PERF_TYPE_SOFTWARE; a.config = PERF_COUNT_SW_TASK_CLOCK;
          a.sample_period = 1000000000ull / (uint64_t)atoi(argv[2]);
          a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
        #if defined(__x86_64__)
          a.sample_regs_user = 0xff01ff;
        #else
          a.sample_regs_user = (1ull << 33) - 1;
        #endif
          a.sample_stack_user = 16384;
          a.disabled = 1; a.inherit = 1; a.enable_on_exec = 1; a.exclude_kernel = 1; a.exclude_hv = 1;
          a.mmap = 1; a.mmap2 = 1; a.comm = 1; a.task = 1; a.build_id = 1; a.sample_id_all = 1;
          a.use_clockid = 1; a.clockid = CLOCK_MONOTONIC;
          for (int cpu = 0; cpu < cpus; cpu++) {
            int fd = (int)syscall(SYS_perf_event_open, &a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
            if (fd < 0) { rings[cpu] = NULL; continue; }
            rings[cpu] = mmap(NULL, size + page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (rings[cpu] == MAP_FAILED) { perror("mmap"); return 1; }
          }
          if (write(go[1], "x", 1) != 1) return 1;
          int status; waitpid(pid, &status, 0);
          FILE *out = fopen(argv[1], "wb"); if (out == NULL) return 1;
          struct header h; memset(&h, 0, sizeof h); memcpy(h.magic, "LPPERF1", 8);
          h.version = 2; h.header_size = sizeof h; h.flags = 2 /* closed */; h.sample_type = a.sample_type; h.regs_user_mask = a.sample_regs_user;
          h.stack_user_bytes = a.sample_stack_user; h.hz = (uint32_t)atoi(argv[2]); h.period_ns = a.sample_period;
          h.cpus = (uint32_t)cpus; h.clock = CLOCK_MONOTONIC;
          fwrite(&h, sizeof h, 1, out);
          for (int cpu = 0; cpu < cpus; cpu++) {
            if (rings[cpu] == NULL) continue;
            struct perf_event_mmap_page *meta = rings[cpu];
            uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE), at = meta->data_tail;
            const unsigned char *data = (const unsigned char *)rings[cpu] + page;
            while (at < head) {
              struct perf_event_header e;
              for (size_t k = 0; k < sizeof e; k++) ((unsigned char *)&e)[k] = data[(at + k) % size];
              if (e.size < sizeof e) break;
              for (size_t k = 0; k < e.size; k++) fputc(data[(at + k) % size], out);
              at += e.size;
            }
          }
          fclose(out);
          printf("%d\\n", (int)pid);
          return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 3;
        }
        """

    /// A symbol's value and size in `binary` (nm).
    static func symbol(_ name: String, in binary: String) throws -> Range<UInt64> {
        let run = try CommandRun.run("/usr/bin/nm", ["-S", "--defined-only", binary])
        for line in run.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 4, fields[3] == name, let value = UInt64(fields[0], radix: 16),
                let size = UInt64(fields[1], radix: 16)
            {
                return value..<(value + size)
            }
        }
        throw CancellationError()
    }

    @Test func theWalkedStacksAreTheProgramsOwn() throws {
        let directory = try ScratchDirectory()
        let target = try directory.compile("lp-burn", Self.target)
        let collector = try directory.compile("collector", Self.collector)
        let sink = directory.file("sink")
        let run = try CommandRun.run(collector, [sink, "1000", target])
        try #require(run.status == 0, "the collector failed (perf_event_open?): \(run.standardError)")
        let pid = try #require(run.standardOutput.split(separator: "\n").last.flatMap { UInt32($0) })

        var options = lp_perf_options_t()
        options.pid = pid
        options.max_depth = 64
        let result = KernelSampleSink.encode(path: sink, options: options)
        let sections = try #require(result.sections, "\(result.error)")
        let sampling = try #require(try KernelSampleSink.trace(sections, pid: pid).sampling)
        #expect(sampling.timerMode == .kernel)
        #expect(sampling.threadNames[pid] == "lp-burn")
        let module = try #require(sampling.modules.first { $0.path.hasSuffix("/lp-burn") })
        #expect(!module.buildID.isEmpty)
        let burn = try Self.symbol("burn_hot_function", in: target)
        let main = try Self.symbol("main", in: target)

        // Samples in the hot function: each walked to main, and on to the
        // C library's start-up (or the program's _start).
        let hot = sampling.samples.filter { burn.contains($0.frames[0] &- module.bias) }
        #expect(hot.count >= 50, "\(sampling.samples.count) samples, \(hot.count) in burn_hot_function")
        let walked = hot.filter { sample in
            sample.frames.count >= 3 && main.contains(sample.frames[1] &- module.bias - 1)
                && sample.frames.dropFirst(2).allSatisfy { sampling.module(containing: $0) != nil }
        }
        #expect(walked.count * 10 >= hot.count * 9, "\(walked.count) of \(hot.count) hot samples walked to main and below")
        #expect(result.summary.kept == UInt64(sampling.samples.count))
        #expect(result.summary.unwind_failures * 10 <= result.summary.kept)
    }
}
