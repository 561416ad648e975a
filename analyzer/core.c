/*
 * core.c - the analysis driver: seeds the inputs and constants, runs each
 * node's shape rule in topological order, then counts bytes, parameters,
 * the operator's own costs and the activation memory peak.
 */
#include "analyzer/analyzer-impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- analysis state ---- */

struct grun;

/* What ran inside one node of a graph run: the subgraphs inferred for it
 * (an If whose condition is unknown: both branches), the last inference
 * of each, which came last, and how many times the operator runs it (-1:
 * unknown). */
typedef struct subrec {
    const struct oc_graph *g[2];
    const struct grun *run[2];
    struct oc_analysis *view[2]; /* made once, by oc_analysis_sub */
    int last;
    int64_t times;
} subrec;

typedef struct grun {
    const oc_graph *g;
    oc_tinfo *info;        /* one per value of g */
    unsigned char *weight; /* oc_weight_kind per value of g */
    const struct grun *parent;
    oc_node_cost *costs;   /* per node of g */
    subrec *subs;          /* per node of g */
} grun;

struct oc_analysis {
    const oc_model *model;
    oc_arena *arena;
    grun main;
    oc_node_cost *costs;
    oc_totals totals;
    oc_warning *warnings;
    size_t n_warnings, cap_warnings;
    const char *assumed;
    int depth;
    bool session_view;
    const oc_input_override *overrides; /* opts's, for oc_analysis_batch */
    size_t n_overrides;
    const struct bindings *binds; /* for declared outputs of unknown ops */
    const oc_analyze_opts *opts;  /* only while the graph runs */
    bool *assume_used;            /* per opts->assumes, while the graph runs */
    char unknown_dims[512];       /* oc_analysis_unknown_dims() */
    const oc_node *unsized;       /* the first main-graph node of an operator
                                     with no shape rule and no declared
                                     output shapes, or NULL */
};

struct oc_op_ctx {
    oc_analysis *a;
    const grun *run;
    const oc_node *node;
    oc_error *err;
    oc_cost *sub; /* subgraph costs, added to the node */
};

static oc_status nomem(oc_analysis *a, oc_error *err)
{
    (void)a;
    return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
}

static void add_warning(oc_analysis *a, const char *node, const char *msg)
{
    /* Identical warnings (one per node of an unknown op) are kept once per
     * node; the list is capped so a hostile model cannot grow it unbounded. */
    if (a->n_warnings >= 10000)
        return;
    if (a->n_warnings == a->cap_warnings) {
        size_t cap = a->cap_warnings ? a->cap_warnings * 2 : 16;
        oc_warning *w = oc_arena_alloc(a->arena, cap * sizeof *w);
        if (!w)
            return;
        if (a->n_warnings)
            memcpy(w, a->warnings, a->n_warnings * sizeof *w);
        a->warnings = w;
        a->cap_warnings = cap;
    }
    const char *n = oc_arena_strdup(a->arena, node ? node : "");
    const char *m = oc_arena_strdup(a->arena, msg);
    if (n && m)
        a->warnings[a->n_warnings++] = (oc_warning){n, m};
}

/* ---- context API ---- */

const oc_node *oc_ctx_node(const oc_op_ctx *c) { return c->node; }
int oc_ctx_opset(const oc_op_ctx *c) { return c->node->opset; }
bool oc_ctx_session_view(const oc_op_ctx *c) { return c->a->session_view; }
size_t oc_ctx_n_in(const oc_op_ctx *c) { return c->node->n_inputs; }
size_t oc_ctx_n_out(const oc_op_ctx *c) { return c->node->n_outputs; }

const oc_tinfo *oc_ctx_in(const oc_op_ctx *c, size_t i)
{
    if (i >= c->node->n_inputs || c->node->inputs[i] < 0)
        return NULL;
    return &c->run->info[c->node->inputs[i]];
}

oc_tinfo *oc_ctx_out(oc_op_ctx *c, size_t i)
{
    if (i >= c->node->n_outputs || c->node->outputs[i] < 0)
        return NULL;
    return &c->run->info[c->node->outputs[i]];
}

const oc_tensor *oc_ctx_in_const(const oc_op_ctx *c, size_t i)
{
    if (i >= c->node->n_inputs || c->node->inputs[i] < 0)
        return NULL;
    return c->run->g->values[c->node->inputs[i]].constant;
}

bool oc_ctx_in_is_weight(const oc_op_ctx *c, size_t i)
{
    if (i >= c->node->n_inputs || c->node->inputs[i] < 0)
        return false;
    return c->run->weight[c->node->inputs[i]] != OC_NOT_WEIGHT;
}

const oc_attr *oc_ctx_attr(const oc_op_ctx *c, const char *name)
{
    return oc_node_attr(c->node, name);
}

int64_t oc_attr_int(const oc_op_ctx *c, const char *name, int64_t def)
{
    const oc_attr *a = oc_ctx_attr(c, name);
    return a && a->type == OC_ATTR_INT ? a->i : def;
}

double oc_attr_float(const oc_op_ctx *c, const char *name, double def)
{
    const oc_attr *a = oc_ctx_attr(c, name);
    if (!a)
        return def;
    if (a->type == OC_ATTR_FLOAT)
        return a->f;
    if (a->type == OC_ATTR_INT)
        return (double)a->i;
    return def;
}

const char *oc_attr_str(const oc_op_ctx *c, const char *name, const char *def)
{
    const oc_attr *a = oc_ctx_attr(c, name);
    return a && a->type == OC_ATTR_STRING && a->s ? a->s : def;
}

const int64_t *oc_attr_ints(const oc_op_ctx *c, const char *name, size_t *n)
{
    const oc_attr *a = oc_ctx_attr(c, name);
    if (!a || a->type != OC_ATTR_INTS) {
        *n = 0;
        return NULL;
    }
    *n = a->n;
    return a->ints;
}

const double *oc_attr_floats(const oc_op_ctx *c, const char *name, size_t *n)
{
    const oc_attr *a = oc_ctx_attr(c, name);
    if (!a || a->type != OC_ATTR_FLOATS) {
        *n = 0;
        return NULL;
    }
    *n = a->n;
    return a->floats;
}

void *oc_ctx_alloc(oc_op_ctx *c, size_t size)
{
    return oc_arena_alloc(c->a->arena, size);
}

