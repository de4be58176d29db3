/* srccue.c: a DOS program whose function twice() is in a header
 * (srccue.h), built with `-d2 -hw`: the header's lines are cues in the
 * module's line numbers. main calls twice(3) and prints "twice 6"; it exits
 * with code 0. The test compares the walk's frames with the lines marked
 * by the comments.
 */
#include <stdio.h>
#include "srccue.h"

int main(void)
{
    printf("twice %d\n", twice(3));     /* LINE-CALL-TWICE */
    return 0;
}
