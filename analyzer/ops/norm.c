/*
 * norm.c - BatchNormalization, InstanceNormalization, LayerNormalization,
 * GroupNormalization, LRN, MeanVarianceNormalization, LpNormalization.
 *
 * Shapes: Y has X's shape throughout.  BatchNormalization's optional
 * statistics outputs (running_mean/running_var from opset 14; mean, var,
 * saved_mean, saved_var before) are per channel, shaped like the mean
 * input.  LayerNormalization's Mean and InvStdDev keep X's dims before
 * `axis` and have 1 from there on, typed by stash_type.
 *
 * Costs (MACs 0; FLOPs per element of X):
 *   BatchNormalization  2 at inference (a fused scale and shift); 6 in
 *                       training (mean 1, variance 3, scale and shift 2)
 *   InstanceNormalization, GroupNormalization, LayerNormalization
 *                       8: mean 1, variance 3 (subtract, square, add),
 *                       normalise 2, scale and bias 2 (LayerNormalization
 *                       without B: 7)
 *   MeanVarianceNormalization  6 (no scale or bias)
 *   LpNormalization     3 (|x| or x^2, sum, divide)
 *   LRN                 2 x size + 4 (squares and sums over the window,
 *                       then scale, bias, power and divide)
 */
#include "analyzer/values.h"

static const char *op_name(oc_op_ctx *c)
{
    return oc_ctx_node(c)->op;
}

/* Y = X's dtype and shape (the common rule of every op here). */
static oc_status out_like_x(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!x)
        return oc_out_set(c, 0, OC_DT_UNDEFINED, -1, NULL);
    return oc_out_like(c, 0, x);
}

/* Input i, when present with a known rank, must be 1-D of length ch. */
static oc_status check_per_channel(oc_op_ctx *c, size_t i, const char *what,
                                   oc_dim ch)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    if (!t || t->rank < 0)
        return OC_OK;
    if (t->rank != 1)
        return oc_fail(c, "%s: %s has rank %d (expected 1)", op_name(c), what,
                       t->rank);
    if (oc_dims_differ(t->dims[0], ch))
        return oc_fail(c, "%s: %s has %lld values for %lld channels",
                       op_name(c), what, (long long)t->dims[0].v,
                       (long long)ch.v);
    return OC_OK;
}

static oc_dim channels(const oc_tinfo *x)
{
    return x && x->rank >= 2 ? x->dims[1] : OC_DIM_UNKNOWN;
}

/* Statistics output o: shaped like input `like`, else a vector of ch. */
static oc_status stat_out(oc_op_ctx *c, size_t o, size_t like, oc_dim ch)
{
    const oc_tinfo *t = oc_ctx_in(c, like);
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dtype dt = t && t->dtype != OC_DT_UNDEFINED ? t->dtype
                  : (x ? x->dtype : OC_DT_UNDEFINED);
    if (t && t->rank >= 0)
        return oc_out_set(c, o, dt, t->rank, t->dims);
    return oc_out_set(c, o, dt, 1, &ch);
}

oc_status oc_batchnorm_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dim ch = channels(x);
    /* spatial=0 (opset < 9) means per-(C, D1..Dn) statistics. */
    bool spatial = oc_ctx_opset(c) >= 9 || oc_attr_int(c, "spatial", 1) != 0;
    static const char *const names[] = {"scale", "B", "mean", "var"};
    oc_status st;
    for (size_t i = 1; spatial && x && x->rank >= 2 && i <= 4; i++)
        if ((st = check_per_channel(c, i, names[i - 1], ch)))
            return st;
    if ((st = out_like_x(c)))
        return st;
    if (oc_ctx_opset(c) >= 14) {
        if ((st = stat_out(c, 1, 3, ch)) || (st = stat_out(c, 2, 4, ch)))
            return st;
        return OC_OK;
    }
    if ((st = stat_out(c, 1, 3, ch)) || (st = stat_out(c, 2, 4, ch)) ||
        (st = stat_out(c, 3, 3, ch)) || (st = stat_out(c, 4, 4, ch)))
        return st;
    return OC_OK;
}

oc_status oc_instancenorm_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dim ch = channels(x);
    oc_status st;
    if (x && x->rank >= 0 && x->rank < 2)
        return oc_fail(c, "InstanceNormalization: input has rank %d",
                       x->rank);
    if ((st = check_per_channel(c, 1, "scale", ch)) ||
        (st = check_per_channel(c, 2, "B", ch)))
        return st;
    return out_like_x(c);
}

oc_status oc_groupnorm_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dim ch = channels(x);
    int64_t g = oc_attr_int(c, "num_groups", 0);
    if (g < 1)
        return oc_fail(c, "GroupNormalization: num_groups = %lld (required, "
                          "positive)", (long long)g);
    if (x && x->rank >= 0 && x->rank < 2)
        return oc_fail(c, "GroupNormalization: input has rank %d", x->rank);
    if (oc_dim_is_known(ch) && ch.v % g)
        return oc_fail(c, "GroupNormalization: %lld channels do not split "
                          "into %lld groups", (long long)ch.v, (long long)g);
    /* Opset 18 takes per-group scale and bias, opset 21 per-channel. */
    oc_dim want = oc_ctx_opset(c) >= 21 ? ch : oc_dim_of(g);
    oc_status st;
    if ((st = check_per_channel(c, 1, "scale", want)) ||
        (st = check_per_channel(c, 2, "bias", want)))
        return st;
    return out_like_x(c);
}