oc_status oc_fail(oc_op_ctx *c, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* The prefix names the op: a rule's own "Conv: ..." would say it twice. */
    const char *m = msg;
    size_t n = strlen(c->node->op);
    if (n && !strncmp(m, c->node->op, n) && m[n] == ':' && m[n + 1] == ' ')
        m += n + 2;
    char nb[OC_NAME_SHOWN + 8];
    return oc_error_set(c->err, OC_ERR_INPUT, c->node->name,
                        "%s: node '%s' (%s): %s", oc_model_source(c->a->model),
                        oc_name_shown(c->node->name, nb), c->node->op, m);
}

void oc_warn(oc_op_ctx *c, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    add_warning(c->a, c->node->name, msg);
}

static bool dims_ok(oc_op_ctx *c, int rank, const oc_dim *dims)
{
    for (int i = 0; i < rank; i++)
        if (!dims[i].sym && dims[i].v < -1)
            return false;
    (void)c;
    return true;
}

oc_status oc_out_set(oc_op_ctx *c, size_t i, oc_dtype dt, int rank,
                     const oc_dim *dims)
{
    oc_tinfo *t = oc_ctx_out(c, i);
    if (!t)
        return OC_OK;
    if (rank > OC_MAX_RANK)
        return oc_fail(c, "output %zu would have rank %d (more than %d)", i, rank,
                       OC_MAX_RANK);
    t->kind = OC_KIND_TENSOR;
    t->dtype = dt;
    if (rank < 0 || !dims) {
        t->rank = rank < 0 ? -1 : rank;
        t->dims = NULL;
        if (rank >= 0) {
            /* Never NULL for a known rank, even 0: rules memcpy from it. */
            t->dims = oc_arena_alloc(c->a->arena, ((size_t)rank + 1) * sizeof *t->dims);
            if (!t->dims)
                return nomem(c->a, c->err);
            for (int k = 0; k < rank; k++)
                t->dims[k] = OC_DIM_UNKNOWN;
        }
        return OC_OK;
    }
    if (!dims_ok(c, rank, dims))
        return oc_fail(c, "output %zu would have a negative dimension", i);
    oc_dim *d = oc_arena_alloc(c->a->arena, ((size_t)rank + 1) * sizeof *d);
    if (!d)
        return nomem(c->a, c->err);
    for (int k = 0; k < rank; k++)
        d[k] = dims[k].sym || dims[k].v >= 0 ? dims[k] : OC_DIM_UNKNOWN;
    t->rank = rank;
    t->dims = d;
    return OC_OK;
}

oc_status oc_out_like(oc_op_ctx *c, size_t i, const oc_tinfo *src)
{
    if (!src)
        return oc_out_set(c, i, OC_DT_UNDEFINED, -1, NULL);
    oc_status st = oc_out_set(c, i, src->dtype, src->rank, src->dims);
    oc_tinfo *t = oc_ctx_out(c, i);
    if (!st && t)
        t->kind = src->kind, t->elem = src->elem;
    return st;
}

oc_status oc_out_ivals(oc_op_ctx *c, size_t i, int64_t n, const oc_dim *vals)
{
    oc_tinfo *t = oc_ctx_out(c, i);
    if (!t || n < 0 || n > OC_SMALL_TENSOR)
        return OC_OK;
    oc_dim *v = oc_arena_alloc(c->a->arena, ((size_t)n + 1) * sizeof *v);
    if (!v)
        return nomem(c->a, c->err);
    if (n)
        memcpy(v, vals, (size_t)n * sizeof *v);
    t->ivals = v;
    t->fvals = NULL;
    t->nvals = n;
    return OC_OK;
}

oc_status oc_out_fvals(oc_op_ctx *c, size_t i, int64_t n, const double *vals)
{
    oc_tinfo *t = oc_ctx_out(c, i);
    if (!t || n < 0 || n > OC_SMALL_TENSOR)
        return OC_OK;
    double *v = oc_arena_alloc(c->a->arena, ((size_t)n + 1) * sizeof *v);
    if (!v)
        return nomem(c->a, c->err);
    if (n)
        memcpy(v, vals, (size_t)n * sizeof *v);
    t->fvals = v;
    t->ivals = NULL;
    t->nvals = n;
    return OC_OK;
}

oc_dim oc_dim_mul(oc_op_ctx *c, oc_dim a, oc_dim b) { return oc__dim_mul(c->a->arena, a, b); }
oc_dim oc_dim_add(oc_op_ctx *c, oc_dim a, oc_dim b) { return oc__dim_add(c->a->arena, a, b, 1); }
oc_dim oc_dim_sub(oc_op_ctx *c, oc_dim a, oc_dim b) { return oc__dim_add(c->a->arena, a, b, -1); }
oc_dim oc_dim_div(oc_op_ctx *c, oc_dim a, oc_dim b) { return oc__dim_div(c->a->arena, a, b, false); }
oc_dim oc_dim_ceildiv(oc_op_ctx *c, oc_dim a, oc_dim b) { return oc__dim_div(c->a->arena, a, b, true); }

oc_status oc_broadcast(oc_op_ctx *c, const oc_tinfo *const *ins, size_t n,
                       int *rank, oc_dim *dims)
{
    int r = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ins[i])
            continue;
        if (ins[i]->rank < 0) {
            *rank = -1;
            return OC_OK;
        }
        if (ins[i]->rank > r)
            r = ins[i]->rank;
    }
    if (r > OC_MAX_RANK)
        return oc_fail(c, "rank %d is more than %d", r, OC_MAX_RANK);
    for (int k = 0; k < r; k++) {
        oc_dim out = oc_dim_of(1);
        bool unknown = false;
        for (size_t i = 0; i < n; i++) {
            if (!ins[i])
                continue;
            int off = r - ins[i]->rank;
            if (k < off)
                continue;
            oc_dim d = ins[i]->dims[k - off];
            if (oc_dim_is_known(d) && d.v == 1)
                continue;
            if (oc_dim_is_unknown(d)) {
                unknown = true;
                continue;
            }
            if (oc_dim_is_known(out) && out.v == 1) {
                out = d;
                continue;
            }
            int eq = oc_dim_eq(out, d);
            if (eq == 0)
                return oc_fail(c, "shapes cannot be broadcast: dimension %d is "
                                  "%lld in one input and %lld in another",
                               k, (long long)out.v, (long long)d.v);
            if (eq < 0) {
                /* N against 5: the model says they are equal at run time;
                 * prefer the known number. */
                if (oc_dim_is_known(d))
                    out = d;
            }
        }
        if (unknown && oc_dim_is_known(out) && out.v == 1)
            out = OC_DIM_UNKNOWN;
        dims[k] = out;
    }
    *rank = r;
    return OC_OK;
}

