/*
 * pool.c - MaxPool, AveragePool, LpPool, the Global pools, MaxUnpool,
 * MaxRoiPool, RoiAlign.
 *
 * Shapes (X = N x C x D1..Dn):
 *   windowed pools  out_i = floor((D_i + pads_i - dk_i) / s_i) + 1, or with
 *                   ceil_mode ceil(...) + 1 less a last window that would
 *                   start in the right padding; dk_i = (k_i - 1) * d_i + 1;
 *                   SAME_UPPER/SAME_LOWER give ceil(D_i / s_i); VALID is
 *                   zero pads.  MaxPool's Indices (int64) has Y's shape.
 *   Global*Pool     N x C x 1 x .. x 1.
 *   MaxUnpool       output_shape when known, else (D_i - 1) * s_i + k_i -
 *                   pads_i.
 *   MaxRoiPool      num_rois x C x pooled_shape; RoiAlign num_rois x C x
 *                   output_height x output_width.
 *
 * Costs (MACs are 0 throughout; FLOPs):
 *   MaxPool, AveragePool   prod(kernel) per output element (compares or
 *                          adds; the average's divide is folded in)
 *   LpPool                 2 x prod(kernel) + 1 per output element
 *   GlobalMaxPool, GlobalAveragePool   1 per input element
 *   GlobalLpPool           2 per input element
 *   MaxUnpool              none (a scatter)
 *   MaxRoiPool             H x W / (ph x pw) per output element (ROI sizes
 *                          are data; a whole-image ROI is assumed)
 *   RoiAlign               8 per sample point (bilinear: 4 weights, multiply
 *                          and add) + 1 per output element; sampling_ratio^2
 *                          samples per bin, 4 when it is 0 (adaptive)
 */
#include <string.h>

#include "analyzer/values.h"

typedef struct pool_geom {
    int nsp;
    bool same, ceil_mode;
    int64_t k[OC_MAX_RANK], s[OC_MAX_RANK], d[OC_MAX_RANK];
    int64_t pb[OC_MAX_RANK], pe[OC_MAX_RANK];
} pool_geom;

static oc_dim dim_plus(oc_op_ctx *c, oc_dim a, int64_t k)
{
    if (k == 0)
        return a;
    if (k > 0)
        return oc_dim_add(c, a, oc_dim_of(k));
    if (k == INT64_MIN)
        return OC_DIM_UNKNOWN;
    return oc_dim_sub(c, a, oc_dim_of(-k));
}

static const char *op_name(oc_op_ctx *c)
{
    return oc_ctx_node(c)->op;
}

static oc_status read_axis_list(oc_op_ctx *c, const char *attr, int n,
                                int64_t def, int64_t min, int64_t *out)
{
    size_t len;
    const int64_t *v = oc_attr_ints(c, attr, &len);
    if (!v) {
        for (int i = 0; i < n; i++)
            out[i] = def;
        return OC_OK;
    }
    if (len != (size_t)n)
        return oc_fail(c, "%s: %s has %zu values for %d spatial axes",
                       op_name(c), attr, len, n);
    for (int i = 0; i < n; i++) {
        if (v[i] < min)
            return oc_fail(c, "%s: %s[%d] = %lld (must be >= %lld)",
                           op_name(c), attr, i, (long long)v[i],
                           (long long)min);
        out[i] = v[i];
    }
    return OC_OK;
}

static oc_status read_pads(oc_op_ctx *c, pool_geom *g, bool explicit_pads)
{
    size_t len;
    const int64_t *v = oc_attr_ints(c, "pads", &len);
    for (int i = 0; i < g->nsp; i++)
        g->pb[i] = g->pe[i] = 0;
    if (!v || !explicit_pads)
        return OC_OK;
    if (len != 2 * (size_t)g->nsp)
        return oc_fail(c, "%s: pads has %zu values for %d spatial axes",
                       op_name(c), len, g->nsp);
    for (int i = 0; i < g->nsp; i++) {
        g->pb[i] = v[i];
        g->pe[i] = v[g->nsp + i];
        if (g->pb[i] < 0 || g->pe[i] < 0)
            return oc_fail(c, "%s: negative pads on axis %d", op_name(c), i);
    }
    return OC_OK;
}

