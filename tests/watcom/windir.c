/* windir.c: the Windows directory and its initialization files.
 *
 * Prints, one line each (CR LF), to standard output (handle 1):
 *   device <GetProfileString("windows", "device")>
 *   country <GetProfileInt("intl", "iCountry", 99)>
 *   intl <the number of keys> <the keys of [intl], NULL key, joined by ",">
 *   display <GetPrivateProfileString("boot", "display.drv", "SYSTEM.INI")>
 *   cdaudio <GetPrivateProfileString("mci", "CDAudio", "SYSTEM.INI")>
 *   find <the names _dos_findfirst/_dos_findnext give for C:\WINDOWS\*.INI>
 *   openfile <OpenFile("WIN.INI", OF_EXIST) != HFILE_ERROR> <szPathName>
 *   lopen <the first line of C:\WINDOWS\SYSTEM.INI read with _lopen/_lread>
 *   beep <WriteProfileString("windows", "Beep", "no")> <GetProfileString
 *        ("windows", "Beep") after it>
 *   temp <GetTempFileName(0, "tst", 0)'s name up to its number>
 *
 * Expected values: the Windows 3.1 SDK (GetProfileString,
 * GetPrivateProfileString with a NULL key listing the section's keys,
 * OpenFile's search of the Windows directory, GetTempFileName in TEMP's
 * directory) and the WIN.INI and SYSTEM.INI a fresh Windows 3.1 Setup
 * writes (WININI.TXT, SYSINI.TXT: KB Q58327, Q83055).
 */
#include <windows.h>
#include <dos.h>
#include <string.h>

static char line[1024];
static char buf[1024];

static void out(const char far *s)
{
    _lwrite(1, s, lstrlen(s));
    _lwrite(1, "\r\n", 2);
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    OFSTRUCT of;
    struct find_t f;
    HFILE h;
    char *p, *k;
    int n, r;

    GetProfileString("windows", "device", "", buf, sizeof(buf));
    wsprintf(line, "device %s", (LPSTR)buf);
    out(line);
    wsprintf(line, "country %d", GetProfileInt("intl", "iCountry", 99));
    out(line);

    GetProfileString("intl", NULL, "", buf, sizeof(buf));
    n = 0;
    p = line + wsprintf(line, "intl");
    for (k = buf; *k; k += lstrlen(k) + 1) {
        n++;
    }
    p += wsprintf(p, " %d ", n);
    for (k = buf; *k; k += lstrlen(k) + 1) {
        p += wsprintf(p, "%s%s", (LPSTR)(k == buf ? "" : ","), (LPSTR)k);
    }
    out(line);

    GetPrivateProfileString("boot", "display.drv", "", buf, sizeof(buf), "SYSTEM.INI");
    wsprintf(line, "display %s", (LPSTR)buf);
    out(line);
    GetPrivateProfileString("mci", "CDAudio", "", buf, sizeof(buf), "SYSTEM.INI");
    wsprintf(line, "cdaudio %s", (LPSTR)buf);
    out(line);

    p = line + wsprintf(line, "find");
    r = _dos_findfirst("C:\\WINDOWS\\*.INI", _A_NORMAL, &f);
    while (r == 0) {
        p += wsprintf(p, " %s", (LPSTR)f.name);
        r = _dos_findnext(&f);
    }
    out(line);

    h = OpenFile("WIN.INI", &of, OF_EXIST);
    wsprintf(line, "openfile %d %s", h != HFILE_ERROR, (LPSTR)of.szPathName);
    out(line);

    h = _lopen("C:\\WINDOWS\\SYSTEM.INI", READ);
    n = 0;
    if (h != HFILE_ERROR) {
        n = _lread(h, buf, 40);
        _lclose(h);
    }
    buf[n] = 0;
    if ((k = strchr(buf, '\r')) != NULL)
        *k = 0;
    wsprintf(line, "lopen %s", (LPSTR)buf);
    out(line);

    r = WriteProfileString("windows", "Beep", "no");
    GetProfileString("windows", "Beep", "", buf, sizeof(buf));
    wsprintf(line, "beep %d %s", r, (LPSTR)buf);
    out(line);

    GetTempFileName(0, "tst", 0, buf);
    if ((k = strstr(buf, "~TST")) != NULL)
        k[4] = 0;
    wsprintf(line, "temp %s", (LPSTR)buf);
    out(line);
    return 0;
}