oc_status oc_axis(oc_op_ctx *c, int64_t axis, int rank, int extra, int *out)
{
    int64_t r = (int64_t)rank + extra;
    if (axis < -r || axis >= r)
        return oc_fail(c, "axis %lld is out of range for rank %d", (long long)axis,
                       rank);
    *out = (int)(axis < 0 ? axis + r : axis);
    return OC_OK;
}

oc_status oc_cmul(oc_op_ctx *c, uint64_t a, uint64_t b, uint64_t *out)
{
    if (!oc_mul_u64(a, b, out))
        return oc_error_set(c->err, OC_ERR_OVERFLOW, c->node->name,
                            "%s: node '%s' (%s): work count overflows 64 bits",
                            oc_model_source(c->a->model), c->node->name,
                            c->node->op);
    return OC_OK;
}

oc_status oc_cadd(oc_op_ctx *c, uint64_t a, uint64_t b, uint64_t *out)
{
    if (!oc_add_u64(a, b, out))
        return oc_error_set(c->err, OC_ERR_OVERFLOW, c->node->name,
                            "%s: node '%s' (%s): work count overflows 64 bits",
                            oc_model_source(c->a->model), c->node->name,
                            c->node->op);
    return OC_OK;
}

oc_status oc_cost_per_output(oc_op_ctx *c, oc_cost *out, uint64_t per_elem)
{
    uint64_t n = 0;
    const oc_tinfo *t = oc_ctx_out(c, 0);
    if (!t || !oc_numel(t, &n))
        return OC_OK;
    return oc_cmul(c, n, per_elem, &out->flops);
}

/* ---- seeding ---- */

static void tinfo_init(oc_tinfo *t)
{
    memset(t, 0, sizeof *t);
    t->kind = OC_KIND_TENSOR;
    t->rank = -1;
    t->nvals = -1;
}

static oc_status tinfo_from_const(oc_analysis *a, const oc_tensor *ct, oc_tinfo *t,
                                  oc_error *err)
{
    t->kind = OC_KIND_TENSOR;
    t->dtype = ct->dtype;
    t->rank = ct->rank;
    t->dims = oc_arena_alloc(a->arena, ((size_t)ct->rank + 1) * sizeof *t->dims);
    if (!t->dims)
        return nomem(a, err);
    for (int i = 0; i < ct->rank; i++)
        t->dims[i] = oc_dim_of(ct->dims[i]);
    if (ct->ivals) {
        t->ivals = oc_arena_alloc(a->arena, (ct->numel + 1) * sizeof *t->ivals);
        if (!t->ivals)
            return nomem(a, err);
        for (uint64_t i = 0; i < ct->numel; i++)
            t->ivals[i] = oc_dim_of(ct->ivals[i]);
        t->nvals = (int64_t)ct->numel;
    } else if (ct->fvals) {
        t->fvals = (double *)ct->fvals;
        t->nvals = (int64_t)ct->numel;
    }
    return OC_OK;
}

/* Declared type -> info, with symbol bindings applied. */
typedef struct binding {
    const char *sym;
    int64_t v;
} binding;

typedef struct bindings {
    size_t n;
    binding b[64];
} bindings;

static oc_status tinfo_from_decl(oc_analysis *a, const oc_value *v,
                                 const bindings *bs, oc_tinfo *t, oc_error *err)
{
    t->kind = v->kind == OC_KIND_NONE ? OC_KIND_TENSOR : v->kind;
    if (t->kind == OC_KIND_SEQUENCE || t->kind == OC_KIND_OPTIONAL) {
        /* The declared element (a tensor) becomes the info's elem. */
        oc_tinfo *e = oc_arena_alloc(a->arena, sizeof *e);
        if (!e)
            return nomem(a, err);
        tinfo_init(e);
        oc_value ev = *v;
        ev.kind = OC_KIND_TENSOR;
        oc_status st = tinfo_from_decl(a, &ev, bs, e, err);
        if (st)
            return st;
        t->elem = (v->rank >= 0 || v->dtype) ? e : NULL;
        t->dtype = v->dtype;
        return OC_OK;
    }
    t->dtype = v->dtype;
    t->rank = v->rank;
    if (v->rank < 0)
        return OC_OK;
    t->dims = oc_arena_alloc(a->arena, ((size_t)v->rank + 1) * sizeof *t->dims);
    if (!t->dims)
        return nomem(a, err);
    for (int i = 0; i < v->rank; i++) {
        oc_dim d = v->dims[i];
        for (size_t k = 0; bs && k < bs->n; k++)
            if (d.sym && strcmp(d.sym, bs->b[k].sym) == 0)
                d = oc_dim_of(bs->b[k].v);
        t->dims[i] = d;
    }
    return OC_OK;
}

/* ---- running a graph ---- */

static oc_status run_graph(oc_analysis *a, grun *r, oc_cost *sum, oc_error *err);

static const oc_tinfo *outer_info(const grun *r, const char *name, unsigned char *weight)
{
    for (const grun *p = r->parent; p; p = p->parent) {
        int i = oc_graph_find(p->g, name);
        if (i >= 0 && !p->g->values[i].is_outer) {
            *weight = p->weight[i];
            return &p->info[i];
        }
    }
    return NULL;
}

/* Ops that the runtime folds when every input is a weight (ORT's constant
 * folding, at load): their output is a weight too, derived from the stored
 * ones (a weight's transpose, its square root, a mask built from
 * constants).  Not the random ops, nor control flow. */
static bool folds_weights(const oc_node *n)
{
    static const char *const random[] = {"RandomNormal",     "RandomUniform", "Multinomial",
                                         "RandomNormalLike", "RandomUniformLike",
                                         "Bernoulli"};
    if (n->domain[0])
        return false;
    for (size_t i = 0; i < sizeof random / sizeof random[0]; i++)
        if (!strcmp(n->op, random[i]))
            return false;
    for (size_t i = 0; i < n->n_attrs; i++)
        if (n->attrs[i].type == OC_ATTR_GRAPH || n->attrs[i].type == OC_ATTR_GRAPHS)
            return false;
    return true;
}

/* Which of a node's outputs are weights: a Constant node's value is stored
 * in the model like an initializer; a cheap op of weights derives one. */
static void mark_weights(grun *r, const oc_node *n)
{
    uint64_t numel;
    oc_dtype dt;
    unsigned char kind = OC_NOT_WEIGHT;
    if (oc_node_constant_size(n, &numel, &dt)) {
        kind = OC_WEIGHT_STORED;
    } else if (folds_weights(n) && n->n_inputs > 0 && n->inputs[0] >= 0) {
        kind = OC_WEIGHT_DERIVED;
        for (size_t i = 0; i < n->n_inputs; i++)
            if (n->inputs[i] >= 0 && r->weight[n->inputs[i]] == OC_NOT_WEIGHT)
                kind = OC_NOT_WEIGHT;
    }
    if (kind != OC_NOT_WEIGHT)
        for (size_t i = 0; i < n->n_outputs; i++)
            if (n->outputs[i] >= 0)
                r->weight[n->outputs[i]] = kind;
}

