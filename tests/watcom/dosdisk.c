/* The drive's free space and its root directory's limit, as a DOS
 * program sees them (tests/dos_disk.rs): INT 21h AH=36h, then files
 * created in the root until DOS refuses one, then a subdirectory that
 * takes more than the root could. */
#include <stdio.h>
#include <dos.h>
#include <direct.h>
#include <io.h>
#include <fcntl.h>

static void free_space(const char *when)
{
    union REGS r;
    r.h.ah = 0x36;
    r.h.dl = 0;
    intdos(&r, &r);
    printf("%s: spc %u free %u bps %u total %u\n", when, r.x.ax, r.x.bx, r.x.cx, r.x.dx);
}

/* AH=3Ch: the handle, or -(DOS error). */
static int create(const char *name)
{
    union REGS r;
    r.h.ah = 0x3C;
    r.x.cx = 0;
    r.x.dx = (unsigned)name;
    intdos(&r, &r);
    if (r.x.cflag) {
        return -(int)r.x.ax;
    }
    return r.x.ax;
}

/* AH=40h: the count written. */
static unsigned write_handle(int h, const char *p, unsigned n)
{
    union REGS r;
    r.h.ah = 0x40;
    r.x.bx = h;
    r.x.cx = n;
    r.x.dx = (unsigned)p;
    intdos(&r, &r);
    return r.x.cflag ? 0 : r.x.ax;
}

static void close_handle(int h)
{
    union REGS r;
    r.h.ah = 0x3E;
    r.x.bx = h;
    intdos(&r, &r);
}

int main(void)
{
    static char buf[4096];
    char name[16];
    int i, h, made = 0, err = 0;
    long left;

    free_space("start");
    h = create("DATA.BIN");
    for (left = 100000L; left > 0; left -= sizeof buf) {
        write_handle(h, buf, left > (long)sizeof buf ? sizeof buf : (unsigned)left);
    }
    close_handle(h);
    free_space("after 100000 bytes");
    unlink("DATA.BIN");
    free_space("after delete");
    for (i = 0; i < 600; i++) {
        sprintf(name, "F%d.DAT", i);
        h = create(name);
        if (h < 0) {
            err = -h;
            break;
        }
        close_handle(h);
        made++;
    }
    printf("root: %d files, then error %02X\n", made, err);
    printf("mkdir in the full root: %d\n", mkdir("NEWDIR"));
    unlink("F7.DAT");
    h = create("AGAIN.DAT");
    printf("after a delete: %s\n", h >= 0 ? "created" : "refused");
    if (h >= 0) {
        close_handle(h);
    }
    unlink("F8.DAT");
    mkdir("SUB");
    made = 0;
    for (i = 0; i < 700; i++) {
        sprintf(name, "SUB\\G%d.DAT", i);
        h = create(name);
        if (h < 0) {
            break;
        }
        close_handle(h);
        made++;
    }
    printf("subdirectory: %d files\n", made);
    return 0;
}
