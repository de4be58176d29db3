/* srcstep.c: a Win16 program built with debug information (-d2) for
 * stepping by source line in the `debug` session (src/debug/source.rs).
 * WinMain calls add() twice and returns 0 (1 + 2 + 3 - 6), so the program
 * exits with code 0. The tests find the lines by the marker comments
 * (LINE-...) and step through them: `next` over the calls, `step` into
 * add().
 */
#include <windows.h>

int add(int a, int b)                   /* LINE-ADD */
{
    int sum = a + b;                    /* LINE-ADD-BODY */
    return sum;                         /* LINE-ADD-RETURN */
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmd, int nCmdShow)
{
    int r = 1;                          /* LINE-FIRST */
    r = add(r, 2);                      /* LINE-CALL-ADD */
    r = add(r, 3);                      /* LINE-CALL-ADD-2 */
    return r - 6;                       /* LINE-RETURN */
}
