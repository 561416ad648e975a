/*
 * driver.h - running a timing driver (collector/ort_bench.js,
 * torch_bench.py) as a child process, and the work folders it fills:
 * collect's chunks and calibrate's anchors.
 */
#ifndef OC_TRAINING_DRIVER_H
#define OC_TRAINING_DRIVER_H

#include <stddef.h>

#include "training/log.h"

/* Run a timing driver: argv[0] the interpreter (looked up on PATH), argv[1]
 * the driver script; its stdout and stderr go to the file `log`, in its own
 * process group.  *stop (may be NULL) is polled: 1 says so once (a NOTICE
 * line), 2 kills the driver (OC_ERR_IO with *abandoned set).  A driver
 * that fails is OC_ERR_IO, its log's last 30 lines logged as DETAIL. */
oc_status oc_driver_run(char *const argv[], const char *log, oc_stop_flag *stop,
                        const oc_log *lg, bool *abandoned, oc_error *err);
/* path made absolute against the working directory (it need not exist; no
 * symlink is resolved); 0, or -1 when it does not fit in n. */
int oc_path_absolute(const char *path, char *out, size_t n);
/* mkdir -p (mode 0755): 0, or -1 with errno set. */
int oc_mkdir_p(const char *path);
/* Remove a folder we made, with everything in it (links not followed). */
void oc_rm_tree(const char *path);

#endif