/* kernel_shape (required), strides, dilations, pads, auto_pad, ceil_mode.
 * The rank comes from X, else from kernel_shape (*rank set, -1 if none). */
static oc_status read_pool_geom(oc_op_ctx *c, const oc_tinfo *x, int *rank,
                                pool_geom *g)
{
    size_t nk;
    const int64_t *ks = oc_attr_ints(c, "kernel_shape", &nk);
    if (!ks)
        return oc_fail(c, "%s: kernel_shape is required", op_name(c));
    if (nk < 1 || nk + 2 > OC_MAX_RANK)
        return oc_fail(c, "%s: kernel_shape has %zu values", op_name(c), nk);
    *rank = x && x->rank >= 0 ? x->rank : (int)nk + 2;
    if ((size_t)*rank != nk + 2)
        return oc_fail(c, "%s: input has rank %d but kernel_shape has %zu "
                          "values", op_name(c), *rank, nk);
    g->nsp = (int)nk;
    const char *ap = oc_attr_str(c, "auto_pad", "NOTSET");
    g->same = !strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER");
    bool valid = !strcmp(ap, "VALID");
    if (!g->same && !valid && strcmp(ap, "NOTSET") && strcmp(ap, ""))
        return oc_fail(c, "%s: auto_pad '%s' is not understood", op_name(c),
                       ap);
    g->ceil_mode = oc_attr_int(c, "ceil_mode", 0) != 0;
    oc_status st;
    if ((st = read_axis_list(c, "kernel_shape", g->nsp, 1, 1, g->k)) ||
        (st = read_axis_list(c, "strides", g->nsp, 1, 1, g->s)) ||
        (st = read_axis_list(c, "dilations", g->nsp, 1, 1, g->d)))
        return st;
    return read_pads(c, g, !g->same && !valid);
}

/* Known extents: floor or ceil mode, dropping a last window that would
 * start inside the end padding. */
static oc_status pool_axis_known(oc_op_ctx *c, const pool_geom *g, int i,
                                 int64_t in, int64_t dk, oc_dim *out)
{
    int64_t num;
    if (!oc_add_i64(in, g->pb[i], &num) || !oc_add_i64(num, g->pe[i], &num))
        return oc_fail(c, "%s: pads overflow", op_name(c));
    if (num < dk)
        return oc_fail(c, "%s: axis %d: window %lld exceeds padded input "
                          "%lld", op_name(c), i + 2, (long long)dk,
                       (long long)num);
    num -= dk;
    int64_t o = num / g->s[i] + 1;
    int64_t start;
    if (g->ceil_mode && num % g->s[i]) {
        o++;
        if (oc_mul_i64(o - 1, g->s[i], &start) && start >= in + g->pb[i])
            o--;
    }
    *out = oc_dim_of(o);
    return OC_OK;
}

static oc_status pool_axis(oc_op_ctx *c, const pool_geom *g, int i, oc_dim in,
                           oc_dim *out)
{
    oc_dim s = oc_dim_of(g->s[i]);
    int64_t dk, off;
    if (g->same) {
        *out = g->s[i] == 1 ? in : oc_dim_ceildiv(c, in, s);
        return OC_OK;
    }
    if (!oc_mul_i64(g->k[i] - 1, g->d[i], &dk) || !oc_add_i64(dk, 1, &dk))
        return oc_fail(c, "%s: dilated kernel overflows", op_name(c));
    if (oc_dim_is_known(in))
        return pool_axis_known(c, g, i, in.v, dk, out);
    /* floor((in + pads - dk) / s) + 1 == floor((in + pads - dk + s) / s) */
    if (!oc_add_i64(g->pb[i], g->pe[i], &off) || !oc_add_i64(off, g->s[i],
                                                             &off))
        return oc_fail(c, "%s: pads overflow", op_name(c));
    oc_dim num = dim_plus(c, in, off - dk);
    if (g->s[i] == 1)
        *out = num;
    else
        *out = g->ceil_mode ? oc_dim_ceildiv(c, num, s) : oc_dim_div(c, num, s);
    return OC_OK;
}

