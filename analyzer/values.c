/*
 * values.c - known shapes and contents of an operator's inputs; see
 * values.h.
 */
#include <math.h>

#include "analyzer/values.h"

bool oc_dims_differ(oc_dim a, oc_dim b)
{
    return oc_dim_is_known(a) && oc_dim_is_known(b) && a.v != b.v;
}

bool oc_known_numel(int rank, const oc_dim *dims, int64_t *out)
{
    int64_t n = 1;
    if (rank < 0)
        return false;
    for (int i = 0; i < rank; i++) {
        if (!oc_dim_is_known(dims[i]) || !oc_mul_i64(n, dims[i].v, &n))
            return false;
    }
    *out = n;
    return true;
}

bool oc_tinfo_known_numel(const oc_tinfo *t, int64_t *out)
{
    return t && oc_known_numel(t->rank, t->dims, out);
}

void oc_strides_of(int rank, const oc_dim *dims, int64_t *st)
{
    int64_t s = 1;
    for (int i = rank - 1; i >= 0; i--) {
        st[i] = s;
        s *= dims[i].v;
    }
}

bool oc_has_vals(const oc_tinfo *t)
{
    return t && t->kind == OC_KIND_TENSOR && t->nvals >= 0 &&
           (t->ivals || t->fvals || t->nvals == 0);
}

bool oc_vals_usable(const oc_tinfo *t)
{
    int64_t n;
    return oc_has_vals(t) && oc_known_numel(t->rank, t->dims, &n) &&
           n == t->nvals;
}

bool oc_in_dimvals_propagated(const oc_op_ctx *c, size_t i,
                              const oc_dim **vals, int64_t *n)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    if (t && t->nvals >= 0 && (t->ivals || t->nvals == 0)) {
        *vals = t->ivals;
        *n = t->nvals;
        return true;
    }
    return false;
}

bool oc_in_dimvals(oc_op_ctx *c, size_t i, const oc_dim **vals, int64_t *n)
{
    if (oc_in_dimvals_propagated(c, i, vals, n))
        return true;
    const oc_tensor *k = oc_ctx_in_const(c, i);
    if (!k || !k->ivals || k->numel > OC_SMALL_TENSOR)
        return false;
    oc_dim *v = oc_ctx_alloc(c, (size_t)(k->numel + 1) * sizeof *v);
    if (!v)
        return false;
    for (uint64_t j = 0; j < k->numel; j++)
        v[j] = oc_dim_of(k->ivals[j]);
    *vals = v;
    *n = (int64_t)k->numel;
    return true;
}

bool oc_attr_dimvals(oc_op_ctx *c, const char *name, const oc_dim **vals,
                     int64_t *n)
{
    size_t na;
    const int64_t *a = oc_attr_ints(c, name, &na);
    if (!oc_ctx_attr(c, name))
        return false;
    oc_dim *v = oc_ctx_alloc(c, (na + 1) * sizeof *v);
    if (!v)
        return false;
    for (size_t j = 0; j < na; j++)
        v[j] = oc_dim_of(a[j]);
    *vals = v;
    *n = (int64_t)na;
    return true;
}

bool oc_in_ints(const oc_op_ctx *c, size_t i, const int64_t **vals, int64_t *n)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    if (!t || t->nvals < 0 || !t->ivals)
        return false;
    int64_t *v = oc_ctx_alloc((oc_op_ctx *)c, ((size_t)t->nvals + 1) * sizeof *v);
    if (!v)
        return false;
    for (int64_t k = 0; k < t->nvals; k++) {
        if (t->ivals[k].sym)
            return false;
        v[k] = t->ivals[k].v;
    }
    *vals = v;
    *n = t->nvals;
    return true;
}

bool oc_in_floats(const oc_op_ctx *c, size_t i, const double **vals, int64_t *n)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    if (!t || t->nvals < 0)
        return false;
    if (t->fvals) {
        *vals = t->fvals;
        *n = t->nvals;
        return true;
    }
    if (!t->ivals)
        return false;
    double *v = oc_ctx_alloc((oc_op_ctx *)c, ((size_t)t->nvals + 1) * sizeof *v);
    if (!v)
        return false;
    for (int64_t k = 0; k < t->nvals; k++) {
        if (t->ivals[k].sym)
            return false;
        v[k] = (double)t->ivals[k].v;
    }
    *vals = v;
    *n = t->nvals;
    return true;
}

oc_dtype oc_in_dtype(const oc_op_ctx *c, size_t i)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    return t ? t->dtype : OC_DT_UNDEFINED;
}

bool oc_in_scalar(const oc_op_ctx *c, size_t i, int64_t *v)
{
    const int64_t *vals;
    int64_t n;
    if (!oc_in_ints(c, i, &vals, &n) || n != 1)
        return false;
    *v = vals[0];
    return true;
}

bool oc_in_scalar_dim(const oc_op_ctx *c, size_t i, oc_dim *d)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    if (!t || t->nvals != 1)
        return false;
    if (t->ivals) {
        *d = t->ivals[0];
        return true;
    }
    if (t->fvals && t->fvals[0] >= 0 && t->fvals[0] < 9.0e15 &&
        t->fvals[0] == floor(t->fvals[0])) {
        *d = oc_dim_of((int64_t)t->fvals[0]);
        return true;
    }
    return false;
}

int oc_known_flag(const oc_tinfo *t)
{
    if (!t || t->nvals != 1)
        return -1;
    if (t->ivals && !t->ivals[0].sym)
        return t->ivals[0].v != 0;
    if (t->fvals)
        return t->fvals[0] != 0;
    return -1;
}

oc_status oc_out_copy_vals(oc_op_ctx *c, size_t o, const oc_tinfo *src)
{
    if (!oc_has_vals(src))
        return OC_OK;
    if (src->ivals || src->nvals == 0)
        return oc_out_ivals(c, o, src->nvals, src->ivals);
    return oc_out_fvals(c, o, src->nvals, src->fvals);
}

oc_status oc_out_map_vals(oc_op_ctx *c, size_t o, const oc_tinfo *src,
                          const int64_t *map, int64_t n)
{
    if (src->ivals) {
        oc_dim *v = oc_ctx_alloc(c, (size_t)(n + 1) * sizeof *v);
        if (!v)
            return OC_ERR_NOMEM;
        for (int64_t k = 0; k < n; k++)
            v[k] = src->ivals[map[k]];
        return oc_out_ivals(c, o, n, v);
    }
    if (src->fvals) {
        double *v = oc_ctx_alloc(c, (size_t)(n + 1) * sizeof *v);
        if (!v)
            return OC_ERR_NOMEM;
        for (int64_t k = 0; k < n; k++)
            v[k] = src->fvals[map[k]];
        return oc_out_fvals(c, o, n, v);
    }
    return n == 0 ? oc_out_ivals(c, o, 0, NULL) : OC_OK;
}
