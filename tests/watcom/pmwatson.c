/* pmwatson.c: a post-mortem tool as Dr. Watson-class tools of Windows 3.1
 * were made (tests/toolhelp_postmortem.rs). It registers, for every task,
 * a fault callback (InterruptRegister(NULL, ...)) and a notification
 * callback (NotifyRegister(NULL, ..., NF_NORMAL)), shows its window
 * iconic and waits in its message loop. When another task faults, the
 * callback runs in that task, on its stack (Windows 3.1 SDK,
 * "InterruptRegister": the frame holds a far return into TOOLHELP, AX, the
 * interrupt number, a handle, then the faulting IP, CS and flags; BP and
 * the other registers are the faulting task's). For a divide error, an
 * invalid opcode, a stack fault or a general protection fault it
 *
 *   - names the task (GetCurrentTask, TaskFindHandle), the faulting code
 *     (GlobalEntryHandle: owner and segment number; ModuleFindHandle);
 *   - walks the faulting stack (StackTraceCSIPFirst with the faulting SS,
 *     CS, IP and BP, then StackTraceNext until it fails);
 *   - writes PMWATSON.LOG in the current directory, or with 'w' in the
 *     Windows directory (OpenFile OF_CREATE, _lwrite), one line each:
 *       task <hTask> <module>
 *       fault <number> at <CS>:<IP> <module> <segment> owner <module> type <wType>
 *       frame <n> <CS>:<IP> <SS>:<BP> <module> <wSegment> <far|near>
 *       end <frames>
 *       code <the 8 bytes at the faulting CS:IP, MemoryRead>
 *       then for every other task (TaskFirst, TaskNext):
 *       taskwalk <hTask> <module>
 *       tframe <n> <CS>:<IP> <SS>:<BP> <module> <wSegment> <far|near>
 *       tend <frames>      (its walk: StackTraceFirst, StackTraceNext)
 *   - shows its report in a dialog box (DialogBox of its REPORT template,
 *     owned by its own window) or, with 'm', a message box, or, with
 *     'g', a modeless dialog (CreateDialog, no owner) served by the
 *     callback's own GetMessage/IsDialogMessage loop; with 's'
 *     the callback sends its window a message and the tool's own task
 *     (its stack, its DS) logs and shows the dialog while the faulting
 *     task waits in SendMessage; with 'y' the callback posts that
 *     message and calls DirectedYield(the tool's task) until the tool has
 *     reported;
 *   - then ends the faulting task with TerminateApp(NULL, NO_UAE_BOX), or,
 *     with 'p', returns to TOOLHELP to pass the fault on (Windows' own
 *     Application Error follows).
 * Traps (INT 1, INT 3) are passed on untouched, as a fault inside its own
 * report would be.
 *
 * Command line: "<t|p>[d|m|g|s|y][w] [PROGRAM]": 'w' puts the log in the
 * Windows directory (GetWindowsDirectory), as Dr. Watson put its own. With a program named it starts
 * it with WinExec. It prints, one line each (CR LF) on standard output:
 *   register <InterruptRegister> <NotifyRegister>
 *   winexec <ok>                       (with a program named)
 *   report in the tool <1 when not the faulting task>   ('s', 'y')
 *   caught <number> <module>           (in the callback)
 *   dialog <result>                    (DialogBox's or MessageBox's result)
 *   exittask <module> <code>           (NFY_EXITTASK, in the ending task)
 *   closed <InterruptUnRegister> <NotifyUnRegister>   (at WM_DESTROY)
 */
#include <windows.h>
#include <toolhelp.h>

#define IDC_TEXT 100

unsigned saved_bp(void);
#pragma aux saved_bp = "mov ax,[bp]" value [ax];
unsigned get_ss(void);
#pragma aux get_ss = "mov ax,ss" value [ax];

static HINSTANCE hInstance;
static HWND hwndMain;
static char mode = 't', shown = 'd';
static int busy;
static char line[160];
static char summary[160];
static char mod[16];
static STACKTRACEENTRY ste;
static TASKENTRY te;
static MODULEENTRY me;
static GLOBALENTRY ge;
static FARPROC dlgproc;
static int dialog_result;
static volatile int reported;
static HTASK tool_task;
static char log_path[144] = "PMWATSON.LOG";
static struct {
    HTASK task;
    WORD intno, cs, ip, ss, bp;
} fault;

