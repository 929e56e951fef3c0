// C the harness (not the embedded library) needs.
#ifndef LAUNCHPROF_HARNESS_SUPPORT_H
#define LAUNCHPROF_HARNESS_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/// The Swift runtime's demangler, linked directly: the CLI links the runtime
/// statically, so it cannot be found with dlsym, and opening the shared
/// libswiftCore.so would map the very file cold runs evict. Returns a
/// malloc'ed string, or NULL when `name` is not a Swift symbol.
char *lp_swift_demangle(const char *name, size_t length);

#endif
