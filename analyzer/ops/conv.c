/*
 * conv.c - Conv, ConvTranspose, ConvInteger, QLinearConv, DeformConv.
 *
 * Shapes (X = N x C x D1..Dn, W = M x C/group x k1..kn for the forward
 * convolutions, W = C x M/group x k1..kn for ConvTranspose):
 *   Conv      out_i = floor((D_i + pad_begin + pad_end - dk_i) / s_i) + 1,
 *             dk_i = (k_i - 1) * dilation_i + 1; SAME_UPPER/SAME_LOWER give
 *             ceil(D_i / s_i); VALID is NOTSET with zero pads.
 *   ConvTranspose  output_shape when given, else SAME_*: D_i * s_i, else
 *             s_i * (D_i - 1) + output_padding_i + dk_i - pad_begin - pad_end.
 *   kernel_shape may be absent (taken from W); when both are known they
 *   must agree, and C must equal W.shape[1] * group (forward) or W.shape[0]
 *   (transpose).
 *
 * Costs:
 *   Conv, ConvInteger, QLinearConv, DeformConv
 *       MACs  = output elements x (C/group) x prod(kernel)
 *   ConvTranspose
 *       MACs  = input elements x (M/group) x prod(kernel)
 *   FLOPs = 2 x MACs, plus 1 per output element for a bias B;
 *   QLinearConv adds 2 per output element (rescale, zero point);
 *   DeformConv adds, per sampled input value (N x C x prod(kernel) x
 *   output spatial elements), 2 x 2^n for the n-linear interpolation and 1
 *   for the mask when given.
 */
#include <string.h>

#include "analyzer/values.h"

enum pad_mode { PAD_NOTSET, PAD_VALID, PAD_SAME_UPPER, PAD_SAME_LOWER };

/* Attributes of one convolution, resolved against the weight's shape. */
typedef struct conv_geom {
    int nsp;                      /* spatial dims */
    enum pad_mode mode;
    int64_t group;
    int64_t k[OC_MAX_RANK];       /* -1 when not known */
    int64_t s[OC_MAX_RANK];
    int64_t d[OC_MAX_RANK];
    int64_t pb[OC_MAX_RANK];
    int64_t pe[OC_MAX_RANK];
    int64_t opad[OC_MAX_RANK];    /* ConvTranspose output_padding */
} conv_geom;

/* An input/attribute slot layout per operator. */
typedef struct conv_spec {
    const char *name;
    size_t x, w, b; /* input indices; b == SIZE_MAX when there is no bias */
    bool transpose;
    bool has_auto_pad;
    bool blocked; /* NCHWc: W's input channels are padded to the block, X's
                     may be fewer */
} conv_spec;

static const conv_spec SPEC_CONV = {"Conv", 0, 1, 2, false, true, false};
static const conv_spec SPEC_CONVT = {"ConvTranspose", 0, 1, 2, true, true, false};
static const conv_spec SPEC_CONVINT = {"ConvInteger", 0, 1, SIZE_MAX, false, true, false};
static const conv_spec SPEC_QLCONV = {"QLinearConv", 0, 3, 8, false, true, false};
static const conv_spec SPEC_DEFORM = {"DeformConv", 0, 1, 3, false, false, false};
static const conv_spec SPEC_NCHWC = {"Conv", 0, 1, 2, false, true, true};

/* a + k for a constant k of either sign (oc_dim_of cannot hold a negative). */
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

static oc_status read_pad_mode(oc_op_ctx *c, const conv_spec *sp,
                               enum pad_mode *out)
{
    *out = PAD_NOTSET;
    if (!sp->has_auto_pad)
        return OC_OK;
    const char *ap = oc_attr_str(c, "auto_pad", "NOTSET");
    if (!strcmp(ap, "NOTSET") || !strcmp(ap, ""))
        *out = PAD_NOTSET;
    else if (!strcmp(ap, "VALID"))
        *out = PAD_VALID;
    else if (!strcmp(ap, "SAME_UPPER"))
        *out = PAD_SAME_UPPER;
    else if (!strcmp(ap, "SAME_LOWER"))
        *out = PAD_SAME_LOWER;
    else
        return oc_fail(c, "%s: auto_pad '%s' is not one of NOTSET, VALID, "
                          "SAME_UPPER, SAME_LOWER", sp->name, ap);
    return OC_OK;
}

