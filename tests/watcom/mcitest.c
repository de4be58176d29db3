/* mcitest.c: MCI's waveaudio device through mciSendString and
 * mciSendCommand (tests/win16_exports31.rs). It first writes a one-second
 * 8-bit mono 11025 Hz TONE.WAV with mmio. Each check prints one line with
 * OutputDebugString. */
#include <windows.h>
#include <mmsystem.h>
#include <string.h>

typedef DWORD (WINAPI *CMDFN)(UINT, UINT, DWORD, DWORD);
typedef DWORD (WINAPI *STRFN)(LPCSTR, LPSTR, UINT, HWND);
typedef UINT (WINAPI *IDFN)(LPCSTR);

static char buf[200];
static void say(void) { OutputDebugString(buf); }
static FARPROC p(int o) { return GetProcAddress(GetModuleHandle("MMSYSTEM"), MAKEINTRESOURCE(o)); }

static void tone(void)
{
    static char hdr[44] = "RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x11\x2B\0\0\x11\x2B\0\0\x01\0\x08\0data";
    HGLOBAL h = GlobalAlloc(GMEM_FIXED, 11025);
    char huge *d = GlobalLock(h);
    long i;
    int f;
    *(DWORD *)(hdr + 4) = 36L + 11025 + 1;
    *(DWORD *)(hdr + 40) = 11025;
    for (i = 0; i < 11025; i++) d[i] = (char)(i & 0xFF);
    f = _lcreat("TONE.WAV", 0);
    _lwrite(f, hdr, 44);
    _hwrite(f, d, 11025);
    _lwrite(f, "", 1);
    _lclose(f);
    GlobalFree(h);
}

static long filesize(LPCSTR name)
{
    OFSTRUCT of;
    int f = OpenFile(name, &of, OF_READ);
    long n;
    if (f == -1) return -1;
    n = _llseek(f, 0, 2);
    _lclose(f);
    return n;
}

static DWORD cmd(STRFN s, LPCSTR c, LPSTR ret)
{
    ret[0] = 0;
    return s(c, ret, 64, NULL);
}

int PASCAL WinMain(HINSTANCE inst, HINSTANCE prev, LPSTR cmdline, int show)
{
    CMDFN Cmd;
    STRFN Str;
    IDFN Id;
    char r1[64], r2[64], r3[64];
    DWORD e1, e2, e3;
    MCI_OPEN_PARMS op;
    MCI_STATUS_PARMS st;
    MCI_PLAY_PARMS pl;
    UINT id;
    DWORD len;

    LoadLibrary("MMSYSTEM.DLL");
    Cmd = (CMDFN)p(701); Str = (STRFN)p(702); Id = (IDFN)p(703);
    tone();

    e1 = cmd(Str, "open TONE.WAV type waveaudio alias tone", r1);
    e2 = cmd(Str, "status tone length", r2);
    e3 = cmd(Str, "status tone mode", r3);
    wsprintf(buf, "open %ld %s length %ld %s mode %ld %s id %u", e1, (LPSTR)r1, e2, (LPSTR)r2,
             e3, (LPSTR)r3, Id("tone"));
    say();
    e1 = cmd(Str, "set tone time format samples", r1);
    e2 = cmd(Str, "status tone length", r2);
    e3 = cmd(Str, "status tone samplespersec", r3);
    wsprintf(buf, "samples %ld length %ld %s rate %ld %s", e1, e2, (LPSTR)r2, e3, (LPSTR)r3);
    say();
    e1 = cmd(Str, "play tone from 0 to 100 wait", r1);
    e2 = cmd(Str, "status tone position", r2);
    e3 = cmd(Str, "play tone from 20000", r3);
    wsprintf(buf, "play %ld position %ld %s range %ld file %ld", e1, e2, (LPSTR)r2, e3,
             filesize("WAVE0001.WAV"));
    say();
    e1 = cmd(Str, "close tone", r1);
    e2 = cmd(Str, "status tone length", r2);
    e3 = cmd(Str, "open cdaudio", r3);
    wsprintf(buf, "close %ld after %ld cd %ld bogus %ld missing %ld", e1, e2, e3,
             cmd(Str, "frobnicate tone", r1), cmd(Str, "open NONE.WAV type waveaudio", r1));
    say();
    cmd(Str, "open TONE.WAV alias t2", r1);
    e1 = cmd(Str, "", r1);
    e2 = cmd(Str, "status", r1);
    e3 = cmd(Str, "status t2 colour", r1);
    wsprintf(buf, "errors %ld %ld %ld ext %ld type %ld dup %ld product %ld", e1, e2, e3,
             cmd(Str, "open X.ZZZ", r1), cmd(Str, "open frobdev", r1),
             cmd(Str, "open TONE.WAV alias t2", r1), cmd(Str, "info t2 product", r2));
    say();
    e1 = cmd(Str, "close all", r1);
    e2 = cmd(Str, "status t2 mode", r3);
    wsprintf(buf, "product %s closeall %ld after %ld", (LPSTR)r2, e1, e2);
    say();

    memset(&op, 0, sizeof op);
    op.lpstrDeviceType = "waveaudio";
    op.lpstrElementName = "TONE.WAV";
    e1 = Cmd(0, MCI_OPEN, MCI_OPEN_TYPE | MCI_OPEN_ELEMENT, (DWORD)(LPVOID)&op);
    id = op.wDeviceID;
    st.dwItem = MCI_STATUS_LENGTH;
    e2 = Cmd(id, MCI_STATUS, MCI_STATUS_ITEM, (DWORD)(LPVOID)&st);
    len = st.dwReturn;
    pl.dwFrom = 500;
    e3 = Cmd(id, MCI_PLAY, MCI_FROM, (DWORD)(LPVOID)&pl);
    st.dwItem = MCI_STATUS_POSITION;
    Cmd(id, MCI_STATUS, MCI_STATUS_ITEM, (DWORD)(LPVOID)&st);
    wsprintf(buf, "command %ld id %d length %ld %ld play %ld position %ld", e1, id > 0, e2,
             len, e3, st.dwReturn);
    say();
    st.dwItem = MCI_WAVE_STATUS_BITSPERSAMPLE;
    e1 = Cmd(id, MCI_STATUS, MCI_STATUS_ITEM, (DWORD)(LPVOID)&st);
    e2 = Cmd(id, MCI_CLOSE, 0, 0);
    e3 = Cmd(id, MCI_PLAY, 0, (DWORD)(LPVOID)&pl);
    wsprintf(buf, "bits %ld %ld close %ld invalid %ld file2 %ld", e1, st.dwReturn, e2, e3,
             filesize("WAVE0002.WAV"));
    say();
    return 0;
}
