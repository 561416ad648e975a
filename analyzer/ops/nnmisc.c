/*
 * nnmisc.c - GridSample, DepthToSpace, SpaceToDepth, Det, DFT,
 * TfIdfVectorizer, Col2Im, CenterCropPad, AffineGrid.
 *
 * Shapes:
 *   GridSample     X N x C x D1..Dr, grid N x O1..Or x r -> N x C x O1..Or
 *                  (4-D only before opset 20).
 *   DepthToSpace   N x C x H x W -> N x C/b^2 x H*b x W*b; SpaceToDepth the
 *                  inverse (H and W must divide by b).
 *   Det            ... x M x M -> ...
 *   DFT            the input's shape with the transformed axis set to
 *                  dft_length (when given) or floor(len/2)+1 when onesided,
 *                  and the last dim 2; axis is an attribute (default 1)
 *                  before opset 20 and an input (default -2) from 20.
 *   TfIdfVectorizer [C] -> [E] and [N, C] -> [N, E], E = max(ngram_indexes)
 *                  + 1, float.
 *   Col2Im         N x C*prod(block_shape) x L -> N x C x image_shape.
 *   CenterCropPad  the input with the dims at `axes` (all when absent) set
 *                  to `shape`.
 *   AffineGrid     theta N x 2 x 3 with size (N, C, H, W) -> N x H x W x 2;
 *                  theta N x 3 x 4 with size (N, C, D, H, W) -> N x D x H x
 *                  W x 3.
 *
 * Costs (MACs 0 unless said; FLOPs):
 *   GridSample     per output element 2 x 2^r (n-linear: weight multiply and
 *                  add per corner), 1 nearest, 2 x 4^r cubic
 *   DepthToSpace, SpaceToDepth, CenterCropPad   none (data movement)
 *   Det            LU elimination: MACs = batch x (M-1) M (2M-1) / 6; FLOPs =
 *                  2 x MACs + batch x (M (M-1) / 2 divides + M for the
 *                  diagonal product)
 *   DFT            per 1-D transform 5 x L x ceil(log2 L) (radix-2 FFT
 *                  estimate, ceil(log2 L) at least 1), half that for a real
 *                  input (last dim 1); batch = the other signal dims
 *   TfIdfVectorizer 1 per output element (the weighting; n-gram look-ups
 *                  are not arithmetic)
 *   Col2Im         1 per input element (each column value is added in)
 *   AffineGrid     MACs = output points x r x (r + 1) (theta times the
 *                  homogeneous position); FLOPs = 2 x MACs
 */
#include <string.h>

#include "analyzer/values.h"

static oc_dim dim_pick(oc_dim a, oc_dim b)
{
    return oc_dim_is_unknown(a) ? b : a;
}

static int in_rank(oc_op_ctx *c, size_t i)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    return t ? t->rank : -1;
}

/* ---- GridSample ---- */

static oc_status grid_mode_corners(oc_op_ctx *c, uint64_t *per_axis)
{
    const char *m = oc_attr_str(c, "mode", oc_ctx_opset(c) >= 20 ? "linear"
                                                                 : "bilinear");
    if (!strcmp(m, "linear") || !strcmp(m, "bilinear"))
        *per_axis = 2;
    else if (!strcmp(m, "cubic") || !strcmp(m, "bicubic"))
        *per_axis = 4;
    else if (!strcmp(m, "nearest"))
        *per_axis = 1;
    else
        return oc_fail(c, "GridSample: mode '%s' is not understood", m);
    return OC_OK;
}

