// perf_maps.c — each process's executable mappings as the records replay
// them in time order (MMAP/MMAP2 add, an exec's COMM empties, FORK copies),
// the modules they belong to, and the threads' names.
//
// A module is a (path, load bias) pair: one per library per address-space
// layout, so the same library at two addresses in two processes is two
// modules (perf_encode.c picks which go into the section).
#define _GNU_SOURCE
#include "perf_internal.h"

#include <stdlib.h>
#include <string.h>

static int grow(void **array, uint32_t *capacity, uint32_t count, size_t element) {
    if (count < *capacity) return 0;
    uint32_t grown = *capacity ? *capacity * 2 : 16;
    void *bigger = realloc(*array, (size_t)grown * element);
    if (bigger == NULL) return -1;
    *array = bigger;
    *capacity = grown;
    return 0;
}

lp_perf_process_t *lp_perf_process(lp_perf_state_t *state, uint32_t pid, int create) {
    if (state->last_process < state->process_count && state->processes[state->last_process].pid == pid)
        return &state->processes[state->last_process];
    for (uint32_t i = 0; i < state->process_count; i++) {
        if (state->processes[i].pid == pid) {
            state->last_process = i;
            return &state->processes[i];
        }
    }
    if (!create ||
        grow((void **)&state->processes, &state->process_capacity, state->process_count, sizeof *state->processes))
        return NULL;
    lp_perf_process_t *process = &state->processes[state->process_count];
    memset(process, 0, sizeof *process);
    process->pid = pid;
    process->image = ++state->next_image;
    state->last_process = state->process_count++;
    return process;
}

/// The module for `path` mapped at `start` from `pgoff`: found, or added.
static int module_for(lp_perf_state_t *state, const lp_perf_item_t *item, uint32_t image, uint32_t *index) {
    const char *path = item->name;
    lp_perf_elf_t *elf = NULL;
    // Files, and the vDSO; anonymous code ("//anon", JIT) has no module.
    if (path[0] == '/' || strcmp(path, "[vdso]") == 0) {
        elf = lp_perf_elf_get(&state->elves, path);
        if (elf == NULL) return -1;
    } else {
        *index = UINT32_MAX;
        return 0;
    }
    uint64_t bias = lp_perf_elf_bias(elf, item->addr, item->pgoff);
    for (uint32_t i = 0; i < state->module_count; i++) {
        lp_perf_module_t *m = &state->modules[i];
        if (m->elf == elf && m->bias == bias) {
            if (item->addr < m->start) m->start = item->addr;
            if (item->addr + item->length > m->end) m->end = item->addr + item->length;
            *index = i;
            return 0;
        }
    }
    if (grow((void **)&state->modules, &state->module_capacity, state->module_count, sizeof *state->modules))
        return -1;
    lp_perf_module_t *m = &state->modules[state->module_count];
    memset(m, 0, sizeof *m);
    m->elf = elf;
    m->path = elf->path;
    m->bias = bias;
    m->start = item->addr;
    m->end = item->addr + item->length;
    m->image = image;
    m->unwindable = (uint8_t)(elf->usable != 0);
    if (elf->usable) {
        m->low = bias + elf->low;
        m->high = bias + elf->high;
    }
    if (m->high <= m->low) {
        m->low = m->start;
        m->high = m->end;
    }
    if (item->build_id_size > 0) {
        // The kernel's build id is the mapped file's: a file on disk with
        // another one was replaced since, and its tables would lie.
        memcpy(m->build_id, item->build_id, item->build_id_size);
        m->build_id_length = item->build_id_size;
        if (elf->build_id_length != item->build_id_size || memcmp(elf->build_id, item->build_id, item->build_id_size))
            m->unwindable = 0;
    } else {
        memcpy(m->build_id, elf->build_id, elf->build_id_length);
        m->build_id_length = elf->build_id_length;
    }
    *index = state->module_count++;
    return 0;
}

int lp_perf_apply_mmap(lp_perf_state_t *state, const lp_perf_item_t *item) {
    if (!(item->prot & 4) || item->length == 0) return 0;  // not executable: not code
    lp_perf_process_t *process = lp_perf_process(state, item->pid, 1);
    if (process == NULL) return -1;
    uint32_t module;
    if (module_for(state, item, process->image, &module) != 0) return -1;
    uint64_t start = item->addr, end = item->addr + item->length;
    // A new mapping replaces what it overlaps: trim or split the old ones.
    lp_perf_map_t *maps = process->maps;
    uint32_t kept = 0, count = process->map_count;
    lp_perf_map_t tail = {0, 0, 0};
    for (uint32_t i = 0; i < count; i++) {
        lp_perf_map_t map = maps[i];
        if (map.end <= start || map.start >= end) {
            maps[kept++] = map;
            continue;
        }
        process->generation++;
        if (map.end > end) tail = (lp_perf_map_t){end, map.end, map.module};
        if (map.start < start) {
            map.end = start;
            maps[kept++] = map;
        }
    }
    process->map_count = kept;
    for (int pass = 0; pass < 2; pass++) {
        lp_perf_map_t map = pass == 0 ? (lp_perf_map_t){start, end, module} : tail;
        if (map.end <= map.start) continue;
        if (grow((void **)&process->maps, &process->map_capacity, process->map_count, sizeof *process->maps))
            return -1;
        uint32_t at = process->map_count;
        while (at > 0 && process->maps[at - 1].start > map.start) at--;
        memmove(&process->maps[at + 1], &process->maps[at], (process->map_count - at) * sizeof *process->maps);
        process->maps[at] = map;
        process->map_count++;
    }
    return 0;
}

