// The gate scripts' launch: LP_SPIN rounds of a multiply-add in main, so a
// launch of a chosen length (gate-power.sh, gate-resolution.sh).
#include <stdlib.h>
int main(void) {
    const char *text = getenv("LP_SPIN");
    long rounds = text ? atol(text) : 0;
    volatile unsigned long sum = 0;
    for (long i = 0; i < rounds; i++) sum += (unsigned long)i * 2654435761u;
    return sum == 42 ? 1 : 0;
}
