/* nametable: resources found by name through the name table
 * (tests/win16_behave.rs; the table is in nametable.rc).
 *
 * Windows 3.1 SDK, "Name-Table Resource": in a Windows 3.0 executable the
 * resource table holds named resources and named types under ordinals,
 * and a name table maps each name to its ordinal; FindResource and every
 * function that loads a resource by name find it through that table.
 * Prints:
 *   dialog 1          FindResource(hInst, "main", RT_DIALOG) != 0 (names
 *                     compare without case)
 *   not menu 1        FindResource(hInst, "MAIN", RT_MENU) == 0
 *   no such 1         FindResource(hInst, "NOSUCH", RT_DIALOG) == 0
 *   same 1            the same HRSRC as FindResource(hInst, "#100", RT_DIALOG)
 *   modal 5           DialogBox(hInst, "MAIN", ...): the procedure ends it
 *                     with EndDialog(5) in WM_INITDIALOG
 *   menu 1            LoadMenu(hInst, "MYMENU") != 0 with item 200 "&File"
 *   accel 1           LoadAccelerators(hInst, "KEYS") != 0
 *   data 1234 4       FindResource(hInst, "HELLO1", "MYDATA"): the first
 *                     word of its bytes and SizeofResource (at least 4:
 *                     rounded to the alignment unit)
 */
#include <windows.h>

static void say(const char *what, long a)
{
    char buf[128];
    int n = wsprintf(buf, "%s %ld\r\n", (LPSTR)what, a);
    _lwrite(1, buf, n);
}

BOOL FAR PASCAL _export DlgProc(HWND h, UINT m, WPARAM w, LPARAM l)
{
    if (m == WM_INITDIALOG) {
        EndDialog(h, 5);
        return TRUE;
    }
    return FALSE;
}

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    HRSRC r = FindResource(hi, "main", RT_DIALOG);
    HMENU m;
    HGLOBAL g;
    WORD FAR *p;
    char buf[80];
    char line[80];
    int n;

    say("dialog", r != 0);
    say("not menu", FindResource(hi, "MAIN", RT_MENU) == 0);
    say("no such", FindResource(hi, "NOSUCH", RT_DIALOG) == 0);
    say("same", r == FindResource(hi, "#100", RT_DIALOG));
    say("modal", DialogBox(hi, "MAIN", NULL,
                           (DLGPROC)MakeProcInstance((FARPROC)DlgProc, hi)));
    m = LoadMenu(hi, "MYMENU");
    buf[0] = 0;
    if (m)
        GetMenuString(m, 200, buf, sizeof buf, MF_BYCOMMAND);
    say("menu", m != 0 && lstrcmp(buf, "&File") == 0);
    say("accel", LoadAccelerators(hi, "KEYS") != 0);
    r = FindResource(hi, "HELLO1", "MYDATA");
    g = r ? LoadResource(hi, r) : 0;
    p = g ? (WORD FAR *)LockResource(g) : 0;
    n = wsprintf(line, "data %x %d\r\n", p ? p[0] : 0,
                 r ? SizeofResource(hi, r) >= 4 ? 4 : 0 : 0);
    _lwrite(1, line, n);
    return 0;
}
