/* svg.c - escaping, ticks and drawing primitives for the HTML report. */
#include "report/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

enum { REPLACEMENT = 0xFFFD };

/* Decode one UTF-8 character at p: its length (>= 1) and *cp, which is
 * REPLACEMENT for a malformed, overlong or surrogate sequence (one byte is
 * consumed then, so decoding resynchronises on the next byte). */
static size_t utf8_next(const unsigned char *p, uint32_t *cp)
{
    static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    size_t len = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3
                               : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0) {
        *cp = REPLACEMENT;
        return 1;
    }
    uint32_t c = len == 1 ? p[0] : p[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) { /* also stops at the terminating NUL */
            *cp = REPLACEMENT;
            return 1;
        }
        c = c << 6 | (p[i] & 0x3F);
    }
    if (c < min_cp[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        *cp = REPLACEMENT;
        return 1;
    }
    *cp = c;
    return len;
}

/* Characters XML 1.0 does not allow in a document (and HTML discourages). */
static int forbidden(uint32_t c)
{
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xFFFE || c == 0xFFFF;
}

static void put_char(FILE *f, const unsigned char *p, size_t len, uint32_t c)
{
    switch (c) {
    case '&': fputs("&amp;", f); return;
    case '<': fputs("&lt;", f); return;
    case '>': fputs("&gt;", f); return;
    case '"': fputs("&quot;", f); return;
    case '\'': fputs("&#39;", f); return;
    default: break;
    }
    if (c == REPLACEMENT || forbidden(c))
        fputs("\xEF\xBF\xBD", f);
    else
        fwrite(p, 1, len, f);
}

static void escape_from(FILE *f, const unsigned char *p)
{
    uint32_t c;
    for (size_t len; *p; p += len) {
        len = utf8_next(p, &c);
        put_char(f, p, len, c);
    }
}

void html_escape(FILE *f, const char *s) { escape_from(f, (const unsigned char *)s); }

void html_escape_tail(FILE *f, const char *s, size_t max)
{
    const unsigned char *p = (const unsigned char *)s;
    uint32_t c;
    size_t n = 0;
    for (const unsigned char *q = p; *q; n++)
        q += utf8_next(q, &c);
    if (max < 2 || n <= max) {
        escape_from(f, p);
        return;
    }
    for (size_t skip = n - (max - 1); skip; skip--)
        p += utf8_next(p, &c);
    fputs("\xE2\x80\xA6", f); /* U+2026 */
    escape_from(f, p);
}

void svg_open(FILE *f, double w, double h, const char *label)
{
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", w, h, w, h);
    html_escape(f, label);
    fputs("\">\n", f);
}

void svg_close(FILE *f) { fputs("</svg>\n", f); }

void svg_rect(FILE *f, double x, double y, double w, double h, const char *fill,
              const char *cls)
{
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x, y,
            w > 0 ? w : 0, h > 0 ? h : 0);
    if (fill)
        fprintf(f, " fill=\"%s\"", fill);
    if (cls)
        fprintf(f, " class=\"%s\"", cls);
    fputs("/>", f);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *cls)
{
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"", x1, y1, x2, y2);
    if (cls)
        fprintf(f, " class=\"%s\"", cls);
    fputs("/>", f);
}

static void text_open(FILE *f, double x, double y, const char *anchor, const char *cls)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"", x, y);
    if (anchor && strcmp(anchor, "start") != 0)
        fprintf(f, " text-anchor=\"%s\"", anchor);
    if (cls)
        fprintf(f, " class=\"%s\"", cls);
    fputc('>', f);
}

void svg_text(FILE *f, double x, double y, const char *anchor, const char *cls,
              const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    text_open(f, x, y, anchor, cls);
    html_escape(f, buf);
    fputs("</text>", f);
}

void svg_text_tail(FILE *f, double x, double y, const char *anchor, const char *cls,
                   const char *s, size_t max)
{
    text_open(f, x, y, anchor, cls);
    html_escape_tail(f, s, max);
    fputs("</text>", f);
}

size_t svg_ticks(double hi, double *ticks, size_t max)
{
    if (!(hi > 0) || !isfinite(hi))
        hi = 1;
    double raw = hi / 5, mag = pow(10, floor(log10(raw))), step = 10 * mag;
    static const double nice[] = {1, 2, 5};
    for (size_t i = 0; i < 3; i++)
        if (nice[i] * mag >= raw) {
            step = nice[i] * mag;
            break;
        }
    size_t n = 0;
    while (n < max) {
        ticks[n] = step * (double)n;
        if (ticks[n++] >= hi * (1 - 1e-9))
            break;
    }
    return n;
}
