// perf_internal.h — what the files of CLaunchProfPerf share (not public):
// the sink as read (perf_reader.c), the ELF files (perf_elf.c), the
// processes' mappings and the modules (perf_maps.c), the unwinder
// (perf_unwind.c); perf_encode.c runs them in time order.
#ifndef LAUNCHPROF_PERF_INTERNAL_H
#define LAUNCHPROF_PERF_INTERNAL_H

#include "launchprof_perf.h"
#include "launchprof_sampler.h"
#include "launchprof_spawn.h"

#include <stddef.h>
#include <stdint.h>

/// The first error wins: "<path>: <what is wrong>" in the caller's buffer.
typedef struct lp_perf_error {
    char *text;
    size_t capacity;
    const char *path;
    int set;
} lp_perf_error_t;

/// Formats the error (after "<path>: ") unless one was set; returns -1.
int lp_perf_fail(lp_perf_error_t *error, const char *format, ...) __attribute__((format(printf, 2, 3)));

/// PERF_RECORD_* values read here (linux/perf_event.h).
enum {
    LP_PERF_RECORD_MMAP = 1,
    LP_PERF_RECORD_LOST = 2,
    LP_PERF_RECORD_COMM = 3,
    LP_PERF_RECORD_EXIT = 4,
    LP_PERF_RECORD_THROTTLE = 5,
    LP_PERF_RECORD_UNTHROTTLE = 6,
    LP_PERF_RECORD_FORK = 7,
    LP_PERF_RECORD_SAMPLE = 9,
    LP_PERF_RECORD_MMAP2 = 10,
    LP_PERF_RECORD_LOST_SAMPLES = 13,
};
#define LP_PERF_MISC_COMM_EXEC 0x2000u
#define LP_PERF_MISC_MMAP_BUILD_ID 0x4000u
#define LP_PERF_MISC_CPUMODE_MASK 0x7u
#define LP_PERF_MISC_KERNEL 0x1u

/// The stack pointer's and the PC's numbers in perf_regs.h (the bits of
/// `sample_regs_user`).
#if defined(__x86_64__)
#define LP_REGS_SP 7
#define LP_REGS_IP 8
#elif defined(__aarch64__)
#define LP_REGS_SP 31
#define LP_REGS_IP 32
#else
#define LP_REGS_SP 0
#define LP_REGS_IP 0
#endif

/// One record that matters for the samples, parsed and bounds-checked;
/// pointers are into the sink's bytes.
typedef struct lp_perf_item {
    uint64_t time;
    uint32_t order;       ///< Position in the file: ties keep it.
    uint16_t type;        ///< LP_PERF_RECORD_*
    uint16_t misc;
    uint32_t pid, tid;
    /// MMAP, MMAP2: address, length, file offset. FORK, EXIT: parent pid and tid in `addr`, `length`.
    uint64_t addr, length, pgoff;
    uint32_t prot;        ///< MMAP2's; MMAP: PROT_EXEC (only executable mappings are reported)
    uint8_t build_id_size;
    const uint8_t *build_id;
    const char *name;     ///< MMAP's file name, COMM's name: NUL-terminated inside the record
    // SAMPLE:
    uint64_t ip;
    const uint8_t *regs;  ///< regs_count u64 (unaligned), NULL when the sample has none
    const uint8_t *stack; ///< the copied stack, `stack_size` bytes (its dyn_size)
    uint64_t stack_size;
    uint8_t bad_stack;    ///< dyn_size above the bytes copied, or 32-bit registers: no walk
    /// Taken in the kernel (a system call, a page fault): `ip` is the user
    /// PC from the registers, where the thread entered the kernel.
    uint8_t in_kernel;
} lp_perf_item_t;