static void out(const char *s)
{
    _lwrite(1, s, lstrlen(s));
    _lwrite(1, "\r\n", 2);
}

static void copy(char *d, const char far *s, int n)
{
    int i;
    for (i = 0; i < n - 1 && s[i]; i++)
        d[i] = s[i];
    d[i] = 0;
}

/* A module's name from its handle, "?" when ModuleFindHandle fails. */
static const char *module_name(HMODULE h)
{
    static char name[16];
    me.dwSize = sizeof me;
    if (h && ModuleFindHandle(&me, h))
        copy(name, me.szModule, sizeof name);
    else
        copy(name, "?", sizeof name);
    return name;
}

static void log_line(HFILE f, const char *s)
{
    _lwrite(f, s, lstrlen(s));
    _lwrite(f, "\r\n", 2);
}

BOOL FAR PASCAL _export ReportProc(HWND hDlg, UINT msg, WPARAM wParam, LPARAM lParam)
{
    switch (msg) {
    case WM_INITDIALOG:
        SetDlgItemText(hDlg, IDC_TEXT, summary);
        return TRUE;
    case WM_COMMAND:
        if (wParam == IDOK || wParam == IDCANCEL) {
            dialog_result = wParam;
            if (shown == 'g')
                ShowWindow(hDlg, SW_HIDE);
            else
                EndDialog(hDlg, wParam);
            return TRUE;
        }
        break;
    }
    return FALSE;
}

/* "code" and the 8 bytes at the faulting CS:IP, read with MemoryRead. */
static void code_line(WORD cs, WORD ip)
{
    unsigned char bytes[8];
    DWORD got = MemoryRead(cs, ip, bytes, sizeof bytes);
    DWORD i;
    lstrcpy(line, "code");
    for (i = 0; i < got; i++)
        wsprintf(line + lstrlen(line), " %02X", bytes[i]);
}

/* Every other task (TaskFirst, TaskNext) and its walk from where it
 * waits (StackTraceFirst, StackTraceNext). */
static void other_tasks(HFILE f, HTASK faulting)
{
    static TASKENTRY t;
    BOOL more;
    t.dwSize = sizeof t;
    for (more = TaskFirst(&t); more; more = TaskNext(&t)) {
        int n = 0;
        if (t.hTask == faulting)
            continue;
        wsprintf(line, "taskwalk %04X %s", t.hTask, (LPSTR)t.szModule);
        log_line(f, line);
        ste.dwSize = sizeof ste;
        if (StackTraceFirst(&ste, t.hTask)) {
            do {
                wsprintf(line, "tframe %d %04X:%04X %04X:%04X %s %u %s", n, ste.wCS, ste.wIP,
                         ste.wSS, ste.wBP, (LPSTR)module_name(ste.hModule), ste.wSegment,
                         (LPSTR)(ste.wFlags == FRAME_NEAR ? "near" : "far"));
                log_line(f, line);
                n++;
            } while (n < 64 && StackTraceNext(&ste));
        }
        wsprintf(line, "tend %d", n);
        log_line(f, line);
    }
}