oc_status oc_gridsample_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const oc_tinfo *g = oc_ctx_in(c, 1);
    uint64_t corners;
    oc_status st = grid_mode_corners(c, &corners);
    if (st)
        return st;
    int xr = in_rank(c, 0), gr = in_rank(c, 1);
    int rank = xr >= 0 ? xr : gr;
    if (rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    if (rank < 3 || (oc_ctx_opset(c) < 20 && rank != 4))
        return oc_fail(c, "GridSample: input has rank %d", rank);
    if (xr >= 0 && gr >= 0 && xr != gr)
        return oc_fail(c, "GridSample: X has rank %d but grid %d", xr, gr);
    if (gr >= 0 && oc_dims_differ(g->dims[gr - 1], oc_dim_of(rank - 2)))
        return oc_fail(c, "GridSample: grid's last dim is %lld for %d "
                          "spatial axes", (long long)g->dims[gr - 1].v,
                       rank - 2);
    oc_dim dims[OC_MAX_RANK];
    oc_dim xn = xr >= 0 ? x->dims[0] : OC_DIM_UNKNOWN;
    oc_dim gn = gr >= 0 ? g->dims[0] : OC_DIM_UNKNOWN;
    if (oc_dims_differ(xn, gn))
        return oc_fail(c, "GridSample: X has batch %lld but grid %lld",
                       (long long)xn.v, (long long)gn.v);
    dims[0] = dim_pick(xn, gn);
    dims[1] = xr >= 0 ? x->dims[1] : OC_DIM_UNKNOWN;
    for (int i = 2; i < rank; i++)
        dims[i] = gr >= 0 ? g->dims[i - 1] : OC_DIM_UNKNOWN;
    return oc_out_set(c, 0, oc_in_dtype(c, 0), rank, dims);
}

oc_status oc_gridsample_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *y = oc_ctx_out(c, 0);
    uint64_t per_axis, per = 1;
    oc_status st = grid_mode_corners(c, &per_axis);
    if (st || !y || y->rank < 3)
        return st;
    for (int i = 2; i < y->rank; i++)
        if ((st = oc_cmul(c, per, per_axis, &per)))
            return st;
    if (per_axis > 1 && (st = oc_cmul(c, per, 2, &per)))
        return st;
    return oc_cost_per_output(c, out, per);
}

/* ---- DepthToSpace, SpaceToDepth ---- */

static oc_status read_blocksize(oc_op_ctx *c, const char *op, int64_t *b)
{
    *b = oc_attr_int(c, "blocksize", 0);
    if (*b < 1 || *b > INT32_MAX)
        return oc_fail(c, "%s: blocksize = %lld (required, positive)", op,
                       (long long)*b);
    return OC_OK;
}

oc_status oc_depthtospace_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const char *mode = oc_attr_str(c, "mode", "DCR");
    int64_t b;
    oc_status st = read_blocksize(c, "DepthToSpace", &b);
    if (st)
        return st;
    if (strcmp(mode, "DCR") && strcmp(mode, "CRD"))
        return oc_fail(c, "DepthToSpace: mode '%s' is not DCR or CRD", mode);
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), 4, (oc_dim[4]){
                              OC_DIM_UNKNOWN, OC_DIM_UNKNOWN, OC_DIM_UNKNOWN,
                              OC_DIM_UNKNOWN});
    if (x->rank != 4)
        return oc_fail(c, "DepthToSpace: input has rank %d (expected 4)",
                       x->rank);
    oc_dim bb = oc_dim_of(b * b), bd = oc_dim_of(b);
    if (oc_dim_is_known(x->dims[1]) && x->dims[1].v % (b * b))
        return oc_fail(c, "DepthToSpace: %lld channels do not divide by "
                          "blocksize^2 = %lld", (long long)x->dims[1].v,
                       (long long)(b * b));
    oc_dim dims[4] = {x->dims[0], oc_dim_div(c, x->dims[1], bb),
                      oc_dim_mul(c, x->dims[2], bd),
                      oc_dim_mul(c, x->dims[3], bd)};
    return oc_out_set(c, 0, x->dtype, 4, dims);
}

oc_status oc_spacetodepth_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    int64_t b;
    oc_status st = read_blocksize(c, "SpaceToDepth", &b);
    if (st)
        return st;
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), 4, (oc_dim[4]){
                              OC_DIM_UNKNOWN, OC_DIM_UNKNOWN, OC_DIM_UNKNOWN,
                              OC_DIM_UNKNOWN});
    if (x->rank != 4)
        return oc_fail(c, "SpaceToDepth: input has rank %d (expected 4)",
                       x->rank);
    for (int i = 2; i < 4; i++)
        if (oc_dim_is_known(x->dims[i]) && x->dims[i].v % b)
            return oc_fail(c, "SpaceToDepth: dim %d (%lld) does not divide "
                              "by blocksize %lld", i, (long long)x->dims[i].v,
                           (long long)b);
    oc_dim bb = oc_dim_of(b * b), bd = oc_dim_of(b);
    oc_dim dims[4] = {x->dims[0], oc_dim_mul(c, x->dims[1], bb),
                      oc_dim_div(c, x->dims[2], bd),
                      oc_dim_div(c, x->dims[3], bd)};
    return oc_out_set(c, 0, x->dtype, 4, dims);
}

