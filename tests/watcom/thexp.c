/* thexp.c: TOOLHELP's class, module, task, memory and timer exports, and
 * their documented failures (Windows 3.1 SDK: ClassFirst, ClassNext,
 * ModuleFirst, ModuleNext, ModuleFindName, ModuleFindHandle, TaskFirst,
 * TaskNext, TaskFindHandle, MemoryRead, MemoryWrite, TimerCount,
 * StackTraceFirst; each returns nonzero if successful). Small model,
 * linked with toolhelp.lib (tests/toolhelp_exports.rs). One line each:
 *
 *   class OWN INST GLOBAL USERS N NONAME AFTER
 *       ClassFirst/ClassNext over every class: its own class THEXPCLS
 *       found (1) with hInst = its hInstance (1), its CS_GLOBALCLASS
 *       class THEXPGLB found (1), USER's BUTTON found (1), the count,
 *       no entry with an empty szClassName (0 of them), ClassNext after
 *       the last (0)
 *   classerr A B  ClassFirst, ClassNext with dwSize 0
 *   module FIRST N OWN KERNEL NOSUCH BYHANDLE BAD AFTER
 *       ModuleFirst gives KERNEL (1); the walk's count; the walk finds
 *       THEXP with hModule = GetModuleHandle (1); ModuleFindName("kernel")
 *       (1, case ignored); ModuleFindName("NOSUCH") (0);
 *       ModuleFindHandle(own) names THEXP (1); ModuleFindHandle(0) (0);
 *       ModuleNext after the last (0)
 *   task FOUND HTASK HINST HMODULE QUEUE NAME TOP MIN BOTTOM N AFTER
 *       TaskFirst/TaskNext finds GetCurrentTask() (1); hTask, hInst,
 *       hModule, hQueue (GetTaskQueue) right (1 each); szModule "THEXP"
 *       (1); wStackTop, wStackMinimum, wStackBottom the instance data's
 *       words at DS:0A, 0C, 0E... wStackTop and wStackBottom equal (1);
 *       wStackMinimum within them (1); the count; TaskNext after the last (0)
 *   taskfind OK SAME BAD0 BADSIZE  TaskFindHandle(own) (1) gives the same
 *       hTask (1); TaskFindHandle(0) (0); with dwSize 0 (0)
 *   psp OFFSET SAME INT20  TASKENTRY.wPSPOffset (256: the PSP follows
 *       the TDB, SDK TASKENTRY); 8 bytes at hTask:wPSPOffset are the 8 at
 *       GetCurrentPDB():0 (1); they start with INT 20h, CD 20 (1)
 *   stf RESULT  StackTraceFirst on the running task (0: a running task's
 *       state is not saved, toolhelp.md)
 *   mread CODE CUT PAST BADSEL BADBUF  MemoryRead of 4 bytes of its own
 *       code segment (4) equal to the code (1 folded in: 4 only if equal);
 *       across the limit (the bytes up to it); at the limit + 1 (0);
 *       selector 0 (0); into a NULL buffer (0)
 *   mhuge READ CROSS  a 128 KiB block: MemoryRead at offset 0x18000
 *       (4, the bytes written through the huge pointer), across the first
 *       64 KiB (4 bytes from 0xFFFE, the tiles' bytes in order: 1)
 *   mwrite N SEEN  MemoryWrite of 2 bytes into a data block (2) seen
 *       through a pointer (1)
 *   timer OK MONO BAD  TimerCount (1), a second call not earlier (1),
 *       dwSize 0 (0)
 */
#include <windows.h>
#include <toolhelp.h>
#include <string.h>

static char line[200];

static void out(void)
{
    _lwrite(1, line, lstrlen(line));
}

long FAR PASCAL __export WndProc(HWND h, UINT m, WPARAM w, LPARAM l)
{
    return DefWindowProc(h, m, w, l);
}