static oc_status grun_init(oc_analysis *a, grun *r, const oc_graph *g,
                           const grun *parent, const bindings *bs, oc_error *err)
{
    r->g = g;
    r->parent = parent;
    r->info = oc_arena_alloc(a->arena, (g->n_values + 1) * sizeof *r->info);
    r->weight = oc_arena_calloc(a->arena, g->n_values + 1, 1);
    r->costs = parent ? oc_arena_calloc(a->arena, g->n_nodes + 1, sizeof *r->costs) : a->costs;
    r->subs = oc_arena_calloc(a->arena, g->n_nodes + 1, sizeof *r->subs);
    if (!r->info || !r->weight || !r->costs || !r->subs)
        return nomem(a, err);
    for (size_t i = 0; i < g->n_nodes; i++)
        r->subs[i].times = -1;
    for (size_t i = 0; i < g->n_values; i++) {
        const oc_value *v = &g->values[i];
        oc_tinfo *t = &r->info[i];
        tinfo_init(t);
        oc_status st = OC_OK;
        if (v->is_initializer)
            r->weight[i] = OC_WEIGHT_STORED;
        if (v->is_outer) {
            const oc_tinfo *o = outer_info(r, v->name, &r->weight[i]);
            if (o)
                *t = *o;
            else
                st = tinfo_from_decl(a, v, bs, t, err);
        } else if (v->constant && v->producer < 0) {
            st = tinfo_from_const(a, v->constant, t, err);
        } else if (v->is_input) {
            st = tinfo_from_decl(a, v, bs, t, err);
        }
        if (st)
            return st;
    }
    return OC_OK;
}

static bool info_complete(const oc_tinfo *t)
{
    return t && t->kind == OC_KIND_TENSOR && oc_tinfo_shape_known(t);
}

static oc_status count_node(oc_analysis *a, const grun *r, const oc_node *n,
                            const oc_op_desc *d, oc_op_ctx *c, oc_node_cost *nc,
                            oc_error *err)
{
    bool known = true;
    /* Shape and Size read their input's dims, not its data: no bytes */
    bool dims_only = d && (d->id == OC_OPID_Shape || d->id == OC_OPID_Size);
    for (size_t i = 0; i < n->n_inputs; i++) {
        if (n->inputs[i] < 0)
            continue;
        const oc_tinfo *t = &r->info[n->inputs[i]];
        uint64_t e, b;
        if (!info_complete(t)) {
            if (t->kind == OC_KIND_TENSOR)
                known = false;
            continue;
        }
        if (!oc_tinfo_numel(t, &e))
            return oc_error_set(err, OC_ERR_OVERFLOW, n->name,
                                "%s: node '%s' (%s): input %zu has more elements "
                                "than 64 bits can count",
                                oc_model_source(a->model), n->name, n->op, i);
        if (!dims_only && (!oc_mul_u64(e, oc_dtype_size(t->dtype), &b) ||
                           !oc_add_u64(nc->bytes_read, b, &nc->bytes_read)))
            return oc_error_set(err, OC_ERR_OVERFLOW, n->name,
                                "%s: node '%s' (%s): byte count overflows 64 bits",
                                oc_model_source(a->model), n->name, n->op);
        int64_t packed = oc_node_packed_weights(n, i);
        if (packed > 0 && (uint64_t)packed > e)
            e = (uint64_t)packed;
        if (r->weight[n->inputs[i]] != OC_NOT_WEIGHT &&
            !oc_add_u64(nc->params, e, &nc->params))
            return oc_error_set(err, OC_ERR_OVERFLOW, n->name,
                                "%s: node '%s' (%s): parameter count overflows 64 bits",
                                oc_model_source(a->model), n->name, n->op);
    }
    for (size_t i = 0; i < n->n_outputs; i++) {
        if (n->outputs[i] < 0)
            continue;
        const oc_tinfo *t = &r->info[n->outputs[i]];
        uint64_t e, b;
        if (!info_complete(t)) {
            if (t->kind == OC_KIND_TENSOR)
                known = false;
            continue;
        }
        if (!oc_tinfo_numel(t, &e))
            return oc_error_set(err, OC_ERR_OVERFLOW, n->name,
                                "%s: node '%s' (%s): output %zu has more elements "
                                "than 64 bits can count",
                                oc_model_source(a->model), n->name, n->op, i);
        if (!oc_mul_u64(e, oc_dtype_size(t->dtype), &b) ||
            !oc_add_u64(nc->bytes_written, b, &nc->bytes_written))
            return oc_error_set(err, OC_ERR_OVERFLOW, n->name,
                                "%s: node '%s' (%s): byte count overflows 64 bits",
                                oc_model_source(a->model), n->name, n->op);
    }
    nc->shapes_known = known;
    if (d && d->cost && known) {
        oc_cost cost = {0, 0};
        oc_status st = d->cost(c, &cost);
        if (st)
            return st;
        nc->macs += cost.macs;
        nc->flops += cost.flops;
    }
    return OC_OK;
}

/* The dims node n's shape rule left unknown although its inputs' shapes are
 * known (data-dependent sizes) are named "VALUE:DIM": those an assumption
 * names take its value, the others of the main graph are listed in
 * a->unknown_dims. */
static void assume_dims(oc_analysis *a, grun *r, const oc_node *n)
{
    const oc_analyze_opts *o = a->opts;
    bool origin = true;
    for (size_t i = 0; i < n->n_inputs; i++)
        if (n->inputs[i] >= 0 && r->info[n->inputs[i]].kind == OC_KIND_TENSOR &&
            !info_complete(&r->info[n->inputs[i]]))
            origin = false;
    for (size_t i = 0; i < n->n_outputs; i++) {
        if (n->outputs[i] < 0)
            continue;
        oc_tinfo *t = &r->info[n->outputs[i]];
        if (t->kind != OC_KIND_TENSOR || !t->dims)
            continue;
        for (int d = 0; d < t->rank; d++) {
            if (!oc_dim_is_unknown(t->dims[d]))
                continue;
            char name[300];
            oc_unknown_dim_name(r->g->values[n->outputs[i]].name, d, name, sizeof name);
            size_t k = 0;
            while (o && k < o->n_assumes && strcmp(o->assumes[k].name, name))
                k++;
            if (o && k < o->n_assumes) {
                t->dims[d] = oc_dim_of(o->assumes[k].value);
                a->assume_used[k] = true;
            } else if (origin && r == &a->main) {
                /* each output of the main graph is visited once: no repeats */
                size_t l = strlen(a->unknown_dims);
                if (l + strlen(name) + 2 < sizeof a->unknown_dims)
                    snprintf(a->unknown_dims + l, sizeof a->unknown_dims - l, "%s%s",
                             l ? "," : "", name);
            }
        }
    }
}

