/* pmfault.c: a program that faults several frames deep
 * (tests/toolhelp_postmortem.rs), beside a post-mortem tool (pmwatson.c)
 * that catches the fault in another task.
 *
 * WinMain calls Outer, Outer Middle, Middle Inner, Inner Poke, and Poke
 * writes through a null selector: a general protection fault (Intel
 * 80286 manual: loading a null selector into ES is allowed, using it is
 * #GP(0)). Built with -of+ every function keeps a BP frame. In the medium
 * model every call is far; in the small model Outer and Inner are
 * declared far and Middle and Poke are near, so the walk has both kinds
 * of frame.
 *
 * With "r" on its command line it recurses instead (Deep) until its
 * stack is exhausted: a stack fault, which TOOLHELP dispatches on its own
 * stack (a low-stack fault). Built with -s there is no stack check.
 *
 * Before each call it prints one line (CR LF) on standard output:
 *
 *   level <n> <name> <CS:start of the function> bp <BP> ss <SS>
 *
 * n = 0 for WinMain ... 4 for Poke: where each function starts (as a far
 * pointer) and the BP of its frame, which the test compares with the
 * frames of the walk at the fault (TOOLHELP's StackTraceNext: frame k's
 * BP is level 4-k's BP, its CS:IP a return into that function).
 */
#include <windows.h>

unsigned get_bp(void);
#pragma aux get_bp = "mov ax,bp" value [ax];
unsigned get_ss(void);
#pragma aux get_ss = "mov ax,ss" value [ax];

static char line[96];

static void level(int n, const char *name, void far *start)
{
    /* The caller's BP: this function's own frame holds it at [BP]. */
    unsigned far *frame = (unsigned far *)MAKELP(get_ss(), get_bp());
    wsprintf(line, "level %d %s %04X:%04X bp %04X ss %04X\r\n", n, (LPSTR)name,
             SELECTOROF(start), OFFSETOF(start), frame[0] & ~1, get_ss());
    _lwrite(1, line, lstrlen(line));
}

volatile int sink;

#if defined(__SMALL__)
#define MAYBE_FAR __far
#define MAYBE_NEAR __near
#else
#define MAYBE_FAR
#define MAYBE_NEAR
#endif

int MAYBE_NEAR Poke(int x);
int MAYBE_FAR Inner(int x);
int MAYBE_NEAR Middle(int x);
int MAYBE_FAR Outer(int x);

int MAYBE_NEAR Poke(int x)
{
    int far *p = (int far *)MAKELP(0, 0x10);
    level(4, "Poke", (void far *)Poke);
    *p = x;
    return x + sink;
}

int MAYBE_FAR Inner(int x)
{
    level(3, "Inner", (void far *)Inner);
    return Poke(x + 1) + sink;
}

int MAYBE_NEAR Middle(int x)
{
    level(2, "Middle", (void far *)Middle);
    return Inner(x + 1) + sink;
}

int MAYBE_FAR Outer(int x)
{
    level(1, "Outer", (void far *)Outer);
    return Middle(x + 1) + sink;
}

/* Recursion until the stack runs out: each call pushes its frame and
 * 64 bytes of locals; the push that crosses offset 0 of the stack segment
 * is a stack fault (80286: #SS on a push past the segment's limit). */
int MAYBE_FAR Deep(int x)
{
    volatile char pad[64];
    pad[0] = (char)x;
    return Deep(x + 1) + pad[0];
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    if (lpCmdLine[0] == 'r')
        return Deep(0);
    level(0, "WinMain", (void far *)WinMain);
    return Outer(1) + sink;
}
