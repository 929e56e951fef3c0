// gate-pinning.sh's launch: LP_THREADS threads (default 1), each spinning
// LP_WORK_MS milliseconds of its own CPU time (default 10) at once, then
// exit. Two threads of 10 ms take 10 ms on two free CPUs and 20 ms on one.
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static double work_ms = 10;

static double cpu_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

static void *spin(void *unused) {
    (void)unused;
    double start = cpu_ms();
    volatile unsigned long sum = 0;
    while (cpu_ms() - start < work_ms)
        for (unsigned long i = 0; i < 10000; i++) sum += i * 2654435761u;
    return NULL;
}

int main(void) {
    const char *threads_text = getenv("LP_THREADS"), *work_text = getenv("LP_WORK_MS");
    int threads = threads_text ? atoi(threads_text) : 1;
    if (threads < 1 || threads > 64) return 2;
    if (work_text) work_ms = atof(work_text);
    pthread_t others[64];
    for (int i = 1; i < threads; i++)
        if (pthread_create(&others[i], NULL, spin, NULL) != 0) return 3;
    spin(NULL);
    for (int i = 1; i < threads; i++) pthread_join(others[i], NULL);
    return 0;
}
