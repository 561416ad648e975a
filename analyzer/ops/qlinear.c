/*
 * qlinear.c - ONNX Runtime's quantized operators (com.microsoft; rows in
 * analyzer/ops/contrib.def): what its quantizer writes in QOperator
 * format, and what its optimiser makes of QDQ groups and of dynamic
 * quantization (predictor/plan.c plans those fusions).
 *
 * Shapes (inputs as ORT's contrib schemas number them):
 *   QLinearAdd, QLinearMul  (A, A_scale, A_zp, B, B_scale, B_zp, C_scale,
 *           C_zp): A and B broadcast; C has A's type.
 *   QLinearSigmoid, QLinearLeakyRelu  (X, X_scale, X_zp, Y_scale, Y_zp): X's.
 *   QLinearAveragePool      (X, x_scale, x_zp, y_scale, y_zp): AveragePool's
 *           (channels_last unsupported: the output is unknown).
 *   QLinearGlobalAveragePool  as GlobalAveragePool; channels_last=1: NHWC.
 *   QLinearConcat           (Y_scale, Y_zp, then (X, X_scale, X_zp) per
 *           input): Concat of the X's along `axis`.
 *   QGemm                   (A, a_scale, a_zp, B, b_scale, b_zp, C, y_scale,
 *           y_zp): Gemm's [M, N]; y's type is y_zp's, float without y_scale.
 *   MatMulIntegerToFloat    (A, B, a_scale, b_scale, a_zp, b_zp, bias):
 *           MatMul's, of a_scale's type (float).
 *   DynamicQuantizeMatMul   (A float, B, b_scale, b_zp, bias): MatMul's, of
 *           A's type.
 *
 * Costs: the float operator's MACs (2 FLOPs each), plus per output element
 * the requantisation, 2 FLOPs (scale and round; ORT's QLinearMatMul
 * convention, analyzer/ops/matmul.c) where the output is quantized, or 1
 * (the scale) where it is float, and 1 for a bias.  Elementwise: Add/Mul 1
 * plus 2; Sigmoid 4 plus 2 and LeakyRelu 2 plus 2 (ORT runs both as a 256-
 * entry lookup table, but the count stays the float op's); pools as the
 * float pools plus 2 per output; Concat 2 per output element (a
 * requantised copy); DynamicQuantizeMatMul also 3 per element of A (min,
 * max, quantize).
 */
#include <string.h>

#include "analyzer/op.h"
#include "analyzer/values.h"

static oc_status add_per_output(oc_op_ctx *c, oc_cost *out, uint64_t per)
{
    const oc_tinfo *y = oc_ctx_out(c, 0);
    uint64_t n;
    if (!y || !oc_numel(y, &n))
        return OC_OK;
    oc_status st = oc_cmul(c, n, per, &n);
    return st ? st : oc_cadd(c, out->flops, n, &out->flops);
}

/* ---- QLinearAdd, QLinearMul ---- */

oc_status oc_qlinear_binary_infer(oc_op_ctx *c)
{
    const oc_tinfo *ab[2] = {oc_ctx_in(c, 0), oc_ctx_in(c, 3)};
    oc_dtype dt = oc_in_dtype(c, 0);
    if (!ab[0] || !ab[1])
        return oc_out_set(c, 0, dt, -1, NULL);
    int rank;
    oc_dim dims[OC_MAX_RANK];
    oc_status st = oc_broadcast(c, ab, 2, &rank, dims);
    return st ? st : oc_out_set(c, 0, dt, rank, dims);
}

oc_status oc_qlinear_binary_cost(oc_op_ctx *c, oc_cost *out)
{
    return add_per_output(c, out, 3);
}

/* ---- QLinearSigmoid, QLinearLeakyRelu ---- */

oc_status oc_qlinear_unary_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!x)
        return oc_out_set(c, 0, OC_DT_UNDEFINED, -1, NULL);
    return oc_out_set(c, 0, x->dtype, x->rank, x->dims);
}

oc_status oc_qlinear_sigmoid_cost(oc_op_ctx *c, oc_cost *out)
{
    return add_per_output(c, out, 6);
}

oc_status oc_qlinear_leakyrelu_cost(oc_op_ctx *c, oc_cost *out)
{
    return add_per_output(c, out, 4);
}

/* ---- pools ---- */

oc_status oc_qlinear_pool_infer(oc_op_ctx *c)
{
    if (oc_attr_int(c, "channels_last", 0))
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    return oc_pool_infer(c);
}

oc_status oc_qlinear_averagepool_cost(oc_op_ctx *c, oc_cost *out)
{
    oc_status st = oc_averagepool_cost(c, out);
    return st ? st : add_per_output(c, out, 2);
}