/* The report, in the faulting task: the log, then the dialog. */
static void report(HTASK task, WORD intno, WORD cs, WORD ip, WORD ss, WORD bp)
{
    OFSTRUCT of;
    HFILE f;
    int n = 0, r;

    te.dwSize = sizeof te;
    if (TaskFindHandle(&te, task))
        copy(mod, te.szModule, sizeof mod);
    else
        copy(mod, "?", sizeof mod);
    wsprintf(line, "caught %u %s", intno, (LPSTR)mod);
    out(line);

    f = OpenFile(log_path, &of, OF_CREATE | OF_WRITE);
    wsprintf(line, "task %04X %s", task, (LPSTR)mod);
    log_line(f, line);
    ge.dwSize = sizeof ge;
    if (GlobalEntryHandle(&ge, (HGLOBAL)cs)) {
        ste.dwSize = sizeof ste;
        StackTraceCSIPFirst(&ste, ss, cs, ip, bp);
        wsprintf(line, "fault %u at %04X:%04X %s %u", intno, cs, ip,
                 (LPSTR)module_name(ste.hModule), ste.wSegment);
        wsprintf(line + lstrlen(line), " owner %s type %u seg %u",
                 (LPSTR)module_name(ge.hOwner), ge.wType, ge.wData);
    } else {
        wsprintf(line, "fault %u at %04X:%04X ? 0 owner ? type 0 seg 0", intno, cs, ip);
    }
    log_line(f, line);
    ste.dwSize = sizeof ste;
    ste.wFlags = FRAME_FAR;
    if (StackTraceCSIPFirst(&ste, ss, cs, ip, bp)) {
        do {
            wsprintf(line, "frame %d %04X:%04X %04X:%04X %s %u %s", n, ste.wCS, ste.wIP,
                     ste.wSS, ste.wBP, (LPSTR)module_name(ste.hModule), ste.wSegment,
                     (LPSTR)(ste.wFlags == FRAME_NEAR ? "near" : "far"));
            log_line(f, line);
            n++;
        } while (n < 64 && StackTraceNext(&ste));
    }
    wsprintf(line, "end %d", n);
    log_line(f, line);
    code_line(cs, ip);
    log_line(f, line);
    other_tasks(f, task);
    _lclose(f);

    wsprintf(summary, "%s caused fault %u at %04X:%04X; %d frames logged in PMWATSON.LOG",
             (LPSTR)mod, intno, cs, ip, n);
    if (shown == 'm') {
        r = MessageBox(hwndMain, summary, "PMWATSON", MB_OK | MB_ICONSTOP | MB_TASKMODAL);
    } else if (shown == 'g') {
        /* A modeless report with the callback's own message loop, until
         * the dialog ends (ReportProc's EndDialog hides it; the loop then
         * destroys it). */
        MSG msg;
        HWND dlg = CreateDialog(hInstance, "REPORT", NULL, (DLGPROC)dlgproc);
        dialog_result = 0;
        if (dlg)
            ShowWindow(dlg, SW_SHOWNORMAL);
        while (dlg && IsWindowVisible(dlg) && GetMessage(&msg, NULL, 0, 0)) {
            if (!IsDialogMessage(dlg, &msg)) {
                TranslateMessage(&msg);
                DispatchMessage(&msg);
            }
        }
        if (dlg)
            DestroyWindow(dlg);
        r = dialog_result;
    } else
        r = DialogBox(hInstance, "REPORT", hwndMain, (DLGPROC)dlgproc);
    wsprintf(line, "dialog %d", r);
    out(line);
}

/* The fault callback: entered from TOOLHELP with AX = this program's DS
 * (the MakeProcInstance thunk), the prologue's saved BP at [BP] being
 * the faulting BP plus one (inc bp; push bp). The words after the frame
 * are the low-stack fault's SP and SS. */
void FAR _cdecl _export FaultProc(WORD ax, WORD intno, WORD handle, WORD ip, WORD cs,
                                  WORD flags, WORD lowsp, WORD lowss)
{
    WORD bp = saved_bp() - 1;
    WORD ss = (intno & 0x8000) ? lowss : get_ss();
    WORD number = intno & 0x7FFF;

    if (busy)
        return;
    if (number != INT_DIV0 && number != INT_UDINSTR && number != INT_STKFAULT
        && number != INT_GPFAULT)
        return;
    busy = 1;
    if (shown == 's') {
        /* The report from the tool's own task: a message sent to its
         * window runs there, on its stack, while this task waits. */
        fault.task = GetCurrentTask();
        fault.intno = number;
        fault.cs = cs;
        fault.ip = ip;
        fault.ss = ss;
        fault.bp = bp;
        SendMessage(hwndMain, WM_USER + 1, 0, 0L);
    } else if (shown == 'y') {
        /* Posted to the tool's window; this task yields until the tool's
         * own task has reported. */
        int spins = 0;
        fault.task = GetCurrentTask();
        fault.intno = number;
        fault.cs = cs;
        fault.ip = ip;
        fault.ss = ss;
        fault.bp = bp;
        reported = 0;
        PostMessage(hwndMain, WM_USER + 1, 0, 0L);
        while (!reported && spins++ < 1000)
            DirectedYield(tool_task);
    } else {
        report(GetCurrentTask(), number, cs, ip, ss, bp);
    }
    busy = 0;
    if (mode == 't')
        TerminateApp(NULL, NO_UAE_BOX);
    /* 'p': back to TOOLHELP, which passes the fault on. */
}

