#include "launchprof_format.h"

uint64_t lp_trace_checksum(const void *bytes, size_t count) {
    const uint8_t *byte = bytes;
    uint64_t hash = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < count; i++) {
        hash ^= byte[i];
        hash *= UINT64_C(0x100000001b3);
    }
    return hash;
}
