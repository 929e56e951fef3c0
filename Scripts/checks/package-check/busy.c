// A C program for Scripts/checks/check-package.sh to profile through the preload
// library: about 150 ms of CPU in named functions, so that the profile must
// name them. Built with -g and linked dynamically (the preload library
// samples dynamically linked programs only).
#include <stdio.h>

__attribute__((noinline)) static unsigned long lp_check_inner(unsigned long seed) {
    unsigned long value = seed;
    for (int i = 0; i < 1000; i++) value = value * 6364136223846793005UL + 1442695040888963407UL;
    return value;
}

__attribute__((noinline)) static unsigned long lp_check_busy(long rounds) {
    unsigned long total = 0;
    for (long round = 0; round < rounds; round++) total ^= lp_check_inner((unsigned long)round);
    return total;
}

int main(void) {
    printf("%lu\n", lp_check_busy(150000));
    return 0;
}
