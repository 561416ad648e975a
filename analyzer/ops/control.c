/*
 * control.c - control flow: If, Loop, Scan (8, 9+), SequenceMap, and the
 * optional operators Optional, OptionalGetElement, OptionalHasElement.
 *
 * Bodies are inferred through oc_ctx_infer_subgraph, which adds each
 * inference's costs to the node.  Costs:
 *   If          the branch taken when the condition is known, else both
 *               branches (each inferred once).
 *   Loop        body cost times the trip count when it is known exactly
 *               (trip count M and a condition that stays true), else the
 *               body once per inference pass (1 or 2).
 *   Scan        body cost times the sequence length.
 *   SequenceMap body once (the sequence length is not known statically).
 * The optional operators move no data.
 *
 * Loop-carried values and Scan states keep the shapes the body agrees on:
 * the body is inferred with the initial infos and, if its outputs differ,
 * once more with what the two have in common.
 */
#include <string.h>

#include "analyzer/values.h"

/* dst[0..n) = src[0..n); src may be NULL when n is 0. */
static void dims_copy(oc_dim *dst, const oc_dim *src, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = src[i];
}

/* ---- info helpers ---- */

static oc_tinfo *new_info(oc_op_ctx *c, oc_value_kind kind, oc_dtype dt,
                          int rank, const oc_dim *dims)
{
    oc_tinfo *t = oc_ctx_alloc(c, sizeof *t);
    if (!t)
        return NULL;
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->dtype = dt;
    t->rank = rank <= OC_MAX_RANK ? rank : -1;
    t->nvals = -1;
    if (t->rank > 0) {
        t->dims = oc_ctx_alloc(c, (size_t)t->rank * sizeof *t->dims);
        if (!t->dims)
            return NULL;
        for (int i = 0; i < t->rank; i++)
            t->dims[i] = dims ? dims[i] : OC_DIM_UNKNOWN;
    }
    return t;
}

/* The shape part of t (no contents). */
static oc_tinfo *shape_of(oc_op_ctx *c, const oc_tinfo *t)
{
    if (!t)
        return NULL;
    oc_tinfo *u = new_info(c, t->kind, t->dtype, t->rank, t->dims);
    if (u)
        u->elem = t->elem;
    return u;
}

/* What holds for both a and b: kind, dtype, and the dims they agree on. */
static oc_tinfo *merge(oc_op_ctx *c, const oc_tinfo *a, const oc_tinfo *b)
{
    if (!a || !b)
        return NULL;
    if (a->kind == OC_KIND_NONE) /* an empty sequence's element */
        return shape_of(c, b);
    if (b->kind == OC_KIND_NONE)
        return shape_of(c, a);
    oc_value_kind kind = a->kind == b->kind ? a->kind : OC_KIND_NONE;
    oc_dtype dt = a->dtype == b->dtype ? a->dtype : OC_DT_UNDEFINED;
    int r = a->rank == b->rank ? a->rank : -1;
    oc_tinfo *t = new_info(c, kind, dt, r, a->dims);
    if (!t)
        return NULL;
    for (int i = 0; i < r; i++)
        if (oc_dim_eq(a->dims[i], b->dims[i]) != 1)
            t->dims[i] = OC_DIM_UNKNOWN;
    if (kind == OC_KIND_SEQUENCE || kind == OC_KIND_OPTIONAL)
        t->elem = a->elem == b->elem ? a->elem : merge(c, a->elem, b->elem);
    return t;
}

/* Same kind, dtype, rank and (certainly) equal dims. */
static bool same_shape(const oc_tinfo *a, const oc_tinfo *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->dtype != b->dtype || a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (oc_dim_eq(a->dims[i], b->dims[i]) != 1 &&
            !(oc_dim_is_unknown(a->dims[i]) && oc_dim_is_unknown(b->dims[i])))
            return false;
    return true;
}

