/* gscroll: the BIOS's scrolling and teletype in graphics modes (INT 10h
 * AH=06h, 07h, 0Ch, 0Dh, 0Eh; IBM VGA Technical Reference, "BIOS
 * summary"; Ralf Brown's interrupt list for the registers), checked by
 * reading pixels back with AH=0Dh (tests/dos_pictures.rs).
 *
 * For each mode: pixels are set at known places; AH=06h scrolls the whole
 * screen up one character row (8 pixel rows in the 200-line modes, 14 in
 * mode 10h, 16 in the 480-line modes), filling the bottom row with colour
 * BH; AH=07h scrolls a window two cells wide (columns 1 and 2) down two
 * rows, filling its top with BH; a pixel outside the window stays. Then
 * DOS's console output (AH=40h on handle 1, the console) prints 24 KiB of
 * text in mode 12h: every line scrolls the screen; the last line holds
 * one character at column 0.
 *
 * Prints "mode NN ok" per mode (or the number of the first check that
 * failed), then "text ok" for the console check.
 */
#include <stdio.h>
#include <string.h>
#include <i86.h>

static char results[400];

static void set_mode(unsigned char m)
{
    union REGS r;
    r.h.ah = 0x00;
    r.h.al = m;
    int86(0x10, &r, &r);
}

static void put(unsigned x, unsigned y, unsigned char c)
{
    union REGS r;
    r.h.ah = 0x0C;
    r.h.al = c;
    r.h.bh = 0;
    r.w.cx = x;
    r.w.dx = y;
    int86(0x10, &r, &r);
}

static unsigned char get(unsigned x, unsigned y)
{
    union REGS r;
    r.h.ah = 0x0D;
    r.h.bh = 0;
    r.w.cx = x;
    r.w.dx = y;
    int86(0x10, &r, &r);
    return r.h.al;
}

static void scroll(unsigned char ah, unsigned char n, unsigned char fill,
                   unsigned char top, unsigned char left,
                   unsigned char bottom, unsigned char right)
{
    union REGS r;
    r.h.ah = ah;
    r.h.al = n;
    r.h.bh = fill;
    r.h.ch = top;
    r.h.cl = left;
    r.h.dh = bottom;
    r.h.dl = right;
    int86(0x10, &r, &r);
}

/* 0 when every check holds, else the number of the first that failed. */
static int check_mode(unsigned char m, unsigned w, unsigned hgt,
                      unsigned ch, unsigned char cols, unsigned char rows,
                      unsigned char c1, unsigned char c2, unsigned char fill)
{
    set_mode(m);
    put(9, ch + 3, c1);
    put(17, 2 * ch + 5, c2);
    put(w - 1, hgt - 1, c2);
    scroll(0x06, 1, fill, 0, 0, rows - 1, cols - 1);
    if (get(9, 3) != c1)
        return 1;
    if (get(17, ch + 5) != c2)
        return 2;
    if (get(w - 1, hgt - 1) != fill || get(0, hgt - ch) != fill)
        return 3;
    if (get(w - 1, hgt - 1 - ch) != c2)
        return 4;
    if (get(9, ch + 3) != 0)
        return 5;
    /* Down two rows in the window of columns 1..2 (pixels 8..23); a
     * pixel at column 5 stays. */
    put(40, 3, c2);
    scroll(0x07, 2, fill, 0, 1, rows - 1, 2);
    if (get(9, 2 * ch + 3) != c1)
        return 6;
    if (get(17, 3 * ch + 5) != c2)
        return 7;
    if (get(9, 3) != fill || get(23, 2 * ch - 1) != fill)
        return 8;
    if (get(40, 3) != c2 || get(7, 3) != 0 || get(24, 3) != 0)
        return 9;
    return 0;
}

static void line_for(unsigned char m, int r)
{
    char one[32];
    if (r == 0)
        sprintf(one, "mode %02X ok\r\n", m);
    else
        sprintf(one, "mode %02X check %d\r\n", m, r);
    strcat(results, one);
}

static char text[24576];

int main(void)
{
    static const struct {
        unsigned char m;
        unsigned w, h, ch;
        unsigned char cols, rows, c1, c2, fill;
    } modes[] = {
        {0x04, 320, 200, 8, 40, 25, 3, 2, 1},
        {0x06, 640, 200, 8, 80, 25, 1, 1, 0},
        {0x0D, 320, 200, 8, 40, 25, 5, 12, 9},
        {0x0E, 640, 200, 8, 80, 25, 5, 12, 9},
        {0x10, 640, 350, 14, 80, 25, 5, 12, 9},
        {0x12, 640, 480, 16, 80, 30, 5, 12, 9},
        {0x13, 320, 200, 8, 40, 25, 0x35, 0x42, 0x21},
    };
    unsigned i, k, lit = 0, blank = 1;
    unsigned x, y;

    for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
        line_for(modes[i].m,
                 check_mode(modes[i].m, modes[i].w, modes[i].h, modes[i].ch,
                            modes[i].cols, modes[i].rows, modes[i].c1,
                            modes[i].c2, modes[i].fill));

    set_mode(0x12);
    for (i = 0, k = 0; i < sizeof text - 3; i++, k++) {
        if (k == 70) {
            text[i++] = '\r';
            text[i] = '\n';
            k = 0;
        } else {
            text[i] = (char)('A' + k % 26);
        }
    }
    text[i - 3] = '\r';
    text[i - 2] = '\n';
    text[i - 1] = 'X';
    fwrite(text, 1, i, stdout);
    fflush(stdout);
    /* Row 29 (pixels 464..479): 'X' at column 0, the rest blank. */
    for (y = 464; y < 480; y++) {
        for (x = 0; x < 8; x++)
            if (get(x, y) != 0)
                lit++;
        for (x = 8; x < 640; x++)
            if (get(x, y) != 0)
                blank = 0;
    }
    set_mode(0x03);
    printf("\r\n%s", results);
    printf(lit > 0 && blank ? "text ok\r\n" : "text %u %u\r\n", lit, blank);
    return 0;
}
