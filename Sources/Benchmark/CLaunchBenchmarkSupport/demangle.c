#include "launchprof_harness_support.h"

// Exported by the Swift runtime (swift/Runtime/Portability.h, stable C ABI).
extern char *swift_demangle(const char *mangledName, size_t mangledNameLength, char *outputBuffer,
                            size_t *outputBufferSize, uint32_t flags);

char *lp_swift_demangle(const char *name, size_t length) { return swift_demangle(name, length, NULL, NULL, 0); }