/* A per-axis list attribute: absent -> def everywhere; else exactly n
 * values, each >= min. */
static oc_status read_axis_list(oc_op_ctx *c, const char *op, const char *attr,
                                int n, int64_t def, int64_t min, int64_t *out)
{
    size_t len;
    const int64_t *v = oc_attr_ints(c, attr, &len);
    if (!v) {
        for (int i = 0; i < n; i++)
            out[i] = def;
        return OC_OK;
    }
    if (len != (size_t)n)
        return oc_fail(c, "%s: %s has %zu values for %d spatial axes", op,
                       attr, len, n);
    for (int i = 0; i < n; i++) {
        if (v[i] < min)
            return oc_fail(c, "%s: %s[%d] = %lld (must be >= %lld)", op, attr,
                           i, (long long)v[i], (long long)min);
        out[i] = v[i];
    }
    return OC_OK;
}

static oc_status read_pads(oc_op_ctx *c, const char *op, conv_geom *g)
{
    size_t len;
    const int64_t *v = oc_attr_ints(c, "pads", &len);
    for (int i = 0; i < g->nsp; i++)
        g->pb[i] = g->pe[i] = 0;
    if (!v || g->mode != PAD_NOTSET)
        return OC_OK; /* auto_pad decides (explicit pads then ignored) */
    if (len != 2 * (size_t)g->nsp)
        return oc_fail(c, "%s: pads has %zu values for %d spatial axes", op,
                       len, g->nsp);
    for (size_t i = 0; i < len; i++)
        if (v[i] < 0)
            return oc_fail(c, "%s: pads[%zu] = %lld is negative", op, i,
                           (long long)v[i]);
    for (int i = 0; i < g->nsp; i++) {
        g->pb[i] = v[i];
        g->pe[i] = v[g->nsp + i];
    }
    return OC_OK;
}

/* kernel_shape, or W's trailing dims; both known -> they must agree. */
static oc_status read_kernel(oc_op_ctx *c, const char *op, const oc_tinfo *w,
                             conv_geom *g)
{
    bool w_ok = w && w->rank == g->nsp + 2;
    size_t len;
    const int64_t *ks = oc_attr_ints(c, "kernel_shape", &len);
    if (ks && len != (size_t)g->nsp)
        return oc_fail(c, "%s: kernel_shape has %zu values for %d spatial "
                          "axes", op, len, g->nsp);
    for (int i = 0; i < g->nsp; i++) {
        oc_dim wd = w_ok ? w->dims[2 + i] : OC_DIM_UNKNOWN;
        if (ks) {
            if (ks[i] < 1)
                return oc_fail(c, "%s: kernel_shape[%d] = %lld", op, i,
                               (long long)ks[i]);
            if (oc_dim_is_known(wd) && wd.v != ks[i])
                return oc_fail(c, "%s: kernel_shape[%d] = %lld but W has "
                                  "%lld", op, i, (long long)ks[i],
                               (long long)wd.v);
            g->k[i] = ks[i];
        } else {
            g->k[i] = oc_dim_is_known(wd) ? wd.v : -1;
            if (g->k[i] == 0)
                return oc_fail(c, "%s: W has a zero kernel dim", op);
        }
    }
    return OC_OK;
}

