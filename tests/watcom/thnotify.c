/* thnotify.c: a TOOLHELP notification logger. It registers a
 * NotifyRegister callback with NF_TASKSWITCH | NF_RIP, starts THCHILD.EXE with
 * WinExec (the child writes a debug string, loads and frees THNDLL.DLL and
 * ends with exit code 3), and when WinExec returns prints, one line each
 * (CR LF) on standard output, every notification its callback was given
 * (with "normal" on its command line it registers with NF_NORMAL only):
 *
 *   register <NotifyRegister's result>
 *   <name> <self|other> <details>     one per notification, in order
 *   unregister <first NotifyUnRegister> <second NotifyUnRegister>
 *
 * where self/other says whether the callback ran in the logger's task
 * (GetCurrentTask) and the details are: STARTTASK the module of the
 * current task and the IP of dwData (its start CS:IP); STARTDLL the
 * NFYSTARTDLL's dwSize, module and wIP; DELMODULE the module named by
 * dwData's low word (still there while the callback runs); OUTSTR the
 * string; LOGPARAMERROR the NFYLOGPARAMERROR's dwSize, wErrCode and the
 * value *lpBadParam points at; EXITTASK the exit code (dwData's low byte). Expected values: the
 * Windows 3.1 SDK, "NotifyRegister", and TOOLHELP.H.
 */
#include <windows.h>
#include <toolhelp.h>

#define MAXLOG 48

typedef struct {
    WORD id;
    DWORD data;
    HTASK task;
    WORD size;
    WORD ip;
    char s[24];
} ENTRY;

static ENTRY entries[MAXLOG];
static int nentries;
static char line[256];
static TASKENTRY te;
static MODULEENTRY me;

static void copy(char *d, const char far *s, int n)
{
    int i;
    for (i = 0; i < n - 1 && s[i]; i++)
        d[i] = s[i];
    d[i] = 0;
}

static void module_name(char *d, HMODULE h)
{
    me.dwSize = sizeof me;
    if (ModuleFindHandle(&me, h))
        copy(d, me.szModule, 24);
    else
        copy(d, "?", 24);
}

BOOL FAR PASCAL _export NotifyCb(WORD wID, DWORD dwData)
{
    ENTRY *e;
    if (nentries >= MAXLOG)
        return FALSE;
    e = &entries[nentries++];
    e->id = wID;
    e->data = dwData;
    e->task = GetCurrentTask();
    e->s[0] = 0;
    switch (wID) {
    case NFY_STARTTASK:
        te.dwSize = sizeof te;
        if (TaskFindHandle(&te, e->task))
            module_name(e->s, te.hModule);
        break;
    case NFY_STARTDLL: {
        NFYSTARTDLL FAR *s = (NFYSTARTDLL FAR *)dwData;
        e->size = (WORD)s->dwSize;
        e->ip = s->wIP;
        module_name(e->s, s->hModule);
        break;
    }
    case NFY_DELMODULE:
        module_name(e->s, (HMODULE)LOWORD(dwData));
        break;
    case NFY_OUTSTR:
        copy(e->s, (const char far *)dwData, 24);
        break;
    case NFY_LOGPARAMERROR: {
        NFYLOGPARAMERROR FAR *p = (NFYLOGPARAMERROR FAR *)dwData;
        e->size = (WORD)p->dwSize;
        e->ip = p->wErrCode;
        e->data = (DWORD)*p->lpBadParam;
        break;
    }
    }
    return FALSE;
}

static void out(const char *s)
{
    _lwrite(1, s, lstrlen(s));
    _lwrite(1, "\r\n", 2);
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    FARPROC cb = MakeProcInstance((FARPROC)NotifyCb, hInst);
    HTASK self = GetCurrentTask();
    UINT h;
    int i, r1, r2;
    /* "normal" on the command line: NF_NORMAL only. */
    WORD flags = lpCmdLine[0] == 'n' ? NF_NORMAL : NF_TASKSWITCH | NF_RIP;

    wsprintf(line, "register %d", NotifyRegister(NULL, (LPFNNOTIFYCALLBACK)cb, flags));
    out(line);
    h = WinExec("THCHILD.EXE", SW_SHOWNORMAL);
    r1 = NotifyUnRegister(NULL);
    r2 = NotifyUnRegister(NULL);
    for (i = 0; i < nentries; i++) {
        ENTRY *e = &entries[i];
        const char *who = e->task == self ? "self" : "other";
        switch (e->id) {
        case NFY_TASKIN:
            wsprintf(line, "TASKIN %s", who);
            break;
        case NFY_TASKOUT:
            wsprintf(line, "TASKOUT %s", who);
            break;
        case NFY_STARTTASK:
            wsprintf(line, "STARTTASK %s %s %04X", who, (LPSTR)e->s, LOWORD(e->data));
            break;
        case NFY_STARTDLL:
            wsprintf(line, "STARTDLL %s %u %s %04X", who, e->size, (LPSTR)e->s, e->ip);
            break;
        case NFY_DELMODULE:
            wsprintf(line, "DELMODULE %s %s", who, (LPSTR)e->s);
            break;
        case NFY_OUTSTR:
            wsprintf(line, "OUTSTR %s %s", who, (LPSTR)e->s);
            break;
        case NFY_LOGPARAMERROR:
            wsprintf(line, "LOGPARAMERROR %s %u %04X %08lX", who, e->size, e->ip, e->data);
            break;
        case NFY_EXITTASK:
            wsprintf(line, "EXITTASK %s %u", who, LOBYTE(LOWORD(e->data)));
            break;
        default:
            wsprintf(line, "NFY %u %s %08lX", e->id, who, e->data);
            break;
        }
        out(line);
    }
    wsprintf(line, "winexec %d", h >= 32);
    out(line);
    wsprintf(line, "unregister %d %d", r1, r2);
    out(line);
    return 0;
}