/* MaxPool, AveragePool, LpPool. */
oc_status oc_pool_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    pool_geom g;
    int rank;
    oc_status st = read_pool_geom(c, x, &rank, &g);
    if (st)
        return st;
    oc_dim dims[OC_MAX_RANK];
    bool xk = x && x->rank >= 0;
    for (int i = 0; i < rank; i++)
        dims[i] = xk && i < 2 ? x->dims[i] : OC_DIM_UNKNOWN;
    for (int i = 0; i < g.nsp; i++)
        if ((st = pool_axis(c, &g, i, xk ? x->dims[2 + i] : OC_DIM_UNKNOWN,
                            &dims[2 + i])))
            return st;
    if ((st = oc_out_set(c, 0, oc_in_dtype(c, 0), rank, dims)))
        return st;
    return oc_out_set(c, 1, OC_DT_INT64, rank, dims); /* MaxPool Indices */
}

oc_status oc_global_pool_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dtype dt = oc_in_dtype(c, 0);
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, dt, -1, NULL);
    if (x->rank < 2)
        return oc_fail(c, "%s: input has rank %d (need N and C)", op_name(c),
                       x->rank);
    oc_dim dims[OC_MAX_RANK];
    for (int i = 0; i < x->rank; i++)
        dims[i] = i < 2 ? x->dims[i] : oc_dim_of(1);
    return oc_out_set(c, 0, dt, x->rank, dims);
}

/* output_shape given by value: it must have X's rank. */
static oc_status unpool_from_values(oc_op_ctx *c, int rank, bool *done)
{
    const int64_t *v;
    int64_t n;
    *done = false;
    if (!oc_ctx_in(c, 2) || !oc_in_ints(c, 2, &v, &n))
        return OC_OK;
    if (n < 3 || n > OC_MAX_RANK || (rank >= 0 && n != rank))
        return oc_fail(c, "MaxUnpool: output_shape has %lld values for rank "
                          "%d", (long long)n, rank);
    oc_dim dims[OC_MAX_RANK];
    for (int64_t i = 0; i < n; i++) {
        if (v[i] < 0)
            return oc_fail(c, "MaxUnpool: output_shape[%lld] = %lld",
                           (long long)i, (long long)v[i]);
        dims[i] = oc_dim_of(v[i]);
    }
    *done = true;
    return oc_out_set(c, 0, oc_in_dtype(c, 0), (int)n, dims);
}

static oc_status unpool_axis(oc_op_ctx *c, const pool_geom *g, int i,
                             oc_dim in, oc_dim *out)
{
    /* (in - 1) * s + k - pads = in * s + (k - s - pads) */
    int64_t off = g->k[i] - g->s[i], pads;
    if (!oc_add_i64(g->pb[i], g->pe[i], &pads) ||
        __builtin_sub_overflow(off, pads, &off))
        return oc_fail(c, "MaxUnpool: pads overflow");
    if (oc_dim_is_known(in)) {
        int64_t v;
        if (!oc_mul_i64(in.v, g->s[i], &v) || !oc_add_i64(v, off, &v))
            return oc_fail(c, "MaxUnpool: output size overflows");
        if (v < 0)
            return oc_fail(c, "MaxUnpool: axis %d: pads leave an output of "
                              "%lld", i + 2, (long long)v);
        *out = oc_dim_of(v);
        return OC_OK;
    }
    oc_dim scaled = g->s[i] == 1 ? in : oc_dim_mul(c, in, oc_dim_of(g->s[i]));
    *out = dim_plus(c, scaled, off);
    return OC_OK;
}

