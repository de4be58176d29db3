/* ddeacli: a DDEML client of ddeasrv (tests/win16_ddeml_async.rs).
 *
 * Expected (Windows 3.1 SDK):
 * - DdeNameService: the other instances get XTYP_REGISTER, then
 *   XTYP_UNREGISTER.
 * - DdeConnect to a service nobody registered: NULL, DdeGetLastError
 *   DMLERR_NO_CONV_ESTABLISHED (0x400A).
 * - DdeQueryConvInfo(QID_SYNC): CONVINFO's size (58 in Windows 3.1's
 *   DDEML.H), hConvPartner the server's own handle, the service, topic,
 *   no item/format/type while quiescent, wStatus ST_CONNECTED | ST_ISLOCAL
 *   | ST_CLIENT (0x15; KB Q83916), wConvst XST_CONNECTED (2).
 * - DdeClientTransaction: a poke answered DDE_FBUSY fails with
 *   DMLERR_BUSY (0x4001) and *pdwResult DDE_FBUSY (0x4000); one answered
 *   DDE_FNOTPROCESSED with DMLERR_NOTPROCESSED (0x4009).
 * - TIMEOUT_ASYNC: TRUE at once, the id in *pdwResult; DdeQueryConvInfo
 *   on the id gives its type and XST_ state; XTYP_XACT_COMPLETE comes in
 *   this task's message loop with dwData1 the id, hData the data (TRUE
 *   for an execute), dwData2 DDE_FACK; DdeSetUserHandle's value is the
 *   transaction's hUser.
 * - CBR_BLOCK: the synchronous transaction waits until the server
 *   enables its callback; a server blocked past the timeout:
 *   DMLERR_DATAACKTIMEOUT (0x4002), also CONVINFO.wLastError.
 * - DdeAbandonTransaction: no XTYP_XACT_COMPLETE for it; an unknown id:
 *   FALSE, DMLERR_UNFOUND_QUEUE_ID (0x4011).
 * - XTYP_ADVSTART accepted: ST_ADVISE (0x17).
 * - DdeConnectList with no topic: XTYP_WILDCONNECT, one conversation per
 *   HSZPAIR, each ST_INLIST (0x55) with hConvList the list.
 * - The server ends the conversation: XTYP_DISCONNECT here, the handle
 *   stays with ST_TERMINATED (0x34); a transaction then fails with
 *   DMLERR_NO_CONV_ESTABLISHED.
 */
#include <windows.h>
#include <string.h>
#include <ddeml.h>
#pragma library("ddeml")

static DWORD idInst;
static HCONV hconv;
static int done, disconnected;
static DWORD lastId;

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

HDDEDATA CALLBACK __export CliCallback(UINT type, UINT fmt, HCONV hc,
                                       HSZ hsz1, HSZ hsz2, HDDEDATA hdata,
                                       DWORD d1, DWORD d2)
{
    char buf[128];
    char got[16];
    switch (type) {
    case XTYP_XACT_COMPLETE: {
        CONVINFO ci;
        ci.cb = sizeof ci;
        ci.hUser = 0;
        ci.wType = 0;
        DdeQueryConvInfo(hc, d1, &ci);
        got[0] = 0;
        if ((DWORD)hdata > 1)
            DdeGetData(hdata, (LPBYTE)got, sizeof got, 0);
        else
            wsprintf(got, "%ld", (DWORD)hdata);
        wsprintf(buf, "client complete id %s data %s status %lX user %lX type %X\r\n",
                 (LPSTR)(d1 == lastId ? "ok" : "other"), (LPSTR)got, d2, ci.hUser, ci.wType);
        say(buf);
        done = 1;
        return 0;
    }
    case XTYP_DISCONNECT:
        say("client disconnect\r\n");
        disconnected = 1;
        return 0;
    }
    return 0;
}

/* Sent by the server while this task waits in a synchronous transaction
 * (SDK, DdeClientTransaction: DMLERR_REENTRANCY). */
LRESULT CALLBACK __export CliWndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    char buf[64];
    DWORD res;
    if (msg == WM_USER + 9) {
        HDDEDATA r = DdeClientTransaction((LPBYTE)"[x]", 4, hconv, 0, 0, XTYP_EXECUTE, 1000, &res);
        wsprintf(buf, "client reentrant %ld error %X\r\n", (DWORD)r, DdeGetLastError(idInst));
        _lwrite(1, buf, lstrlen(buf));
        return 0;
    }
    return DefWindowProc(hwnd, msg, wp, lp);
}

static void info(LPSTR what, HCONV h)
{
    CONVINFO ci;
    char buf[200];
    char svc[32], req[32], topic[32];
    UINT n;
    memset(&ci, 0xEE, sizeof ci);
    ci.cb = sizeof ci;
    n = DdeQueryConvInfo(h, QID_SYNC, &ci);
    name(ci.hszSvcPartner, svc, sizeof svc);
    name(ci.hszServiceReq, req, sizeof req);
    name(ci.hszTopic, topic, sizeof topic);
    wsprintf(buf, "client %s cb %u status %X convst %u svc %s req %s topic %s item %lX fmt %u "
                  "type %X error %X list %s\r\n",
             what, n, ci.wStatus, ci.wConvst, (LPSTR)svc, (LPSTR)req, (LPSTR)topic,
             (DWORD)ci.hszItem, ci.wFmt, ci.wType, ci.wLastError,
             (LPSTR)(ci.hConvList ? "set" : "0"));
    say(buf);
}