/* Node n's outputs whose elements the options give (known_ints). */
static oc_status given_ints(oc_analysis *a, grun *r, const oc_node *n, oc_error *err)
{
    for (size_t i = 0; i < n->n_outputs; i++)
        for (size_t k = 0; k < a->opts->n_known_ints; k++) {
            const oc_value_ints *w = &a->opts->known_ints[k];
            if (n->outputs[i] < 0 || w->v != n->outputs[i] || w->n < 0 || w->n > 64)
                continue;
            oc_dim *iv = oc_arena_alloc(a->arena, ((size_t)w->n + 1) * sizeof *iv);
            if (!iv)
                return nomem(a, err);
            for (int64_t q = 0; q < w->n; q++)
                iv[q] = (oc_dim){w->vals[q], NULL};
            r->info[w->v].nvals = w->n;
            r->info[w->v].ivals = iv;
            r->info[w->v].fvals = NULL;
        }
    return OC_OK;
}

static oc_status run_graph(oc_analysis *a, grun *r, oc_cost *sum, oc_error *err)
{
    const oc_graph *g = r->g;
    if (++a->depth > 600)
        return oc_error_set(err, OC_ERR_INPUT, NULL, "%s: subgraphs nested too deep",
                            oc_model_source(a->model));
    for (size_t k = 0; k < g->n_nodes; k++) {
        size_t ni = (size_t)g->topo[k];
        const oc_node *n = &g->nodes[ni];
        const oc_op_desc *d = oc_op_lookup(n->domain, n->op);
        oc_cost sub = {0, 0};
        oc_op_ctx c = {a, r, n, err, &sub};
        oc_node_cost *nc = &r->costs[ni];
        memset(nc, 0, sizeof *nc);
        nc->op = d ? d->id : OC_OPID_UNKNOWN;
        if (!d) {
            /* no shape rule: the outputs are what the model declares
             * (value_info), if it does */
            bool declared = true;
            for (size_t i = 0; i < n->n_outputs; i++)
                if (n->outputs[i] >= 0) {
                    oc_status st = tinfo_from_decl(a, &g->values[n->outputs[i]],
                                                   r == &a->main ? a->binds : NULL,
                                                   &r->info[n->outputs[i]], err);
                    if (st)
                        return st;
                    declared &= info_complete(&r->info[n->outputs[i]]);
                }
            char msg[240];
            snprintf(msg, sizeof msg, "unsupported operator %s%s%s: %s", n->domain,
                     n->domain[0] ? "." : "", n->op,
                     declared ? "its outputs' shapes are those the model declares"
                              : "its outputs are unknown (declare their shapes in the "
                                "model's value_info to size what reads them)");
            add_warning(a, n->name, msg);
            if (!declared && r == &a->main && !a->unsized)
                a->unsized = n;
            nc->supported = false;
        } else {
            nc->supported = true;
            oc_status st = d->infer(&c);
            if (st) {
                if (err && !err->msg[0])
                    oc_fail(&c, "shape inference failed");
                return st;
            }
        }
        if (d)
            assume_dims(a, r, n);
        if (r == &a->main && a->opts && a->opts->n_known_ints) {
            oc_status st = given_ints(a, r, n, err);
            if (st)
                return st;
        }
        mark_weights(r, n);
        oc_status st = count_node(a, r, n, d, &c, nc, err);
        if (st)
            return st;
        nc->macs += sub.macs;
        nc->flops += sub.flops;
        if (sum) {
            if (!oc_add_u64(sum->macs, nc->macs, &sum->macs) ||
                !oc_add_u64(sum->flops, nc->flops, &sum->flops))
                return oc_error_set(err, OC_ERR_OVERFLOW, n->name,
                                    "%s: work count overflows 64 bits",
                                    oc_model_source(a->model));
        }
    }
    a->depth--;
    return OC_OK;
}

oc_status oc_ctx_infer_subgraph(oc_op_ctx *c, const struct oc_graph *g,
                                const oc_tinfo *const *ins, size_t n_in,
                                const oc_tinfo **outs, size_t n_out,
                                oc_cost *cost)
{
    oc_analysis *a = c->a;
    grun *r = oc_arena_alloc(a->arena, sizeof *r);
    if (!r)
        return nomem(a, c->err);
    oc_status st = grun_init(a, r, g, c->run, NULL, c->err);
    if (st)
        return st;
    for (size_t i = 0; i < g->n_inputs && i < n_in; i++)
        if (ins[i])
            r->info[g->inputs[i]] = *ins[i];
    oc_cost sum = {0, 0};
    if ((st = run_graph(a, r, &sum, c->err)))
        return st;
    for (size_t i = 0; i < n_out; i++)
        outs[i] = i < g->n_outputs ? &r->info[g->outputs[i]] : NULL;
    subrec *rec = &c->run->subs[c->node - c->run->g->nodes];
    int k = rec->g[0] == g || !rec->g[0] ? 0 : 1;
    if (!rec->g[k] || rec->g[k] == g) {
        rec->g[k] = g;
        rec->run[k] = r;
        rec->last = k;
    }
    if (c->sub) {
        c->sub->macs += sum.macs;
        c->sub->flops += sum.flops;
    }
    if (cost) {
        cost->macs += sum.macs;
        cost->flops += sum.flops;
    }
    return OC_OK;
}

void oc_ctx_set_trips(oc_op_ctx *c, int64_t times)
{
    c->run->subs[c->node - c->run->g->nodes].times = times;
}

/* ---- the whole analysis ---- */

/* A symbol as a binding can name it: a plain name, not a product ("L*N")
 * or an opaque expression ("(L+1)"). */
static bool plain_sym(oc_dim d)
{
    return d.sym && d.v == 1 && d.sym[0] != '(' && !strchr(d.sym, '*');
}

