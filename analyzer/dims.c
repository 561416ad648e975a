/*
 * dims.c - symbolic dimension arithmetic.
 *
 * A symbolic dim is v * S where S is a product of atoms written in sorted
 * order and joined by '*' ("L*N").  An atom is a dim_param name or an
 * opaque parenthesised expression ("(L+1)") standing for anything that is
 * not a monomial.  This is enough for what exporters do with shapes:
 * products and exact quotients stay exact, sums stay comparable by name.
 */
#include "analyzer/analyzer-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ATOMS = 32 };

typedef struct {
    size_t n;
    const char *p[MAX_ATOMS];
    size_t len[MAX_ATOMS];
} atoms;

/* Split a product at top-level '*'. */
static bool split(const char *s, atoms *out)
{
    out->n = 0;
    int depth = 0;
    const char *start = s;
    for (const char *q = s;; q++) {
        if (*q == '(')
            depth++;
        else if (*q == ')')
            depth--;
        if (*q == '\0' || (*q == '*' && depth == 0)) {
            if (out->n == MAX_ATOMS)
                return false;
            out->p[out->n] = start;
            out->len[out->n] = (size_t)(q - start);
            out->n++;
            if (!*q)
                break;
            start = q + 1;
        }
    }
    return true;
}

static int atom_cmp(const char *a, size_t al, const char *b, size_t bl)
{
    size_t n = al < bl ? al : bl;
    int c = memcmp(a, b, n);
    return c ? c : (al < bl ? -1 : al > bl);
}

static void sort_atoms(atoms *a)
{
    for (size_t i = 1; i < a->n; i++)
        for (size_t j = i; j > 0 && atom_cmp(a->p[j - 1], a->len[j - 1], a->p[j],
                                             a->len[j]) > 0; j--) {
            const char *tp = a->p[j];
            size_t tl = a->len[j];
            a->p[j] = a->p[j - 1];
            a->len[j] = a->len[j - 1];
            a->p[j - 1] = tp;
            a->len[j - 1] = tl;
        }
}

static const char *join(oc_arena *ar, const atoms *a)
{
    size_t total = 1;
    for (size_t i = 0; i < a->n; i++)
        total += a->len[i] + 1;
    char *s = oc_arena_alloc(ar, total);
    if (!s)
        return NULL;
    size_t pos = 0;
    for (size_t i = 0; i < a->n; i++) {
        if (i)
            s[pos++] = '*';
        memcpy(s + pos, a->p[i], a->len[i]);
        pos += a->len[i];
    }
    s[pos] = '\0';
    return s;
}

/* Text of a dim as an expression ("3*N", "N", "7"). */
static char *expr(oc_arena *ar, oc_dim d)
{
    if (!d.sym)
        return oc_arena_printf(ar, "%lld", (long long)d.v);
    if (d.v == 1)
        return oc_arena_strdup(ar, d.sym);
    return oc_arena_printf(ar, "%lld*%s", (long long)d.v, d.sym);
}

static oc_dim opaque(oc_arena *ar, oc_dim x, const char *op, oc_dim y)
{
    char *a = expr(ar, x), *b = expr(ar, y);
    if (!a || !b)
        return OC_DIM_UNKNOWN;
    const char *s = oc_arena_printf(ar, "(%s%s%s)", a, op, b);
    return s ? (oc_dim){1, s} : OC_DIM_UNKNOWN;
}

oc_dim oc__dim_mul(oc_arena *ar, oc_dim x, oc_dim y)
{
    if (oc_dim_is_unknown(x) || oc_dim_is_unknown(y))
        return OC_DIM_UNKNOWN;
    int64_t v;
    if (!oc_mul_i64(x.v, y.v, &v))
        return OC_DIM_UNKNOWN;
    if (v == 0)
        return oc_dim_of(0);
    if (!x.sym && !y.sym)
        return oc_dim_of(v);
    if (!x.sym || !y.sym)
        return (oc_dim){v, x.sym ? x.sym : y.sym};
    atoms a, b;
    if (!split(x.sym, &a) || !split(y.sym, &b) || a.n + b.n > MAX_ATOMS)
        return OC_DIM_UNKNOWN;
    for (size_t i = 0; i < b.n; i++) {
        a.p[a.n] = b.p[i];
        a.len[a.n++] = b.len[i];
    }
    sort_atoms(&a);
    const char *s = join(ar, &a);
    return s ? (oc_dim){v, s} : OC_DIM_UNKNOWN;
}

