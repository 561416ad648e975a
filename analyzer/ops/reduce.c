/*
 * reduce.c - reductions: ReduceSum, ReduceMean, ReduceMax, ReduceMin,
 * ReduceProd, ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp,
 * ReduceSumSquare, ArgMax, ArgMin.
 *
 * Versions: the axes are an input from opset 13 for ReduceSum and from 18
 * for the others (an attribute before), with noop_with_empty_axes from the
 * same opsets.  ArgMax/ArgMin: select_last_index (12) does not change
 * shapes.
 *
 * Costs (FLOPs), n = input elements, m = output elements:
 *   ReduceSum, ReduceMax, ReduceMin, ReduceProd, ArgMax, ArgMin   n
 *   ReduceMean                          n + m   (the division)
 *   ReduceL1, ReduceSumSquare           2n      (abs or square, add)
 *   ReduceL2                            2n + m  (square, add; sqrt)
 *   ReduceLogSum                        n + m   (add; log)
 *   ReduceLogSumExp                     2n + m  (exp, add; log)
 * A no-op reduction (empty axes with noop_with_empty_axes) costs 0.
 *
 * Contents: ReduceSum and ReduceProd of small integer tensors are carried,
 * symbols included (ReduceProd(Shape(x)) = N*L*768 as exporters use it);
 * also ReduceMax/ReduceMin of known integers and Sum/Prod/Max/Min/Mean of
 * known floats.
 */
#include <math.h>
#include <string.h>

#include "analyzer/values.h"

typedef enum red_kind {
    RED_SUM, RED_MEAN, RED_MAX, RED_MIN, RED_PROD, RED_L1, RED_L2,
    RED_LOGSUM, RED_LOGSUMEXP, RED_SUMSQUARE, RED_OTHER
} red_kind;

static const struct {
    const char *name;
    red_kind kind;
    unsigned per_in, per_out; /* FLOPs per input and per output element */
} reductions[] = {
    {"ReduceSum", RED_SUM, 1, 0},       {"ReduceMean", RED_MEAN, 1, 1},
    {"ReduceMax", RED_MAX, 1, 0},       {"ReduceMin", RED_MIN, 1, 0},
    {"ReduceProd", RED_PROD, 1, 0},     {"ReduceL1", RED_L1, 2, 0},
    {"ReduceL2", RED_L2, 2, 1},         {"ReduceLogSum", RED_LOGSUM, 1, 1},
    {"ReduceLogSumExp", RED_LOGSUMEXP, 2, 1},
    {"ReduceSumSquare", RED_SUMSQUARE, 2, 0},
};

static int red_index(const oc_op_ctx *c)
{
    const char *op = oc_ctx_node(c)->op;
    for (size_t i = 0; i < sizeof reductions / sizeof reductions[0]; i++)
        if (strcmp(op, reductions[i].name) == 0)
            return (int)i;
    return -1;
}

static oc_status out_rank_only(oc_op_ctx *c, oc_dtype dt, int r)
{
    oc_dim d[OC_MAX_RANK];
    for (int i = 0; i < r && i < OC_MAX_RANK; i++)
        d[i] = OC_DIM_UNKNOWN;
    return oc_out_set(c, 0, dt, r <= OC_MAX_RANK ? r : -1, d);
}

/* ---- contents ---- */

/* *out = a op b for integer contents; false when it cannot be told.  The
 * dim helpers read a negative literal as "unknown", so literals are
 * combined here and symbols only with non-negative literals. */
static bool int_combine(oc_op_ctx *c, red_kind k, oc_dim a, oc_dim b,
                        oc_dim *out)
{
    bool lit = !a.sym && !b.sym;
    bool neg = (!a.sym && a.v < 0) || (!b.sym && b.v < 0);
    int64_t v = 0;
    switch (k) {
    case RED_SUM:
        if (lit && !oc_add_i64(a.v, b.v, &v))
            return false;
        *out = lit ? oc_dim_of(v) : oc_dim_add(c, a, b);
        break;
    case RED_PROD:
        if (lit && !oc_mul_i64(a.v, b.v, &v))
            return false;
        *out = lit ? oc_dim_of(v) : oc_dim_mul(c, a, b);
        break;
    case RED_MAX:
    case RED_MIN:
        if (!lit)
            return false;
        *out = oc_dim_of((k == RED_MAX) == (a.v > b.v) ? a.v : b.v);
        break;
    default:
        return false;
    }
    return lit || (!neg && !oc_dim_is_unknown(*out));
}

