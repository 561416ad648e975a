/* format.c - numbers, times and shapes as people read them (format.h). */
#include "report/format.h"

#include <stdio.h>
#include <string.h>

const char *oc_fmt_si(double v, const char *unit, char *buf, size_t n)
{
    static const char *pre[] = {"", "K", "M", "G", "T", "P", "E"};
    int i = 0;
    while (v >= 1000 && i < 6) {
        v /= 1000;
        i++;
    }
    if (i == 0)
        snprintf(buf, n, "%.0f %s", v, unit);
    else
        snprintf(buf, n, "%.*f %s%s", v < 10 ? 2 : v < 100 ? 1 : 0, v, pre[i], unit);
    return buf;
}

const char *oc_fmt_bytes(double v, char *buf, size_t n) { return oc_fmt_si(v, "B", buf, n); }

const char *oc_fmt_time(double us, char *buf, size_t n)
{
    if (us >= 1e6)
        snprintf(buf, n, "%.2f s", us / 1e6);
    else if (us >= 1e3)
        snprintf(buf, n, "%.2f ms", us / 1e3);
    else
        snprintf(buf, n, "%.1f us", us);
    return buf;
}

const char *oc_fmt_tail(const char *s, int width)
{
    static char buf[4][256];
    static int k;
    size_t n = strlen(s);
    if (width < 4 || width > 250 || n <= (size_t)width)
        return s;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "...%s", s + n - (size_t)(width - 3));
    return buf[k];
}

char *oc_fmt_shape(const oc_tinfo *t, char *buf, size_t n)
{
    return oc_shape_str(t ? t->rank : -1, t ? t->dims : NULL, buf, n);
}

char *oc_fmt_decl_shape(const oc_value *v, char *buf, size_t n)
{
    return oc_shape_str(v->rank, v->dims, buf, n);
}

