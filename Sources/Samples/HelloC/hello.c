// A plain C program: the non-Swift reference launch for benchmarks and budgets.
#include <stdio.h>

int main(void) {
    puts("hello from C");
    return 0;
}