/* Appends s to the comma-separated list buf unless it is there. */
static void list_add(char *buf, size_t size, const char *s)
{
    size_t l = strlen(s);
    for (const char *hit = strstr(buf, s); hit; hit = strstr(hit + 1, s))
        if ((hit == buf || (hit >= buf + 2 && hit[-2] == ',' && hit[-1] == ' ')) &&
            (hit[l] == ',' || !hit[l]))
            return;
    size_t n = strlen(buf);
    if (n + l + 3 < size)
        snprintf(buf + n, size - n, "%s%s", n ? ", " : "", s);
    else if (n + 5 < size && !strstr(buf, ", ..."))
        snprintf(buf + n, size - n, ", ...");
}

/* The symbolic dims the main graph declares (inputs first), for messages. */
static void declared_syms(const oc_graph *g, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < g->n_values; k++) {
            const oc_value *v = &g->values[k];
            if ((pass == 0) != v->is_input)
                continue;
            for (int d = 0; d < v->rank; d++)
                if (plain_sym(v->dims[d]))
                    list_add(buf, size, v->dims[d].sym);
        }
}

static bool declares_sym(const oc_graph *g, const char *name)
{
    for (size_t k = 0; k < g->n_values; k++)
        for (int d = 0; d < g->values[k].rank; d++)
            if (plain_sym(g->values[k].dims[d]) && !strcmp(g->values[k].dims[d].sym, name))
                return true;
    return false;
}

static const binding *find_binding(const bindings *bs, const char *sym)
{
    for (size_t q = 0; q < bs->n; q++)
        if (strcmp(bs->b[q].sym, sym) == 0)
            return &bs->b[q];
    return NULL;
}

/* One operand of a dim named as arithmetic: an integer, or a bound
 * symbol; *p moves past it and the spaces after it. */
static bool operand(const char **p, const bindings *bs, int64_t *v)
{
    const char *s = *p;
    size_t l = 0;
    while (s[l] == '_' || (s[l] >= '0' && s[l] <= '9') || (s[l] >= 'a' && s[l] <= 'z') ||
           (s[l] >= 'A' && s[l] <= 'Z'))
        l++;
    if (!l || l > 127)
        return false;
    char name[128];
    memcpy(name, s, l);
    name[l] = '\0';
    *p = s + l;
    while (**p == ' ')
        (*p)++;
    if (name[0] >= '0' && name[0] <= '9') {
        char *end;
        long long n = strtoll(name, &end, 10);
        *v = n;
        return !*end;
    }
    const binding *b = find_binding(bs, name);
    if (b)
        *v = b->v;
    return b != NULL;
}

/* Dims that exporters name after the dims they are computed from
 * ("past_sequence_length + sequence_length" in an optimum decoder's
 * attention mask) take that value once every dim they name is bound:
 * A + B, A - B or A * B of names and integers, left unbound otherwise. */
static void derive_bindings(const oc_graph *g, bindings *bs)
{
    for (size_t k = 0; k < g->n_values && bs->n < 64; k++)
        for (int d = 0; d < g->values[k].rank && bs->n < 64; d++) {
            const oc_dim *dm = &g->values[k].dims[d];
            if (!dm->sym || dm->v != 1 || find_binding(bs, dm->sym))
                continue;
            const char *p = dm->sym;
            int64_t x, y, r;
            if (!operand(&p, bs, &x))
                continue;
            char op = *p;
            if (op != '+' && op != '-' && op != '*')
                continue;
            p++;
            while (*p == ' ')
                p++;
            if (!operand(&p, bs, &y) || *p)
                continue;
            bool ok = op == '+'   ? oc_add_i64(x, y, &r)
                      : op == '-' ? oc_add_i64(x, -y, &r)
                                  : oc_mul_i64(x, y, &r);
            if (ok && r >= 0)
                bs->b[bs->n++] = (binding){dm->sym, r};
        }
}

static oc_status apply_inputs(oc_analysis *a, const oc_analyze_opts *o,
                              bindings *bs, oc_error *err)
{
    const oc_graph *g = a->main.g;
    const char *src = oc_model_source(a->model);
    char have[400];
    /* --dim NAME=VALUE first: an explicit binding wins. */
    for (size_t k = 0; o && k < o->n_dims; k++) {
        const oc_dim_binding *db = &o->dims[k];
        if (!db->name || !declares_sym(g, db->name)) {
            declared_syms(g, have, sizeof have);
            return oc_error_set(err, OC_ERR_USAGE, NULL,
                                "%s: --dim %s: the model has no symbolic dim of that name "
                                "(%s%s)",
                                src, db->name ? db->name : "", have[0] ? "it has: " : "",
                                have[0] ? have : "all its dims are numbers");
        }
        if (db->value < 0)
            return oc_error_set(err, OC_ERR_USAGE, NULL, "--dim %s: negative value",
                                db->name);
        const binding *b = find_binding(bs, db->name);
        if (b && b->v != db->value)
            return oc_error_set(err, OC_ERR_USAGE, NULL,
                                "--dim %s is given twice (%lld and %lld)", db->name,
                                (long long)b->v, (long long)db->value);
        if (!b && bs->n < 64)
            bs->b[bs->n++] = (binding){db->name, db->value};
    }
    for (size_t k = 0; o && k < o->n_overrides; k++) {
        const oc_input_override *ov = &o->overrides[k];
        int vi = oc_graph_find(g, ov->name);
        if (vi < 0 || !g->values[vi].is_input) {
            have[0] = '\0';
            for (size_t q = 0; q < g->n_inputs; q++)
                list_add(have, sizeof have, g->values[g->inputs[q]].name);
            return oc_error_set(err, OC_ERR_USAGE, NULL,
                                "%s: --input %s: the model has no input of that name "
                                "(%s%s)",
                                src, ov->name, have[0] ? "its inputs: " : "it has no inputs",
                                have);
        }
        if (ov->rank < 0 || ov->rank > OC_MAX_RANK)
            return oc_error_set(err, OC_ERR_USAGE, NULL, "--input %s: bad rank",
                                ov->name);
        const oc_value *v = &g->values[vi];
        if (v->rank >= 0 && v->rank != ov->rank)
            return oc_error_set(err, OC_ERR_USAGE, NULL,
                                "%s: --input %s has rank %d but the model declares "
                                "rank %d",
                                src, ov->name, ov->rank, v->rank);
        for (int d = 0; d < ov->rank; d++) {
            if (ov->dims[d] < 0)
                return oc_error_set(err, OC_ERR_USAGE, NULL,
                                    "--input %s: negative dimension", ov->name);
            /* The same symbol elsewhere takes the same value. */
            if (v->rank >= 0 && plain_sym(v->dims[d])) {
                const binding *b = find_binding(bs, v->dims[d].sym);
                if (b && b->v != ov->dims[d])
                    return oc_error_set(err, OC_ERR_USAGE, NULL,
                                        "--input %s: dim %d is %s, already bound to %lld; "
                                        "it cannot also be %lld",
                                        ov->name, d, v->dims[d].sym, (long long)b->v,
                                        (long long)ov->dims[d]);
                if (!b && bs->n < 64)
                    bs->b[bs->n++] = (binding){v->dims[d].sym, ov->dims[d]};
            }
        }
    }
    if (o && o->batch > 0) {
        for (size_t k = 0; k < g->n_inputs; k++) {
            const oc_value *v = &g->values[g->inputs[k]];
            if (v->rank > 0 && plain_sym(v->dims[0]) && bs->n < 64 &&
                !find_binding(bs, v->dims[0].sym))
                bs->b[bs->n++] = (binding){v->dims[0].sym, o->batch};
        }
    }
    derive_bindings(g, bs);
    return OC_OK;
}

