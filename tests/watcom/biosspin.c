/* biosspin.c: a DOS program that times itself by the BIOS tick count at
 * 0040:006C (TIMER_LOW, IBM PC/AT Technical Reference, BIOS data area),
 * reading it in a busy loop as Turbo Pascal's CRT unit does to calibrate
 * Delay: for four ticks it waits for the count to change, counting the
 * loop's passes (tests/timed_inline.rs).
 *
 * Prints "tick I passes N" for each, then "done". The numbers of passes
 * tell where each tick fell in the program's execution; the test runs it
 * with the clock derived from the instruction count and with the clock
 * kept block by block, and compares them.
 */
#include <dos.h>
#include <stdio.h>

static volatile unsigned long __far *count = (unsigned long __far *)MK_FP(0x40, 0x6C);

int main(void)
{
    int i;
    unsigned long passes[4];

    for (i = 0; i < 4; i++) {
        unsigned long start = *count;
        unsigned long n = 0;
        while (*count == start)
            n++;
        passes[i] = n;
    }
    for (i = 0; i < 4; i++)
        printf("tick %d passes %lu\n", i, passes[i]);
    printf("done\n");
    return 0;
}
