/* ddeasrv: a DDEML server for ddeacli (tests/win16_ddeml_async.rs): two
 * programs, each its own DDEML instance, as Windows 3.1 ran them.
 *
 * It prints what its callback gets: XTYP_REGISTER / XTYP_UNREGISTER of the
 * client's service name, XTYP_CONNECT and XTYP_WILDCONNECT (answered
 * with two HSZPAIRs), its own conversation handle at XTYP_CONNECT_CONFIRM
 * (the client compares it with CONVINFO.hConvPartner), requests (one
 * blocked with CBR_BLOCK until its window procedure enables the
 * callback), pokes answered DDE_FBUSY or not processed, executes
 * ("[query]" prints its own CONVINFO, "[disable]" blocks the callback).
 *
 * Expected (Windows 3.1 SDK): XTYP_REGISTER hsz1 the base service name,
 * hsz2 the instance-specific one; XTYP_WILDCONNECT answered with an
 * HSZPAIR array ended by a NULL pair; CBR_BLOCK blocks the conversation
 * until DdeEnableCallback, which gives the transaction again; CONVINFO
 * (DdeQueryConvInfo, KB Q83916): a server's handle has no ST_CLIENT.
 */
#include <windows.h>
#include <string.h>
#include <ddeml.h>
#pragma library("ddeml")

static DWORD idInst;
static HSZ hszService, hszTopic, hszOther;
static HCONV mainConv;
static int blockedOnce;

static void say(LPSTR s)
{
    _lwrite(1, s, lstrlen(s));
}

static void name(HSZ h, LPSTR buf, int n)
{
    buf[0] = 0;
    if (h)
        DdeQueryString(idInst, h, buf, n, CP_WINANSI);
}

