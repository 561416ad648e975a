/*
 * contrib.c - ONNX Runtime's own operators (analyzer/ops/contrib.def): the
 * fused kernels its optimiser writes (com.microsoft) and its NCHWc layout
 * (com.microsoft.nchwc).  Shapes and attributes as ONNX Runtime's contrib
 * operator schemas define them.
 *
 * Shapes:
 *   FusedConv, NCHWc Conv   Conv's (X, W, B), plus an optional fourth input
 *           Z (Sum) of Y's shape added before the activation; NCHWc pads
 *           channels to the layout's block in W and in blocked inputs.
 *   FusedGemm               Gemm's.
 *   Gelu, QuickGelu         the input's.  BiasGelu: X + bias (broadcast).
 *   FastGelu                X's (an optional bias of X's last dim).
 *   SkipLayerNormalization, SkipSimplifiedLayerNormalization
 *           (input, skip, gamma[, beta][, bias]): output and the optional
 *           input+skip(+bias) sum are input's shape; mean and inverse
 *           standard deviation are input's with the last dim 1.
 *   SimplifiedLayerNormalization (ONNX domain, ORT's RMS norm)
 *           (X, scale): Y as X; inv_std_var as X from `axis` on set to 1.
 *   NCHWc pools             the ONNX pools'.
 *   NCHWc Upsample          X with each dim times its `scales` entry.
 *   ReorderInput            X (NCHW, or NHWC with channels_last) as NCHW
 *                           (the padding of the block is not counted).
 *   ReorderOutput           X as NCHW (or NHWC with channels_last) with
 *                           `channels` channels.
 *
 * Costs: the ONNX operators' (2 x MACs for the convolution and the
 * product), plus per output element: 1 for a fused Sum, the activation's
 * FLOPs (Relu 1, LeakyRelu 2, Clip 2, Sigmoid, Tanh, HardSigmoid 4,
 * HardSwish 5); Gelu 5, BiasGelu 6, FastGelu 9 (10 with a bias),
 * QuickGelu 5; SkipLayerNormalization 8 per input element + 1 per
 * addend; SimplifiedLayerNormalization 5; Upsample linear 4 x (spatial
 * dims), nearest 0.  Reorders move data only.
 */
#include <string.h>

#include "analyzer/values.h"

/* FLOPs per element of a fused activation (the `activation` attribute of
 * FusedConv, FusedGemm and the NCHWc Conv); 0 when there is none. */
static uint64_t activation_flops(oc_op_ctx *c)
{
    static const struct {
        const char *name;
        uint64_t flops;
    } acts[] = {{"Relu", 1},        {"LeakyRelu", 2}, {"Clip", 2},
                {"Sigmoid", 4},     {"Tanh", 4},      {"HardSigmoid", 4},
                {"HardSwish", 5}};
    const char *a = oc_attr_str(c, "activation", NULL);
    if (!a || !*a)
        return 0;
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
        if (!strcmp(acts[i].name, a))
            return acts[i].flops;
    oc_warn(c, "%s: activation '%s' not understood, costed as 4 FLOPs per element",
            oc_ctx_node(c)->op, a);
    return 4;
}

/* out->flops += per x elements of output 0. */
static oc_status add_per_output(oc_op_ctx *c, oc_cost *out, uint64_t per)
{
    oc_cost extra = {0, 0};
    oc_status st = oc_cost_per_output(c, &extra, per);
    return st ? st : oc_cadd(c, out->flops, extra.flops, &out->flops);
}

/* ---- fused convolution and Gemm ---- */

static oc_status check_sum(oc_op_ctx *c)
{
    const oc_tinfo *z = oc_ctx_in(c, 3), *y = oc_ctx_out(c, 0);
    if (!z || !y || z->rank < 0 || y->rank < 0)
        return OC_OK;
    if (z->rank != y->rank)
        return oc_fail(c, "%s: Z has rank %d but the output %d", oc_ctx_node(c)->op, z->rank,
                       y->rank);
    for (int i = 0; i < z->rank; i++)
        if (oc_dims_differ(z->dims[i], y->dims[i]))
            return oc_fail(c, "%s: Z dim %d is %lld, the output's %lld", oc_ctx_node(c)->op,
                           i, (long long)z->dims[i].v, (long long)y->dims[i].v);
    return OC_OK;
}

oc_status oc_fusedconv_infer(oc_op_ctx *c)
{
    oc_status st = oc_conv_infer(c);
    return st ? st : check_sum(c);
}

