/* msgbox: two message boxes, then a clean exit (tests/win16_behave.rs).
 *
 * Expected (Windows 3.1 SDK, MessageBox): the function returns the button
 * chosen; a NULL lpszTitle gives the caption "Error". The session answers
 * a box with its first button when no script says otherwise: IDOK (1) for
 * MB_OKCANCEL, IDYES (6) for MB_YESNO. Prints "answer 1" and "answer 6".
 */
#include <windows.h>

static void say(const char *what, int r)
{
    char buf[64];
    int n = wsprintf(buf, "%s %d\r\n", (LPSTR)what, r);
    _lwrite(1, buf, n);
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    say("answer", MessageBox(NULL, "Cannot open file", "Demo App",
                             MB_OKCANCEL | MB_ICONEXCLAMATION));
    say("answer", MessageBox(NULL, "no caption", NULL, MB_YESNO));
    return 0;
}
