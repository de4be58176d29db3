/* ddecli: a DDEML client of ddesrv (tests/win16_tasks_dde.rs): a
 * request, a poke, an execute, an advise loop fired by messages sent to
 * the server's window, callbacks held by DdeEnableCallback, a posted
 * message, and a PeekMessage(PM_NOREMOVE) loop that waits for the server.
 *
 * Expected (Windows 3.1 SDK, DdeClientTransaction): a request returns
 * the server's data handle; a poke or execute the server acknowledged
 * (DDE_FACK) and XTYP_ADVSTART it accepted (TRUE) return TRUE; the
 * advise data arrives in this task's callback (XTYP_ADVDATA), posted:
 * when this task retrieves its messages. SDK, ReplyMessage: SendMessage
 * returns the value given to ReplyMessage, before the server's window
 * procedure has returned.
 * SDK, PeekMessage: with no message, it yields to other tasks (unless
 * PM_NOYIELD), so the server can answer while this task polls.
 */
#include <windows.h>
#include <string.h>
#include <dde.h>
#include <ddeml.h>
#include <toolhelp.h>
#pragma library("ddeml")
#pragma library("toolhelp")

unsigned get_ss(void);
#pragma aux get_ss = "mov ax,ss" value [ax];
unsigned get_ds(void);
#pragma aux get_ds = "mov ax,ds" value [ax];

static DWORD idInst;
static unsigned mySS, myDS;
/* The server's task and stack segment, walked from the first advise. */
static HTASK serverTask;
static unsigned serverSS;
static int walked;

static void say(LPSTR s)
{
    _lwrite(1, s, lstrlen(s));
}

/* Retrieve what is posted to this task now, without yielding: DDEML's
 * posted advise data reaches the callback here (SDK, DdePostAdvise:
 * posted, taken by the client's message loop). */
static void drain(void)
{
    MSG m;
    while (PeekMessage(&m, NULL, 0, 0, PM_REMOVE | PM_NOYIELD))
        DispatchMessage(&m);
}

/* The first two frames of another task's stack, by TOOLHELP: module
 * names, and whether the walk is on stack segment `ss`. */
static void walk(LPSTR who, HTASK task, unsigned ss)
{
    STACKTRACEENTRY ste;
    MODULEENTRY me1, me2;
    char buf[128];
    BOOL ok;
    ste.dwSize = sizeof ste;
    me1.dwSize = sizeof me1;
    me2.dwSize = sizeof me2;
    me1.szModule[0] = me2.szModule[0] = 0;
    ok = StackTraceFirst(&ste, task);
    if (ok) {
        ModuleFindHandle(&me1, ste.hModule);
        ok = ste.wSS == ss;
        if (StackTraceNext(&ste))
            ModuleFindHandle(&me2, ste.hModule);
    }
    wsprintf(buf, "%s %s %s ss %s\r\n", who, (LPSTR)me1.szModule,
             (LPSTR)me2.szModule, (LPSTR)(ok ? "its own" : "wrong"));
    say(buf);
}

HDDEDATA CALLBACK __export CliCallback(UINT type, UINT fmt, HCONV hconv,
                                       HSZ hsz1, HSZ hsz2, HDDEDATA hdata,
                                       DWORD d1, DWORD d2)
{
    char buf[96];
    char got[32];
    switch (type) {
    case XTYP_ADVDATA:
        got[0] = 0;
        DdeGetData(hdata, (LPBYTE)got, sizeof got, 0);
        wsprintf(buf, "client advdata %s ss %s ds %s\r\n", (LPSTR)got,
                 (LPSTR)(get_ss() == mySS ? "own" : "other"),
                 (LPSTR)(get_ds() == myDS ? "own" : "other"));
        say(buf);
        if (!walked) {
            walked = 1;
            walk("client walks server", serverTask, serverSS);
        }
        return (HDDEDATA)DDE_FACK;
    case XTYP_DISCONNECT:
        say("client disconnect\r\n");
        return 0;
    }
    return 0;
}

/* Raw DDE with the server: its window, and what came. */
static HWND ddeServer;
static int gotData, gotTerminate;

LRESULT CALLBACK __export CliWndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    char buf[96];
    switch (msg) {
    case WM_DDE_ACK:
        ddeServer = (HWND)wp;
        wsprintf(buf, "client dde ack insend %d\r\n", InSendMessage());
        say(buf);
        GlobalDeleteAtom(LOWORD(lp));
        GlobalDeleteAtom(HIWORD(lp));
        return 0;
    case WM_DDE_DATA: {
        HGLOBAL h = (HGLOBAL)LOWORD(lp);
        DDEDATA FAR *dd = (DDEDATA FAR *)GlobalLock(h);
        BOOL release = dd->fRelease;
        wsprintf(buf, "client dde data %s response %d release %d format %d share %d\r\n",
                 (LPSTR)dd->Value, dd->fResponse, dd->fRelease, dd->cfFormat,
                 (GlobalFlags(h) & GMEM_DDESHARE) != 0);
        say(buf);
        GlobalUnlock(h);
        if (release)
            GlobalFree(h);
        GlobalDeleteAtom(HIWORD(lp));
        gotData = 1;
        return 0;
    }
    case WM_DDE_TERMINATE:
        say("client dde terminate\r\n");
        gotTerminate = 1;
        return 0;
    }
    return DefWindowProc(hwnd, msg, wp, lp);
}