oc_status oc_fusedconv_cost(oc_op_ctx *c, oc_cost *out)
{
    oc_status st = oc_conv_cost(c, out);
    uint64_t per = activation_flops(c) + (oc_ctx_in(c, 3) ? 1 : 0);
    return st || !per ? st : add_per_output(c, out, per);
}

oc_status oc_fusedgemm_cost(oc_op_ctx *c, oc_cost *out)
{
    oc_status st = oc_gemm_cost(c, out);
    uint64_t per = activation_flops(c);
    return st || !per ? st : add_per_output(c, out, per);
}

/* ---- Gelu variants ---- */

oc_status oc_biasgelu_infer(oc_op_ctx *c)
{
    const oc_tinfo *ins[2] = {oc_ctx_in(c, 0), oc_ctx_in(c, 1)};
    if (!ins[0] || !ins[1])
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    int rank;
    oc_dim dims[OC_MAX_RANK];
    oc_status st = oc_broadcast(c, ins, 2, &rank, dims);
    return st ? st : oc_out_set(c, 0, ins[0]->dtype, rank, rank >= 0 ? dims : NULL);
}

oc_status oc_biasgelu_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 6);
}

oc_status oc_fastgelu_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0), *b = oc_ctx_in(c, 1);
    if (x && b && x->rank > 0 && b->rank == 1 &&
        oc_dims_differ(b->dims[0], x->dims[x->rank - 1]))
        return oc_fail(c, "FastGelu: bias has %lld values for a last dim of %lld",
                       (long long)b->dims[0].v, (long long)x->dims[x->rank - 1].v);
    if (!x)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    return oc_out_like(c, 0, x);
}

oc_status oc_fastgelu_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, oc_ctx_in(c, 1) ? 10 : 9);
}

oc_status oc_quickgelu_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 5);
}

/* ---- normalisations ---- */

/* SkipSimplifiedLayerNormalization has no beta: (input, skip, gamma[, bias]) */
static bool skip_simplified(oc_op_ctx *c)
{
    return strcmp(oc_ctx_node(c)->op, "SkipSimplifiedLayerNormalization") == 0;
}

/* Outputs `o` with x's dims, those from `axis` on set to 1 (statistics). */
static oc_status stats_out(oc_op_ctx *c, size_t o, const oc_tinfo *x, int axis)
{
    oc_dim dims[OC_MAX_RANK];
    for (int i = 0; i < x->rank; i++)
        dims[i] = i < axis ? x->dims[i] : oc_dim_of(1);
    return oc_out_set(c, o, OC_DT_FLOAT, x->rank, dims);
}

/* Parameter input i (gamma, beta, bias, scale): x's last dim. */
static oc_status check_last(oc_op_ctx *c, size_t i, const oc_tinfo *x, const char *what)
{
    const oc_tinfo *p = oc_ctx_in(c, i);
    if (!p || p->rank < 0 || x->rank < 1)
        return OC_OK;
    if (p->rank < 1 || oc_dims_differ(p->dims[p->rank - 1], x->dims[x->rank - 1]))
        return oc_fail(c, "%s: %s does not match the input's last dim %lld",
                       oc_ctx_node(c)->op, what, (long long)x->dims[x->rank - 1].v);
    return OC_OK;
}

oc_status oc_skiplayernorm_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0), *skip = oc_ctx_in(c, 1);
    if (!x || x->rank < 0) {
        for (size_t o = 0; o < 4; o++) {
            oc_status st = oc_out_set(c, o, oc_in_dtype(c, 0), -1, NULL);
            if (st)
                return st;
        }
        return OC_OK;
    }
    if (x->rank < 1)
        return oc_fail(c, "%s: the input is a scalar", oc_ctx_node(c)->op);
    if (skip && skip->rank >= 0 && skip->rank > x->rank)
        return oc_fail(c, "%s: skip has rank %d, the input %d", oc_ctx_node(c)->op,
                       skip->rank, x->rank);
    bool simplified = skip_simplified(c);
    oc_status st = check_last(c, 2, x, "gamma");
    if (!st && !simplified)
        st = check_last(c, 3, x, "beta");
    if (!st)
        st = check_last(c, simplified ? 3 : 4, x, "bias");
    if (!st)
        st = oc_out_like(c, 0, x);
    if (!st)
        st = stats_out(c, 1, x, x->rank - 1);
    if (!st)
        st = stats_out(c, 2, x, x->rank - 1);
    return st ? st : oc_out_like(c, 3, x);
}