/* Output i takes src's info, contents included. */
static oc_status set_out(oc_op_ctx *c, size_t i, const oc_tinfo *src)
{
    if (!src)
        return oc_out_set(c, i, OC_DT_UNDEFINED, -1, NULL);
    oc_status s = oc_out_like(c, i, src);
    if (s != OC_OK || src->kind != OC_KIND_TENSOR || src->nvals < 0)
        return s;
    if (src->ivals)
        return oc_out_ivals(c, i, src->nvals, src->ivals);
    if (src->fvals)
        return oc_out_fvals(c, i, src->nvals, src->fvals);
    return OC_OK;
}

/* A graph attribute, or a failure naming it. */
static oc_status body_attr(oc_op_ctx *c, const char *name,
                           const oc_graph **g)
{
    const oc_attr *a = oc_ctx_attr(c, name);
    if (!a || a->type != OC_ATTR_GRAPH || !a->g)
        return oc_fail(c, "%s: graph attribute '%s' is missing",
                       oc_ctx_node(c)->op, name);
    *g = a->g;
    return OC_OK;
}

/* Body input infos: unknown ones are left to the body's declarations. */
static const oc_tinfo *formal(const oc_tinfo *t)
{
    return t && (t->rank >= 0 || t->kind != OC_KIND_TENSOR ||
                 t->dtype != OC_DT_UNDEFINED)
               ? t : NULL;
}

/* ---- If ---- */

oc_status oc_if_infer(oc_op_ctx *c)
{
    const oc_graph *tg = NULL, *eg = NULL;
    oc_status s;
    if ((s = body_attr(c, "then_branch", &tg)) != OC_OK ||
        (s = body_attr(c, "else_branch", &eg)) != OC_OK)
        return s;
    size_t n = oc_ctx_n_out(c);
    const oc_tinfo **a = oc_ctx_alloc(c, (n + 1) * sizeof *a);
    const oc_tinfo **b = oc_ctx_alloc(c, (n + 1) * sizeof *b);
    if (!a || !b)
        return OC_ERR_NOMEM;
    int cond = oc_known_flag(oc_ctx_in(c, 0));
    if (cond >= 0) {
        const oc_graph *g = cond ? tg : eg;
        if (g->n_outputs != n)
            return oc_fail(c, "If: branch has %zu outputs, node %zu",
                           g->n_outputs, n);
        if ((s = oc_ctx_infer_subgraph(c, g, NULL, 0, a, n, NULL)) != OC_OK)
            return s;
        for (size_t i = 0; i < n; i++)
            if ((s = set_out(c, i, a[i])) != OC_OK)
                return s;
        oc_ctx_set_trips(c, 1);
        return OC_OK;
    }
    if (tg->n_outputs != n || eg->n_outputs != n)
        return oc_fail(c, "If: branches have %zu and %zu outputs, node %zu",
                       tg->n_outputs, eg->n_outputs, n);
    if ((s = oc_ctx_infer_subgraph(c, tg, NULL, 0, a, n, NULL)) != OC_OK ||
        (s = oc_ctx_infer_subgraph(c, eg, NULL, 0, b, n, NULL)) != OC_OK)
        return s;
    for (size_t i = 0; i < n; i++)
        if ((s = set_out(c, i, merge(c, a[i], b[i]))) != OC_OK)
            return s;
    return OC_OK;
}

/* ---- Loop ---- */

typedef struct loop_run {
    size_t n_carried, n_scan;
    const oc_tinfo **ins;  /* 2 + N body inputs */
    const oc_tinfo **outs; /* 1 + N + K body outputs */
} loop_run;

