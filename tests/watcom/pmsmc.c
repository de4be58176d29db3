/* pmsmc: self-modifying code in a 16-bit protected-mode segment, on an
 * instruction that straddles the 64 KiB wrap and on one that straddles a
 * page boundary (tests/control_transfers.rs; vendor/README.md, patch 0010).
 *
 * A 64 KiB fixed block (GlobalAlloc, Windows 3.1 SDK) gets a code alias
 * (AllocDStoCSAlias, SDK: "a code-segment selector with the same base and
 * limit"). The code, written through the data selector, is
 *
 *   START:   push es
 *            mov  ax, DATA        ; the block's data selector
 *            mov  es, ax
 *            inc  byte [es:HI]    ; the high byte of the MOV below
 *            pop  es
 *            nop ...
 *   MOV:     mov  ax, imm16       ; B8 lo hi, with hi at HI
 *            retf
 *
 * with MOV at FFFEh (so lo is at FFFFh and hi at 0000h: IP wraps inside
 * the instruction, as tests/watcom/ipwrap.c shows for a plain wrap) and
 * again with MOV at 0FFEh (hi at 1000h, the next page). Each call rewrites
 * the instruction it is about to run: the CPU runs the bytes as stored
 * (Intel SDM vol. 3A, 8.1.3: a write to the code about to run is seen,
 * the processor checks for it). Between calls the program also rewrites
 * the low byte from outside. A call returns AX = hi:lo as they were after
 * the store; the program counts the calls whose result is that value and
 * prints
 *   wrap 500 of 500
 *   page 500 of 500
 */
#include <windows.h>

#define CALLS 500

static unsigned run_case(unsigned char __far *p, UINT cs, unsigned mov)
{
    unsigned start = mov - 18;
    unsigned hi = mov + 2; /* wraps to 0000h for MOV at FFFEh */
    unsigned i, ok = 0;
    unsigned (__far *fn)(void) = (unsigned (__far *)(void))MAKELP(cs, start);
    unsigned char lo = 0x11;

    p[start + 0] = 0x06; /* push es */
    p[start + 1] = 0xB8; /* mov ax, DATA */
    p[start + 2] = (unsigned char)SELECTOROF(p);
    p[start + 3] = (unsigned char)(SELECTOROF(p) >> 8);
    p[start + 4] = 0x8E; /* mov es, ax */
    p[start + 5] = 0xC0;
    p[start + 6] = 0x26; /* inc byte [es:HI] */
    p[start + 7] = 0xFE;
    p[start + 8] = 0x06;
    p[start + 9] = (unsigned char)hi;
    p[start + 10] = (unsigned char)(hi >> 8);
    p[start + 11] = 0x07; /* pop es */
    for (i = 12; i < 18; i++)
        p[start + i] = 0x90; /* nop */
    p[mov] = 0xB8;                      /* mov ax, imm16 */
    p[(unsigned)(mov + 1)] = lo;        /* its low byte */
    p[hi] = 0x00;                       /* its high byte */
    p[(unsigned)(hi + 1)] = 0xCB;       /* retf */
    for (i = 0; i < CALLS; i++) {
        unsigned want, got;
        lo = (unsigned char)(lo * 5 + 3);
        p[(unsigned)(mov + 1)] = lo; /* from outside, between calls */
        want = ((unsigned)(unsigned char)(p[hi] + 1) << 8) | lo;
        got = fn();
        if (got == want)
            ok++;
    }
    return ok;
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    HGLOBAL h = GlobalAlloc(GMEM_FIXED | GMEM_ZEROINIT, 65536L);
    unsigned char __far *p = (unsigned char __far *)GlobalLock(h);
    char line[64];
    UINT cs;

    if (p == NULL) {
        _lwrite(1, "no block\r\n", 10);
        return 1;
    }
    cs = AllocDStoCSAlias(SELECTOROF(p));
    wsprintf(line, "wrap %u of %u\r\n", run_case(p, cs, 0xFFFE), CALLS);
    _lwrite(1, line, lstrlen(line));
    wsprintf(line, "page %u of %u\r\n", run_case(p, cs, 0x0FFE), CALLS);
    _lwrite(1, line, lstrlen(line));
    return 0;
}
