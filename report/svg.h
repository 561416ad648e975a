/*
 * svg.h - writing HTML and inline SVG for the report: the one escape
 * function (every string that comes from a model or timing-model file goes
 * through it), axis ticks, and the few drawing primitives the charts share.
 *
 *     svg_open(f, 1180, 300, "Slowest nodes");
 *     svg_rect(f, x, y, w, h, "#3b6fb6", "bar");
 *     svg_text(f, x, y, "end", "lbl", "%s", node_name);   // escaped
 *     svg_close(f);
 *
 * Everything writes to a FILE* (the report builds in memory and is written
 * atomically at the end); write errors are left for the caller's ferror().
 */
#ifndef OC_REPORT_SVG_H
#define OC_REPORT_SVG_H

#include <stddef.h>
#include <stdio.h>

/* Write s as HTML/XML text or attribute content: & < > " ' become
 * entities; control characters and bytes that are not UTF-8 become U+FFFD,
 * so the document stays well-formed XML whatever the model holds. */
void html_escape(FILE *f, const char *s);
/* The same for at most `max` characters (code points, max >= 2): a longer s
 * is written as U+2026 and its last max-1 characters (exported node names
 * differ at their ends). */
void html_escape_tail(FILE *f, const char *s, size_t max);

/* "<svg ...>" with the SVG namespace, a viewBox, and `label` (escaped) as
 * its accessible name; svg_close() ends it. */
void svg_open(FILE *f, double w, double h, const char *label);
void svg_close(FILE *f);

/* Shapes: fill or class may be NULL. */
void svg_rect(FILE *f, double x, double y, double w, double h, const char *fill,
              const char *cls);
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *cls);
/* <text> at (x, y) with text-anchor `anchor` ("start", "middle", "end") and
 * class `cls`; the formatted text is escaped. */
void svg_text(FILE *f, double x, double y, const char *anchor, const char *cls,
              const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* <text> holding the tail of s (html_escape_tail) */
void svg_text_tail(FILE *f, double x, double y, const char *anchor, const char *cls,
                   const char *s, size_t max);

/* Round steps (1, 2 or 5 x 10^k) from 0 covering [0, hi]: fills
 * ticks[0..n) with 0, step, ..., the first >= hi, n <= max (max >= 2);
 * returns n.  hi <= 0 gives {0, 1}. */
size_t svg_ticks(double hi, double *ticks, size_t max);

#endif
