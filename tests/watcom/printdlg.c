/* printdlg.c: PrintDlg and the default printer, as a word processor asks
 * for them at start-up (to lay out its pages for the printer).
 *
 * Prints, one line each (CR LF), to standard output (handle 1):
 *   size <PrintDlg with lStructSize 0> <CommDlgExtendedError()>
 *   default <PrintDlg(PD_RETURNDEFAULT | PD_RETURNIC)> <error>
 *           <hDevMode != 0> <hDevNames != 0> <hDC != 0>
 *   devnames <wDriverOffset> <wDeviceOffset> <wOutputOffset> <wDefault>
 *            <driver>|<device>|<port>
 *   devmode <dmDeviceName>|<dmSpecVersion hex> <dmSize> <dmOrientation>
 *           <dmCopies>
 *   ic <GetDeviceCaps(hIC, TECHNOLOGY)> <DeleteDC(hIC)>
 *   again <PrintDlg(PD_RETURNDEFAULT) with hDevNames kept> <error>
 *   dialog <PrintDlg() with nobody to press OK> <error>
 *
 * Expected values: the Windows 3.1 SDK (PrintDlg, PRINTDLG, DEVNAMES,
 * DEVMODE; CDERR_STRUCTSIZE 1, PDERR_RETDEFFAILURE 0x1009; TECHNOLOGY
 * DT_RASPRINTER 2 for a printer; a cancelled dialog returns FALSE with
 * CommDlgExtendedError 0) and WIN.INI's device= line of a fresh Windows
 * 3.1 with an HP LaserJet III on LPT1:.
 */
#include <windows.h>
#include <commdlg.h>
#include <drivinit.h>
#include <string.h>

static char line[512];

static void out(const char far *s)
{
    _lwrite(1, s, lstrlen(s));
    _lwrite(1, "\r\n", 2);
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    PRINTDLG pd;
    BOOL r;
    LPDEVNAMES dn;
    LPDEVMODE dm;
    HGLOBAL keep;

    _fmemset(&pd, 0, sizeof(pd));
    r = PrintDlg(&pd);
    wsprintf(line, "size %d %lx", r, CommDlgExtendedError());
    out(line);

    _fmemset(&pd, 0, sizeof(pd));
    pd.lStructSize = sizeof(pd);
    pd.Flags = PD_RETURNDEFAULT | PD_RETURNIC;
    r = PrintDlg(&pd);
    wsprintf(line, "default %d %lx %d %d %d", r, CommDlgExtendedError(),
             pd.hDevMode != 0, pd.hDevNames != 0, pd.hDC != 0);
    out(line);

    dn = (LPDEVNAMES)GlobalLock(pd.hDevNames);
    wsprintf(line, "devnames %d %d %d %d %s|%s|%s", dn->wDriverOffset,
             dn->wDeviceOffset, dn->wOutputOffset, dn->wDefault,
             (LPSTR)dn + dn->wDriverOffset, (LPSTR)dn + dn->wDeviceOffset,
             (LPSTR)dn + dn->wOutputOffset);
    out(line);
    GlobalUnlock(pd.hDevNames);

    dm = (LPDEVMODE)GlobalLock(pd.hDevMode);
    wsprintf(line, "devmode %s|%x %d %d %d", (LPSTR)dm->dmDeviceName,
             dm->dmSpecVersion, dm->dmSize, dm->dmOrientation, dm->dmCopies);
    out(line);
    GlobalUnlock(pd.hDevMode);

    r = GetDeviceCaps(pd.hDC, TECHNOLOGY);
    wsprintf(line, "ic %d %d", r, DeleteDC(pd.hDC));
    out(line);

    keep = pd.hDevNames;
    pd.hDevMode = 0;
    pd.hDC = 0;
    pd.Flags = PD_RETURNDEFAULT;
    r = PrintDlg(&pd);
    wsprintf(line, "again %d %lx", r, CommDlgExtendedError());
    out(line);

    pd.hDevNames = keep;
    pd.Flags = 0;
    r = PrintDlg(&pd);
    wsprintf(line, "dialog %d %lx", r, CommDlgExtendedError());
    out(line);
    return 0;
}
