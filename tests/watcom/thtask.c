/* thtask.c: TOOLHELP's TaskGetCSIP, TaskSetCSIP and TaskSwitch on a second
 * task. Started with no command line it WinExecs itself with "child"; the
 * child prints "child yields", calls Yield (the parent runs on), and when
 * it runs again prints "child back" and ends. The parent prints, one line
 * each (CR LF) on standard output:
 *
 *   current <TaskGetCSIP(own task) == NULL> <TaskSetCSIP(own task) == NULL>
 *           <TaskSwitch(own task) == FALSE>
 *   getcsip <the child's CS:IP is in KERNEL's code (the selector of Yield)>
 *   setcsip <TaskSetCSIP(child, same CS:IP) returned that CS:IP>
 *           <TaskGetCSIP afterwards unchanged>
 *   taskswitch <TaskSwitch(child, its CS:IP) returned TRUE>
 *
 * and the child's "child back" comes before "taskswitch": TaskSwitch ran
 * it (Windows 3.1 SDK, "TaskGetCSIP", "TaskSetCSIP", "TaskSwitch").
 */
#include <windows.h>
#include <toolhelp.h>

static char line[128];

static void out(const char *s)
{
    _lwrite(1, s, lstrlen(s));
    _lwrite(1, "\r\n", 2);
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    TASKENTRY te;
    HTASK self = GetCurrentTask(), child = NULL;
    HINSTANCE h;
    DWORD csip, old, again;
    FARPROC yield;
    BOOL r;

    if (lpCmdLine[0] == 'c') {
        out("child yields");
        Yield();
        out("child back");
        return 0;
    }
    wsprintf(line, "current %d %d %d", TaskGetCSIP(self) == 0,
             TaskSetCSIP(self, 0x1234, 0x10) == 0, TaskSwitch(self, 0x12340010L) == FALSE);
    out(line);
    h = (HINSTANCE)WinExec("THTASK.EXE child", SW_SHOWNORMAL);
    te.dwSize = sizeof te;
    for (r = TaskFirst(&te); r; r = TaskNext(&te))
        if (te.hInst == h && te.hTask != self)
            child = te.hTask;
    yield = GetProcAddress(GetModuleHandle("KERNEL"), "YIELD");
    csip = TaskGetCSIP(child);
    wsprintf(line, "getcsip %d", child != NULL && HIWORD(csip) == SELECTOROF(yield));
    out(line);
    old = TaskSetCSIP(child, HIWORD(csip), LOWORD(csip));
    again = TaskGetCSIP(child);
    wsprintf(line, "setcsip %d %d", old == csip, again == csip);
    out(line);
    r = TaskSwitch(child, csip);
    wsprintf(line, "taskswitch %d", r == TRUE);
    out(line);
    return 0;
}
