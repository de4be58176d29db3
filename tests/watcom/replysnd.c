/* replysnd: the sending task of tests/win16_tasks_reply.rs. It sends
 * replyrcv.c's window messages and prints, in order with the receiver's
 * lines, what each SendMessage returned and when it returned.
 */
#include <windows.h>

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

LRESULT CALLBACK __export SndWndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    if (msg == WM_USER + 5) {
        /* Sent by this task itself: ReplyMessage has no effect. */
        ReplyMessage(5L);
        return 6L;
    }
    return DefWindowProc(hwnd, msg, wp, lp);
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    WNDCLASS wc;
    HWND own;
    HWND hwnd = FindWindow("ReplyRcvWnd", NULL);

    sayn("sender insend", (long)InSendMessage());
    sayn("sender got", SendMessage(hwnd, WM_USER + 1, 0, 0L));
    /* The receiver is still inside its window procedure: it goes on when
     * this task yields. */
    Yield();
    say("sender back from yield\r\n");
    sayn("sender got", SendMessage(hwnd, WM_USER + 2, 0, 0L));
    sayn("sender got", SendMessage(hwnd, WM_USER + 3, 0, 0L));
    Yield();
    say("sender back from yield\r\n");

    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = SndWndProc;
    wc.hInstance = hi;
    wc.lpszClassName = "ReplySndWnd";
    RegisterClass(&wc);
    own = CreateWindow("ReplySndWnd", "Sender", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100,
                       NULL, NULL, hi, NULL);
    sayn("sender own send got", SendMessage(own, WM_USER + 5, 0, 0L));
    PostMessage(hwnd, WM_USER + 9, 0, 0L);
    say("sender done\r\n");
    return 0;
}
