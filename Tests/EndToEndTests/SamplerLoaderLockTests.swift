import Foundation
import LaunchProfTestSupport
import Testing

/// The sampler's signal handler keeps out of the dynamic loader's locks by
/// reading glibc's private `_rtld_global` layout (sampler_loader.c): the
/// write lock is the one recursive mutex there that a dl_iterate_phdr
/// callback holds, the TLS lock the mutex after it. If a glibc update moves
/// or changes them, the sampler quietly stops checking, and a 10 kHz profile
/// of a program that dlopens could deadlock again. This test fails loudly
/// instead: both locks must be found, free outside the loader, and seen
/// taken inside dl_iterate_phdr (the lock libunwind's lookups take).
@Suite("Sampler: glibc's loader-lock layout")
struct SamplerLoaderLockTests {
    static let program = """
        #define _GNU_SOURCE
        #include "sampler_internal.h"
        #include <link.h>
        #include <stdio.h>

        static int inside(struct dl_phdr_info *info, size_t size, void *busy) {
            (void)info;
            (void)size;
            *(int *)busy = lp_sampler_loader_busy();
            return 1;
        }

        int main(void) {
            lp_sampler_find_loader_locks();
            if (lp_sampler_state.loader_locks[0] == NULL || lp_sampler_state.loader_locks[1] == NULL) {
                puts("not found: _rtld_global's layout is not what sampler_loader.c expects");
                return 1;
            }
            int outside = lp_sampler_loader_busy();
            int busy = 0;
            dl_iterate_phdr(inside, &busy);
            printf("found; outside the loader %s, inside dl_iterate_phdr %s\\n",
                   outside ? "busy" : "free", busy ? "busy" : "free");
            return !outside && busy ? 0 : 1;
        }
        """

    @Test("both loader locks are found in _rtld_global, free outside the loader and taken inside dl_iterate_phdr")
    func layoutStillHolds() throws {
        let binary = try SamplerPrograms.compile(Self.program, name: "loader-locks", linkingSampler: true)
        defer { unlink(binary) }
        let run = try CommandRun.run(binary, [], timeout: 30)
        #expect(run.status == 0, "glibc's loader locks: \(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("outside the loader free, inside dl_iterate_phdr busy"))
    }
}
