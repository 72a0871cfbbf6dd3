/*
 * Runs a command and writes its peak resident set size (KiB) to a file, for scripts/bench.
 *
 *     peak_rss OUTFILE COMMAND [ARGUMENT...]      exits with the command's status
 *
 * Why not the bench's own wait4(): a child's ru_maxrss starts from the high-water mark of the
 * process it was forked (or vforked) from, carried across exec, so a child of the Python bench
 * never reports less than Python's own size. This program is small; its child inherits little.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: peak_rss OUTFILE COMMAND [ARGUMENT...]\n"); return 64; }
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 71; }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) { perror("wait4"); return 71; }
    FILE *out = fopen(argv[1], "w");
    if (!out) { perror(argv[1]); return 73; }
    fprintf(out, "%ld\n", usage.ru_maxrss);
    fclose(out);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
