/* The times DOS gives what a program creates and writes (tests/dos_disk.rs,
 * `a_fixed_clock_stamps_what_the_program_writes`): run with a fixed clock,
 * every file created or written and every directory made carries the
 * clock's date and time, read back through INT 21h AX=5700h and through
 * FindFirst; a time the program sets with AX=5701h stays through later
 * writes and the close. Prints one line per value, in hex. */
#include <stdio.h>
#include <string.h>
#include <dos.h>
#include <direct.h>

static void show(const char *what, unsigned date, unsigned time)
{
    printf("%s %04X %04X\n", what, date, time);
}

int main(void)
{
    int h;
    unsigned n, date, time;
    struct find_t f;
    static char buf[100];

    memset(buf, 'x', sizeof buf);
    /* Created, written, closed. */
    if (_dos_creat("OUT.DAT", _A_NORMAL, &h) != 0) { puts("creat failed"); return 1; }
    _dos_write(h, buf, sizeof buf, &n);
    _dos_getftime(h, &date, &time);
    show("open", date, time);
    _dos_close(h);
    if (_dos_open("OUT.DAT", 0, &h) != 0) { puts("open failed"); return 1; }
    _dos_getftime(h, &date, &time);
    show("closed", date, time);
    _dos_close(h);
    if (_dos_findfirst("OUT.DAT", _A_NORMAL, &f) != 0) { puts("find failed"); return 1; }
    show("find", f.wr_date, f.wr_time);
    /* Created and closed empty. */
    if (_dos_creat("EMPTY.DAT", _A_NORMAL, &h) != 0) { puts("creat2 failed"); return 1; }
    _dos_close(h);
    if (_dos_findfirst("EMPTY.DAT", _A_NORMAL, &f) != 0) { puts("find2 failed"); return 1; }
    show("empty", f.wr_date, f.wr_time);
    /* A directory made. */
    if (mkdir("SUBDIR") != 0) { puts("mkdir failed"); return 1; }
    if (_dos_findfirst("SUBDIR", _A_SUBDIR, &f) != 0) { puts("find3 failed"); return 1; }
    show("dir", f.wr_date, f.wr_time);
    /* A time set (1991-12-31 23:58:58), then a write, then the close. */
    if (_dos_open("OUT.DAT", 2, &h) != 0) { puts("open2 failed"); return 1; }
    _dos_setftime(h, (11 << 9) | (12 << 5) | 31, (23 << 11) | (58 << 5) | 29);
    _dos_write(h, buf, 10, &n);
    _dos_close(h);
    if (_dos_findfirst("OUT.DAT", _A_NORMAL, &f) != 0) { puts("find4 failed"); return 1; }
    show("set", f.wr_date, f.wr_time);
    return 0;
}
