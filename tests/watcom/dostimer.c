/* dostimer.c -- a DOS .COM that takes the PC's timer interrupt itself
 * (INT 08h, IRQ 0) as a game does: its handler counts ticks and chains to
 * the handler it replaced, while the main loop calls spin_once() until
 * four ticks have been counted. tests/debug_fast.rs debugs it with
 * breakpoints in the handler and in the loop, with and without the
 * debugger's hook on every instruction.
 *
 * Prints the handler's and spin_once's addresses first (for the
 * breakpoints), then "ticks 4 spins N" when done. The BIOS tick count at
 * 0040:006C advances when the handler chains to the BIOS's (IBM PC
 * Technical Reference, BIOS listing: INT 08h increments TIMER_LOW). */
#include <dos.h>
#include <stdio.h>

static void (__interrupt __far *old08)(void);
static volatile unsigned ticks;
static volatile unsigned long spins;

static void __interrupt __far on_timer(void)
{
    ticks++;
    _chain_intr(old08);
}

static void spin_once(void)
{
    spins++;
}

int main(void)
{
    void __far *h = (void __far *)on_timer;
    void __far *s = (void __far *)spin_once;

    printf("handler %04X:%04X loop %04X:%04X\n", FP_SEG(h), FP_OFF(h), FP_SEG(s),
           FP_OFF(s));
    old08 = _dos_getvect(8);
    _dos_setvect(8, on_timer);
    while (ticks < 4) {
        spin_once();
    }
    _dos_setvect(8, old08);
    printf("ticks %u spins %lu\n", ticks, spins);
    return 0;
}
