import Foundation
import LaunchBenchmark
import LaunchProfTestSupport
import Testing

/// The handler walks the interrupted stack from the signal's own context
/// (libunwind's cursor from the ucontext, sampler_unwind.c): every stack
/// starts at the interrupted code, with no frame of the handler or of the
/// signal trampoline, and runs up to the program's entry.
@Suite(.serialized)
struct SamplerUnwindTests {
    /// main → outer_caller → middle_caller → burn_leaf, each never inlined;
    /// ~300 ms of CPU in burn_leaf, on the main thread and on a worker.
    static let chain = """
        #include <pthread.h>
        #include <stdio.h>
        __attribute__((noinline)) double burn_leaf(long n) { double x = 0; for (long i = 0; i < n; i++) x += (double)i * 1e-9; return x; }
        __attribute__((noinline)) double middle_caller(long n) { return burn_leaf(n) + 1.0; }
        __attribute__((noinline)) double outer_caller(long n) { return middle_caller(n) + 1.0; }
        __attribute__((noinline)) void *worker_entry(void *p) { *(double *)p = outer_caller(150000000); return NULL; }
        int main(void) { pthread_t t; double r = 0; pthread_create(&t, NULL, worker_entry, &r);
          double x = outer_caller(150000000); pthread_join(t, NULL); printf("%f\\n", x + r); return 0; }
        """

    @Test(arguments: [SamplingMethod.kernel, .inProcess])
    func everyStackStartsAtTheInterruptedCodeAndReachesTheThreadsEntry(method: SamplingMethod) throws {
        let binary = try SamplerPrograms.compile(Self.chain, name: "unwind-chain")
        defer { unlink(binary) }
        let profiled = try ProfiledRun.profile([binary], name: "unwind", options: ["--sampler", method.rawValue])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let sampling = try #require(profiled.trace.sampling)
        #expect(sampling.samples.allSatisfy { !$0.unwindFailed }, "libunwind walked every stack")
        let total = profiled.folded.reduce(0) { $0 + $1.weight }
        #expect(total >= 100, "\(profiled.foldedText)")
        // No frame of the sampler's handler or of the signal trampoline.
        let foreign = profiled.folded.filter { stack in
            stack.frames.contains {
                $0 == "handler" || $0.hasPrefix("handler+") || $0.contains("__restore_rt") || $0.contains("lp_sampler")
            }
        }
        #expect(foreign.isEmpty, "\(foreign)")
        // Leaf first in the trace, root first in the folded stacks: the
        // whole chain, in order, up to the thread's entry. A sample whose
        // timer fired in the kernel (an interrupt, a page fault) has a
        // `[kernel]` leaf below the user frame it interrupted (docs/sampling.md):
        // its user stack is the chain all the same.
        func share(_ chain: [String], under entry: String) -> Double {
            let hits = profiled.folded.filter { stack in
                let frames = stack.frames.last == "[kernel]" ? Array(stack.frames.dropLast()) : stack.frames
                guard frames.count >= chain.count, frames.contains(where: { $0.contains(entry) }) else { return false }
                return Array(frames.suffix(chain.count)) == chain
            }
            return Double(hits.reduce(0) { $0 + $1.weight }) / Double(max(total, 1))
        }
        let chain = ["outer_caller", "middle_caller", "burn_leaf"]
        let onMain = share(chain, under: "main"), onWorker = share(["worker_entry"] + chain, under: "start_thread")
        #expect(onMain >= 0.35 && onWorker >= 0.35, "main \(onMain), worker \(onWorker): \(profiled.foldedText)")
        #expect(onMain + onWorker >= 0.9, "main \(onMain), worker \(onWorker): \(profiled.foldedText)")
    }

    /// 3,000 threads, one after another, each ~0.3 ms of CPU and then its
    /// end, where the preload's hook reads and closes the thread's perf
    /// event (or deletes its timer): microseconds of the sampler's own code
    /// per thread.
    static let churn = """
        #include <pthread.h>
        #include <stdio.h>
        __attribute__((noinline)) double burn(long n) { double x = 0; for (long i = 0; i < n; i++) x += (double)i * 1e-9; return x; }
        static void *worker(void *p) { *(double *)p = burn(200000); return NULL; }
        int main(void) { double r = 0, s = 0;
          for (int i = 0; i < 3000; i++) { pthread_t t; pthread_create(&t, NULL, worker, &r); pthread_join(t, NULL); s += r; }
          printf("%f\\n", s); return 0; }
        """

    /// The handler records nothing from a thread's ending hook on
    /// (lp_sampler_thread_ending sets lp_sampler_own_code, then blocks
    /// SIGPROF). Before, a weight of 6 to 59 of this program's stacks at
    /// 4 kHz was the sampler disarming (lp_sampler_disarm, close, read), and
    /// one such stack failed the test above in CI; with the block alone,
    /// 0 to 18 (a merged sample in pthread_sigmask, with both cores busy).
    /// What remains is the hook's call and first instruction.
    @Test func aThreadsEndIsNotSampledInTheSamplersOwnCode() throws {
        let binary = try SamplerPrograms.compile(Self.churn, name: "unwind-churn")
        defer { unlink(binary) }
        let profiled = try ProfiledRun.profile([binary], name: "churn", hz: 4000, options: ["--sampler", "in-process"])
        defer { try? FileManager.default.removeItem(atPath: profiled.directory) }
        let total = profiled.folded.reduce(0) { $0 + $1.weight }
        // A thread's 0.3 ms is about one period: whether it ends before its
        // first sample or after depends on the host's speed (47-68% of the
        // periods had a stack in runs with both cores busy).
        #expect(total >= 300, "\(profiled.foldedText)")
        let own = profiled.folded.filter { stack in stack.frames.contains { $0.contains("lp_sampler") } }
        #expect(own.reduce(0) { $0 + $1.weight } <= 3, "\(own)")
    }
}
