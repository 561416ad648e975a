/* log.c - lines handed to the caller's callback (log.h). */
#include "training/log.h"

#include <stdarg.h>
#include <stdio.h>

void oc_logf(const oc_log *log, oc_log_level level, const char *fmt, ...)
{
    if (!log || !log->fn)
        return;
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    log->fn(log->ud, level, line);
}