/* 8 per element for the normalisation, + 1 per element for each addend
 * (skip, beta, bias) */
oc_status oc_skiplayernorm_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    bool simplified = skip_simplified(c);
    uint64_t n, addends = 1; /* skip, then beta and bias when given */
    for (size_t i = 3; i < oc_ctx_n_in(c) && i < (simplified ? 4u : 5u); i++)
        if (oc_ctx_in(c, i))
            addends++;
    if (!x || !oc_numel(x, &n))
        return OC_OK;
    return oc_cmul(c, n, 8 + addends, &out->flops);
}

oc_status oc_simplifiedlayernorm_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!x || x->rank < 0) {
        oc_status st = oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
        return st ? st : oc_out_set(c, 1, OC_DT_FLOAT, -1, NULL);
    }
    int axis;
    oc_status st = oc_axis(c, oc_attr_int(c, "axis", -1), x->rank, 0, &axis);
    if (!st)
        st = check_last(c, 1, x, "scale");
    if (!st)
        st = oc_out_like(c, 0, x);
    return st ? st : stats_out(c, 1, x, axis);
}

oc_status oc_simplifiedlayernorm_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    uint64_t n;
    if (!x || !oc_numel(x, &n))
        return OC_OK;
    return oc_cmul(c, n, 5, &out->flops);
}

/* ---- NCHWc layout ---- */

oc_status oc_nchwc_upsample_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    size_t n;
    const int64_t *sc = oc_attr_ints(c, "scales", &n);
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    if (!sc || n != (size_t)x->rank)
        return oc_fail(c, "Upsample: %zu scales for an input of rank %d", n, x->rank);
    oc_dim dims[OC_MAX_RANK];
    for (int i = 0; i < x->rank; i++) {
        if (sc[i] < 1)
            return oc_fail(c, "Upsample: scale %lld", (long long)sc[i]);
        dims[i] = oc_dim_mul(c, x->dims[i], oc_dim_of(sc[i]));
    }
    return oc_out_set(c, 0, x->dtype, x->rank, dims);
}

oc_status oc_nchwc_upsample_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!x || x->rank < 3 || strcmp(oc_attr_str(c, "mode", "nearest"), "linear"))
        return OC_OK;
    return oc_cost_per_output(c, out, 4 * (uint64_t)(x->rank - 2));
}

/* NHWC dims <-> NCHW dims */
static void move_channels(const oc_dim *in, int rank, bool to_last, oc_dim *out)
{
    if (to_last) {
        out[0] = in[0];
        for (int i = 2; i < rank; i++)
            out[i - 1] = in[i];
        out[rank - 1] = in[1];
    } else {
        out[0] = in[0];
        out[1] = in[rank - 1];
        for (int i = 1; i < rank - 1; i++)
            out[i + 1] = in[i];
    }
}

oc_status oc_reorder_input_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    if (x->rank < 3)
        return oc_fail(c, "ReorderInput: input has rank %d (need N, C and a spatial axis)",
                       x->rank);
    if (!oc_attr_int(c, "channels_last", 0))
        return oc_out_like(c, 0, x);
    oc_dim dims[OC_MAX_RANK];
    move_channels(x->dims, x->rank, false, dims);
    return oc_out_set(c, 0, x->dtype, x->rank, dims);
}

oc_status oc_reorder_output_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    int64_t ch = oc_attr_int(c, "channels", 0);
    if (ch < 1)
        return oc_fail(c, "ReorderOutput: channels = %lld", (long long)ch);
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    if (x->rank < 3)
        return oc_fail(c, "ReorderOutput: input has rank %d (need N, C and a spatial axis)",
                       x->rank);
    if (oc_dim_is_known(x->dims[1]) && x->dims[1].v < ch)
        return oc_fail(c, "ReorderOutput: %lld channels out of %lld", (long long)ch,
                       (long long)x->dims[1].v);
    oc_dim dims[OC_MAX_RANK];
    memcpy(dims, x->dims, (size_t)x->rank * sizeof dims[0]);
    dims[1] = oc_dim_of(ch);
    if (!oc_attr_int(c, "channels_last", 0))
        return oc_out_set(c, 0, x->dtype, x->rank, dims);
    oc_dim last[OC_MAX_RANK];
    move_channels(dims, x->rank, true, last);
    return oc_out_set(c, 0, x->dtype, x->rank, last);
}

