/* thfault.c: a TOOLHELP InterruptRegister client. Its handler is entered
 * with the frame of the Windows 3.1 SDK, "InterruptRegister": a far return
 * into TOOLHELP, then AX, the interrupt number, a handle, and the IP, CS
 * and flags of the faulting instruction. The program divides by zero; the
 * first letter of its command line picks what the handler does:
 *
 *   r  restart: advance the frame's IP past the divide and IRET to it
 *      (the documented way to resume), then the program goes on;
 *   p  pass the fault on: RETF to TOOLHELP, which runs the default action
 *      (the Application Error box; the task ends);
 *   t  TerminateApp(NULL, NO_UAE_BOX): the task ends with no box;
 *   u  TerminateApp(NULL, UAE_BOX): the task ends with the Application
 *      Error box.
 *
 * It prints, one line each (CR LF) on standard output:
 *   register <InterruptRegister's result>
 *   fault <interrupt number> <first opcode byte at the frame's CS:IP, hex>
 *   resumed <the divide's result as the handler left it>     (r only)
 *   unregister <InterruptUnRegister> <InterruptUnRegister again>   (r only)
 */
#include <windows.h>
#include <toolhelp.h>

static char line[128];
static char mode;
static WORD newip;
volatile int divisor = 0;

static void out(const char *s)
{
    _lwrite(1, s, lstrlen(s));
    _lwrite(1, "\r\n", 2);
}

/* The length of the F7 /6 or /7 (div, idiv) instruction at p. */
static WORD div_length(const unsigned char far *p)
{
    unsigned char modrm = p[1];
    switch (modrm >> 6) {
    case 0: return (modrm & 7) == 6 ? 4 : 2;
    case 1: return 3;
    case 2: return 4;
    }
    return 2;
}

void FAR _cdecl _export IntHandler(WORD ax, WORD intno, WORD handle, WORD ip, WORD cs, WORD flags)
{
    const unsigned char far *code = (const unsigned char far *)MAKELP(cs, ip);
    wsprintf(line, "fault %u %02X", intno, code[0]);
    out(line);
    if (mode == 't' || mode == 'u')
        TerminateApp(NULL, mode == 't' ? NO_UAE_BOX : UAE_BOX);
    if (mode == 'r') {
        newip = ip + div_length(code);
        _asm {
            mov ax, newip
            mov [bp+12], ax
            lea sp, [bp-2]
            pop ds
            pop bp
            dec bp
            add sp, 10
            iret
        }
    }
    /* p: return to TOOLHELP, passing the fault on. */
}

static int divide(int a)
{
    return a / divisor;
}

int PASCAL WinMain(HINSTANCE hInst, HINSTANCE hPrev, LPSTR lpCmdLine, int nCmdShow)
{
    FARPROC fn = MakeProcInstance((FARPROC)IntHandler, hInst);
    int r;
    mode = lpCmdLine[0];
    wsprintf(line, "register %d", InterruptRegister(NULL, fn));
    out(line);
    r = divide(7);
    wsprintf(line, "resumed %d", r == r);
    out(line);
    r = InterruptUnRegister(NULL);
    wsprintf(line, "unregister %d %d", r, InterruptUnRegister(NULL));
    out(line);
    return 0;
}
