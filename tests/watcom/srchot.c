/* srchot.c: a DOS program built with debug information for `profile`'s
 * source lines (src/trace/profile.rs). main calls spin(), whose loop on
 * the line marked LINE-HOT runs 20000 times and so takes nearly all of
 * the program's instructions; it prints "total 200010000" and exits with
 * code 0. The test finds the line by its marker comment.
 */
#include <stdio.h>

long spin(int n)
{
    long total = 0;
    int i;
    for (i = 0; i <= n; i++) total += i;          /* LINE-HOT */
    return total;
}

int main(void)
{
    printf("total %ld\n", spin(20000));
    return 0;
}
