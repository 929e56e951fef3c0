// perf_unwind.c — a sample's stack walked offline with libunwind's remote
// API, as perf's unwind-libunwind-local.c does: libunwind asks our accessors
// for registers (the sample's user registers), memory (the sample's copy of
// the stack above its SP, else the bytes of the ELF file mapped there) and
// unwind tables (the file's .eh_frame_hdr, searched by libunwind's own
// dwarf_search_unwind_table). libunwind is opened with dlopen, so launchprof
// does not link it.
#define _GNU_SOURCE
#include "perf_internal.h"

#include <dlfcn.h>
#include <libunwind.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#define LP_UNWIND_LIBRARY "libunwind-x86_64.so.8"
#define LP_UNWIND_PREFIX "_Ux86_64_"
/// libunwind's x86_64 register -> perf's (PERF_REG_X86_*).
static const int8_t perf_register[] = {
    [UNW_X86_64_RAX] = 0, [UNW_X86_64_RDX] = 3, [UNW_X86_64_RCX] = 2, [UNW_X86_64_RBX] = 1,
    [UNW_X86_64_RSI] = 4, [UNW_X86_64_RDI] = 5, [UNW_X86_64_RBP] = 6, [UNW_X86_64_RSP] = 7,
    [UNW_X86_64_R8] = 16, [UNW_X86_64_R9] = 17, [UNW_X86_64_R10] = 18, [UNW_X86_64_R11] = 19,
    [UNW_X86_64_R12] = 20, [UNW_X86_64_R13] = 21, [UNW_X86_64_R14] = 22, [UNW_X86_64_R15] = 23,
    [UNW_X86_64_RIP] = 8,
};
#elif defined(__aarch64__)
#define LP_UNWIND_LIBRARY "libunwind-aarch64.so.8"
#define LP_UNWIND_PREFIX "_Uaarch64_"
/// libunwind's aarch64 registers X0-X30, SP, PC are perf's 0-32.
static const int8_t perf_register[] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
};
#else
#define LP_UNWIND_LIBRARY NULL  // lp_perf_unwinder_new says so
#define LP_UNWIND_PREFIX ""
static const int8_t perf_register[] = {0};
#endif

/// libunwind's remote API, found once per process.
static struct {
    unw_addr_space_t (*create_addr_space)(unw_accessors_t *, int);
    void (*destroy_addr_space)(unw_addr_space_t);
    int (*set_caching_policy)(unw_addr_space_t, unw_caching_policy_t);
    void (*flush_cache)(unw_addr_space_t, unw_word_t, unw_word_t);
    int (*init_remote)(unw_cursor_t *, unw_addr_space_t, void *);
    int (*step)(unw_cursor_t *);
    int (*get_reg)(unw_cursor_t *, unw_regnum_t, unw_word_t *);
    int (*dwarf_search_unwind_table)(unw_addr_space_t, unw_word_t, unw_dyn_info_t *, unw_proc_info_t *, int, void *);
    char error[512];
} api;
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

struct lp_perf_unwinder {
    unw_addr_space_t space;  ///< one per call: its cache is its own
    unw_accessors_t accessors;
    lp_perf_state_t *state;
    const lp_perf_sink_t *sink;
    /// The image whose code libunwind's cache describes.
    uint32_t cached_pid, cached_image, cached_generation;
    // The sample being walked:
    lp_perf_process_t *process;
    const lp_perf_item_t *sample;
    uint64_t sp;
    lp_perf_module_t *last;  ///< the module of the last read outside the stack
    int after_pop_rbp;       ///< the leaf's last instruction was `pop %rbp` (x86_64)
    int8_t slot[64];  ///< perf register -> its index in a sample's registers, -1: not recorded
};

static int find_proc_info(unw_addr_space_t space, unw_word_t ip, unw_proc_info_t *info, int need, void *argument) {
    lp_perf_unwinder_t *u = argument;
    const lp_perf_map_t *map = lp_perf_find_map(u->process, ip);
    if (map == NULL || map->module >= u->state->module_count) return -UNW_ENOINFO;
    const lp_perf_module_t *module = &u->state->modules[map->module];
    const lp_perf_elf_t *elf = module->elf;
    if (!module->unwindable || elf == NULL || elf->fde_count == 0) return -UNW_ENOINFO;
    unw_dyn_info_t table;
    memset(&table, 0, sizeof table);
    table.format = UNW_INFO_FORMAT_REMOTE_TABLE;
    table.start_ip = map->start;
    table.end_ip = map->end;
    table.u.rti.segbase = module->bias + elf->hdr_vaddr;
    table.u.rti.table_data = module->bias + elf->table_vaddr;
    // In words: each entry is two 32-bit offsets.
    table.u.rti.table_len = elf->fde_count * 8 / sizeof(unw_word_t);
    return api.dwarf_search_unwind_table(space, ip, &table, info, need, argument);
}

