/*
 * gather.c - indexing operators: Gather, GatherElements, GatherND, Scatter,
 * ScatterElements, ScatterND, Compress, OneHot, NonZero, Unique, TopK,
 * NonMaxSuppression.
 *
 * Costs: gathers and plain scatters move data only (no cost rule).
 *   ScatterElements / ScatterND with reduction add/mul/max/min: 1 FLOP per
 *     update element.
 *   TopK: 1 FLOP (a comparison) per input element, as ArgMax.
 * Compress, NonZero, Unique and NonMaxSuppression have data-dependent
 * output sizes, so their work is not counted.
 *
 * Gather carries known contents (Gather(Shape(x), 0) -> {N}); NonZero and
 * Compress compute their output size when the contents are known.
 */
#include <string.h>

#include "analyzer/values.h"

/* dst[0..n) = src[0..n); src may be NULL when n is 0. */
static void dims_copy(oc_dim *dst, const oc_dim *src, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = src[i];
}

/* ---- helpers ---- */

/* Element k of t's contents is non-zero: 1, 0, or -1 (not known). */
static int val_nonzero(const oc_tinfo *t, int64_t k)
{
    if (t->fvals)
        return t->fvals[k] != 0.0;
    if (t->ivals) {
        oc_dim d = t->ivals[k];
        if (d.sym)
            return -1;
        return d.v != 0;
    }
    return -1;
}

/* ---- Gather ---- */

static oc_status gather_vals(oc_op_ctx *c, const oc_tinfo *x, int ax,
                             const int64_t *idx, int64_t nidx, int64_t total)
{
    int64_t dax = x->dims[ax].v, inner = 1, outer = 1, k = 0;
    for (int i = 0; i < ax; i++)
        outer *= x->dims[i].v;
    for (int i = ax + 1; i < x->rank; i++)
        inner *= x->dims[i].v;
    if (total > OC_SMALL_TENSOR || outer * nidx * inner != total)
        return OC_OK;
    oc_dim *iv = x->ivals ? oc_ctx_alloc(c, (size_t)(total + 1) * sizeof *iv)
                          : NULL;
    double *fv = x->fvals ? oc_ctx_alloc(c, (size_t)(total + 1) * sizeof *fv)
                          : NULL;
    if (!iv && !fv)
        return total == 0 ? oc_out_ivals(c, 0, 0, NULL) : OC_OK;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t j = 0; j < nidx; j++) {
            int64_t at = idx[j] < 0 ? idx[j] + dax : idx[j];
            for (int64_t e = 0; e < inner; e++, k++) {
                int64_t src = (o * dax + at) * inner + e;
                if (iv)
                    iv[k] = x->ivals[src];
                else
                    fv[k] = x->fvals[src];
            }
        }
    return iv ? oc_out_ivals(c, 0, total, iv) : oc_out_fvals(c, 0, total, fv);
}

oc_status oc_gather_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0), *ind = oc_ctx_in(c, 1);
    if (!x || !ind || x->rank < 0 || ind->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    int ax;
    oc_status s = oc_axis(c, oc_attr_int(c, "axis", 0), x->rank, 0, &ax);
    if (s != OC_OK)
        return s;
    int r = x->rank + ind->rank - 1;
    if (r > OC_MAX_RANK)
        return oc_fail(c, "Gather: output rank %d is too large", r);
    oc_dim out[OC_MAX_RANK];
    int k = 0;
    for (int i = 0; i < ax; i++)
        out[k++] = x->dims[i];
    for (int i = 0; i < ind->rank; i++)
        out[k++] = ind->dims[i];
    for (int i = ax + 1; i < x->rank; i++)
        out[k++] = x->dims[i];

    const int64_t *idx;
    int64_t nidx;
    bool known_idx = oc_in_ints(c, 1, &idx, &nidx);
    oc_dim d = x->dims[ax];
    for (int64_t j = 0; known_idx && oc_dim_is_known(d) && j < nidx; j++)
        if (idx[j] < -d.v || idx[j] >= d.v)
            return oc_fail(c, "Gather: index %lld is out of range for a dim "
                              "of %lld", (long long)idx[j], (long long)d.v);
    if ((s = oc_out_set(c, 0, x->dtype, r, out)) != OC_OK)
        return s;
    int64_t total;
    if (known_idx && oc_vals_usable(x) && oc_known_numel(r, out, &total))
        return gather_vals(c, x, ax, idx, nidx, total);
    return OC_OK;
}