static oc_status read_geom(oc_op_ctx *c, const conv_spec *sp, int nsp,
                           const oc_tinfo *w, conv_geom *g)
{
    oc_status st;
    g->nsp = nsp;
    g->group = oc_attr_int(c, "group", 1);
    if (g->group < 1 || g->group > INT32_MAX)
        return oc_fail(c, "%s: group = %lld", sp->name, (long long)g->group);
    if ((st = read_pad_mode(c, sp, &g->mode)) ||
        (st = read_kernel(c, sp->name, w, g)) ||
        (st = read_axis_list(c, sp->name, "strides", nsp, 1, 1, g->s)) ||
        (st = read_axis_list(c, sp->name, "dilations", nsp, 1, 1, g->d)) ||
        (st = read_pads(c, sp->name, g)))
        return st;
    if (!sp->transpose)
        return OC_OK;
    return read_axis_list(c, sp->name, "output_padding", nsp, 0, 0, g->opad);
}

/* Dilated kernel extent (k - 1) * d + 1, or -1 when k is unknown. */
static oc_status dilated(oc_op_ctx *c, const char *op, int64_t k, int64_t d,
                         int64_t *out)
{
    int64_t t;
    *out = -1;
    if (k < 0)
        return OC_OK;
    if (!oc_mul_i64(k - 1, d, &t) || !oc_add_i64(t, 1, out))
        return oc_fail(c, "%s: dilated kernel size overflows", op);
    return OC_OK;
}

/* Output extent of a forward convolution along one axis. */
static oc_status conv_axis(oc_op_ctx *c, const char *op, const conv_geom *g,
                           int i, oc_dim in, oc_dim *out)
{
    oc_dim s = oc_dim_of(g->s[i]);
    int64_t dk, pads;
    oc_status st;
    *out = OC_DIM_UNKNOWN;
    if (g->mode == PAD_SAME_UPPER || g->mode == PAD_SAME_LOWER) {
        *out = g->s[i] == 1 ? in : oc_dim_ceildiv(c, in, s);
        return OC_OK;
    }
    if ((st = dilated(c, op, g->k[i], g->d[i], &dk)) || dk < 0)
        return st;
    if (!oc_add_i64(g->pb[i], g->pe[i], &pads))
        return oc_fail(c, "%s: pads overflow", op);
    if (oc_dim_is_known(in)) {
        int64_t num;
        if (!oc_add_i64(in.v, pads, &num))
            return oc_fail(c, "%s: pads overflow", op);
        if (num < dk)
            return oc_fail(c, "%s: axis %d: kernel extent %lld exceeds padded "
                              "input %lld", op, i + 2, (long long)dk,
                           (long long)num);
        *out = oc_dim_of((num - dk) / g->s[i] + 1);
        return OC_OK;
    }
    /* floor((in + pads - dk) / s) + 1 == floor((in + pads - dk + s) / s);
     * with s == 1 a "same" padding keeps a symbol as it is. */
    int64_t off;
    if (!oc_add_i64(pads - dk, g->s[i], &off))
        return oc_fail(c, "%s: pads overflow", op);
    oc_dim num = dim_plus(c, in, off);
    *out = g->s[i] == 1 ? num : oc_dim_div(c, num, s);
    return OC_OK;
}

/* Output extent of a transposed convolution along one axis (no
 * output_shape). */
static oc_status convt_axis(oc_op_ctx *c, const char *op, const conv_geom *g,
                            int i, oc_dim in, oc_dim *out)
{
    oc_dim s = oc_dim_of(g->s[i]);
    int64_t dk;
    oc_status st;
    *out = OC_DIM_UNKNOWN;
    if (g->mode == PAD_SAME_UPPER || g->mode == PAD_SAME_LOWER) {
        *out = g->s[i] == 1 ? in : oc_dim_mul(c, in, s);
        return OC_OK;
    }
    if ((st = dilated(c, op, g->k[i], g->d[i], &dk)) || dk < 0)
        return st;
    /* s*(in-1) + opad + dk - pb - pe = s*in + (opad + dk - pb - pe - s) */
    int64_t off = dk, t;
    if (!oc_add_i64(off, g->opad[i], &off) ||
        !oc_add_i64(g->pb[i], g->pe[i], &t) || !oc_add_i64(t, g->s[i], &t) ||
        __builtin_sub_overflow(off, t, &off))
        return oc_fail(c, "%s: padding attributes overflow", op);
    if (oc_dim_is_known(in)) {
        int64_t v;
        if (in.v == 0)
            return oc_fail(c, "%s: axis %d has zero input extent", op, i + 2);
        if (!oc_mul_i64(g->s[i], in.v, &v) || !oc_add_i64(v, off, &v))
            return oc_fail(c, "%s: output size overflows", op);
        if (v < 1)
            return oc_fail(c, "%s: axis %d: pads leave an output extent of "
                              "%lld", op, i + 2, (long long)v);
        *out = oc_dim_of(v);
        return OC_OK;
    }
    oc_dim scaled = g->s[i] == 1 ? in : oc_dim_mul(c, in, s);
    *out = dim_plus(c, scaled, off);
    return OC_OK;
}

