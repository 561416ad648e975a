/* driver.c - running a timing driver (collector/ort_bench.js, torch_bench.py)
 * as a child process, and the work folders it fills: collect's chunks and
 * calibrate's anchors. */
#include "training/driver.h"

#include <stdint.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int oc_path_absolute(const char *path, char *out, size_t n)
{
    if (path[0] == '/')
        return snprintf(out, n, "%s", path) < (int)n ? 0 : -1;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return -1;
    return snprintf(out, n, "%s/%s", cwd, path) < (int)n ? 0 : -1;
}

void oc_rm_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char p[PATH_MAX];
            if (snprintf(p, sizeof p, "%s/%s", path, e->d_name) >= (int)sizeof p)
                continue;
            struct stat sb;
            if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
                oc_rm_tree(p);
            else
                unlink(p);
        }
        closedir(d);
    }
    rmdir(path);
}

/* The last `max` lines of a file, indented, as OC_LOG_DETAIL lines. */
static void log_tail(const oc_log *lg, const char *path, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char *lines[64] = {0};
    int n = 0;
    char *line = NULL;
    size_t cap = 0;
    if (max > 64)
        max = 64;
    while (getline(&line, &cap, f) > 0) {
        free(lines[n % max]);
        lines[n % max] = strdup(line);
        n++;
    }
    free(line);
    fclose(f);
    int start = n > max ? n - max : 0;
    for (int i = start; i < n; i++) {
        const char *l = lines[i % max] ? lines[i % max] : "";
        oc_logf(lg, OC_LOG_DETAIL, "  | %.*s", (int)strcspn(l, "\n"), l);
        free(lines[i % max]);
        lines[i % max] = NULL;
    }
    for (int i = 0; i < max; i++)
        free(lines[i]);
}

oc_status oc_driver_run(char *const argv[], const char *log, oc_stop_flag *interrupted,
                        const oc_log *lg, bool *abandoned, oc_error *err)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawnattr_init(&at);
    /* Its own process group: the terminal's Ctrl-C reaches only us, and we
     * let the run finish. */
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc != 0) {
        return oc_error_set(err, OC_ERR_IO, NULL, "cannot run '%s': %s (set ONNXCOST_NODE or ONNXCOST_PYTHON to the "
                  "interpreter)", argv[0], strerror(rc));
    }
    /* Poll rather than block: the handlers use SA_RESTART (so no write or
     * read elsewhere fails with EINTR), which would also restart a blocking
     * waitpid and leave a second Ctrl-C unanswered. */
    int status;
    bool killed = false, told = false;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            return oc_error_set(err, OC_ERR_IO, NULL, "waitpid: %s", strerror(errno));
        }
        sig_atomic_t intr = interrupted ? *interrupted : 0;
        if (intr == 1 && !told) {
            oc_logf(lg, OC_LOG_NOTICE,
                    "interrupted: finishing the current run (Ctrl-C again abandons it)");
            told = true;
        }
        if (intr >= 2 && !killed) {
            kill(-pid, SIGTERM);
            killed = true;
        }
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (killed || (interrupted && *interrupted >= 2)) {
        if (abandoned)
            *abandoned = true;
        return oc_error_set(err, OC_ERR_IO, NULL, "interrupted");
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return OC_OK;
    const char *drv = argv[1] ? argv[1] : argv[0];
    if (WIFEXITED(status))
        oc_error_set(err, OC_ERR_IO, NULL, "driver %s exited with status %d; its output (%s):", drv,
                  WEXITSTATUS(status), log);
    else
        oc_error_set(err, OC_ERR_IO, NULL, "driver %s was killed by signal %d; its output (%s):", drv,
                  WIFSIGNALED(status) ? WTERMSIG(status) : -1, log);
    log_tail(lg, log, 30);
    return OC_ERR_IO;
}

int oc_mkdir_p(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return -1;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}
