/*
 * quant.c - QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear.
 *
 * Shapes: y has x's shape.  QuantizeLinear's y has y_zero_point's type,
 * else (opset 21) output_dtype, else uint8.  DequantizeLinear's y is float
 * before opset 19 and x_scale's type from 19.  A 1-D scale of more than one
 * value quantises per axis (opset 13+): `axis` must be valid and the scale's
 * length must match x's dim there; blocked quantisation (opset 21,
 * block_size > 0) is not checked.  DynamicQuantizeLinear gives y (uint8,
 * x's shape), a scalar float y_scale and a scalar uint8 y_zero_point.
 *
 * Costs (MACs 0; FLOPs per element): QuantizeLinear 4 (divide, round, add
 * the zero point, saturate), DequantizeLinear 2 (subtract the zero point,
 * multiply), DynamicQuantizeLinear 6 (min and max, then 4 to quantise).
 */
#include "analyzer/op.h"
#include "analyzer/values.h"

/* Per-axis scale: its length must be x's dim at `axis`. */
static oc_status check_scale(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const oc_tinfo *s = oc_ctx_in(c, 1);
    const oc_tinfo *z = oc_ctx_in(c, 2);
    const char *op = oc_ctx_node(c)->op;
    if (s && z && s->rank >= 0 && z->rank >= 0 && s->rank != z->rank)
        return oc_fail(c, "%s: scale has rank %d, zero point %d", op, s->rank,
                       z->rank);
    if (!x || !s || x->rank < 1 || s->rank != 1 ||
        oc_attr_int(c, "block_size", 0) > 0)
        return OC_OK;
    if (oc_dim_is_known(s->dims[0]) && s->dims[0].v == 1)
        return OC_OK; /* one value: per tensor */
    int a;
    oc_status st = oc_axis(c, oc_attr_int(c, "axis", 1), x->rank, 0, &a);
    if (st)
        return st;
    oc_dim xd = x->dims[a];
    if (oc_dim_is_known(xd) && oc_dim_is_known(s->dims[0]) &&
        xd.v != s->dims[0].v)
        return oc_fail(c, "%s: %lld scales for axis %d of size %lld", op,
                       (long long)s->dims[0].v, a, (long long)xd.v);
    return OC_OK;
}

static oc_status out_shape_of_x(oc_op_ctx *c, oc_dtype dt)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_status st = check_scale(c);
    if (st)
        return st;
    if (!x)
        return oc_out_set(c, 0, dt, -1, NULL);
    return oc_out_set(c, 0, dt, x->rank, x->dims);
}

oc_status oc_quantizelinear_infer(oc_op_ctx *c)
{
    oc_dtype dt = oc_in_dtype(c, 2);
    if (dt == OC_DT_UNDEFINED && !oc_ctx_in(c, 2)) {
        int64_t od = oc_ctx_opset(c) >= 21 ? oc_attr_int(c, "output_dtype", 0)
                                           : 0;
        /* Types this build does not know (float8, int4) stay undefined. */
        if (od == 0)
            dt = OC_DT_UINT8;
        else if (oc_dtype_valid(od))
            dt = (oc_dtype)od;
    }
    return out_shape_of_x(c, dt);
}

oc_status oc_dequantizelinear_infer(oc_op_ctx *c)
{
    oc_dtype dt = OC_DT_FLOAT;
    if (oc_ctx_opset(c) >= 19 && oc_in_dtype(c, 1) != OC_DT_UNDEFINED)
        dt = oc_in_dtype(c, 1);
    return out_shape_of_x(c, dt);
}

oc_status oc_dynamicquantizelinear_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_status st = x ? oc_out_set(c, 0, OC_DT_UINT8, x->rank, x->dims)
                     : oc_out_set(c, 0, OC_DT_UINT8, -1, NULL);
    if (st || (st = oc_out_set(c, 1, OC_DT_FLOAT, 0, NULL)))
        return st;
    return oc_out_set(c, 2, OC_DT_UINT8, 0, NULL);
}

oc_status oc_quantizelinear_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 4);
}

oc_status oc_dequantizelinear_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 2);
}

oc_status oc_dynamicquantizelinear_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 6);
}
