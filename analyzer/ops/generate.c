/*
 * generate.c - operators that make a tensor from a shape or from scalars:
 * ConstantOfShape, Range, EyeLike, RandomNormal, RandomUniform, Multinomial,
 * BlackmanWindow, HannWindow, HammingWindow, MelWeightMatrix, STFT.
 *
 * Costs (FLOPs):
 *   ConstantOfShape, Range, EyeLike   0 (fills; bytes only)
 *   RandomNormal, RandomUniform       1 per output element (as the *Like
 *                                     ops of elementwise.c)
 *   Multinomial                       1 per input element (running sum)
 *                                     + 1 per output element (the draw)
 *   HannWindow, HammingWindow         3 per output element (cos, mul, add)
 *   BlackmanWindow                    5 per output element (two cos terms)
 *   MelWeightMatrix                   1 per output element
 *   STFT                              per frame and batch: frame_length
 *                                     window multiplies + an FFT counted
 *                                     as 5 * n * log2(n) with n the
 *                                     frame_length (the usual radix-2
 *                                     estimate)
 *
 * ConstantOfShape and Range propagate: ConstantOfShape(Shape(x)) has x's
 * (symbolic) dims, Range(0, L, 1) has length L.
 */
#include <math.h>
#include <string.h>

#include "analyzer/values.h"

/* ---- helpers ---- */

static int64_t in_len(const oc_op_ctx *c, size_t i)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    if (t && t->rank == 1 && oc_dim_is_known(t->dims[0]))
        return t->dims[0].v;
    return -1;
}

static oc_dtype dtype_attr(oc_op_ctx *c, const char *name, oc_dtype def,
                           oc_status *st)
{
    int64_t dt = oc_attr_int(c, name, def);
    *st = OC_OK;
    if (!oc_dtype_valid(dt)) {
        *st = oc_fail(c, "%s: invalid %s %lld", oc_ctx_node(c)->op, name,
                      (long long)dt);
        return OC_DT_UNDEFINED;
    }
    return (oc_dtype)dt;
}

/* ---- ConstantOfShape ---- */

/* The contents: every element is the value (float 0 by default). */
static oc_status fill_vals(oc_op_ctx *c, const oc_tensor *v, int rank,
                           const oc_dim *dims)
{
    int64_t n;
    if (!oc_known_numel(rank, dims, &n) || n > OC_SMALL_TENSOR)
        return OC_OK;
    if (v && v->ivals) {
        oc_dim *iv = oc_ctx_alloc(c, (size_t)(n + 1) * sizeof *iv);
        if (!iv)
            return OC_ERR_NOMEM;
        for (int64_t k = 0; k < n; k++)
            iv[k] = oc_dim_of(v->ivals[0]);
        return oc_out_ivals(c, 0, n, iv);
    }
    if (v && !v->fvals)
        return OC_OK; /* a value that is not decoded (string...) */
    double *fv = oc_ctx_alloc(c, (size_t)(n + 1) * sizeof *fv);
    if (!fv)
        return OC_ERR_NOMEM;
    for (int64_t k = 0; k < n; k++)
        fv[k] = v ? v->fvals[0] : 0.0;
    return oc_out_fvals(c, 0, n, fv);
}

oc_status oc_constantofshape_infer(oc_op_ctx *c)
{
    const oc_attr *va = oc_ctx_attr(c, "value");
    const oc_tensor *v = va && va->type == OC_ATTR_TENSOR ? va->t : NULL;
    oc_dtype dt = v ? v->dtype : OC_DT_FLOAT;
    if (v && v->numel != 1)
        return oc_fail(c, "ConstantOfShape: value has %llu elements, not 1",
                       (unsigned long long)v->numel);
    const oc_dim *sh;
    int64_t n;
    if (!oc_in_dimvals_propagated(c, 0, &sh, &n)) {
        int64_t len = in_len(c, 0);
        return oc_out_set(c, 0, dt, len <= OC_MAX_RANK ? (int)len : -1,
                          NULL);
    }
    if (n > OC_MAX_RANK)
        return oc_fail(c, "ConstantOfShape: rank %lld is too large",
                       (long long)n);
    for (int64_t i = 0; i < n; i++)
        if (!sh[i].sym && sh[i].v < 0)
            return oc_fail(c, "ConstantOfShape: negative dim %lld",
                           (long long)sh[i].v);
    oc_status s = oc_out_set(c, 0, dt, (int)n, sh);
    if (s != OC_OK)
        return s;
    return fill_vals(c, v, (int)n, sh);
}