HDDEDATA CALLBACK __export SrvCallback(UINT type, UINT fmt, HCONV hconv,
                                       HSZ hsz1, HSZ hsz2, HDDEDATA hdata,
                                       DWORD d1, DWORD d2)
{
    char buf[128];
    char s1[40], s2[40];
    switch (type) {
    case XTYP_REGISTER:
    case XTYP_UNREGISTER:
        name(hsz1, s1, sizeof s1);
        name(hsz2, s2, sizeof s2);
        /* The instance-specific name: the base name, then "(". */
        wsprintf(buf, "server %s %s inst %s\r\n",
                 (LPSTR)(type == XTYP_REGISTER ? "register" : "unregister"),
                 (LPSTR)s1,
                 (LPSTR)(_fstrncmp(s2, s1, lstrlen(s1)) == 0 && s2[lstrlen(s1)] == '('
                         ? "named" : "wrong"));
        say(buf);
        return 0;
    case XTYP_CONNECT:
        name(hsz1, s1, sizeof s1);
        name(hsz2, s2, sizeof s2);
        wsprintf(buf, "server connect %s %s same %ld\r\n", (LPSTR)s2, (LPSTR)s1, d2);
        say(buf);
        return (HDDEDATA)(DWORD)(hsz1 == hszTopic);
    case XTYP_WILDCONNECT: {
        HSZPAIR pairs[3];
        name(hsz1, s1, sizeof s1);
        name(hsz2, s2, sizeof s2);
        wsprintf(buf, "server wildconnect service %s topic %s\r\n",
                 (LPSTR)(hsz2 ? s2 : "(any)"), (LPSTR)(hsz1 ? s1 : "(any)"));
        say(buf);
        pairs[0].hszSvc = hszService;
        pairs[0].hszTopic = hszTopic;
        pairs[1].hszSvc = hszService;
        pairs[1].hszTopic = hszOther;
        pairs[2].hszSvc = 0;
        pairs[2].hszTopic = 0;
        return DdeCreateDataHandle(idInst, (LPBYTE)pairs, sizeof pairs, 0, 0, 0, 0);
    }
    case XTYP_CONNECT_CONFIRM:
        name(hsz1, s1, sizeof s1);
        wsprintf(buf, "server confirm %s\r\n", (LPSTR)s1);
        say(buf);
        if (!mainConv) {
            mainConv = hconv;
            wsprintf(buf, "server conv %lX\r\n", (DWORD)hconv);
            say(buf);
        }
        return 0;
    case XTYP_REQUEST:
        name(hsz2, s2, sizeof s2);
        wsprintf(buf, "server request %s\r\n", (LPSTR)s2);
        say(buf);
        if (lstrcmp(s2, "Block") == 0 && !blockedOnce) {
            blockedOnce = 1;
            say("server blocks\r\n");
            return CBR_BLOCK;
        }
        return DdeCreateDataHandle(idInst, (LPBYTE)(lstrcmp(s2, "Block") == 0 ? "late" : "42"),
                                   5, 0, hsz2, CF_TEXT, 0);
    case XTYP_POKE:
        name(hsz2, s2, sizeof s2);
        wsprintf(buf, "server poke %s\r\n", (LPSTR)s2);
        say(buf);
        if (lstrcmp(s2, "Busy") == 0)
            return (HDDEDATA)DDE_FBUSY;
        if (lstrcmp(s2, "Nack") == 0)
            return (HDDEDATA)DDE_FNOTPROCESSED;
        return (HDDEDATA)DDE_FACK;
    case XTYP_EXECUTE: {
        char cmd[32];
        cmd[0] = 0;
        DdeGetData(hdata, (LPBYTE)cmd, sizeof cmd, 0);
        wsprintf(buf, "server execute %s\r\n", (LPSTR)cmd);
        say(buf);
        if (lstrcmp(cmd, "[query]") == 0) {
            CONVINFO ci;
            ci.cb = sizeof ci;
            DdeQueryConvInfo(hconv, QID_SYNC, &ci);
            name(ci.hszTopic, s1, sizeof s1);
            wsprintf(buf, "server info status %X topic %s partner %lX\r\n",
                     ci.wStatus, (LPSTR)s1, (DWORD)ci.hConvPartner);
            say(buf);
        }
        if (lstrcmp(cmd, "[disable]") == 0)
            DdeEnableCallback(idInst, hconv, EC_DISABLE);
        return (HDDEDATA)DDE_FACK;
    }
    case XTYP_ADVSTART:
        return (HDDEDATA)TRUE;
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
    case WM_USER + 3:
        /* Posted by the client, which then waits on a blocked request:
         * its window gets a message first (it tries a transaction). */
        SendMessage(FindWindow("AsyncCliWnd", NULL), WM_USER + 9, 0, 0L);
        /* fall through */
    case WM_USER + 1:
        /* Posted by the client: every held transaction comes now. */
        say("server enables\r\n");
        blockedOnce = 2;
        DdeEnableCallback(idInst, 0, EC_ENABLEALL);
        return 0;
    case WM_USER + 2: {
        /* Posted by the client: this side ends the conversation. */
        CONVINFO ci;
        ci.cb = sizeof ci;
        DdeQueryConvInfo(mainConv, QID_SYNC, &ci);
        wsprintf(buf, "server ends status %X\r\n", ci.wStatus);
        say(buf);
        DdeDisconnect(mainConv);
        return 0;
    }
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
    cb = MakeProcInstance((FARPROC)SrvCallback, hi);
    if (DdeInitialize(&idInst, (PFNCALLBACK)cb, APPCLASS_STANDARD, 0L) != DMLERR_NO_ERROR) {
        say("server DdeInitialize failed\r\n");
        return 1;
    }
    hszService = DdeCreateStringHandle(idInst, "AsyncSrv", CP_WINANSI);
    hszTopic = DdeCreateStringHandle(idInst, "Topic", CP_WINANSI);
    hszOther = DdeCreateStringHandle(idInst, "Other", CP_WINANSI);
    DdeNameService(idInst, hszService, 0, DNS_REGISTER);
    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = SrvWndProc;
    wc.hInstance = hi;
    wc.lpszClassName = "AsyncSrvWnd";
    RegisterClass(&wc);
    hwnd = CreateWindow("AsyncSrvWnd", "Server", WS_OVERLAPPEDWINDOW, 0, 0,
                        200, 100, NULL, NULL, hi, NULL);
    ShowWindow(hwnd, show);
    say("server ready\r\n");
    while (GetMessage(&msg, NULL, 0, 0)) {
        TranslateMessage(&msg);
        DispatchMessage(&msg);
    }
    DdeUninitialize(idInst);
    say("server done\r\n");
    return 0;
}
