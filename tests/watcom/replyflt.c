/* replyflt: a sender of tests/win16_tasks_reply.rs whose message makes
 * replyrcv.c's window procedure reply and then fault: the sender has its
 * reply and goes on; the fault ends the receiver's task only.
 */
#include <windows.h>

static void say(LPSTR s)
{
    _lwrite(1, s, lstrlen(s));
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    char buf[64];
    HWND hwnd = FindWindow("ReplyRcvWnd", NULL);
    wsprintf(buf, "sender got %lx\r\n", SendMessage(hwnd, WM_USER + 6, 0, 0L));
    say(buf);
    Yield();
    wsprintf(buf, "sender after yield, receiver %s\r\n",
             (LPSTR)(IsWindow(hwnd) ? "there" : "gone"));
    say(buf);
    return 5;
}