static double float_combine(red_kind k, double a, double b)
{
    switch (k) {
    case RED_SUM:
    case RED_MEAN:
        return a + b;
    case RED_PROD:
        return a * b;
    case RED_MAX:
        return a > b ? a : b;
    default:
        return a < b ? a : b;
    }
}

/* Output flat index of each input element (reduced coordinates dropped). */
static int64_t *reduce_map(oc_op_ctx *c, const oc_tinfo *x, const bool *red,
                           int64_t n)
{
    int64_t *map = oc_ctx_alloc(c, (size_t)(n + 1) * sizeof *map);
    int64_t idx[OC_MAX_RANK] = {0};
    if (!map)
        return NULL;
    for (int64_t k = 0; k < n; k++) {
        int64_t f = 0;
        for (int a = 0; a < x->rank; a++)
            if (!red[a])
                f = f * x->dims[a].v + idx[a];
        map[k] = f;
        for (int a = x->rank - 1; a >= 0; a--) {
            if (++idx[a] < x->dims[a].v)
                break;
            idx[a] = 0;
        }
    }
    return map;
}

static oc_status reduce_vals(oc_op_ctx *c, red_kind k, const oc_tinfo *x,
                             const bool *red, int64_t m)
{
    bool ints = x->ivals && (k == RED_SUM || k == RED_PROD || k == RED_MAX ||
                             k == RED_MIN);
    bool floats = x->fvals && (k <= RED_PROD);
    int64_t n = x->nvals;
    if (!ints && !floats)
        return OC_OK;
    int64_t *map = reduce_map(c, x, red, n);
    int64_t *cnt = oc_ctx_alloc(c, (size_t)(m + 1) * sizeof *cnt);
    if (!map || !cnt)
        return OC_ERR_NOMEM;
    memset(cnt, 0, (size_t)(m + 1) * sizeof *cnt);
    if (ints) {
        oc_dim *v = oc_ctx_alloc(c, (size_t)(m + 1) * sizeof *v);
        if (!v)
            return OC_ERR_NOMEM;
        for (int64_t j = 0; j < n; j++) {
            int64_t o = map[j];
            if (cnt[o]++ == 0)
                v[o] = x->ivals[j];
            else if (!int_combine(c, k, v[o], x->ivals[j], &v[o]))
                return OC_OK;
        }
        for (int64_t o = 0; o < m; o++)
            if (!cnt[o]) /* an empty reduction */
                v[o] = oc_dim_of(k == RED_PROD ? 1 : 0);
        if (k == RED_MAX || k == RED_MIN)
            for (int64_t o = 0; o < m; o++)
                if (!cnt[o])
                    return OC_OK;
        return oc_out_ivals(c, 0, m, v);
    }
    double *v = oc_ctx_alloc(c, (size_t)(m + 1) * sizeof *v);
    if (!v)
        return OC_ERR_NOMEM;
    for (int64_t o = 0; o < m; o++)
        v[o] = k == RED_PROD ? 1.0 : (k == RED_MAX ? -INFINITY
                                     : k == RED_MIN ? INFINITY : 0.0);
    for (int64_t j = 0; j < n; j++) {
        v[map[j]] = float_combine(k, v[map[j]], x->fvals[j]);
        cnt[map[j]]++;
    }
    if (k == RED_MEAN)
        for (int64_t o = 0; o < m; o++)
            v[o] = cnt[o] ? v[o] / (double)cnt[o] : NAN;
    return oc_out_fvals(c, 0, m, v);
}

/* ---- shapes ---- */

/* Output dims of a reduction over the marked axes. */
static oc_status reduce_out(oc_op_ctx *c, const oc_tinfo *x, const bool *red,
                            bool keep, oc_dtype dt, red_kind k)
{
    oc_dim out[OC_MAX_RANK];
    int r = 0;
    for (int i = 0; i < x->rank; i++) {
        if (!red[i])
            out[r++] = x->dims[i];
        else if (keep)
            out[r++] = oc_dim_of(1);
    }
    oc_status s = oc_out_set(c, 0, dt, r, out);
    int64_t m;
    if (s == OC_OK && k != RED_OTHER && (oc_vals_usable(x) && (x->ivals || x->fvals)) &&
        oc_known_numel(r, out, &m) && m <= OC_SMALL_TENSOR)
        s = reduce_vals(c, k, x, red, m);
    return s;
}

