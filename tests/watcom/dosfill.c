/* A disk test as the era wrote them (tests/dos_disk.rs): create one file,
 * ask INT 21h AH=36h for the free space, and fill all of it with that one
 * file in 32 KiB writes (AH=40h); then one byte more must not fit (a
 * short write, AX < CX, as DOS's handle write on a full disk). */
#include <stdio.h>
#include <dos.h>

static char buf[32768];

static int create(const char *name)
{
    union REGS r;
    r.h.ah = 0x3C;
    r.x.cx = 0;
    r.x.dx = (unsigned)name;
    intdos(&r, &r);
    return r.x.cflag ? -(int)r.x.ax : r.x.ax;
}

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

int main(void)
{
    union REGS r;
    unsigned long free_bytes, written = 0;
    unsigned n;
    int h = create("FILL.$$$");
    if (h < 0) {
        printf("create: error %d\n", -h);
        return 1;
    }
    r.h.ah = 0x36;
    r.h.dl = 0;
    intdos(&r, &r);
    free_bytes = (unsigned long)r.x.ax * r.x.cx * r.x.bx;
    printf("cluster %lu free %lu\n", (unsigned long)r.x.ax * r.x.cx, free_bytes);
    while (written < free_bytes) {
        unsigned want = sizeof buf;
        if (free_bytes - written < want) {
            want = (unsigned)(free_bytes - written);
        }
        n = write_handle(h, buf, want);
        written += n;
        if (n < want) {
            break;
        }
    }
    printf("written %lu\n", written);
    n = write_handle(h, buf, (unsigned)(r.x.ax * r.x.cx));
    printf("a cluster more: %s\n", n < r.x.ax * r.x.cx ? "short" : "fits");
    return 0;
}
