import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// `--clock wall`: every thread is sampled on the wall clock, waiting or
/// not, and each sample is marked on or off CPU, so a profile shows where a
/// launch waited (docs/sampling.md).
@Suite(.serialized)
struct SamplerWallClockTests {
    /// The main thread waits on a mutex that a worker holds while it spins
    /// for 300 ms of CPU.
    static let program = """
        #include <pthread.h>
        #include <sched.h>
        #include <stdio.h>
        #include <time.h>
        static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
        static int taken;
        static double spin(double ms) { struct timespec t; double x = 0, end;
          clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); end = t.tv_sec * 1e3 + t.tv_nsec / 1e6 + ms;
          do { for (int i = 0; i < 100000; i++) x += i * 1e-9; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); } while (t.tv_sec * 1e3 + t.tv_nsec / 1e6 < end);
          return x; }
        __attribute__((noinline)) void *holder_busy_with_lock(void *p) {
          pthread_mutex_lock(&lock); __atomic_store_n(&taken, 1, __ATOMIC_RELEASE);
          *(double *)p = spin(300); pthread_mutex_unlock(&lock); return NULL; }
        __attribute__((noinline)) void waiter_blocked_on_lock(void) { pthread_mutex_lock(&lock); pthread_mutex_unlock(&lock); }
        int main(void) { pthread_t t; double r = 0;
          pthread_create(&t, NULL, holder_busy_with_lock, &r);
          while (!__atomic_load_n(&taken, __ATOMIC_ACQUIRE)) sched_yield();
          waiter_blocked_on_lock();
          pthread_join(t, NULL); printf("%f\\n", r); return 0; }
        """

    @Test func aThreadWaitingOnALockIsSampledOffCPUWhereItWaits() throws {
        let binary = try SamplerPrograms.compile(Self.program, name: "wall-lock")
        defer { unlink(binary) }
        let profiled = try ProfiledRun.profile([binary], name: "wall", options: ["--clock", "wall"])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let sampling = try #require(profiled.trace.sampling)
        #expect(sampling.timerMode == .threadWallClock)
        func samples(in function: String) -> [(offCPU: Bool, weight: UInt64)] {
            profiled.folded.filter { $0.frames.contains(function) }.map { ($0.frames.first == "[off CPU]", $0.weight) }
        }
        func offShare(_ stacks: [(offCPU: Bool, weight: UInt64)]) -> Double {
            Double(stacks.filter(\.offCPU).reduce(0) { $0 + $1.weight }) / Double(max(stacks.reduce(0) { $0 + $1.weight }, 1))
        }
        let waiter = samples(in: "waiter_blocked_on_lock")
        let holder = samples(in: "holder_busy_with_lock")
        // A CPU-time profile has no sample of the waiter at all: it never runs.
        #expect(waiter.reduce(0) { $0 + $1.weight } >= 30, "the waiter is sampled while it waits: \(profiled.folded)")
        #expect(offShare(waiter) > 0.9, "waiting on the lock is off CPU: \(waiter)")
        #expect(holder.contains { !$0.offCPU }, "the spinning holder is on CPU: \(holder)")
        #expect(offShare(holder) < offShare(waiter))
        #expect(profiled.folded.allSatisfy { ["[off CPU]", "[on CPU]", "[waiting for CPU]"].contains($0.frames.first ?? "") })
        // Blocked on a lock is not runnable: never "waiting for CPU".
        let waiterQueued = profiled.folded.filter { $0.frames.contains("waiter_blocked_on_lock") && $0.frames.first == "[waiting for CPU]" }
        #expect(waiterQueued.reduce(0) { $0 + $1.weight } * 10 <= waiter.reduce(0) { $0 + $1.weight }, "\(waiterQueued)")
    }

