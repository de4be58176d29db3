/* prologue.c: exported functions' prologues as Windows' loader patched
 * them (Petzold, Programming Windows 3.1, chapter 7, "The Difference for
 * Dynamic Libraries"; SDK Guide to Programming 21.1.3).
 *
 * Prints, one line each (CR LF), to standard output (handle 1):
 *   bump <Bump(1)> <Bump(2)>: the DLL's counter starts at 5, so 6 8 when
 *        the library's functions load their own DGROUP (with the
 *        program's DS they would add to the program's word at the same
 *        offset);
 *   callback <CallBack(thunk of Answer, 3)>: Answer, exported and called
 *        through its MakeProcInstance thunk from inside the library (DS =
 *        the library's), returns 3 + the program's base (100): 103 when
 *        its prologue takes DS from the thunk's AX;
 *   prologue <the first three bytes of Answer, hex>: 909090, the NOPs the
 *        loader wrote over `push ds / pop ax / nop`.
 */
#include <windows.h>

static char line[128];
int base = 100;
int pad[8] = { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };

static void out(const char far *s)
{
    _lwrite(1, s, lstrlen(s));
    _lwrite(1, "\r\n", 2);
}

int FAR PASCAL _export Answer(int x)
{
    return x + base;
}

typedef int (FAR PASCAL *BUMPPROC)(int);
typedef int (FAR PASCAL *CALLBACKPROC)(int);
typedef int (FAR PASCAL *CALLPROC)(CALLBACKPROC, int);

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    HINSTANCE lib = LoadLibrary("PROLOGDL.DLL");
    BUMPPROC bump;
    CALLPROC call;
    FARPROC thunk;
    unsigned char far *p;
    int a, b;

    if ((UINT)lib < 32) {
        wsprintf(line, "LoadLibrary %d", (UINT)lib);
        out(line);
        return 1;
    }
    bump = (BUMPPROC)GetProcAddress(lib, "BUMP");
    call = (CALLPROC)GetProcAddress(lib, "CALLBACK");
    a = bump(1);
    b = bump(2);
    wsprintf(line, "bump %d %d", a, b);
    out(line);
    thunk = MakeProcInstance((FARPROC)Answer, hInst);
    wsprintf(line, "callback %d", call((CALLBACKPROC)thunk, 3));
    out(line);
    FreeProcInstance(thunk);
    p = (unsigned char far *)Answer;
    wsprintf(line, "prologue %02x%02x%02x", p[0], p[1], p[2]);
    out(line);
    FreeLibrary(lib);
    return 0;
}
