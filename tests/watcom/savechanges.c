/* savechanges: a program that asks "Save changes?" when its main window
 * is closed (tests/win16_behave.rs).
 *
 * The session answers a message box with its first button (IDYES for
 * MB_YESNOCANCEL: what Enter picks, MB_DEFBUTTON1 being the default;
 * SDK, MessageBox), except while it closes the program at the end of the
 * run (its default WM_CLOSE): then it answers as a user leaving without
 * saving, IDNO, so the program goes on to destroy its window and quit.
 * A program's own "Save changes?" dialog (savechanges.rc: Yes, No and
 * Cancel buttons with the ids IDYES, IDNO, IDCANCEL) is answered the same
 * way at the close: its No button is clicked. With "own" on the command
 * line the program asks with that dialog instead of MessageBox.
 * Prints:
 *   before 6        a box during the run: IDYES
 *   closing 7       the box (or dialog) WM_CLOSE shows: IDNO
 *   quit 0          the message loop ended
 */
#include <windows.h>
#include <string.h>

static BOOL own;
static HINSTANCE inst;

BOOL FAR PASCAL _export AskProc(HWND h, UINT m, WPARAM w, LPARAM l)
{
    if (m == WM_INITDIALOG)
        return TRUE;
    if (m == WM_COMMAND && (w == IDYES || w == IDNO || w == IDCANCEL)) {
        EndDialog(h, w);
        return TRUE;
    }
    return FALSE;
}

static void say(const char *what, int r)
{
    char buf[64];
    int n = wsprintf(buf, "%s %d\r\n", (LPSTR)what, r);
    _lwrite(1, buf, n);
}

LONG FAR PASCAL _export WndProc(HWND h, UINT m, WPARAM w, LPARAM l)
{
    int r;
    switch (m) {
    case WM_CLOSE:
        if (own)
            r = DialogBox(inst, "ASK", h,
                          (DLGPROC)MakeProcInstance((FARPROC)AskProc, inst));
        else
            r = MessageBox(h, "Save changes to Untitled?", "Editor",
                           MB_YESNOCANCEL | MB_ICONQUESTION);
        say("closing", r);
        if (r == IDNO)
            DestroyWindow(h);
        return 0;
    case WM_DESTROY:
        PostQuitMessage(0);
        return 0;
    }
    return DefWindowProc(h, m, w, l);
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    WNDCLASS wc;
    MSG msg;
    HWND h;

    while (*cmd == ' ')
        cmd++;
    own = cmd[0] == 'o';
    inst = hi;
    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = WndProc;
    wc.hInstance = hi;
    wc.hbrBackground = GetStockObject(WHITE_BRUSH);
    wc.lpszClassName = "Editor";
    RegisterClass(&wc);
    h = CreateWindow("Editor", "Editor", WS_OVERLAPPEDWINDOW, CW_USEDEFAULT,
                     0, CW_USEDEFAULT, 0, NULL, NULL, hi, NULL);
    ShowWindow(h, show);
    UpdateWindow(h);
    say("before", MessageBox(h, "Replace the selection?", "Editor",
                             MB_YESNOCANCEL));
    while (GetMessage(&msg, 0, 0, 0)) {
        TranslateMessage(&msg);
        DispatchMessage(&msg);
    }
    say("quit", msg.wParam);
    return 0;
}