/* ---- Det ---- */

oc_status oc_det_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    if (x->rank < 2)
        return oc_fail(c, "Det: input has rank %d (need a matrix)", x->rank);
    if (oc_dims_differ(x->dims[x->rank - 1], x->dims[x->rank - 2]))
        return oc_fail(c, "Det: %lld x %lld matrices are not square",
                       (long long)x->dims[x->rank - 2].v,
                       (long long)x->dims[x->rank - 1].v);
    return oc_out_set(c, 0, x->dtype, x->rank - 2, x->dims);
}

oc_status oc_det_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const oc_tinfo *y = oc_ctx_out(c, 0);
    uint64_t batch, m, macs, extra;
    if (!x || !y || x->rank < 2 || !oc_numel(y, &batch))
        return OC_OK;
    int64_t mv = oc_dim_cost(x->dims[x->rank - 1]);
    if (mv < 0)
        return OC_OK;
    m = (uint64_t)mv;
    if (m > (1u << 20))
        return oc_fail(c, "Det: %llu x %llu matrices overflow the count",
                       (unsigned long long)m, (unsigned long long)m);
    macs = m ? (m - 1) * m * (2 * m - 1) / 6 : 0;
    extra = m ? m * (m - 1) / 2 + m : 0;
    oc_status st = oc_cmul(c, batch, macs, &out->macs);
    if (!st)
        st = oc_cmul(c, out->macs, 2, &out->flops);
    if (!st)
        st = oc_cmul(c, batch, extra, &extra);
    return st ? st : oc_cadd(c, out->flops, extra, &out->flops);
}

/* ---- DFT ---- */

/* The transformed axis in [0, rank-2], or -1 when it is not known. */
static oc_status dft_axis(oc_op_ctx *c, int rank, int *axis)
{
    int64_t a;
    *axis = -1;
    if (oc_ctx_opset(c) >= 20) {
        const int64_t *v;
        int64_t n;
        a = -2;
        if (oc_ctx_in(c, 2)) {
            if (!oc_in_ints(c, 2, &v, &n) || n != 1)
                return OC_OK;
            a = v[0];
        }
    } else {
        a = oc_attr_int(c, "axis", 1);
    }
    /* [-r, -2] or [0, r-2]: the last dim holds the complex parts. */
    int64_t n = a < 0 ? a + rank : a;
    if (n < 0 || n > rank - 2)
        return oc_fail(c, "DFT: axis %lld is out of range for rank %d",
                       (long long)a, rank);
    *axis = (int)n;
    return OC_OK;
}

/* The signal length: dft_length when given (-1 dim if not known). */
static oc_status dft_length(oc_op_ctx *c, oc_dim in, oc_dim *len)
{
    const int64_t *v;
    int64_t n;
    *len = in;
    if (!oc_ctx_in(c, 1))
        return OC_OK;
    *len = OC_DIM_UNKNOWN;
    if (!oc_in_ints(c, 1, &v, &n))
        return OC_OK;
    if (n != 1 || v[0] < 1)
        return oc_fail(c, "DFT: dft_length must be one positive value");
    *len = oc_dim_of(v[0]);
    return OC_OK;
}

oc_status oc_dft_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dtype dt = oc_in_dtype(c, 0);
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, dt, -1, NULL);
    int r = x->rank, axis;
    if (r < 2)
        return oc_fail(c, "DFT: input has rank %d (need signal and complex "
                          "dims)", r);
    oc_dim last = x->dims[r - 1];
    if (oc_dim_is_known(last) && last.v != 1 && last.v != 2)
        return oc_fail(c, "DFT: last dim is %lld (1 real or 2 complex)",
                       (long long)last.v);
    oc_status st = dft_axis(c, r, &axis);
    if (st)
        return st;
    oc_dim dims[OC_MAX_RANK];
    for (int i = 0; i < r - 1; i++)
        dims[i] = axis < 0 ? OC_DIM_UNKNOWN : x->dims[i];
    dims[r - 1] = oc_dim_of(2);
    if (axis >= 0) {
        oc_dim len;
        if ((st = dft_length(c, x->dims[axis], &len)))
            return st;
        if (oc_attr_int(c, "onesided", 0))
            len = oc_dim_add(c, oc_dim_div(c, len, oc_dim_of(2)),
                             oc_dim_of(1));
        dims[axis] = len;
    }
    return oc_out_set(c, 0, dt, r, dims);
}

