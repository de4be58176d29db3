/* pmoffwrp: IP and SP wrap at 64 KiB in 16-bit protected-mode segments
 * whose base is not on a page boundary (tests/control_transfers.rs).
 *
 * A 128 KiB fixed block (GlobalAlloc, Windows 3.1 SDK) is one run of
 * linear memory; a selector of our own (AllocSelector, SetSelectorBase to
 * the block's base + 0804h, SetSelectorLimit FFFFh: SDK, "Selector
 * functions") makes a 64 KiB window into it that starts 4 bytes past a
 * page and ends 4 bytes past the page 16 pages on. Through a code alias
 * of that window (AllocDStoCSAlias):
 *
 *   wrap:  MOV AX, imm16 at FFFEh (B8 at FFFEh, low byte at FFFFh, high
 *          byte at 0000h: the 286/386 fetches the rest of a 16-bit code
 *          segment's instruction from offset 0000h, Intel 80286 PRM and
 *          i386 PRM on 16-bit segments), RETF at 0001h. The window's
 *          FFFEh is block offset 10802h, its 0000h block offset 0804h:
 *          the bytes after the wrap are 64 KiB back, on another page.
 *          The program rewrites the immediate through the data selector
 *          before each call (self-modifying code, Intel SDM vol. 3A
 *          8.1.3); the call returns the value last stored.
 *   smc:   the same instruction rewritten by the code itself just before
 *          it runs (an INC of the high byte at 0000h).
 *   stack: SS = the window, SP = 0000h: PUSH stores at FFFEh (SP wraps
 *          down, 80286 PRM: SP is decremented by 2 modulo 64 KiB), POP
 *          reads it back and SP is 0000h again; the word is at block
 *          offset 10802h.
 *
 * Prints
 *   wrap 300 of 300
 *   smc 300 of 300
 *   stack 1234 0000 1234
 *   dsalias 1 1 1
 * the last line for AllocDStoCSAlias of the program's own DS, whose base
 * and limit are not on page boundaries: an alias with the same base and
 * limit (SDK, AllocDStoCSAlias).
 */
#include <windows.h>

#define CALLS 300
#define SHIFT 0x0804L

unsigned swap_stack(unsigned ss, unsigned value, unsigned *sp_after);
#pragma aux swap_stack = \
    "push bp" \
    "mov bp, sp" \
    "mov cx, ss" \
    "mov ss, ax" \
    "mov sp, 0" \
    "push dx" \
    "pop dx" \
    "mov ax, sp" \
    "mov ss, cx" \
    "mov sp, bp" \
    "pop bp" \
    "mov [bx], ax" \
    "mov ax, dx" \
    parm [ax] [dx] [bx] value [ax] modify [cx dx];

static char line[64];

static void out(void)
{
    _lwrite(1, line, lstrlen(line));
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    HGLOBAL h = GlobalAlloc(GMEM_FIXED | GMEM_ZEROINIT, 0x20000L);
    unsigned char _huge *blk = (unsigned char _huge *)GlobalLock(h);
    unsigned char __far *p;
    UINT sel, cs, i, ok;
    unsigned (__far *fn)(void);
    unsigned sp_after, got;

    if (blk == NULL) {
        _lwrite(1, "no block\r\n", 10);
        return 1;
    }
    sel = AllocSelector(SELECTOROF(blk));
    SetSelectorBase(sel, GetSelectorBase(SELECTOROF(blk)) + SHIFT);
    SetSelectorLimit(sel, 0xFFFFL);
    p = (unsigned char __far *)MAKELP(sel, 0);
    cs = AllocDStoCSAlias(sel);

    /* wrap: MOV AX, imm16 straddling FFFFh/0000h, rewritten from outside. */
    p[0xFFFE] = 0xB8;
    p[0x0001] = 0xCB;
    fn = (unsigned (__far *)(void))MAKELP(cs, 0xFFFE);
    ok = 0;
    for (i = 0; i < CALLS; i++) {
        unsigned want = (i * 2654u) ^ 0x5A5A;
        p[0xFFFF] = (unsigned char)want;
        p[0x0000] = (unsigned char)(want >> 8);
        if (fn() == want && blk[0x10803L] == (unsigned char)want
            && blk[SHIFT] == (unsigned char)(want >> 8))
            ok++;
    }
    wsprintf(line, "wrap %u of %u\r\n", ok, CALLS);
    out();

    /* smc: the code increments the high byte (at 0000h) just before the
     * MOV that straddles the wrap runs. */
    p[0xFFEE] = 0x06;                 /* push es */
    p[0xFFEF] = 0xB8;                 /* mov ax, sel */
    p[0xFFF0] = (unsigned char)sel;
    p[0xFFF1] = (unsigned char)(sel >> 8);
    p[0xFFF2] = 0x8E;                 /* mov es, ax */
    p[0xFFF3] = 0xC0;
    p[0xFFF4] = 0x26;                 /* inc byte [es:0000h] */
    p[0xFFF5] = 0xFE;
    p[0xFFF6] = 0x06;
    p[0xFFF7] = 0x00;
    p[0xFFF8] = 0x00;
    p[0xFFF9] = 0x07;                 /* pop es */
    for (i = 0xFFFA; i < 0xFFFE; i++)
        p[i] = 0x90;                  /* nop */
    fn = (unsigned (__far *)(void))MAKELP(cs, 0xFFEE);
    ok = 0;
    for (i = 0; i < CALLS; i++) {
        unsigned char lo = (unsigned char)(i * 7 + 1);
        unsigned want;
        p[0xFFFF] = lo;
        want = ((unsigned)(unsigned char)(p[0x0000] + 1) << 8) | lo;
        if (fn() == want)
            ok++;
    }
    wsprintf(line, "smc %u of %u\r\n", ok, CALLS);
    out();

    /* stack: SS:SP = window:0000h, PUSH wraps to FFFEh. */
    got = swap_stack(sel, 0x1234, &sp_after);
    wsprintf(line, "stack %04X %04X %02X%02X\r\n", got, sp_after,
             blk[0x10803L], blk[0x10802L]);
    out();
    {
        UINT ds = SELECTOROF((void __far *)line);
        UINT alias = AllocDStoCSAlias(ds);
        wsprintf(line, "dsalias %d %d %d\r\n", alias != 0,
                 GetSelectorBase(alias) == GetSelectorBase(ds),
                 GetSelectorLimit(alias) == GetSelectorLimit(ds));
        out();
        FreeSelector(alias);
    }
    FreeSelector(cs);
    FreeSelector(sel);
    GlobalUnlock(h);
    GlobalFree(h);
    return 0;
}