BOOL FAR PASCAL _export NotifyProc(WORD wID, DWORD dwData)
{
    if (wID == NFY_EXITTASK) {
        te.dwSize = sizeof te;
        if (TaskFindHandle(&te, GetCurrentTask()))
            copy(mod, te.szModule, sizeof mod);
        else
            copy(mod, "?", sizeof mod);
        wsprintf(line, "exittask %s %u", (LPSTR)mod, (WORD)(dwData & 0xFF));
        out(line);
    }
    return FALSE;
}

LRESULT FAR PASCAL _export WatsonWndProc(HWND hwnd, UINT msg, WPARAM wParam, LPARAM lParam)
{
    switch (msg) {
    case WM_USER + 1:
        wsprintf(line, "report in the tool %d", GetCurrentTask() != fault.task);
        out(line);
        report(fault.task, fault.intno, fault.cs, fault.ip, fault.ss, fault.bp);
        reported = 1;
        return 0;
    case WM_DESTROY: {
        int a = InterruptUnRegister(NULL);
        int b = NotifyUnRegister(NULL);
        wsprintf(line, "closed %d %d", a, b);
        out(line);
        PostQuitMessage(0);
        return 0;
    }
    }
    return DefWindowProc(hwnd, msg, wParam, lParam);
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    WNDCLASS wc;
    MSG msg;
    LPSTR prog = lpCmdLine;
    int a, b;

    hInstance = hInst;
    tool_task = GetCurrentTask();
    if (lpCmdLine[0] == 't' || lpCmdLine[0] == 'p')
        mode = lpCmdLine[0];
    if (lpCmdLine[0] && (lpCmdLine[1] == 'd' || lpCmdLine[1] == 'm' || lpCmdLine[1] == 's'
                           || lpCmdLine[1] == 'g' || lpCmdLine[1] == 'y'))
        shown = lpCmdLine[1];
    if (lpCmdLine[0] && lpCmdLine[1] && lpCmdLine[2] == 'w') {
        /* In the Windows directory, where Dr. Watson kept DRWATSON.LOG. */
        int n = GetWindowsDirectory(log_path, sizeof log_path - 14);
        if (n > 0 && log_path[n - 1] != '\\')
            log_path[n++] = '\\';
        lstrcpy(log_path + n, "PMWATSON.LOG");
    }
    while (*prog && *prog != ' ')
        prog++;
    while (*prog == ' ')
        prog++;

    wc.style = 0;
    wc.lpfnWndProc = WatsonWndProc;
    wc.cbClsExtra = 0;
    wc.cbWndExtra = 0;
    wc.hInstance = hInst;
    wc.hIcon = LoadIcon(NULL, IDI_HAND);
    wc.hCursor = LoadCursor(NULL, IDC_ARROW);
    wc.hbrBackground = GetStockObject(WHITE_BRUSH);
    wc.lpszMenuName = NULL;
    wc.lpszClassName = "PmWatson";
    if (!RegisterClass(&wc))
        return 1;
    hwndMain = CreateWindow("PmWatson", "PmWatson", WS_OVERLAPPEDWINDOW, CW_USEDEFAULT, 0,
                            CW_USEDEFAULT, 0, NULL, NULL, hInst, NULL);
    ShowWindow(hwndMain, SW_SHOWMINNOACTIVE);

    dlgproc = MakeProcInstance((FARPROC)ReportProc, hInst);
    a = InterruptRegister(NULL, MakeProcInstance((FARPROC)FaultProc, hInst));
    b = NotifyRegister(NULL, (LPFNNOTIFYCALLBACK)MakeProcInstance((FARPROC)NotifyProc, hInst),
                       NF_NORMAL);
    wsprintf(line, "register %d %d", a, b);
    out(line);
    if (*prog) {
        wsprintf(line, "winexec %d", WinExec(prog, SW_SHOWNORMAL) > 32);
        out(line);
    }
    while (GetMessage(&msg, NULL, 0, 0)) {
        TranslateMessage(&msg);
        DispatchMessage(&msg);
    }
    return msg.wParam;
}