oc_status oc_dft_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    int axis;
    oc_dim len;
    if (!x || x->rank < 2 || dft_axis(c, x->rank, &axis) || axis < 0 ||
        dft_length(c, x->dims[axis], &len))
        return OC_OK;
    int64_t l = oc_dim_cost(len);
    uint64_t batch = 1, lg = 1;
    oc_status st;
    if (l < 0)
        return OC_OK;
    for (int i = 0; i < x->rank - 1; i++) {
        int64_t v = oc_dim_cost(x->dims[i]);
        if (v < 0)
            return OC_OK;
        if (i != axis && (st = oc_cmul(c, batch, (uint64_t)v, &batch)))
            return st;
    }
    while (lg < 63 && ((uint64_t)1 << lg) < (uint64_t)l)
        lg++;
    uint64_t per;
    if ((st = oc_cmul(c, 5 * lg, (uint64_t)l, &per)) ||
        (st = oc_cmul(c, batch, per, &out->flops)))
        return st;
    if (oc_dim_is_known(x->dims[x->rank - 1]) && x->dims[x->rank - 1].v == 1)
        out->flops /= 2;
    return OC_OK;
}

/* ---- TfIdfVectorizer ---- */

oc_status oc_tfidf_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    size_t n;
    const int64_t *idx = oc_attr_ints(c, "ngram_indexes", &n);
    if (!idx || n == 0)
        return oc_fail(c, "TfIdfVectorizer: ngram_indexes is required");
    int64_t e = 0;
    for (size_t i = 0; i < n; i++) {
        if (idx[i] < 0 || idx[i] == INT64_MAX)
            return oc_fail(c, "TfIdfVectorizer: ngram_indexes[%zu] = %lld",
                           i, (long long)idx[i]);
        if (idx[i] + 1 > e)
            e = idx[i] + 1;
    }
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, OC_DT_FLOAT, -1, NULL);
    if (x->rank != 1 && x->rank != 2)
        return oc_fail(c, "TfIdfVectorizer: input has rank %d (1 or 2)",
                       x->rank);
    oc_dim dims[2] = {x->dims[0], oc_dim_of(e)};
    if (x->rank == 1)
        return oc_out_set(c, 0, OC_DT_FLOAT, 1, &dims[1]);
    return oc_out_set(c, 0, OC_DT_FLOAT, 2, dims);
}

oc_status oc_tfidf_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 1);
}

/* ---- Col2Im ---- */

/* Known values of a 1-D int input (NULL when not known); *n its length
 * when at least that is known, else -1. */
static const int64_t *shape_input(oc_op_ctx *c, size_t i, int64_t *n)
{
    const int64_t *v;
    if (oc_in_ints(c, i, &v, n))
        return v;
    const oc_tinfo *t = oc_ctx_in(c, i);
    *n = t && t->rank == 1 && oc_dim_is_known(t->dims[0]) ? t->dims[0].v : -1;
    return NULL;
}