/* ---- attention (com.microsoft) ----
 *
 * Shapes:
 *   Attention       (input [B,S,Din], weights [Din, Dq+Dk+Dv], bias?,
 *                   mask?, past [2,B,N,P,H]?, ...): output [B,S,Dv];
 *                   present [2,B,N,P+S,H].  Dq = Dk = Dv = weights' columns
 *                   / 3 unless qkv_hidden_sizes says otherwise.
 *   MultiHeadAttention (query [B,S,D] or packed [B,S,N,3,H]; key [B,L,D],
 *                   [B,N,L,H] or packed [B,L,N,2,H]; value [B,L,Dv] or
 *                   [B,N,L,Hv]; ...): output [B,S,Dv].
 *   GroupQueryAttention (query [B,S,N*H] or packed [B,S,(N+2Nkv)*H], key,
 *                   value [B,S,Nkv*H], past_key/value [B,Nkv,P,H], ...,
 *                   total_sequence_length): output [B,S,N*H]; present
 *                   [B,Nkv,T,H] with T the total length when known (else
 *                   the past buffer's).
 *   RotaryEmbedding the input's shape.
 *   MatMulNBits     (A [...,K], B packed [N, blocks, bytes], scales, ...):
 *                   [..., N] of A's type (attributes K and N).
 * Costs: Q.K^T and P.V: B x N x S x T x (H + Hv) MACs (T the keys
 * attended), 5 FLOPs per score for the softmax; Attention adds its input
 * projection (B x S x Din x (Dq+Dk+Dv) MACs); RotaryEmbedding 3 FLOPs
 * per element; MatMulNBits rows x N x K MACs and N x K FLOPs to dequantise
 * the weights.
 */

/* MACs and FLOPs of scores and context over B*N rows of S queries and T
 * keys, head sizes h (query/key) and hv (value). */
static oc_status attention_core(oc_op_ctx *c, int64_t bn, int64_t s, int64_t t, int64_t h,
                                int64_t hv, oc_cost *out)
{
    uint64_t scores, macs, sm;
    if (bn < 0 || s < 0 || t < 0 || h < 0 || hv < 0)
        return OC_OK;
    oc_status st = oc_cmul(c, (uint64_t)bn, (uint64_t)s, &scores);
    if (!st)
        st = oc_cmul(c, scores, (uint64_t)t, &scores);
    if (!st)
        st = oc_cmul(c, scores, (uint64_t)(h + hv), &macs);
    if (!st)
        st = oc_cadd(c, out->macs, macs, &out->macs);
    if (!st)
        st = oc_cmul(c, out->macs, 2, &out->flops);
    if (!st)
        st = oc_cmul(c, scores, 5, &sm);
    return st ? st : oc_cadd(c, out->flops, sm, &out->flops);
}

static int64_t dimc(const oc_tinfo *t, int i)
{
    return t && i >= 0 && i < t->rank ? oc_dim_cost(t->dims[i]) : -1;
}

static int64_t num_heads(oc_op_ctx *c, const char *name)
{
    int64_t n = oc_attr_int(c, name, 0);
    return n > 0 ? n : -1;
}

oc_status oc_attention_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0), *w = oc_ctx_in(c, 1), *past = oc_ctx_in(c, 4);
    int64_t heads = num_heads(c, "num_heads");
    if (heads < 0)
        return oc_fail(c, "Attention: num_heads must be positive");
    if (!x || x->rank < 0 || !w || w->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    if (x->rank != 3 || w->rank != 2)
        return oc_fail(c, "Attention: input has rank %d, weights %d (expected 3 and 2)",
                       x->rank, w->rank);
    if (oc_dims_differ(x->dims[2], w->dims[0]))
        return oc_fail(c, "Attention: input hidden size %lld, weights expect %lld",
                       (long long)x->dims[2].v, (long long)w->dims[0].v);
    size_t nq;
    const int64_t *qkv = oc_attr_ints(c, "qkv_hidden_sizes", &nq);
    oc_dim dv = nq == 3 ? oc_dim_of(qkv[2]) : oc_dim_div(c, w->dims[1], oc_dim_of(3));
    oc_dim dims[3] = {x->dims[0], x->dims[1], dv};
    oc_status st = oc_out_set(c, 0, x->dtype, 3, dims);
    if (st || oc_ctx_n_out(c) < 2)
        return st;
    oc_dim pd[5] = {oc_dim_of(2), x->dims[0], oc_dim_of(heads), OC_DIM_UNKNOWN,
                    oc_dim_div(c, nq == 3 ? oc_dim_of(qkv[1]) : dv, oc_dim_of(heads))};
    pd[3] = past && past->rank == 5 ? oc_dim_add(c, past->dims[3], x->dims[1]) : x->dims[1];
    return oc_out_set(c, 1, x->dtype, 5, pd);
}