/* Spatial output dims of ConvTranspose; output_shape wins when given (with
 * or without the N and C entries). */
static oc_status convt_spatial(oc_op_ctx *c, const char *op, const conv_geom *g,
                               const oc_tinfo *x, oc_dim *dims)
{
    size_t len;
    const int64_t *os = oc_attr_ints(c, "output_shape", &len);
    int skip = 0; /* 2 when output_shape also names N and C */
    if (os) {
        if (len == (size_t)g->nsp + 2)
            skip = 2;
        else if (len != (size_t)g->nsp)
            return oc_fail(c, "%s: output_shape has %zu values for %d "
                              "spatial axes", op, len, g->nsp);
    }
    for (int i = 0; i < g->nsp; i++) {
        if (os) {
            if (os[skip + i] < 1)
                return oc_fail(c, "%s: output_shape[%d] = %lld", op, i,
                               (long long)os[skip + i]);
            dims[2 + i] = oc_dim_of(os[skip + i]);
            continue;
        }
        oc_dim in = x->rank > 0 ? x->dims[2 + i] : OC_DIM_UNKNOWN;
        oc_status st = convt_axis(c, op, g, i, in, &dims[2 + i]);
        if (st)
            return st;
    }
    return OC_OK;
}

/* C (input channels) against W, group, and the bias length. */
static oc_status check_channels(oc_op_ctx *c, const conv_spec *sp,
                                const conv_geom *g, const oc_tinfo *x,
                                const oc_tinfo *w, const oc_tinfo *b,
                                oc_dim *out_ch)
{
    oc_dim cin = x->rank > 1 ? x->dims[1] : OC_DIM_UNKNOWN;
    oc_dim w0 = w && w->rank >= 2 ? w->dims[0] : OC_DIM_UNKNOWN;
    oc_dim w1 = w && w->rank >= 2 ? w->dims[1] : OC_DIM_UNKNOWN;
    oc_dim grp = oc_dim_of(g->group);
    *out_ch = OC_DIM_UNKNOWN;
    if (sp->transpose) {
        if (oc_dims_differ(cin, w0))
            return oc_fail(c, "%s: input has %lld channels but W expects "
                              "%lld", sp->name, (long long)cin.v,
                           (long long)w0.v);
        if (oc_dim_is_known(w0) && w0.v % g->group)
            return oc_fail(c, "%s: W's %lld input channels do not split into "
                              "%lld groups", sp->name, (long long)w0.v,
                           (long long)g->group);
        *out_ch = g->group == 1 ? w1 : oc_dim_mul(c, w1, grp);
    } else {
        oc_dim want = g->group == 1 ? w1 : oc_dim_mul(c, w1, grp);
        bool padded = sp->blocked && oc_dim_is_known(cin) && oc_dim_is_known(want) &&
                      cin.v < want.v;
        if (!padded && oc_dims_differ(cin, want))
            return oc_fail(c, "%s: input has %lld channels but W expects "
                              "%lld (%lld x group %lld)", sp->name,
                           (long long)cin.v, (long long)want.v,
                           (long long)w1.v, (long long)g->group);
        if (oc_dim_is_known(w0) && w0.v % g->group)
            return oc_fail(c, "%s: %lld output channels do not split into "
                              "%lld groups", sp->name, (long long)w0.v,
                           (long long)g->group);
        *out_ch = w0;
    }
    if (b && b->rank >= 0) {
        if (b->rank != 1)
            return oc_fail(c, "%s: bias has rank %d (expected 1)", sp->name,
                           b->rank);
        if (oc_dims_differ(b->dims[0], *out_ch))
            return oc_fail(c, "%s: bias has %lld values for %lld output "
                              "channels", sp->name, (long long)b->dims[0].v,
                           (long long)out_ch->v);
        if (!oc_dim_is_known(*out_ch) && oc_dim_is_known(b->dims[0]))
            *out_ch = b->dims[0];
    }
    return OC_OK;
}