oc_status oc_maxunpool_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    pool_geom g;
    int rank;
    bool done;
    oc_status st = unpool_from_values(c, x ? x->rank : -1, &done);
    if (st || done)
        return st;
    if (oc_ctx_in(c, 2)) {
        /* output_shape exists but is not known: only the rank is. */
        const oc_tinfo *os = oc_ctx_in(c, 2);
        rank = x && x->rank >= 0 ? x->rank : -1;
        if (rank < 0 && os->rank == 1 && oc_dim_is_known(os->dims[0]) &&
            os->dims[0].v <= OC_MAX_RANK)
            rank = (int)os->dims[0].v;
        oc_dim dims[OC_MAX_RANK];
        for (int i = 0; i < rank; i++)
            dims[i] = i < 2 && x && x->rank >= 0 ? x->dims[i] : OC_DIM_UNKNOWN;
        return oc_out_set(c, 0, oc_in_dtype(c, 0), rank, dims);
    }
    if ((st = read_pool_geom(c, x, &rank, &g)))
        return st;
    oc_dim dims[OC_MAX_RANK];
    bool xk = x && x->rank >= 0;
    for (int i = 0; i < rank; i++)
        dims[i] = xk && i < 2 ? x->dims[i] : OC_DIM_UNKNOWN;
    for (int i = 0; i < g.nsp; i++)
        if ((st = unpool_axis(c, &g, i, xk ? x->dims[2 + i] : OC_DIM_UNKNOWN,
                              &dims[2 + i])))
            return st;
    return oc_out_set(c, 0, oc_in_dtype(c, 0), rank, dims);
}

/* num_rois x C x h x w; rois must be num_rois x box_len. */
static oc_status roi_out(oc_op_ctx *c, int64_t box_len, int64_t h, int64_t w,
                         oc_dim n_rois)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const oc_tinfo *r = oc_ctx_in(c, 1);
    if (x && x->rank >= 0 && x->rank != 4)
        return oc_fail(c, "%s: input has rank %d (expected 4)", op_name(c),
                       x->rank);
    if (r && r->rank >= 0) {
        if (r->rank != 2)
            return oc_fail(c, "%s: rois has rank %d (expected 2)", op_name(c),
                           r->rank);
        if (oc_dims_differ(r->dims[1], oc_dim_of(box_len)))
            return oc_fail(c, "%s: rois rows have %lld values (expected "
                              "%lld)", op_name(c), (long long)r->dims[1].v,
                           (long long)box_len);
        if (oc_dims_differ(r->dims[0], n_rois))
            return oc_fail(c, "%s: %lld rois but %lld batch indices",
                           op_name(c), (long long)r->dims[0].v,
                           (long long)n_rois.v);
        if (oc_dim_is_known(r->dims[0]) || oc_dim_is_sym(r->dims[0]))
            n_rois = r->dims[0];
    }
    oc_dim dims[4] = {n_rois, x && x->rank == 4 ? x->dims[1] : OC_DIM_UNKNOWN,
                      oc_dim_of(h), oc_dim_of(w)};
    return oc_out_set(c, 0, oc_in_dtype(c, 0), 4, dims);
}

oc_status oc_maxroipool_infer(oc_op_ctx *c)
{
    size_t n;
    const int64_t *ps = oc_attr_ints(c, "pooled_shape", &n);
    if (!ps || n != 2 || ps[0] < 1 || ps[1] < 1)
        return oc_fail(c, "MaxRoiPool: pooled_shape must be two positive "
                          "values");
    return roi_out(c, 5, ps[0], ps[1], OC_DIM_UNKNOWN);
}

