/*
 * format.h - numbers, times and shapes as people read them, shared by the
 * command's tables and the HTML report: one unit family for times, SI
 * prefixes for counts and bytes.  Each writes into the caller's buffer
 * and returns it.
 */
#ifndef OC_REPORT_FORMAT_H
#define OC_REPORT_FORMAT_H

#include <stddef.h>

#include "analyzer/analyzer.h"

/* Human units: "1.81 G", "46.7 MB". */
const char *oc_fmt_si(double v, const char *unit, char *buf, size_t n);
const char *oc_fmt_bytes(double v, char *buf, size_t n);
/* A time in microseconds as "12.3 us", "4.56 ms" or "1.23 s". */
const char *oc_fmt_time(double us, char *buf, size_t n);

/* The last `width` characters of a long name ("..." + tail), for tables:
 * exported node names differ at their ends.  Returns s itself when it
 * fits, else one of four rotating static buffers (not thread-safe). */
const char *oc_fmt_tail(const char *s, int width);

/* A shape as "1x3x224x224" (oc_shape_str) of an analysed value (t may be
 * NULL: unknown) or of a declared one. */
char *oc_fmt_shape(const oc_tinfo *t, char *buf, size_t n);
char *oc_fmt_decl_shape(const oc_value *v, char *buf, size_t n);

#endif
