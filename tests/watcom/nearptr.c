/* nearptr.c: near pointers into its own local heap, held in a function's
 * arguments and locals where `toolhelp16 stack --at NEARPTR!MARK` stops
 * (tests/stack_nearptr.rs). Small model: near pointers are DS offsets.
 *
 * It allocates a moveable block (40 bytes, locked once) and a fixed one
 * (20 bytes), prints
 *   blocks HM PM PF    the moveable handle, LocalLock's address, the
 *                      fixed block (handle = address)
 * and calls Look(hm, pm + 4, pf), which keeps pf + 10 in a local and
 * calls the exported Mark with Look's frame set up (both through
 * MakeProcInstance's thunks, which load DS).
 */
#include <windows.h>

static char line[100];
static FARPROC mark;
typedef void (FAR PASCAL *LOOKPROC)(HLOCAL, char NEAR *, char NEAR *);

void FAR PASCAL __export Mark(void)
{
    lstrcpy(line, "mark\r\n");
    _lwrite(1, line, lstrlen(line));
}

void FAR PASCAL __export Look(HLOCAL hm, char NEAR *pm4, char NEAR *pf)
{
    char NEAR * volatile mid = pf + 10;
    (*mark)();
    wsprintf(line, "look %04X %04X %04X\r\n", hm, (WORD)pm4, (WORD)mid);
    _lwrite(1, line, lstrlen(line));
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR cmd, int show)
{
    HLOCAL hm = LocalAlloc(LMEM_MOVEABLE, 40);
    HLOCAL hf = LocalAlloc(LMEM_FIXED, 20);
    char NEAR *pm = LocalLock(hm);
    wsprintf(line, "blocks %04X %04X %04X\r\n", hm, (WORD)pm, hf);
    _lwrite(1, line, lstrlen(line));
    mark = MakeProcInstance((FARPROC)Mark, hInst);
    (*(LOOKPROC)MakeProcInstance((FARPROC)Look, hInst))(hm, pm + 4,
                                                       (char NEAR *)hf);
    return 0;
}