/* Number of blocks implied by the image, block and attribute sizes. */
static oc_status col2im_blocks(oc_op_ctx *c, const int64_t *img,
                               const int64_t *blk, int64_t n, int64_t *out)
{
    int64_t s[OC_MAX_RANK], d[OC_MAX_RANK], p[2 * OC_MAX_RANK];
    size_t len;
    const int64_t *v;
    static const char *const names[2] = {"strides", "dilations"};
    int64_t *dst[2] = {s, d};
    for (int a = 0; a < 2; a++) {
        v = oc_attr_ints(c, names[a], &len);
        if (v && len != (size_t)n)
            return oc_fail(c, "Col2Im: %s has %zu values for %lld axes",
                           names[a], len, (long long)n);
        for (int64_t i = 0; i < n; i++)
            if ((dst[a][i] = v ? v[i] : 1) < 1)
                return oc_fail(c, "Col2Im: %s must be positive", names[a]);
    }
    v = oc_attr_ints(c, "pads", &len);
    if (v && len != 2 * (size_t)n)
        return oc_fail(c, "Col2Im: pads has %zu values for %lld axes", len,
                       (long long)n);
    for (int64_t i = 0; i < 2 * n; i++)
        if ((p[i] = v ? v[i] : 0) < 0 || p[i] > INT32_MAX)
            return oc_fail(c, "Col2Im: pads must be non-negative");
    *out = 1;
    for (int64_t i = 0; i < n; i++) {
        int64_t dk, num;
        if (img[i] < 1 || blk[i] < 1 || img[i] > INT32_MAX ||
            blk[i] > INT32_MAX || d[i] > INT32_MAX)
            return oc_fail(c, "Col2Im: image and block sizes must be "
                              "positive");
        dk = (blk[i] - 1) * d[i] + 1;
        num = img[i] + p[i] + p[n + i] - dk;
        if (num < 0)
            return oc_fail(c, "Col2Im: block %lld exceeds image %lld",
                           (long long)dk, (long long)img[i]);
        if (!oc_mul_i64(*out, num / s[i] + 1, out))
            return oc_fail(c, "Col2Im: block count overflows");
    }
    return OC_OK;
}

/* C = input channels / prod(block); the block count must match L. */
static oc_status col2im_check(oc_op_ctx *c, const oc_tinfo *x,
                              const int64_t *img, const int64_t *blk,
                              int64_t n, oc_dim *ch)
{
    int64_t prod = 1, blocks = 0;
    *ch = OC_DIM_UNKNOWN;
    if (!blk)
        return OC_OK;
    for (int64_t i = 0; i < n; i++)
        if (blk[i] < 1 || !oc_mul_i64(prod, blk[i], &prod))
            return oc_fail(c, "Col2Im: block_shape must be positive");
    if (!x)
        return OC_OK;
    oc_dim cb = x->dims[1];
    if (oc_dim_is_known(cb) && cb.v % prod)
        return oc_fail(c, "Col2Im: %lld columns do not divide by the block "
                          "size %lld", (long long)cb.v, (long long)prod);
    *ch = oc_dim_div(c, cb, oc_dim_of(prod));
    if (!img)
        return OC_OK;
    oc_status st = col2im_blocks(c, img, blk, n, &blocks);
    if (st)
        return st;
    if (oc_dim_is_known(x->dims[2]) && x->dims[2].v != blocks)
        return oc_fail(c, "Col2Im: input has %lld blocks, the sizes give "
                          "%lld", (long long)x->dims[2].v, (long long)blocks);
    return OC_OK;
}

oc_status oc_col2im_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    int64_t ni, nb;
    const int64_t *img = shape_input(c, 1, &ni);
    const int64_t *blk = shape_input(c, 2, &nb);
    if (x && x->rank >= 0 && x->rank != 3)
        return oc_fail(c, "Col2Im: input has rank %d (expected 3)", x->rank);
    if (x && x->rank < 0)
        x = NULL;
    if (ni >= 0 && nb >= 0 && ni != nb)
        return oc_fail(c, "Col2Im: image_shape has %lld values, block_shape "
                          "%lld", (long long)ni, (long long)nb);
    int64_t n = ni >= 0 ? ni : nb;
    if (n < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    if (n < 1 || n + 2 > OC_MAX_RANK)
        return oc_fail(c, "Col2Im: %lld spatial axes", (long long)n);
    oc_dim dims[OC_MAX_RANK];
    oc_status st = col2im_check(c, x, img, blk, n, &dims[1]);
    if (st)
        return st;
    dims[0] = x ? x->dims[0] : OC_DIM_UNKNOWN;
    for (int64_t i = 0; i < n; i++)
        dims[2 + i] = img ? oc_dim_of(img[i]) : OC_DIM_UNKNOWN;
    return oc_out_set(c, 0, oc_in_dtype(c, 0), (int)n + 2, dims);
}

oc_status oc_col2im_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    uint64_t n;
    if (!x || !oc_numel(x, &n))
        return OC_OK;
    out->flops = n;
    return OC_OK;
}

/* ---- CenterCropPad ---- */