/* Scale/B must broadcast onto X[axis:]. */
static oc_status check_ln_param(oc_op_ctx *c, size_t i, const oc_tinfo *x,
                                int axis)
{
    const oc_tinfo *p = oc_ctx_in(c, i);
    if (!p || p->rank < 0)
        return OC_OK;
    int tail = x->rank - axis;
    if (p->rank > tail)
        return oc_fail(c, "LayerNormalization: %s has rank %d but only %d "
                          "axes are normalised", i == 1 ? "Scale" : "B",
                       p->rank, tail);
    for (int j = 0; j < p->rank; j++) {
        oc_dim pd = p->dims[p->rank - 1 - j];
        oc_dim xd = x->dims[x->rank - 1 - j];
        if (oc_dims_differ(pd, xd) && pd.v != 1)
            return oc_fail(c, "LayerNormalization: %s dim %lld does not "
                              "match input dim %lld", i == 1 ? "Scale" : "B",
                           (long long)pd.v, (long long)xd.v);
    }
    return OC_OK;
}

oc_status oc_layernorm_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_status st = out_like_x(c);
    int64_t stash = oc_attr_int(c, "stash_type", OC_DT_FLOAT);
    oc_dtype sdt = oc_dtype_valid(stash) && oc_dtype_is_float((oc_dtype)stash)
                       ? (oc_dtype)stash
                       : OC_DT_FLOAT;
    if (st)
        return st;
    if (!x || x->rank < 0) {
        if ((st = oc_out_set(c, 1, sdt, -1, NULL)))
            return st;
        return oc_out_set(c, 2, sdt, -1, NULL);
    }
    int axis;
    if ((st = oc_axis(c, oc_attr_int(c, "axis", -1), x->rank, 0, &axis)) ||
        (st = check_ln_param(c, 1, x, axis)) ||
        (st = check_ln_param(c, 2, x, axis)))
        return st;
    oc_dim dims[OC_MAX_RANK];
    for (int i = 0; i < x->rank; i++)
        dims[i] = i < axis ? x->dims[i] : oc_dim_of(1);
    if ((st = oc_out_set(c, 1, sdt, x->rank, dims)))
        return st;
    return oc_out_set(c, 2, sdt, x->rank, dims);
}

oc_status oc_lrn_infer(oc_op_ctx *c)
{
    int64_t size = oc_attr_int(c, "size", 0);
    if (size < 1)
        return oc_fail(c, "LRN: size = %lld (required, positive)",
                       (long long)size);
    return out_like_x(c);
}

oc_status oc_mvn_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    size_t n;
    const int64_t *axes = oc_attr_ints(c, "axes", &n);
    for (size_t i = 0; axes && x && x->rank >= 0 && i < n; i++) {
        int a;
        oc_status st = oc_axis(c, axes[i], x->rank, 0, &a);
        if (st)
            return st;
    }
    return out_like_x(c);
}

oc_status oc_lpnorm_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    int64_t p = oc_attr_int(c, "p", 2);
    if (p != 1 && p != 2)
        return oc_fail(c, "LpNormalization: p = %lld (only 1 and 2)",
                       (long long)p);
    if (x && x->rank > 0) {
        int a;
        oc_status st = oc_axis(c, oc_attr_int(c, "axis", -1), x->rank, 0, &a);
        if (st)
            return st;
    }
    return out_like_x(c);
}

/* ---- costs ---- */

static oc_status per_input(oc_op_ctx *c, oc_cost *out, uint64_t per)
{
    uint64_t n;
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!x || !oc_numel(x, &n))
        return OC_OK;
    return oc_cmul(c, n, per, &out->flops);
}

oc_status oc_batchnorm_cost(oc_op_ctx *c, oc_cost *out)
{
    bool training = oc_ctx_opset(c) >= 14
                        ? oc_attr_int(c, "training_mode", 0) != 0
                        : oc_ctx_out(c, 1) != NULL;
    return per_input(c, out, training ? 6 : 2);
}

oc_status oc_norm8_cost(oc_op_ctx *c, oc_cost *out)
{
    return per_input(c, out, 8);
}

oc_status oc_layernorm_cost(oc_op_ctx *c, oc_cost *out)
{
    return per_input(c, out, oc_ctx_in(c, 2) ? 8 : 7);
}

oc_status oc_mvn_cost(oc_op_ctx *c, oc_cost *out)
{
    return per_input(c, out, 6);
}

oc_status oc_lpnorm_cost(oc_op_ctx *c, oc_cost *out)
{
    return per_input(c, out, 3);
}

oc_status oc_lrn_cost(oc_op_ctx *c, oc_cost *out)
{
    int64_t size = oc_attr_int(c, "size", 1);
    if (size < 1 || size > INT32_MAX)
        return OC_OK;
    return per_input(c, out, 2 * (uint64_t)size + 4);
}