static oc_status loop_setup(oc_op_ctx *c, const oc_graph *g, loop_run *lr)
{
    size_t nin = oc_ctx_n_in(c);
    lr->n_carried = nin >= 2 ? nin - 2 : 0;
    if (g->n_inputs != lr->n_carried + 2 || g->n_outputs < lr->n_carried + 1)
        return oc_fail(c, "Loop: body has %zu inputs and %zu outputs for "
                          "%zu carried values",
                       g->n_inputs, g->n_outputs, lr->n_carried);
    lr->n_scan = g->n_outputs - 1 - lr->n_carried;
    if (oc_ctx_n_out(c) != lr->n_carried + lr->n_scan)
        return oc_fail(c, "Loop: %zu outputs, expected %zu",
                       oc_ctx_n_out(c), lr->n_carried + lr->n_scan);
    lr->ins = oc_ctx_alloc(c, (g->n_inputs + 1) * sizeof *lr->ins);
    lr->outs = oc_ctx_alloc(c, (g->n_outputs + 1) * sizeof *lr->outs);
    if (!lr->ins || !lr->outs)
        return OC_ERR_NOMEM;
    lr->ins[0] = new_info(c, OC_KIND_TENSOR, OC_DT_INT64, 0, NULL);
    /* The condition, with its contents, so a constant true stays known. */
    const oc_tinfo *cond = oc_ctx_in(c, 1);
    lr->ins[1] = cond ? cond : new_info(c, OC_KIND_TENSOR, OC_DT_BOOL, 0,
                                        NULL);
    return OC_OK;
}

/* Infer the body until the carried infos agree (at most two passes);
 * *passes says how many ran. */
static oc_status loop_fixpoint(oc_op_ctx *c, const oc_graph *g, loop_run *lr,
                               size_t first, const oc_tinfo **carried,
                               int *passes)
{
    size_t n = lr->n_carried;
    oc_status s;
    for (size_t i = 0; i < n; i++)
        lr->ins[first + i] = formal(shape_of(c, carried[i]));
    for (*passes = 1;; (*passes)++) {
        if ((s = oc_ctx_infer_subgraph(c, g, lr->ins, g->n_inputs, lr->outs,
                                       g->n_outputs, NULL)) != OC_OK)
            return s;
        bool stable = true;
        for (size_t i = 0; i < n; i++) {
            const oc_tinfo *in = lr->ins[first + i];
            const oc_tinfo *out = lr->outs[1 + i];
            oc_tinfo *m = in ? merge(c, in, out) : shape_of(c, out);
            if (!same_shape(m, in))
                stable = false;
            carried[i] = m;
        }
        if (stable || *passes == 2)
            return OC_OK;
        for (size_t i = 0; i < n; i++)
            lr->ins[first + i] = formal(carried[i]);
    }
}

/* The exact trip count, or -1 (no M, or a condition that may turn false). */
static int64_t loop_trips(const oc_op_ctx *c, const loop_run *lr)
{
    const int64_t *m;
    int64_t n;
    if (!oc_in_ints(c, 0, &m, &n) || n != 1 || m[0] < 0)
        return -1;
    if (oc_ctx_in(c, 1) && oc_known_flag(oc_ctx_in(c, 1)) == 0)
        return 0;
    if (oc_ctx_in(c, 1) && oc_known_flag(lr->outs[0]) != 1)
        return -1;
    return m[0];
}

static oc_status loop_scan_out(oc_op_ctx *c, size_t o, const oc_tinfo *e,
                               int64_t trips)
{
    if (!e || e->kind != OC_KIND_TENSOR || e->rank < 0 ||
        e->rank + 1 > OC_MAX_RANK)
        return oc_out_set(c, o, e ? e->dtype : OC_DT_UNDEFINED, -1, NULL);
    oc_dim d[OC_MAX_RANK];
    d[0] = trips >= 0 ? oc_dim_of(trips) : OC_DIM_UNKNOWN;
    dims_copy(d + 1, e->dims, e->rank);
    return oc_out_set(c, o, e->dtype, e->rank + 1, d);
}

