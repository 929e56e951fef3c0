// sampler_loader.c — keeping the handler out of the dynamic loader's locks.
//
// libunwind looks unwind tables up with dl_iterate_phdr, which takes glibc's
// dl_load_write_lock, and a first touch of its thread-local data can take
// dl_load_tls_lock. Both are recursive mutexes, but a thread interrupted
// *while acquiring* one (dlopen, dlclose, pthread_create) has set the lock
// word without yet recording itself as owner: the handler's own acquire then
// waits for itself, forever (found by the 10 kHz dlopen test; gperftools
// issues 775, 1188, 1583 are the same trap). So the handler first looks at
// both lock words and, if either is taken, records the interrupted PC alone.
//
// glibc does not export the locks. They live in _rtld_global (exported,
// GLIBC_PRIVATE); the write lock is found at start-up from inside a
// dl_iterate_phdr callback, where it is the one recursive mutex of
// _rtld_global owned by the calling thread, and the TLS lock is the mutex
// declared right after it. Anything unexpected and the check is off, which
// the samples section records (flag bit 1).
#define _GNU_SOURCE
#include "sampler_internal.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <string.h>


typedef struct {
    uint8_t *base;
    size_t size;
    int32_t tid;
    pthread_mutex_t *found;
    int matches;
} lock_search_t;

static int owned_recursive(const pthread_mutex_t *mutex, int32_t tid) {
    return mutex->__data.__lock != 0 && mutex->__data.__owner == tid && mutex->__data.__count >= 1 &&
           mutex->__data.__kind == PTHREAD_MUTEX_RECURSIVE_NP;
}

static int search_locks(struct dl_phdr_info *info, size_t size, void *data) {
    (void)info;
    (void)size;
    lock_search_t *search = data;
    for (size_t at = 0; at + sizeof(pthread_mutex_t) <= search->size; at += 8) {
        pthread_mutex_t *mutex = (pthread_mutex_t *)(search->base + at);
        if (owned_recursive(mutex, search->tid)) {
            search->found = mutex;
            search->matches++;
        }
    }
    return 1;  // once is enough: the lock is held for the whole iteration
}

void lp_sampler_find_loader_locks(void) {
    void *rtld = dlsym(RTLD_DEFAULT, "_rtld_global");
    Dl_info where;
    const ElfW(Sym) *symbol = NULL;
    if (rtld == NULL || dladdr1(rtld, &where, (void **)&symbol, RTLD_DL_SYMENT) == 0 || symbol == NULL) return;
    lock_search_t search = {rtld, symbol->st_size, (int32_t)lp_sampler_gettid(), NULL, 0};
    dl_iterate_phdr(search_locks, &search);
    if (search.matches != 1) return;
    pthread_mutex_t *write_lock = search.found;
    pthread_mutex_t *tls_lock = write_lock + 1;
    if ((uint8_t *)(tls_lock + 1) > search.base + search.size) return;
    if (write_lock->__data.__lock != 0 || tls_lock->__data.__kind != PTHREAD_MUTEX_RECURSIVE_NP) return;
    lp_sampler_state.loader_locks[0] = write_lock;
    lp_sampler_state.loader_locks[1] = tls_lock;
}

int lp_sampler_loader_busy(void) {
    if (lp_sampler_state.loader_locks[0] == NULL) return 0;
    return __atomic_load_n(&lp_sampler_state.loader_locks[0]->__data.__lock, __ATOMIC_ACQUIRE) != 0 ||
           __atomic_load_n(&lp_sampler_state.loader_locks[1]->__data.__lock, __ATOMIC_ACQUIRE) != 0;
}
