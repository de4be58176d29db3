/* thndll.c: the library thchild.c loads and frees (tests/toolhelp_notify.rs). */
#include <windows.h>

int FAR PASCAL LibMain(HINSTANCE hInst, WORD wDataSeg, WORD cbHeap, LPSTR lpCmdLine)
{
    return 1;
}