oc_status oc_roialign_infer(oc_op_ctx *c)
{
    int64_t h = oc_attr_int(c, "output_height", 1);
    int64_t w = oc_attr_int(c, "output_width", 1);
    if (h < 1 || w < 1)
        return oc_fail(c, "RoiAlign: output size %lld x %lld", (long long)h,
                       (long long)w);
    if (oc_attr_int(c, "sampling_ratio", 0) < 0)
        return oc_fail(c, "RoiAlign: negative sampling_ratio");
    const oc_tinfo *bi = oc_ctx_in(c, 2);
    oc_dim n = OC_DIM_UNKNOWN;
    if (bi && bi->rank >= 0) {
        if (bi->rank != 1)
            return oc_fail(c, "RoiAlign: batch_indices has rank %d",
                           bi->rank);
        n = bi->dims[0];
    }
    return roi_out(c, 4, h, w, n);
}

/* ---- costs ---- */

static oc_status kernel_size(oc_op_ctx *c, uint64_t *out)
{
    size_t n;
    const int64_t *ks = oc_attr_ints(c, "kernel_shape", &n);
    *out = 1;
    for (size_t i = 0; ks && i < n; i++) {
        oc_status st = oc_cmul(c, *out, ks[i] > 0 ? (uint64_t)ks[i] : 0, out);
        if (st)
            return st;
    }
    return OC_OK;
}

oc_status oc_maxpool_cost(oc_op_ctx *c, oc_cost *out)
{
    uint64_t k;
    oc_status st = kernel_size(c, &k);
    return st ? st : oc_cost_per_output(c, out, k);
}

oc_status oc_averagepool_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_maxpool_cost(c, out);
}

oc_status oc_lppool_cost(oc_op_ctx *c, oc_cost *out)
{
    uint64_t k;
    oc_status st = kernel_size(c, &k);
    if (!st)
        st = oc_cmul(c, k, 2, &k);
    if (!st)
        st = oc_cadd(c, k, 1, &k);
    return st ? st : oc_cost_per_output(c, out, k);
}

static oc_status per_input(oc_op_ctx *c, oc_cost *out, uint64_t per)
{
    uint64_t n;
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!x || !oc_numel(x, &n))
        return OC_OK;
    return oc_cmul(c, n, per, &out->flops);
}

oc_status oc_global_pool_cost(oc_op_ctx *c, oc_cost *out)
{
    return per_input(c, out, 1);
}

oc_status oc_globallppool_cost(oc_op_ctx *c, oc_cost *out)
{
    return per_input(c, out, 2);
}

oc_status oc_maxroipool_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    size_t n;
    const int64_t *ps = oc_attr_ints(c, "pooled_shape", &n);
    if (!x || x->rank != 4 || !ps || n != 2 || ps[0] < 1 || ps[1] < 1)
        return OC_OK;
    int64_t h = oc_dim_cost(x->dims[2]), w = oc_dim_cost(x->dims[3]);
    if (h < 0 || w < 0)
        return OC_OK;
    uint64_t bins = (uint64_t)((h + ps[0] - 1) / ps[0]);
    oc_status st = oc_cmul(c, bins, (uint64_t)((w + ps[1] - 1) / ps[1]),
                           &bins);
    return st ? st : oc_cost_per_output(c, out, bins ? bins : 1);
}

oc_status oc_roialign_cost(oc_op_ctx *c, oc_cost *out)
{
    int64_t sr = oc_attr_int(c, "sampling_ratio", 0);
    uint64_t samples, per;
    if (sr <= 0)
        samples = 4;
    else if (sr > UINT32_MAX)
        return oc_fail(c, "RoiAlign: sampling_ratio %lld overflows",
                       (long long)sr);
    else
        samples = (uint64_t)sr * (uint64_t)sr;
    oc_status st = oc_cmul(c, samples, 8, &per);
    if (!st)
        st = oc_cadd(c, per, 1, &per);
    return st ? st : oc_cost_per_output(c, out, per);
}
