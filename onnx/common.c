#include "onnx/common.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *oc_status_str(oc_status s)
{
    switch (s) {
#define XX(name, str)                                                         \
    case OC_##name:                                                           \
        return str;
        OC_STATUS_MAP(XX)
#undef XX
    }
    return "unknown status";
}

uint64_t oc_hash_bytes(const void *p, size_t n)
{
    const unsigned char *c = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

double oc_median(double *v, size_t n)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

uint64_t oc_hash_str(const char *s)
{
    /* the same hash as over its bytes, in one pass (names on the load path) */
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Where to shorten s to at most `cut` bytes: the last space from s[cut]
 * back to s[cut / 2], else `cut` itself (no space there). */
static size_t cut_at_space(const char *s, size_t cut)
{
    for (size_t sp = cut + 1; sp-- > cut / 2;)
        if (s[sp] == ' ')
            return sp;
    return cut;
}

oc_status oc_error_setv(oc_error *err, oc_status status, const char *node,
                        const char *fmt, va_list ap)
{
    if (!err)
        return status;
    err->status = status;
    snprintf(err->node, sizeof err->node, "%s", node ? node : "");
    int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    if (n >= (int)sizeof err->msg) {
        /* Too long for the record (long paths or names a model chose):
         * end at a word boundary and say that something was left out. */
        memcpy(err->msg + cut_at_space(err->msg, sizeof err->msg - 5), " ...", 5);
    }
    /* Keep the message to one line whatever a model's strings contain. */
    for (char *p = err->msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    for (char *p = err->node; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    return status;
}

const char *oc_name_shown(const char *s, char buf[OC_NAME_SHOWN + 8])
{
    size_t n = strlen(s);
    if (n < OC_NAME_SHOWN)
        return s;
    size_t cut = cut_at_space(s, OC_NAME_SHOWN - 4);
    memcpy(buf, s, cut);
    memcpy(buf + cut, " ...", 5);
    return buf;
}

oc_status oc_error_set(oc_error *err, oc_status status, const char *node,
                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    oc_error_setv(err, status, node, fmt, ap);
    va_end(ap);
    return status;
}

void oc_error_clear(oc_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

static const struct {
    const char *name;
    size_t size;
} dtypes[OC_DT_COUNT_] = {
    [OC_DT_UNDEFINED] = {"undefined", 0}, [OC_DT_FLOAT] = {"float32", 4},
    [OC_DT_UINT8] = {"uint8", 1},         [OC_DT_INT8] = {"int8", 1},
    [OC_DT_UINT16] = {"uint16", 2},       [OC_DT_INT16] = {"int16", 2},
    [OC_DT_INT32] = {"int32", 4},         [OC_DT_INT64] = {"int64", 8},
    [OC_DT_STRING] = {"string", 0},       [OC_DT_BOOL] = {"bool", 1},
    [OC_DT_FLOAT16] = {"float16", 2},     [OC_DT_DOUBLE] = {"float64", 8},
    [OC_DT_UINT32] = {"uint32", 4},       [OC_DT_UINT64] = {"uint64", 8},
    [OC_DT_COMPLEX64] = {"complex64", 8}, [OC_DT_COMPLEX128] = {"complex128", 16},
    [OC_DT_BFLOAT16] = {"bfloat16", 2},
};

bool oc_dtype_valid(int64_t t) { return t > 0 && t < OC_DT_COUNT_; }

const char *oc_dtype_name(oc_dtype t)
{
    return (t >= 0 && t < OC_DT_COUNT_) ? dtypes[t].name : "undefined";
}

size_t oc_dtype_size(oc_dtype t)
{
    return (t >= 0 && t < OC_DT_COUNT_) ? dtypes[t].size : 0;
}

bool oc_dtype_is_float(oc_dtype t)
{
    return t == OC_DT_FLOAT || t == OC_DT_DOUBLE || t == OC_DT_FLOAT16 ||
           t == OC_DT_BFLOAT16;
}

bool oc_dtype_is_int(oc_dtype t)
{
    switch (t) {
    case OC_DT_UINT8: case OC_DT_INT8: case OC_DT_UINT16: case OC_DT_INT16:
    case OC_DT_INT32: case OC_DT_INT64: case OC_DT_UINT32: case OC_DT_UINT64:
    case OC_DT_BOOL:
        return true;
    default:
        return false;
    }
}

/* ---- arena ---- */

typedef struct oc_block {
    struct oc_block *next;
    size_t cap, used;
    _Alignas(16) unsigned char data[];
} oc_block;

struct oc_arena {
    oc_block *head;
    size_t total;
};

enum { OC_ARENA_BLOCK = 64 * 1024 };

oc_arena *oc_arena_new(void) { return calloc(1, sizeof(oc_arena)); }

void oc_arena_free(oc_arena *a)
{
    if (!a)
        return;
    for (oc_block *b = a->head, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(a);
}

/* `size` bytes aligned to `align` (8 or 16) from the current block, or
 * from a new one. */
static void *arena_take(oc_arena *a, size_t size, size_t align)
{
    if (!a)
        return NULL;
    if (size > SIZE_MAX - 32)
        return NULL;
    size = (size + 7) & ~(size_t)7;
    if (size == 0)
        size = 8;
    oc_block *b = a->head;
    size_t at = b ? (b->used + align - 1) & ~(align - 1) : 0;
    if (!b || at > b->cap || b->cap - at < size) {
        size_t cap = size > OC_ARENA_BLOCK / 4 ? size : OC_ARENA_BLOCK;
        oc_block *nb = malloc(sizeof(oc_block) + cap);
        if (!nb)
            return NULL;
        nb->cap = cap;
        nb->used = 0;
        if (b && size > OC_ARENA_BLOCK / 4) {
            /* A big allocation gets its own block behind the current one,
             * so the current block's free space is not wasted. */
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
        at = 0;
    }
    void *p = b->data + at;
    a->total += size + (at - b->used);
    b->used = at + size;
    return p;
}

void *oc_arena_alloc(oc_arena *a, size_t size)
{
    return arena_take(a, size, 16);
}

void *oc_arena_alloc8(oc_arena *a, size_t size)
{
    return arena_take(a, size, 8);
}

void *oc_arena_calloc(oc_arena *a, size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes))
        return NULL;
    void *p = oc_arena_alloc(a, bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

char *oc_arena_strndup(oc_arena *a, const char *s, size_t n)
{
    char *p = oc_arena_alloc(a, n + 1);
    if (p) {
        if (n)
            memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *oc_arena_strdup(oc_arena *a, const char *s)
{
    return oc_arena_strndup(a, s, strlen(s));
}

char *oc_arena_printf(oc_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *p = oc_arena_alloc(a, (size_t)n + 1);
    if (!p)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

size_t oc_arena_used(const oc_arena *a) { return a ? a->total : 0; }

const char *oc_file_kind(unsigned mode)
{
    return S_ISCHR(mode)    ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISFIFO(mode) ? "a FIFO (named pipe)"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISDIR(mode)  ? "a directory"
                            : "not a regular file";
}
