/* ipwrap: IP wraps at 64 KiB in a 16-bit protected-mode code segment
 * (tests/control_transfers.rs).
 *
 * A 64 KiB fixed block (GlobalAlloc, Windows 3.1 SDK) gets a code alias
 * (AllocDStoCSAlias, SDK: "a code-segment selector with the same base and
 * limit"); two NOPs at FFFEh and a RETF at 0000h. A far call to
 * alias:FFFEh runs the NOPs; the 286 (16-bit code segment, limit FFFFh)
 * wraps IP to 0000h, where the RETF returns here. Prints:
 *   wrapped
 */
#include <windows.h>

int PASCAL WinMain(HINSTANCE hi, HINSTANCE hp, LPSTR cmd, int show)
{
    HGLOBAL h = GlobalAlloc(GMEM_FIXED | GMEM_ZEROINIT, 65536L);
    unsigned char __far *p = (unsigned char __far *)GlobalLock(h);
    UINT cs;
    void (__far *fn)(void);

    if (p == NULL) {
        _lwrite(1, "no block\r\n", 10);
        return 1;
    }
    p[0xFFFE] = 0x90;
    p[0xFFFF] = 0x90;
    p[0] = 0xCB;
    cs = AllocDStoCSAlias(SELECTOROF(p));
    fn = (void (__far *)(void))MAKELP(cs, 0xFFFE);
    fn();
    _lwrite(1, "wrapped\r\n", 9);
    return 0;
}