static void put_unwind_info(unw_addr_space_t space, unw_proc_info_t *info, void *argument) {
    (void)space, (void)info, (void)argument;  // libunwind frees what it allocated for tables
}

static int get_dyn_info_list_addr(unw_addr_space_t space, unw_word_t *address, void *argument) {
    (void)space, (void)address, (void)argument;
    return -UNW_ENOINFO;
}

static int access_mem(unw_addr_space_t space, unw_word_t address, unw_word_t *value, int write, void *argument) {
    (void)space;
    lp_perf_unwinder_t *u = argument;
    if (write) return -UNW_EINVAL;
    const lp_perf_item_t *sample = u->sample;
    if (address >= u->sp && address - u->sp < sample->stack_size) {
        uint64_t offset = address - u->sp, have = sample->stack_size - offset;
        *value = 0;
        memcpy(value, sample->stack + offset, have < sizeof *value ? (size_t)have : sizeof *value);
        return 0;
    }
#if defined(__x86_64__)
    // An epilogue sampled just after `pop %rbp` (at its `ret`, or the jmp of
    // a tail call): most compilers' CFI there still says rbp is saved at
    // CFA-16, which is now the word below SP, and the kernel copies the
    // stack from SP up. The word holds what the pop loaded: rbp's value.
    if (u->after_pop_rbp && address == u->sp - 8 && u->slot[6] >= 0) {
        memcpy(value, sample->regs + (size_t)u->slot[6] * 8, 8);
        return 0;
    }
#endif
    lp_perf_module_t *module = u->last;
    if (module == NULL || address < module->low || address >= module->high)
        module = u->last = lp_perf_find_module(u->state, u->process, address);
    if (module == NULL || !module->unwindable) return -UNW_EINVAL;
    if (lp_perf_elf_read(&u->state->elves, module->elf, address - module->bias, value, sizeof *value) != 0)
        return -UNW_EINVAL;
    return 0;
}

static int access_reg(unw_addr_space_t space, unw_regnum_t number, unw_word_t *value, int write, void *argument) {
    (void)space;
    lp_perf_unwinder_t *u = argument;
    if (write) return -UNW_EREADONLYREG;
    if (number < 0 || (size_t)number >= sizeof perf_register / sizeof perf_register[0]) return -UNW_EBADREG;
    int slot = u->slot[perf_register[number]];
    if (slot < 0) return -UNW_EBADREG;
    memcpy(value, u->sample->regs + (size_t)slot * 8, 8);
    return 0;
}

static int access_fpreg(unw_addr_space_t space, unw_regnum_t number, unw_fpreg_t *value, int write, void *argument) {
    (void)space, (void)number, (void)value, (void)write, (void)argument;
    return -UNW_EINVAL;
}

static int resume(unw_addr_space_t space, unw_cursor_t *cursor, void *argument) {
    (void)space, (void)cursor, (void)argument;
    return -UNW_EINVAL;
}

static int get_proc_name(unw_addr_space_t space, unw_word_t address, char *buffer, size_t size, unw_word_t *offset,
                         void *argument) {
    (void)space, (void)address, (void)buffer, (void)size, (void)offset, (void)argument;
    return -UNW_EINVAL;
}

static void open_api(void) {
    const char *name = LP_UNWIND_LIBRARY;
    if (name == NULL) {
        snprintf(api.error, sizeof api.error, "walking sampled stacks is supported on x86_64 and aarch64 only");
        return;
    }
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(api.error, sizeof api.error,
                 "%s is needed to walk the sampled stacks (Debian and Ubuntu: apt-get install libunwind8): %s",
                 name, why ? why : "dlopen failed");
        return;
    }
    struct {
        void **slot;
        const char *name;
    } symbols[] = {
        {(void **)&api.create_addr_space, "create_addr_space"},
        {(void **)&api.destroy_addr_space, "destroy_addr_space"},
        {(void **)&api.set_caching_policy, "set_caching_policy"},
        {(void **)&api.flush_cache, "flush_cache"},
        {(void **)&api.init_remote, "init_remote"},
        {(void **)&api.step, "step"},
        {(void **)&api.get_reg, "get_reg"},
        {(void **)&api.dwarf_search_unwind_table, "dwarf_search_unwind_table"},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        char symbol[96];
        snprintf(symbol, sizeof symbol, "%s%s", LP_UNWIND_PREFIX, symbols[i].name);
        *symbols[i].slot = dlsym(library, symbol);
        if (*symbols[i].slot == NULL) {
            snprintf(api.error, sizeof api.error, "%s has no %s (its remote unwinding API is needed)", name, symbol);
            api.create_addr_space = NULL;
            return;
        }
    }
}