oc_status oc_attention_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *x = oc_ctx_in(c, 0), *w = oc_ctx_in(c, 1), *past = oc_ctx_in(c, 4);
    int64_t heads = num_heads(c, "num_heads"), b = dimc(x, 0), s = dimc(x, 1), din = dimc(x, 2),
            cols = dimc(w, 1);
    if (heads < 0 || b < 0 || s < 0 || din < 0 || cols < 0)
        return OC_OK;
    size_t nq;
    const int64_t *qkv = oc_attr_ints(c, "qkv_hidden_sizes", &nq);
    int64_t dq = nq == 3 ? qkv[0] : cols / 3, dv = nq == 3 ? qkv[2] : cols / 3;
    int64_t t = s + (past && past->rank == 5 ? dimc(past, 3) : 0);
    uint64_t proj;
    oc_status st = oc_cmul(c, (uint64_t)(b * s), (uint64_t)din, &proj);
    if (!st)
        st = oc_cmul(c, proj, (uint64_t)cols, &out->macs);
    return st ? st : attention_core(c, b * heads, s, t, dq / heads, dv / heads, out);
}

/* MultiHeadAttention's key length L, key head size and value width Dv from
 * its query/key/value forms; false when they cannot be told. */
static bool mha_dims(oc_op_ctx *c, int64_t heads, int64_t *l, int64_t *h, oc_dim *dv)
{
    const oc_tinfo *q = oc_ctx_in(c, 0), *k = oc_ctx_in(c, 1), *v = oc_ctx_in(c, 2);
    if (!q || q->rank < 0)
        return false;
    if (q->rank == 5) { /* packed QKV [B,S,N,3,H] */
        *l = dimc(q, 1);
        *h = dimc(q, 4);
        *dv = oc_dim_mul(c, q->dims[2], q->dims[4]);
        return true;
    }
    if (q->rank != 3 || !k || k->rank < 0)
        return false;
    *h = dimc(q, 2) < 0 ? -1 : dimc(q, 2) / heads;
    if (k->rank == 5) { /* packed KV [B,L,N,2,H] */
        *l = dimc(k, 1);
        *dv = oc_dim_mul(c, k->dims[2], k->dims[4]);
        return true;
    }
    *l = dimc(k, k->rank == 4 ? 2 : 1);
    if (!v || v->rank < 0)
        return false;
    *dv = v->rank == 4 ? oc_dim_mul(c, v->dims[1], v->dims[3]) : v->dims[v->rank - 1];
    return k->rank == 3 || k->rank == 4;
}

oc_status oc_mha_infer(oc_op_ctx *c)
{
    const oc_tinfo *q = oc_ctx_in(c, 0);
    int64_t heads = num_heads(c, "num_heads"), l, h;
    oc_dim dv;
    if (heads < 0)
        return oc_fail(c, "MultiHeadAttention: num_heads must be positive");
    if (!q || q->rank < 0 || !mha_dims(c, heads, &l, &h, &dv))
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    oc_dim dims[3] = {q->dims[0], q->dims[1], dv};
    return oc_out_set(c, 0, q->dtype, 3, dims);
}

oc_status oc_mha_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *q = oc_ctx_in(c, 0), *y = oc_ctx_out(c, 0);
    int64_t heads = num_heads(c, "num_heads"), l, h;
    oc_dim dv;
    if (heads < 0 || !q || !mha_dims(c, heads, &l, &h, &dv) || dimc(y, 2) < 0)
        return OC_OK;
    return attention_core(c, dimc(q, 0) < 0 ? -1 : dimc(q, 0) * heads, dimc(q, 1), l, h,
                          dimc(y, 2) / heads, out);
}

/* GroupQueryAttention's head size and total key length: the present
 * key/value's length, max(total_sequence_length, past length) in ORT.
 * total_sequence_length is a value the caller feeds (onnxruntime-genai
 * exports make it a graph input); when it is not a constant, the past's
 * length plus the new tokens', as a decoder step without a shared
 * past/present buffer has it (ORT 1.30 returns present [2,2,17,16] for a
 * past of 16 and one new token). */