oc_status oc_gatherelements_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0), *ind = oc_ctx_in(c, 1);
    if (!ind || ind->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    if (x && x->rank >= 0) {
        int ax;
        if (x->rank != ind->rank)
            return oc_fail(c, "GatherElements: data rank %d, indices rank %d",
                           x->rank, ind->rank);
        oc_status s = oc_axis(c, oc_attr_int(c, "axis", 0), x->rank, 0, &ax);
        if (s != OC_OK)
            return s;
    }
    return oc_out_set(c, 0, oc_in_dtype(c, 0), ind->rank, ind->dims);
}

oc_status oc_gathernd_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0), *ind = oc_ctx_in(c, 1);
    int64_t b = oc_ctx_opset(c) >= 12 ? oc_attr_int(c, "batch_dims", 0) : 0;
    oc_dtype dt = oc_in_dtype(c, 0);
    if (!x || !ind || x->rank < 0 || ind->rank < 0)
        return oc_out_set(c, 0, dt, -1, NULL);
    int r = x->rank, q = ind->rank;
    if (q < 1 || r < 1)
        return oc_fail(c, "GatherND: data and indices need rank >= 1");
    if (b < 0 || b >= (r < q ? r : q))
        return oc_fail(c, "GatherND: batch_dims %lld out of range",
                       (long long)b);
    oc_dim last = ind->dims[q - 1];
    if (!oc_dim_is_known(last))
        return oc_out_set(c, 0, dt, -1, NULL);
    if (last.v < 1 || last.v > r - b)
        return oc_fail(c, "GatherND: index tuples of length %lld for data "
                          "rank %d with %lld batch dims",
                       (long long)last.v, r, (long long)b);
    if (q - 1 + r - b - last.v > OC_MAX_RANK)
        return oc_fail(c, "GatherND: output rank is too large");
    oc_dim out[OC_MAX_RANK];
    int k = 0;
    for (int i = 0; i < q - 1; i++)
        out[k++] = ind->dims[i];
    for (int64_t i = b + last.v; i < r; i++)
        out[k++] = x->dims[i];
    return oc_out_set(c, 0, dt, k, out);
}

/* ---- scatters ---- */

oc_status oc_scatter_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0), *ind = oc_ctx_in(c, 1),
                   *upd = oc_ctx_in(c, 2);
    if (x && ind && x->rank >= 0 && ind->rank >= 0) {
        int ax;
        if (x->rank != ind->rank)
            return oc_fail(c, "%s: data rank %d, indices rank %d",
                           oc_ctx_node(c)->op, x->rank, ind->rank);
        oc_status s = oc_axis(c, oc_attr_int(c, "axis", 0), x->rank, 0, &ax);
        if (s != OC_OK)
            return s;
    }
    if (ind && upd && ind->rank >= 0 && upd->rank >= 0 &&
        ind->rank != upd->rank)
        return oc_fail(c, "%s: indices rank %d, updates rank %d",
                       oc_ctx_node(c)->op, ind->rank, upd->rank);
    return oc_out_like(c, 0, x);
}

oc_status oc_scatternd_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0), *ind = oc_ctx_in(c, 1),
                   *upd = oc_ctx_in(c, 2);
    if (x && ind && upd && x->rank >= 0 && ind->rank >= 1 &&
        upd->rank >= 0 && oc_dim_is_known(ind->dims[ind->rank - 1])) {
        int64_t k = ind->dims[ind->rank - 1].v;
        if (k > x->rank)
            return oc_fail(c, "ScatterND: index tuples of length %lld for "
                              "data rank %d", (long long)k, x->rank);
        int64_t want = ind->rank - 1 + x->rank - k;
        if (upd->rank != want)
            return oc_fail(c, "ScatterND: updates have rank %d, expected "
                              "%lld", upd->rank, (long long)want);
    }
    return oc_out_like(c, 0, x);
}