int lp_perf_apply_exec(lp_perf_state_t *state, uint32_t pid) {
    lp_perf_process_t *process = lp_perf_process(state, pid, 1);
    if (process == NULL) return -1;
    process->map_count = 0;
    process->image = ++state->next_image;
    process->generation++;
    return 0;
}

int lp_perf_apply_fork(lp_perf_state_t *state, uint32_t pid, uint32_t parent) {
    if (pid == parent) return 0;  // a thread: it shares the mappings
    lp_perf_process_t *from = lp_perf_process(state, parent, 0);
    uint32_t from_index = from != NULL ? (uint32_t)(from - state->processes) : UINT32_MAX;
    lp_perf_process_t *child = lp_perf_process(state, pid, 1);  // may move `processes`
    if (child == NULL) return -1;
    child->parent = parent;
    state->tree_epoch++;  // a parent changed: remembered answers are stale
    if (state->tree_epoch == 0) state->tree_epoch = 1;
    child->image = ++state->next_image;
    child->generation++;
    child->map_count = 0;
    if (from_index == UINT32_MAX) return 0;
    from = &state->processes[from_index];
    if (from->map_count > child->map_capacity) {
        lp_perf_map_t *maps = realloc(child->maps, from->map_count * sizeof *maps);
        if (maps == NULL) return -1;
        child->maps = maps;
        child->map_capacity = from->map_count;
    }
    if (from->map_count > 0) memcpy(child->maps, from->maps, from->map_count * sizeof *from->maps);
    child->map_count = from->map_count;
    return 0;
}

int lp_perf_name_thread(lp_perf_state_t *state, uint32_t tid, uint32_t pid, const char *name, uint32_t from) {
    lp_perf_thread_t *thread = (lp_perf_thread_t *)lp_perf_find_thread(state, tid);
    if (thread == NULL) {
        if (grow((void **)&state->threads, &state->thread_capacity, state->thread_count, sizeof *state->threads))
            return -1;
        thread = &state->threads[state->thread_count++];
        memset(thread, 0, sizeof *thread);
        thread->tid = tid;
    }
    thread->pid = pid;
    if (name == NULL) {
        // A new thread or process starts with its creator's name.
        const lp_perf_thread_t *creator = lp_perf_find_thread(state, from);
        if (creator == NULL || creator == thread) return 0;
        name = creator->name;
    }
    char copy[16] = {0};
    memcpy(copy, name, strnlen(name, sizeof copy - 1));
    memcpy(thread->name, copy, sizeof copy);
    return 0;
}

const lp_perf_thread_t *lp_perf_find_thread(const lp_perf_state_t *state, uint32_t tid) {
    // Newest first: a launch's threads are named as they start.
    for (uint32_t i = state->thread_count; i-- > 0;)
        if (state->threads[i].tid == tid) return &state->threads[i];
    return NULL;
}

const lp_perf_map_t *lp_perf_find_map(const lp_perf_process_t *process, uint64_t address) {
    uint32_t low = 0, high = process->map_count;
    while (low < high) {
        uint32_t middle = low + (high - low) / 2;
        const lp_perf_map_t *map = &process->maps[middle];
        if (address < map->start) high = middle;
        else if (address >= map->end) low = middle + 1;
        else return map;
    }
    return NULL;
}

lp_perf_module_t *lp_perf_find_module(lp_perf_state_t *state, const lp_perf_process_t *process, uint64_t address) {
    // The executable mapping first (code, and most unwind tables next to
    // it), then any module of the process whose PT_LOAD range holds it
    // (.eh_frame in a read-only segment the kernel did not report).
    const lp_perf_map_t *map = lp_perf_find_map(process, address);
    if (map != NULL) return map->module < state->module_count ? &state->modules[map->module] : NULL;
    for (uint32_t i = 0; i < process->map_count; i++) {
        uint32_t index = process->maps[i].module;
        if (index >= state->module_count) continue;
        lp_perf_module_t *m = &state->modules[index];
        if (address >= m->low && address < m->high) return m;
    }
    return NULL;
}

int lp_perf_in_tree(lp_perf_state_t *state, uint32_t pid, uint32_t root) {
    // Any depth (it once stopped at 256 hops: a process 300 forks deep was
    // never sampled). Every process on the way shares the answer, which is
    // remembered, so a deep tree costs one walk, not one per sample.
    if (state->tree_epoch == 0 || state->tree_root != root) {
        state->tree_epoch++;
        if (state->tree_epoch == 0) state->tree_epoch = 1;
        state->tree_root = root;
    }
    uint32_t at = pid;
    uint64_t hops = 0;
    int found = 0;
    // At most one hop per known process: a longer chain is a cycle.
    for (; at != 0 && hops <= state->process_count; hops++) {
        if (at == root) {
            found = 1;
            break;
        }
        const lp_perf_process_t *process = lp_perf_process(state, at, 0);
        if (process == NULL) break;
        if (process->tree_epoch == state->tree_epoch) {
            found = process->in_tree;
            break;
        }
        at = process->parent;
    }
    // Remember the answer on the processes walked (the same chain again).
    at = pid;
    for (uint64_t i = 0; i < hops && at != 0; i++) {
        lp_perf_process_t *process = lp_perf_process(state, at, 0);
        if (process == NULL) break;
        process->tree_epoch = state->tree_epoch;
        process->in_tree = (uint8_t)found;
        at = process->parent;
    }
    return found;
}

void lp_perf_state_free(lp_perf_state_t *state) {
    for (uint32_t i = 0; i < state->process_count; i++) free(state->processes[i].maps);
    free(state->processes);
    free(state->modules);
    free(state->threads);
    lp_perf_elves_free(&state->elves);
    memset(state, 0, sizeof *state);
}
