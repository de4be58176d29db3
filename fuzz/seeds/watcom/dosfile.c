/* A fuzz seed (examples/fuzz.rs, target `programs`): a small DOS
 * program that uses the C runtime's files, memory and console, so that
 * its mutations reach DOS's file and memory functions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    FILE *f;
    char buf[64];
    char *p;
    int i;

    f = fopen("SEED.TXT", "w");
    if (f != NULL) {
        for (i = 0; i < 8; i++) {
            fprintf(f, "line %d of %s\n", i, argc > 0 ? argv[0] : "?");
        }
        fclose(f);
    }
    f = fopen("SEED.TXT", "r");
    if (f != NULL) {
        while (fgets(buf, sizeof buf, f) != NULL) {
            fputs(buf, stdout);
        }
        fclose(f);
    }
    remove("SEED.TXT");
    p = malloc(1000);
    if (p != NULL) {
        memset(p, 'x', 999);
        p[999] = 0;
        printf("%u\n", (unsigned)strlen(p));
        free(p);
    }
    return 3;
}