oc_status oc_loop_infer(oc_op_ctx *c)
{
    const oc_graph *g = NULL;
    loop_run lr;
    oc_status s;
    int passes;
    if ((s = body_attr(c, "body", &g)) != OC_OK ||
        (s = loop_setup(c, g, &lr)) != OC_OK)
        return s;
    const oc_tinfo **carried =
        oc_ctx_alloc(c, (lr.n_carried + 1) * sizeof *carried);
    if (!carried)
        return OC_ERR_NOMEM;
    for (size_t i = 0; i < lr.n_carried; i++)
        carried[i] = oc_ctx_in(c, 2 + i);
    if ((s = loop_fixpoint(c, g, &lr, 2, carried, &passes)) != OC_OK)
        return s;
    for (size_t i = 0; i < lr.n_carried; i++)
        if ((s = set_out(c, i, carried[i])) != OC_OK)
            return s;
    int64_t trips = loop_trips(c, &lr);
    oc_ctx_set_trips(c, trips);
    for (size_t k = 0; k < lr.n_scan; k++)
        if ((s = loop_scan_out(c, lr.n_carried + k,
                               lr.outs[1 + lr.n_carried + k], trips)) !=
            OC_OK)
            return s;
    return OC_OK;
}

/*
 * The inference already added the body's cost once per pass.  With an
 * exact trip count T, infer the body once more to learn its cost b (which
 * adds b) and add the remaining (T - passes - 1) * b.
 */
static oc_status repeat_cost(oc_op_ctx *c, const oc_graph *g,
                             const oc_tinfo *const *ins, size_t n_in,
                             const oc_tinfo **outs, int64_t trips,
                             int passes, oc_cost *out)
{
    if (trips <= passes)
        return OC_OK;
    oc_cost b = {0, 0};
    oc_status s = oc_ctx_infer_subgraph(c, g, ins, n_in, outs, g->n_outputs,
                                        &b);
    if (s != OC_OK)
        return s;
    uint64_t extra = (uint64_t)(trips - passes - 1);
    if ((s = oc_cmul(c, b.macs, extra, &out->macs)) != OC_OK)
        return s;
    return oc_cmul(c, b.flops, extra, &out->flops);
}

/* Inference passes that ran: 2 when a carried info changed. */
static int passes_used(oc_op_ctx *c, size_t first_in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const oc_tinfo *in = oc_ctx_in(c, first_in + i);
        oc_tinfo *m = merge(c, in, oc_ctx_out(c, i));
        if (!same_shape(formal(shape_of(c, in)), formal(m)))
            return 2;
    }
    return 1;
}

oc_status oc_loop_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_graph *g = NULL;
    loop_run lr;
    oc_status s;
    if ((s = body_attr(c, "body", &g)) != OC_OK ||
        (s = loop_setup(c, g, &lr)) != OC_OK)
        return s;
    const int64_t *m;
    int64_t n;
    if (!oc_in_ints(c, 0, &m, &n) || n != 1 || m[0] <= 0)
        return OC_OK;
    int passes = passes_used(c, 2, lr.n_carried);
    /* The trip count is exact when the scan outputs got it, or when there
     * are none and the condition is absent. */
    int64_t trips = -1;
    if (lr.n_scan > 0) {
        const oc_tinfo *y = oc_ctx_out(c, lr.n_carried);
        if (y && y->rank > 0 && oc_dim_is_known(y->dims[0]))
            trips = y->dims[0].v;
    } else if (!oc_ctx_in(c, 1)) {
        trips = m[0];
    }
    if (trips < 0)
        return OC_OK;
    for (size_t i = 0; i < lr.n_carried; i++)
        lr.ins[2 + i] = formal(shape_of(c, oc_ctx_out(c, i)));
    return repeat_cost(c, g, lr.ins, g->n_inputs, lr.outs, trips, passes,
                       out);
}

/* ---- Scan ---- */

typedef struct scan_run {
    size_t n_state, n_scan_in, n_scan_out, first; /* first state input */
    int64_t batch_axes; /* 1 for opset 8 (batch axis 0 everywhere) */
    const oc_tinfo **ins, **outs;
    oc_dim len;
} scan_run;