oc_status oc_centercroppad_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    int64_t ns;
    const int64_t *shape = shape_input(c, 1, &ns);
    size_t na;
    const int64_t *axes = oc_attr_ints(c, "axes", &na);
    int rank = x ? x->rank : -1;
    if (rank < 0 && !axes && ns >= 0 && ns <= OC_MAX_RANK)
        rank = (int)ns;
    if (rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    size_t n = axes ? na : (size_t)rank;
    if (ns >= 0 && (size_t)ns != n)
        return oc_fail(c, "CenterCropPad: shape has %lld values for %zu "
                          "axes", (long long)ns, n);
    oc_dim dims[OC_MAX_RANK];
    for (int i = 0; i < rank; i++)
        dims[i] = x && x->rank >= 0 ? x->dims[i] : OC_DIM_UNKNOWN;
    for (size_t i = 0; i < n; i++) {
        int a = (int)i;
        oc_status st = axes ? oc_axis(c, axes[i], rank, 0, &a) : OC_OK;
        if (st)
            return st;
        if (shape && shape[i] < 0)
            return oc_fail(c, "CenterCropPad: shape[%zu] = %lld", i,
                           (long long)shape[i]);
        dims[a] = shape ? oc_dim_of(shape[i]) : OC_DIM_UNKNOWN;
    }
    return oc_out_set(c, 0, oc_in_dtype(c, 0), rank, dims);
}

/* ---- AffineGrid ---- */

/* Spatial rank (2 or 3) from size's length or theta's rows; 0 unknown. */
static oc_status affine_nsp(oc_op_ctx *c, const oc_tinfo *th, int64_t nsize,
                            int *nsp)
{
    oc_dim rows = th && th->rank == 3 ? th->dims[1] : OC_DIM_UNKNOWN;
    oc_dim cols = th && th->rank == 3 ? th->dims[2] : OC_DIM_UNKNOWN;
    *nsp = 0;
    if (th && th->rank >= 0 && th->rank != 3)
        return oc_fail(c, "AffineGrid: theta has rank %d (expected 3)",
                       th->rank);
    if (nsize >= 0 && nsize != 4 && nsize != 5)
        return oc_fail(c, "AffineGrid: size has %lld values (4 or 5)",
                       (long long)nsize);
    if (nsize >= 0)
        *nsp = (int)nsize - 2;
    else if (oc_dim_is_known(rows))
        *nsp = (int)(rows.v == 2 || rows.v == 3 ? rows.v : 0);
    if (*nsp && (oc_dims_differ(rows, oc_dim_of(*nsp)) ||
                 oc_dims_differ(cols, oc_dim_of(*nsp + 1))))
        return oc_fail(c, "AffineGrid: theta is not N x %d x %d", *nsp,
                       *nsp + 1);
    return OC_OK;
}

oc_status oc_affinegrid_infer(oc_op_ctx *c)
{
    const oc_tinfo *th = oc_ctx_in(c, 0);
    int64_t ns;
    const int64_t *size = shape_input(c, 1, &ns);
    int nsp;
    oc_status st = affine_nsp(c, th, ns, &nsp);
    if (st)
        return st;
    if (!nsp)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    oc_dim dims[5];
    oc_dim tn = th && th->rank == 3 ? th->dims[0] : OC_DIM_UNKNOWN;
    dims[0] = size ? oc_dim_of(size[0]) : tn;
    if (size && (size[0] < 0 || oc_dims_differ(tn, dims[0])))
        return oc_fail(c, "AffineGrid: size gives batch %lld, theta %lld",
                       (long long)size[0], (long long)tn.v);
    for (int i = 0; i < nsp; i++) {
        if (size && size[2 + i] < 0)
            return oc_fail(c, "AffineGrid: size[%d] = %lld", 2 + i,
                           (long long)size[2 + i]);
        dims[1 + i] = size ? oc_dim_of(size[2 + i]) : OC_DIM_UNKNOWN;
    }
    dims[1 + nsp] = oc_dim_of(nsp);
    return oc_out_set(c, 0, oc_in_dtype(c, 0), nsp + 2, dims);
}

oc_status oc_affinegrid_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *y = oc_ctx_out(c, 0);
    uint64_t n;
    if (!y || y->rank < 4 || !oc_numel(y, &n))
        return OC_OK;
    /* n = points x r; MACs = points x r x (r + 1) = n x (r + 1) */
    oc_status st = oc_cmul(c, n, (uint64_t)y->rank - 1, &out->macs);
    return st ? st : oc_cmul(c, out->macs, 2, &out->flops);
}