/* ---- Range ---- */

static oc_status range_ints(oc_op_ctx *c, int64_t s, int64_t l, int64_t d,
                            oc_dtype dt)
{
    if (d == 0)
        return oc_fail(c, "Range: delta is 0");
    int64_t n = 0;
    /* ceil((l - s) / d) without overflow: unsigned distance. */
    if ((d > 0 && l > s) || (d < 0 && l < s)) {
        uint64_t dist = d > 0 ? (uint64_t)l - (uint64_t)s
                              : (uint64_t)s - (uint64_t)l;
        uint64_t step = d > 0 ? (uint64_t)d : (uint64_t)0 - (uint64_t)d;
        uint64_t cnt = (dist - 1) / step + 1;
        if (cnt > (uint64_t)INT64_MAX)
            return oc_fail(c, "Range: too many elements");
        n = (int64_t)cnt;
    }
    oc_dim len = oc_dim_of(n);
    oc_status st = oc_out_set(c, 0, dt, 1, &len);
    if (st != OC_OK || n > OC_SMALL_TENSOR)
        return st;
    oc_dim *v = oc_ctx_alloc(c, (size_t)(n + 1) * sizeof *v);
    if (!v)
        return OC_ERR_NOMEM;
    for (int64_t k = 0; k < n; k++)
        v[k] = oc_dim_of(s + k * d);
    return oc_out_ivals(c, 0, n, v);
}

static oc_status range_floats(oc_op_ctx *c, double s, double l, double d,
                              oc_dtype dt)
{
    if (d == 0 || isnan(d) || isnan(s) || isnan(l))
        return oc_fail(c, "Range: delta is 0 or a bound is NaN");
    double cnt = ceil((l - s) / d);
    if (cnt < 0)
        cnt = 0;
    if (!(cnt < 9.0e18))
        return oc_fail(c, "Range: too many elements");
    int64_t n = (int64_t)cnt;
    oc_dim len = oc_dim_of(n);
    oc_status st = oc_out_set(c, 0, dt, 1, &len);
    if (st != OC_OK || n > OC_SMALL_TENSOR)
        return st;
    double *v = oc_ctx_alloc(c, (size_t)(n + 1) * sizeof *v);
    if (!v)
        return OC_ERR_NOMEM;
    for (int64_t k = 0; k < n; k++)
        v[k] = s + (double)k * d;
    return oc_out_fvals(c, 0, n, v);
}

oc_status oc_range_infer(oc_op_ctx *c)
{
    oc_dtype dt = OC_DT_UNDEFINED;
    for (size_t i = 0; i < 3 && dt == OC_DT_UNDEFINED; i++)
        if (oc_ctx_in(c, i))
            dt = oc_ctx_in(c, i)->dtype;
    for (size_t i = 0; i < 3; i++) {
        const oc_tinfo *t = oc_ctx_in(c, i);
        if (t && t->rank > 1)
            return oc_fail(c, "Range: input %zu is not a scalar", i);
    }
    const int64_t *iv[3];
    const double *fv[3];
    int64_t n[3];
    bool ints = true, floats = true;
    for (size_t i = 0; i < 3; i++) {
        ints = ints && oc_in_ints(c, i, &iv[i], &n[i]) && n[i] == 1;
        floats = floats && oc_in_floats(c, i, &fv[i], &n[i]) && n[i] == 1;
    }
    if (ints && !oc_dtype_is_float(dt))
        return range_ints(c, iv[0][0], iv[1][0], iv[2][0], dt);
    if (floats)
        return range_floats(c, fv[0][0], fv[1][0], fv[2][0], dt);

    /* Symbolic bounds: Range(0, L, 1) has L elements. */
    oc_dim s, l, d, len = OC_DIM_UNKNOWN;
    if (oc_in_scalar_dim(c, 0, &s) && oc_in_scalar_dim(c, 1, &l) &&
        oc_in_scalar_dim(c, 2, &d) && !d.sym && d.v != 0 &&
        d.v != INT64_MIN) {
        bool zero = !s.sym && s.v == 0;
        oc_dim dist = d.v > 0 ? (zero ? l : oc_dim_sub(c, l, s))
                              : oc_dim_sub(c, s, l);
        int64_t step = d.v > 0 ? d.v : -d.v;
        len = step == 1 ? dist : oc_dim_ceildiv(c, dist, oc_dim_of(step));
    }
    return oc_out_set(c, 0, dt, 1, &len);
}