/* The rank of the convolution: from X, else from W, else kernel_shape. */
static int conv_rank(oc_op_ctx *c, const oc_tinfo *x, const oc_tinfo *w)
{
    if (x && x->rank >= 0)
        return x->rank;
    if (w && w->rank >= 0)
        return w->rank;
    size_t len;
    if (oc_attr_ints(c, "kernel_shape", &len) && len + 2 <= OC_MAX_RANK)
        return (int)len + 2;
    return -1;
}

/* The output of the convolution of x (the node's input, or a view of it),
 * into *rank and dims; *rank -1 when unknown. */
static oc_status conv_shape(oc_op_ctx *c, const conv_spec *sp, const oc_tinfo *x, int *out_rank,
                            oc_dim *dims)
{
    const oc_tinfo *w = oc_ctx_in(c, sp->w);
    const oc_tinfo *b = sp->b == SIZE_MAX ? NULL : oc_ctx_in(c, sp->b);
    static const oc_tinfo unknown = {.kind = OC_KIND_TENSOR, .rank = -1};
    if (!x)
        x = &unknown;
    int rank = conv_rank(c, x, w);
    *out_rank = rank;
    if (rank < 0)
        return OC_OK;
    if (rank < 3)
        return oc_fail(c, "%s: input has rank %d (need N, C and at least one "
                          "spatial axis)", sp->name, rank);
    if (x->rank >= 0 && w && w->rank >= 0 && w->rank != x->rank)
        return oc_fail(c, "%s: X has rank %d but W has rank %d", sp->name,
                       x->rank, w->rank);
    conv_geom g;
    oc_status st = read_geom(c, sp, rank - 2, w, &g);
    if (!st)
        st = check_channels(c, sp, &g, x, w, b, &dims[1]);
    if (st)
        return st;
    dims[0] = x->rank > 0 ? x->dims[0] : OC_DIM_UNKNOWN;
    if (sp->transpose) {
        if ((st = convt_spatial(c, sp->name, &g, x, dims)))
            return st;
    } else {
        for (int i = 0; i < g.nsp; i++) {
            oc_dim in = x->rank > 0 ? x->dims[2 + i] : OC_DIM_UNKNOWN;
            if ((st = conv_axis(c, sp->name, &g, i, in, &dims[2 + i])))
                return st;
        }
    }
    return OC_OK;
}

static oc_status conv_infer_spec(oc_op_ctx *c, const conv_spec *sp, oc_dtype dt)
{
    oc_dim dims[OC_MAX_RANK];
    int rank;
    oc_status st = conv_shape(c, sp, oc_ctx_in(c, sp->x), &rank, dims);
    return st ? st : oc_out_set(c, 0, dt, rank, dims);
}

oc_status oc_conv_infer(oc_op_ctx *c)
{
    return conv_infer_spec(c, &SPEC_CONV, oc_in_dtype(c, 0));
}

/* ONNX Runtime's NCHWc Conv (com.microsoft.nchwc): Conv's shapes, with
 * channels padded to the layout's block in W (and in X when it comes
 * blocked from another NCHWc kernel). */
oc_status oc_nchwc_conv_infer(oc_op_ctx *c)
{
    return conv_infer_spec(c, &SPEC_NCHWC, oc_in_dtype(c, 0));
}

