/* dlgclass: dialogs whose template names their own window class (the
 * CLASS statement) and that have no dialog procedure
 * (tests/win16_behave.rs).
 *
 * Windows 3.1 SDK, "Dialog Boxes" (CLASS statement) and RegisterClass: a
 * dialog of a private class gets its messages through the class's window
 * procedure, which passes what it does not handle to DefDlgProc; the class
 * must reserve DLGWINDOWEXTRA window bytes. With a NULL lpDialogFunc
 * DWL_DLGPROC is 0 and DefDlgProc does the defaults itself.
 * Prints:
 *   registered 1
 *   modeless 1            CreateDialog(hInst, "MAIN", NULL, NULL) != 0
 *   class MyDlgClass      GetClassName of the dialog
 *   inits 1               the class procedure saw WM_INITDIALOG once
 *   item 1                the template's push button exists
 *   dlgproc 0             GetWindowLong(DWL_DLGPROC)
 *   modal 7               DialogBox(..., NULL): the class procedure
 *                         ended it with EndDialog(h, 7) in WM_INITDIALOG
 *   quit 3                PostQuitMessage(3) from WM_DESTROY after the
 *                         session's WM_CLOSE (DefDlgProc posts IDCANCEL;
 *                         the class procedure destroys the window)
 */
#include <windows.h>
#include <string.h>

static void say(const char *what, long r)
{
    char buf[128];
    int n = wsprintf(buf, "%s %ld\r\n", (LPSTR)what, r);
    _lwrite(1, buf, n);
}

static int inits;
static BOOL modal;

LONG FAR PASCAL _export ClassProc(HWND h, UINT m, WPARAM w, LPARAM l)
{
    switch (m) {
    case WM_INITDIALOG:
        inits++;
        if (modal)
            EndDialog(h, 7);
        break;
    case WM_COMMAND:
        if (w == IDCANCEL && !modal) {
            DestroyWindow(h);
            return 0;
        }
        break;
    case WM_DESTROY:
        if (!modal)
            PostQuitMessage(3);
        break;
    }
    return DefDlgProc(h, m, w, l);
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    WNDCLASS wc;
    HWND h;
    MSG msg;
    char name[32];

    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = ClassProc;
    wc.cbWndExtra = DLGWINDOWEXTRA;
    wc.hInstance = hi;
    wc.hbrBackground = COLOR_WINDOW + 1;
    wc.lpszClassName = "MyDlgClass";
    say("registered", RegisterClass(&wc) != 0);
    modal = TRUE;
    inits = 0;
    say("modal", DialogBox(hi, "MAIN", NULL, NULL));
    modal = FALSE;
    inits = 0;
    h = CreateDialog(hi, "MAIN", NULL, NULL);
    say("modeless", h != 0);
    GetClassName(h, name, sizeof name);
    _lwrite(1, "class ", 6);
    _lwrite(1, name, lstrlen(name));
    _lwrite(1, "\r\n", 2);
    say("inits", inits);
    say("item", GetDlgItem(h, 101) != 0);
    say("dlgproc", GetWindowLong(h, DWL_DLGPROC));
    ShowWindow(h, show);
    while (GetMessage(&msg, 0, 0, 0)) {
        if (!IsDialogMessage(h, &msg)) {
            TranslateMessage(&msg);
            DispatchMessage(&msg);
        }
    }
    say("quit", msg.wParam);
    return 0;
}
