/* srcline2.c: the second source file of srclines.c's program (its header
 * says what the pair is for). middle() lies in this file's own code
 * segment, so the frames' lines come from two line programs.
 */
int leaf(int a, int b);

int middle(int x)
{
    int y = x + 1;
    y = leaf(y, 2);                     /* LINE-CALL-LEAF */
    return y;
}