oc_status oc_convtranspose_infer(oc_op_ctx *c)
{
    return conv_infer_spec(c, &SPEC_CONVT, oc_in_dtype(c, 0));
}

oc_status oc_convinteger_infer(oc_op_ctx *c)
{
    return conv_infer_spec(c, &SPEC_CONVINT, OC_DT_INT32);
}

oc_status oc_qlinearconv_infer(oc_op_ctx *c)
{
    /* y has y_zero_point's type (uint8 or int8). */
    oc_dtype dt = oc_in_dtype(c, 7);
    return conv_infer_spec(c, &SPEC_QLCONV,
                           dt != OC_DT_UNDEFINED ? dt : oc_in_dtype(c, 0));
}

/* ONNX Runtime's QLinearConv (com.microsoft): the ONNX one's inputs; with
 * channels_last=1 (its NhwcTransformer) X and Y are channels last, W stays
 * [M, C/group, k...]. */
oc_status oc_ms_qlinearconv_infer(oc_op_ctx *c)
{
    oc_dtype dt = oc_in_dtype(c, 7);
    if (dt == OC_DT_UNDEFINED)
        dt = oc_in_dtype(c, 0);
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!oc_attr_int(c, "channels_last", 0) || !x || x->rank < 3)
        return conv_infer_spec(c, &SPEC_QLCONV, dt);
    oc_tinfo nchw = *x;
    oc_dim xd[OC_MAX_RANK], dims[OC_MAX_RANK], y[OC_MAX_RANK];
    int r = x->rank, rank;
    xd[0] = x->dims[0];
    xd[1] = x->dims[r - 1];
    for (int i = 2; i < r; i++)
        xd[i] = x->dims[i - 1];
    nchw.dims = xd;
    oc_status st = conv_shape(c, &SPEC_QLCONV, &nchw, &rank, dims);
    if (st || rank < 0)
        return st ? st : oc_out_set(c, 0, dt, -1, NULL);
    y[0] = dims[0];
    y[rank - 1] = dims[1];
    for (int i = 2; i < rank; i++)
        y[i - 1] = dims[i];
    return oc_out_set(c, 0, dt, rank, y);
}

/* The offset tensor also carries the output's spatial extents. */
static oc_status deform_merge_offset(oc_op_ctx *c)
{
    const oc_tinfo *off = oc_ctx_in(c, 2);
    oc_tinfo *y = oc_ctx_out(c, 0);
    if (!off || !y || off->rank < 0 || y->rank < 0)
        return OC_OK;
    if (off->rank != y->rank)
        return oc_fail(c, "DeformConv: offset has rank %d, output %d",
                       off->rank, y->rank);
    for (int i = 0; i < y->rank; i++) {
        if (i == 1)
            continue; /* offset channels are offset_group * prod(k) * n */
        if (oc_dims_differ(off->dims[i], y->dims[i]))
            return oc_fail(c, "DeformConv: offset dim %d is %lld, output "
                              "has %lld", i, (long long)off->dims[i].v,
                           (long long)y->dims[i].v);
        if (!oc_dim_is_known(y->dims[i]) && !oc_dim_is_sym(y->dims[i]))
            y->dims[i] = off->dims[i];
    }
    return OC_OK;
}

oc_status oc_deformconv_infer(oc_op_ctx *c)
{
    int64_t og = oc_attr_int(c, "offset_group", 1);
    if (og < 1)
        return oc_fail(c, "DeformConv: offset_group = %lld", (long long)og);
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (x && x->rank > 1 && oc_dim_is_known(x->dims[1]) &&
        x->dims[1].v % og)
        return oc_fail(c, "DeformConv: %lld channels do not split into %lld "
                          "offset groups", (long long)x->dims[1].v,
                       (long long)og);
    oc_status st = conv_infer_spec(c, &SPEC_DEFORM, oc_in_dtype(c, 0));
    return st ? st : deform_merge_offset(c);
}

/* ---- costs ---- */