static void apply_overrides(oc_analysis *a, const oc_analyze_opts *o)
{
    const oc_graph *g = a->main.g;
    for (size_t k = 0; o && k < o->n_overrides; k++) {
        const oc_input_override *ov = &o->overrides[k];
        int vi = oc_graph_find(g, ov->name);
        oc_tinfo *t = &a->main.info[vi];
        t->rank = ov->rank;
        t->dims = oc_arena_alloc(a->arena, ((size_t)ov->rank + 1) * sizeof *t->dims);
        if (!t->dims)
            continue;
        for (int d = 0; d < ov->rank; d++)
            t->dims[d] = oc_dim_of(ov->dims[d]);
    }
}

static oc_status totals(oc_analysis *a, oc_error *err)
{
    const oc_graph *g = a->main.g;
    oc_totals *t = &a->totals;
    const char *src = oc_model_source(a->model);
    t->nodes = g->n_nodes;
    /* Weights wherever stored: initializers and Constant nodes, each once. */
    t->params = oc_model_param_count(a->model);
    t->weight_bytes = oc_model_weight_bytes(a->model);
    for (size_t i = 0; i < g->n_nodes; i++) {
        const oc_node_cost *c = &a->costs[i];
        if (!oc_add_u64(t->macs, c->macs, &t->macs) ||
            !oc_add_u64(t->flops, c->flops, &t->flops) ||
            !oc_add_u64(t->bytes_read, c->bytes_read, &t->bytes_read) ||
            !oc_add_u64(t->bytes_written, c->bytes_written, &t->bytes_written))
            return oc_error_set(err, OC_ERR_OVERFLOW, NULL,
                                "%s: model totals overflow 64 bits", src);
        if (!c->supported)
            t->unsupported_nodes++;
        const oc_node *n = &g->nodes[i];
        for (size_t k = 0; k < n->n_outputs; k++)
            if (n->outputs[k] >= 0 && a->main.info[n->outputs[k]].kind == OC_KIND_TENSOR &&
                !oc_tinfo_shape_known(&a->main.info[n->outputs[k]])) {
                t->unknown_shape_nodes++;
                break;
            }
    }
    /* Activation liveness over the topological order. */
    size_t nv = g->n_values;
    int *last = malloc((nv + 1) * sizeof *last);
    uint64_t *bytes = calloc(nv + 1, sizeof *bytes);
    if (!last || !bytes) {
        free(last);
        free(bytes);
        return nomem(a, err);
    }
    for (size_t v = 0; v < nv; v++) {
        last[v] = -1;
        const oc_value *val = &g->values[v];
        uint64_t e;
        /* weights (a Constant's value, a folded copy of a weight) are
         * counted in weight_bytes, not as activations */
        if ((val->is_input || val->producer >= 0) && a->main.weight[v] == OC_NOT_WEIGHT &&
            oc_tinfo_numel(&a->main.info[v], &e))
            oc_mul_u64(e, oc_dtype_size(a->main.info[v].dtype), &bytes[v]);
        if (val->is_output)
            last[v] = (int)g->n_nodes;
    }
    for (size_t k = 0; k < g->n_nodes; k++) {
        const oc_node *n = &g->nodes[g->topo[k]];
        for (size_t i = 0; i < n->n_inputs; i++)
            if (n->inputs[i] >= 0 && last[n->inputs[i]] < (int)k)
                last[n->inputs[i]] = (int)k;
        for (size_t i = 0; i < n->n_attrs; i++) (void)0;
    }
    uint64_t live = 0, peak = 0;
    for (size_t k = 0; k < g->n_inputs; k++)
        live += bytes[g->inputs[k]];
    peak = live;
    for (size_t k = 0; k < g->n_nodes; k++) {
        const oc_node *n = &g->nodes[g->topo[k]];
        for (size_t i = 0; i < n->n_outputs; i++)
            if (n->outputs[i] >= 0)
                live += bytes[n->outputs[i]];
        if (live > peak)
            peak = live;
        for (size_t i = 0; i < n->n_inputs; i++) {
            int v = n->inputs[i];
            if (v >= 0 && last[v] == (int)k && bytes[v]) {
                live -= bytes[v];
                bytes[v] = 0; /* an input read twice is freed once */
            }
        }
        for (size_t i = 0; i < n->n_outputs; i++) {
            int v = n->outputs[i];
            if (v >= 0 && last[v] < 0 && bytes[v]) { /* never read */
                live -= bytes[v];
                bytes[v] = 0;
            }
        }
    }
    t->peak_activation_bytes = peak;
    free(last);
    free(bytes);
    return OC_OK;
}