oc_status oc_qlinear_global_pool_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!oc_attr_int(c, "channels_last", 0) || !x || x->rank < 0)
        return oc_global_pool_infer(c);
    if (x->rank < 2)
        return oc_fail(c, "QLinearGlobalAveragePool: input has rank %d", x->rank);
    oc_dim dims[OC_MAX_RANK];
    for (int i = 0; i < x->rank; i++)
        dims[i] = i == 0 || i == x->rank - 1 ? x->dims[i] : oc_dim_of(1);
    return oc_out_set(c, 0, x->dtype, x->rank, dims);
}

oc_status oc_qlinear_global_pool_cost(oc_op_ctx *c, oc_cost *out)
{
    oc_status st = oc_global_pool_cost(c, out);
    return st ? st : add_per_output(c, out, 2);
}

/* ---- QLinearConcat ---- */

oc_status oc_qlinear_concat_infer(oc_op_ctx *c)
{
    size_t n = oc_ctx_n_in(c);
    if (n < 5 || (n - 2) % 3 != 0)
        return oc_fail(c, "QLinearConcat: %zu inputs (expected 2 + 3 per tensor)", n);
    const oc_tinfo *first = NULL;
    int r = -1;
    for (size_t i = 2; i < n; i += 3) {
        const oc_tinfo *t = oc_ctx_in(c, i);
        if (!t)
            return oc_fail(c, "QLinearConcat: input %zu is missing", i);
        if (!first)
            first = t;
        if (t->rank < 0)
            return oc_out_set(c, 0, first->dtype, -1, NULL);
        if (r >= 0 && t->rank != r)
            return oc_fail(c, "QLinearConcat: input %zu has rank %d, others %d", i,
                           t->rank, r);
        r = t->rank;
    }
    int ax;
    oc_status st = oc_axis(c, oc_attr_int(c, "axis", 0), r, 0, &ax);
    if (st)
        return st;
    oc_dim dims[OC_MAX_RANK];
    memcpy(dims, first->dims, (size_t)r * sizeof dims[0]);
    for (size_t i = 5; i < n; i += 3) {
        const oc_tinfo *t = oc_ctx_in(c, i);
        dims[ax] = oc_dim_add(c, dims[ax], t->dims[ax]);
        for (int j = 0; j < r; j++)
            if (j != ax && oc_dims_differ(dims[j], t->dims[j]))
                return oc_fail(c, "QLinearConcat: input %zu differs in dim %d", i, j);
    }
    return oc_out_set(c, 0, first->dtype, r, dims);
}

oc_status oc_qlinear_concat_cost(oc_op_ctx *c, oc_cost *out)
{
    return add_per_output(c, out, 2);
}

/* ---- QGemm ---- */

oc_status oc_qgemm_infer(oc_op_ctx *c)
{
    const oc_tinfo *a = oc_ctx_in(c, 0), *b = oc_ctx_in(c, 3);
    bool ta = oc_attr_int(c, "transA", 0) != 0, tb = oc_attr_int(c, "transB", 0) != 0;
    oc_dtype dt = oc_ctx_in(c, 7) ? oc_in_dtype(c, 8) : OC_DT_FLOAT;
    if (dt == OC_DT_UNDEFINED)
        dt = oc_in_dtype(c, 0);
    oc_dim mn[2] = {OC_DIM_UNKNOWN, OC_DIM_UNKNOWN}, ka = OC_DIM_UNKNOWN, kb = OC_DIM_UNKNOWN;
    if (a && a->rank >= 0) {
        if (a->rank != 2)
            return oc_fail(c, "QGemm: A has rank %d (expected 2)", a->rank);
        mn[0] = a->dims[ta ? 1 : 0];
        ka = a->dims[ta ? 0 : 1];
    }
    if (b && b->rank >= 0) {
        if (b->rank != 2)
            return oc_fail(c, "QGemm: B has rank %d (expected 2)", b->rank);
        kb = b->dims[tb ? 1 : 0];
        mn[1] = b->dims[tb ? 0 : 1];
    }
    if (oc_dims_differ(ka, kb))
        return oc_fail(c, "QGemm: A gives K = %lld but B gives K = %lld", (long long)ka.v,
                       (long long)kb.v);
    return oc_out_set(c, 0, dt, 2, mn);
}

oc_status oc_qgemm_cost(oc_op_ctx *c, oc_cost *out)
{
    uint64_t mn;
    oc_status st = oc_gemm_macs(c, out, &mn);
    if (!st && mn)
        st = add_per_output(c, out, (oc_ctx_in(c, 7) ? 2 : 1) + (oc_ctx_in(c, 6) ? 1 : 0));
    return st;
}
