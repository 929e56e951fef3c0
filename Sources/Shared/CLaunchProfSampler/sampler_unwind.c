// sampler_unwind.c — walking the interrupted stack from the signal's own
// context, and finding libunwind.
//
// unw_backtrace starts from where it is called: the handler, then the signal
// trampoline, then the interrupted code, and its fast path keeps a trace
// cache per thread that it creates on the thread's first unwind — 16384
// frames of 16 bytes, all written at once: 256 KiB, 64 page faults, about
// 80 µs on this VM for every thread sampled, before the first stack. A
// launch's stacks are mostly new (the cache rarely hits), its threads few
// samples each, so that cache cost more than it saved.
//
// Where libunwind's cursor functions are found (x86_64), the handler walks
// from the signal's ucontext instead (unw_init_local2 with
// UNW_INIT_SIGNAL_FRAME, then unw_step): the first frame is the interrupted
// PC itself (no frames of the handler to find and drop), and no trace cache
// is made. The DWARF lookups are libunwind's own, with its global
// register-state cache, as before. Elsewhere unw_backtrace stays.
#define _GNU_SOURCE
#include "sampler_internal.h"

#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#if defined(__x86_64__)
// libunwind's names for the local-only cursor API (UNW_OBJ with UNW_LOCAL_ONLY)
// and the IP register (UNW_X86_64_RIP): libunwind-x86_64.h, which this target
// does not include (it builds without libunwind's headers).
#define LP_UNW_SYMBOL(name) "_ULx86_64_" name
#define LP_UNW_REG_IP 16
/// unw_cursor_t is 127 words here (UNW_TDEP_CURSOR_LEN); room to spare.
#define LP_UNW_CURSOR_WORDS 256
#endif

#ifdef LP_UNW_CURSOR_WORDS
typedef int (*init_local2_fn)(void *cursor, void *context, int flags);
typedef int (*step_fn)(void *cursor);
typedef int (*get_reg_fn)(void *cursor, int reg, uintptr_t *value);

static init_local2_fn unw_init_local2_ptr;
static step_fn unw_step_ptr;
static get_reg_fn unw_get_reg_ptr;

enum { LP_UNW_INIT_SIGNAL_FRAME = 1 };

/// Up to `capacity` PCs of the stack `context` describes, the first one
/// being its PC; -1 when libunwind cannot start there.
static int unwind_context(void *context, int signal_frame, void **frames, int capacity) {
    uintptr_t cursor[LP_UNW_CURSOR_WORDS] __attribute__((aligned(16)));
    if (unw_init_local2_ptr(cursor, context, signal_frame ? LP_UNW_INIT_SIGNAL_FRAME : 0) < 0) return -1;
    int count = 0;
    while (count < capacity) {
        uintptr_t ip = 0;
        if (unw_get_reg_ptr(cursor, LP_UNW_REG_IP, &ip) < 0 || ip == 0) break;
        frames[count++] = (void *)ip;
        if (unw_step_ptr(cursor) <= 0) break;
    }
    return count;
}

static int unwind_signal_context(void *context, void **frames, int capacity) {
    return unwind_context(context, 1, frames, capacity);
}

/// The cursor functions of the libunwind `handle` names, or 0.
static int find_cursor_functions(void *handle) {
    unw_init_local2_ptr = (init_local2_fn)dlsym(handle, LP_UNW_SYMBOL("init_local2"));
    unw_step_ptr = (step_fn)dlsym(handle, LP_UNW_SYMBOL("step"));
    unw_get_reg_ptr = (get_reg_fn)dlsym(handle, LP_UNW_SYMBOL("get_reg"));
    return unw_init_local2_ptr != NULL && unw_step_ptr != NULL && unw_get_reg_ptr != NULL;
}

void lp_sampler_warm_unwinder(void) {
    // libunwind's global set-up, the lazy binding of what it calls and its
    // register-state cache, outside signal context; no trace cache.
    ucontext_t context;
    if (getcontext(&context) != 0) return;
    void *frames[8];
    unwind_context(&context, 0, frames, 2);
}
#else
static int find_cursor_functions(void *handle) {
    (void)handle;
    return 0;
}
void lp_sampler_warm_unwinder(void) {}
#endif

void lp_sampler_find_unwinder(int (*backtrace)(void **, int), int *preloaded) {
    // Already loaded at start-up (launchprof profile preloads it with
    // liblaunchprof-preload.so): its thread-local data is static TLS.
    void *handle = dlopen("libunwind.so.8", RTLD_NOW | RTLD_NOLOAD);
    int loaded = handle != NULL;
    if (backtrace == NULL) {
        *preloaded = loaded;
        if (handle == NULL) handle = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) handle = dlopen("libunwind.so", RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) return;
        backtrace = (int (*)(void **, int))dlsym(handle, "unw_backtrace");
        if (backtrace == NULL) return;
    }
    lp_sampler_state.backtrace = backtrace;
    if (handle != NULL && find_cursor_functions(handle)) {
#ifdef LP_UNW_CURSOR_WORDS
        lp_sampler_state.unwind_context = unwind_signal_context;
#endif
    }
}