/* prod(W dims from 1 on): (C/group or M/group) x prod(kernel). */
static oc_status weight_fanin(oc_op_ctx *c, const oc_tinfo *w, uint64_t *out)
{
    *out = 1;
    if (!w || w->rank < 3)
        return OC_OK;
    for (int i = 1; i < w->rank; i++) {
        int64_t v = oc_dim_cost(w->dims[i]);
        if (v < 0) {
            *out = 0;
            return OC_OK;
        }
        oc_status st = oc_cmul(c, *out, (uint64_t)v, out);
        if (st)
            return st;
    }
    return OC_OK;
}

/* macs = elements(t) x fan-in of W; flops = 2 macs + per_out x outputs. */
static oc_status conv_cost_spec(oc_op_ctx *c, const conv_spec *sp,
                                oc_cost *out, uint64_t per_out)
{
    const oc_tinfo *y = oc_ctx_out(c, 0);
    const oc_tinfo *x = oc_ctx_in(c, sp->x);
    const oc_tinfo *w = oc_ctx_in(c, sp->w);
    uint64_t fan, n_y, n_base, t;
    oc_status st;
    if (!y || !x || !oc_numel(y, &n_y) ||
        !oc_numel(sp->transpose ? x : y, &n_base))
        return OC_OK;
    if ((st = weight_fanin(c, w, &fan)) || (st = oc_cmul(c, n_base, fan,
                                                          &out->macs)))
        return st;
    if (sp->b != SIZE_MAX && oc_ctx_in(c, sp->b))
        per_out++;
    if ((st = oc_cmul(c, out->macs, 2, &out->flops)) ||
        (st = oc_cmul(c, n_y, per_out, &t)))
        return st;
    return oc_cadd(c, out->flops, t, &out->flops);
}

oc_status oc_conv_cost(oc_op_ctx *c, oc_cost *out)
{
    return conv_cost_spec(c, &SPEC_CONV, out, 0);
}

oc_status oc_convtranspose_cost(oc_op_ctx *c, oc_cost *out)
{
    return conv_cost_spec(c, &SPEC_CONVT, out, 0);
}

oc_status oc_convinteger_cost(oc_op_ctx *c, oc_cost *out)
{
    return conv_cost_spec(c, &SPEC_CONVINT, out, 0);
}

oc_status oc_qlinearconv_cost(oc_op_ctx *c, oc_cost *out)
{
    return conv_cost_spec(c, &SPEC_QLCONV, out, 2);
}

oc_status oc_deformconv_cost(oc_op_ctx *c, oc_cost *out)
{
    oc_status st = conv_cost_spec(c, &SPEC_DEFORM, out, 0);
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const oc_tinfo *w = oc_ctx_in(c, 1);
    const oc_tinfo *y = oc_ctx_out(c, 0);
    if (st || !x || !w || !y || x->rank < 3 || y->rank != x->rank ||
        w->rank != x->rank)
        return st;
    /* sampled values = N x C x prod(kernel) x prod(output spatial) */
    uint64_t n = 1, per = 2, t;
    int64_t nc[2] = {oc_dim_cost(x->dims[0]), oc_dim_cost(x->dims[1])};
    for (int i = 0; i < 2; i++)
        if (nc[i] < 0 || (st = oc_cmul(c, n, (uint64_t)nc[i], &n)))
            return st;
    for (int i = 2; i < x->rank; i++) {
        int64_t k = oc_dim_cost(w->dims[i]), o = oc_dim_cost(y->dims[i]);
        if (k < 0 || o < 0 || (st = oc_cmul(c, n, (uint64_t)k, &n)) ||
            (st = oc_cmul(c, n, (uint64_t)o, &n)) ||
            (st = oc_cmul(c, per, 2, &per)))
            return st;
    }
    if (oc_ctx_in(c, 4))
        per++; /* mask */
    if ((st = oc_cmul(c, n, per, &t)))
        return st;
    return oc_cadd(c, out->flops, t, &out->flops);
}
