// sampler_modules.c — the loaded-module map written beside the samples.
//
// Modules come from dl_iterate_phdr when the trace is encoded (normal
// context, never in the handler, and not when sampling stops, which is on the
// launch's way to ready): the loader's own list gives each object's load
// bias, its PT_LOAD ranges and its GNU build id (the PT_NOTE segments are
// mapped), with no parsing of /proc/self/maps and no reading of files. A
// library unloaded before the trace is written is missing from the map; its
// frames stay as addresses (docs/trace-format.md).
#define _GNU_SOURCE
#include "sampler_internal.h"

#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


typedef struct {
    lp_module_t *modules;
    uint32_t count, capacity;
} module_list_t;

const uint8_t *lp_find_note(const struct dl_phdr_info *info, uint32_t type, const char *name,
                            uint32_t *desc_size) {
    uint32_t name_length = (uint32_t)strlen(name) + 1;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *phdr = &info->dlpi_phdr[i];
        if (phdr->p_type != PT_NOTE) continue;
        const uint8_t *at = (const uint8_t *)(info->dlpi_addr + phdr->p_vaddr);
        const uint8_t *end = at + phdr->p_memsz;
        while (at + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)at;
            size_t padded_name = (note->n_namesz + 3) & ~(size_t)3;
            size_t padded_desc = (note->n_descsz + 3) & ~(size_t)3;
            const uint8_t *note_name = at + sizeof *note;
            const uint8_t *desc = note_name + padded_name;
            if (desc + padded_desc > end) break;
            if (note->n_type == type && note->n_namesz == name_length && memcmp(note_name, name, name_length) == 0) {
                *desc_size = note->n_descsz;
                return desc;
            }
            at = desc + padded_desc;
        }
    }
    return NULL;
}

static void read_build_id(const struct dl_phdr_info *info, lp_module_t *module) {
    uint32_t size = 0;
    const uint8_t *desc = lp_find_note(info, NT_GNU_BUILD_ID, "GNU", &size);
    if (desc == NULL || size > sizeof module->build_id) return;
    memcpy(module->build_id, desc, size);
    module->build_id_length = (uint16_t)size;
}

static int add_module(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    module_list_t *list = context;
    if (list->count == list->capacity) {
        uint32_t capacity = list->capacity ? list->capacity * 2 : 64;
        lp_module_t *grown = realloc(list->modules, capacity * sizeof *grown);
        if (grown == NULL) return 1;
        list->modules = grown;
        list->capacity = capacity;
    }
    lp_module_t module;
    memset(&module, 0, sizeof module);
    module.bias = info->dlpi_addr;
    uint64_t low = UINT64_MAX, high = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *phdr = &info->dlpi_phdr[i];
        if (phdr->p_type != PT_LOAD) continue;
        uint64_t start = info->dlpi_addr + phdr->p_vaddr;
        if (start < low) low = start;
        if (start + phdr->p_memsz > high) high = start + phdr->p_memsz;
    }
    if (high == 0) return 0;  // nothing mapped
    module.start = low;
    module.end = high;
    const char *name = info->dlpi_name;
    char exe[4096];
    if (list->count == 0 && (name == NULL || *name == '\0')) {
        // The main program: the loader lists it with an empty name.
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = '\0';
        name = exe;
    }
    module.path = strdup(name != NULL ? name : "");
    if (module.path == NULL) return 1;
    read_build_id(info, &module);
    list->modules[list->count++] = module;
    return 0;
}

void lp_sampler_snapshot_modules(void) {
    // A trace written mid-launch took one already: the later one is fuller.
    for (uint32_t i = 0; i < lp_sampler_state.module_count; i++) free(lp_sampler_state.modules[i].path);
    free(lp_sampler_state.modules);
    lp_sampler_state.modules = NULL;
    lp_sampler_state.module_count = 0;
    module_list_t list = {NULL, 0, 0};
    dl_iterate_phdr(add_module, &list);
    lp_sampler_state.modules = list.modules;
    lp_sampler_state.module_count = list.count;
    lp_sampler_state.modules_final = __atomic_load_n(&lp_sampler_state.stopped, __ATOMIC_ACQUIRE);
}