/* Reductions combine each update with the data: 1 FLOP per update. */
oc_status oc_scatter_cost(oc_op_ctx *c, oc_cost *out)
{
    const char *red = oc_attr_str(c, "reduction", "none");
    uint64_t n;
    if (strcmp(red, "none") == 0 || !oc_numel(oc_ctx_in(c, 2), &n))
        return OC_OK;
    out->flops = n;
    return OC_OK;
}

/* ---- data-dependent sizes ---- */

oc_status oc_compress_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0), *cond = oc_ctx_in(c, 1);
    oc_dim n = OC_DIM_UNKNOWN;
    oc_dtype dt = oc_in_dtype(c, 0);
    if (cond && cond->rank >= 0 && cond->rank != 1)
        return oc_fail(c, "Compress: condition has rank %d, not 1",
                       cond->rank);
    const oc_attr *axis = oc_ctx_attr(c, "axis");
    int ax = -1;
    if (axis && x && x->rank >= 0) {
        oc_status s = oc_axis(c, axis->i, x->rank, 0, &ax);
        if (s != OC_OK)
            return s;
    }
    /* The length selected from: the axis, or all elements without one. */
    int64_t len = -1;
    if (x && ax >= 0 && oc_dim_is_known(x->dims[ax]))
        len = x->dims[ax].v;
    else if (x && !axis && !oc_known_numel(x->rank, x->dims, &len))
        len = -1;
    if (oc_vals_usable(cond) && len >= 0) {
        /* Elements past the condition's end are dropped. */
        int64_t cnt = 0, lim = cond->nvals < len ? cond->nvals : len;
        for (int64_t k = 0; k < lim && cnt >= 0; k++) {
            int nz = val_nonzero(cond, k);
            cnt = nz < 0 ? -1 : cnt + nz;
        }
        if (cnt >= 0)
            n = oc_dim_of(cnt);
    }
    if (!axis)
        return oc_out_set(c, 0, dt, 1, &n);
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, dt, -1, NULL);
    oc_dim out[OC_MAX_RANK];
    dims_copy(out, x->dims, x->rank);
    out[ax] = n;
    return oc_out_set(c, 0, dt, x->rank, out);
}

oc_status oc_nonzero_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dim out[2] = {OC_DIM_UNKNOWN, OC_DIM_UNKNOWN};
    if (x && x->rank >= 0)
        out[0] = oc_dim_of(x->rank);
    if (oc_vals_usable(x)) {
        int64_t cnt = 0;
        for (int64_t k = 0; k < x->nvals && cnt >= 0; k++) {
            int nz = val_nonzero(x, k);
            cnt = nz < 0 ? -1 : cnt + nz;
        }
        if (cnt >= 0)
            out[1] = oc_dim_of(cnt);
    }
    return oc_out_set(c, 0, OC_DT_INT64, 2, out);
}

oc_status oc_unique_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const oc_attr *axis = oc_ctx_attr(c, "axis");
    oc_dim u = OC_DIM_UNKNOWN, n = OC_DIM_UNKNOWN;
    oc_status s;
    if (!axis) {
        if ((s = oc_out_set(c, 0, oc_in_dtype(c, 0), 1, &u)) != OC_OK)
            return s;
        int64_t e;
        if (x && oc_known_numel(x->rank, x->dims, &e))
            n = oc_dim_of(e);
    } else if (x && x->rank >= 0) {
        int ax;
        if ((s = oc_axis(c, axis->i, x->rank, 0, &ax)) != OC_OK)
            return s;
        oc_dim out[OC_MAX_RANK];
        dims_copy(out, x->dims, x->rank);
        out[ax] = OC_DIM_UNKNOWN;
        n = x->dims[ax];
        if ((s = oc_out_set(c, 0, x->dtype, x->rank, out)) != OC_OK)
            return s;
    } else if ((s = oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL)) != OC_OK) {
        return s;
    }
    if ((s = oc_out_set(c, 1, OC_DT_INT64, 1, &u)) != OC_OK ||
        (s = oc_out_set(c, 2, OC_DT_INT64, 1, &n)) != OC_OK)
        return s;
    return oc_out_set(c, 3, OC_DT_INT64, 1, &u);
}

