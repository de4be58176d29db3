/* mmiotest.c: MMSYSTEM's mmio functions writing and reading a RIFF WAVE
 * file on drive C: (tests/win16_exports31.rs). The functions are reached
 * by ordinal, as Open Watcom has no MMSYSTEM import library. Each check
 * prints one line with OutputDebugString. */
#include <windows.h>
#include <mmsystem.h>
#include <string.h>

typedef HMMIO (WINAPI *OPENFN)(LPSTR, MMIOINFO FAR *, DWORD);
typedef UINT (WINAPI *CLOSEFN)(HMMIO, UINT);
typedef LONG (WINAPI *RWFN)(HMMIO, HPSTR, LONG);
typedef LONG (WINAPI *SEEKFN)(HMMIO, LONG, int);
typedef UINT (WINAPI *CKFN)(HMMIO, MMCKINFO FAR *, UINT);
typedef UINT (WINAPI *DESCENDFN)(HMMIO, MMCKINFO FAR *, const MMCKINFO FAR *, UINT);
typedef FOURCC (WINAPI *FOURCCFN)(LPCSTR, UINT);
typedef UINT (WINAPI *INFOFN)(HMMIO, MMIOINFO FAR *, UINT);

static char buf[200];
static void say(void) { OutputDebugString(buf); }
static FARPROC p(int o) { return GetProcAddress(GetModuleHandle("MMSYSTEM"), MAKEINTRESOURCE(o)); }

int PASCAL WinMain(HINSTANCE inst, HINSTANCE prev, LPSTR cmd, int show)
{
    OPENFN Open;
    CLOSEFN Close;
    RWFN Read, Write;
    SEEKFN Seek;
    CKFN Ascend, Create;
    DESCENDFN Descend;
    FOURCCFN ToFourcc;
    INFOFN GetInfo;
    HMMIO h;
    MMIOINFO info;
    MMCKINFO riff, fmt, data, ck;
    static PCMWAVEFORMAT pcm = { { WAVE_FORMAT_PCM, 1, 11025, 11025, 1 }, 8 };
    char raw[64];
    int f, n, i;
    UINT r1, r2, r3;
    LONG got;

    LoadLibrary("MMSYSTEM.DLL");
    Open = (OPENFN)p(1210); Close = (CLOSEFN)p(1211); Read = (RWFN)p(1212);
    Write = (RWFN)p(1213); Seek = (SEEKFN)p(1214); GetInfo = (INFOFN)p(1215);
    ToFourcc = (FOURCCFN)p(1220); Descend = (DESCENDFN)p(1223); Ascend = (CKFN)p(1224);
    Create = (CKFN)p(1225);

    wsprintf(buf, "fourcc %08lX %08lX", ToFourcc("wave", MMIO_TOUPPER), ToFourcc("fmt", 0));
    say();
    memset(&info, 0, sizeof info);
    h = Open("NOSUCH.WAV", &info, MMIO_READ);
    wsprintf(buf, "missing %d err %u exist %d", h == NULL, info.wErrorRet,
             (int)(WORD)Open("NOSUCH.WAV", NULL, MMIO_EXIST));
    say();

    h = Open("TEST.WAV", NULL, MMIO_CREATE | MMIO_WRITE);
    riff.fccType = mmioFOURCC('W', 'A', 'V', 'E');
    riff.cksize = 0;
    r1 = Create(h, &riff, MMIO_CREATERIFF);
    fmt.ckid = mmioFOURCC('f', 'm', 't', ' ');
    fmt.cksize = sizeof pcm;
    r2 = Create(h, &fmt, 0);
    Write(h, (HPSTR)&pcm, sizeof pcm);
    Ascend(h, &fmt, 0);
    data.ckid = mmioFOURCC('d', 'a', 't', 'a');
    data.cksize = 0;
    Create(h, &data, 0);
    Write(h, "\x80\x90\xA0", 3);
    r3 = Ascend(h, &data, 0);
    wsprintf(buf, "create %u %u riff-offset %ld fmt-offset %ld data-offset %ld size %ld dirty %d",
             r1, r2, riff.dwDataOffset, fmt.dwDataOffset, data.dwDataOffset, data.cksize,
             (data.dwFlags & MMIO_DIRTY) != 0);
    say();
    Ascend(h, &riff, 0);
    GetInfo(h, &info, 0);
    wsprintf(buf, "ascend %u riff-size %ld pos %ld info %d", r3, riff.cksize,
             Seek(h, 0, SEEK_CUR), info.lDiskOffset == 48 && info.hmmio == h);
    say();
    r1 = Close(h, 0);
    r2 = Close(h, 0);
    wsprintf(buf, "close %u again %u", r1, r2);
    say();

    f = _lopen("TEST.WAV", OF_READ);
    n = _lread(f, raw, sizeof raw);
    _lclose(f);
    wsprintf(buf, "file %d", n);
    for (i = 0; i < n && i < 48; i++) wsprintf(buf + lstrlen(buf), " %02X", (BYTE)raw[i]);
    say();

    h = Open("TEST.WAV", NULL, MMIO_READ);
    riff.fccType = mmioFOURCC('W', 'A', 'V', 'E');
    r1 = Descend(h, &riff, NULL, MMIO_FINDRIFF);
    ck.ckid = mmioFOURCC('d', 'a', 't', 'a');
    r2 = Descend(h, &ck, &riff, MMIO_FINDCHUNK);
    memset(raw, 0, 4);
    got = Read(h, raw, 10);
    wsprintf(buf, "descend %u %u offset %ld size %ld read %ld %02X%02X%02X end %ld", r1, r2,
             ck.dwDataOffset, ck.cksize, got, (BYTE)raw[0], (BYTE)raw[1], (BYTE)raw[2],
             Read(h, raw, 4));
    say();
    Seek(h, 12, SEEK_SET);
    ck.ckid = mmioFOURCC('L', 'I', 'S', 'T');
    r1 = Descend(h, &ck, &riff, MMIO_FINDCHUNK);
    Seek(h, 12, SEEK_SET);
    r2 = Descend(h, &ck, &riff, 0);
    wsprintf(buf, "notfound %u first %08lX %ld", r1, ck.ckid, ck.cksize);
    say();
    Close(h, 0);
    return 0;
}
