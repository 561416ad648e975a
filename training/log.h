/*
 * log.h - how the training library (sampling, collection, calibration,
 * training) says what it is doing: it never prints; it hands each line to
 * the caller's callback, which prints it, shows it in a window or drops it.
 * Errors are not logged: they come back as an oc_status and an oc_error,
 * and OC_LOG_DETAIL lines (a failed driver's log tail) belong to the error
 * returned next, to be shown after it.
 */
#ifndef OC_TRAINING_LOG_H
#define OC_TRAINING_LOG_H

#include <signal.h>
#include <stdbool.h>

#include "onnx/common.h"

typedef enum oc_log_level {
    OC_LOG_PROGRESS, /* a progress or summary line ("[conv] 40/200 samples ...") */
    OC_LOG_NOTICE,   /* a line that interrupts progress ("interrupted: ...") */
    OC_LOG_WARNING,  /* something the caller should know; the work goes on */
    OC_LOG_DETAIL    /* context of the error returned next */
} oc_log_level;

typedef struct oc_log {
    void (*fn)(void *ud, oc_log_level level, const char *line); /* NULL: silent */
    void *ud;
} oc_log;

/* Format one line (no trailing newline) and hand it to log (NULL: none). */
void oc_logf(const oc_log *log, oc_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* What a long run polls to stop: *flag 1 asks to finish the current step,
 * 2 to abandon it (two Ctrl-C).  A run abandoned returns OC_ERR_IO with
 * *abandoned set. */
typedef const volatile sig_atomic_t oc_stop_flag;

#endif