oc_status oc_analyze(const oc_model *m, const oc_analyze_opts *opts,
                     oc_analysis **out, oc_error *err)
{
    *out = NULL;
    oc_analysis *a = calloc(1, sizeof *a);
    if (!a)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    a->model = m;
    a->arena = oc_arena_new();
    const oc_graph *g = oc_model_graph(m);
    a->costs = a->arena ? oc_arena_calloc(a->arena, g->n_nodes + 1, sizeof *a->costs) : NULL;
    if (!a->costs) {
        oc_analysis_free(a);
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    }
    a->main.g = g;
    a->session_view = opts && opts->session_view;
    /* copied: the caller's opts need not outlive the analysis */
    if (opts && opts->n_overrides) {
        oc_input_override *ov = oc_arena_alloc(a->arena, opts->n_overrides * sizeof *ov);
        if (!ov) {
            oc_analysis_free(a);
            return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        }
        memcpy(ov, opts->overrides, opts->n_overrides * sizeof *ov);
        a->overrides = ov;
        a->n_overrides = opts->n_overrides;
    }
    bindings bs = {0};
    a->binds = &bs; /* only while the graph runs */
    a->opts = opts;
    bool used[64] = {false};
    a->assume_used = used;
    oc_status st = opts && opts->n_assumes > 64
                       ? oc_error_set(err, OC_ERR_USAGE, NULL, "at most 64 assumptions")
                       : apply_inputs(a, opts, &bs, err);
    if (!st)
        st = grun_init(a, &a->main, g, NULL, &bs, err);
    if (!st) {
        apply_overrides(a, opts);
        st = run_graph(a, &a->main, NULL, err);
    }
    a->binds = NULL;
    a->opts = NULL;
    a->assume_used = NULL;
    /* An assumption must name a dim left unknown (checked on the model's
     * own view: a runtime's session view knows less and names more). */
    for (size_t k = 0; !st && !a->session_view && opts && k < opts->n_assumes; k++) {
        if (used[k])
            continue;
        if (!a->unknown_dims[0] && a->unsized)
            st = oc_error_set(err, OC_ERR_USAGE, NULL,
                              "%s: --assume %s: no data-dependent dim is left unknown; node "
                              "'%s' (%s%s%s) has no shape rule, and --assume cannot size it: "
                              "declare its outputs' shapes in the model's value_info",
                              oc_model_source(m), opts->assumes[k].name, a->unsized->name,
                              a->unsized->domain, a->unsized->domain[0] ? "." : "",
                              a->unsized->op);
        else
            st = oc_error_set(err, OC_ERR_USAGE, NULL,
                              "%s: --assume %s: no dim of that name is left unknown (%s%s)",
                              oc_model_source(m), opts->assumes[k].name,
                              a->unknown_dims[0] ? "unknown: " : "",
                              a->unknown_dims[0] ? a->unknown_dims
                                                 : "every dim is known from shapes");
    }
    if (!st)
        st = totals(a, err);
    if (st) {
        oc_analysis_free(a);
        return st;
    }
    /* Which symbols remain (costed as 1). */
    char buf[512] = "";
    for (size_t v = 0; v < g->n_values; v++) {
        const oc_tinfo *t = &a->main.info[v];
        for (int d = 0; d < t->rank; d++) {
            const char *s = t->dims[d].sym;
            if (!s || s[0] == '(' || strchr(s, '*'))
                continue;
            size_t l = strlen(s);
            const char *hit = strstr(buf, s);
            bool dup = false;
            while (hit) {
                if ((hit == buf || hit[-1] == ',') && (hit[l] == ',' || !hit[l]))
                    dup = true;
                hit = strstr(hit + 1, s);
            }
            if (!dup && strlen(buf) + l + 2 < sizeof buf) {
                if (buf[0])
                    strcat(buf, ",");
                strcat(buf, s);
            }
        }
    }
    a->assumed = oc_arena_strdup(a->arena, buf);
    *out = a;
    return OC_OK;
}

void oc_analysis_free(oc_analysis *a)
{
    if (!a)
        return;
    oc_arena_free(a->arena);
    free(a);
}

const oc_model *oc_analysis_model(const oc_analysis *a) { return a->model; }
const oc_tinfo *oc_analysis_value(const oc_analysis *a, int v)
{
    return v >= 0 && (size_t)v < a->main.g->n_values ? &a->main.info[v] : NULL;
}
const oc_node_cost *oc_analysis_node_cost(const oc_analysis *a, size_t node)
{
    return node < a->main.g->n_nodes ? &a->costs[node] : NULL;
}
const oc_totals *oc_analysis_totals(const oc_analysis *a) { return &a->totals; }
const oc_graph *oc_analysis_graph(const oc_analysis *a) { return a->main.g; }

/* The view of subgraph run k of node `node`, made once. */
static const oc_analysis *sub_view(const oc_analysis *a, size_t node, int k)
{
    subrec *rec = &a->main.subs[node];
    if (!rec->view[k]) {
        oc_analysis *v = oc_arena_alloc(a->arena, sizeof *v);
        if (!v)
            return NULL;
        *v = *a;
        v->main = *rec->run[k];
        v->costs = rec->run[k]->costs;
        rec->view[k] = v;
    }
    return rec->view[k];
}

const oc_analysis *oc_analysis_sub(const oc_analysis *a, size_t node, int64_t *times)
{
    if (times)
        *times = -1;
    if (node >= a->main.g->n_nodes)
        return NULL;
    const subrec *rec = &a->main.subs[node];
    if (!rec->run[0] || rec->g[1] || rec->times < 0)
        return NULL;
    if (times)
        *times = rec->times;
    return sub_view(a, node, 0);
}

const oc_analysis *oc_analysis_sub_graph(const oc_analysis *a, size_t node, const oc_graph *g)
{
    if (node >= a->main.g->n_nodes)
        return NULL;
    const subrec *rec = &a->main.subs[node];
    for (int k = 0; k < 2; k++)
        if (rec->g[k] && rec->g[k] == g)
            return sub_view(a, node, k);
    return NULL;
}

oc_weight_kind oc_analysis_weight(const oc_analysis *a, int v)
{
    return v >= 0 && (size_t)v < a->main.g->n_values ? (oc_weight_kind)a->main.weight[v]
                                                       : OC_NOT_WEIGHT;
}
size_t oc_analysis_n_warnings(const oc_analysis *a) { return a->n_warnings; }
const oc_warning *oc_analysis_warning(const oc_analysis *a, size_t i)
{
    return i < a->n_warnings ? &a->warnings[i] : NULL;
}
const char *oc_analysis_assumed(const oc_analysis *a)
{
    return a->assumed ? a->assumed : "";
}
const char *oc_analysis_unknown_dims(const oc_analysis *a) { return a->unknown_dims; }
void oc_unknown_dim_name(const char *value, int d, char *buf, size_t size)
{
    snprintf(buf, size, "%s:%d", value, d);
}

int64_t oc_analysis_batch(const oc_analysis *a)
{
    const oc_graph *g = a->main.g;
    for (size_t k = 0; k < g->n_inputs; k++) {
        const oc_value *v = &g->values[g->inputs[k]];
        const oc_tinfo *t = &a->main.info[g->inputs[k]];
        if (v->rank > 0 && plain_sym(v->dims[0]) && t->rank > 0 &&
            !oc_dim_is_unknown(t->dims[0]))
            return t->dims[0].v; /* bound, or 1 for the symbol costed as 1 */
    }
    for (size_t k = 0; k < a->n_overrides; k++)
        if (a->overrides[k].rank > 0)
            return a->overrides[k].dims[0];
    return 1;
}
