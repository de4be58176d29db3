/* wavetest.c: MMSYSTEM's wave output device and sndPlaySound, which play
 * into WAVEnnnn.WAV files on drive C: (tests/win16_exports31.rs). The
 * functions are reached by ordinal. Each check prints one line with
 * OutputDebugString. */
#include <windows.h>
#include <mmsystem.h>
#include <string.h>

typedef UINT (WINAPI *NUMFN)(void);
typedef UINT (WINAPI *CAPSFN)(UINT, WAVEOUTCAPS FAR *, UINT);
typedef UINT (WINAPI *OPENFN)(HWAVEOUT FAR *, UINT, const WAVEFORMAT FAR *, DWORD, DWORD, DWORD);
typedef UINT (WINAPI *CLOSEFN)(HWAVEOUT);
typedef UINT (WINAPI *HDRFN)(HWAVEOUT, WAVEHDR FAR *, UINT);
typedef UINT (WINAPI *POSFN)(HWAVEOUT, MMTIME FAR *, UINT);
typedef BOOL (WINAPI *SNDFN)(LPCSTR, UINT);

static char buf[200];
static void say(void) { OutputDebugString(buf); }
static FARPROC p(int o) { return GetProcAddress(GetModuleHandle("MMSYSTEM"), MAKEINTRESOURCE(o)); }
static int opened, done, closed;
static DWORD donehdr;

long FAR PASCAL _export WndProc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    return DefWindowProc(hwnd, msg, wp, lp);
}

void FAR PASCAL _export WaveProc(HWAVEOUT h, UINT msg, DWORD inst, DWORD p1, DWORD p2)
{
    if (msg == MM_WOM_OPEN && inst == 0x1234) opened++;
    if (msg == MM_WOM_DONE) done++;
    if (msg == MM_WOM_CLOSE) closed++;
}

static int filesize(LPCSTR name, BYTE FAR *head)
{
    OFSTRUCT of;
    int f = OpenFile(name, &of, OF_READ), n;
    if (f == -1) return -1;
    n = (int)_llseek(f, 0, 2);
    _llseek(f, 0, 0);
    _lread(f, head, 48);
    _lclose(f);
    return n;
}

int PASCAL WinMain(HINSTANCE inst, HINSTANCE prev, LPSTR cmd, int show)
{
    NUMFN Num; CAPSFN Caps; OPENFN Open; CLOSEFN Close; HDRFN Prepare, Unprepare, Write;
    POSFN Pos; SNDFN Snd;
    WAVEOUTCAPS caps;
    HWAVEOUT h, h2;
    static PCMWAVEFORMAT pcm = { { WAVE_FORMAT_PCM, 1, 11025, 11025, 1 }, 8 };
    PCMWAVEFORMAT bad;
    WAVEHDR hdr;
    MMTIME t;
    MSG m;
    WNDCLASS wc;
    HWND hwnd;
    BYTE head[48];
    UINT r1, r2, r3, r4;
    int i, got = 0;

    LoadLibrary("MMSYSTEM.DLL");
    Num = (NUMFN)p(401); Caps = (CAPSFN)p(402); Open = (OPENFN)p(404); Close = (CLOSEFN)p(405);
    Prepare = (HDRFN)p(406); Unprepare = (HDRFN)p(407); Write = (HDRFN)p(408);
    Pos = (POSFN)p(412); Snd = (SNDFN)p(2);

    r1 = Caps(0, &caps, sizeof caps);
    wsprintf(buf, "devs %u caps %u %u %s %08lX %u bad %u", Num(), r1, caps.wMid,
             (LPSTR)caps.szPname, caps.dwFormats, caps.wChannels, Caps(3, &caps, sizeof caps));
    say();
    bad = pcm;
    bad.wf.nBlockAlign = 2;
    r1 = Open(&h, WAVE_MAPPER, &bad.wf, 0, 0, WAVE_FORMAT_QUERY);
    r2 = Open(&h, 0, &pcm.wf, 0, 0, WAVE_FORMAT_QUERY);
    wsprintf(buf, "query %u %u", r1, r2);
    say();

    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = WndProc;
    wc.hInstance = inst;
    wc.lpszClassName = "WaveTest";
    RegisterClass(&wc);
    hwnd = CreateWindow("WaveTest", "wave", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100, NULL, NULL, inst, NULL);
    r1 = Open(&h, 0, &pcm.wf, (DWORD)(UINT)hwnd, 0, CALLBACK_WINDOW);
    r2 = Open(&h2, 0, &pcm.wf, 0, 0, 0);
    memset(&hdr, 0, sizeof hdr);
    hdr.lpData = "\x10\x20\x30\x40\x50";
    hdr.dwBufferLength = 5;
    r3 = Write(h, &hdr, sizeof hdr);
    r4 = Prepare(h, &hdr, sizeof hdr);
    wsprintf(buf, "open %u busy %u unprepared %u prepare %u flags %lu", r1, r2, r3, r4, hdr.dwFlags);
    say();
    r1 = Write(h, &hdr, sizeof hdr);
    t.wType = TIME_BYTES;
    Pos(h, &t, sizeof t);
    wsprintf(buf, "write %u flags %lu pos %u %lu", r1, hdr.dwFlags, t.wType, t.u.cb);
    say();
    r1 = Unprepare(h, &hdr, sizeof hdr);
    r2 = Close(h);
    while (PeekMessage(&m, hwnd, 0, 0, PM_REMOVE)) {
        if (m.message == MM_WOM_OPEN && m.wParam == (WPARAM)h) got |= 1;
        if (m.message == MM_WOM_DONE && m.lParam == (LPARAM)(LPWAVEHDR)&hdr) got |= 2;
        if (m.message == MM_WOM_CLOSE) got |= 4;
    }
    wsprintf(buf, "close %u %u flags %lu messages %d again %u", r1, r2, hdr.dwFlags, got, Close(h));
    say();
    i = filesize("WAVE0001.WAV", head);
    wsprintf(buf, "file %d", i);
    for (r1 = 0; r1 < 48 && (int)r1 < i; r1++) wsprintf(buf + lstrlen(buf), " %02X", head[r1]);
    say();

    r1 = Open(&h, 0, &pcm.wf, (DWORD)(FARPROC)WaveProc, 0x1234L, CALLBACK_FUNCTION);
    hdr.dwFlags = 0;
    Prepare(h, &hdr, sizeof hdr);
    Write(h, &hdr, sizeof hdr);
    Unprepare(h, &hdr, sizeof hdr);
    Close(h);
    wsprintf(buf, "function %u %d %d %d file %d", r1, opened, done, closed,
             filesize("WAVE0002.WAV", head));
    say();

    r1 = Snd("WAVE0001.WAV", SND_SYNC);
    r2 = Snd("NOPE.WAV", SND_SYNC | SND_NODEFAULT);
    wsprintf(buf, "snd %u %u file %d stop %u", r1, r2, filesize("WAVE0003.WAV", head), Snd(NULL, 0));
    say();
    DestroyWindow(hwnd);
    return 0;
}