/* x without the axes `ax` (and the batch axis at opset 8). */
static oc_tinfo *drop_axis(oc_op_ctx *c, const oc_tinfo *x, int ax,
                           int batch)
{
    if (!x || x->rank < 0)
        return NULL;
    oc_tinfo *t = new_info(c, OC_KIND_TENSOR, x->dtype, x->rank, x->dims);
    if (!t)
        return NULL;
    int r = 0;
    for (int i = 0; i < x->rank; i++)
        if (i != ax && !(batch && i == 0))
            t->dims[r++] = x->dims[i];
    t->rank = r;
    return t;
}

static oc_status scan_setup(oc_op_ctx *c, const oc_graph *g, scan_run *sr)
{
    int64_t m = oc_attr_int(c, "num_scan_inputs", -1);
    bool v8 = oc_ctx_opset(c) < 9;
    sr->first = v8 ? 1 : 0;
    sr->batch_axes = v8;
    size_t nin = oc_ctx_n_in(c);
    if (m < 1 || nin < sr->first || (size_t)m > nin - sr->first)
        return oc_fail(c, "Scan: num_scan_inputs %lld for %zu inputs",
                       (long long)m, nin);
    sr->n_scan_in = (size_t)m;
    sr->n_state = nin - sr->first - sr->n_scan_in;
    if (g->n_inputs != sr->n_state + sr->n_scan_in ||
        g->n_outputs < sr->n_state)
        return oc_fail(c, "Scan: body has %zu inputs and %zu outputs for "
                          "%zu states and %zu scan inputs",
                       g->n_inputs, g->n_outputs, sr->n_state, sr->n_scan_in);
    sr->n_scan_out = g->n_outputs - sr->n_state;
    if (oc_ctx_n_out(c) != g->n_outputs)
        return oc_fail(c, "Scan: %zu outputs, body has %zu", oc_ctx_n_out(c),
                       g->n_outputs);
    sr->ins = oc_ctx_alloc(c, (g->n_inputs + 1) * sizeof *sr->ins);
    sr->outs = oc_ctx_alloc(c, (g->n_outputs + 1) * sizeof *sr->outs);
    if (!sr->ins || !sr->outs)
        return OC_ERR_NOMEM;

    size_t na;
    const int64_t *axes = oc_attr_ints(c, "scan_input_axes", &na);
    if (v8)
        axes = NULL;
    else if (axes && na != sr->n_scan_in)
        return oc_fail(c, "Scan: %zu scan_input_axes for %zu scan inputs", na,
                       sr->n_scan_in);
    sr->len = OC_DIM_UNKNOWN;
    for (size_t j = 0; j < sr->n_scan_in; j++) {
        const oc_tinfo *x = oc_ctx_in(c, sr->first + sr->n_state + j);
        int ax = v8 ? 1 : 0;
        if (x && x->rank >= 0) {
            oc_status s = oc_axis(c, axes ? axes[j] : ax, x->rank, 0, &ax);
            if (s != OC_OK)
                return s;
            if (v8 && x->rank < 2)
                return oc_fail(c, "Scan: scan input of rank %d", x->rank);
            oc_dim d = x->dims[ax];
            if (oc_dim_eq(sr->len, d) == 0)
                return oc_fail(c, "Scan: scan inputs differ in length");
            if (oc_dim_is_unknown(sr->len))
                sr->len = d;
        }
        sr->ins[sr->n_state + j] = formal(drop_axis(c, x, ax, v8));
    }
    return OC_OK;
}

static oc_status scan_states(oc_op_ctx *c, const oc_graph *g, scan_run *sr,
                             int *passes)
{
    size_t n = sr->n_state;
    oc_status s;
    for (size_t i = 0; i < n; i++)
        sr->ins[i] = formal(drop_axis(c, oc_ctx_in(c, sr->first + i), -1,
                                      (int)sr->batch_axes));
    for (*passes = 1;; (*passes)++) {
        if ((s = oc_ctx_infer_subgraph(c, g, sr->ins, g->n_inputs, sr->outs,
                                       g->n_outputs, NULL)) != OC_OK)
            return s;
        bool stable = true;
        for (size_t i = 0; i < n; i++) {
            oc_tinfo *m = sr->ins[i] ? merge(c, sr->ins[i], sr->outs[i])
                                     : shape_of(c, sr->outs[i]);
            stable = stable && same_shape(m, sr->ins[i]);
            sr->ins[i] = formal(m);
        }
        if (stable || *passes == 2)
            return OC_OK;
    }
}