/* Run this task's message loop until the callback saw what it waits for. */
static void pump(int *flag)
{
    MSG msg;
    long n;
    for (n = 0; n < 1000 && !*flag; n++) {
        if (PeekMessage(&msg, NULL, 0, 0, PM_REMOVE))
            DispatchMessage(&msg);
    }
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    HSZ hszService, hszTopic, hszItem, hszBlock, hszBusy, hszNack, hszNobody, hszMe;
    HDDEDATA hd;
    DWORD res, r, id;
    HWND srv;
    char buf[128];
    char got[16];
    FARPROC cb;
    cb = MakeProcInstance((FARPROC)CliCallback, hi);
    if (DdeInitialize(&idInst, (PFNCALLBACK)cb, APPCLASS_STANDARD, 0L) != DMLERR_NO_ERROR) {
        say("client DdeInitialize failed\r\n");
        return 1;
    }
    hszService = DdeCreateStringHandle(idInst, "AsyncSrv", CP_WINANSI);
    hszTopic = DdeCreateStringHandle(idInst, "Topic", CP_WINANSI);
    hszItem = DdeCreateStringHandle(idInst, "Item", CP_WINANSI);
    hszBlock = DdeCreateStringHandle(idInst, "Block", CP_WINANSI);
    hszBusy = DdeCreateStringHandle(idInst, "Busy", CP_WINANSI);
    hszNack = DdeCreateStringHandle(idInst, "Nack", CP_WINANSI);
    hszNobody = DdeCreateStringHandle(idInst, "Nobody", CP_WINANSI);
    hszMe = DdeCreateStringHandle(idInst, "AsyncCli", CP_WINANSI);
    srv = FindWindow("AsyncSrvWnd", NULL);
    {
        WNDCLASS wc;
        memset(&wc, 0, sizeof wc);
        wc.lpfnWndProc = CliWndProc;
        wc.hInstance = hi;
        wc.lpszClassName = "AsyncCliWnd";
        RegisterClass(&wc);
        CreateWindow("AsyncCliWnd", "Client", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100, NULL, NULL,
                     hi, NULL);
    }

    DdeNameService(idInst, hszMe, 0, DNS_REGISTER);
    DdeNameService(idInst, hszMe, 0, DNS_UNREGISTER);

    hconv = DdeConnect(idInst, hszNobody, hszTopic, NULL);
    wsprintf(buf, "client nobody %d error %X\r\n", hconv != 0, DdeGetLastError(idInst));
    say(buf);

    hconv = DdeConnect(idInst, hszService, hszTopic, NULL);
    wsprintf(buf, "client conv %lX\r\n", (DWORD)hconv);
    say(buf);
    {
        CONVINFO ci;
        ci.cb = sizeof ci;
        DdeQueryConvInfo(hconv, QID_SYNC, &ci);
        wsprintf(buf, "client partner %lX\r\n", (DWORD)ci.hConvPartner);
        say(buf);
    }
    info("info", hconv);

    r = (DWORD)DdeClientTransaction((LPBYTE)"[query]", 8, hconv, 0, 0, XTYP_EXECUTE, 1000, &res);
    wsprintf(buf, "client execute %ld result %lX\r\n", r, res);
    say(buf);

    r = (DWORD)DdeClientTransaction((LPBYTE)"x", 2, hconv, hszBusy, CF_TEXT, XTYP_POKE, 1000, &res);
    wsprintf(buf, "client poke busy %ld error %X result %lX\r\n", r, DdeGetLastError(idInst), res);
    say(buf);
    r = (DWORD)DdeClientTransaction((LPBYTE)"x", 2, hconv, hszNack, CF_TEXT, XTYP_POKE, 1000, &res);
    wsprintf(buf, "client poke nack %ld error %X result %lX\r\n", r, DdeGetLastError(idInst), res);
    say(buf);

    /* Asynchronous: the server runs only when this task lets it. */
    id = 0;
    r = (DWORD)DdeClientTransaction((LPBYTE)"[go]", 5, hconv, 0, 0, XTYP_EXECUTE, TIMEOUT_ASYNC, &id);
    lastId = id;
    wsprintf(buf, "client async %ld id %s\r\n", r, (LPSTR)(id ? "set" : "0"));
    say(buf);
    DdeSetUserHandle(hconv, id, 0x5678L);
    {
        CONVINFO ci;
        ci.cb = sizeof ci;
        DdeQueryConvInfo(hconv, id, &ci);
        wsprintf(buf, "client async info type %X convst %u user %lX\r\n", ci.wType, ci.wConvst,
                 ci.hUser);
        say(buf);
    }
    done = 0;
    pump(&done);

    r = (DWORD)DdeClientTransaction(NULL, 0, hconv, hszItem, CF_TEXT, XTYP_REQUEST, TIMEOUT_ASYNC, &id);
    lastId = id;
    wsprintf(buf, "client async request %ld\r\n", r);
    say(buf);
    done = 0;
    pump(&done);

    /* CBR_BLOCK: the server's window procedure enables its callback while
     * this task waits. */
    PostMessage(srv, WM_USER + 3, 0, 0L);
    hd = DdeClientTransaction(NULL, 0, hconv, hszBlock, CF_TEXT, XTYP_REQUEST, 5000, &res);
    got[0] = 0;
    if (hd)
        DdeGetData(hd, (LPBYTE)got, sizeof got, 0);
    wsprintf(buf, "client block %s error %X\r\n", (LPSTR)got, DdeGetLastError(idInst));
    say(buf);

    /* A server that stays blocked: the timeout. */
    DdeClientTransaction((LPBYTE)"[disable]", 10, hconv, 0, 0, XTYP_EXECUTE, 1000, &res);
    {
        DWORD start = GetTickCount();
        hd = DdeClientTransaction(NULL, 0, hconv, hszItem, CF_TEXT, XTYP_REQUEST, 1000, &res);
        wsprintf(buf, "client timeout %ld error %X waited %s\r\n", (DWORD)hd,
                 DdeGetLastError(idInst),
                 (LPSTR)(GetTickCount() - start >= 1000 ? "1000+" : "less"));
        say(buf);
    }
    info("after", hconv);

    /* Abandoned while held; then another that completes. */
    DdeClientTransaction(NULL, 0, hconv, hszItem, CF_TEXT, XTYP_REQUEST, TIMEOUT_ASYNC, &id);
    {
        CONVINFO ci;
        ci.cb = sizeof ci;
        DdeQueryConvInfo(hconv, id, &ci);
        wsprintf(buf, "client held info type %X convst %u\r\n", ci.wType, ci.wConvst);
        say(buf);
    }
    r = DdeAbandonTransaction(idInst, hconv, id);
    wsprintf(buf, "client abandon %ld\r\n", r);
    say(buf);
    r = DdeAbandonTransaction(idInst, hconv, id + 100);
    wsprintf(buf, "client abandon unknown %ld error %X\r\n", r, DdeGetLastError(idInst));
    say(buf);
    DdeClientTransaction(NULL, 0, hconv, hszItem, CF_TEXT, XTYP_REQUEST, TIMEOUT_ASYNC, &id);
    lastId = id;
    PostMessage(srv, WM_USER + 1, 0, 0L);
    done = 0;
    pump(&done);

    r = (DWORD)DdeClientTransaction(NULL, 0, hconv, hszItem, CF_TEXT, XTYP_ADVSTART, 1000, &res);
    wsprintf(buf, "client advstart %ld\r\n", r);
    say(buf);
    info("advise", hconv);

    {
        HCONVLIST list = DdeConnectList(idInst, hszService, 0, 0, NULL);
        HCONV c = 0;
        int n = 0;
        while ((c = DdeQueryNextServer(list, c)) != 0) {
            CONVINFO ci;
            char topic[32];
            ci.cb = sizeof ci;
            DdeQueryConvInfo(c, QID_SYNC, &ci);
            name(ci.hszTopic, topic, sizeof topic);
            wsprintf(buf, "client list %s status %X inlist %d\r\n", (LPSTR)topic, ci.wStatus,
                     ci.hConvList == list);
            say(buf);
            n++;
        }
        wsprintf(buf, "client list count %d\r\n", n);
        say(buf);
        wsprintf(buf, "client list disconnect %d\r\n", DdeDisconnectList(list));
        say(buf);
    }

    /* The server ends the conversation (while this task waits in
     * SendMessage, its callback gets XTYP_DISCONNECT). */
    SendMessage(srv, WM_USER + 2, 0, 0L);
    wsprintf(buf, "client saw disconnect %d\r\n", disconnected);
    say(buf);
    info("ended", hconv);
    r = (DWORD)DdeClientTransaction(NULL, 0, hconv, hszItem, CF_TEXT, XTYP_REQUEST, 1000, &res);
    wsprintf(buf, "client after end %ld error %X\r\n", r, DdeGetLastError(idInst));
    say(buf);
    wsprintf(buf, "client disconnect %d\r\n", DdeDisconnect(hconv));
    say(buf);

    /* DdeUninitialize ends the instance's conversations. */
    hconv = DdeConnect(idInst, hszService, hszTopic, NULL);
    wsprintf(buf, "client uninitialize %d\r\n", DdeUninitialize(idInst));
    say(buf);
    /* A task that ends without DdeUninitialize: its conversation ends
     * too, the server hears it in its message loop. */
    {
        DWORD id2 = 0;
        DdeInitialize(&id2, (PFNCALLBACK)cb, APPCMD_CLIENTONLY, 0L);
        DdeConnect(id2, DdeCreateStringHandle(id2, "AsyncSrv", CP_WINANSI),
                   DdeCreateStringHandle(id2, "Topic", CP_WINANSI), NULL);
    }
    PostMessage(srv, WM_CLOSE, 0, 0L);
    say("client done\r\n");
    return 0;
}
