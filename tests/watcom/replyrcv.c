/* replyrcv: the receiving task of tests/win16_tasks_reply.rs. Its window
 * procedure answers messages replysnd.c sends from its own task, and
 * prints what it does, with InSendMessage at each step.
 *
 * WM_USER+1: ReplyMessage(0x1234), then more work after the reply, a
 *            second ReplyMessage (no effect: answered already), and a
 *            return value the sender never sees.
 * WM_USER+2: yields (Yield) without replying: the sender stays blocked,
 *            so Yield comes back at once; returns 0x42.
 * WM_USER+3: ReplyMessage(0x77) from inside a message this task sends
 *            its own window while handling the other task's message: it
 *            answers the other task's message (the queue's record of the
 *            message received).
 * WM_USER+6: ReplyMessage(0x1234), then a fault (a write through a null
 *            selector) in the rest of the procedure.
 * WM_USER+9: quit.
 */
#include <windows.h>

static HWND me;

static void say(LPSTR s)
{
    _lwrite(1, s, lstrlen(s));
}

static void sayn(LPSTR what, long n)
{
    char buf[80];
    wsprintf(buf, "%s %lx\r\n", what, n);
    say(buf);
}

LRESULT CALLBACK __export RcvWndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    switch (msg) {
    case WM_USER + 1:
        sayn("receiver got 1, insend", (long)InSendMessage());
        ReplyMessage(0x1234L);
        sayn("receiver replied, insend", (long)InSendMessage());
        ReplyMessage(0x5678L);
        say("receiver goes on\r\n");
        return 0x99L;
    case WM_USER + 2:
        sayn("receiver got 2, insend", (long)InSendMessage());
        Yield();
        sayn("receiver back from yield, insend", (long)InSendMessage());
        return 0x42L;
    case WM_USER + 3:
        sayn("receiver got 3, insend", (long)InSendMessage());
        sayn("receiver own send returned", SendMessage(hwnd, WM_USER + 4, 0, 0L));
        sayn("receiver after own send, insend", (long)InSendMessage());
        return 0x33L;
    case WM_USER + 4:
        sayn("receiver own message, insend", (long)InSendMessage());
        ReplyMessage(0x77L);
        return 0x44L;
    case WM_USER + 6:
        ReplyMessage(0x1234L);
        say("receiver faults after the reply\r\n");
        *(char far *)MAKELP(0, 0x10) = 1;
        return 0;
    case WM_USER + 9:
        PostQuitMessage(0);
        return 0;
    }
    return DefWindowProc(hwnd, msg, wp, lp);
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    WNDCLASS wc;
    MSG msg;
    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = RcvWndProc;
    wc.hInstance = hi;
    wc.lpszClassName = "ReplyRcvWnd";
    RegisterClass(&wc);
    me = CreateWindow("ReplyRcvWnd", "Receiver", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100,
                      NULL, NULL, hi, NULL);
    say("receiver ready\r\n");
    while (GetMessage(&msg, NULL, 0, 0))
        DispatchMessage(&msg);
    say("receiver done\r\n");
    return 0;
}