/* e with dim d inserted at ax (and the batch dim b in front at opset 8). */
static oc_status out_with(oc_op_ctx *c, size_t o, const oc_tinfo *e,
                          int64_t ax, oc_dim d, const oc_dim *b)
{
    if (!e || e->rank < 0 || e->rank + 2 > OC_MAX_RANK)
        return oc_out_set(c, o, e ? e->dtype : OC_DT_UNDEFINED, -1, NULL);
    oc_dim out[OC_MAX_RANK];
    int r = 0, a;
    if (b)
        out[r++] = *b;
    if (ax >= 0) {
        oc_status s = oc_axis(c, ax, e->rank, 1, &a);
        if (s != OC_OK)
            return s;
        for (int i = 0; i <= e->rank; i++)
            out[r++] = i == a ? d : e->dims[i - (i > a)];
    } else {
        for (int i = 0; i < e->rank; i++)
            out[r++] = e->dims[i];
    }
    return oc_out_set(c, o, e->dtype, r, out);
}

oc_status oc_scan_infer(oc_op_ctx *c)
{
    const oc_graph *g = NULL;
    scan_run sr;
    oc_status s;
    int passes;
    if ((s = body_attr(c, "body", &g)) != OC_OK ||
        (s = scan_setup(c, g, &sr)) != OC_OK ||
        (s = scan_states(c, g, &sr, &passes)) != OC_OK)
        return s;
    oc_dim batch = OC_DIM_UNKNOWN;
    if (sr.batch_axes) {
        for (size_t i = sr.first; i < oc_ctx_n_in(c); i++) {
            const oc_tinfo *x = oc_ctx_in(c, i);
            if (x && x->rank > 0 && !oc_dim_is_unknown(x->dims[0])) {
                batch = x->dims[0];
                break;
            }
        }
    }
    const oc_dim *b = sr.batch_axes ? &batch : NULL;
    oc_ctx_set_trips(c, oc_dim_cost(sr.len));
    for (size_t i = 0; i < sr.n_state; i++)
        if ((s = out_with(c, i, sr.ins[i] ? sr.ins[i] : sr.outs[i], -1,
                          OC_DIM_UNKNOWN, b)) != OC_OK)
            return s;
    size_t na;
    const int64_t *axes = oc_attr_ints(c, "scan_output_axes", &na);
    if (sr.batch_axes)
        axes = NULL;
    else if (axes && na != sr.n_scan_out)
        return oc_fail(c, "Scan: %zu scan_output_axes for %zu scan outputs",
                       na, sr.n_scan_out);
    for (size_t k = 0; k < sr.n_scan_out; k++)
        if ((s = out_with(c, sr.n_state + k, sr.outs[sr.n_state + k],
                          axes ? axes[k] : 0, sr.len, b)) != OC_OK)
            return s;
    return OC_OK;
}

oc_status oc_scan_cost(oc_op_ctx *c, oc_cost *out)
{
    const oc_graph *g = NULL;
    scan_run sr;
    oc_status s;
    if ((s = body_attr(c, "body", &g)) != OC_OK ||
        (s = scan_setup(c, g, &sr)) != OC_OK)
        return s;
    int64_t len = oc_dim_cost(sr.len);
    if (len < 0)
        return OC_OK;
    int passes = 1;
    for (size_t i = 0; i < sr.n_state; i++) {
        const oc_tinfo *in = formal(drop_axis(c, oc_ctx_in(c, sr.first + i),
                                              -1, (int)sr.batch_axes));
        const oc_tinfo *fin = formal(drop_axis(c, oc_ctx_out(c, i), -1,
                                               (int)sr.batch_axes));
        if (!same_shape(in, fin))
            passes = 2;
        sr.ins[i] = fin;
    }
    return repeat_cost(c, g, sr.ins, g->n_inputs, sr.outs, len, passes, out);
}

