/* dosgraph.c -- a DOS program drawing with Open Watcom's graph.lib in the
 * VGA's 640x480x16 mode (12h), then 320x200x16 (0Dh), then 320x200x256
 * (13h), for tests/dos_pictures.rs to find its rectangles, pixels and
 * text in the screenshots. Part of toolhelp16 (GPL-2.0-or-later).
 *
 * Mode 12h: a green (colour 2) filled rectangle (20,20)-(119,69) and a
 * light blue (9) pixel at (300,200). Mode 0Dh: a light red (12) filled
 * rectangle (0,0)-(15,9). Mode 13h: a yellow (14) filled square
 * (200,100)-(219,119), a red (4) pixel at (5,150) and "OK" in white (15)
 * at text row 2, column 2. It prints the size _getvideoconfig reports
 * for each mode and stays in mode 13h.
 *
 * No lines: this graph.lib's line drawing compiles bad code at run time
 * (Open Watcom issue 785, _L0DrawLine's OutInt), on a PC as here.
 */
#include <graph.h>
#include <stdio.h>

static short x[3], y[3];

static void size(int i)
{
    struct videoconfig vc;

    _getvideoconfig(&vc);
    x[i] = vc.numxpixels;
    y[i] = vc.numypixels;
}

int main(void)
{
    if (!_setvideomode(_VRES16COLOR)) {
        return 1;
    }
    size(0);
    _setcolor(2);
    _rectangle(_GFILLINTERIOR, 20, 20, 119, 69);
    _setcolor(9);
    _setpixel(300, 200);

    if (!_setvideomode(_MRES16COLOR)) {
        return 2;
    }
    size(1);
    _setcolor(12);
    _rectangle(_GFILLINTERIOR, 0, 0, 15, 9);

    if (!_setvideomode(_MRES256COLOR)) {
        return 3;
    }
    size(2);
    _setcolor(14);
    _rectangle(_GFILLINTERIOR, 200, 100, 219, 119);
    _setcolor(4);
    _setpixel(5, 150);
    _settextposition(2, 2);
    _settextcolor(15);
    _outtext("OK");
    printf("%dx%d %dx%d %dx%d\n", x[0], y[0], x[1], y[1], x[2], y[2]);
    return 0;
}