lp_perf_unwinder_t *lp_perf_unwinder_new(lp_perf_state_t *state, const lp_perf_sink_t *sink, lp_perf_error_t *error) {
    pthread_once(&api_once, open_api);
    if (api.create_addr_space == NULL) {
        lp_perf_fail(error, "%s", api.error);
        return NULL;
    }
    lp_perf_unwinder_t *u = calloc(1, sizeof *u);
    if (u == NULL) {
        lp_perf_fail(error, "no memory for the unwinder");
        return NULL;
    }
    u->state = state;
    u->sink = sink;
    u->accessors = (unw_accessors_t){find_proc_info, put_unwind_info, get_dyn_info_list_addr, access_mem,
                                     access_reg, access_fpreg, resume, get_proc_name};
    u->space = api.create_addr_space(&u->accessors, 0);
    if (u->space == NULL) {
        free(u);
        lp_perf_fail(error, "libunwind could not create an address space");
        return NULL;
    }
    // A global cache (per address space, so per call: calls on several
    // threads share nothing). UNW_CACHE_PER_THREAD is no faster here, and
    // unless libunwind was built with its per-thread cache it uses the
    // global one without its lock.
    api.set_caching_policy(u->space, UNW_CACHE_GLOBAL);
    // Registers are stored in the order of their bits in the mask.
    uint64_t mask = sink->header.regs_user_mask;
    int next = 0;
    for (int bit = 0; bit < 64; bit++) u->slot[bit] = (mask >> bit) & 1 ? (int8_t)next++ : -1;
    return u;
}

uint32_t lp_perf_unwind(lp_perf_unwinder_t *u, lp_perf_process_t *process, const lp_perf_item_t *sample,
                        uint64_t *frames, uint32_t capacity, uint16_t *flags, int *failed) {
    frames[0] = sample->ip;
    *flags = 0;
    *failed = 0;
    if (sample->bad_stack) {
        *failed = 1;
        *flags = LP_SAMPLE_UNWIND_FAILED;
        return 1;
    }
    // No registers or no stack (a sink opened without them): the PC alone.
    if (sample->regs == NULL || sample->stack_size == 0 || u->slot[LP_REGS_SP] < 0 || u->slot[LP_REGS_IP] < 0 ||
        capacity < 2)
        return 1;
    // libunwind caches what it parsed by address: another address space's
    // code may sit at the same address.
    if (u->cached_pid != process->pid || u->cached_image != process->image ||
        u->cached_generation != process->generation) {
        api.flush_cache(u->space, 0, 0);
        u->cached_pid = process->pid;
        u->cached_image = process->image;
        u->cached_generation = process->generation;
    }
    u->process = process;
    u->sample = sample;
    u->last = NULL;
    memcpy(&u->sp, sample->regs + (size_t)u->slot[LP_REGS_SP] * 8, 8);
    u->after_pop_rbp = 0;
#if defined(__x86_64__)
    lp_perf_module_t *leaf = lp_perf_find_module(u->state, process, sample->ip - 1);
    uint8_t before = 0;
    u->after_pop_rbp = leaf != NULL && leaf->unwindable &&
                       lp_perf_elf_read(&u->state->elves, leaf->elf, sample->ip - 1 - leaf->bias, &before, 1) == 0 &&
                       before == 0x5d;
#endif
    unw_cursor_t cursor;
    if (api.init_remote(&cursor, u->space, u) < 0) {
        *failed = 1;
        *flags = LP_SAMPLE_UNWIND_FAILED;
        return 1;
    }
    uint32_t depth = 1;
    uint64_t previous_sp = u->sp;
    for (;;) {
        int stepped = api.step(&cursor);
        if (stepped <= 0) {
            *failed = stepped < 0;
            break;
        }
        unw_word_t pc = 0, sp = 0;
        if (api.get_reg(&cursor, UNW_REG_IP, &pc) < 0 || api.get_reg(&cursor, UNW_REG_SP, &sp) < 0) {
            *failed = 1;
            break;
        }
        if (pc == 0) break;  // the outermost frame
        if (sp <= previous_sp) {  // a frame that does not pop: a loop
            *failed = 1;
            break;
        }
        if (depth == capacity) {
            *flags |= LP_SAMPLE_TRUNCATED;
            break;
        }
        frames[depth++] = pc;
        previous_sp = sp;
    }
    if (*failed && depth == 1) *flags |= LP_SAMPLE_UNWIND_FAILED;
    return depth;
}

void lp_perf_unwinder_free(lp_perf_unwinder_t *u) {
    if (u == NULL) return;
    api.destroy_addr_space(u->space);
    free(u);
}
