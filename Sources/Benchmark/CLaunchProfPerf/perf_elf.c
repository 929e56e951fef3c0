// perf_elf.c — the ELF files the samples ran in, each opened once: its
// PT_LOAD segments (load bias, file bytes by virtual address), its GNU build
// id, and its .eh_frame_hdr search table (what libunwind's
// dwarf_search_unwind_table walks). The bytes stay mapped read-only while
// the file is among the LP_PERF_MAX_MAPPED most recently used; an evicted
// one is mapped again when needed, if it is still the same file.
//
// The paths come from the sink and the files from the disk, so neither is
// trusted: only regular files are opened (never a FIFO or a device), and
// every offset and size is checked against the file. A file truncated while
// mapped would fault on access; the files are a run's own program and
// libraries, which nothing rewrites in place (package managers rename).
#define _GNU_SOURCE
#include "perf_internal.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define LP_PERF_MAX_MAPPED 64

#if defined(__x86_64__)
#define LP_PERF_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define LP_PERF_MACHINE EM_AARCH64
#else
#define LP_PERF_MACHINE EM_NONE
#endif

/// Whether [offset, offset + count) is inside a file of `size` bytes.
static int within(uint64_t offset, uint64_t count, uint64_t size) {
    return offset <= size && count <= size - offset;
}

/// A DWARF pointer encoding's value (DW_EH_PE_*): formats absptr, udata2/4/8,
/// sdata2/4/8; applications absolute, pcrel and datarel (both relative to
/// .eh_frame_hdr's start in this use). 0, or -1 when unknown or out of bounds.
static int decode(const uint8_t *at, size_t room, uint8_t encoding, uint64_t field_vaddr, uint64_t hdr_vaddr,
                  uint64_t *value, size_t *used) {
    if (encoding == 0xff) return -1;  // DW_EH_PE_omit
    size_t size;
    int is_signed = 0;
    switch (encoding & 0x0f) {
    case 0x00: size = 8; break;                 // absptr
    case 0x02: size = 2; break;                 // udata2
    case 0x03: size = 4; break;                 // udata4
    case 0x04: size = 8; break;                 // udata8
    case 0x0a: size = 2; is_signed = 1; break;  // sdata2
    case 0x0b: size = 4; is_signed = 1; break;  // sdata4
    case 0x0c: size = 8; is_signed = 1; break;  // sdata8
    default: return -1;                         // (s/u)leb128: not in an eh_frame_hdr we use
    }
    if (size > room) return -1;
    uint64_t v = 0;
    memcpy(&v, at, size);
    if (is_signed && size < 8 && (v >> (size * 8 - 1)) & 1) v |= ~0ull << (size * 8);
    switch (encoding & 0x70) {
    case 0x00: break;
    case 0x10: v += field_vaddr; break;  // pcrel
    case 0x30: v += hdr_vaddr; break;    // datarel
    default: return -1;
    }
    if (encoding & 0x80) return -1;  // indirect
    *value = v;
    *used = size;
    return 0;
}

static void parse_eh_frame_hdr(lp_perf_elf_t *elf, const Elf64_Phdr *hdr) {
    if (!within(hdr->p_offset, hdr->p_filesz, elf->size) || hdr->p_filesz < 4) return;
    const uint8_t *at = elf->data + hdr->p_offset;
    size_t room = (size_t)hdr->p_filesz;
    if (at[0] != 1) return;  // version
    uint8_t frame_encoding = at[1], count_encoding = at[2], table_encoding = at[3];
    size_t offset = 4, used;
    uint64_t frame, count;
    if (decode(at + offset, room - offset, frame_encoding, hdr->p_vaddr + offset, hdr->p_vaddr, &frame, &used) != 0)
        return;
    offset += used;
    if (decode(at + offset, room - offset, count_encoding, hdr->p_vaddr + offset, hdr->p_vaddr, &count, &used) != 0)
        return;
    offset += used;
    // libunwind's remote search reads entries of two sdata4 relative to the header.
    if (table_encoding != 0x3b) return;  // DW_EH_PE_datarel | DW_EH_PE_sdata4
    uint64_t fits = (room - offset) / 8;
    elf->hdr_vaddr = hdr->p_vaddr;
    elf->table_vaddr = hdr->p_vaddr + offset;
    elf->fde_count = count < fits ? count : fits;
}

