/* ckdos.c: a DOS program for checkpoint files (tests/checkpoint_files.rs):
 * in 30 rounds it appends a line to CKDOS.DAT on drive C: (open, seek to
 * the end, write, close: INT 21h AH=3Dh, 42h, 40h, 3Eh through the C
 * library), and every sixth round prints the round, a running sum of
 * i*i and the file's length (the offset lseek(fd, 0, SEEK_END) returns).
 * At the end it reads the file's first line back, prints it and "done",
 * and exits with code 7. It never reads file times (those are the
 * host's for the files a program writes; see docs/debugging.md).
 */
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <io.h>

int main(void)
{
    char line[48];
    long sum = 0, len = 0;
    int i, fd, n;

    fd = open("CKDOS.DAT", O_WRONLY | O_CREAT | O_TRUNC | O_BINARY, 0666);
    if (fd < 0)
        return 1;
    close(fd);
    for (i = 0; i < 30; i++) {
        sum += (long)i * i;
        fd = open("CKDOS.DAT", O_WRONLY | O_BINARY);
        if (fd < 0)
            return 2;
        lseek(fd, 0L, SEEK_END);
        n = sprintf(line, "round %d sum %ld\r\n", i, sum);
        write(fd, line, n);
        len = lseek(fd, 0L, SEEK_END);
        close(fd);
        if (i % 6 == 5)
            printf("round %d sum %ld file %ld\n", i, sum, len);
    }
    fd = open("CKDOS.DAT", O_RDONLY | O_BINARY);
    if (fd < 0)
        return 3;
    n = read(fd, line, 13);
    close(fd);
    line[n > 0 ? n : 0] = 0;
    printf("first \"%s\"\ndone\n", line);
    return 7;
}
