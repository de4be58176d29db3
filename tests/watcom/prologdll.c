/* prologdll.c: a DLL whose exported functions begin with Open Watcom's
 * prologue (push ds / pop ax / nop / inc bp / push bp / mov bp,sp /
 * push ds / mov ds,ax): Windows' loader made it `mov ax,DGROUP`, so the
 * functions reach the library's own data whoever calls them. Built by
 * tests/win16_prologue.rs beside prologue.c.
 */
#include <windows.h>

int counter = 5;

int FAR PASCAL LibMain(HINSTANCE hInst, WORD wDataSeg, WORD cbHeap, LPSTR lpCmdLine)
{
    return 1;
}

/* Adds x to the library's counter and returns it. */
int FAR PASCAL _export Bump(int x)
{
    counter += x;
    return counter;
}

typedef int (FAR PASCAL *CALLBACKPROC)(int);

/* Calls the program's procedure (running with the library's DS) and
 * returns what it answered. */
int FAR PASCAL _export CallBack(CALLBACKPROC proc, int x)
{
    return proc(x) + counter * 0;
}
