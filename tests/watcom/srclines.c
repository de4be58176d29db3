/* srclines.c: a Win16 program built with debug information (-d2) whose
 * faulting call chain crosses two source files, for the debug-information
 * readers (src/symbols/dwarf.rs and the other formats).
 *
 * WinMain calls middle() in srcline2.c, which calls leaf() here; leaf
 * writes through a null far pointer, a General Protection Fault in
 * Windows 3.1's protected mode (a null selector loaded into ES is legal,
 * using it is not: Intel 80286 Programmer's Reference, "Null Selector").
 * The fault is unhandled, so Windows shows its Application Error box and
 * ends the task.
 *
 * The tests find the line numbers by the marker comments (LINE-...): the
 * frames must show these files and lines, and the functions' names.
 * leaf's parameters a and b, and WinMain's nCmdShow, are the parameters
 * whose places (BP+n / BP-n) the debug information gives.
 */
#include <windows.h>

int middle(int x);

int leaf(int a, int b)                  /* LINE-LEAF */
{
    int total = a + b;
    *(int far *)0L = total;             /* LINE-FAULT */
    return total;
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmd, int nCmdShow)
{
    int r;
    r = middle(nCmdShow);               /* LINE-CALL-MIDDLE */
    return r;
}