/* ---- EyeLike, random ---- */

oc_status oc_eyelike_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_status s;
    oc_dtype def = x && x->dtype != OC_DT_UNDEFINED ? x->dtype : OC_DT_FLOAT;
    oc_dtype dt = dtype_attr(c, "dtype", def, &s);
    if (s != OC_OK)
        return s;
    if (x && x->rank >= 0 && x->rank != 2)
        return oc_fail(c, "EyeLike: input has rank %d, not 2", x->rank);
    return oc_out_set(c, 0, dt, x ? x->rank : -1, x ? x->dims : NULL);
}

oc_status oc_random_infer(oc_op_ctx *c)
{
    size_t n;
    const int64_t *sh = oc_attr_ints(c, "shape", &n);
    oc_status s;
    oc_dtype dt = dtype_attr(c, "dtype", OC_DT_FLOAT, &s);
    if (s != OC_OK)
        return s;
    if (!oc_ctx_attr(c, "shape"))
        return oc_fail(c, "%s: shape is required", oc_ctx_node(c)->op);
    if (n > OC_MAX_RANK)
        return oc_fail(c, "%s: rank %zu is too large", oc_ctx_node(c)->op, n);
    oc_dim d[OC_MAX_RANK];
    for (size_t i = 0; i < n; i++) {
        if (sh[i] < 0)
            return oc_fail(c, "%s: negative dim %lld", oc_ctx_node(c)->op,
                           (long long)sh[i]);
        d[i] = oc_dim_of(sh[i]);
    }
    return oc_out_set(c, 0, dt, (int)n, d);
}

oc_status oc_random_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 1);
}

oc_status oc_multinomial_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_status s;
    oc_dtype dt = dtype_attr(c, "dtype", OC_DT_INT32, &s);
    int64_t ss = oc_attr_int(c, "sample_size", 1);
    if (s != OC_OK)
        return s;
    if (ss < 0)
        return oc_fail(c, "Multinomial: sample_size %lld", (long long)ss);
    if (x && x->rank >= 0 && x->rank != 2)
        return oc_fail(c, "Multinomial: input has rank %d, not 2", x->rank);
    oc_dim out[2] = {x && x->rank == 2 ? x->dims[0] : OC_DIM_UNKNOWN,
                     oc_dim_of(ss)};
    return oc_out_set(c, 0, dt, 2, out);
}

oc_status oc_multinomial_cost(oc_op_ctx *c, oc_cost *out)
{
    uint64_t a, b;
    if (!oc_numel(oc_ctx_in(c, 0), &a) || !oc_numel(oc_ctx_out(c, 0), &b))
        return OC_OK;
    return oc_cadd(c, a, b, &out->flops);
}

/* ---- signal processing ---- */

oc_status oc_window_infer(oc_op_ctx *c)
{
    oc_status s;
    oc_dtype dt = dtype_attr(c, "output_datatype", OC_DT_FLOAT, &s);
    if (s != OC_OK)
        return s;
    oc_dim n = OC_DIM_UNKNOWN;
    if (oc_in_scalar_dim(c, 0, &n) && !n.sym && n.v < 0)
        return oc_fail(c, "%s: size %lld", oc_ctx_node(c)->op, (long long)n.v);
    return oc_out_set(c, 0, dt, 1, &n);
}

oc_status oc_window3_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 3);
}

