/* ckfile.c: a Win16 program for checkpoint files (tests/checkpoint_files.rs):
 * a run stopped anywhere, written to a file and resumed from it must go on
 * exactly as the uninterrupted run. WinMain creates a window and, in 40
 * rounds, sends it WM_USER+1 (SendMessage runs WndProc in a nested
 * emulation and returns what it returned: SDK, SendMessage), writes the
 * round's line to CKFILE.DAT on drive C: (_lcreat, then _llseek to the end
 * and _lwrite: SDK, _llseek), and every eighth round prints a line to
 * standard output (handle 1) with the running total and the file's length
 * as _llseek(h, 0, 2) reports it. At the end it reads the file back and
 * prints its first line and its length, then "done", and exits with code 0.
 * The window procedure adds 3*i+1 for round i: after 40 rounds the total is
 * 3*780+40 = 2380.
 */
#include <windows.h>

static long total;

LRESULT CALLBACK __export WndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    if (msg == WM_USER + 1) {
        total += 3L * (long)wp + 1;
        return (LRESULT)total;
    }
    return DefWindowProc(hwnd, msg, wp, lp);
}

static void say(const char *s)
{
    _lwrite(1, s, lstrlen(s));
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmd, int nCmdShow)
{
    WNDCLASS wc;
    HWND hwnd;
    HFILE f;
    char buf[96];
    char line[40];
    int i, n;
    LONG len = 0;

    wc.style = 0;
    wc.lpfnWndProc = WndProc;
    wc.cbClsExtra = 0;
    wc.cbWndExtra = 0;
    wc.hInstance = hInst;
    wc.hIcon = 0;
    wc.hCursor = 0;
    wc.hbrBackground = 0;
    wc.lpszMenuName = NULL;
    wc.lpszClassName = "CkFile";
    if (!RegisterClass(&wc))
        return 1;
    hwnd = CreateWindow("CkFile", "ckfile", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100,
                        NULL, NULL, hInst, NULL);
    if (!hwnd)
        return 2;
    f = _lcreat("CKFILE.DAT", 0);
    if (f == HFILE_ERROR)
        return 3;
    _lclose(f);
    for (i = 0; i < 40; i++) {
        LRESULT r = SendMessage(hwnd, WM_USER + 1, (WPARAM)i, 0L);
        f = _lopen("CKFILE.DAT", OF_READWRITE);
        if (f == HFILE_ERROR)
            return 4;
        _llseek(f, 0L, 2);
        n = wsprintf(line, "round %d total %ld\r\n", i, (long)r);
        _lwrite(f, line, n);
        len = _llseek(f, 0L, 2);
        _lclose(f);
        if (i % 8 == 7) {
            wsprintf(buf, "round %d total %ld file %ld\r\n", i, (long)r, len);
            say(buf);
        }
    }
    f = _lopen("CKFILE.DAT", OF_READ);
    if (f == HFILE_ERROR)
        return 5;
    n = _lread(f, line, 20);
    _lclose(f);
    line[n > 0 ? n : 0] = 0;
    for (i = 0; line[i]; i++)
        if (line[i] == '\r' || line[i] == '\n')
            line[i] = 0;
    wsprintf(buf, "first \"%s\" length %ld\r\ndone\r\n", (LPSTR)line, len);
    say(buf);
    DestroyWindow(hwnd);
    return 0;
}
