// interrupt.c — the signals that interrupt launchprof, turned into a byte on
// a pipe by a handler installed with sigaction(2).
//
// A Dispatch signal source is registered only after resume() returns, on
// Dispatch's manager thread, and the signal must be ignored meanwhile (so
// that its default action does not kill the process): a SIGTERM or Ctrl-C
// in that window was lost. sigaction is in place when it returns, and the
// handler does one thing that is async-signal-safe: write(2) of a byte to
// each registered pipe (non-blocking: a full pipe is already readable).
#define _GNU_SOURCE
#include "launchprof_spawn.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <unistd.h>

enum { LP_INTERRUPT_SLOTS = 8 };

/// The write ends of the registered pipes, -1 where free (atomic).
static int interrupt_pipes[LP_INTERRUPT_SLOTS] = {-1, -1, -1, -1, -1, -1, -1, -1};

static void interrupt_handler(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    for (size_t slot = 0; slot < LP_INTERRUPT_SLOTS; slot++) {
        int fd = __atomic_load_n(&interrupt_pipes[slot], __ATOMIC_ACQUIRE);
        if (fd >= 0) (void)!write(fd, &byte, 1);
    }
    errno = saved;
}

int lp_interrupt_register(int write_end) {
    for (size_t slot = 0; slot < LP_INTERRUPT_SLOTS; slot++) {
        int expected = -1;
        if (__atomic_compare_exchange_n(&interrupt_pipes[slot], &expected, write_end, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            return 0;
        }
    }
    errno = EMFILE;
    return -1;
}

void lp_interrupt_unregister(int write_end) {
    for (size_t slot = 0; slot < LP_INTERRUPT_SLOTS; slot++) {
        int expected = write_end;
        __atomic_compare_exchange_n(&interrupt_pipes[slot], &expected, -1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
}

int lp_interrupt_catch(int number) {
    struct sigaction action = {0};
    action.sa_handler = interrupt_handler;
    action.sa_flags = SA_RESTART;
    sigfillset(&action.sa_mask);
    return sigaction(number, &action, NULL);
}
