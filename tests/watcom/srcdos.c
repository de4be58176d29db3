/* srcdos.c: a DOS program built with debug information (DWARF with
 * `-d2`, CodeView 4 with `-d2 -hc` and `wlink debug codeview`) for the
 * debug-information readers (src/symbols/dwarf.rs, codeview.rs). main
 * calls middle(), which calls leaf(); the program prints "sum 7" and
 * exits with code 0. The tests stop on the line marked LINE-STOP and
 * compare the walk's frames with the lines marked by the comments.
 */
#include <stdio.h>

int leaf(int a, int b)
{
    int sum = a + b;                    /* LINE-STOP */
    return sum;
}

int middle(int x)
{
    return leaf(x, 4);                  /* LINE-CALL-LEAF */
}

int main(void)
{
    printf("sum %d\n", middle(3));      /* LINE-CALL-MIDDLE */
    return 0;
}
