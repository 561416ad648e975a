/*
 * resize.c - Resize (opset 10: scales input; 11: roi, scales, sizes; 13:
 * roi and scales optional; 18: axes, keep_aspect_ratio_policy, antialias)
 * and Upsample (scales attribute in 7-8, input from 9).
 *
 * Output dims: floor(d * scale) (computed in float, as runtimes do), or
 * the sizes input.  The coordinate transformation modes (and roi) do not
 * change shapes.
 *
 * Costs (FLOPs per output element), with k = the number of axes whose size
 * changes:
 *   nearest  0 (a gather)
 *   linear   3 * (2^k - 1): an N-linear interpolation is 2^k - 1 lerps of
 *            3 FLOPs (a + t * (b - a)); bilinear = 9
 *   cubic    7 * (4^k - 1) / 3: separable 4-tap filters (4 mul + 3 add)
 *            applied to 4^(k-1) + ... + 1 rows; bicubic = 35
 * antialias (18) widens the filters when downsampling; not counted.
 */
#include <math.h>
#include <string.h>

#include "analyzer/values.h"

/* dst[0..n) = src[0..n); src may be NULL when n is 0. */
static void dims_copy(oc_dim *dst, const oc_dim *src, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = src[i];
}

/* floor(d * s) as a runtime computes it (float product). */
static oc_dim scaled_dim(oc_op_ctx *c, oc_dim d, double s)
{
    if (oc_dim_is_known(d)) {
        double v = d.v < (INT64_C(1) << 24) ? (double)((float)d.v * (float)s)
                                           : (double)d.v * s;
        v = floor(v);
        return v >= 0 && v < 9.0e18 ? oc_dim_of((int64_t)v) : OC_DIM_UNKNOWN;
    }
    if (oc_dim_is_sym(d) && s >= 1 && s == floor(s) && s < 1e9)
        return oc_dim_mul(c, d, oc_dim_of((int64_t)s)); /* N * 2 */
    if (oc_dim_is_sym(d) && s > 1e-9 && s < 1 && 1 / s == floor(1 / s) &&
        d.v % (int64_t)(1 / s) == 0)
        return oc_dim_div(c, d, oc_dim_of((int64_t)(1 / s))); /* 2N / 2 */
    return OC_DIM_UNKNOWN;
}

/* Contents of an input that is present and not an empty placeholder. */
static bool given(const oc_op_ctx *c, size_t i)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    if (!t)
        return false;
    if (t->rank == 1 && oc_dim_is_known(t->dims[0]) && t->dims[0].v == 0)
        return false;
    return !(t->nvals == 0);
}

/* The axes of opset 18 (all of them by default), normalised. */
static oc_status resize_axes(oc_op_ctx *c, int rank, int *axes, int *n)
{
    size_t na;
    const int64_t *a = oc_attr_ints(c, "axes", &na);
    if (oc_ctx_opset(c) < 18 || !oc_ctx_attr(c, "axes") ||
        strcmp(oc_ctx_node(c)->op, "Resize") != 0) {
        for (int i = 0; i < rank; i++)
            axes[i] = i;
        *n = rank;
        return OC_OK;
    }
    bool seen[OC_MAX_RANK] = {false};
    if (na > (size_t)rank)
        return oc_fail(c, "Resize: %zu axes for rank %d", na, rank);
    for (size_t i = 0; i < na; i++) {
        oc_status s = oc_axis(c, a[i], rank, 0, &axes[i]);
        if (s != OC_OK)
            return s;
        if (seen[axes[i]])
            return oc_fail(c, "Resize: axis %d given twice", axes[i]);
        seen[axes[i]] = true;
    }
    *n = (int)na;
    return OC_OK;
}

static oc_status from_scales(oc_op_ctx *c, const oc_tinfo *x,
                             const double *sc, int64_t ns, const int *axes,
                             int na, oc_dim *out)
{
    if (ns != na)
        return oc_fail(c, "%s: %lld scales for %d axes", oc_ctx_node(c)->op,
                       (long long)ns, na);
    for (int i = 0; i < na; i++) {
        if (!(sc[i] > 0))
            return oc_fail(c, "%s: scale %g is not positive",
                           oc_ctx_node(c)->op, sc[i]);
        out[axes[i]] = scaled_dim(c, x->dims[axes[i]], sc[i]);
    }
    return OC_OK;
}

/* sizes with keep_aspect_ratio_policy not_larger / not_smaller (18). */
static oc_status from_sizes_policy(const oc_tinfo *x,
                                   const oc_dim *sz, const int *axes, int na,
                                   bool larger, oc_dim *out)
{
    double scale = larger ? 0 : INFINITY;
    for (int i = 0; i < na; i++) {
        oc_dim d = x->dims[axes[i]];
        if (sz[i].sym || !oc_dim_is_known(d) || d.v == 0) {
            for (int j = 0; j < na; j++)
                out[axes[j]] = OC_DIM_UNKNOWN;
            return OC_OK;
        }
        double s = (double)sz[i].v / (double)d.v;
        scale = larger ? (s > scale ? s : scale) : (s < scale ? s : scale);
    }
    for (int i = 0; i < na; i++)
        out[axes[i]] = oc_dim_of(
            (int64_t)floor(scale * (double)x->dims[axes[i]].v + 0.5));
    return OC_OK;
}

