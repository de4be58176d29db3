/* tickchain.c -- a DOS program with its own timer handler (INT 08h,
 * IRQ 0) that reads the BIOS tick count (0040:006C, TIMER_LOW/HIGH)
 * before and after calling the handler it replaced, then for three ticks
 * does not call it at all (it acknowledges the interrupt itself, EOI to
 * port 20h). The BIOS's INT 08h handler is what advances the count (IBM
 * PC/AT Technical Reference, BIOS listing, TIMER_INT: "INCREMENT TIME"),
 * so the count moves by one inside each chained call and not at all
 * while the BIOS handler is not called. tests/dos.rs checks the lines. */
#include <dos.h>
#include <conio.h>
#include <stdio.h>

static void (__interrupt __far *old08)(void);
static volatile unsigned ticks;
static unsigned long before[3], after[3], kept[3];
static volatile unsigned long __far *count = (unsigned long __far *)MK_FP(0x40, 0x6C);

static void __interrupt __far on_timer(void)
{
    if (ticks < 3) {
        before[ticks] = *count;
        (*old08)();
        after[ticks] = *count;
    } else {
        if (ticks < 6)
            kept[ticks - 3] = *count;
        outp(0x20, 0x20);
    }
    ticks++;
}

int main(void)
{
    int i;

    old08 = _dos_getvect(8);
    _dos_setvect(8, on_timer);
    while (ticks < 7) {
    }
    _dos_setvect(8, old08);
    for (i = 0; i < 3; i++)
        printf("chained %lu %lu\n", after[i] - before[i], i ? before[i] - after[i - 1] : 0UL);
    printf("unchained %lu %lu\n", kept[1] - kept[0], kept[2] - kept[1]);
    printf("first %s\n", kept[0] == after[2] ? "same" : "moved");
    return 0;
}
