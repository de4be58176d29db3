/* A fuzz seed (examples/fuzz.rs, target `programs`): arithmetic,
 * floating point (the 8087 emulator's fixups), far data and recursion. */
#include <stdio.h>

static long fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static char far table[256];

int main(void)
{
    double x = 1.0;
    int i;
    unsigned sum = 0;

    for (i = 0; i < 20; i++) {
        x = x * 1.5 + 0.25;
    }
    for (i = 0; i < 256; i++) {
        table[i] = (char)(i * 7);
        sum += (unsigned char)table[i];
    }
    printf("%ld %u %d\n", fib(15), sum, (int)x);
    return 0;
}