/* ---- SequenceMap ---- */

oc_status oc_sequencemap_infer(oc_op_ctx *c)
{
    const oc_graph *g = NULL;
    oc_status s;
    if ((s = body_attr(c, "body", &g)) != OC_OK)
        return s;
    size_t nin = oc_ctx_n_in(c), nout = oc_ctx_n_out(c);
    if (g->n_inputs != nin || g->n_outputs != nout)
        return oc_fail(c, "SequenceMap: body has %zu inputs and %zu outputs, "
                          "node %zu and %zu",
                       g->n_inputs, g->n_outputs, nin, nout);
    const oc_tinfo **ins = oc_ctx_alloc(c, (nin + 1) * sizeof *ins);
    const oc_tinfo **outs = oc_ctx_alloc(c, (nout + 1) * sizeof *outs);
    if (!ins || !outs)
        return OC_ERR_NOMEM;
    for (size_t i = 0; i < nin; i++) {
        const oc_tinfo *x = oc_ctx_in(c, i);
        ins[i] = x && x->kind == OC_KIND_SEQUENCE ? x->elem : x;
        if (ins[i] && ins[i]->kind == OC_KIND_NONE)
            ins[i] = NULL;
        ins[i] = formal(ins[i]);
    }
    if ((s = oc_ctx_infer_subgraph(c, g, ins, nin, outs, nout, NULL)) !=
        OC_OK)
        return s;
    for (size_t i = 0; i < nout; i++) {
        oc_tinfo *e = shape_of(c, outs[i]);
        if ((s = oc_out_set(c, i, e ? e->dtype : OC_DT_UNDEFINED, -1,
                            NULL)) != OC_OK)
            return s;
        oc_tinfo *t = oc_ctx_out(c, i);
        if (t) {
            t->kind = OC_KIND_SEQUENCE;
            t->elem = e;
        }
    }
    return OC_OK;
}

/* ---- optionals ---- */

oc_status oc_optional_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_status s = oc_out_set(c, 0, x ? x->dtype : OC_DT_UNDEFINED, -1, NULL);
    oc_tinfo *t = oc_ctx_out(c, 0);
    if (s != OC_OK || !t)
        return s;
    if (!x && !oc_ctx_attr(c, "type"))
        return oc_fail(c, "Optional: neither an input nor a type");
    t->kind = OC_KIND_OPTIONAL;
    t->elem = shape_of(c, x);
    return OC_OK;
}

oc_status oc_optionalgetelement_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (x && x->kind == OC_KIND_OPTIONAL && x->elem)
        return set_out(c, 0, x->elem);
    if (x && x->kind == OC_KIND_OPTIONAL) {
        /* A declared optional<tensor> may carry its element's type and
         * shape on the value itself. */
        if (x->rank < 0 && x->dtype == OC_DT_UNDEFINED)
            return oc_out_set(c, 0, OC_DT_UNDEFINED, -1, NULL);
        return oc_out_set(c, 0, x->dtype, x->rank, x->dims);
    }
    return set_out(c, 0, x); /* opset 18: a plain tensor or sequence */
}

oc_status oc_optionalhaselement_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_status s = oc_out_set(c, 0, OC_DT_BOOL, 0, NULL);
    if (s != OC_OK)
        return s;
    /* Opset 18: omitted is empty; a known plain tensor or a sequence is
     * present. */
    if (oc_ctx_opset(c) < 18)
        return OC_OK;
    if (!x)
        return oc_out_ivals(c, 0, 1, &(oc_dim){0, NULL});
    if ((x->kind == OC_KIND_TENSOR && x->rank >= 0) ||
        x->kind == OC_KIND_SEQUENCE)
        return oc_out_ivals(c, 0, 1, &(oc_dim){1, NULL});
    return OC_OK;
}