/// The sink, read whole and checked.
typedef struct lp_perf_sink {
    uint8_t *bytes;
    size_t size;
    struct lp_perf_sink_header header;
    uint32_t regs_count;           ///< registers per sample: bits in regs_user_mask
    lp_perf_item_t *items;         ///< sorted by time when lp_perf_read_sink returns
    size_t count;
    uint64_t samples, lost_records, lost_samples, throttled;
    /// The spawner's LP_PERF_RECORD_TASK_CLOCK: the CPU time the events
    /// counted and when sampling stopped; 0 when it wrote none.
    uint64_t task_clock_ns, stopped_ns;
    /// The spawner's LP_PERF_RECORD_MAPS_MISSED was there.
    uint32_t maps_missed;
} lp_perf_sink_t;

/// Opens the sink at `path` for reading without blocking (a FIFO there does
/// not hang; it is refused by lp_perf_read_sink): the descriptor, or -1 with
/// the error set.
int lp_perf_open_sink(const char *path, lp_perf_error_t *error);
/// Reads and checks the sink open at `fd` (from its start, whatever its
/// offset; only a regular file); 0, or -1 with the error set.
int lp_perf_read_sink(int fd, lp_perf_sink_t *sink, lp_perf_error_t *error);
void lp_perf_free_sink(lp_perf_sink_t *sink);

// MARK: - ELF files (perf_elf.c)

typedef struct lp_perf_segment {
    uint64_t vaddr, memsz, offset, filesz;
    uint32_t flags;
} lp_perf_segment_t;

#define LP_PERF_MAX_LOADS 16

/// One ELF file, parsed once; its bytes mapped read-only while it is among
/// the most recently used (LP_PERF_MAX_MAPPED), mapped again when needed.
typedef struct lp_perf_elf {
    char *path;
    int usable;                      ///< parsed: a 64-bit ELF of this machine
    int is_vdso;                     ///< this process's own vDSO: never unmapped
    const uint8_t *data;             ///< NULL while unmapped
    size_t size;
    uint64_t device, inode, mtime_ns;
    uint64_t last_use;
    lp_perf_segment_t loads[LP_PERF_MAX_LOADS];
    uint32_t load_count;
    uint64_t low, high;              ///< vaddr range of the PT_LOAD segments
    uint64_t hdr_vaddr;              ///< .eh_frame_hdr
    uint64_t table_vaddr, fde_count; ///< its binary search table (0 entries: none usable)
    uint8_t build_id[64];
    uint16_t build_id_length;
} lp_perf_elf_t;

typedef struct lp_perf_elves {
    lp_perf_elf_t **entries;
    uint32_t count, capacity, mapped;
    uint64_t clock;
} lp_perf_elves_t;

/// The file at `path` (or "[vdso]"), parsed on first use; never NULL once
/// memory allows (an unreadable file is an entry that is not `usable`).
lp_perf_elf_t *lp_perf_elf_get(lp_perf_elves_t *elves, const char *path);
/// Copies `count` bytes at ELF virtual address `vaddr` from the file: 0
/// when `vaddr` is among a segment's file bytes (what lies past them, .bss,
/// reads as zeros), or -1.
int lp_perf_elf_read(lp_perf_elves_t *elves, lp_perf_elf_t *elf, uint64_t vaddr, void *out, size_t count);
/// The load bias of a mapping of `elf` at `start` from file offset `pgoff`.
uint64_t lp_perf_elf_bias(const lp_perf_elf_t *elf, uint64_t start, uint64_t pgoff);
void lp_perf_elves_free(lp_perf_elves_t *elves);

// MARK: - Processes and modules (perf_maps.c)

/// A (path, load bias) the run mapped executable: a module of the section.
typedef struct lp_perf_module {
    lp_perf_elf_t *elf;              ///< the file (or "[vdso]"): anonymous code has no module
    const char *path;                ///< the elf's path
    uint64_t bias;
    uint64_t start, end;             ///< runtime range of its executable mappings
    uint64_t low, high;              ///< runtime range of its PT_LOAD segments (the exec range without an ELF)
    uint8_t build_id[64];
    uint16_t build_id_length;
    uint8_t unwindable;              ///< the ELF is the file that was mapped (build ids agree)
    uint8_t used;                    ///< a kept sample has a frame in it
    uint8_t preferred;               ///< mapped by the launched process's last image
    uint32_t image;                  ///< the image that mapped it first
} lp_perf_module_t;