static oc_status from_sizes(oc_op_ctx *c, const oc_tinfo *x,
                            const oc_dim *sz, int64_t n, const int *axes,
                            int na, oc_dim *out)
{
    if (n != na)
        return oc_fail(c, "Resize: %lld sizes for %d axes", (long long)n, na);
    for (int i = 0; i < na; i++)
        if (!sz[i].sym && sz[i].v < 0)
            return oc_fail(c, "Resize: negative size %lld",
                           (long long)sz[i].v);
    const char *pol = oc_ctx_opset(c) >= 18
                          ? oc_attr_str(c, "keep_aspect_ratio_policy",
                                        "stretch")
                          : "stretch";
    if (strcmp(pol, "not_larger") == 0 || strcmp(pol, "not_smaller") == 0)
        return from_sizes_policy(x, sz, axes, na,
                                 strcmp(pol, "not_smaller") == 0, out);
    for (int i = 0; i < na; i++)
        out[axes[i]] = sz[i];
    return OC_OK;
}

/* Index of the scales and sizes inputs at this opset (-1: none). */
static void resize_inputs(const oc_op_ctx *c, int *scales, int *sizes)
{
    bool up = strcmp(oc_ctx_node(c)->op, "Upsample") == 0;
    *sizes = -1;
    if (up)
        *scales = oc_ctx_opset(c) >= 9 ? 1 : -1;
    else if (oc_ctx_opset(c) < 11)
        *scales = 1;
    else {
        *scales = 2;
        *sizes = 3;
    }
}

oc_status oc_resize_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dtype dt = x ? x->dtype : OC_DT_UNDEFINED;
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, dt, -1, NULL);
    int r = x->rank, axes[OC_MAX_RANK], na, si, zi;
    oc_status s = resize_axes(c, r, axes, &na);
    if (s != OC_OK)
        return s;
    oc_dim out[OC_MAX_RANK];
    dims_copy(out, x->dims, r);
    resize_inputs(c, &si, &zi);

    const double *sc;
    int64_t ns;
    size_t nattr;
    if (si < 0) {
        const double *a = oc_attr_floats(c, "scales", &nattr);
        if (!a)
            return oc_fail(c, "Upsample: scales are required");
        return (s = from_scales(c, x, a, (int64_t)nattr, axes, na, out))
                   ? s : oc_out_set(c, 0, dt, r, out);
    }
    const oc_tinfo *zt = zi >= 0 ? oc_ctx_in(c, (size_t)zi) : NULL;
    if (zi >= 0 && given(c, (size_t)zi)) {
        if (!zt->ivals || zt->nvals < 0) {
            for (int i = 0; i < na; i++)
                out[axes[i]] = OC_DIM_UNKNOWN;
        } else if ((s = from_sizes(c, x, zt->ivals, zt->nvals, axes, na,
                                   out)) != OC_OK) {
            return s;
        }
        return oc_out_set(c, 0, dt, r, out);
    }
    if (!given(c, (size_t)si))
        return oc_fail(c, "%s: neither scales nor sizes given",
                       oc_ctx_node(c)->op);
    if (!oc_in_floats(c, (size_t)si, &sc, &ns)) {
        for (int i = 0; i < na; i++)
            out[axes[i]] = OC_DIM_UNKNOWN;
        return oc_out_set(c, 0, dt, r, out);
    }
    if ((s = from_scales(c, x, sc, ns, axes, na, out)) != OC_OK)
        return s;
    return oc_out_set(c, 0, dt, r, out);
}

oc_status oc_resize_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *x = oc_ctx_in(c, 0), *y = oc_ctx_out(c, 0);
    const char *mode = oc_attr_str(c, "mode", "nearest");
    if (!x || !y || x->rank != y->rank)
        return OC_OK;
    int k = 0;
    for (int i = 0; i < x->rank; i++)
        k += oc_dim_eq(x->dims[i], y->dims[i]) != 1;
    if (k > 20)
        k = 20; /* keeps 4^k in range; no real model resizes 20 axes */
    uint64_t per = 0;
    if (strcmp(mode, "linear") == 0 || strcmp(mode, "bilinear") == 0)
        per = 3 * ((UINT64_C(1) << k) - 1);
    else if (strcmp(mode, "cubic") == 0)
        per = 7 * (((UINT64_C(1) << (2 * k)) - 1) / 3);
    return oc_cost_per_output(c, out, per);
}