static void parse_build_id(lp_perf_elf_t *elf, const Elf64_Phdr *note) {
    if (!within(note->p_offset, note->p_filesz, elf->size)) return;
    const uint8_t *at = elf->data + note->p_offset, *end = at + note->p_filesz;
    while ((size_t)(end - at) >= sizeof(Elf64_Nhdr)) {
        Elf64_Nhdr header;
        memcpy(&header, at, sizeof header);
        uint64_t name = ((uint64_t)header.n_namesz + 3) & ~3ull, desc = ((uint64_t)header.n_descsz + 3) & ~3ull;
        at += sizeof header;
        if (name > (uint64_t)(end - at) || desc > (uint64_t)(end - at) - name) return;
        if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 && memcmp(at, "GNU", 4) == 0 &&
            header.n_descsz <= sizeof elf->build_id) {
            memcpy(elf->build_id, at + name, header.n_descsz);
            elf->build_id_length = (uint16_t)header.n_descsz;
            return;
        }
        at += name + desc;
    }
}

/// Reads the headers of the mapped bytes: 1 when it is a usable ELF.
static int parse(lp_perf_elf_t *elf) {
    Elf64_Ehdr eh;
    if (elf->size < sizeof eh) return 0;
    memcpy(&eh, elf->data, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_machine != LP_PERF_MACHINE || eh.e_phentsize != sizeof(Elf64_Phdr) ||
        !within(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr), elf->size))
        return 0;
    elf->low = UINT64_MAX;
    for (uint32_t i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, elf->data + eh.e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_LOAD && elf->load_count < LP_PERF_MAX_LOADS && ph.p_filesz <= ph.p_memsz &&
            ph.p_vaddr + ph.p_memsz >= ph.p_vaddr) {
            elf->loads[elf->load_count++] =
                (lp_perf_segment_t){ph.p_vaddr, ph.p_memsz, ph.p_offset, ph.p_filesz, ph.p_flags};
            if (ph.p_vaddr < elf->low) elf->low = ph.p_vaddr;
            if (ph.p_vaddr + ph.p_memsz > elf->high) elf->high = ph.p_vaddr + ph.p_memsz;
        } else if (ph.p_type == PT_GNU_EH_FRAME) {
            parse_eh_frame_hdr(elf, &ph);
        } else if (ph.p_type == PT_NOTE && elf->build_id_length == 0) {
            parse_build_id(elf, &ph);
        }
    }
    return elf->load_count > 0;
}

static void unmap(lp_perf_elves_t *elves, lp_perf_elf_t *elf) {
    if (elf->data == NULL || elf->is_vdso) return;
    munmap((void *)elf->data, elf->size);
    elf->data = NULL;
    elves->mapped--;
}

/// Maps the file (again); with `first`, records which file it is, else
/// insists on the same one. 0, or -1.
static int map_file(lp_perf_elves_t *elves, lp_perf_elf_t *elf, int first) {
    if (elves->mapped >= LP_PERF_MAX_MAPPED) {
        lp_perf_elf_t *oldest = NULL;
        for (uint32_t i = 0; i < elves->count; i++) {
            lp_perf_elf_t *e = elves->entries[i];
            if (e->data != NULL && !e->is_vdso && (oldest == NULL || e->last_use < oldest->last_use)) oldest = e;
        }
        if (oldest != NULL) unmap(elves, oldest);
    }
    int fd = open(elf->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return -1;
    struct stat st;
    int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX;
    uint64_t mtime = ok ? (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec : 0;
    if (ok && !first)
        ok = elf->size == (size_t)st.st_size && elf->device == st.st_dev && elf->inode == st.st_ino &&
             elf->mtime_ns == mtime;
    void *data = ok ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    close(fd);
    if (data == MAP_FAILED) return -1;
    elf->data = data;
    elf->size = (size_t)st.st_size;
    elf->device = st.st_dev;
    elf->inode = st.st_ino;
    elf->mtime_ns = mtime;
    elves->mapped++;
    return 0;
}

/// This process's own vDSO: the kernel gives every 64-bit process the same
/// image, so it stands for the sampled processes' "[vdso]".
static void use_own_vdso(lp_perf_elf_t *elf) {
    const uint8_t *image = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
    if (image == NULL) return;
    Elf64_Ehdr eh;
    memcpy(&eh, image, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 64) return;
    // Its size: the end of its furthest PT_LOAD's file bytes.
    uint64_t size = eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr);
    for (uint32_t i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, image + eh.e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > size) size = ph.p_offset + ph.p_filesz;
    }
    elf->data = image;
    elf->size = (size_t)size;
    elf->is_vdso = 1;
}