oc_dim oc__dim_add(oc_arena *ar, oc_dim x, oc_dim y, int sign)
{
    if (oc_dim_is_unknown(x) || oc_dim_is_unknown(y))
        return OC_DIM_UNKNOWN;
    int64_t yv = sign < 0 ? -y.v : y.v, v;
    if (!x.sym && !y.sym)
        return oc_add_i64(x.v, yv, &v) ? oc_dim_of(v) : OC_DIM_UNKNOWN;
    if (x.sym && y.sym && strcmp(x.sym, y.sym) == 0) {
        if (!oc_add_i64(x.v, yv, &v))
            return OC_DIM_UNKNOWN;
        if (v == 0)
            return oc_dim_of(0);
        if (v > 0)
            return (oc_dim){v, x.sym};
    }
    if (!y.sym && y.v == 0)
        return x;
    if (!x.sym && x.v == 0 && sign > 0)
        return y;
    if (sign > 0) {
        /* Canonical order so that a+b and b+a name the same atom. */
        char *a = expr(ar, x), *b = expr(ar, y);
        if (!a || !b)
            return OC_DIM_UNKNOWN;
        if (strcmp(a, b) > 0) {
            oc_dim t = x;
            x = y;
            y = t;
        }
        return opaque(ar, x, "+", y);
    }
    return opaque(ar, x, "-", y);
}

oc_dim oc__dim_div(oc_arena *ar, oc_dim x, oc_dim y, bool ceil)
{
    if (oc_dim_is_unknown(x) || oc_dim_is_unknown(y))
        return OC_DIM_UNKNOWN;
    if (!y.sym && y.v == 0)
        return OC_DIM_UNKNOWN;
    if (!x.sym && !y.sym) {
        if (x.v < 0 || y.v < 0)
            return OC_DIM_UNKNOWN;
        return oc_dim_of(ceil ? x.v / y.v + (x.v % y.v != 0) : x.v / y.v);
    }
    if (!y.sym) {
        if (y.v == 1)
            return x;
        if (y.v > 0 && x.v % y.v == 0)
            return (oc_dim){x.v / y.v, x.sym};
        return opaque(ar, x, ceil ? "/^" : "/", y);
    }
    if (x.sym && x.v % y.v == 0) {
        /* Remove y's atoms from x's when y's are a sub-multiset. */
        atoms a, b;
        if (split(x.sym, &a) && split(y.sym, &b)) {
            bool ok = true;
            for (size_t i = 0; i < b.n && ok; i++) {
                ok = false;
                for (size_t j = 0; j < a.n; j++)
                    if (!atom_cmp(a.p[j], a.len[j], b.p[i], b.len[i])) {
                        a.p[j] = a.p[a.n - 1];
                        a.len[j] = a.len[a.n - 1];
                        a.n--;
                        ok = true;
                        break;
                    }
            }
            if (ok) {
                int64_t v = x.v / y.v;
                if (a.n == 0)
                    return oc_dim_of(v);
                sort_atoms(&a);
                const char *s = join(ar, &a);
                return s ? (oc_dim){v, s} : OC_DIM_UNKNOWN;
            }
        }
    }
    return opaque(ar, x, ceil ? "/^" : "/", y);
}

int oc_dim_eq(oc_dim a, oc_dim b)
{
    if (oc_dim_is_unknown(a) || oc_dim_is_unknown(b))
        return -1;
    if (!a.sym && !b.sym)
        return a.v == b.v;
    if (a.sym && b.sym && a.v == b.v && strcmp(a.sym, b.sym) == 0)
        return 1;
    return -1;
}

const char *oc_dim_str(oc_dim d, char *buf, size_t size)
{
    if (oc_dim_is_unknown(d))
        snprintf(buf, size, "?");
    else if (!d.sym)
        snprintf(buf, size, "%lld", (long long)d.v);
    else if (d.v == 1)
        snprintf(buf, size, "%s", d.sym);
    else
        snprintf(buf, size, "%lld*%s", (long long)d.v, d.sym);
    return buf;
}

char *oc_shape_str(int rank, const oc_dim *dims, char *buf, size_t n)
{
    if (rank < 0) {
        snprintf(buf, n, "?");
        return buf;
    }
    size_t pos = 0;
    buf[0] = '\0';
    pos += (size_t)snprintf(buf + pos, n - pos, "[");
    for (int i = 0; i < rank && pos < n; i++) {
        char d[96];
        pos += (size_t)snprintf(buf + pos, n - pos, "%s%s", i ? "," : "",
                                oc_dim_str(dims[i], d, sizeof d));
    }
    if (pos < n)
        snprintf(buf + pos, n - pos, "]");
    return buf;
}

int64_t oc_dim_cost(oc_dim d)
{
    if (oc_dim_is_unknown(d))
        return -1;
    return d.v; /* symbols count as 1 */
}

bool oc_tinfo_numel(const oc_tinfo *t, uint64_t *out)
{
    if (!t || t->rank < 0)
        return false;
    uint64_t n = 1;
    for (int i = 0; i < t->rank; i++) {
        int64_t v = oc_dim_cost(t->dims[i]);
        if (v < 0 || !oc_mul_u64(n, (uint64_t)v, &n))
            return false;
    }
    *out = n;
    return true;
}

bool oc_numel(const oc_tinfo *t, uint64_t *out) { return oc_tinfo_numel(t, out); }

bool oc_tinfo_shape_known(const oc_tinfo *t)
{
    if (!t || t->rank < 0)
        return false;
    for (int i = 0; i < t->rank; i++)
        if (oc_dim_is_unknown(t->dims[i]))
            return false;
    return true;
}