/* A second instance in this task, a server with filters (SDK,
 * DdeInitialize: CBF_FAIL_POKES fails pokes before the callback,
 * CBF_SKIP_CONNECT_CONFIRMS and CBF_SKIP_DISCONNECTS skip those
 * notifications). It prints every transaction its callback gets. */
static DWORD idInst2;

HDDEDATA CALLBACK __export Cli2Callback(UINT type, UINT fmt, HCONV hconv,
                                        HSZ hsz1, HSZ hsz2, HDDEDATA hdata,
                                        DWORD d1, DWORD d2)
{
    char buf[48];
    wsprintf(buf, "second got %04X\r\n", type);
    say(buf);
    if (type == XTYP_CONNECT)
        return (HDDEDATA)TRUE;
    if (type == XTYP_REQUEST)
        return DdeCreateDataHandle(idInst2, (LPBYTE)"two", 4, 0, hsz2, CF_TEXT, 0);
    return 0;
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    HSZ hszService, hszTopic, hszItem;
    HCONV hconv;
    HDDEDATA hd;
    DWORD res, r;
    HWND hwnd;
    MSG msg;
    char buf[96];
    char got[32];
    long n;
    FARPROC cb;
    mySS = get_ss();
    myDS = get_ds();
    cb = MakeProcInstance((FARPROC)CliCallback, hi);
    if (DdeInitialize(&idInst, (PFNCALLBACK)cb, APPCMD_CLIENTONLY, 0L) != DMLERR_NO_ERROR) {
        say("client DdeInitialize failed\r\n");
        return 1;
    }
    hszService = DdeCreateStringHandle(idInst, "TestSrv", CP_WINANSI);
    hszTopic = DdeCreateStringHandle(idInst, "Topic", CP_WINANSI);
    hszItem = DdeCreateStringHandle(idInst, "Item", CP_WINANSI);
    hconv = DdeConnect(idInst, hszService, hszTopic, NULL);
    wsprintf(buf, "client connect %d\r\n", hconv != 0);
    say(buf);
    if (hconv == 0)
        return 2;

    hd = DdeClientTransaction(NULL, 0, hconv, hszItem, CF_TEXT, XTYP_REQUEST, 1000, &res);
    got[0] = 0;
    if (hd) {
        DdeGetData(hd, (LPBYTE)got, sizeof got, 0);
        DdeFreeDataHandle(hd);
    }
    wsprintf(buf, "client request %s\r\n", (LPSTR)got);
    say(buf);

    r = (DWORD)DdeClientTransaction((LPBYTE)"hello", 6, hconv, hszItem, CF_TEXT, XTYP_POKE, 1000, &res);
    wsprintf(buf, "client poke %ld\r\n", r);
    say(buf);
    r = (DWORD)DdeClientTransaction((LPBYTE)"[run]", 6, hconv, 0, 0, XTYP_EXECUTE, 1000, &res);
    wsprintf(buf, "client execute %ld\r\n", r);
    say(buf);
    r = (DWORD)DdeClientTransaction(NULL, 0, hconv, hszItem, CF_TEXT, XTYP_ADVSTART, 1000, &res);
    wsprintf(buf, "client advstart %ld\r\n", r);
    say(buf);

    hwnd = FindWindow("TestSrvWnd", NULL);
    serverTask = GetWindowTask(hwnd);
    /* The server's stack segment is its data segment (SS = DS). */
    serverSS = (unsigned)GetWindowWord(hwnd, GWW_HINSTANCE);
    r = SendMessage(hwnd, WM_USER + 1, (WPARAM)GetCurrentTask(), MAKELONG(get_ss(), 0));
    wsprintf(buf, "client send %lx\r\n", r);
    say(buf);
    drain();
    r = SendMessage(hwnd, WM_USER + 1, 0, 0L);
    wsprintf(buf, "client send %lx\r\n", r);
    say(buf);
    drain();

    /* Held while disabled, given when enabled again. */
    DdeEnableCallback(idInst, hconv, EC_DISABLE);
    SendMessage(hwnd, WM_USER + 1, 0, 0L);
    drain();
    say("client enables\r\n");
    DdeEnableCallback(idInst, hconv, EC_ENABLEALL);

    r = (DWORD)DdeClientTransaction(NULL, 0, hconv, hszItem, CF_TEXT, XTYP_ADVSTOP, 1000, &res);
    wsprintf(buf, "client advstop %ld\r\n", r);
    say(buf);
    SendMessage(hwnd, WM_USER + 1, 0, 0L);

    PostMessage(hwnd, WM_USER + 3, 0, 0L);
    PostMessage(hwnd, WM_USER + 4, (WPARAM)GetCurrentTask(), 0L);
    for (n = 0; n < 100000L; n++) {
        if (PeekMessage(&msg, NULL, 0, 0, PM_NOREMOVE))
            break;
    }
    wsprintf(buf, "client peek %s %x\r\n",
             (LPSTR)(n < 100000L ? "got" : "nothing"), n < 100000L ? msg.message : 0);
    say(buf);
    PeekMessage(&msg, NULL, 0, 0, PM_REMOVE);

    {
        WNDCLASS wc;
        HWND me;
        ATOM aApp, aTopic;
        memset(&wc, 0, sizeof wc);
        wc.lpfnWndProc = CliWndProc;
        wc.hInstance = hi;
        wc.lpszClassName = "TestCliWnd";
        RegisterClass(&wc);
        me = CreateWindow("TestCliWnd", "Client", WS_OVERLAPPEDWINDOW, 0, 0,
                          100, 100, NULL, NULL, hi, NULL);
        aApp = GlobalAddAtom("TestSrv");
        aTopic = GlobalAddAtom("Topic");
        SendMessage((HWND)-1, WM_DDE_INITIATE, (WPARAM)me, MAKELONG(aApp, aTopic));
        GlobalDeleteAtom(aApp);
        GlobalDeleteAtom(aTopic);
        wsprintf(buf, "client dde server %d\r\n", ddeServer == hwnd);
        say(buf);
        PostMessage(ddeServer, WM_DDE_REQUEST, (WPARAM)me,
                    MAKELONG(CF_TEXT, GlobalAddAtom("Item")));
        while (!gotData && GetMessage(&msg, NULL, 0, 0))
            DispatchMessage(&msg);
        PostMessage(ddeServer, WM_DDE_TERMINATE, (WPARAM)me, 0L);
        while (!gotTerminate && GetMessage(&msg, NULL, 0, 0))
            DispatchMessage(&msg);
        /* The server's timer comes due while this task polls (SDK,
         * PeekMessage: it yields; SetTimer: WM_TIMER once the elapse
         * has passed). */
        SendMessage(hwnd, WM_USER + 7, 0, 0L);
        /* A message outside the filter waits meanwhile: PeekMessage finds
         * nothing it would take, and still yields. */
        PostAppMessage(GetCurrentTask(), WM_USER + 20, 0, 0L);
        {
            DWORD start = GetTickCount();
            for (n = 0; n < 100000L; n++) {
                if (PeekMessage(&msg, NULL, WM_USER + 8, WM_USER + 8, PM_NOREMOVE))
                    break;
            }
            wsprintf(buf, "client timer peek %s %x elapsed %s\r\n",
                     (LPSTR)(n < 100000L ? "got" : "nothing"),
                     n < 100000L ? msg.message : 0,
                     (LPSTR)(GetTickCount() - start >= 3000 ? "3000+" : "less"));
            say(buf);
            PeekMessage(&msg, NULL, 0, 0, PM_REMOVE);
            PeekMessage(&msg, NULL, 0, 0, PM_REMOVE);
        }
        DestroyWindow(me);
    }

    {
        HSZ svc2, top2, item2;
        HCONV c2;
        FARPROC cb2 = MakeProcInstance((FARPROC)Cli2Callback, hi);
        DdeInitialize(&idInst2, (PFNCALLBACK)cb2,
                      APPCLASS_STANDARD | CBF_FAIL_POKES | CBF_SKIP_CONNECT_CONFIRMS
                          | CBF_SKIP_DISCONNECTS | CBF_SKIP_REGISTRATIONS,
                      0L);
        svc2 = DdeCreateStringHandle(idInst2, "Second", CP_WINANSI);
        top2 = DdeCreateStringHandle(idInst2, "T2", CP_WINANSI);
        item2 = DdeCreateStringHandle(idInst2, "I2", CP_WINANSI);
        DdeNameService(idInst2, svc2, 0, DNS_REGISTER);
        c2 = DdeConnect(idInst, svc2, top2, NULL);
        r = (DWORD)DdeClientTransaction((LPBYTE)"x", 2, c2, item2, CF_TEXT, XTYP_POKE, 1000, &res);
        wsprintf(buf, "client second poke %ld error %x\r\n", r, DdeGetLastError(idInst));
        say(buf);
        hd = DdeClientTransaction(NULL, 0, c2, item2, CF_TEXT, XTYP_REQUEST, 1000, &res);
        got[0] = 0;
        if (hd)
            DdeGetData(hd, (LPBYTE)got, sizeof got, 0);
        wsprintf(buf, "client second request %s\r\n", (LPSTR)got);
        say(buf);
        wsprintf(buf, "client second disconnect %d\r\n", DdeDisconnect(c2));
        say(buf);
        DdeUninitialize(idInst2);
    }

    wsprintf(buf, "client disconnect %d\r\n", DdeDisconnect(hconv));
    say(buf);
    PostMessage(hwnd, WM_CLOSE, 0, 0L);
    DdeUninitialize(idInst);
    say("client done\r\n");
    return 0;
}
