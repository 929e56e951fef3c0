// libFuzzer entry for lp_perf_encode_sections, launchprof's reader of the
// sample sink that lp-spawn writes (LP_SPAWN_FLAG_SAMPLE): the header, the
// kernel's records, the spawner's own, then the replay, the offline walk of
// each sample's stack copy and the encoding. The input goes through a memfd
// named by its /proc path, as a file on disk would; a rejection must name
// that path.
#define _GNU_SOURCE
#include "launchprof_perf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("perf-sink", MFD_CLOEXEC);
        if (fd < 0) abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || (size > 0 && pwrite(fd, data, size, 0) != (ssize_t)size)) abort();
    lp_perf_options_t options;
    memset(&options, 0, sizeof options);
    lp_perf_summary_t summary;
    char error[512] = {0};
    size_t encoded = 0;
    uint8_t *bytes = lp_perf_encode_sections(path, &options, &encoded, &summary, error, sizeof error);
    if (bytes == NULL && strstr(error, path) == NULL) {
        fprintf(stderr, "an error that does not name the file: %s\n", error);
        abort();
    }
    if (bytes != NULL && summary.kept > summary.samples) abort();
    free(bytes);
    return 0;
}