static void gqa_dims(oc_op_ctx *c, int64_t n, int64_t nkv, oc_dim *h, oc_dim *t)
{
    const oc_tinfo *q = oc_ctx_in(c, 0), *k = oc_ctx_in(c, 1), *past = oc_ctx_in(c, 3);
    *h = OC_DIM_UNKNOWN;
    *t = OC_DIM_UNKNOWN;
    if (q && q->rank == 3)
        *h = oc_dim_div(c, q->dims[2], oc_dim_of(k ? n : n + 2 * nkv));
    int64_t total;
    if (oc_in_scalar(c, 6, &total) && total > 0) {
        int64_t pl = past && past->rank == 4 ? oc_dim_cost(past->dims[2]) : -1;
        *t = oc_dim_of(pl > total ? pl : total);
    } else if (past && past->rank == 4 && q && q->rank == 3) {
        *t = oc_dim_add(c, past->dims[2], q->dims[1]);
    }
}

oc_status oc_gqa_infer(oc_op_ctx *c)
{
    const oc_tinfo *q = oc_ctx_in(c, 0);
    int64_t n = num_heads(c, "num_heads"), nkv = num_heads(c, "kv_num_heads");
    if (n < 0 || nkv < 0 || n % nkv)
        return oc_fail(c, "GroupQueryAttention: num_heads %lld and kv_num_heads %lld",
                       (long long)n, (long long)nkv);
    if (!q || q->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    if (q->rank != 3)
        return oc_fail(c, "GroupQueryAttention: query has rank %d (expected 3)", q->rank);
    oc_dim h, t;
    gqa_dims(c, n, nkv, &h, &t);
    oc_dim dims[3] = {q->dims[0], q->dims[1], oc_dim_mul(c, h, oc_dim_of(n))};
    oc_status st = oc_out_set(c, 0, q->dtype, 3, dims);
    oc_dim pd[4] = {q->dims[0], oc_dim_of(nkv), t, h};
    for (size_t o = 1; !st && o < 3; o++)
        st = oc_out_set(c, o, q->dtype, 4, pd);
    return st;
}

oc_status oc_gqa_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *q = oc_ctx_in(c, 0);
    int64_t n = num_heads(c, "num_heads"), nkv = num_heads(c, "kv_num_heads");
    if (n < 0 || nkv < 0 || !q || q->rank != 3)
        return OC_OK;
    oc_dim h, t;
    gqa_dims(c, n, nkv, &h, &t);
    int64_t hh = oc_dim_cost(h), tt = oc_dim_cost(t);
    return attention_core(c, dimc(q, 0) < 0 ? -1 : dimc(q, 0) * n, dimc(q, 1), tt, hh, hh, out);
}

oc_status oc_rotary_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 3);
}

oc_status oc_matmulnbits_infer(oc_op_ctx *c)
{
    const oc_tinfo *a = oc_ctx_in(c, 0);
    int64_t k = oc_attr_int(c, "K", 0), n = oc_attr_int(c, "N", 0);
    if (k < 1 || n < 1)
        return oc_fail(c, "MatMulNBits: K = %lld, N = %lld", (long long)k, (long long)n);
    if (!a || a->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    if (a->rank < 1 || oc_dims_differ(a->dims[a->rank - 1], oc_dim_of(k)))
        return oc_fail(c, "MatMulNBits: A's last dim is not K = %lld", (long long)k);
    oc_dim dims[OC_MAX_RANK];
    memcpy(dims, a->dims, (size_t)a->rank * sizeof dims[0]);
    dims[a->rank - 1] = oc_dim_of(n);
    return oc_out_set(c, 0, a->dtype, a->rank, dims);
}

oc_status oc_matmulnbits_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *y = oc_ctx_out(c, 0);
    int64_t k = oc_attr_int(c, "K", 0), n = oc_attr_int(c, "N", 0);
    uint64_t ny, deq;
    if (!y || !oc_numel(y, &ny) || k < 1 || n < 1)
        return OC_OK;
    oc_status st = oc_cmul(c, ny, (uint64_t)k, &out->macs);
    if (!st)
        st = oc_cmul(c, out->macs, 2, &out->flops);
    if (!st)
        st = oc_cmul(c, (uint64_t)n, (uint64_t)k, &deq);
    return st ? st : oc_cadd(c, out->flops, deq, &out->flops);
}
