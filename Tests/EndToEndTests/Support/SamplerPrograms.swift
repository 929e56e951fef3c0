import Foundation
import LaunchProfTestSupport
import Testing

/// C programs compiled by the sampler tests with the system's `cc`: each has
/// known, never-inlined hot functions to look for in the profile.
enum SamplerPrograms {
    /// One thread, 90% of its CPU in burn_hot_function.
    static let hot = """
        #include <stdio.h>
        __attribute__((noinline)) double burn_hot_function(long n) { double x = 0; for (long i = 0; i < n; i++) x += (double)i * 1e-9; return x; }
        __attribute__((noinline)) double warm_cold_function(long n) { double x = 0; for (long i = 0; i < n; i++) x += (double)i * 1e-9; return x; }
        int main(void) { printf("%f\\n", burn_hot_function(250000000) + warm_cold_function(25000000)); return 0; }
        """

    /// Three threads, each busy in its own function for ~150 ms of CPU.
    static let threads = """
        #include <pthread.h>
        #include <stdio.h>
        #include <time.h>
        static double spin(double ms) { struct timespec t; double x = 0, end;
          clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); end = t.tv_sec * 1e3 + t.tv_nsec / 1e6 + ms;
          do { for (int i = 0; i < 100000; i++) x += i * 1e-9; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); } while (t.tv_sec * 1e3 + t.tv_nsec / 1e6 < end);
          return x; }
        __attribute__((noinline)) void *busy_thread_alpha(void *p) { *(double *)p = spin(150); return NULL; }
        __attribute__((noinline)) void *busy_thread_beta(void *p) { *(double *)p = spin(150); return NULL; }
        __attribute__((noinline)) void *busy_thread_gamma(void *p) { *(double *)p = spin(150); return NULL; }
        int main(void) { pthread_t t[3]; double r[3];
          void *(*f[3])(void *) = {busy_thread_alpha, busy_thread_beta, busy_thread_gamma};
          for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, f[i], &r[i]);
          for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
          printf("%f\\n", r[0] + r[1] + r[2]); return 0; }
        """

    /// One thread, 200 ms of CPU in blocked_spin with SIGPROF blocked for 5
    /// ms at a time, then let through: each period's signal while it is
    /// blocked is merged with the pending one, as a busy machine can make
    /// them (a late handler, a held-up vCPU).
    static let blocked = """
        #include <signal.h>
        #include <stdio.h>
        #include <time.h>
        static double cpu_ms(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
        __attribute__((noinline)) double blocked_spin(double ms) { double x = 0, end = cpu_ms() + ms;
          do { for (int i = 0; i < 20000; i++) x += i * 1e-9; } while (cpu_ms() < end);
          return x; }
        int main(void) { sigset_t prof; sigemptyset(&prof); sigaddset(&prof, SIGPROF); double x = 0;
          for (int i = 0; i < 40; i++) { sigprocmask(SIG_BLOCK, &prof, NULL); x += blocked_spin(5); sigprocmask(SIG_UNBLOCK, &prof, NULL); }
          printf("%f\\n", x); return 0; }
        """

    /// For about a second: threads that start and exit, malloc/free on every
    /// thread, and dlopen/dlclose in a loop — what breaks unsafe handlers.
    static let stress = """
        #include <dlfcn.h>
        #include <pthread.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <time.h>
        static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
        static void *churn(void *arg) { long n = (long)arg; size_t sum = 0;
          for (long i = 0; i < 2000 + n % 7 * 500; i++) { char *p = malloc(16 + (i * 37) % 4096); memset(p, (int)i, 16); sum += (size_t)p[3]; free(p); }
          return (void *)sum; }
        static void *loader(void *arg) { double end = *(double *)arg; long loops = 0;
          while (now() < end) { void *h = dlopen(loops % 2 ? "libm.so.6" : "libz.so.1", RTLD_NOW | RTLD_LOCAL);
            if (h) { dlsym(h, loops % 2 ? "cos" : "zlibVersion"); dlclose(h); } loops++; }
          return (void *)loops; }
        int main(int argc, char **argv) { double seconds = argc > 1 ? atof(argv[1]) : 1.0, end = now() + seconds;
          pthread_t l; pthread_create(&l, NULL, loader, &end); long rounds = 0;
          while (now() < end) { pthread_t t[4]; for (long i = 0; i < 4; i++) pthread_create(&t[i], NULL, churn, (void *)(rounds * 4 + i));
            for (int i = 0; i < 4; i++) pthread_join(t[i], NULL); rounds++; }
          void *loops; pthread_join(l, &loops); printf("stress: %ld rounds, %ld dlopens\\n", rounds, (long)loops); return 0; }
        """

    /// Reads `path` as folded stacks: (frames root first, weight) per line.
    static func folded(_ path: String) throws -> [(frames: [String], weight: UInt64)] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            let space = try #require(line.lastIndex(of: " "), "a folded line without a weight: \(line)")
            let weight = try #require(UInt64(line[line.index(after: space)...]), "a folded line without a weight: \(line)")
            return (line[..<space].split(separator: ";").map(String.init), weight)
        }
    }

    /// Built with `-O2 -g`: the hot loop is in an always-inline function
    /// (lines 3-7) called from a noinline one, so only the debug info tells
    /// of it. The iteration count comes from argv so that GCC cannot
    /// specialise the caller for a constant.
    static let inlined = """
        #include <stdio.h>
        #include <stdlib.h>
        static inline __attribute__((always_inline)) double inlined_hot_work(long n) {
          double x = 0;
          for (long i = 0; i < n; i++) x += (double)i * 1e-9;
          return x;
        }
        __attribute__((noinline)) double noinline_caller(long n) { return inlined_hot_work(n) + 1; }
        int main(int argc, char **argv) { long n = argc > 1 ? atol(argv[1]) : 250000000; printf("%f\\n", noinline_caller(n)); return 0; }
        """

    /// Compiles `source` into a fresh executable and returns its path (the
    /// source, `<name>.c` in the temporary directory, is removed). With
    /// `linkingSampler`, every C file of the targets the preload library is
    /// built from (CLaunchProfSampler, LaunchProfFormat: the directories
    /// SwiftPM compiles, so the same list) is compiled in, and `source` may
    /// include "sampler_internal.h".
    static func compile(
        _ source: String, name: String, optimization: String = "-O1", linkingSampler: Bool = false
    ) throws -> String {
        let binary = Products.temporaryPath(name)
        guard linkingSampler else { return try CCompiler.compile(source, to: binary, flags: ["-lpthread"], optimization: optimization) }
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/Shared")
        let targets = ["CLaunchProfSampler", "LaunchProfFormat"].map { sources.appendingPathComponent($0).path }
        let units = try targets.flatMap { directory in
            try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".c") }.sorted()
                .map { directory + "/" + $0 }
        }
        return try CCompiler.compile(
            source, to: binary,
            flags: targets.flatMap { ["-I", $0, "-I", $0 + "/include"] } + ["-lunwind", "-lpthread", "-ldl"],
            optimization: optimization, sources: units)
    }
}
