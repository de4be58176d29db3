/* miditest.c: MMSYSTEM's MIDI output device, which plays into
 * MIDInnnn.MID files on drive C: (tests/win16_exports31.rs). The
 * functions are reached by ordinal. Each check prints one line with
 * OutputDebugString; the last is the file in hex. */
#include <windows.h>
#include <mmsystem.h>
#include <string.h>

typedef UINT (WINAPI *NUMFN)(void);
typedef UINT (WINAPI *CAPSFN)(UINT, MIDIOUTCAPS FAR *, UINT);
typedef UINT (WINAPI *OPENFN)(HMIDIOUT FAR *, UINT, DWORD, DWORD, DWORD);
typedef UINT (WINAPI *HFN)(HMIDIOUT);
typedef UINT (WINAPI *SHORTFN)(HMIDIOUT, DWORD);
typedef UINT (WINAPI *HDRFN)(HMIDIOUT, MIDIHDR FAR *, UINT);

static char buf[600];
static void say(void) { OutputDebugString(buf); }
static FARPROC p(int o) { return GetProcAddress(GetModuleHandle("MMSYSTEM"), MAKEINTRESOURCE(o)); }

long FAR PASCAL _export WndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    return DefWindowProc(hwnd, msg, wp, lp);
}

int PASCAL WinMain(HINSTANCE inst, HINSTANCE prev, LPSTR cmd, int show)
{
    NUMFN Num; CAPSFN Caps; OPENFN Open; HFN Close, Reset; SHORTFN Short;
    HDRFN Prepare, Unprepare, Long;
    MIDIOUTCAPS caps;
    HMIDIOUT h, h2;
    MIDIHDR hdr;
    WNDCLASS wc;
    HWND hwnd;
    MSG m;
    UINT r1, r2, r3, r4;
    int got = 0, f, n, i;
    static BYTE file[200];
    static char sysex[] = "\xF0\x7E\x7F\x09\x01\xF7";

    LoadLibrary("MMSYSTEM.DLL");
    Num = (NUMFN)p(201); Caps = (CAPSFN)p(202); Open = (OPENFN)p(204); Close = (HFN)p(205);
    Prepare = (HDRFN)p(206); Unprepare = (HDRFN)p(207); Short = (SHORTFN)p(208);
    Long = (HDRFN)p(209); Reset = (HFN)p(210);

    r1 = Caps(0, &caps, sizeof caps);
    wsprintf(buf, "devs %u caps %u %s tech %u voices %u mask %04X bad %u", Num(), r1,
             (LPSTR)caps.szPname, caps.wTechnology, caps.wVoices, caps.wChannelMask,
             Caps(2, &caps, sizeof caps));
    say();

    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = WndProc;
    wc.hInstance = inst;
    wc.lpszClassName = "MidiTest";
    RegisterClass(&wc);
    hwnd = CreateWindow("MidiTest", "midi", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100, NULL, NULL, inst, NULL);
    r1 = Open(&h, (UINT)-1, (DWORD)(UINT)hwnd, 0, CALLBACK_WINDOW);
    r2 = Open(&h2, 0, 0, 0, 0);
    Short(h, 0x00643C90L);   /* note on 60, velocity 100 */
    Short(h, 0x0000403EL);   /* running status: note on 62, velocity 64 */
    Short(h, 0x00003C80L);   /* note off 60 */
    memset(&hdr, 0, sizeof hdr);
    hdr.lpData = sysex;
    hdr.dwBufferLength = 6;
    r3 = Long(h, &hdr, sizeof hdr);
    Prepare(h, &hdr, sizeof hdr);
    r4 = Long(h, &hdr, sizeof hdr);
    wsprintf(buf, "open %u busy %u unprepared %u long %u flags %lu", r1, r2, r3, r4, hdr.dwFlags);
    say();
    Unprepare(h, &hdr, sizeof hdr);
    r1 = Reset(h);
    r2 = Close(h);
    r3 = Close(h);
    while (PeekMessage(&m, hwnd, 0, 0, PM_REMOVE)) {
        if (m.message == MM_MOM_OPEN) got |= 1;
        if (m.message == MM_MOM_DONE && m.lParam == (LPARAM)(LPMIDIHDR)&hdr) got |= 2;
        if (m.message == MM_MOM_CLOSE) got |= 4;
    }
    wsprintf(buf, "reset %u close %u again %u messages %d", r1, r2, r3, got);
    say();
    f = _lopen("MIDI0001.MID", OF_READ);
    n = f == -1 ? -1 : _lread(f, file, sizeof file);
    if (f != -1) _lclose(f);
    wsprintf(buf, "file %d", n);
    for (i = 0; i < n; i++) wsprintf(buf + lstrlen(buf), " %02X", file[i]);
    say();
    DestroyWindow(hwnd);
    return 0;
}