typedef struct lp_perf_map {
    uint64_t start, end;
    uint32_t module;                 ///< index in modules, or UINT32_MAX (no file)
} lp_perf_map_t;

typedef struct lp_perf_process {
    uint32_t pid, parent;            ///< parent 0: unknown
    uint32_t image;                  ///< changes at exec (and at fork: a copy)
    uint32_t generation;             ///< changes when a mapping is replaced
    lp_perf_map_t *maps;             ///< sorted by start, disjoint
    uint32_t map_count, map_capacity;
    /// Whether it descends from the launched process, as found when the
    /// state's tree_epoch was `tree_epoch` (lp_perf_in_tree).
    uint32_t tree_epoch;
    uint8_t in_tree;
} lp_perf_process_t;

typedef struct lp_perf_thread {
    uint32_t tid, pid;
    char name[16];
} lp_perf_thread_t;

typedef struct lp_perf_state {
    lp_perf_elves_t elves;
    lp_perf_module_t *modules;
    uint32_t module_count, module_capacity;
    lp_perf_process_t *processes;
    uint32_t process_count, process_capacity;
    lp_perf_thread_t *threads;
    uint32_t thread_count, thread_capacity;
    uint32_t next_image;
    uint32_t last_process;           ///< index of the last process found
    /// Changes whenever a parent does (a FORK record) or the root asked
    /// about: the processes' remembered answers of lp_perf_in_tree are then stale.
    uint32_t tree_epoch, tree_root;
} lp_perf_state_t;

/// The process `pid`, created (unknown parent, empty maps) when `create`.
lp_perf_process_t *lp_perf_process(lp_perf_state_t *state, uint32_t pid, int create);
/// The side-band records: 0, or -1 when memory ran out.
int lp_perf_apply_mmap(lp_perf_state_t *state, const lp_perf_item_t *item);
int lp_perf_apply_exec(lp_perf_state_t *state, uint32_t pid);
int lp_perf_apply_fork(lp_perf_state_t *state, uint32_t pid, uint32_t parent);
/// Names `tid` (of process `pid`); `name` NULL: inherits `from`'s name.
int lp_perf_name_thread(lp_perf_state_t *state, uint32_t tid, uint32_t pid, const char *name, uint32_t from);
const lp_perf_thread_t *lp_perf_find_thread(const lp_perf_state_t *state, uint32_t tid);
/// The mapping of `process` that holds `address`, or NULL.
const lp_perf_map_t *lp_perf_find_map(const lp_perf_process_t *process, uint64_t address);
/// The module of `process` whose PT_LOAD range holds `address`, or NULL.
lp_perf_module_t *lp_perf_find_module(lp_perf_state_t *state, const lp_perf_process_t *process, uint64_t address);
/// Whether `pid` is `root` or descends from it, at any depth: the FORK
/// records' parents followed up, the answer remembered for every process
/// on the way until a parent changes. A chain longer than the processes
/// known is a cycle (a hostile sink), which is not the tree.
int lp_perf_in_tree(lp_perf_state_t *state, uint32_t pid, uint32_t root);
void lp_perf_state_free(lp_perf_state_t *state);

// MARK: - The unwinder (perf_unwind.c)

typedef struct lp_perf_unwinder lp_perf_unwinder_t;

/// libunwind opened (once per process) and an address space of our
/// accessors over `state`; NULL with the error set.
lp_perf_unwinder_t *lp_perf_unwinder_new(lp_perf_state_t *state, const lp_perf_sink_t *sink, lp_perf_error_t *error);
/// Walks `sample`'s stack in `process` (its mappings now): PCs leaf first
/// into `frames` (at most `capacity`), the LP_SAMPLE_* flags in `*flags`,
/// and whether the walk ended on an error in `*failed`. Returns the depth (≥ 1).
uint32_t lp_perf_unwind(lp_perf_unwinder_t *unwinder, lp_perf_process_t *process, const lp_perf_item_t *sample,
                        uint64_t *frames, uint32_t capacity, uint16_t *flags, int *failed);
void lp_perf_unwinder_free(lp_perf_unwinder_t *unwinder);

#endif