static void reg(HINSTANCE hInst, LPCSTR name, UINT style)
{
    WNDCLASS wc;
    memset(&wc, 0, sizeof(wc));
    wc.style = style;
    wc.lpfnWndProc = WndProc;
    wc.hInstance = hInst;
    wc.lpszClassName = name;
    RegisterClass(&wc);
}

HANDLE FAR PASCAL GetTaskQueue(HTASK);

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR cmd, int show)
{
    CLASSENTRY ce;
    MODULEENTRY me;
    TASKENTRY te;
    STACKTRACEENTRY ste;
    TIMERINFO ti;
    int ok, n, own, inst, glob, users, noname, first, kern, byh, found;
    int a, b, c, d, e;
    HMODULE hmod = GetModuleHandle("THEXP");
    HTASK ht = GetCurrentTask();
    WORD top, min, bot;
    BYTE buf[16], code[4];
    BYTE FAR *cp;
    HGLOBAL hg;
    BYTE __huge *hp;
    WORD sel;
    DWORD t1;

    reg(hInst, "THEXPCLS", 0);
    reg(hInst, "THEXPGLB", CS_GLOBALCLASS);
    own = inst = glob = users = noname = n = 0;
    ce.dwSize = sizeof(ce);
    for (ok = ClassFirst(&ce); ok; ok = ClassNext(&ce)) {
        if (lstrcmp(ce.szClassName, "THEXPCLS") == 0) {
            own = 1;
            inst = ce.hInst == hInst;
        }
        if (lstrcmp(ce.szClassName, "THEXPGLB") == 0)
            glob = 1;
        if (lstrcmpi(ce.szClassName, "BUTTON") == 0)
            users = 1;
        if (ce.szClassName[0] == 0)
            noname++;
        if (++n > 1000)
            break;
    }
    wsprintf(line, "class %d %d %d %d %d %d %d\r\n", own, inst, glob, users,
             n, noname, ClassNext(&ce));
    out();
    ce.dwSize = 0;
    a = ClassFirst(&ce);
    b = ClassNext(&ce);
    wsprintf(line, "classerr %d %d\r\n", a, b);
    out();

    me.dwSize = sizeof(me);
    ok = ModuleFirst(&me);
    first = ok && lstrcmp(me.szModule, "KERNEL") == 0;
    n = 0;
    found = 0;
    for (; ok; ok = ModuleNext(&me)) {
        if (me.hModule == hmod && lstrcmp(me.szModule, "THEXP") == 0)
            found = 1;
        if (++n > 1000)
            break;
    }
    a = ModuleNext(&me);
    me.dwSize = sizeof(me);
    kern = ModuleFindName(&me, "kernel") && lstrcmp(me.szModule, "KERNEL") == 0;
    b = ModuleFindName(&me, "NOSUCH");
    byh = ModuleFindHandle(&me, hmod) && lstrcmp(me.szModule, "THEXP") == 0;
    c = ModuleFindHandle(&me, 0);
    wsprintf(line, "module %d %d %d %d %d %d %d %d\r\n", first, n, found, kern,
             b, byh, c, a);
    out();

    top = *(WORD NEAR *)0x0A;
    min = *(WORD NEAR *)0x0C;
    bot = *(WORD NEAR *)0x0E;
    te.dwSize = sizeof(te);
    n = 0;
    found = 0;
    for (ok = TaskFirst(&te); ok; ok = TaskNext(&te)) {
        if (te.hTask == ht) {
            found = 1;
            wsprintf(line, "task 1 %d %d %d %d %d %d %d",
                     te.hTask == ht, te.hInst == hInst, te.hModule == hmod,
                     te.hQueue == GetTaskQueue(ht),
                     lstrcmp(te.szModule, "THEXP") == 0,
                     te.wStackTop == top && te.wStackBottom == bot,
                     te.wStackMinimum >= top && te.wStackMinimum <= bot);
        }
        if (++n > 100)
            break;
    }
    a = TaskNext(&te);
    if (!found)
        lstrcpy(line, "task 0");
    out();
    wsprintf(line, " %d %d\r\n", n, a);
    out();
    te.dwSize = sizeof(te);
    a = TaskFindHandle(&te, ht);
    b = te.hTask == ht;
    c = TaskFindHandle(&te, 0);
    te.dwSize = 0;
    d = TaskFindHandle(&te, ht);
    wsprintf(line, "taskfind %d %d %d %d\r\n", a, b, c, d);
    out();

    /* The PSP at hTask:wPSPOffset, the bytes GetCurrentPDB's selector
       reaches: INT 20h (CD 20) first. */
    te.dwSize = sizeof(te);
    TaskFindHandle(&te, ht);
    a = (int)MemoryRead((WORD)ht, te.wPSPOffset, buf, 8);
    b = (int)MemoryRead(GetCurrentPDB(), 0, buf + 8, 8);
    wsprintf(line, "psp %u %d %d\r\n", te.wPSPOffset,
             a == 8 && b == 8 && _fmemcmp(buf, buf + 8, 8) == 0,
             buf[0] == 0xCD && buf[1] == 0x20);
    out();

    ste.dwSize = sizeof(ste);
    wsprintf(line, "stf %d\r\n", StackTraceFirst(&ste, ht));
    out();

    /* MemoryRead of its own code: WinMain's first bytes. */
    cp = (BYTE FAR *)WinMain;
    sel = (WORD)((DWORD)cp >> 16);
    a = (int)MemoryRead(sel, (WORD)(DWORD)cp, code, 4);
    if (a == 4 && _fmemcmp(code, cp, 4) != 0)
        a = -1;
    n = (int)GetSelectorLimit(sel);
    b = (int)MemoryRead(sel, (DWORD)n - 2, buf, 16);
    c = (int)MemoryRead(sel, (DWORD)n + 1, buf, 4);
    d = (int)MemoryRead(0, 0, buf, 4);
    e = (int)MemoryRead(sel, 0, NULL, 4);
    wsprintf(line, "mread %d %d %d %d %d\r\n", a, b, c, d, e);
    out();

    hg = GlobalAlloc(GMEM_FIXED | GMEM_ZEROINIT, 0x20000L);
    hp = (BYTE __huge *)GlobalLock(hg);
    hp[0x18000L] = 0x5A;
    hp[0x18001L] = 0xA5;
    hp[0xFFFEL] = 1;
    hp[0xFFFFL] = 2;
    hp[0x10000L] = 3;
    hp[0x10001L] = 4;
    sel = (WORD)((DWORD)(void FAR *)hp >> 16);
    a = (int)MemoryRead(sel, 0x18000L, buf, 2);
    if (a == 2 && !(buf[0] == 0x5A && buf[1] == 0xA5))
        a = -1;
    b = (int)MemoryRead(sel, 0xFFFEL, buf, 4);
    b = b == 4 && buf[0] == 1 && buf[1] == 2 && buf[2] == 3 && buf[3] == 4;
    wsprintf(line, "mhuge %d %d\r\n", a, b);
    out();

    buf[0] = 0x11;
    buf[1] = 0x22;
    a = (int)MemoryWrite(sel, 0x20L, buf, 2);
    wsprintf(line, "mwrite %d %d\r\n", a, hp[0x20] == 0x11 && hp[0x21] == 0x22);
    out();

    ti.dwSize = sizeof(ti);
    a = TimerCount(&ti);
    t1 = ti.dwmsSinceStart;
    for (n = 0; n < 1000; n++)
        GetTickCount();
    TimerCount(&ti);
    b = ti.dwmsSinceStart >= t1;
    ti.dwSize = 0;
    c = TimerCount(&ti);
    wsprintf(line, "timer %d %d %d\r\n", a, b, c);
    out();
    return 0;
}
