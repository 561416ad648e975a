/*
 * softmax.c - Softmax, LogSoftmax, Hardmax.
 *
 * Shapes: the output has the input's shape.  Before opset 13 the input is
 * coerced to 2-D at `axis` (default 1, and axis == rank is accepted: the
 * second factor is then 1); from 13 on `axis` (default -1) is the one axis
 * reduced over.  Either way the output shape is the input shape.
 *
 * Costs (MACs 0; FLOPs per element): Softmax 5 (max, subtract, exp, sum,
 * divide), LogSoftmax 5 (max, subtract, exp, sum, log-subtract), Hardmax 1
 * (the arg-max compare).
 */
#include "analyzer/op.h"

oc_status oc_softmax_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!x)
        return oc_out_set(c, 0, OC_DT_UNDEFINED, -1, NULL);
    if (x->rank > 0) {
        bool old = oc_ctx_opset(c) < 13;
        int64_t axis = oc_attr_int(c, "axis", old ? 1 : -1);
        int a;
        oc_status st = oc_axis(c, axis, x->rank, old ? 1 : 0, &a);
        if (st)
            return st;
    }
    return oc_out_like(c, 0, x);
}

oc_status oc_softmax_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 5);
}

oc_status oc_hardmax_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, 1);
}