/* True when the axes come from input 1 at this opset. */
static bool axes_from_input(const oc_op_ctx *c, int ri)
{
    int since = reductions[ri].kind == RED_SUM ? 13 : 18;
    return oc_ctx_opset(c) >= since;
}

oc_status oc_reduce_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    int ri = red_index(c);
    if (ri < 0)
        return oc_fail(c, "not a reduction");
    bool keep = oc_attr_int(c, "keepdims", 1) != 0;
    bool from_input = axes_from_input(c, ri);
    bool noop = from_input && oc_attr_int(c, "noop_with_empty_axes", 0);
    oc_dtype dt = x ? x->dtype : OC_DT_UNDEFINED;
    const int64_t *axes = NULL;
    int64_t na = 0;
    if (from_input) {
        if (oc_ctx_in(c, 1) && !oc_in_ints(c, 1, &axes, &na)) {
            const oc_tinfo *at = oc_ctx_in(c, 1);
            int64_t len = at->rank == 1 && oc_dim_is_known(at->dims[0])
                              ? at->dims[0].v : -1;
            if (!x || x->rank < 0)
                return oc_out_set(c, 0, dt, -1, NULL);
            if (keep)
                return out_rank_only(c, dt, x->rank);
            return out_rank_only(c, dt, len >= 0 && len <= x->rank
                                            ? x->rank - (int)len : -1);
        }
    } else {
        size_t n;
        axes = oc_attr_ints(c, "axes", &n);
        na = (int64_t)n;
    }
    if (na == 0 && noop)
        return x ? oc_out_like(c, 0, x) : oc_out_set(c, 0, dt, -1, NULL);
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, dt, -1, NULL);
    bool red[OC_MAX_RANK] = {false};
    for (int64_t i = 0; i < na; i++) {
        int a;
        oc_status s = oc_axis(c, axes[i], x->rank, 0, &a);
        if (s != OC_OK)
            return s;
        red[a] = true;
    }
    if (na == 0)
        for (int i = 0; i < x->rank; i++)
            red[i] = true;
    return reduce_out(c, x, red, keep, dt, reductions[ri].kind);
}

oc_status oc_reduce_cost(oc_op_ctx *c, oc_cost *out)
{
    int ri = red_index(c);
    uint64_t n, m, a, b;
    oc_status s;
    if (ri < 0 || !oc_numel(oc_ctx_in(c, 0), &n) ||
        !oc_numel(oc_ctx_out(c, 0), &m))
        return OC_OK;
    bool from_input = axes_from_input(c, ri);
    if (from_input && oc_attr_int(c, "noop_with_empty_axes", 0)) {
        const int64_t *axes;
        int64_t na = 0;
        if (!oc_ctx_in(c, 1) || (oc_in_ints(c, 1, &axes, &na) && na == 0))
            return OC_OK;
    }
    if ((s = oc_cmul(c, n, reductions[ri].per_in, &a)) != OC_OK ||
        (s = oc_cmul(c, m, reductions[ri].per_out, &b)) != OC_OK)
        return s;
    return oc_cadd(c, a, b, &out->flops);
}

oc_status oc_argmax_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    bool keep = oc_attr_int(c, "keepdims", 1) != 0;
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, OC_DT_INT64, -1, NULL);
    int a;
    oc_status s = oc_axis(c, oc_attr_int(c, "axis", 0), x->rank, 0, &a);
    if (s != OC_OK)
        return s;
    bool red[OC_MAX_RANK] = {false};
    red[a] = true;
    return reduce_out(c, x, red, keep, OC_DT_INT64, RED_OTHER);
}

oc_status oc_argmax_cost(oc_op_ctx *c, oc_cost *out)
{
    uint64_t n;
    if (oc_numel(oc_ctx_in(c, 0), &n))
        out->flops = n;
    return OC_OK;
}