lp_perf_elf_t *lp_perf_elf_get(lp_perf_elves_t *elves, const char *path) {
    for (uint32_t i = 0; i < elves->count; i++)
        if (strcmp(elves->entries[i]->path, path) == 0) return elves->entries[i];
    if (elves->count == elves->capacity) {
        uint32_t capacity = elves->capacity ? elves->capacity * 2 : 64;
        lp_perf_elf_t **grown = realloc(elves->entries, capacity * sizeof *grown);
        if (grown == NULL) return NULL;
        elves->entries = grown;
        elves->capacity = capacity;
    }
    lp_perf_elf_t *elf = calloc(1, sizeof *elf);
    if (elf == NULL || (elf->path = strdup(path)) == NULL) {
        free(elf);
        return NULL;
    }
    elves->entries[elves->count++] = elf;
    if (strcmp(path, "[vdso]") == 0) use_own_vdso(elf);
    else if (path[0] == '/') map_file(elves, elf, 1);
    if (elf->data != NULL) {
        elf->usable = parse(elf);
        elf->last_use = ++elves->clock;
        if (!elf->usable) unmap(elves, elf);
    }
    return elf;
}

int lp_perf_elf_read(lp_perf_elves_t *elves, lp_perf_elf_t *elf, uint64_t vaddr, void *out, size_t count) {
    if (!elf->usable) return -1;
    for (uint32_t i = 0; i < elf->load_count; i++) {
        const lp_perf_segment_t *load = &elf->loads[i];
        if (vaddr < load->vaddr || vaddr - load->vaddr >= load->filesz) continue;
        // libunwind reads aligned words: the last one may pass the file bytes.
        uint64_t offset = load->offset + (vaddr - load->vaddr), have = load->filesz - (vaddr - load->vaddr);
        size_t copied = have < count ? (size_t)have : count;
        if (elf->data == NULL && map_file(elves, elf, 0) != 0) {
            elf->usable = 0;  // gone or replaced since it was first read
            return -1;
        }
        if (!within(offset, copied, elf->size)) return -1;
        elf->last_use = ++elves->clock;
        memcpy(out, elf->data + offset, copied);
        memset((uint8_t *)out + copied, 0, count - copied);
        return 0;
    }
    return -1;
}

uint64_t lp_perf_elf_bias(const lp_perf_elf_t *elf, uint64_t start, uint64_t pgoff) {
    // The segment whose file bytes the mapping starts in (the mapping starts
    // at the page of its p_offset): runtime start = bias + p_vaddr + (pgoff - p_offset).
    // Executable segments first: the kernel reports executable mappings, and
    // a page may hold the end of one segment and the start of the next.
    for (int pass = 0; elf != NULL && elf->usable && pass < 2; pass++) {
        for (uint32_t i = 0; i < elf->load_count; i++) {
            const lp_perf_segment_t *load = &elf->loads[i];
            uint64_t page = load->offset & ~4095ull;
            if (((load->flags & PF_X) != 0) != (pass == 0)) continue;
            if (pgoff >= page && pgoff - page < load->filesz + (load->offset - page))
                return start - load->vaddr - pgoff + load->offset;
        }
    }
    // No ELF: as if its file offsets were its virtual addresses (true of
    // most shared libraries), so that addresses still name file offsets.
    return start - pgoff;
}

void lp_perf_elves_free(lp_perf_elves_t *elves) {
    for (uint32_t i = 0; i < elves->count; i++) {
        unmap(elves, elves->entries[i]);
        free(elves->entries[i]->path);
        free(elves->entries[i]);
    }
    free(elves->entries);
    memset(elves, 0, sizeof *elves);
}
