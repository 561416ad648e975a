/*
 * loss.c - NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss.
 *
 * Shapes: the scores/input are N x C x d1..dk, the target/labels N x
 * d1..dk, an optional weight has C values.  reduction "none" gives the
 * loss the target's shape; "sum" and "mean" (the default) a scalar.
 * SoftmaxCrossEntropyLoss's optional log_prob has the scores' shape.
 *
 * Costs (MACs 0; FLOPs): per target element 1 (pick and negate), plus 1
 * with a weight and 1 for a sum or mean reduction;
 * SoftmaxCrossEntropyLoss adds 5 per scores element (the log-softmax).
 */
#include <string.h>

#include "analyzer/values.h"

static oc_dim dim_pick(oc_dim a, oc_dim b)
{
    return oc_dim_is_unknown(a) ? b : a;
}

static const char *op_name(oc_op_ctx *c)
{
    return oc_ctx_node(c)->op;
}

static oc_status read_reduction(oc_op_ctx *c, bool *none)
{
    const char *r = oc_attr_str(c, "reduction", "mean");
    *none = !strcmp(r, "none");
    if (!*none && strcmp(r, "sum") && strcmp(r, "mean"))
        return oc_fail(c, "%s: reduction '%s' is not none, sum or mean",
                       op_name(c), r);
    return OC_OK;
}

/* The target's dims (N, d1..dk) from input and target; *rank -1 when
 * neither shape is known. */
static oc_status target_dims(oc_op_ctx *c, int *rank, oc_dim *dims)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const oc_tinfo *t = oc_ctx_in(c, 1);
    bool xk = x && x->rank >= 0, tk = t && t->rank >= 0;
    if (xk && x->rank < 2)
        return oc_fail(c, "%s: input has rank %d (need N x C)", op_name(c),
                       x->rank);
    if (xk && tk && t->rank != x->rank - 1)
        return oc_fail(c, "%s: input has rank %d but target rank %d",
                       op_name(c), x->rank, t->rank);
    *rank = xk ? x->rank - 1 : (tk ? t->rank : -1);
    for (int i = 0; i < *rank; i++) {
        oc_dim xd = xk ? x->dims[i == 0 ? 0 : i + 1] : OC_DIM_UNKNOWN;
        oc_dim td = tk ? t->dims[i] : OC_DIM_UNKNOWN;
        if (oc_dims_differ(xd, td))
            return oc_fail(c, "%s: target dim %d is %lld, input has %lld",
                           op_name(c), i, (long long)td.v, (long long)xd.v);
        dims[i] = dim_pick(xd, td);
    }
    const oc_tinfo *w = oc_ctx_in(c, 2);
    if (w && w->rank >= 0) {
        oc_dim ch = xk ? x->dims[1] : OC_DIM_UNKNOWN;
        if (w->rank != 1 || oc_dims_differ(w->dims[0], ch))
            return oc_fail(c, "%s: weight must hold one value per class",
                           op_name(c));
    }
    return OC_OK;
}

oc_status oc_nllloss_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dtype dt = x ? x->dtype : OC_DT_UNDEFINED;
    oc_dim dims[OC_MAX_RANK];
    int rank = -1;
    bool none = false;
    oc_status st;
    if ((st = read_reduction(c, &none)) || (st = target_dims(c, &rank, dims)))
        return st;
    if ((st = oc_out_set(c, 0, dt, none ? rank : 0, dims)))
        return st;
    /* SoftmaxCrossEntropyLoss: log_prob is shaped like the scores. */
    if (oc_ctx_n_out(c) > 1 && x)
        return oc_out_like(c, 1, x);
    return OC_OK;
}

static oc_status nll_part(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *t = oc_ctx_in(c, 1);
    uint64_t n, per = 1;
    bool none;
    if (!t || !oc_numel(t, &n) || read_reduction(c, &none))
        return OC_OK;
    per += oc_ctx_in(c, 2) ? 1 : 0;
    per += none ? 0 : 1;
    return oc_cmul(c, n, per, &out->flops);
}

oc_status oc_nllloss_cost(oc_op_ctx *c, oc_cost *out)
{
    return nll_part(c, out);
}

oc_status oc_sceloss_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    uint64_t n;
    oc_status st = nll_part(c, out);
    if (st || !x || !oc_numel(x, &n))
        return st;
    if ((st = oc_cmul(c, n, 5, &n)))
        return st;
    return oc_cadd(c, out->flops, n, &out->flops);
}
