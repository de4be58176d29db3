/* ddesrv: a DDEML server with a window, run together with ddecli
 * (tests/win16_tasks_dde.rs).
 *
 * Its DDEML callback and its window procedure print what they get and
 * whether they run with this task's own SS and DS (the values WinMain
 * saw): Windows 3.1 runs a DDEML callback in the task that called
 * DdeInitialize and a message sent from another task in the receiving
 * task (SDK, SendMessage, InSendMessage), so both print "own".
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
static HSZ hszService, hszTopic, hszItem;
static unsigned mySS, myDS;
static int counter;

static void say(LPSTR s)
{
    _lwrite(1, s, lstrlen(s));
}

static void where(LPSTR what)
{
    char buf[96];
    wsprintf(buf, "server %s ss %s ds %s\r\n", what,
             (LPSTR)(get_ss() == mySS ? "own" : "other"),
             (LPSTR)(get_ds() == myDS ? "own" : "other"));
    say(buf);
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

HDDEDATA CALLBACK __export SrvCallback(UINT type, UINT fmt, HCONV hconv,
                                       HSZ hsz1, HSZ hsz2, HDDEDATA hdata,
                                       DWORD d1, DWORD d2)
{
    char buf[96];
    char got[64];
    switch (type) {
    case XTYP_CONNECT:
        where("connect");
        return (HDDEDATA)(DWORD)(DdeCmpStringHandles(hsz1, hszTopic) == 0);
    case XTYP_CONNECT_CONFIRM:
        say("server confirm\r\n");
        return 0;
    case XTYP_REQUEST:
        where("request");
        return DdeCreateDataHandle(idInst, (LPBYTE)"42", 3, 0, hszItem, CF_TEXT, 0);
    case XTYP_POKE:
    case XTYP_EXECUTE:
        got[0] = 0;
        DdeGetData(hdata, (LPBYTE)got, sizeof got, 0);
        wsprintf(buf, "server %s %s\r\n",
                 (LPSTR)(type == XTYP_POKE ? "poke" : "execute"), (LPSTR)got);
        say(buf);
        return (HDDEDATA)DDE_FACK;
    case XTYP_ADVSTART:
        where("advstart");
        return (HDDEDATA)TRUE;
    case XTYP_ADVREQ:
        counter++;
        wsprintf(got, "%d", counter);
        wsprintf(buf, "advreq %s left %ld", (LPSTR)got, d1);
        where(buf);
        return DdeCreateDataHandle(idInst, (LPBYTE)got, lstrlen(got) + 1, 0,
                                   hszItem, CF_TEXT, 0);
    case XTYP_ADVSTOP:
        say("server advstop\r\n");
        return 0;
    case XTYP_DISCONNECT:
        say("server disconnect\r\n");
        return 0;
    }
    return 0;
}

LRESULT CALLBACK __export SrvWndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    char buf[64];
    switch (msg) {
    case WM_USER + 1:
        wsprintf(buf, "server sent insend %d\r\n", InSendMessage());
        say(buf);
        where("sent");
        if (wp)
            walk("server walks client", (HTASK)wp, LOWORD(lp));
        DdePostAdvise(idInst, hszTopic, hszItem);
        ReplyMessage(0x1234L);
        return 0x99L;
    case WM_USER + 6:
        /* A fault in a message another task sent (sendflt.c). */
        wsprintf(buf, "server faults ss %04X ds %04X\r\n", get_ss(), get_ds());
        say(buf);
        *(char far *)MAKELP(0, 0x10) = 1;
        return 0;
    case WM_USER + 7:
        /* Sent: a timer, whose tick tells the client's window. */
        SetTimer(hwnd, 1, 3000, NULL);
        return 0;
    case WM_TIMER:
        KillTimer(hwnd, 1);
        say("server timer\r\n");
        PostMessage(FindWindow("TestCliWnd", NULL), WM_USER + 8, 0, 0L);
        return 0;
    case WM_USER + 3:
        wsprintf(buf, "server posted insend %d\r\n", InSendMessage());
        say(buf);
        return 0;
    case WM_USER + 4:
        /* wParam: the client's task, which waits in a PeekMessage loop. */
        say("server posts to the client\r\n");
        PostAppMessage((HTASK)wp, WM_USER + 5, 0, 0L);
        return 0;
    case WM_DDE_INITIATE: {
        /* Raw DDE (SDK, WM_DDE_INITIATE): answer our service and topic
         * with WM_DDE_ACK sent back, with atoms of our own. */
        char app[32], topic[32];
        app[0] = topic[0] = 0;
        GlobalGetAtomName(LOWORD(lp), app, sizeof app);
        GlobalGetAtomName(HIWORD(lp), topic, sizeof topic);
        wsprintf(buf, "server dde initiate %s %s insend %d\r\n", (LPSTR)app,
                 (LPSTR)topic, InSendMessage());
        say(buf);
        if (lstrcmpi(app, "TestSrv") == 0 && lstrcmpi(topic, "Topic") == 0)
            SendMessage((HWND)wp, WM_DDE_ACK, (WPARAM)hwnd,
                        MAKELONG(GlobalAddAtom("TestSrv"), GlobalAddAtom("Topic")));
        return 0;
    }
    case WM_DDE_REQUEST: {
        /* SDK, WM_DDE_REQUEST / WM_DDE_DATA: the data in a
         * GMEM_DDESHARE block, fResponse set, released by the client. */
        HGLOBAL h;
        DDEDATA FAR *dd;
        char item[32];
        item[0] = 0;
        GlobalGetAtomName(HIWORD(lp), item, sizeof item);
        wsprintf(buf, "server dde request %s format %d\r\n", (LPSTR)item, LOWORD(lp));
        say(buf);
        h = GlobalAlloc(GMEM_MOVEABLE | GMEM_DDESHARE, sizeof(DDEDATA) + 3);
        dd = (DDEDATA FAR *)GlobalLock(h);
        dd->unused = 0;
        dd->fResponse = 1;
        dd->fRelease = 1;
        dd->reserved = 0;
        dd->fAckReq = 0;
        dd->cfFormat = CF_TEXT;
        lstrcpy((LPSTR)dd->Value, "77");
        GlobalUnlock(h);
        PostMessage((HWND)wp, WM_DDE_DATA, (WPARAM)hwnd, MAKELONG(h, HIWORD(lp)));
        return 0;
    }
    case WM_DDE_TERMINATE:
        say("server dde terminate\r\n");
        PostMessage((HWND)wp, WM_DDE_TERMINATE, (WPARAM)hwnd, 0L);
        return 0;
    case WM_DESTROY:
        PostQuitMessage(0);
        return 0;
    }
    return DefWindowProc(hwnd, msg, wp, lp);
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    WNDCLASS wc;
    MSG msg;
    HWND hwnd;
    FARPROC cb;
    mySS = get_ss();
    myDS = get_ds();
    cb = MakeProcInstance((FARPROC)SrvCallback, hi);
    if (DdeInitialize(&idInst, (PFNCALLBACK)cb, APPCLASS_STANDARD, 0L) != DMLERR_NO_ERROR) {
        say("server DdeInitialize failed\r\n");
        return 1;
    }
    hszService = DdeCreateStringHandle(idInst, "TestSrv", CP_WINANSI);
    hszTopic = DdeCreateStringHandle(idInst, "Topic", CP_WINANSI);
    hszItem = DdeCreateStringHandle(idInst, "Item", CP_WINANSI);
    DdeNameService(idInst, hszService, 0, DNS_REGISTER);
    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = SrvWndProc;
    wc.hInstance = hi;
    wc.hbrBackground = GetStockObject(WHITE_BRUSH);
    wc.lpszClassName = "TestSrvWnd";
    RegisterClass(&wc);
    hwnd = CreateWindow("TestSrvWnd", "Server", WS_OVERLAPPEDWINDOW, 0, 0,
                        200, 100, NULL, NULL, hi, NULL);
    ShowWindow(hwnd, show);
    say("server ready\r\n");
    while (GetMessage(&msg, NULL, 0, 0)) {
        TranslateMessage(&msg);
        DispatchMessage(&msg);
    }
    DdeNameService(idInst, hszService, 0, DNS_UNREGISTER);
    DdeUninitialize(idInst);
    say("server done\r\n");
    return 0;
}