oc_status oc_nonmaxsuppression_infer(oc_op_ctx *c)
{
    oc_dim out[2] = {OC_DIM_UNKNOWN, oc_dim_of(3)};
    const oc_tinfo *boxes = oc_ctx_in(c, 0);
    if (boxes && boxes->rank >= 0 && boxes->rank != 3)
        return oc_fail(c, "NonMaxSuppression: boxes have rank %d, not 3",
                       boxes->rank);
    return oc_out_set(c, 0, OC_DT_INT64, 2, out);
}

/* ---- OneHot, TopK ---- */

oc_status oc_onehot_infer(oc_op_ctx *c)
{
    const oc_tinfo *ind = oc_ctx_in(c, 0);
    oc_dtype dt = oc_in_dtype(c, 2);
    int64_t depth;
    if (!ind || ind->rank < 0)
        return oc_out_set(c, 0, dt, -1, NULL);
    int r = ind->rank + 1, ax;
    if (r > OC_MAX_RANK)
        return oc_fail(c, "OneHot: output rank %d is too large", r);
    oc_status s = oc_axis(c, oc_attr_int(c, "axis", -1), ind->rank, 1, &ax);
    if (s != OC_OK)
        return s;
    oc_dim d = OC_DIM_UNKNOWN;
    const oc_tinfo *dep = oc_ctx_in(c, 1);
    if (oc_in_scalar(c, 1, &depth)) {
        if (depth < 1)
            return oc_fail(c, "OneHot: depth %lld", (long long)depth);
        d = oc_dim_of(depth);
    } else if (dep && dep->fvals && dep->nvals == 1) {
        /* A float depth is truncated to an integer. */
        if (dep->fvals[0] < 1 || dep->fvals[0] > 9.0e15)
            return oc_fail(c, "OneHot: depth %g", dep->fvals[0]);
        d = oc_dim_of((int64_t)dep->fvals[0]);
    } else if (dep && dep->ivals && dep->nvals == 1 && dep->ivals[0].sym) {
        d = dep->ivals[0];
    }
    oc_dim out[OC_MAX_RANK];
    for (int i = 0, j = 0; i < r; i++)
        out[i] = i == ax ? d : ind->dims[j++];
    return oc_out_set(c, 0, dt, r, out);
}

oc_status oc_topk_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dtype dt = oc_in_dtype(c, 0);
    oc_status s;
    if (!x || x->rank < 0) {
        if ((s = oc_out_set(c, 0, dt, -1, NULL)) != OC_OK)
            return s;
        return oc_out_set(c, 1, OC_DT_INT64, -1, NULL);
    }
    int ax;
    if ((s = oc_axis(c, oc_attr_int(c, "axis", -1), x->rank, 0, &ax)) !=
        OC_OK)
        return s;
    oc_dim k = OC_DIM_UNKNOWN;
    int64_t kv;
    if (oc_ctx_opset(c) < 10) {
        kv = oc_attr_int(c, "k", -1);
        if (kv < 0)
            return oc_fail(c, "TopK: k is missing or negative");
        k = oc_dim_of(kv);
    } else if (oc_in_scalar(c, 1, &kv)) {
        if (kv < 0)
            return oc_fail(c, "TopK: k = %lld", (long long)kv);
        k = oc_dim_of(kv);
    } else {
        const oc_tinfo *kt = oc_ctx_in(c, 1);
        if (kt && kt->ivals && kt->nvals == 1)
            k = kt->ivals[0]; /* symbolic k, e.g. min(L, 10) */
    }
    oc_dim d = x->dims[ax];
    if (oc_dim_is_known(k) && oc_dim_is_known(d) && k.v > d.v)
        return oc_fail(c, "TopK: k = %lld but the axis has %lld elements",
                       (long long)k.v, (long long)d.v);
    oc_dim out[OC_MAX_RANK];
    dims_copy(out, x->dims, x->rank);
    out[ax] = k;
    if ((s = oc_out_set(c, 0, dt, x->rank, out)) != OC_OK)
        return s;
    return oc_out_set(c, 1, OC_DT_INT64, x->rank, out);
}

oc_status oc_topk_cost(oc_op_ctx *c, oc_cost *out)
{
    uint64_t n;
    if (oc_numel(oc_ctx_in(c, 0), &n))
        out->flops = n;
    return OC_OK;
}
