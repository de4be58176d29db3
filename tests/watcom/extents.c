/* extents.c: names for code between exports, without a map (issue 31,
 * Why 7). Report is exported (the NE names tables name it); Helper and
 * WinMain are not, and neither is the C runtime's startup, the program's
 * entry. Built small-model, so all of them share one code segment.
 *
 * Prints "report 25" (Helper(4) = Report(0..3) = 1 + 4 + 7 + 10 = 22,
 * plus 3) to standard output (handle 1).
 */
#include <windows.h>

static char line[64];
static HINSTANCE inst;

typedef int (FAR PASCAL *REPORTPROC)(int);

int FAR PASCAL _export Report(int x)
{
    return x * 3 + 1;
}

/* Report is called through its instance thunk, which loads AX with the
 * data segment its prologue moves into DS (SDK Guide to Programming,
 * chapter 14). */
int NEAR Helper(int n)
{
    REPORTPROC report = (REPORTPROC)MakeProcInstance((FARPROC)Report, inst);
    int i, s = 0;

    for (i = 0; i < n; i++)
        s += report(i);
    FreeProcInstance((FARPROC)report);
    return s;
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    int n;

    inst = hInst;
    n = wsprintf(line, "report %d\r\n", Helper(4) + 3);

    _lwrite(1, line, n);
    return 0;
}