    /// Three busy threads pinned to one CPU (sched_setaffinity): each runs a
    /// third of the time and is runnable the rest, waiting for the CPU. The
    /// wall clock says so — "[waiting for CPU]", from the run-queue time in
    /// /proc/thread-self/schedstat — instead of calling it waiting in the program.
    static let sharingOneCPU = """
        #define _GNU_SOURCE
        #include <pthread.h>
        #include <sched.h>
        #include <stdio.h>
        #include <time.h>
        static double spin(double ms) { struct timespec t; double x = 0, end;
          clock_gettime(CLOCK_MONOTONIC, &t); end = t.tv_sec * 1e3 + t.tv_nsec / 1e6 + ms;
          do { for (int i = 0; i < 100000; i++) x += i * 1e-9; clock_gettime(CLOCK_MONOTONIC, &t); } while (t.tv_sec * 1e3 + t.tv_nsec / 1e6 < end);
          return x; }
        __attribute__((noinline)) void *busy_sharing_one_cpu(void *p) { *(double *)p = spin(300); return NULL; }
        int main(void) { cpu_set_t one; CPU_ZERO(&one); CPU_SET(sched_getcpu(), &one);
          if (sched_setaffinity(0, sizeof one, &one) != 0) return 2;
          pthread_t t[3]; double r[3];
          for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, busy_sharing_one_cpu, &r[i]);
          for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
          printf("%f\\n", r[0] + r[1] + r[2]); return 0; }
        """

    @Test func busyThreadsSharingOneCPUAreSampledAsWaitingForACPU() throws {
        let binary = try SamplerPrograms.compile(Self.sharingOneCPU, name: "wall-one-cpu")
        defer { unlink(binary) }
        let profiled = try ProfiledRun.profile([binary], name: "one-cpu", options: ["--clock", "wall"])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let busy = profiled.folded.filter { $0.frames.contains("busy_sharing_one_cpu") }
        func weight(_ root: String) -> UInt64 { busy.filter { $0.frames.first == root }.reduce(0) { $0 + $1.weight } }
        let all = busy.reduce(0) { $0 + $1.weight }
        #expect(all >= 300, "\(profiled.foldedText)")
        #expect(weight("[waiting for CPU]") * 4 >= all, "runnable threads wait for the CPU: \(profiled.foldedText)")
        #expect(weight("[on CPU]") > 0, "\(profiled.foldedText)")
        #expect(weight("[off CPU]") * 5 <= all, "a busy thread is never blocked: \(profiled.foldedText)")
    }

    /// lp-sample-lock-wait: its main thread blocks on a mutex the loader
    /// thread holds while it builds the catalog. The wall clock samples the
    /// wait, off CPU, in glibc's lock wait under the call that waited; the CPU
    /// clock has (almost) nothing there.
    @Test func aSwiftLaunchWaitingOnALockShowsTheWaitUnderTheCallThatWaited() throws {
        let program = try Products.path("lp-sample-lock-wait")
        let wall = try ProfiledRun.profile([program, "--hold-ms", "150"], name: "lock-wall", options: ["--clock", "wall"])
        defer { try? FileManager.default.removeItem(atPath: wall.directory) }
        func weight(_ stacks: [(frames: [String], weight: UInt64)]) -> UInt64 { stacks.reduce(0) { $0 + $1.weight } }
        let waiting = wall.folded.filter { stack in
            guard let call = stack.frames.firstIndex(where: { $0.contains("waitForCatalog") }) else { return false }
            return stack.frames[(call + 1)...].contains { $0.contains("lll_lock_wait") || $0.contains("futex") }
        }
        let offCPU = waiting.filter { $0.frames.first == "[off CPU]" }
        // 150 ms of the loader's CPU at 1 kHz: the main thread waits at least that long.
        #expect(weight(offCPU) >= 100, "the wait is sampled off CPU under waitForCatalog: \(wall.foldedText)")
        #expect(Double(weight(offCPU)) >= 0.8 * Double(weight(waiting)), "\(waiting)")
        #expect(wall.folded.contains { $0.frames.contains { $0.contains("buildCatalog") } }, "the holder's work is there too")

        let cpu = try ProfiledRun.profile([program, "--hold-ms", "150"], name: "lock-cpu")
        defer { try? FileManager.default.removeItem(atPath: cpu.directory) }
        let waitedOnCPU = weight(cpu.folded.filter { $0.frames.contains { $0.contains("waitForCatalog") } })
        #expect(waitedOnCPU <= 5, "a CPU-time profile does not see the wait: \(cpu.foldedText)")
        #expect(weight(cpu.folded.filter { $0.frames.contains { $0.contains("buildCatalog") } }) >= 100)
    }

    @Test func aClockOtherThanCPUOrWallIsRefused() throws {
        let run = try CommandRun.run(try Products.path("launchprof"), ["profile", "--clock", "monotonic", "--", "/bin/true"])
        #expect(run.status == 2, "\(run.standardError)")
        #expect(run.standardError.contains("--clock must be cpu or wall, got 'monotonic'"), "\(run.standardError)")
    }
}