oc_status oc_window5_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 5);
}

oc_status oc_melweightmatrix_infer(oc_op_ctx *c)
{
    oc_status s;
    oc_dtype dt = dtype_attr(c, "output_datatype", OC_DT_FLOAT, &s);
    if (s != OC_OK)
        return s;
    oc_dim out[2] = {OC_DIM_UNKNOWN, OC_DIM_UNKNOWN}, len;
    if (oc_in_scalar_dim(c, 1, &len)) {
        if (!len.sym && len.v < 0)
            return oc_fail(c, "MelWeightMatrix: dft_length %lld",
                           (long long)len.v);
        out[0] = oc_dim_add(c, oc_dim_div(c, len, oc_dim_of(2)),
                            oc_dim_of(1));
    }
    if (oc_in_scalar_dim(c, 0, &out[1]) && !out[1].sym && out[1].v < 0)
        return oc_fail(c, "MelWeightMatrix: num_mel_bins %lld",
                       (long long)out[1].v);
    return oc_out_set(c, 0, dt, 2, out);
}

oc_status oc_melweightmatrix_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 1);
}

/* frame_length: input 3, else the window's length. */
static oc_dim stft_frame_length(const oc_op_ctx *c)
{
    oc_dim n;
    if (oc_in_scalar_dim(c, 3, &n))
        return n;
    const oc_tinfo *w = oc_ctx_in(c, 2);
    if (w && w->rank == 1)
        return w->dims[0];
    return OC_DIM_UNKNOWN;
}

oc_status oc_stft_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dtype dt = x ? x->dtype : OC_DT_UNDEFINED;
    oc_dim out[4] = {OC_DIM_UNKNOWN, OC_DIM_UNKNOWN, OC_DIM_UNKNOWN,
                     oc_dim_of(2)};
    if (x && x->rank >= 0 && x->rank != 3)
        return oc_fail(c, "STFT: signal has rank %d, not 3", x->rank);
    oc_dim flen = stft_frame_length(c), step;
    if (!flen.sym && flen.v == 0)
        return oc_fail(c, "STFT: frame_length is 0");
    if (x && x->rank == 3) {
        out[0] = x->dims[0];
        if (oc_in_scalar_dim(c, 1, &step)) {
            if (!step.sym && step.v <= 0)
                return oc_fail(c, "STFT: frame_step %lld", (long long)step.v);
            oc_dim len = x->dims[1];
            if (oc_dim_is_known(len) && oc_dim_is_known(flen) &&
                len.v < flen.v)
                return oc_fail(c, "STFT: signal of %lld is shorter than a "
                                  "frame of %lld", (long long)len.v,
                               (long long)flen.v);
            out[1] = oc_dim_add(c, oc_dim_div(c, oc_dim_sub(c, len, flen),
                                              step), oc_dim_of(1));
        }
    }
    if (oc_attr_int(c, "onesided", 1))
        out[2] = oc_dim_add(c, oc_dim_div(c, flen, oc_dim_of(2)),
                            oc_dim_of(1));
    else
        out[2] = flen;
    return oc_out_set(c, 0, dt, 4, out);
}

oc_status oc_stft_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *y = oc_ctx_out(c, 0);
    int64_t n = oc_dim_cost(stft_frame_length(c));
    if (!y || y->rank != 4 || n <= 0)
        return OC_OK;
    int64_t b = oc_dim_cost(y->dims[0]), f = oc_dim_cost(y->dims[1]);
    if (b < 0 || f < 0)
        return OC_OK;
    /* 5 n log2 n, rounded up to whole FLOPs. */
    uint64_t fft = (uint64_t)ceil(5.0 * (double)n * log2((double)n));
    uint64_t per, frames, total;
    oc_status s;
    if ((s = oc_cadd(c, fft, (uint64_t)n, &per)) != OC_OK ||
        (s = oc_cmul(c, (uint64_t)b, (uint64_t)f, &frames)) != OC_OK ||
        (s = oc_cmul(c, per, frames, &total)) != OC_OK)
        return s;
    out->flops = total;
    return OC_OK;
}
