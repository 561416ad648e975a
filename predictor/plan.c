/*
 * plan.c - the kernels a runtime runs for a graph (see plan.h, docs/plan.md).
 *
 * Three passes over the nodes in topological order, the way ORT's levels
 * run: (1) what disappears - folding, eliminations, duplicates, Reshape
 * shapes; (2) fusions of the basic and extended levels; (3) the NCHWc
 * layout of the layout level, which inserts reorder kernels.  Values that
 * a removed node passed through are aliased to the value it passed.
 */
#include "predictor/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A permutation of at most TP_MAX axes; r == 0 is the identity. */
enum { TP_MAX = 8 };
typedef struct tperm {
    unsigned char r;
    signed char v[TP_MAX];
} tperm;

/* A transpose kernel the transpose optimizer leaves: it reads buffer
 * `buf` and permutes it by `perm`. */
typedef struct tkernel {
    tperm perm;
    int buf;
    int next;      /* next kernel on the same buffer, or -1 */
    int node;      /* the Transpose node it is, or -1 */
    int ins;       /* else its index in ins */
    int readers;   /* input slots (and graph outputs) that read it */
} tkernel;

typedef struct inserted {
    oc_kernel k;
    size_t at;     /* node the kernel runs next to */
    bool before;   /* before `at` (ReorderInput) or after it */
} inserted;

typedef struct pctx {
    const oc_analysis *a, *s;
    /* the targets ReshapeFusion made constant, for inferring the session
     * view again (reinfer); *own_s: that view, when one was made */
    oc_value_ints *fused_t;
    size_t n_fused_t;
    bool may_reinfer;
    oc_analysis **own_s;
    const oc_graph *g;
    oc_arena *ar;
    size_t nv, nn;
    int block;
    int *alias;        /* per value: the value it stands for */
    int *canon;        /* per value: one id for equal one-element constants */
    bool *constant;    /* per value: known at session creation */
    const bool *outer; /* per value of a kept subgraph: an outer scope's
                          constant (NULL: none) */
    bool *rankless;    /* per value: no shape in ORT's load-time inference */
    bool *shape_data;  /* per value: contents known to its data propagation */
    oc_tinfo **lost;   /* per value: its shape as ORT's load-time inference
                          has it, where that knows fewer dims than ours (a
                          copy with those dims unknown); NULL: as ours */
    int *uses;         /* per value: input slots of live nodes, + graph output */
    int *cons_start;   /* per value: consumers (live nodes, aliased inputs) */
    int *cons;
    oc_kernel *nk;     /* per node: the kernel it is the main node of */
    int *owner;        /* per node: the main node of the kernel it is in */
    size_t *rank;      /* per node: position in topological order */
    /* NCHWc state per value: producer kernel of the blocked tensor (node),
     * -1 when the value is not blocked */
    int *nchwc;
    int *nchwc_left;   /* original uses not yet converted */
    int *bsrc;         /* the value whose dim 0 a blocked value's NCHWc
                          shape carries (nchwc_transformer.cc's
                          NchwcArgument::Shape: equal dims by derivation) */
    int64_t *nchwc_ch; /* logical channels */
    int *reordered;    /* per value: node of its ReorderInput, or -1 */
    bool *blocked;     /* per node: runs in the NCHWc layout */
    unsigned char *flags; /* per node: F_ACT, F_SUM of its kernel */
    inserted *ins;
    size_t n_ins, cap_ins;
    /* transpose optimizer: the logical value v is Transpose(buffer of
     * value buf[v], tp[v]); a node pushed through runs in layout lay[n]
     * for the inputs in tslots[n] */
    tperm *tp;
    int *buf;
    tperm *lay;
    uint32_t *tslots;
    bool *lead;        /* per value: leads to a Transpose through handlers */
    bool *norank;      /* per value: ORT's shape inference has no rank */
    int *tk_head;      /* per value: first transpose kernel on it, or -1 */
    tkernel *tk;
    size_t n_tk, cap_tk;
} pctx;

enum {
    F_ACT = 1,
    F_SUM = 2,
    F_TMERGED = 4,  /* a Transpose the optimizer took over */
    F_AS_RESHAPE = 8, /* merged with the Reshape before it into one Reshape */
    F_QUNIT = 16,   /* a quantized group's kernel (or an op whose QDQ went) */
    F_MMT = 32,     /* a Transpose every reader of which, a MatMul, took in */
    F_PUSHED = 64,  /* a Transpose another one was pushed into (split_transposed):
                       no MatMul takes it in */
    F_MMS = 128     /* a scale (Mul or Div by a scalar) every reader of which,
                       a MatMul, took in */
};

/* The rounds in which ORT applies its level-1 rewrites, shapes inferred
 * again after each (session option max_num_graph_transformation_steps,
 * default 10). */
enum { OC_ORT_ROUNDS = 10 };

/* ---- small helpers ---- */

/* Node n (of the main graph) is operator `id` of the default domain
 * (written ""; "ai.onnx" is not matched, as the runtime's fusions do not). */
static bool is_op(const pctx *p, const oc_node *n, oc_op_id id)
{
    return n->domain[0] == '\0' &&
           oc_analysis_node_cost(p->a, (size_t)(n - p->g->nodes))->op == id;
}

static const char *const ort_kernel_names[] = {
#define OC_KERNEL(name) #name,
#include "predictor/kernels.def"
#undef OC_KERNEL
};

const char *oc_kernel_id_name(int kid)
{
    if (kid > OC_KID_BEFORE_ && kid < OC_KID_COUNT)
        return ort_kernel_names[kid - OC_KID_BEFORE_ - 1];
    return kid > OC_OPID_UNKNOWN && kid < OC_OPID_COUNT ? oc_op_id_name((oc_op_id)kid) : NULL;
}

/* The kernel becomes kernel `kid`, named as the profiler names it. */
static void set_kernel(oc_kernel *k, int kid)
{
    k->kid = kid;
    k->op = oc_kernel_id_name(kid);
}

static int A(const pctx *p, int v)
{
    while (v >= 0 && p->alias[v] != v)
        v = p->alias[v];
    return v;
}

static int in(const pctx *p, size_t i, size_t k)
{
    const oc_node *n = &p->g->nodes[i];
    return k < n->n_inputs ? A(p, n->inputs[k]) : -1;
}

static int out0(const pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    return n->n_outputs > 0 ? n->outputs[0] : -1;
}

static bool live(const pctx *p, size_t i)
{
    return p->owner[i] == (int)i && p->nk[i].kind == OC_KERNEL_RUN;
}

static const oc_tinfo *sinfo(const pctx *p, int v)
{
    return v >= 0 ? oc_analysis_value(p->s, v) : NULL;
}

static const oc_tinfo *ainfo(const pctx *p, int v)
{
    return v >= 0 ? oc_analysis_value(p->a, v) : NULL;
}

static bool dims_concrete(const oc_tinfo *t, int lo, int hi)
{
    if (!t || t->rank < 0 || !t->dims)
        return t && t->rank == 0;
    for (int d = lo < 0 ? 0 : lo; d < hi && d < t->rank; d++)
        if (!oc_dim_is_known(t->dims[d]))
            return false;
    return true;
}

static bool dim_eq(oc_dim x, oc_dim y)
{
    if (oc_dim_is_known(x) && oc_dim_is_known(y))
        return x.v == y.v;
    return x.sym && y.sym && x.v == y.v && strcmp(x.sym, y.sym) == 0;
}

/* A dim ONNX shape inference carries unchanged from a declared shape: a
 * number, or a symbol of the model's own (not a product the analysis
 * formed, which ORT's inference leaves unknown). */
static bool declared_dim(oc_dim d)
{
    return oc_dim_is_known(d) || (d.sym && d.v == 1 && !strpbrk(d.sym, "*+-/() "));
}

/* x and y are one symbol as ONNX shapes name dims (dim_param). */
static bool dim_param_eq(oc_dim x, oc_dim y)
{
    return x.sym && declared_dim(x) && dim_eq(x, y);
}

static bool shapes_eq(const oc_tinfo *x, const oc_tinfo *y)
{
    if (!x || !y || x->rank < 0 || x->rank != y->rank)
        return false;
    for (int d = 0; d < x->rank; d++)
        if (!dim_eq(x->dims[d], y->dims[d]))
            return false;
    return true;
}

/* Known numeric contents of a constant value (session view): integer
 * values in i, float values in f (one of them set). */
typedef struct cvals {
    int64_t n;
    int64_t i[64];
    const double *f;
    bool ints;
} cvals;

static bool const_vals(const pctx *p, int v, cvals *c)
{
    const oc_tinfo *t = sinfo(p, v);
    if (v < 0 || !t || !p->constant[v] || t->nvals < 0)
        return false;
    c->n = t->nvals;
    c->f = t->fvals;
    c->ints = !t->fvals;
    if (t->fvals)
        return true;
    if (!t->ivals || t->nvals > 64)
        return false;
    for (int64_t q = 0; q < t->nvals; q++) {
        if (oc_dim_is_sym(t->ivals[q]))
            return false; /* a literal number, negative ones included */
        c->i[q] = t->ivals[q].v;
    }
    return true;
}

static double cval(const cvals *c, int64_t q)
{
    return c->ints ? (double)c->i[q] : c->f[q];
}

/* A constant whose every element equals x. */
static bool const_all(const pctx *p, int v, double x)
{
    cvals c;
    if (!const_vals(p, v, &c) || c.n < 1)
        return false;
    for (int64_t q = 0; q < c.n; q++)
        if (cval(&c, q) != x)
            return false;
    return true;
}

static int64_t const_numel(const pctx *p, int v)
{
    uint64_t n = 0;
    const oc_tinfo *t = sinfo(p, v);
    return v >= 0 && p->constant[v] && t && oc_tinfo_numel(t, &n) ? (int64_t)n : -1;
}

static void drop(pctx *p, size_t i, oc_kernel_kind kind, const char *why)
{
    p->nk[i].kind = kind;
    p->nk[i].why = why;
}

/* Node j, with the nodes its kernel holds, joins the kernel of node m
 * (which lists the first OC_PLAN_MAX_NODES nodes it absorbs). */
static void absorb(pctx *p, size_t m, size_t j)
{
    oc_kernel *k = &p->nk[m], *kj = &p->nk[j];
    for (size_t q = 0; q <= kj->n_fused; q++) {
        size_t x = q ? kj->fused[q - 1] : j;
        p->owner[x] = (int)m;
        if (k->n_fused < OC_PLAN_MAX_NODES)
            k->fused[k->n_fused++] = x;
    }
    kj->n_fused = 0;
}

/* ---- pass 1: what the runtime never runs ---- */

static bool deterministic(const pctx *p, const oc_node *n)
{
    static const oc_op_id random[] = {OC_OPID_RandomNormal, OC_OPID_RandomUniform,
                                      OC_OPID_RandomNormalLike, OC_OPID_RandomUniformLike,
                                      OC_OPID_Multinomial, OC_OPID_Bernoulli};
    for (size_t q = 0; q < sizeof random / sizeof random[0]; q++)
        if (is_op(p, n, random[q]))
            return false;
    for (size_t q = 0; q < n->n_attrs; q++)
        if (n->attrs[q].type == OC_ATTR_GRAPH || n->attrs[q].type == OC_ATTR_GRAPHS)
            return false;
    return true;
}

/* ONNX functions with no shape inference function: GreaterOrEqual and
 * LessOrEqual before opset 16.  Their outputs have no load-time shape, and
 * ORT's ConstantFolding (since 1.27) skips a node whose output size it
 * cannot estimate before running it: they never fold, nor does anything
 * computed from them (onnxruntime issue #32130). */
static bool no_shape_inference(const pctx *p, const oc_node *n)
{
    return (is_op(p, n, OC_OPID_GreaterOrEqual) || is_op(p, n, OC_OPID_LessOrEqual)) &&
           n->opset < 16;
}

/* ORT folds a Shape when its input's whole shape is concrete, whatever
 * slice (start, end) it takes. */
static bool fold_shape(const pctx *p, size_t i)
{
    const oc_tinfo *t = sinfo(p, in(p, i, 0));
    return t && t->rank >= 0 && dims_concrete(t, 0, t->rank);
}

/* A TENSOR attribute holding one number (ConstantOfShape's value): ORT's
 * CommonSubexpressionElimination compares those by dtype and value; other
 * tensor attributes make nodes distinct. */
static bool scalar_tensor_attr(const oc_attr *a)
{
    return a->type == OC_ATTR_TENSOR && a->t && a->t->numel == 1 &&
           a->t->dtype != OC_DT_STRING && (a->t->ivals || a->t->fvals);
}

static bool scalar_tensor_attr_eq(const oc_attr *u, const oc_attr *w)
{
    const oc_tensor *x = u->t, *y = w->t;
    if (!scalar_tensor_attr(u) || !scalar_tensor_attr(w) || x->dtype != y->dtype ||
        x->rank != y->rank)
        return false;
    return x->ivals ? y->ivals && x->ivals[0] == y->ivals[0]
                    : y->fvals && memcmp(x->fvals, y->fvals, sizeof *x->fvals) == 0;
}

/* One attribute of x against the same-named one of y (NULL: none). */
static bool attr_eq(const oc_attr *u, const oc_attr *w)
{
    if (w && u->type == OC_ATTR_TENSOR && w->type == OC_ATTR_TENSOR)
        return strcmp(u->name, w->name) == 0 && scalar_tensor_attr_eq(u, w);
    if (!w || u->type != w->type || u->i != w->i || u->n != w->n ||
        !(u->f == w->f || (u->f != u->f && w->f != w->f)))
        return false;
    if ((u->s || w->s) && (!u->s || !w->s || strcmp(u->s, w->s) != 0))
        return false;
    if (u->n && u->ints && (!w->ints || memcmp(u->ints, w->ints, u->n * sizeof *u->ints)))
        return false;
    if (u->n && u->floats &&
        (!w->floats || memcmp(u->floats, w->floats, u->n * sizeof *u->floats)))
        return false;
    if (u->n && u->strings) {
        if (!w->strings)
            return false;
        for (size_t e = 0; e < u->n; e++)
            if (strcmp(u->strings[e], w->strings[e]) != 0)
                return false;
    }
    return !(u->type == OC_ATTR_TENSOR || u->type == OC_ATTR_TENSORS ||
             u->type == OC_ATTR_GRAPH || u->type == OC_ATTR_GRAPHS);
}

static int attr_by_name(const void *a, const void *b)
{
    return strcmp((*(const oc_attr *const *)a)->name, (*(const oc_attr *const *)b)->name);
}

/* Names are unique within a node (the loader refuses a repeated one), so
 * the same attributes in another order match pairwise once sorted: a node
 * with 10^5 attributes is not 10^10 name comparisons. */
/* An integer attribute at the value ONNX gives it when absent, the same
 * for every operator that has it (keepdims of the reductions and ArgMax,
 * group of the convolutions, ...). ORT writes the schema's defaults into
 * every node it loads, so its CSE finds a node that spells one out equal
 * to one that leaves it out (measured: blind12's hyperbolic_gru, 12 pairs
 * of ReduceSum that differ only in an explicit noop_with_empty_axes = 0,
 * run once each). */
static bool default_attr(const oc_attr *a)
{
    static const struct {
        const char *name;
        int64_t value;
    } defaults[] = {{"keepdims", 1},   {"noop_with_empty_axes", 0}, {"select_last_index", 0},
                    {"transA", 0},     {"transB", 0},               {"group", 1},
                    {"ceil_mode", 0},  {"count_include_pad", 0},    {"storage_order", 0}};
    if (a->type != OC_ATTR_INT)
        return false;
    for (size_t q = 0; q < sizeof defaults / sizeof defaults[0]; q++)
        if (!strcmp(a->name, defaults[q].name))
            return a->i == defaults[q].value;
    return false;
}

/* Node n's attributes but those at their default, into out (n->n_attrs
 * slots); returns how many. */
static size_t own_attrs(const oc_node *n, const oc_attr **out)
{
    size_t k = 0;
    for (size_t q = 0; q < n->n_attrs; q++)
        if (!default_attr(&n->attrs[q]))
            out[k++] = &n->attrs[q];
    return k;
}

static bool attrs_eq(const oc_node *x, const oc_node *y)
{
    size_t cap = x->n_attrs + y->n_attrs;
    const oc_attr *stack[32], **a = cap <= 32 ? stack : malloc(cap * sizeof *a);
    if (!a)
        return false; /* not merged: a kernel too many, never a wrong one */
    const oc_attr **b = a + x->n_attrs;
    size_t n = own_attrs(x, a);
    bool eq = n == own_attrs(y, b);
    if (eq) {
        qsort(a, n, sizeof *a, attr_by_name);
        qsort(b, n, sizeof *b, attr_by_name);
    }
    for (size_t q = 0; q < n && eq; q++)
        eq = strcmp(a[q]->name, b[q]->name) == 0 && attr_eq(a[q], b[q]);
    if (a != stack)
        free(a);
    return eq;
}

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

static uint64_t double_hash(double f)
{
    if (f != f)
        return 0x7ff8;
    if (f == 0)
        f = 0; /* -0.0 == 0.0 */
    uint64_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint64_t attr_hash(const oc_attr *a)
{
    uint64_t h = mix(oc_hash_str(a->name), (uint64_t)a->type);
    h = mix(h, (uint64_t)a->i);
    h = mix(h, double_hash(a->f));
    h = mix(h, a->n);
    if (a->s)
        h = mix(h, oc_hash_str(a->s));
    if (a->n && a->ints)
        h = mix(h, oc_hash_bytes(a->ints, a->n * sizeof *a->ints));
    if (a->n && a->floats)
        h = mix(h, oc_hash_bytes(a->floats, a->n * sizeof *a->floats));
    if (a->n && a->strings)
        for (size_t e = 0; e < a->n; e++)
            h = mix(h, oc_hash_str(a->strings[e]));
    if (scalar_tensor_attr(a))
        h = mix(mix(h, (uint64_t)a->t->dtype),
                a->t->ivals ? (uint64_t)a->t->ivals[0] : double_hash(a->t->fvals[0]));
    return h;
}

static uint64_t node_key(const pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    uint64_t h = mix(oc_hash_str(n->op), oc_hash_str(n->domain));
    h = mix(h, n->n_inputs);
    for (size_t k = 0; k < n->n_inputs; k++) {
        int v = in(p, i, k);
        h = mix(h, (uint64_t)(v < 0 ? -1 : p->canon[v]));
    }
    /* The attributes' values too, in any order (attrs_eq's equality:
     * 0.0 and -0.0 alike, every NaN alike, defaults as if absent): 10^5
     * nodes that differ only in an attribute must not share one hash
     * chain. */
    uint64_t sum = 0, own = 0;
    for (size_t q = 0; q < n->n_attrs; q++)
        if (!default_attr(&n->attrs[q])) {
            sum += attr_hash(&n->attrs[q]);
            own++;
        }
    return mix(mix(h, own), sum);
}

static bool same_node(const pctx *p, size_t i, size_t j)
{
    const oc_node *x = &p->g->nodes[i], *y = &p->g->nodes[j];
    if (strcmp(x->op, y->op) || strcmp(x->domain, y->domain) || x->n_inputs != y->n_inputs ||
        x->n_outputs != y->n_outputs)
        return false;
    for (size_t k = 0; k < x->n_inputs; k++) {
        int u = in(p, i, k), w = in(p, j, k);
        if ((u < 0) != (w < 0) || (u >= 0 && p->canon[u] != p->canon[w]))
            return false;
    }
    return attrs_eq(x, y);
}

/* One id per distinct one-element constant (ORT shares those before its
 * CSE), else the value itself. */
static void canon_constant(pctx *p, int v, int *seen, size_t n_seen_cap, size_t *n_seen)
{
    p->canon[v] = v;
    const oc_tinfo *t = sinfo(p, v);
    cvals c;
    if (!t || t->rank > 1 || !const_vals(p, v, &c) || c.n != 1)
        return;
    double x = cval(&c, 0);
    for (size_t q = 0; q < *n_seen; q++) {
        int w = seen[q];
        const oc_tinfo *u = sinfo(p, w);
        cvals d;
        if (u->dtype == t->dtype && u->rank == t->rank && const_vals(p, w, &d) &&
            d.ints == c.ints && cval(&d, 0) == x) {
            p->canon[v] = w;
            return;
        }
    }
    if (*n_seen < n_seen_cap)
        seen[(*n_seen)++] = v;
}

/* The slot of node i in the CSE table: the slot of an equal node already
 * there (*found set to it), else the free slot to put i in. */
static size_t cse_slot(const pctx *p, size_t i, const int *table, size_t cap, int *found)
{
    size_t slot = (size_t)(node_key(p, i) % cap);
    *found = -1;
    while (table[slot] >= 0) {
        if (same_node(p, (size_t)table[slot], i)) {
            *found = table[slot];
            break;
        }
        slot = (slot + 1) % cap;
    }
    return slot;
}

/* Whether ORT removes Identity x -> y (identity_elimination.cc): always
 * unless y is a graph output; then only when a node of the graph makes x,
 * x is no graph output itself and the Identity is its one reader.  A Loop
 * body's condition passed through (an input to an output) stays a kernel
 * (measured: the corpus' loop_const, ORT 1.30). */
static bool identity_goes(const pctx *p, int x, int y)
{
    const oc_graph *g = p->g;
    if (y < 0 || !g->values[y].is_output)
        return true;
    if (x < 0 || g->values[x].producer < 0 || g->values[x].is_output)
        return false;
    int readers = 0;
    for (size_t j = 0; j < g->n_nodes; j++)
        for (size_t k = 0; k < g->nodes[j].n_inputs; k++)
            readers += g->nodes[j].inputs[k] == x;
    return readers == 1;
}

/* ORT's level 1 runs CommonSubexpressionElimination before
 * ConstantFolding (graph_transformer_utils.cc), so nodes that are equal
 * before folding are one node, and fold to one initializer: a later node
 * reading either reads the same value (folded outputs of more than one
 * element are not shared otherwise, as ConstantSharing only shares single
 * values). */
static void cse_folded(pctx *p, size_t i, int *table, size_t cap)
{
    const oc_node *n = &p->g->nodes[i];
    int found;
    size_t slot = cse_slot(p, i, table, cap, &found);
    if (found < 0) {
        table[slot] = (int)i;
        return;
    }
    for (size_t q = 0; q < n->n_outputs; q++)
        if (n->outputs[q] >= 0 && p->g->nodes[found].outputs[q] >= 0 &&
            !p->g->values[n->outputs[q]].is_output)
            p->alias[n->outputs[q]] = p->g->nodes[found].outputs[q];
}

static void pass_remove(pctx *p, bool eager)
{
    const oc_graph *g = p->g;
    size_t cap = 2 * p->nn + 16, n_seen = 0;
    int *table = oc_arena_alloc(p->ar, cap * sizeof(int));
    int *seen = oc_arena_alloc(p->ar, 256 * sizeof(int));
    if (!table || !seen)
        return;
    for (size_t q = 0; q < cap; q++)
        table[q] = -1;
    for (size_t v = 0; v < p->nv; v++)
        if (p->constant[v])
            canon_constant(p, (int)v, seen, 256, &n_seen);
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        const oc_node *n = &g->nodes[i];
        bool all_const = true;
        for (size_t k = 0; k < n->n_inputs; k++)
            if (n->inputs[k] >= 0 && !p->constant[in(p, i, k)])
                all_const = false;
        /* ORT's EliminateIdentity runs before ConstantFolding (and CSE):
         * an Identity of an initializer leaves its readers reading the
         * initializer itself, so that they can be one another's duplicates
         * (the PyTorch exporter writes one for each copy of a buffer it
         * shares: kpconv_cls' kernel points) */
        bool identity = !eager && is_op(p, n, OC_OPID_Identity) &&
                        identity_goes(p, in(p, i, 0), out0(p, i));
        /* ORT's ConstantFolding leaves DequantizeLinear for the QDQ
         * transformers (skip_dequantize_linear): a DQ of a constant weight
         * runs at every inference unless a QDQ group takes it */
        bool fold = deterministic(p, n) && all_const && (eager || !no_shape_inference(p, n)) &&
                    (eager || !is_op(p, n, OC_OPID_DequantizeLinear)) && !identity;
        /* eager PyTorch: a tensor's size is Python ints, and so is what is
         * computed from it alone (the export's Shape -> Gather -> Unsqueeze
         * -> Concat chains): no kernel runs for them */
        bool python_ints = eager && is_op(p, n, OC_OPID_Shape);
        if (python_ints) {
            drop(p, i, OC_KERNEL_FOLDED, "shape (Python ints)");
            for (size_t q = 0; q < n->n_outputs; q++)
                if (n->outputs[q] >= 0)
                    p->constant[n->outputs[q]] = true;
            continue;
        }
        if (!fold && is_op(p, n, OC_OPID_Shape) && !eager)
            fold = fold_shape(p, i);
        if (fold) {
            if (!eager)
                cse_folded(p, i, table, cap);
            drop(p, i, OC_KERNEL_FOLDED, "constant");
            for (size_t q = 0; q < n->n_outputs; q++)
                if (n->outputs[q] >= 0) {
                    p->constant[n->outputs[q]] = true;
                    canon_constant(p, n->outputs[q], seen, 256, &n_seen);
                }
            continue;
        }
        int x = in(p, i, 0), y = out0(p, i);
        const char *why = NULL;
        if (is_op(p, n, OC_OPID_Identity) && identity_goes(p, x, y))
            why = "identity";
        else if (is_op(p, n, OC_OPID_Dropout))
            why = "dropout at inference";
        else if (eager) {
            /* eager PyTorch: no more rewriting */
        } else if (is_op(p, n, OC_OPID_Cast) && x >= 0 && ainfo(p, x) && y >= 0 &&
                   /* one that writes a graph output ORT keeps (checked:
                    * tests/data/ort-quant-opt fp16_io, run as saved) */
                   !g->values[y].is_output &&
                   ainfo(p, x)->dtype != OC_DT_UNDEFINED && oc_node_attr(n, "to") &&
                   (int64_t)ainfo(p, x)->dtype == oc_node_attr(n, "to")->i)
            why = "cast to its own type";
        else if ((is_op(p, n, OC_OPID_Add) || is_op(p, n, OC_OPID_Sub) ||
                  is_op(p, n, OC_OPID_Mul) || is_op(p, n, OC_OPID_Div)) &&
                 n->n_inputs == 2) {
            /* x op identity-constant of one element, x of the result's
             * shape (noop_elimination.cc; ORT 1.30, checked on
             * onnxruntime-node, keeps + 0 and * 1 of several elements,
             * a LayerNorm's default bias and scale among them) */
            double unit = is_op(p, n, OC_OPID_Add) || is_op(p, n, OC_OPID_Sub) ? 0 : 1;
            int c = in(p, i, 1), other = x;
            if (!(is_op(p, n, OC_OPID_Sub) || is_op(p, n, OC_OPID_Div)) && !const_all(p, c, unit)) {
                c = x;
                other = in(p, i, 1);
            }
            if (const_all(p, c, unit) && const_numel(p, c) == 1 &&
                shapes_eq(sinfo(p, other), sinfo(p, y)) &&
                dims_concrete(sinfo(p, y), 0, OC_MAX_RANK)) {
                why = "no-op arithmetic";
                x = other;
            }
        }
        if (why) {
            drop(p, i, OC_KERNEL_REMOVED, why);
            if (y >= 0 && x >= 0)
                p->alias[y] = x;
            continue;
        }
        if (eager || !deterministic(p, n))
            continue;
        /* common subexpressions */
        bool out_is_graph_output = false;
        for (size_t q = 0; q < n->n_outputs; q++)
            if (n->outputs[q] >= 0 && g->values[n->outputs[q]].is_output)
                out_is_graph_output = true;
        int found;
        size_t slot = cse_slot(p, i, table, cap, &found);
        if (found >= 0 && !out_is_graph_output) {
            char *why_dup = oc_arena_alloc(p->ar, strlen(g->nodes[found].name) + 16);
            if (why_dup)
                sprintf(why_dup, "duplicate of %s", g->nodes[found].name);
            drop(p, i, OC_KERNEL_REMOVED, why_dup ? why_dup : "duplicate");
            for (size_t q = 0; q < n->n_outputs; q++)
                if (n->outputs[q] >= 0 && g->nodes[found].outputs[q] >= 0)
                    p->alias[n->outputs[q]] = g->nodes[found].outputs[q];
            continue;
        }
        if (found < 0)
            table[slot] = (int)i;
    }
}

/* Consumers and use counts of the live nodes, on aliased values. */
static bool count_uses(pctx *p)
{
    const oc_graph *g = p->g;
    memset(p->uses, 0, p->nv * sizeof *p->uses);
    size_t edges = 0;
    for (size_t i = 0; i < p->nn; i++)
        if (live(p, i) || p->owner[i] != (int)i)
            for (size_t k = 0; k < g->nodes[i].n_inputs; k++) {
                int v = in(p, i, k);
                if (v >= 0) {
                    p->uses[v]++;
                    edges++;
                }
            }
    p->cons = oc_arena_alloc(p->ar, (edges + 1) * sizeof(int));
    int *fill = oc_arena_calloc(p->ar, p->nv + 1, sizeof(int));
    if (!p->cons || !fill)
        return false;
    /* consumers only: a graph output is a use with no consumer node */
    p->cons_start[0] = 0;
    for (size_t v = 0; v < p->nv; v++)
        p->cons_start[v + 1] = p->cons_start[v] + p->uses[v];
    for (size_t k = 0; k < g->n_outputs; k++) {
        int v = A(p, g->outputs[k]);
        if (v >= 0)
            p->uses[v]++;
    }
    for (size_t i = 0; i < p->nn; i++)
        if (live(p, i) || p->owner[i] != (int)i)
            for (size_t k = 0; k < g->nodes[i].n_inputs; k++) {
                int v = in(p, i, k);
                if (v >= 0)
                    p->cons[p->cons_start[v] + fill[v]++] = (int)i;
            }
    return true;
}

/* A node no longer runs: its inputs lose a use; producers left without any
 * (the rest of a shape computation) go too. */
static void unuse_inputs(pctx *p, size_t i, const char *why)
{
    const oc_node *n = &p->g->nodes[i];
    for (size_t k = 0; k < n->n_inputs; k++) {
        int v = in(p, i, k);
        if (v < 0 || --p->uses[v] > 0)
            continue;
        int pr = p->g->values[v].producer;
        if (pr >= 0 && live(p, (size_t)pr)) {
            bool other = false;
            const oc_node *pn = &p->g->nodes[pr];
            for (size_t q = 0; q < pn->n_outputs; q++)
                if (pn->outputs[q] >= 0 && p->uses[pn->outputs[q]] > 0)
                    other = true;
            if (!other) {
                drop(p, (size_t)pr, OC_KERNEL_REMOVED, why);
                unuse_inputs(p, (size_t)pr, why);
            }
        }
    }
}

/* NotWhereFusion (a level-1 rewrite rule): a Not whose every consumer is a
 * Where reading it as the condition goes; the Wheres read its input with
 * their two branches swapped.  Returns whether one went. */
static bool not_where(pctx *p)
{
    const oc_graph *g = p->g;
    bool any = false;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        int y = out0(p, i), x = in(p, i, 0);
        if (!live(p, i) || !is_op(p, &g->nodes[i], OC_OPID_Not) || y < 0 || x < 0 ||
            g->values[y].is_output || p->uses[y] < 1)
            continue;
        bool all_where = true;
        for (int e = p->cons_start[y]; e < p->cons_start[y + 1] && all_where; e++) {
            size_t c = (size_t)p->cons[e];
            const oc_node *cn = &g->nodes[c];
            all_where = is_op(p, cn, OC_OPID_Where) && cn->n_inputs == 3 && in(p, c, 0) == y &&
                        in(p, c, 1) != y && in(p, c, 2) != y;
        }
        if (!all_where)
            continue;
        drop(p, i, OC_KERNEL_REMOVED, "Where swaps its branches");
        p->alias[y] = x;
        any = true;
    }
    return any;
}

static const oc_tinfo *ort_info(const pctx *p, int v);

/* Dim `at` of z is dim `at` of x as ORT's load-time shapes have them: z is
 * x, or both dims are the same number or the same symbol.  This follows
 * reshape_fusion.cc's Match_Shape (Match_One_Element_Output_Subgraph_1),
 * whose Shape may read another tensor than the Reshape's input; the older
 * source held here compares whole shapes, ORT 1.30 (onnxruntime-node,
 * graph written at level basic) compares the one dim: Shape(Z)[0] with Z
 * [N, 5] stands for dim 0 of a Reshape input [N, 8, 8, 8], Z [M, 5] does
 * not; Shape(Z)[1] with Z [N, 8, 9] stands for dim 1 of it (8), [N, 9, 8]
 * does not. */
static bool same_dim(const pctx *p, int z, int x, int64_t at)
{
    if (z == x)
        return true;
    const oc_tinfo *zt = ort_info(p, z), *xt = ort_info(p, x);
    if (!zt || !xt || at >= zt->rank || at >= xt->rank)
        return false;
    oc_dim a = zt->dims[at], b = xt->dims[at];
    return declared_dim(a) && declared_dim(b) && dim_eq(a, b);
}

/* Piece v of a Reshape's shape Concat is Unsqueeze(Gather(Shape(z), at)):
 * dim `at` of the Reshape's own input x (z is x, or z's dim `at` is the
 * same), which ReshapeFusion writes as 0. */
static bool own_dim_piece(const pctx *p, int v, int x, int64_t at)
{
    const oc_graph *g = p->g;
    int u = v >= 0 ? g->values[v].producer : -1;
    if (u < 0 || !live(p, (size_t)u) || !is_op(p, &g->nodes[u], OC_OPID_Unsqueeze))
        return false;
    int gv = in(p, (size_t)u, 0);
    int ga = gv >= 0 ? g->values[gv].producer : -1;
    if (ga < 0 || !live(p, (size_t)ga) || !is_op(p, &g->nodes[ga], OC_OPID_Gather))
        return false;
    int sv = in(p, (size_t)ga, 0), idx = in(p, (size_t)ga, 1);
    int sp = sv >= 0 ? g->values[sv].producer : -1;
    cvals c;
    return sp >= 0 && is_op(p, &g->nodes[sp], OC_OPID_Shape) &&
           same_dim(p, in(p, (size_t)sp, 0), x, at) && const_vals(p, idx, &c) && c.ints &&
           c.n == 1 && c.i[0] == at;
}

/* The target ReshapeFusion wrote for value sh (n elements), kept for
 * reinfer; out of memory: not kept (the view stays as it was). */
static void remember_target(pctx *p, int sh, const int64_t *tv, int64_t n)
{
    if (!p->fused_t)
        p->fused_t = oc_arena_alloc(p->ar, (p->nn + 1) * sizeof *p->fused_t);
    int64_t *vals = oc_arena_alloc(p->ar, ((size_t)n + 1) * sizeof *vals);
    if (!p->fused_t || !vals || p->n_fused_t >= p->nn)
        return;
    memcpy(vals, tv, (size_t)n * sizeof *vals);
    p->fused_t[p->n_fused_t++] = (oc_value_ints){sh, n, vals};
}

/* ORT infers shapes again after every round of rewrites: a Reshape whose
 * target ReshapeFusion made constant now has a shape ([?, 128, 3, 4, 64]
 * for [-1, 0, 3, 4, 64] of an [N, 128, 768]), and so has what is computed
 * from it.  The session view is analysed again with the targets as
 * constants (measured with ORT 1.30: blind26's DeBERTa fuses the Reshapes
 * of five of its six layers, one block a round after the one before, and
 * so makes five of its six Gelus BiasGelus).  Only for the main graph's
 * own session view; when the analysis fails, the view stays. */
static void reinfer(pctx *p)
{
    if (!p->may_reinfer || !p->n_fused_t)
        return;
    oc_analyze_opts so = {.session_view = true, .known_ints = p->fused_t,
                          .n_known_ints = p->n_fused_t};
    oc_analysis *s = NULL;
    oc_error ignored;
    if (oc_analyze(oc_analysis_model(p->a), &so, &s, &ignored) != OC_OK)
        return;
    oc_analysis_free(*p->own_s);
    *p->own_s = s;
    p->s = s;
}

/* ReshapeFusion (level 1): Reshape(x, Concat(pieces)) whose pieces are each
 * a constant (its values), dim k of x itself at position k (0), or any
 * other one-element tensor (-1, the size left over); with at most one -1
 * in the result the Concat becomes a constant and the computation of its
 * pieces goes.  A piece of several elements computed at run time (a Slice
 * of the Shape) keeps it all.  One pass, on the load-time shapes as they
 * stand (ort_shapes); true when it fused one. */
static bool pass_reshape(pctx *p)
{
    bool fused = false;
    const oc_graph *g = p->g;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (!live(p, i) || !is_op(p, &g->nodes[i], OC_OPID_Reshape))
            continue;
        int x = in(p, i, 0), sh = in(p, i, 1);
        if (sh < 0 || p->constant[sh] || g->values[sh].producer < 0)
            continue;
        size_t c = (size_t)g->values[sh].producer;
        const oc_node *cn = &g->nodes[c];
        if (!live(p, c) || !is_op(p, cn, OC_OPID_Concat) || p->uses[sh] != 1)
            continue;
        int64_t at = 0, tv[64];
        int minus_one = 0;
        bool ok = true;
        for (size_t k = 0; k < cn->n_inputs && ok; k++) {
            int v = in(p, c, k);
            cvals cv;
            if (v >= 0 && p->constant[v]) {
                ok = const_vals(p, v, &cv) && cv.ints && at + cv.n <= 64;
                for (int64_t q = 0; ok && q < cv.n; q++) {
                    minus_one += cv.i[q] == -1;
                    tv[at + q] = cv.i[q];
                }
                at += ok ? cv.n : 0;
            } else if (at >= 64) {
                ok = false;
            } else if (own_dim_piece(p, v, x, at)) {
                tv[at++] = 0;
            } else {
                uint64_t ne = 0;
                const oc_tinfo *vt = sinfo(p, v);
                ok = vt && oc_tinfo_numel(vt, &ne) && ne == 1;
                minus_one++;
                tv[at++] = -1;
            }
        }
        if (!ok || minus_one > 1)
            continue;
        remember_target(p, sh, tv, at);
        drop(p, c, OC_KERNEL_REMOVED, "reshape shape made constant");
        p->constant[sh] = true;
        p->uses[sh] = 0;
        unuse_inputs(p, c, "reshape shape made constant");
        fused = true;
    }
    return fused;
}

/* ---- what ORT's shape inference knows ---- */

/* ORT's fusions read the shapes its load-time inference (ONNX's operator
 * rules, with data propagation of shape values) gave each value, re-run
 * after constant folding and ReshapeFusion.  ONNX's Reshape-5/13 rule
 * reads only a constant target: computed at run time, its output has no
 * shape at all, and neither has anything computed from it (every rule
 * needs its inputs' shapes), however well our own analysis knows them.
 * Reshape-14 also reads a target known by data propagation (Shape, Slice,
 * Concat, Gather, Unsqueeze, Squeeze, Cast and scalar arithmetic of
 * shapes). */
static bool propagates_shape_data(const pctx *p, const oc_node *n)
{
    static const oc_op_id ops[] = {OC_OPID_Slice,   OC_OPID_Concat, OC_OPID_Gather,
                                   OC_OPID_Unsqueeze, OC_OPID_Squeeze, OC_OPID_Cast,
                                   OC_OPID_Add,     OC_OPID_Sub,    OC_OPID_Mul,
                                   OC_OPID_Div};
    for (size_t q = 0; q < sizeof ops / sizeof ops[0]; q++)
        if (is_op(p, n, ops[q]))
            return true;
    return false;
}

/* Whether dim d of value v is one ORT's load-time shapes do not know
 * (p->lost, lost_dims, or unknown in the session view itself). */
static bool dim_lost(const pctx *p, int v, int d)
{
    const oc_tinfo *o = ort_info(p, v);
    return o && d >= 0 && d < o->rank && oc_dim_is_unknown(o->dims[d]);
}

/* Output axis d (of rank r) of a broadcasting node i, by ONNX's rule on
 * the inputs' load-time dims: a value other than 1 decides it; otherwise
 * a single non-1 dim, or several equal symbols; else unknown. Lost when
 * ORT's answer is unknown and an input's dim there is lost (measured
 * with ORT 1.30: vit_b_16's residual Add of its
 * [N, 197, 768] stream and an attention output it cannot size is
 * [?, 197, 768], and its last LayerNormalization stays one, not a
 * SkipLayerNormalization). */
static bool broadcast_lost(const pctx *p, size_t i, int d, int r)
{
    const oc_node *n = &p->g->nodes[i];
    bool any_lost = false;
    int others = 0;
    const char *sym = NULL;
    bool syms_same = true;
    for (size_t k = 0; k < n->n_inputs; k++) {
        int v = in(p, i, k);
        const oc_tinfo *t = sinfo(p, v);
        if (v < 0 || !t || t->rank < 0)
            continue;
        int e = d - (r - t->rank);
        if (e < 0)
            continue;
        if (dim_lost(p, v, e)) {
            any_lost = true;
            others++;
            syms_same = false;
            continue;
        }
        oc_dim x = t->dims[e];
        if (oc_dim_is_known(x) && x.v != 1)
            return false;
        if (oc_dim_is_known(x))
            continue;
        others++;
        if (x.sym && (!sym || !strcmp(sym, x.sym)))
            sym = x.sym;
        else
            syms_same = false;
    }
    return any_lost && (others == 1 || !syms_same);
}

/* Ops whose output has their first input's shape. */
static bool same_shape_op(const pctx *p, const oc_node *n)
{
    static const oc_op_id ops[] = {
        OC_OPID_Relu,    OC_OPID_Tanh,     OC_OPID_Sigmoid,  OC_OPID_Exp,     OC_OPID_Log,
        OC_OPID_Neg,     OC_OPID_Abs,      OC_OPID_Sqrt,     OC_OPID_Reciprocal, OC_OPID_Erf,
        OC_OPID_Cast,    OC_OPID_Identity, OC_OPID_Softplus, OC_OPID_Clip,    OC_OPID_LeakyRelu,
        OC_OPID_Elu,     OC_OPID_Softmax,  OC_OPID_LogSoftmax, OC_OPID_Dropout, OC_OPID_Sin,
        OC_OPID_Cos,     OC_OPID_Floor,    OC_OPID_Ceil,     OC_OPID_Sign,    OC_OPID_HardSigmoid,
        OC_OPID_HardSwish, OC_OPID_BatchNormalization, OC_OPID_LayerNormalization,
        OC_OPID_InstanceNormalization, OC_OPID_GroupNormalization, OC_OPID_LpNormalization};
    for (size_t q = 0; q < sizeof ops / sizeof ops[0]; q++)
        if (is_op(p, n, ops[q]))
            return true;
    return false;
}

static bool broadcasting_op(const pctx *p, const oc_node *n)
{
    static const oc_op_id ops[] = {OC_OPID_Add,   OC_OPID_Sub,     OC_OPID_Mul,  OC_OPID_Div,
                                   OC_OPID_Pow,   OC_OPID_Max,     OC_OPID_Min,  OC_OPID_Where,
                                   OC_OPID_Equal, OC_OPID_Less,    OC_OPID_Greater, OC_OPID_And,
                                   OC_OPID_Or,    OC_OPID_Sum,     OC_OPID_Mean, OC_OPID_PRelu};
    for (size_t q = 0; q < sizeof ops / sizeof ops[0]; q++)
        if (is_op(p, n, ops[q]))
            return true;
    return false;
}

static bool ints_of(const pctx *p, size_t i, const char *name, size_t slot, int since,
                    int64_t *out, int *n);
static bool axes_mask(const int64_t *ax, int n, int rank, bool *mask);
static bool reduce_axes(const pctx *p, size_t i, int rank, bool *mask);

/* The Reduce* operators (axes and keepdims; not ArgMax/ArgMin). */
static bool reduce_op(oc_op_id op)
{
    switch (op) {
    case OC_OPID_ReduceLogSum: case OC_OPID_ReduceLogSumExp: case OC_OPID_ReduceMax:
    case OC_OPID_ReduceMean: case OC_OPID_ReduceMin: case OC_OPID_ReduceProd:
    case OC_OPID_ReduceSum: case OC_OPID_ReduceSumSquare: case OC_OPID_ReduceL1:
    case OC_OPID_ReduceL2:
        return true;
    default:
        return false;
    }
}

/* Whether dim d of value v is a number in ORT's load-time shapes (not a
 * symbol, not unknown). */
static bool dim_valued(const pctx *p, int v, int d)
{
    const oc_tinfo *t = ort_info(p, v);
    return t && d >= 0 && d < t->rank && oc_dim_is_known(t->dims[d]);
}

/* ONNX's Reshape inference with a constant target: a 0 copies the input's
 * dim (allowzero 0), a number is itself, and the one -1 is computed only
 * when every input dim is a number, bar those a 0 copies at their own
 * index. So a -1 standing for a symbolic batch is unknown at load
 * (measured with ORT 1.30: blind23's sknet_lite reshapes its [N, 2C, 1, 1]
 * branch weights to [-1, 2, C, 1, 1], and every residual Add after them
 * ran blocked between Reshapes, apart from its Conv and its Relu). */
static bool reshape_lost(const pctx *p, size_t i, int r, bool *out)
{
    const oc_node *n = &p->g->nodes[i];
    const oc_attr *az = oc_node_attr(n, "allowzero");
    const oc_tinfo *xt = ort_info(p, in(p, i, 0));
    int sh = n->n_inputs > 1 ? in(p, i, 1) : -1;
    cvals c;
    if (!xt || xt->rank < 0 || sh < 0 || !const_vals(p, sh, &c) || !c.ints || c.n != r)
        return false;
    bool copy0 = !(az && az->i), known = true, any = false;
    for (int e = 0; e < xt->rank; e++)
        known &= oc_dim_is_known(xt->dims[e]) || (e < r && copy0 && c.i[e] == 0);
    for (int d = 0; d < r; d++)
        any |= out[d] = c.i[d] == -1 ? !known
                        : c.i[d] == 0 && copy0 ? dim_lost(p, in(p, i, 0), d) : false;
    return any;
}

/* ONNX's Slice inference: starts, ends, axes or steps that are not
 * constants leave every dim unknown (the rank alone); a sliced axis whose
 * dim is not a number loses it (a symbol too); the others are copied
 * (measured with ORT 1.30: blind23's ca_mobilenetv2 slices its pooled
 * coordinates with ends computed from Shape, and every residual Add after
 * such a block ran blocked between Reshapes). */
static bool slice_lost(const pctx *p, size_t i, int r, bool *out)
{
    const oc_node *n = &p->g->nodes[i];
    int x = in(p, i, 0);
    int64_t ax[OC_MAX_RANK];
    int na = 0;
    if (n->opset >= 10) {
        for (size_t k = 1; k < n->n_inputs && k < 5; k++)
            if (in(p, i, k) >= 0 && !p->constant[in(p, i, k)]) {
                for (int d = 0; d < r; d++)
                    out[d] = true;
                return r > 0;
            }
    }
    bool sliced[OC_MAX_RANK] = {false};
    if (ints_of(p, i, "axes", 3, 10, ax, &na)) {
        for (int q = 0; q < na; q++) {
            int64_t d = ax[q] < 0 ? ax[q] + r : ax[q];
            if (d >= 0 && d < r)
                sliced[d] = true;
        }
    } else {
        int64_t st[OC_MAX_RANK];
        if (!ints_of(p, i, "starts", 1, 10, st, &na))
            return false;
        for (int d = 0; d < na && d < r; d++)
            sliced[d] = true;
    }
    bool any = false;
    for (int d = 0; d < r; d++)
        any |= out[d] = sliced[d] ? !dim_valued(p, x, d) : dim_lost(p, x, d);
    return any;
}

/* Ops that move dims about without computing them: Gather, Squeeze,
 * Unsqueeze, Split, Flatten and the reductions copy their input's dims
 * as ONNX's inference does, lost ones included; Reshape and Slice lose
 * some of their own (above). */
static bool view_lost(const pctx *p, size_t i, int r, bool *out)
{
    const oc_node *n = &p->g->nodes[i];
    int x = in(p, i, 0);
    const oc_tinfo *xt = sinfo(p, x);
    int xr = xt ? xt->rank : -1;
    bool any = false;
    if (xr < 0 || xr > OC_MAX_RANK || n->domain[0])
        return false;
    if (is_op(p, n, OC_OPID_Reshape))
        return reshape_lost(p, i, r, out);
    if (is_op(p, n, OC_OPID_Slice))
        return slice_lost(p, i, r, out);
    if (is_op(p, n, OC_OPID_Gather)) {
        int idx = n->n_inputs > 1 ? in(p, i, 1) : -1;
        const oc_tinfo *it = sinfo(p, idx);
        const oc_attr *a = oc_node_attr(n, "axis");
        int64_t ax = a ? a->i : 0;
        ax = ax < 0 ? ax + xr : ax;
        if (!it || it->rank < 0 || ax < 0 || ax >= xr || r != xr - 1 + it->rank)
            return false;
        for (int d = 0; d < r; d++)
            any |= out[d] = d < ax ? dim_lost(p, x, d)
                            : d < ax + it->rank ? dim_lost(p, idx, d - (int)ax)
                                                : dim_lost(p, x, d - it->rank + 1);
        return any;
    }
    if (is_op(p, n, OC_OPID_Flatten)) {
        const oc_attr *a = oc_node_attr(n, "axis");
        int64_t ax = a ? a->i : 1;
        ax = ax < 0 ? ax + xr : ax;
        if (r != 2 || ax < 0 || ax > xr)
            return false;
        /* a product of dims is a number, or the one non-number among 1s;
         * else unknown (ONNX's multiplyDims) */
        for (int h = 0; h < 2; h++) {
            int lo = h ? (int)ax : 0, hi = h ? xr : (int)ax, odd = 0;
            bool ones = true;
            for (int e = lo; e < hi; e++) {
                odd += !dim_valued(p, x, e);
                ones &= !dim_valued(p, x, e) || ort_info(p, x)->dims[e].v == 1;
                out[h] |= dim_lost(p, x, e);
            }
            any |= out[h] |= odd > 1 || (odd == 1 && !ones);
        }
        return any;
    }
    if (reduce_op(oc_analysis_node_cost(p->a, i)->op)) {
        const oc_attr *k = oc_node_attr(n, "keepdims");
        bool keep = !(k && !k->i), mask[OC_MAX_RANK];
        if (!reduce_axes(p, i, xr, mask))
            return false;
        for (int d = 0, e = 0; e < xr && d < r; e++) {
            if (mask[e] && !keep)
                continue;
            any |= out[d++] = !mask[e] && dim_lost(p, x, e);
        }
        return any;
    }
    /* the rest map each output dim to an input dim, or to a new 1 */
    bool gone[OC_MAX_RANK] = {false}, added[OC_MAX_RANK] = {false};
    int64_t ax[OC_MAX_RANK];
    int na = 0;
    if (is_op(p, n, OC_OPID_Squeeze)) {
        if (!ints_of(p, i, "axes", 1, 13, ax, &na))
            na = 0;
        if (na == 0 && n->n_inputs < 2 && !oc_node_attr(n, "axes"))
            for (int e = 0; e < xr; e++)
                gone[e] = oc_dim_is_known(xt->dims[e]) && xt->dims[e].v == 1;
        else if (!axes_mask(ax, na, xr, gone))
            return false;
    } else if (is_op(p, n, OC_OPID_Unsqueeze)) {
        if (!ints_of(p, i, "axes", 1, 13, ax, &na) || !axes_mask(ax, na, r, added))
            return false;
    } else if (!is_op(p, n, OC_OPID_Split)) {
        return false;
    }
    /* Split: every output keeps the other dims; its axis is sized */
    const oc_attr *sa = is_op(p, n, OC_OPID_Split) ? oc_node_attr(n, "axis") : NULL;
    int64_t split_ax = sa ? (sa->i < 0 ? sa->i + xr : sa->i) : 0;
    for (int d = 0, e = 0; d < r; d++) {
        while (e < xr && gone[e])
            e++;
        if (added[d])
            continue;
        bool sized = is_op(p, n, OC_OPID_Split) && e == split_ax;
        any |= out[d] = !sized && dim_lost(p, x, e);
        e++;
    }
    return any;
}

/* Which dims of node i's first output (rank r) ORT's load-time inference
 * does not know (out[d]; true when any). The sources: ONNX's
 * ConstantOfShape gives dims only from a constant shape, so fed by
 * Shape(x) it gives the rank alone (measured: ORT left blind13's
 * deq_broyden and blind14's echo_state_net, whose states start as zeros
 * shaped like x, with no dims there, so no MatMul + Add of theirs became
 * a Gemm); Resize leaves a symbolic dim unknown (NCHWc's blocked Adds
 * after one, same_batch); Range sizes only from constants; a Reshape's -1
 * and a Slice's sliced or computed dims (view_lost). What reads such a
 * value loses the same dims through the ops below; any other op is taken
 * to infer its dims as ours. */
static bool lost_dims(const pctx *p, size_t i, int r, bool *out)
{
    const oc_node *n = &p->g->nodes[i];
    bool any = false;
    for (int d = 0; d < r; d++)
        out[d] = false;
    int x = in(p, i, 0);
    if (is_op(p, n, OC_OPID_ConstantOfShape)) {
        for (int d = 0; d < r && x >= 0 && !p->constant[x]; d++)
            out[d] = any = true;
        return any;
    }
    if (is_op(p, n, OC_OPID_Range)) {
        /* ONNX's Range inference sizes the output only from constant
         * start, limit and delta (measured with ORT 1.30: the positions
         * Range(0, L) of causal_gpt_tanh at opset 17 leave L unknown, and
         * no SkipLayerNormalization reads the residual stream they feed) */
        bool all = true;
        for (size_t k = 0; k < n->n_inputs; k++)
            all &= in(p, i, k) >= 0 && p->constant[in(p, i, k)];
        return r == 1 && (out[0] = !all);
    }
    if (same_shape_op(p, n)) {
        for (int d = 0; d < r; d++)
            any |= out[d] = dim_lost(p, x, d);
    } else if (broadcasting_op(p, n)) {
        for (int d = 0; d < r; d++)
            any |= out[d] = broadcast_lost(p, i, d, r);
    } else if (is_op(p, n, OC_OPID_MatMul) && r >= 2) {
        int b = in(p, i, 1);
        const oc_tinfo *ta = sinfo(p, x), *tb = sinfo(p, b);
        if (!ta || !tb || ta->rank < 2 || tb->rank < 2)
            return false;
        for (int d = 0; d < r - 2; d++)
            any |= out[d] = broadcast_lost(p, i, d, r); /* batch dims, right-aligned */
        any |= out[r - 2] = dim_lost(p, x, ta->rank - 2);
        any |= out[r - 1] = dim_lost(p, b, tb->rank - 1);
    } else if (is_op(p, n, OC_OPID_Gemm) && r == 2) {
        const oc_attr *ta = oc_node_attr(n, "transA"), *tb = oc_node_attr(n, "transB");
        any |= out[0] = dim_lost(p, x, ta && ta->i ? 1 : 0);
        any |= out[1] = dim_lost(p, in(p, i, 1), tb && tb->i ? 0 : 1);
    } else if (is_op(p, n, OC_OPID_Transpose)) {
        const oc_attr *a = oc_node_attr(n, "perm");
        for (int d = 0; d < r; d++) {
            int64_t f = a && (int)a->n == r ? a->ints[d] : r - 1 - d;
            any |= out[d] = f >= 0 && f < r && dim_lost(p, x, (int)f);
        }
    } else if (is_op(p, n, OC_OPID_Resize) || is_op(p, n, OC_OPID_Upsample)) {
        /* ONNX's Resize inference scales the dims it knows and leaves a
         * symbolic one (a batch N) unknown */
        const oc_tinfo *xt = ort_info(p, x);
        for (int d = 0; d < r; d++)
            any |= out[d] = dim_lost(p, x, d) ||
                            (xt && d < xt->rank && !dims_concrete(xt, d, d + 1));
    } else if (is_op(p, n, OC_OPID_Conv) || is_op(p, n, OC_OPID_ConvTranspose) ||
               is_op(p, n, OC_OPID_MaxPool) || is_op(p, n, OC_OPID_AveragePool) ||
               is_op(p, n, OC_OPID_GlobalAveragePool) || is_op(p, n, OC_OPID_GlobalMaxPool) ||
               is_op(p, n, OC_OPID_Pad)) {
        /* dim 0 carried over; a window's dims follow the input's; a
         * Conv's channels are its weight's, a global pool's window 1 */
        bool conv = is_op(p, n, OC_OPID_Conv) || is_op(p, n, OC_OPID_ConvTranspose);
        bool global = is_op(p, n, OC_OPID_GlobalAveragePool) ||
                      is_op(p, n, OC_OPID_GlobalMaxPool);
        for (int d = 0; d < r; d++)
            any |= out[d] = !(d == 1 && conv) && !(d >= 2 && global) && dim_lost(p, x, d);
    } else if (is_op(p, n, OC_OPID_Concat)) {
        const oc_attr *a = oc_node_attr(n, "axis");
        int64_t ax = a ? a->i : 0;
        ax = ax < 0 ? ax + r : ax;
        for (int d = 0; d < r; d++) {
            bool all = n->n_inputs > 0, one = false;
            for (size_t k = 0; k < n->n_inputs; k++) {
                bool l = dim_lost(p, in(p, i, k), d);
                all &= l;
                one |= l;
            }
            any |= out[d] = d == ax ? one : all;
        }
    } else {
        any = view_lost(p, i, r, out);
    }
    return any;
}

/* Value v's shape as ORT's load-time inference has it: ours (t) with the
 * dims lost[d] unknown (out of memory: ours, as before). */
static void mark_lost(pctx *p, int v, const oc_tinfo *t, const bool *lost)
{
    oc_tinfo *c = oc_arena_alloc(p->ar, sizeof *c);
    oc_dim *dims = oc_arena_alloc(p->ar, (size_t)t->rank * sizeof *dims);
    if (!c || !dims)
        return;
    *c = *t;
    for (int d = 0; d < t->rank; d++)
        dims[d] = lost[d] ? (oc_dim){-1, NULL} : t->dims[d];
    c->dims = dims;
    p->lost[v] = c;
}

/* RNN, GRU and LSTM in the default layout: ONNX's inference reads X's
 * shape and the attributes only, so their outputs keep a rank whatever
 * the other inputs' (Y [seq, dirs, batch, hidden], Y_h and Y_c [dirs,
 * batch, hidden]), with num_directions always known, hidden_size where
 * the attribute says it, and seq and batch X's dims 0 and 1 (measured
 * with ORT 1.30: blind39's DeepAR feeds each step's LSTMs initial states
 * sliced from a Reshape of computed target, which leaves them no shape;
 * ORT still made one Split of the two Slices of every later step's
 * Concat of the Y_h's, 46 a run). */
static bool rnn_shapes(const pctx *p, const oc_node *n)
{
    const oc_attr *layout = oc_node_attr(n, "layout");
    return (is_op(p, n, OC_OPID_LSTM) || is_op(p, n, OC_OPID_GRU) ||
            is_op(p, n, OC_OPID_RNN)) &&
           !n->domain[0] && !(layout && layout->i);
}

static void lose_rnn_dims(pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    int x = in(p, i, 0);
    bool x_none = x < 0 || p->rankless[x], sized = oc_node_attr(n, "hidden_size") != NULL;
    /* per output dim: the dim of X it is, or -1 (dirs, hidden) */
    static const int from_y[4] = {0, -1, 1, -1}, from_state[3] = {-1, 1, -1};
    for (size_t q = 0; q < n->n_outputs; q++) {
        int y = n->outputs[q], r = q == 0 ? 4 : 3;
        const int *from = q == 0 ? from_y : from_state;
        const oc_tinfo *t = sinfo(p, y);
        if (y < 0 || p->constant[y] || !t || t->rank != r)
            continue;
        bool lost[4] = {false, false, false, false}, any = false;
        for (int d = 0; d < r; d++) {
            lost[d] = from[d] >= 0 ? x_none || dim_lost(p, x, from[d]) : d == r - 1 && !sized;
            any |= lost[d];
        }
        if (any)
            mark_lost(p, y, t, lost);
    }
}

/* Node i's outputs' shapes as ORT's load-time inference has them, where
 * it knows fewer dims than ours (p->lost): its first output, or every
 * part of a Split. */
static void lose_dims(pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    if (rnn_shapes(p, n)) {
        lose_rnn_dims(p, i);
        return;
    }
    size_t outs = is_op(p, n, OC_OPID_Split) ? n->n_outputs : n->n_outputs > 0;
    for (size_t q = 0; q < outs; q++) {
        int y = n->outputs[q];
        const oc_tinfo *t = sinfo(p, y);
        bool lost[OC_MAX_RANK];
        if (y < 0 || p->constant[y] || p->rankless[y] || !t || t->rank < 1 ||
            t->rank > OC_MAX_RANK || !lost_dims(p, i, t->rank, lost))
            continue;
        mark_lost(p, y, t, lost);
    }
}

/* A value whose shape the model declares (a graph output, value_info)
 * keeps that shape in ORT where inference gives none: a rank, and the
 * dims declared as numbers or as the symbols ours are; where inference
 * works its dims win, as ORT merges them (measured with ORT 1.30:
 * blind24's ising_metropolis computes its readout from values no shape
 * rule reaches, a GreaterOrEqual before opset 16, and as that readout is a
 * graph output declared [N, dim, 16] its MatMul + bias + Gelu still made a
 * BiasGelu). */
static void declared_shape(pctx *p, int v)
{
    const oc_value *dv = v >= 0 ? &p->g->values[v] : NULL;
    const oc_tinfo *t = sinfo(p, v);
    if (!dv || dv->rank < 0 || p->constant[v] || !t || t->rank != dv->rank ||
        t->rank > OC_MAX_RANK || !(p->rankless[v] || p->lost[v]))
        return;
    bool lost[OC_MAX_RANK], any = false;
    for (int d = 0; d < t->rank; d++) {
        oc_dim x = dv->dims[d], y = t->dims[d];
        bool known = !p->rankless[v] && !dim_lost(p, v, d);
        lost[d] = !known && !(oc_dim_is_known(x) ? dim_eq(x, y) : dim_param_eq(x, y));
        any |= lost[d];
    }
    p->rankless[v] = false;
    p->lost[v] = NULL;
    if (any)
        mark_lost(p, v, t, lost);
}

static void ort_shapes(pctx *p)
{
    const oc_graph *g = p->g;
    for (size_t v = 0; v < p->nv; v++) {
        const oc_tinfo *t = sinfo(p, (int)v);
        p->rankless[v] = !p->constant[v] && (!t || t->rank < 0);
        p->shape_data[v] = p->constant[v];
        p->lost[v] = NULL;
    }
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        const oc_node *n = &g->nodes[i];
        if (p->nk[i].kind == OC_KERNEL_FOLDED || p->nk[i].kind == OC_KERNEL_REMOVED)
            continue; /* constants, or aliases of their input */
        bool any_rankless = false, all_data = true;
        for (size_t k = 0; k < n->n_inputs; k++) {
            int v = in(p, i, k);
            if (v < 0)
                continue;
            any_rankless |= p->rankless[v];
            all_data &= p->shape_data[v];
        }
        bool rankless = any_rankless, data = false;
        if (is_op(p, n, OC_OPID_Shape) || is_op(p, n, OC_OPID_Size)) {
            rankless = false;
            data = !any_rankless;
        } else if (is_op(p, n, OC_OPID_Range) || is_op(p, n, OC_OPID_NonZero)) {
            rankless = false;
        } else if (is_op(p, n, OC_OPID_ConstantOfShape)) {
            /* its rank is its input's length: unknown when that input is
             * the Shape of a value of no known rank (measured with ORT
             * 1.30: an Add of such a ConstantOfShape has no shape, and an
             * Expand of it to [1, 1, 1] stays) */
            int x = in(p, i, 0), pr = x >= 0 ? g->values[x].producer : -1;
            rankless = any_rankless ||
                       (pr >= 0 && is_op(p, &g->nodes[pr], OC_OPID_Shape) &&
                        in(p, (size_t)pr, 0) >= 0 && p->rankless[in(p, (size_t)pr, 0)]);
        } else if (is_op(p, n, OC_OPID_Reshape)) {
            int sh = in(p, i, 1);
            rankless = sh >= 0 && !p->constant[sh] && (n->opset < 14 || !p->shape_data[sh]);
        } else if (propagates_shape_data(p, n)) {
            data = all_data && !any_rankless;
        } else if (no_shape_inference(p, n)) {
            rankless = true;
        } else if (rnn_shapes(p, n)) {
            rankless = false; /* lose_rnn_dims */
        }
        for (size_t q = 0; q < n->n_outputs; q++) {
            int o = n->outputs[q];
            if (o < 0 || p->constant[o])
                continue;
            p->rankless[o] |= rankless;
            p->shape_data[o] = data;
        }
        lose_dims(p, i);
        for (size_t q = 0; q < n->n_outputs; q++)
            declared_shape(p, n->outputs[q]);
    }
}

/* Value v's shape as ORT's load-time inference has it (NULL: none). */
static const oc_tinfo *ort_info(const pctx *p, int v)
{
    return v < 0 || p->rankless[v] ? NULL : p->lost[v] ? p->lost[v] : sinfo(p, v);
}

/* A live node that ends a chain FuseContiguousReshapes may extend: a
 * Reshape with a constant target (ORT 1.30 fails to load a model whose
 * chain starts at a Reshape with a computed one), or a node this pass
 * already made a Reshape. */
static bool chain_head(const pctx *p, size_t j)
{
    if (!live(p, j))
        return false;
    if (p->flags[j] & F_AS_RESHAPE)
        return true;
    int sh = in(p, j, 1);
    return is_op(p, &p->g->nodes[j], OC_OPID_Reshape) && sh >= 0 && p->constant[sh];
}

/* ReshapeFusion's second rule (level 1; reshape_fusion.cc,
 * FuseContiguousReshapes, which names the result "<first>_new_reshape"):
 * a Reshape, Squeeze or Unsqueeze (constant target or axes) whose input is
 * a chain_head read by nothing else becomes one Reshape of that one's
 * input, when ORT's load-time inference knows its output shape to the
 * last dim (the new target is that shape, a constant).  Checked against
 * ORT 1.30 (onnxruntime-node, graph written at level basic): Reshape ->
 * Reshape, -> Squeeze, -> Unsqueeze -> Reshape and three Reshapes merge;
 * not with a symbolic dim in the result, nor when the first output has
 * another reader, nor Unsqueeze -> Reshape, nor Reshape -> Flatten.
 * Returns how many nodes went. */
static int fuse_contiguous_reshapes(pctx *p)
{
    const oc_graph *g = p->g;
    int merged = 0;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        const oc_node *n = &g->nodes[i];
        if (!live(p, i) || !(is_op(p, n, OC_OPID_Reshape) || is_op(p, n, OC_OPID_Squeeze) ||
                             is_op(p, n, OC_OPID_Unsqueeze)))
            continue;
        int x = in(p, i, 0), y = out0(p, i);
        int j = x >= 0 ? g->values[x].producer : -1;
        const oc_tinfo *yt = ort_info(p, y);
        if (j < 0 || !chain_head(p, (size_t)j) || p->uses[x] != 1 || g->values[x].is_output ||
            !yt || yt->rank < 0 || !dims_concrete(yt, 0, yt->rank))
            continue;
        bool other_const = true;
        for (size_t k = 1; k < n->n_inputs; k++)
            other_const &= in(p, i, k) < 0 || p->constant[in(p, i, k)];
        int jx = in(p, (size_t)j, 0);
        if (!other_const || jx < 0)
            continue;
        drop(p, (size_t)j, OC_KERNEL_REMOVED, "merged into the next Reshape");
        p->alias[x] = jx;
        if (!is_op(p, n, OC_OPID_Reshape))
            set_kernel(&p->nk[i], OC_OPID_Reshape);
        p->flags[i] |= F_AS_RESHAPE;
        merged++;
    }
    return merged;
}

/* ---- pass 1b: the transpose optimizer ----
 *
 * ORT's TransposeOptimizer (transpose_optimization/
 * onnx_transpose_optimization.cc, the last level-1 transformer, before
 * the level-2 fusions see the graph): in topological order, a node one of
 * whose inputs comes from a Transpose takes that Transpose through it
 * when its handler can and the estimated cost falls; the node then runs
 * on the permuted tensors and a Transpose goes after it, where the next
 * node may take it further or cancel it against another.  Here a value
 * v is Transpose(buffer of buf[v], tp[v]) and a Transpose node only
 * composes permutations; the Transpose kernels are the (buffer,
 * permutation) pairs some reader still needs (transpose_materialize). */

static bool add_inserted(pctx *p, int kid, int value, size_t at, bool before);

typedef enum tkind {
    TK_NONE,      /* no handler: a transpose stops before the node */
    TK_SIMPLE,    /* every input, elementwise (HandleSimpleNode) */
    TK_BROADCAST, /* the non-scalar inputs, broadcast first */
    TK_FIRST,     /* the first input, the outputs in the same layout */
    TK_CONCAT,    /* every input, the axis remapped */
    TK_REDUCE,    /* the first input, the axes remapped */
    TK_SHAPE,     /* Shape(Transpose(x)) becomes Gather(Shape(x)) */
    TK_TRANSPOSE, /* merged with the Transpose before it */
    TK_SPLIT,     /* the first input, the axis remapped, every output */
    TK_SQUEEZE,   /* the first input, the axes remapped, fewer axes out */
    TK_UNSQUEEZE, /* the first input, new axes of 1 left in place */
    TK_SLICE,     /* the first input, the axes remapped */
    TK_SOFTMAX,   /* Softmax, Hardmax, LogSoftmax: the axis remapped */
    TK_TILE,      /* the first input, the repeats permuted (a Gather on
                     them when they are computed) */
    TK_HELD,      /* a handler this plan does not replay: never taken */
    TK_VIEW       /* Reshape: a handler whose output is not transposed */
} tkind;

static tkind tkind_of(const pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    if (n->domain[0])
        return TK_NONE;
    /* a Squeeze or Unsqueeze FuseContiguousReshapes made a Reshape */
    oc_op_id op = p->flags[i] & F_AS_RESHAPE ? OC_OPID_Reshape : oc_analysis_node_cost(p->a, i)->op;
    if (reduce_op(op))
        return TK_REDUCE;
    switch (op) {
    case OC_OPID_Cast: case OC_OPID_Exp: case OC_OPID_Gelu: case OC_OPID_Identity:
    case OC_OPID_LeakyRelu: case OC_OPID_Log: case OC_OPID_Reciprocal: case OC_OPID_Relu:
    case OC_OPID_Sigmoid: case OC_OPID_Sqrt: case OC_OPID_Tanh: case OC_OPID_Abs:
    case OC_OPID_Not: case OC_OPID_Ceil: case OC_OPID_Floor: case OC_OPID_Neg:
    case OC_OPID_Erf: case OC_OPID_HardSigmoid: case OC_OPID_Round: case OC_OPID_IsInf:
    case OC_OPID_IsNaN: case OC_OPID_Selu: case OC_OPID_Shrink: case OC_OPID_Sign:
    case OC_OPID_Softplus: case OC_OPID_Softsign: case OC_OPID_ThresholdedRelu:
    case OC_OPID_Celu: case OC_OPID_HardSwish: case OC_OPID_Sin: case OC_OPID_Cos:
    case OC_OPID_Tan: case OC_OPID_Sinh: case OC_OPID_Cosh: case OC_OPID_Asin:
    case OC_OPID_Acos: case OC_OPID_Atan: case OC_OPID_Asinh: case OC_OPID_Acosh:
    case OC_OPID_Atanh:
        return TK_SIMPLE;
    case OC_OPID_Add: case OC_OPID_Max: case OC_OPID_Min: case OC_OPID_Mul:
    case OC_OPID_Sub: case OC_OPID_Div: case OC_OPID_And: case OC_OPID_Or:
    case OC_OPID_Xor: case OC_OPID_Mod: case OC_OPID_PRelu: case OC_OPID_BitShift:
    case OC_OPID_Equal: case OC_OPID_Greater: case OC_OPID_Less:
    case OC_OPID_GreaterOrEqual: case OC_OPID_LessOrEqual: case OC_OPID_Mean:
    case OC_OPID_Sum: case OC_OPID_Pow: case OC_OPID_Where:
        return TK_BROADCAST;
    case OC_OPID_Clip: case OC_OPID_CastLike:
        return TK_FIRST;
    case OC_OPID_Concat:
        return TK_CONCAT;
    case OC_OPID_Shape:
        return TK_SHAPE;
    case OC_OPID_Transpose:
        return TK_TRANSPOSE;
    case OC_OPID_Split:
        return TK_SPLIT;
    case OC_OPID_Squeeze:
        return TK_SQUEEZE;
    case OC_OPID_Unsqueeze:
        return TK_UNSQUEEZE;
    case OC_OPID_Slice:
        return TK_SLICE;
    case OC_OPID_Softmax: case OC_OPID_Hardmax: case OC_OPID_LogSoftmax:
        return TK_SOFTMAX;
    case OC_OPID_Tile:
        return TK_TILE;
    case OC_OPID_Pad: case OC_OPID_ArgMin: case OC_OPID_ArgMax:
    case OC_OPID_QuantizeLinear: case OC_OPID_DequantizeLinear:
    case OC_OPID_MaxPool: case OC_OPID_Resize:
        return TK_HELD;
    case OC_OPID_Reshape:
        return TK_VIEW;
    default:
        return TK_NONE;
    }
}

/* The handler puts a Transpose after the node (HandlerInfo's
 * transposes_outputs). */
static bool tkind_moves_out(tkind k)
{
    return k != TK_NONE && k != TK_SHAPE && k != TK_TRANSPOSE && k != TK_VIEW;
}

/* The inputs the handler transposes (transposible_inputs_fn), as bits. */
static uint32_t tkind_slots(const pctx *p, size_t i, tkind k)
{
    const oc_node *n = &p->g->nodes[i];
    uint32_t s = 0;
    if (k == TK_NONE || n->n_inputs == 0 || n->n_inputs > 32)
        return 0;
    if (k != TK_SIMPLE && k != TK_BROADCAST && k != TK_CONCAT)
        return 1;
    for (size_t q = 0; q < n->n_inputs; q++) {
        const oc_tinfo *t = sinfo(p, in(p, i, q));
        /* NonScalarInputs: a rank-0 input is not transposed */
        if (in(p, i, q) >= 0 && (k != TK_BROADCAST || !t || t->rank != 0))
            s |= 1u << q;
    }
    return s;
}

static tperm perm_of_node(const pctx *p, size_t i)
{
    tperm q = {0};
    const oc_attr *a = oc_node_attr(&p->g->nodes[i], "perm");
    if (!a || a->n == 0 || a->n > TP_MAX)
        return q;
    bool used[TP_MAX] = {false};
    for (size_t d = 0; d < a->n; d++) {
        if (a->ints[d] < 0 || a->ints[d] >= (int64_t)a->n || used[a->ints[d]])
            return q;
        used[a->ints[d]] = true;
        q.v[d] = (signed char)a->ints[d];
    }
    q.r = (unsigned char)a->n;
    return q;
}

static bool perm_is_id(const tperm *q)
{
    for (int d = 0; d < q->r; d++)
        if (q->v[d] != d)
            return false;
    return true;
}

static bool perm_same(const tperm *a, const tperm *b)
{
    if (perm_is_id(a) || perm_is_id(b))
        return perm_is_id(a) && perm_is_id(b);
    return a->r == b->r && memcmp(a->v, b->v, a->r) == 0;
}

/* Transpose by a, then by b. */
static tperm perm_then(const tperm *a, const tperm *b)
{
    if (perm_is_id(a))
        return *b;
    if (perm_is_id(b) || a->r != b->r)
        return *a;
    tperm c = {.r = a->r};
    for (int d = 0; d < a->r; d++)
        c.v[d] = a->v[(int)b->v[d]];
    return c;
}

static tperm perm_inverse(const tperm *a)
{
    tperm c = {.r = a->r};
    for (int d = 0; d < a->r; d++)
        c.v[(int)a->v[d]] = (signed char)d;
    return c;
}

/* The layout in which node c reads its input slot k. */
static tperm read_layout(const pctx *p, size_t c, size_t k)
{
    tperm id = {0};
    return k < 32 && (p->tslots[c] >> k & 1) ? p->lay[c] : id;
}

/* Node c reads value v as its producer computes it: no Transpose kernel
 * between them (a Transpose node the optimizer left is that producer). */
static bool reads_plain(const pctx *p, int v, size_t c)
{
    const oc_node *n = &p->g->nodes[c];
    int pr = p->g->values[v].producer;
    bool kept = pr >= 0 && (live(p, (size_t)pr) || (p->flags[pr] & F_MMT)) &&
                is_op(p, &p->g->nodes[pr], OC_OPID_Transpose);
    for (size_t k = 0; k < n->n_inputs; k++)
        if (in(p, c, k) == v) {
            tperm need = read_layout(p, c, k);
            if (!perm_same(&p->tp[v], &need) && !(kept && perm_is_id(&need)))
                return false;
        }
    return true;
}

/* Node c reads the Transpose output v as the buffer under it, the
 * transpose pushed through c (TransposeOptimizer): no kernel between. */
static bool reads_buffer(const pctx *p, int v, size_t c)
{
    const oc_node *n = &p->g->nodes[c];
    for (size_t k = 0; k < n->n_inputs; k++)
        if (in(p, c, k) == v && !perm_is_id(&p->tp[v])) {
            tperm need = read_layout(p, c, k);
            if (perm_same(&p->tp[v], &need))
                return true;
        }
    return false;
}

/* EstimateValueRank: the dims that are not 1 (a symbolic dim counts), 5
 * when the rank is unknown. */
static int est_rank(const pctx *p, int v)
{
    const oc_tinfo *t = sinfo(p, v);
    if (!t || t->rank < 0 || (t->rank > 0 && !t->dims) || p->norank[v])
        return 5;
    int r = 0;
    for (int d = 0; d < t->rank; d++)
        r += !(oc_dim_is_known(t->dims[d]) && t->dims[d].v == 1);
    return r;
}

/* CanLikelyRemoveTranspose: every reader of the Transpose before v has a
 * handler, and v is no graph output. */
static bool tp_removable(const pctx *p, int v)
{
    if (p->g->values[v].is_output)
        return false;
    for (int e = p->cons_start[v]; e < p->cons_start[v + 1]; e++)
        if (live(p, (size_t)p->cons[e]) && tkind_of(p, (size_t)p->cons[e]) == TK_NONE)
            return false;
    return true;
}

/* EstimateTransposeValueCost of reading v in layout q: a constant is
 * transposed for free, a Transpose of q that can go saves its rank,
 * anything else costs its rank. */
static int tp_input_cost(const pctx *p, int v, const tperm *q)
{
    if (v < 0 || p->constant[v])
        return 0;
    if (!perm_is_id(&p->tp[v]))
        return perm_same(&p->tp[v], q) && tp_removable(p, v) ? -est_rank(p, v) : 0;
    return est_rank(p, v);
}

/* The axes reduction node i names, by attribute or constant input: *na of
 * them at *ax (c holds them for an input); *na 0 when it names none.
 * False when its axes input is not a known constant. */
static bool named_axes(const pctx *p, size_t i, cvals *c, const int64_t **ax, int64_t *na)
{
    const oc_node *n = &p->g->nodes[i];
    const oc_attr *a = oc_node_attr(n, "axes");
    *na = 0;
    *ax = NULL;
    if (a) {
        *na = (int64_t)a->n;
        *ax = a->ints;
    } else if (n->n_inputs > 1 && in(p, i, 1) >= 0) {
        if (!const_vals(p, in(p, i, 1), c) || !c->ints)
            return false;
        *na = c->n;
        *ax = c->i;
    }
    return true;
}

/* The axes a reduction names, normalized to [0, rank) and sorted as a
 * mask; false when they are not known.  No axes: all of them. */
static bool reduce_axes(const pctx *p, size_t i, int rank, bool *mask)
{
    cvals c;
    int64_t na;
    const int64_t *ax;
    if (rank < 0 || rank > OC_MAX_RANK || !named_axes(p, i, &c, &ax, &na))
        return false;
    for (int d = 0; d < rank; d++)
        mask[d] = na == 0;
    for (int64_t q = 0; q < na; q++) {
        int64_t d = ax[q] < 0 ? ax[q] + rank : ax[q];
        if (d < 0 || d >= rank)
            return false;
        mask[d] = true;
    }
    return true;
}

/* SqueezePerm: q on the axes that are left once `gone` are removed. */
static tperm perm_squeeze(const tperm *q, const bool *gone)
{
    tperm c = {0};
    int map[TP_MAX], j = 0;
    for (int d = 0; d < q->r; d++)
        map[d] = gone[d] ? -1 : j++;
    for (int d = 0; d < q->r; d++)
        if (!gone[(int)q->v[d]])
            c.v[c.r++] = (signed char)map[(int)q->v[d]];
    return c;
}

/* ReadFromAttrOrInput: the ints of attribute `name` below the model's
 * opset `since`, else of constant input `slot`; false when they are
 * missing or not constant. */
static bool ints_of(const pctx *p, size_t i, const char *name, size_t slot, int since,
                    int64_t *out, int *n)
{
    const oc_node *nd = &p->g->nodes[i];
    if (nd->opset < since) {
        const oc_attr *a = oc_node_attr(nd, name);
        if (!a || a->n > TP_MAX)
            return false;
        for (size_t q = 0; q < a->n; q++)
            out[q] = a->ints[q];
        *n = (int)a->n;
        return true;
    }
    cvals c;
    int v = slot < nd->n_inputs ? in(p, i, slot) : -1;
    if (v < 0 || !const_vals(p, v, &c) || !c.ints || c.n > TP_MAX)
        return false;
    for (int64_t q = 0; q < c.n; q++)
        out[q] = c.i[q];
    *n = (int)c.n;
    return true;
}

/* NormalizeAndValidateAxes: n axes, negative ones counted from the end,
 * each in [0, rank) and named once, as a mask. */
static bool axes_mask(const int64_t *ax, int n, int rank, bool *mask)
{
    if (rank > TP_MAX)
        return false;
    for (int d = 0; d < rank; d++)
        mask[d] = false;
    for (int q = 0; q < n; q++) {
        int64_t d = ax[q] < 0 ? ax[q] + rank : ax[q];
        if (d < 0 || d >= rank || mask[d])
            return false;
        mask[d] = true;
    }
    return true;
}

/* UnsqueezePerm: q on the axes that are left once the axes `added` (of
 * the output's rank r) are inserted; the new axes of 1 stay in place. */
static tperm perm_unsqueeze(const tperm *q, const bool *added, int r)
{
    tperm c = {.r = (unsigned char)r};
    int map[TP_MAX], m = 0, j = 0;
    for (int d = 0; d < r; d++)
        if (!added[d])
            map[m++] = d;
    for (int d = 0; d < r; d++)
        c.v[d] = (signed char)(added[d] ? d : map[(int)q->v[j++]]);
    return c;
}

/* An axis attribute (default `def`) that names one of q's axes. */
static bool axis_ok(const oc_node *n, int64_t def, const tperm *q, int64_t *axis)
{
    const oc_attr *a = oc_node_attr(n, "axis");
    int64_t x = a ? a->i : def;
    x = x < 0 ? x + q->r : x;
    *axis = x;
    return x >= 0 && x < q->r;
}

/* The output layouts of the handlers that change the axes (HandleSplit,
 * HandleSqueeze, HandleUnsqueeze, HandleSlice, HandleSoftHardMax), or
 * false when the handler refuses: axes it cannot read, or, before opset
 * 13, a Softmax whose 2-D coercion the permutation crosses. */
static bool tp_axes_out(const pctx *p, size_t i, tkind k, const tperm *q, tperm *out)
{
    const oc_node *n = &p->g->nodes[i];
    int64_t ax[TP_MAX], axis;
    int na = 0;
    bool mask[TP_MAX], gone[TP_MAX] = {false};
    *out = *q;
    switch (k) {
    case TK_SPLIT:
        return axis_ok(n, 0, q, &axis);
    case TK_SOFTMAX:
        if (n->opset >= 13)
            return axis_ok(n, -1, q, &axis);
        if (!axis_ok(n, 1, q, &axis))
            return false;
        for (int d = 0; d < q->r; d++)
            if ((d < axis) != (q->v[d] < axis))
                return false;
        return true;
    case TK_SQUEEZE:
        /* no axes: the output's rank is unknown */
        if (!ints_of(p, i, "axes", 1, 13, ax, &na) || !axes_mask(ax, na, q->r, mask))
            return false;
        for (int d = 0; d < q->r; d++)
            gone[(int)q->v[d]] = mask[d];
        *out = perm_squeeze(q, gone);
        return true;
    case TK_UNSQUEEZE:
        if (!ints_of(p, i, "axes", 1, 13, ax, &na) || !axes_mask(ax, na, q->r + na, mask))
            return false;
        *out = perm_unsqueeze(q, mask, q->r + na);
        return true;
    case TK_SLICE:
        if (n->opset < 10) {
            /* no axes: the first len(starts) */
            if (!oc_node_attr(n, "axes")) {
                const oc_attr *st = oc_node_attr(n, "starts");
                return st && st->n <= q->r;
            }
            return ints_of(p, i, "axes", 3, 10, ax, &na) && axes_mask(ax, na, q->r, mask);
        }
        if (n->n_inputs < 4 || in(p, i, 3) < 0) {
            /* no axes input: the length of starts from its shape */
            const oc_tinfo *t = ort_info(p, in(p, i, 1));
            return t && t->rank == 1 && t->dims && oc_dim_is_known(t->dims[0]) &&
                   t->dims[0].v <= q->r;
        }
        return ints_of(p, i, "axes", 3, 10, ax, &na) && axes_mask(ax, na, q->r, mask);
    default:
        return true;
    }
}

/* The handler takes the Transpose q through node i, or refuses (false,
 * nothing changed). */
static bool tp_push(pctx *p, size_t i, tkind k, const tperm *q, uint32_t slots)
{
    const oc_node *n = &p->g->nodes[i];
    tperm out = *q;
    for (size_t s = 0; k == TK_BROADCAST && s < n->n_inputs; s++) {
        if (!(slots >> s & 1))
            continue;
        const oc_tinfo *t = p->norank[in(p, i, s)] ? NULL : sinfo(p, in(p, i, s));
        /* NormalizeInputRanks, which only the broadcast handler calls (the
         * others take the rank from q): a known rank, no higher than q's;
         * a lower one is unsqueezed, in place for a constant (an Unsqueeze
         * node otherwise, which this plan does not add: it refuses) */
        if (!t || t->rank < 0 || t->rank > q->r ||
            (t->rank < q->r && (k != TK_BROADCAST || !p->constant[in(p, i, s)])))
            return false;
    }
    if (k == TK_HELD || k == TK_VIEW || k == TK_NONE)
        return false;
    if (!tp_axes_out(p, i, k, q, &out))
        return false;
    if (k == TK_CONCAT) {
        const oc_attr *ax = oc_node_attr(n, "axis");
        if (!ax || ax->i < -(int64_t)q->r || ax->i >= (int64_t)q->r)
            return false;
    }
    if (k == TK_REDUCE) {
        /* opset 18 (ReduceSum 13) moved the axes to an input: it must be
         * constant; kept dims keep q, removed ones squeeze it */
        bool axes[OC_MAX_RANK], gone[TP_MAX] = {false};
        const oc_attr *kd = oc_node_attr(n, "keepdims");
        if (!reduce_axes(p, i, q->r, axes))
            return false;
        if (kd && kd->i == 0) {
            for (int d = 0; d < q->r; d++)
                gone[(int)q->v[d]] = axes[d];
            out = perm_squeeze(q, gone);
        }
    }
    p->lay[i] = *q;
    p->tslots[i] = slots;
    for (size_t o = 0; o < n->n_outputs; o++) {
        int y = n->outputs[o];
        if (y < 0)
            continue;
        p->buf[y] = y;
        if (k != TK_SHAPE)
            p->tp[y] = out;
    }
    if (k == TK_SHAPE)
        add_inserted(p, OC_OPID_Gather, out0(p, i), i, false);
    /* HandleTile: constant repeats are permuted in place, computed ones
     * go through a Gather */
    int rep = n->n_inputs > 1 ? in(p, i, 1) : -1;
    if (k == TK_TILE && rep >= 0 && !p->constant[rep])
        add_inserted(p, OC_OPID_Gather, rep, i, true);
    return true;
}

/* ORT's loop for node i: the first input that comes from a Transpose and
 * whose push the cost model likes (DefaultCostCheck: the inputs' cost
 * plus, when no output leads to another Transpose, the output's rank,
 * strictly negative). */
static void tp_visit(pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    tkind k = tkind_of(p, i);
    if (k == TK_NONE)
        return;
    if (k == TK_TRANSPOSE) {
        tperm perm = perm_of_node(p, i);
        int x = in(p, i, 0), y = out0(p, i);
        if (x < 0 || y < 0 || perm.r == 0 ||
            (!perm_is_id(&p->tp[x]) && p->tp[x].r != perm.r))
            return;
        p->tp[y] = perm_then(&p->tp[x], &perm);
        p->buf[y] = p->buf[x];
        p->flags[i] |= F_TMERGED;
        return;
    }
    uint32_t slots = tkind_slots(p, i, k);
    for (size_t j = 0; j < n->n_inputs && j < 32; j++) {
        int u = in(p, i, j);
        if (u < 0 || perm_is_id(&p->tp[u]) || !(slots >> j & 1))
            continue;
        tperm q = p->tp[u];
        int cost = 0;
        for (size_t s = 0; s < n->n_inputs; s++)
            if (slots >> s & 1)
                cost += tp_input_cost(p, in(p, i, s), &q);
        if (cost < 0 && tkind_moves_out(k)) {
            bool leads = false;
            int out_cost = 0;
            for (size_t o = 0; o < n->n_outputs; o++)
                if (n->outputs[o] >= 0) {
                    leads |= p->lead[n->outputs[o]];
                    if (est_rank(p, n->outputs[o]) > out_cost)
                        out_cost = est_rank(p, n->outputs[o]);
                }
            if (!leads)
                cost += out_cost;
        }
        if (cost < 0 && tp_push(p, i, k, &q, slots))
            return;
    }
}

/* Reader c (or a graph output, c < 0) needs v in layout need: the
 * Transpose kernel on v's buffer with that permutation, shared. */
static void tp_need(pctx *p, int v, const tperm *need, int c)
{
    tperm inv = perm_inverse(need);
    tperm r = perm_then(&p->tp[v], &inv);
    int b = p->buf[v];
    for (int e = p->tk_head[b]; e >= 0; e = p->tk[e].next)
        if (perm_same(&p->tk[e].perm, &r)) {
            p->tk[e].readers++;
            return;
        }
    if (p->n_tk == p->cap_tk) {
        size_t cap = p->cap_tk ? 2 * p->cap_tk : 64;
        tkernel *nt = oc_arena_alloc(p->ar, cap * sizeof *nt);
        if (!nt)
            return;
        if (p->n_tk)
            memcpy(nt, p->tk, p->n_tk * sizeof *nt);
        p->tk = nt;
        p->cap_tk = cap;
    }
    tkernel *t = &p->tk[p->n_tk];
    *t = (tkernel){.perm = r, .buf = b, .next = p->tk_head[b], .node = -1, .ins = -1,
                   .readers = 1};
    int pr = p->g->values[v].producer;
    if (perm_is_id(need) && pr >= 0 && live(p, (size_t)pr) &&
        is_op(p, &p->g->nodes[pr], OC_OPID_Transpose)) {
        /* the Transpose node itself (its perm merged with the one before) */
        t->node = pr;
    } else {
        size_t at = c >= 0 ? (size_t)c : (size_t)(b >= 0 && p->g->values[b].producer >= 0
                                                       ? p->g->values[b].producer : 0);
        t->ins = (int)p->n_ins;
        if (!add_inserted(p, OC_OPID_Transpose, v, at, c >= 0))
            return;
    }
    p->tk_head[b] = (int)p->n_tk++;
}

/* The Transpose kernels that are left: every reader that needs a value
 * in another layout than its buffer's; Transpose nodes nobody needs go. */
static void tp_materialize(pctx *p)
{
    const oc_graph *g = p->g;
    for (size_t t = 0; t < p->nn; t++) {
        size_t c = (size_t)g->topo[t];
        if (!live(p, c) || (p->flags[c] & F_TMERGED))
            continue;
        for (size_t k = 0; k < g->nodes[c].n_inputs; k++) {
            int v = in(p, c, k);
            tperm need = read_layout(p, c, k);
            if (v >= 0 && !p->constant[v] && !perm_same(&p->tp[v], &need))
                tp_need(p, v, &need, (int)c);
        }
    }
    tperm id = {0};
    for (size_t k = 0; k < g->n_outputs; k++) {
        int v = A(p, g->outputs[k]);
        if (v >= 0 && !perm_is_id(&p->tp[v]))
            tp_need(p, v, &id, -1);
    }
    bool *kept = oc_arena_calloc(p->ar, p->nn + 1, sizeof(bool));
    if (!kept)
        return;
    for (size_t e = 0; e < p->n_tk; e++)
        if (p->tk[e].node >= 0)
            kept[p->tk[e].node] = true;
    for (size_t i = 0; i < p->nn; i++)
        if (live(p, i) && (p->flags[i] & F_TMERGED) && !kept[i])
            drop(p, i, OC_KERNEL_REMOVED, "transpose moved through its readers");
}

/* Value v's contents are known to ORT's load-time data propagation (a
 * constant, or shape arithmetic on Shape/Size of a tensor with a rank),
 * as far as mark_norank has gone (see ort_shapes). */
static bool norank_data(const pctx *p, int v)
{
    return v >= 0 && (p->constant[v] || p->shape_data[v]);
}

/* ONNX's Expand infers its output only from the contents of its shape
 * input: without them (a Where or ConstantOfShape of computed shapes, say)
 * the output has no rank. */
static bool expand_norank(const pctx *p, size_t i)
{
    return is_op(p, &p->g->nodes[i], OC_OPID_Expand) && !norank_data(p, in(p, i, 1));
}

/* The values whose rank ORT's load-time shape inference does not know,
 * where this analysis may: a Reshape to a computed shape (ONNX infers no
 * rank from the shape tensor's length), an Expand to a shape whose
 * contents are not propagated, and what is computed from one by ops whose
 * rank follows their inputs'. */
static void mark_norank(pctx *p)
{
    static const oc_op_id fixed[] = {OC_OPID_Shape, OC_OPID_Size, OC_OPID_Flatten,
                                     OC_OPID_NonZero, OC_OPID_Range, OC_OPID_ConstantOfShape};
    const oc_graph *g = p->g;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        const oc_node *n = &g->nodes[i];
        if (!live(p, i))
            continue;
        bool unknown = false;
        if (is_op(p, n, OC_OPID_Reshape))
            unknown = in(p, i, 1) >= 0 && !p->constant[in(p, i, 1)];
        else {
            for (size_t k = 0; k < n->n_inputs; k++)
                unknown |= in(p, i, k) >= 0 && !p->constant[in(p, i, k)] && p->norank[in(p, i, k)];
            for (size_t q = 0; q < sizeof fixed / sizeof fixed[0]; q++)
                if (is_op(p, n, fixed[q]))
                    unknown = false;
        }
        unknown |= expand_norank(p, i);
        bool data = false;
        if (is_op(p, n, OC_OPID_Shape) || is_op(p, n, OC_OPID_Size)) {
            data = in(p, i, 0) >= 0 && !p->norank[in(p, i, 0)];
        } else if (propagates_shape_data(p, n) && !unknown) {
            data = true;
            for (size_t k = 0; k < n->n_inputs; k++)
                data &= in(p, i, k) < 0 || norank_data(p, in(p, i, k));
        }
        for (size_t o = 0; o < n->n_outputs; o++)
            if (n->outputs[o] >= 0) {
                p->norank[n->outputs[o]] = unknown;
                p->shape_data[n->outputs[o]] = data;
            }
    }
}

static void pass_transpose(pctx *p)
{
    const oc_graph *g = p->g;
    mark_norank(p);
    /* outputs_leading_to_transpose, on the graph as the optimizer finds it */
    for (size_t t = p->nn; t-- > 0;) {
        size_t i = (size_t)g->topo[t];
        if (!live(p, i))
            continue;
        tkind k = tkind_of(p, i);
        const oc_node *n = &g->nodes[i];
        if (k == TK_TRANSPOSE) {
            if (in(p, i, 0) >= 0)
                p->lead[in(p, i, 0)] = true;
            continue;
        }
        bool leads = false;
        for (size_t o = 0; o < n->n_outputs; o++)
            leads |= n->outputs[o] >= 0 && p->lead[n->outputs[o]];
        if (!leads || !tkind_moves_out(k))
            continue;
        uint32_t s = tkind_slots(p, i, k);
        for (size_t q = 0; q < n->n_inputs && q < 32; q++)
            if (s >> q & 1)
                p->lead[in(p, i, q)] = true;
    }
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (live(p, i))
            tp_visit(p, i);
    }
    tp_materialize(p);
}

/* NoopElimination (a level-1 rewrite rule) once more: ORT's level-1 loop
 * runs its rules again after ReshapeFusion gave Reshapes constant targets
 * and so their outputs load-time shapes.  Add/Sub of 0 or Mul/Div by 1
 * goes when exactly one input is a constant of one element (the second,
 * for Sub and Div) of rank at most the other input's, the other input has
 * a load-time shape, and the result is no graph output.  Nodes the
 * transpose optimizer took a Transpose through are left as they are.
 * Returns false when out of memory. */
static bool late_noop(pctx *p)
{
    const oc_graph *g = p->g;
    bool gone = false;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        const oc_node *n = &g->nodes[i];
        bool add = is_op(p, n, OC_OPID_Add) || is_op(p, n, OC_OPID_Sub);
        bool ordered = is_op(p, n, OC_OPID_Sub) || is_op(p, n, OC_OPID_Div);
        if (!live(p, i) || p->tslots[i] || n->n_inputs != 2 || n->n_outputs != 1 ||
            !(add || is_op(p, n, OC_OPID_Mul) || is_op(p, n, OC_OPID_Div)))
            continue;
        int y = out0(p, i), c = in(p, i, 1), x = in(p, i, 0);
        if (y < 0 || x < 0 || c < 0 || g->values[y].is_output || p->constant[x] == p->constant[c])
            continue;
        if (p->constant[x]) {
            if (ordered)
                continue;
            c = x;
            x = in(p, i, 1);
        }
        const oc_tinfo *xt = ort_info(p, x), *ct = sinfo(p, c);
        if (!xt || xt->rank < 0 || !ct || ct->rank < 0 || ct->rank > xt->rank ||
            const_numel(p, c) != 1 || !const_all(p, c, add ? 0 : 1))
            continue;
        drop(p, i, OC_KERNEL_REMOVED, "no-op arithmetic");
        p->alias[y] = x;
        gone = true;
    }
    return !gone || count_uses(p);
}

/* ExpandElimination (expand_elimination.cc, a level-1 rewrite rule, after
 * ConstantFolding, before the transpose optimizer): a live Expand(x,
 * shape) -> y goes when y is no graph output, x is a node's output (not a
 * graph input: graph_utils' CanRemoveNode wants the node's one input
 * edge; measured with ORT 1.30, an Expand of a graph input to [1, 1, 1]
 * stays), x has a shape as ORT's load-time inference has it, shape is an
 * int64 constant of one axis with no more elements than x has axes, and
 * each element, matched from the last axis, is at most 1 or x's dim
 * there, a number (an Expand to its own concrete shape among them).
 * Returns false when out of memory. */
static bool expand_elimination(pctx *p)
{
    const oc_graph *g = p->g;
    bool gone = false;
    for (size_t i = 0; i < p->nn; i++) {
        const oc_node *n = &g->nodes[i];
        if (!live(p, i) || !is_op(p, n, OC_OPID_Expand) || n->n_inputs != 2)
            continue;
        int x = in(p, i, 0), s = in(p, i, 1), y = out0(p, i);
        const oc_tinfo *xt = ort_info(p, x), *st = sinfo(p, s);
        cvals c;
        if (y < 0 || g->values[y].is_output || x < 0 || g->values[x].producer < 0 || !xt ||
            xt->rank < 0 ||
            (xt->rank && !xt->dims) || !st || st->dtype != OC_DT_INT64 || st->rank != 1 ||
            !const_vals(p, s, &c) || !c.ints || c.n < 1 || c.n > xt->rank)
            continue;
        bool same = true;
        for (int64_t j = c.n - 1, d = xt->rank - 1; same && j >= 0; j--, d--)
            same = c.i[j] <= 1 || (oc_dim_is_known(xt->dims[d]) && xt->dims[d].v == c.i[j]);
        if (!same)
            continue;
        drop(p, i, OC_KERNEL_REMOVED, "expand to its own shape");
        p->alias[y] = x;
        gone = true;
    }
    return !gone || count_uses(p);
}

/* ---- pass 2: fusions ---- */

static bool g_topo_before(const pctx *p, size_t x, size_t y)
{
    return p->rank[x] < p->rank[y];
}

/* The live node that alone consumes output 0 of node i (no other output
 * used, not a graph output), or -1. */
static int sole_next(const pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    int v = out0(p, i);
    if (v < 0 || p->g->values[v].is_output || p->uses[v] != 1)
        return -1;
    for (size_t k = 1; k < n->n_outputs; k++)
        if (n->outputs[k] >= 0 && p->uses[n->outputs[k]] > 0)
            return -1;
    for (int e = p->cons_start[v]; e < p->cons_start[v + 1]; e++) {
        int c = p->cons[e];
        if (live(p, (size_t)c))
            return reads_plain(p, v, (size_t)c) ? c : -1;
    }
    return -1;
}

static int slot_of(const pctx *p, int v, size_t j)
{
    const oc_node *b = &p->g->nodes[j];
    for (size_t k = 0; k < b->n_inputs; k++)
        if (in(p, j, k) == v)
            return (int)k;
    return -1;
}

static bool is_activation(const pctx *p, const oc_node *n)
{
    static const oc_op_id acts[] = {OC_OPID_Relu,    OC_OPID_Clip, OC_OPID_LeakyRelu,
                                    OC_OPID_Sigmoid, OC_OPID_Tanh, OC_OPID_HardSigmoid};
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
        if (is_op(p, n, acts[i]))
            return true;
    return false;
}

/* What GemmActivationFusion fuses into a Gemm (gemm_activation_fusion.cc):
 * activations of one kernel across their versions, so those of the
 * versions it names (Elu, HardSigmoid and Selu 6, LeakyRelu 6, Relu 6 to
 * 14, Sigmoid and Tanh 6 and 13, Softplus and Softsign 1, ThresholdedRelu
 * 10): not Clip, not an opset-22 Elu. */
static bool gemm_activation(const pctx *p, const oc_node *n)
{
    static const struct {
        oc_op_id op;
        int64_t from, below; /* the opsets whose version it fuses */
    } acts[] = {{OC_OPID_Elu, 6, 22},         {OC_OPID_HardSigmoid, 6, 22},
                {OC_OPID_Selu, 6, 22},        {OC_OPID_LeakyRelu, 6, 16},
                {OC_OPID_Relu, 6, INT64_MAX}, {OC_OPID_Sigmoid, 6, INT64_MAX},
                {OC_OPID_Tanh, 6, INT64_MAX}, {OC_OPID_Softplus, 1, 22},
                {OC_OPID_Softsign, 1, 22},    {OC_OPID_ThresholdedRelu, 10, 22}};
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
        if (is_op(p, n, acts[i].op))
            return n->opset >= acts[i].from && n->opset < acts[i].below;
    return false;
}

/* Whether ConvAddFusion (scalar false) or ConvMulFusion (true) folds a
 * constant of shape b into a Conv of weight shape w and cout outputs: one
 * per output channel, [cout, 1, ...] of w's rank less one or [1, cout, 1,
 * ...] of w's rank; or, for Mul, a scalar.  Not [1] nor [1, 1, 1] (with
 * more than one channel).  As ORT 1.30 ran one-Conv models of each
 * (collector/ort_graph.js, 2026-12-06). */
static bool conv_operand(const oc_tinfo *b, const oc_tinfo *w, int64_t cout, bool scalar)
{
    if (!b || !w || b->rank < 0)
        return false;
    if (b->rank == 0)
        return scalar;
    int c = b->rank == w->rank - 1 ? 0 : b->rank == w->rank ? 1 : -1;
    if (cout < 1 || c < 0)
        return false;
    for (int d = 0; d < b->rank; d++)
        if (!oc_dim_is_known(b->dims[d]) || b->dims[d].v != (d == c ? cout : 1))
            return false;
    return true;
}

/* Conv: constant BatchNormalization / Add / Mul folded into its weights,
 * then an activation (FusedConv). */
static void fuse_conv(pctx *p, size_t m)
{
    const oc_tinfo *w = sinfo(p, in(p, m, 1));
    int64_t cout = w && w->rank >= 1 && oc_dim_is_known(w->dims[0]) ? w->dims[0].v : -1;
    size_t last = m;
    for (;;) {
        int j = sole_next(p, last);
        if (j < 0)
            break;
        const oc_node *nj = &p->g->nodes[j];
        bool params = true;
        if (is_op(p, nj, OC_OPID_BatchNormalization) && slot_of(p, out0(p, last), (size_t)j) == 0 &&
            nj->n_outputs == 1) {
            for (size_t q = 1; q < nj->n_inputs; q++)
                params &= in(p, (size_t)j, q) >= 0 && p->constant[in(p, (size_t)j, q)];
        } else if ((is_op(p, nj, OC_OPID_Add) || is_op(p, nj, OC_OPID_Mul)) && nj->n_inputs == 2 &&
                   slot_of(p, out0(p, last), (size_t)j) == 0) {
            /* ConvAddFusion / ConvMulFusion read the constant as the second
             * input (conv_add_fusion.cc, conv_mul_fusion.cc; ORT 1.30 keeps
             * s * conv(x) apart, checked with a one-Conv model): one per
             * output channel, or for Mul a scalar (conv_operand) */
            int other = in(p, (size_t)j, 1);
            params = const_numel(p, other) > 0 &&
                     conv_operand(sinfo(p, other), w, cout, is_op(p, nj, OC_OPID_Mul));
        } else
            break;
        if (!params)
            break;
        absorb(p, m, (size_t)j);
        last = (size_t)j;
    }
    int j = sole_next(p, last);
    if (j >= 0 && is_activation(p, &p->g->nodes[j])) {
        absorb(p, m, (size_t)j);
        p->flags[m] |= F_ACT;
        return;
    }
    /* y * HardSigmoid(y): HardSwish */
    int y = out0(p, last);
    if (y < 0 || p->uses[y] != 2 || p->g->values[y].is_output)
        return;
    int hs = -1, mul = -1;
    for (int e = p->cons_start[y]; e < p->cons_start[y + 1]; e++) {
        int c = p->cons[e];
        if (!live(p, (size_t)c))
            continue;
        if (is_op(p, &p->g->nodes[c], OC_OPID_HardSigmoid))
            hs = c;
        else if (is_op(p, &p->g->nodes[c], OC_OPID_Mul))
            mul = c;
    }
    if (hs >= 0 && mul >= 0 && sole_next(p, (size_t)hs) == mul) {
        absorb(p, m, (size_t)hs);
        absorb(p, m, (size_t)mul);
        p->flags[m] |= F_ACT;
    }
}

/* Pad (constant zeros, spatial dims only) into the Conv or pool it feeds. */
static void fuse_pad(pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    const oc_attr *mode = oc_node_attr(n, "mode");
    if (mode && mode->s && strcmp(mode->s, "constant"))
        return;
    int j = sole_next(p, i);
    if (j < 0)
        return;
    const oc_node *c = &p->g->nodes[j];
    if (!is_op(p, c, OC_OPID_Conv) && !is_op(p, c, OC_OPID_MaxPool) &&
        !is_op(p, c, OC_OPID_AveragePool))
        return;
    if (slot_of(p, out0(p, i), (size_t)j) != 0)
        return;
    /* from opset 11 its constant_value, when the node names that slot at
     * all, must be a constant zero: an empty name is no constant, and
     * PadFusion leaves the Pad (measured with ORT 1.30: PyTorch writes
     * F.pad's Pad with an empty third input, and blind18's ddsp_synth ran
     * its Pad before the Conv) */
    if (n->n_inputs > 3 || (n->n_inputs > 2 && n->opset >= 11 &&
                            (in(p, i, 2) < 0 || !const_all(p, in(p, i, 2), 0))))
        return;
    int64_t np;
    const int64_t *pv;
    cvals pads;
    const oc_attr *pa = oc_node_attr(n, "pads");
    if (pa) {
        np = (int64_t)pa->n;
        pv = pa->ints;
    } else if (n->n_inputs >= 2 && const_vals(p, in(p, i, 1), &pads) && pads.ints) {
        np = pads.n;
        pv = pads.i;
    } else
        return;
    if (np < 4 || np % 2)
        return;
    int64_t r = np / 2;
    for (int64_t q = 0; q < np; q++)
        if (pv[q] < 0 || ((q % r) < 2 && pv[q] != 0))
            return;
    /* the next op pads: it reads the Pad's input */
    drop(p, i, OC_KERNEL_REMOVED, "padding done by the next op");
    p->alias[out0(p, i)] = in(p, i, 0);
}

/* MatmulTransposeFusion's GetTransposeNodeFromOutput: a Transpose a
 * MatMul reads through when the input's last axis stays one of the last
 * two (transA/transB) and the batch axes stay contiguous and in order,
 * axis 0 first or second (transBatchA/transBatchB, *batch). */
/* Whether MatmulTransposeFusion takes a Transpose of permutation q into a
 * MatMul: the last two axes swapped, or the batch axis moved next to them
 * (*batch). */
static bool perm_fusable(const tperm *q, bool *batch)
{
    int r = q->r;
    *batch = false;
    if (r < 2 || (q->v[r - 1] != r - 1 && q->v[r - 2] != r - 1))
        return false;
    if (r >= 3) {
        if (q->v[0] != 0 && q->v[0] != 1)
            return false;
        for (int d = 0; d + 3 < r; d++)
            if (q->v[d] + 1 != q->v[d + 1])
                return false;
        *batch = q->v[0] == 1;
    }
    return true;
}

static bool transpose_fusable(const pctx *p, size_t t, bool *batch)
{
    const oc_node *n = &p->g->nodes[t];
    tperm q = perm_of_node(p, t);
    *batch = false;
    if (!is_op(p, n, OC_OPID_Transpose) || (p->flags[t] & F_PUSHED) || in(p, t, 0) < 0 ||
        !perm_is_id(&p->tp[in(p, t, 0)]))
        return false;
    return perm_fusable(&q, batch);
}

/* The Transpose producing v that MatMul c, whose other operand is
 * `other`, takes in, or -1; one c alone reads unless `shared`
 * (MatmulTransposeFusion fuses it into each MatMul reading it, and it
 * stays for its other readers).  One that moves the batch axes needs both
 * operands' load-time shapes, of one rank. */
static int matmul_transpose(const pctx *p, int v, int other, size_t c, bool shared)
{
    int t = v >= 0 ? p->g->values[v].producer : -1;
    bool batch;
    if (t < 0 || !(live(p, (size_t)t) || (shared && (p->flags[t] & F_MMT))) ||
        (!shared && p->uses[v] != 1) || p->g->values[v].is_output ||
        !transpose_fusable(p, (size_t)t, &batch) || !reads_plain(p, v, c))
        return -1;
    /* ORT 1.30 leaves the Transpose of a slice that a Gather of one index
     * takes out of a stacked tensor (k^T of Gather(qkv, 1)) and that stays
     * a Gather: swin_t's and dit_lite's 18 ran on their own. Where the
     * Gathers became one Split (GatherSliceToSplitFusion: axial_resnet's
     * 8), the Transposes were taken in. */
    int x = in(p, (size_t)t, 0), g = x >= 0 ? p->g->values[x].producer : -1;
    const oc_tinfo *idx = g >= 0 ? sinfo(p, in(p, (size_t)g, 1)) : NULL;
    if (g >= 0 && live(p, (size_t)g) && p->owner[g] == g && p->nk[g].axis < 0 &&
        is_op(p, &p->g->nodes[g], OC_OPID_Gather) && idx && idx->rank == 0)
        return -1;
    if (batch) {
        const oc_tinfo *a = ort_info(p, v), *b = ort_info(p, other);
        if (!a || !b || a->rank < 0 || a->rank != b->rank)
            return -1;
    }
    return t;
}

static bool is_scalar_const(const pctx *p, int v, int other);
static bool matmul_add_2d(const pctx *p, size_t m);

/* Node t, a Mul or Div by a scalar constant of an operand whose load-time
 * shape has a rank, is a scale MatMul m can take in from its input v. */
static bool scale_before(const pctx *p, size_t t, int v, size_t m)
{
    const oc_node *n = &p->g->nodes[t];
    if (!(live(p, t) || (p->flags[t] & F_MMS)) || p->g->values[v].is_output ||
        !reads_plain(p, v, m) || !(is_op(p, n, OC_OPID_Mul) || is_op(p, n, OC_OPID_Div)))
        return false;
    int c1 = in(p, t, 1), c0 = in(p, t, 0);
    const oc_tinfo *t0 = ort_info(p, c0), *t1 = ort_info(p, c1);
    return (is_scalar_const(p, c1, c0) && t0 && t0->rank > 0) ||
           (is_op(p, n, OC_OPID_Mul) && is_scalar_const(p, c0, c1) && t1 && t1->rank > 0);
}

/* Every reader of v is a MatMul that takes in v's producer: the Transpose
 * (scale < 0) or the scale node `scale` (then also none that
 * MatMulAddFusion makes a Gemm). */
static bool all_matmuls_take(const pctx *p, int v, int scale)
{
    if (p->uses[v] != p->cons_start[v + 1] - p->cons_start[v])
        return false;
    for (int e = p->cons_start[v]; e < p->cons_start[v + 1]; e++) {
        size_t c = (size_t)p->cons[e];
        const oc_node *n = &p->g->nodes[c];
        /* (one MatMulAddFusion made a Gemm is not a MatMul any more) */
        if (!live(p, c) || !is_op(p, n, OC_OPID_MatMul) || n->n_inputs != 2 ||
            (p->nk[c].as_op && strcmp(p->nk[c].as_op, "MatMul")))
            return false;
        int other = in(p, c, 0) == v ? in(p, c, 1) : in(p, c, 0);
        if (scale < 0 ? matmul_transpose(p, v, other, c, true) < 0
                      : matmul_add_2d(p, c) || !scale_before(p, (size_t)scale, v, c))
            return false;
    }
    return true;
}

/* A one-element constant that does not broadcast `other` to a higher rank
 * (MatMulScaleFusion reads the other operand's rank from its load-time
 * shape: none means only a rank-0 scale fuses). */
static bool is_scalar_const(const pctx *p, int v, int other)
{
    const oc_tinfo *t = sinfo(p, v), *o = ort_info(p, other);
    int max_rank = o && o->rank > 0 ? o->rank : 0;
    return const_numel(p, v) == 1 && t && t->rank <= max_rank;
}

static bool add_inserted(pctx *p, int kid, int value, size_t at, bool before);

/* matmul_add_fusion.cc (its AttentionPatternCache): a LayerNormalization
 * (an ONNX node when level 1 runs) read by exactly one Add, three MatMuls
 * and Shapes only, whose Add adds an Add's output (the attention's
 * projection): the head of an attention block.  Returns that Add's
 * producer, or -1. */
static int attention_head(const pctx *p, int v)
{
    int ln = v >= 0 ? p->g->values[v].producer : -1;
    if (ln < 0 || !is_op(p, &p->g->nodes[ln], OC_OPID_LayerNormalization) ||
        p->nk[ln].kind == OC_KERNEL_FOLDED || p->nk[ln].kind == OC_KERNEL_REMOVED)
        return -1;
    int adds = 0, matmuls = 0, res = -1;
    for (int e = p->cons_start[v]; e < p->cons_start[v + 1]; e++) {
        const oc_node *c = &p->g->nodes[p->cons[e]];
        if (is_op(p, c, OC_OPID_Add)) {
            adds++;
            res = p->cons[e];
        } else if (is_op(p, c, OC_OPID_MatMul)) {
            matmuls++;
        } else if (!is_op(p, c, OC_OPID_Shape)) {
            return -1;
        }
    }
    if (adds != 1 || matmuls != 3)
        return -1;
    int other = in(p, (size_t)res, in(p, (size_t)res, 0) == v ? 1 : 0);
    int pr = other >= 0 ? p->g->values[other].producer : -1;
    return pr >= 0 && is_op(p, &p->g->nodes[pr], OC_OPID_Add) ? pr : -1;
}

/* MatMulAddFusion at level 1 keeps an attention block's four MatMul+Add
 * pairs for AttentionFusion (preserve_attention_pattern): the three that
 * read its LayerNormalization and the projection whose Add the residual
 * Add reads.  When ORT 1.30 makes Gemms of them later, ReshapeFusion (level
 * 1) has run: their Reshapes stay apart from the Reshapes next to them. */
static bool attention_pair(const pctx *p, size_t m, size_t j)
{
    if (attention_head(p, in(p, m, 0)) >= 0)
        return true;
    int y = out0(p, j);
    for (int e = y >= 0 ? p->cons_start[y] : 0; y >= 0 && e < p->cons_start[y + 1]; e++) {
        size_t r = (size_t)p->cons[e];
        if (!is_op(p, &p->g->nodes[r], OC_OPID_Add))
            continue;
        int ln = in(p, r, in(p, r, 0) == y ? 1 : 0);
        if (attention_head(p, ln) == (int)j)
            return true;
    }
    return false;
}

/* MatmulBNFusion (ORT's level 1): a MatMul by a constant matrix whose only
 * reader is a BatchNormalization of constant statistics over its columns
 * (a Reshape and a Transpose may stand between them, each read only
 * there) runs as a Gemm with the normalization folded into its weights.
 * True when it does: the BatchNormalization joins the kernel. */
static bool matmul_bn(pctx *p, size_t m)
{
    const oc_tinfo *xa = ort_info(p, in(p, m, 0)), *b = sinfo(p, in(p, m, 1));
    if (!xa || xa->rank != 2 || in(p, m, 1) < 0 || !p->constant[in(p, m, 1)] || !b ||
        b->rank != 2 || !dims_concrete(b, 1, 2))
        return false;
    int j = sole_next(p, m);
    bool reshape = false, transpose = false;
    while (j >= 0) {
        const oc_node *n = &p->g->nodes[j];
        if (is_op(p, n, OC_OPID_Reshape) && !reshape)
            reshape = true;
        else if (is_op(p, n, OC_OPID_Transpose) && !transpose)
            transpose = true;
        else
            break;
        j = sole_next(p, (size_t)j);
    }
    if (j < 0 || !is_op(p, &p->g->nodes[j], OC_OPID_BatchNormalization))
        return false;
    const oc_node *bn = &p->g->nodes[j];
    const oc_attr *eps = oc_node_attr(bn, "epsilon");
    if (bn->n_inputs < 5 || !eps || eps->type != OC_ATTR_FLOAT)
        return false;
    for (size_t o = 1; o < bn->n_outputs; o++)
        if (bn->outputs[o] >= 0)
            return false;
    for (size_t s = 1; s < 5; s++) {
        int v = in(p, (size_t)j, s);
        const oc_tinfo *t = sinfo(p, v);
        if (v < 0 || !p->constant[v] || !t || t->rank != 1 || !dims_concrete(t, 0, 1) ||
            t->dims[0].v != b->dims[1].v)
            return false;
    }
    absorb(p, m, (size_t)j);
    set_kernel(&p->nk[m], OC_OPID_Gemm);
    p->nk[m].as_op = "Gemm";
    return true;
}

/* The bias C that MatMulAddFusion takes for 2-D A [M, K] times B [K, N]
 * (matmul_add_fusion.cc): [N], [1, N], [M, 1] or [M, N] in the load-time
 * shapes, a constant or not (x W + h U of a recurrent cell fuses). */
static bool gemm_bias_2d(const pctx *p, const oc_tinfo *a, const oc_tinfo *b, int c)
{
    const oc_tinfo *t = ort_info(p, c);
    if (!t || t->rank < 1 || t->rank > 2)
        return false;
    oc_dim n = b->dims[1], one = oc_dim_of(1);
    if (t->rank == 1)
        return dim_eq(t->dims[0], n);
    return (dim_eq(t->dims[0], one) && dim_eq(t->dims[1], n)) ||
           (dim_eq(t->dims[0], a->dims[0]) &&
            (dim_eq(t->dims[1], one) || dim_eq(t->dims[1], n)));
}

/* Whether MatMul m (2-D, its sole reader an Add) is one MatMulAddFusion
 * would make a Gemm of. */
static bool matmul_add_2d(const pctx *p, size_t m)
{
    const oc_node *mm = &p->g->nodes[m];
    int j = sole_next(p, m);
    const oc_tinfo *xa = ort_info(p, in(p, m, 0)), *xb = ort_info(p, in(p, m, 1));
    if (!is_op(p, mm, OC_OPID_MatMul) || j < 0 || !is_op(p, &p->g->nodes[j], OC_OPID_Add) ||
        !xa || xa->rank != 2 || !xb || xb->rank != 2 || p->g->values[out0(p, m)].is_output)
        return false;
    return gemm_bias_2d(p, xa, xb, in(p, (size_t)j, 1 - slot_of(p, out0(p, m), (size_t)j)));
}

/* MatMul: + bias on 2-D input -> Gemm (+ activation: FusedGemm); on N-D
 * input + constant bias -> Reshape, Gemm, Reshape; transposed inputs and
 * scalar scales -> FusedMatMul. */
static void fuse_matmul(pctx *p, size_t m)
{
    const oc_node *mm = &p->g->nodes[m];
    oc_kernel *k = &p->nk[m];
    int j = sole_next(p, m);
    /* MatMulAddFusion reads the inputs' load-time shapes */
    const oc_tinfo *xa = ort_info(p, in(p, m, 0)), *xb = ort_info(p, in(p, m, 1));
    if (matmul_add_2d(p, m)) {
        /* when the Add adds two such MatMuls, ORT 1.30 fused the later one
         * (measured: x W + h U -> MatMul, then FusedGemm of h U) */
        int other = in(p, (size_t)j, 1 - slot_of(p, out0(p, m), (size_t)j));
        int op = p->g->values[other].producer;
        if (!(op >= 0 && live(p, (size_t)op) && p->rank[op] > p->rank[m] &&
              matmul_add_2d(p, (size_t)op))) {
            absorb(p, m, (size_t)j);
            set_kernel(k, OC_OPID_Gemm);
            k->as_op = "Gemm";
            j = sole_next(p, (size_t)j);
            if (j >= 0 && gemm_activation(p, &p->g->nodes[j])) {
                absorb(p, m, (size_t)j);
                set_kernel(k, OC_KID_FusedGemm);
            }
            return;
        }
    }
    /* N-D input of a fully known shape: Reshape to 2-D, Gemm, Reshape
     * back (a Reshape next to it absorbs the new one) */
    if (is_op(p, mm, OC_OPID_MatMul) && j >= 0 && is_op(p, &p->g->nodes[j], OC_OPID_Add) && xa &&
        xa->rank > 2 &&
        dims_concrete(xa, 0, xa->rank) && xb && xb->rank == 2 && p->constant[in(p, m, 1)]) {
        int other = in(p, (size_t)j, 1 - slot_of(p, out0(p, m), (size_t)j));
        const oc_tinfo *ot = sinfo(p, other);
        if (other >= 0 && p->constant[other] && ot && ot->rank == 1) {
            absorb(p, m, (size_t)j);
            set_kernel(k, OC_OPID_Gemm);
            k->as_op = "Gemm";
            int a = in(p, m, 0), pr = a >= 0 ? p->g->values[a].producer : -1;
            bool late = attention_pair(p, m, (size_t)j);
            if (late || !(pr >= 0 && live(p, (size_t)pr) &&
                          is_op(p, &p->g->nodes[pr], OC_OPID_Reshape) && p->uses[a] == 1))
                add_inserted(p, OC_OPID_Reshape, a, m, true);
            int nx = sole_next(p, (size_t)j);
            if (late || !(nx >= 0 && is_op(p, &p->g->nodes[nx], OC_OPID_Reshape)))
                add_inserted(p, OC_OPID_Reshape, out0(p, (size_t)j), m, false);
            return;
        }
    }
    bool bn_gemm = is_op(p, mm, OC_OPID_MatMul) && matmul_bn(p, m);
    if (bn_gemm) {
        /* then GemmActivationFusion, where the BatchNormalization was all
         * that read the MatMul */
        int bn = (int)k->fused[k->n_fused - 1];
        j = j == bn ? sole_next(p, (size_t)bn) : -1;
    }
    if (is_op(p, mm, OC_OPID_Gemm) || bn_gemm) {
        if (j >= 0 && gemm_activation(p, &p->g->nodes[j])) {
            absorb(p, m, (size_t)j);
            set_kernel(k, OC_KID_FusedGemm);
            k->as_op = "Gemm";
        }
        return;
    }
    if (!is_op(p, mm, OC_OPID_MatMul))
        return;
    bool fused = false;
    /* transposed inputs: a Transpose feeding only this MatMul joins its
     * kernel; one feeding others too stays, unless every one of them is a
     * MatMul that takes it in */
    for (size_t s = 0; s < 2; s++) {
        int v = in(p, m, s);
        int t = matmul_transpose(p, v, in(p, m, 1 - s), m, true);
        if (t < 0)
            continue;
        fused = true;
        if (p->uses[v] == 1)
            absorb(p, m, (size_t)t);
        else if (live(p, (size_t)t) && all_matmuls_take(p, v, -1)) {
            drop(p, (size_t)t, OC_KERNEL_REMOVED, "taken in by every MatMul that reads it");
            p->flags[t] |= F_MMT;
        }
    }
    /* scale after: MatMul -> Mul/Div by a scalar constant */
    if (j >= 0 && (is_op(p, &p->g->nodes[j], OC_OPID_Mul) ||
                   is_op(p, &p->g->nodes[j], OC_OPID_Div))) {
        int s = slot_of(p, out0(p, m), (size_t)j);
        int other = in(p, (size_t)j, 1 - s);
        if (is_scalar_const(p, other, out0(p, m)) &&
            (is_op(p, &p->g->nodes[j], OC_OPID_Mul) || s == 0)) {
            absorb(p, m, (size_t)j);
            fused = true;
        }
    }
    /* scale before: Mul(x, scalar) or Div(x, scalar) read by this MatMul;
     * it goes once every reader took it in (MatMulScaleFusion merges it
     * into each MatMul that reads it and removes it when none is left:
     * measured with ORT 1.30, blind18's seir_epidemic, whose 80 MatMuls
     * all read one Div by a constant) */
    for (size_t s = 0; s < 2; s++) {
        int v = in(p, m, s);
        int t = v >= 0 ? p->g->values[v].producer : -1;
        if (t >= 0 && scale_before(p, (size_t)t, v, m)) {
            fused = true;
            int c1 = in(p, (size_t)t, 1), c0 = in(p, (size_t)t, 0);
            bool scale0 = is_scalar_const(p, c1, c0);
            if (p->uses[v] == 1) {
                absorb(p, m, (size_t)t);
                /* MatmulTransposeFusion runs again after MatMulScaleFusion:
                 * a Transpose before the scale joins too */
                int tt = matmul_transpose(p, scale0 ? c0 : c1, in(p, m, 1 - s), (size_t)t, false);
                if (tt >= 0)
                    absorb(p, m, (size_t)tt);
            } else if (live(p, (size_t)t) && all_matmuls_take(p, v, t)) {
                drop(p, (size_t)t, OC_KERNEL_REMOVED, "taken in by every MatMul that reads it");
                p->flags[t] |= F_MMS;
            }
        }
    }
    if (fused) {
        set_kernel(k, OC_KID_FusedMatMul);
        k->as_op = "MatMul";
    }
}

/* Follow a chain of ops from node i, each consuming the last (the first
 * step may be one of several consumers: Sub reads x and its mean).
 * Returns the number matched. */
static size_t chain(const pctx *p, size_t i, const oc_op_id *ops, size_t n, int *nodes)
{
    size_t got = 0;
    int cur = (int)i;
    for (size_t q = 0; q < n; q++) {
        int nx = q == 0 ? cur : -1;
        if (q > 0) {
            int v = out0(p, (size_t)cur);
            if (v < 0 || p->g->values[v].is_output)
                return got;
            for (int e = p->cons_start[v]; e < p->cons_start[v + 1] && nx < 0; e++) {
                int t = p->cons[e];
                if (live(p, (size_t)t) && is_op(p, &p->g->nodes[t], ops[q]) &&
                    reads_plain(p, v, (size_t)t))
                    nx = t;
            }
        }
        if (nx < 0 || !is_op(p, &p->g->nodes[nx], ops[q]))
            return got;
        nodes[got++] = nx;
        cur = nx;
    }
    return got;
}

/* Add(a, b) of two same-shape activations (or + a 1-D bias) whose sum only
 * feeds this LayerNorm: SkipLayerNormalization. */
static void fuse_skip(pctx *p, size_t m, int x)
{
    int pr = x >= 0 ? p->g->values[x].producer : -1;
    if (pr < 0 || !live(p, (size_t)pr) || !is_op(p, &p->g->nodes[pr], OC_OPID_Add) ||
        p->nk[pr].n_fused || p->g->values[x].is_output || !reads_plain(p, x, m))
        return;
    const oc_tinfo *u = ort_info(p, in(p, (size_t)pr, 0)), *w = ort_info(p, in(p, (size_t)pr, 1));
    /* CheckFirstAdd: both of rank 3 at load time, each dim the same number
     * or the same symbol in both (measured with ORT 1.30: blind16's
     * fnet_encoder, its batch symbolic, ran eight SkipLayerNormalizations) */
    if (!u || !w || u->rank != 3 || w->rank != 3)
        return;
    for (int d = 0; d < 3; d++)
        if (!(oc_dim_is_known(u->dims[d]) ? dim_eq(u->dims[d], w->dims[d])
                                            : dim_param_eq(u->dims[d], w->dims[d])))
            return;
    /* every use of the sum is inside this kernel */
    for (int e = p->cons_start[x]; e < p->cons_start[x + 1]; e++)
        if (p->owner[p->cons[e]] != (int)m)
            return;
    absorb(p, m, (size_t)pr);
    set_kernel(&p->nk[m], OC_KID_SkipLayerNormalization);
    /* and a bias Add before the sum, its first input's or else its
     * second's (CheckSecondAdd: a 1-D constant over the last dim, which
     * ORT 1.30 took in on either side: blind16's fnet_encoder adds its
     * biases as bias + x W, and its four SkipLayerNormalizations after
     * the feed-forward took them) */
    for (size_t s = 0; s < 2; s++) {
        int a = in(p, (size_t)pr, s), b = a >= 0 ? p->g->values[a].producer : -1;
        if (b < 0 || !live(p, (size_t)b) || !is_op(p, &p->g->nodes[b], OC_OPID_Add) ||
            p->nk[b].n_fused || p->uses[a] != 1 || p->g->values[a].is_output ||
            !reads_plain(p, a, (size_t)pr))
            continue;
        int c = in(p, (size_t)b, 1), x = in(p, (size_t)b, 0);
        if (x >= 0 && p->constant[x]) {
            c = x;
            x = in(p, (size_t)b, 1);
        }
        const oc_tinfo *xt = ort_info(p, x), *ct = ort_info(p, c);
        if (c >= 0 && p->constant[c] && xt && xt->rank == 3 && ct && ct->rank == 1 &&
            oc_dim_is_known(xt->dims[2]) && dim_eq(xt->dims[2], ct->dims[0])) {
            absorb(p, m, (size_t)b);
            break;
        }
    }
}

/* Node i reduces over the last axes only, in the layout it runs in (the
 * transpose optimizer may have remapped them); LayerNormFusion and
 * SimplifiedLayerNormFusion fuse nothing else.  Unknown rank: no say. */
static bool reduces_last(const pctx *p, size_t i)
{
    const oc_tinfo *t = sinfo(p, in(p, i, 0));
    bool mask[OC_MAX_RANK], moved[OC_MAX_RANK];
    if (!t || t->rank < 1 || !reduce_axes(p, i, t->rank, mask))
        return !t || t->rank < 1;
    const tperm *q = &p->lay[i];
    for (int d = 0; d < t->rank; d++)
        moved[d] = mask[d];
    if (q->r == t->rank && (p->tslots[i] & 1))
        for (int d = 0; d < t->rank; d++)
            moved[(int)q->v[d]] = mask[d];
    int d = t->rank;
    while (d > 0 && moved[d - 1])
        d--;
    if (d == t->rank)
        return false;
    while (d > 0 && !moved[d - 1])
        d--;
    return d == 0;
}

/* Node j (a Mul or an Add after value v) reads, beside v, a constant
 * vector: a LayerNormalization's scale or bias. */
static bool vector_operand(const pctx *p, size_t j, int v)
{
    int s = slot_of(p, v, j);
    int o = s == 0 || s == 1 ? in(p, j, (size_t)(1 - s)) : -1;
    const oc_tinfo *t = sinfo(p, o);
    return o >= 0 && p->constant[o] && t && t->rank == 1;
}

/* ReduceMean -> Sub -> Pow -> ReduceMean -> Add -> Sqrt -> Div [-> Mul [->
 * Add]]: one LayerNorm kernel.  ORT's LayerNormFusion (`ort`) needs the
 * Mul by a constant scale and the Add of a constant bias (vectors): a
 * normalisation with neither, as a masked autoencoder's target, stays
 * seven kernels; eager PyTorch runs nn.LayerNorm as one kernel, affine or
 * not. */
static bool fuse_layernorm(pctx *p, size_t m, bool ort)
{
    static const oc_op_id ops[] = {OC_OPID_ReduceMean, OC_OPID_Sub, OC_OPID_Pow,
                                   OC_OPID_ReduceMean, OC_OPID_Add, OC_OPID_Sqrt,
                                   OC_OPID_Div,        OC_OPID_Mul, OC_OPID_Add};
    int nodes[9];
    size_t n = chain(p, m, ops, 9, nodes);
    if (n < 7 || !reduces_last(p, m) || !reduces_last(p, (size_t)nodes[3]))
        return false;
    if (ort && (n < 9 || !vector_operand(p, (size_t)nodes[7], out0(p, (size_t)nodes[6])) ||
                !vector_operand(p, (size_t)nodes[8], out0(p, (size_t)nodes[7]))))
        return false;
    for (size_t q = 1; q < n; q++)
        absorb(p, m, (size_t)nodes[q]);
    set_kernel(&p->nk[m], OC_OPID_LayerNormalization);
    p->nk[m].as_op = "LayerNormalization";
    return true;
}

/* SimplifiedLayerNormFusion's conditions beyond the chain nodes[0..n-1]
 * (Pow, ReduceMean, Add, Sqrt, Div, Mul [, Mul]): each link but the last
 * read by the next alone, one reduced axis, and among the last Mul's
 * inputs one that ORT's load-time shapes know as 1-D (the scale). An
 * adaptive norm's per-sample scale, [N, 1, D], leaves the nodes apart
 * (measured: blind14's dit_lite, 13 of them). */
static bool rmsnorm_ok(const pctx *p, const int *nodes, size_t n)
{
    for (size_t q = 0; q + 1 < n; q++) {
        int v = out0(p, (size_t)nodes[q]);
        if (v < 0 || p->uses[v] != 1 || p->g->values[v].is_output)
            return false;
    }
    cvals c;
    int64_t na;
    const int64_t *ax;
    if (!named_axes(p, (size_t)nodes[1], &c, &ax, &na) || na != 1)
        return false;
    const oc_node *mul = &p->g->nodes[nodes[n - 1]];
    for (size_t k = 0; k < mul->n_inputs; k++) {
        const oc_tinfo *t = ort_info(p, in(p, (size_t)nodes[n - 1], k));
        if (t && t->rank == 1)
            return true;
    }
    return false;
}

/* RMS norm: Pow(x, 2) -> ReduceMean -> Add(eps) -> Sqrt -> Div -> Mul
 * [-> Mul]: SimplifiedLayerNormalization (true when fused).
 * SimplifiedLayerNormFusion needs the Mul (the scale): a normalisation
 * without one stays five kernels. */
static bool fuse_rmsnorm(pctx *p, size_t m)
{
    static const oc_op_id ops[] = {OC_OPID_Pow, OC_OPID_ReduceMean, OC_OPID_Add, OC_OPID_Sqrt,
                                   OC_OPID_Div, OC_OPID_Mul,        OC_OPID_Mul};
    int nodes[7];
    size_t n = chain(p, m, ops, 7, nodes);
    if (n < 6 || !const_all(p, in(p, m, 1), 2) || !reduces_last(p, (size_t)nodes[1]) ||
        !rmsnorm_ok(p, nodes, n))
        return false;
    for (size_t q = 1; q < n; q++)
        absorb(p, m, (size_t)nodes[q]);
    set_kernel(&p->nk[m], OC_OPID_SimplifiedLayerNormalization);
    p->nk[m].as_op = "LayerNormalization";
    return true;
}

/* ONNX Runtime's Pow computes a scalar exponent of 2 or 3 as products of
 * the base (x * x, x * x * x), any other exponent with pow(): costed as a
 * Mul by a scalar, which is what it is. */
static void pow_as_products(pctx *p, size_t m)
{
    int e = in(p, m, 1);
    if (const_numel(p, e) == 1 && (const_all(p, e, 2) || const_all(p, e, 3)))
        p->nk[m].as_op = "Mul";
}

/* GatherToSliceFusion (level 2, after level 1's folding): a Range read
 * only by a Gather, as its indices, becomes a Slice of the Gather's data
 * from Unsqueezes of the Range's start, limit and delta, which run
 * (measured with ORT 1.30 on tests/data/ort-rules' range_positions: three
 * Unsqueezes and a Slice, constants' Unsqueezes too). */
static bool range_to_slice(pctx *p, size_t i)
{
    int idx = p->g->nodes[i].n_inputs > 1 ? in(p, i, 1) : -1;
    int r = idx >= 0 ? p->g->values[idx].producer : -1;
    if (r < 0 || !live(p, (size_t)r) || !is_op(p, &p->g->nodes[r], OC_OPID_Range) ||
        p->g->nodes[r].n_inputs != 3 || p->uses[idx] != 1 || p->g->values[idx].is_output ||
        !reads_plain(p, idx, i))
        return false;
    drop(p, (size_t)r, OC_KERNEL_REMOVED, "a Slice's bounds (GatherToSliceFusion)");
    for (size_t k = 0; k < 3; k++)
        add_inserted(p, OC_OPID_Unsqueeze, in(p, (size_t)r, k), i, true);
    set_kernel(&p->nk[i], OC_OPID_Slice);
    p->nk[i].as_op = "Slice";
    return true;
}

/* DivMulFusion: a Div(1, y) whose one reader is a Mul runs as Div(x, y) of
 * the Mul's other operand, one kernel on the Mul's shapes (measured with
 * ORT 1.30: blind17's qr_eigensolver scales each column by 1 / sqrt(...)
 * and ran 80 such Divs and none of the Muls). */
static bool fuse_div_mul(pctx *p, size_t i)
{
    int a = in(p, i, 0);
    int j = sole_next(p, i);
    if (j < 0 || p->g->nodes[i].opset < 7 || const_numel(p, a) != 1 || !const_all(p, a, 1) ||
        !is_op(p, &p->g->nodes[j], OC_OPID_Mul) || p->nk[j].n_fused ||
        in(p, (size_t)j, 0) == in(p, (size_t)j, 1))
        return false;
    absorb(p, (size_t)j, i);
    set_kernel(&p->nk[j], OC_OPID_Div);
    p->nk[j].as_op = "Div";
    return true;
}

/* Div(sqrt 2) -> Erf -> Add(1) -> Mul(x) -> Mul(0.5): Gelu. */
static bool gelu_chain(pctx *p, size_t m)
{
    static const oc_op_id ops[] = {OC_OPID_Div, OC_OPID_Erf, OC_OPID_Add, OC_OPID_Mul, OC_OPID_Mul};
    int nodes[5];
    if (chain(p, m, ops, 5, nodes) != 5)
        return false;
    for (size_t q = 1; q < 5; q++)
        absorb(p, m, (size_t)nodes[q]);
    set_kernel(&p->nk[m], OC_OPID_Gelu);
    p->nk[m].as_op = "Gelu";
    return true;
}

/* Gelu; with a constant bias Add before it: BiasGelu. */
static void fuse_gelu(pctx *p, size_t m)
{
    if (!gelu_chain(p, m))
        return;
    int x = in(p, m, 0);
    int pr = x >= 0 ? p->g->values[x].producer : -1;
    if (pr >= 0 && live(p, (size_t)pr) && is_op(p, &p->g->nodes[pr], OC_OPID_Add) &&
        !p->nk[pr].n_fused && reads_plain(p, x, m) &&
        !p->g->values[x].is_output) {
        int b0 = in(p, (size_t)pr, 0), b1 = in(p, (size_t)pr, 1);
        int b = p->constant[b1] ? b1 : b0, xin = b == b1 ? b0 : b1;
        const oc_tinfo *bt = ort_info(p, b), *xt = ort_info(p, xin);
        /* BiasGeluFusion checks the bias against the input's last dim,
         * which its load-time shape inference must know */
        if (!xt || xt->rank < 1 || !oc_dim_is_known(xt->dims[xt->rank - 1]) || !bt ||
            bt->rank != 1 || !oc_dim_is_known(bt->dims[0]) ||
            bt->dims[0].v != xt->dims[xt->rank - 1].v)
            return;
        bool all_here = true;
        for (int e = p->cons_start[x]; e < p->cons_start[x + 1] && all_here; e++)
            all_here = p->owner[p->cons[e]] == (int)m;
        if (p->constant[b] && bt && bt->rank == 1 && all_here) {
            absorb(p, m, (size_t)pr);
            set_kernel(&p->nk[m], OC_KID_BiasGelu);
        }
    }
}

/* Sigmoid(x) -> Mul(x, that): QuickGelu (costed as the Sigmoid with the Mul
 * fused: the pattern the samples measure). */
static void fuse_swish(pctx *p, size_t m)
{
    int j = sole_next(p, m);
    if (j < 0)
        return;
    const oc_node *mul = &p->g->nodes[j];
    if (!is_op(p, mul, OC_OPID_Mul) || mul->n_inputs != 2 || in(p, m, 0) < 0)
        return;
    int s = slot_of(p, out0(p, m), (size_t)j);
    if (s < 0 || in(p, (size_t)j, (size_t)(1 - s)) != in(p, m, 0))
        return;
    absorb(p, m, (size_t)j);
    set_kernel(&p->nk[m], OC_KID_QuickGelu);
}

/* Value v is an int64 constant of one element, of rank 0 or 1: *x, and
 * its rank. */
static bool const_one_int64(const pctx *p, int v, int64_t *x, int *rank)
{
    cvals c;
    const oc_tinfo *t = sinfo(p, v);
    if (!t || t->dtype != OC_DT_INT64 || !(t->rank == 0 || t->rank == 1) ||
        !const_vals(p, v, &c) || !c.ints || c.n != 1)
        return false;
    *x = c.i[0];
    *rank = t->rank;
    return true;
}

/* The axis Gather or Slice c reads its input (of rank `rank`) along, in
 * [0, rank); false when a Slice's axes are not an int64 constant of one
 * element. */
static bool part_axis(const pctx *p, size_t c, int rank, int64_t *axis)
{
    const oc_node *n = &p->g->nodes[c];
    int r;
    if (is_op(p, n, OC_OPID_Gather)) {
        const oc_attr *a = oc_node_attr(n, "axis");
        *axis = a ? a->i : 0;
    } else if (n->n_inputs < 4 || !const_one_int64(p, in(p, c, 3), axis, &r)) {
        return false;
    }
    if (*axis < 0)
        *axis += rank;
    return *axis >= 0 && *axis < rank;
}

/* Gather or Slice c's part of its input (`dim` long on the axis it reads):
 * [*lo, *hi), and whether a Squeeze follows (a Gather of a scalar); false
 * when ORT would not fuse it: the index, starts and ends must be int64
 * constants of one element (and steps 1), the part within the axis. */
static bool split_part(const pctx *p, size_t c, int64_t dim, int64_t *lo, int64_t *hi,
                       bool *squeeze)
{
    const oc_node *n = &p->g->nodes[c];
    int r;
    *squeeze = false;
    if (is_op(p, n, OC_OPID_Gather)) {
        if (!const_one_int64(p, in(p, c, 1), lo, &r))
            return false;
        if (*lo < 0)
            *lo += dim;
        *hi = *lo + 1;
        *squeeze = r == 0;
    } else {
        int64_t step;
        if (!const_one_int64(p, in(p, c, 1), lo, &r) || !const_one_int64(p, in(p, c, 2), hi, &r) ||
            (n->n_inputs > 4 && (!const_one_int64(p, in(p, c, 4), &step, &r) || step != 1)))
            return false;
        if (*lo < 0)
            *lo += dim;
        if (*hi < 0)
            *hi += dim;
        *lo = *lo < 0 ? 0 : *lo > dim ? dim : *lo;
        *hi = *hi < 0 ? 0 : *hi > dim ? dim : *hi;
    }
    return *lo >= 0 && *lo < *hi && *hi <= dim;
}

/* ORT's level-2 loop runs its TransposeOptimizer again after
 * GatherSliceToSplitFusion (both level 2 in ORT 1.30's list): where the
 * tensor v split into the n parts is a Transpose's output that they alone
 * read, the Transpose goes through the new Split and its Squeezes, so the
 * Split reads the Transpose's input and each part gets a Transpose of its
 * own (Transformer-in-Transformer's q, k, v: three Transposes where the
 * graph has one).  A part whose only reader is a Transpose merges into it,
 * and that one then takes no MatMul's transposition (k^T: the merged
 * permutation moves the head axis).  Whether this happens (the Transpose
 * dropped, the readers marked); each part's own permutation into pushed
 * (identity where it needs none: no kernel).  Not where a merged
 * permutation would be the identity (ORT drops both; left as it was). */
static bool split_transposed(pctx *p, int v, const size_t *parts, const bool *squeeze, int n,
                             int axis, tperm *pushed)
{
    const oc_graph *g = p->g;
    int t = g->values[v].producer;
    if (t < 0 || !live(p, (size_t)t) || !is_op(p, &g->nodes[t], OC_OPID_Transpose) ||
        p->uses[v] != n || g->values[v].is_output || in(p, (size_t)t, 0) < 0 ||
        !perm_is_id(&p->tp[in(p, (size_t)t, 0)]))
        return false;
    tperm perm = perm_of_node(p, (size_t)t);
    if (perm.r == 0 || axis >= perm.r)
        return false;
    int gone = perm.v[axis]; /* the split axis in the Transpose's input */
    int reader[64];
    for (int q = 0; q < n; q++) {
        tperm *o = &pushed[q];
        *o = (tperm){.r = squeeze[q] ? (unsigned char)(perm.r - 1) : perm.r};
        for (int d = 0, k = 0; d < perm.r; d++)
            if (!(squeeze[q] && d == axis))
                o->v[k++] = (signed char)(squeeze[q] && perm.v[d] > gone ? perm.v[d] - 1
                                                                          : perm.v[d]);
        int y = out0(p, parts[q]), r = -1;
        reader[q] = -1;
        if (y >= 0 && p->uses[y] == 1 && p->cons_start[y + 1] - p->cons_start[y] == 1)
            r = p->cons[p->cons_start[y]];
        if (r >= 0 && live(p, (size_t)r) && is_op(p, &g->nodes[r], OC_OPID_Transpose) &&
            !perm_is_id(o)) {
            tperm rp = perm_of_node(p, (size_t)r), m = perm_then(o, &rp);
            if (rp.r != o->r || perm_is_id(&m))
                return false;
            reader[q] = r;
            *o = (tperm){0}; /* merged: no kernel of its own */
        }
    }
    drop(p, (size_t)t, OC_KERNEL_REMOVED, "pushed through the Split by the transpose optimizer");
    for (int q = 0; q < n; q++)
        if (reader[q] >= 0)
            p->flags[reader[q]] |= F_PUSHED;
    return true;
}

/* GatherSliceToSplitFusion (ORT's level 1, opset 13 and later): the
 * Gathers of one index and the Slices of one range that read tensor v
 * along one axis, together covering it once, run as one Split; a Gather
 * whose index is a scalar (rank 0) then runs a Squeeze of its part. */
static void fuse_split(pctx *p, int v)
{
    const oc_graph *g = p->g;
    int pr = g->values[v].producer;
    int edges = p->cons_start[v + 1] - p->cons_start[v];
    /* the tensor: a graph input, a weight, or the only output of a node
     * other than Shape, read by more than one node */
    if (edges < 2 || (pr >= 0 && (is_op(p, &g->nodes[pr], OC_OPID_Shape) ||
                                  g->nodes[pr].n_outputs != 1)))
        return;
    const oc_tinfo *t = ort_info(p, v);
    if (!t || t->rank < 1)
        return;
    /* as many parts as readers (measured with ORT 1.30: blind25's
     * goertzel_bank slices one [N, 8, 96] tensor 96 ways, one Split) */
    size_t *parts = oc_arena_alloc(p->ar, (size_t)edges * sizeof *parts);
    int64_t *los = oc_arena_alloc(p->ar, (size_t)edges * sizeof *los);
    int64_t *his = oc_arena_alloc(p->ar, (size_t)edges * sizeof *his);
    bool *squeeze = oc_arena_alloc(p->ar, (size_t)edges * sizeof *squeeze);
    tperm *pushed = oc_arena_alloc(p->ar, (size_t)edges * sizeof *pushed);
    int64_t axis = -1, covered = 0, dim = -1;
    int count = 0, first = -1;
    if (!parts || !los || !his || !squeeze || !pushed)
        return; /* out of memory: no Split */
    for (int e = p->cons_start[v]; e < p->cons_start[v + 1]; e++) {
        size_t c = (size_t)p->cons[e];
        const oc_node *n = &g->nodes[c];
        if (!live(p, c) || in(p, c, 0) != v ||
            !(is_op(p, n, OC_OPID_Gather) || is_op(p, n, OC_OPID_Slice)))
            continue;
        if (n->opset < 13)
            return;
        int64_t a, lo, hi;
        if (!part_axis(p, c, t->rank, &a) || (axis >= 0 && a != axis))
            return;
        if (axis < 0) {
            /* the axis the first of them names, whose dim must be known */
            if (!dims_concrete(t, (int)a, (int)a + 1))
                return;
            axis = a;
            dim = t->dims[a].v;
        }
        if (!split_part(p, c, dim, &lo, &hi, &squeeze[count]))
            return;
        for (int q = 0; q < count; q++)
            if (lo < his[q] && los[q] < hi)
                return; /* overlapping */
        los[count] = lo;
        his[count] = hi;
        parts[count++] = c;
        covered += hi - lo;
        if (first < 0 || g_topo_before(p, c, (size_t)first))
            first = (int)c;
    }
    if (count < 2 || covered != dim)
        return;
    bool through = split_transposed(p, v, parts, squeeze, count, (int)axis, pushed);
    for (int q = 0; q < count; q++) {
        if (parts[q] != (size_t)first)
            absorb(p, (size_t)first, parts[q]);
        if (squeeze[q])
            add_inserted(p, OC_OPID_Squeeze, out0(p, parts[q]), (size_t)first, false);
        if (through && !perm_is_id(&pushed[q]))
            add_inserted(p, OC_OPID_Transpose, out0(p, parts[q]), (size_t)first, false);
    }
    set_kernel(&p->nk[first], OC_OPID_Split);
    p->nk[first].axis = (int)axis;
}

static int kernel_out(const pctx *p, size_t m);

/* ---- float16 on the CPU: InsertCastTransformer ---- */

/* Operators ORT 1.30's CPU provider runs on float16 (x86): the
 * type-agnostic data movement and the layer norms; every other node with a
 * float16 tensor runs in float32 (as the ort-quant corpus shows: Conv,
 * Relu, Add, MaxPool, GlobalAveragePool, Gemm, MatMul, Softmax). */
static bool fp16_kernel(const pctx *p, const oc_node *n)
{
    static const oc_op_id ops[] = {
        OC_OPID_Cast,      OC_OPID_Reshape,   OC_OPID_Transpose, OC_OPID_Concat,
        OC_OPID_Slice,     OC_OPID_Gather,    OC_OPID_Split,     OC_OPID_Squeeze,
        OC_OPID_Unsqueeze, OC_OPID_Flatten,   OC_OPID_Identity,  OC_OPID_Shape,
        OC_OPID_Expand,    OC_OPID_Tile,      OC_OPID_Size,      OC_OPID_LayerNormalization,
        OC_OPID_SimplifiedLayerNormalization};
    for (size_t q = 0; q < sizeof ops / sizeof ops[0]; q++)
        if (is_op(p, n, ops[q]))
            return true;
    return false;
}

static bool is_f16(const pctx *p, int v)
{
    const oc_tinfo *t = ainfo(p, v);
    return v >= 0 && t && t->dtype == OC_DT_FLOAT16;
}

static bool node_f16(const pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    for (size_t k = 0; k < n->n_inputs; k++)
        if (is_f16(p, in(p, i, k)))
            return true;
    return false;
}

/* Whether explicit Cast node c converts from float to float16 or back. */
static bool cast_between(const pctx *p, size_t c, oc_dtype from, oc_dtype to)
{
    const oc_tinfo *x = ainfo(p, in(p, c, 0)), *y = ainfo(p, out0(p, c));
    return is_op(p, &p->g->nodes[c], OC_OPID_Cast) && x && y && x->dtype == from &&
           y->dtype == to;
}

/* A float16 node without a float16 kernel runs in float32 with Casts
 * around it (InsertCastTransformer): float16 constants are cast once at
 * session creation, a float16 graph input or a value from a float16 kernel
 * gets a Cast kernel before the first float32 reader, and a float32 result
 * a Cast back before a float16 reader or a graph output; a node with a
 * float16 kernel between float32 ones runs in float32 too (isolated), and
 * a Cast pair that undoes itself goes (RemoveDuplicateCastTransformer: an
 * explicit float->float16 Cast before float32 readers; before a graph
 * output the explicit Cast back stays, the inserted one goes).  Softmax
 * (opset 13+) has no float16 kernel: ORT expands its function body,
 * ReduceMax, Sub, Exp, ReduceSum, Div, each a kernel (ORT 1.30, fp16_mlp).
 * Checked on the corpus's fp16_cnn, fp16_mlp, fp16_io. */
static bool pass_fp16(pctx *p)
{
    const oc_graph *g = p->g;
    bool *f32 = oc_arena_calloc(p->ar, p->nn + 1, sizeof(bool));
    bool *cast = oc_arena_calloc(p->ar, p->nv + 1, sizeof(bool));
    if (!f32 || !cast)
        return false;
    bool any = false;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (live(p, i) && node_f16(p, i) && !fp16_kernel(p, &g->nodes[i])) {
            f32[i] = true;
            any = true;
        }
    }
    if (!any)
        return true;
    /* isolated float16 kernels */
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        const oc_node *n = &g->nodes[i];
        if (!live(p, i) || f32[i] || !node_f16(p, i) || is_op(p, n, OC_OPID_Cast))
            continue;
        bool iso = true, out16 = false;
        for (size_t k = 0; k < n->n_inputs && iso; k++) {
            int v = in(p, i, k), pr = v >= 0 ? g->values[v].producer : -1;
            if (is_f16(p, v))
                iso = pr >= 0 && !p->constant[v] && f32[p->owner[pr]];
        }
        for (size_t k = 0; k < n->n_outputs && iso; k++) {
            int v = n->outputs[k];
            if (!is_f16(p, v))
                continue;
            out16 = true;
            iso = !g->values[v].is_output;
            for (int e = p->cons_start[v]; e < p->cons_start[v + 1] && iso; e++)
                iso = f32[p->owner[p->cons[e]]];
        }
        if (iso && out16)
            f32[i] = true;
    }
    /* Casts where the precision changes */
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (!live(p, i))
            continue;
        const oc_node *n = &g->nodes[i];
        if (f32[i]) {
            p->nk[i].in_fp32 = true;
            for (size_t k = 0; k < n->n_inputs; k++) {
                int v = in(p, i, k), pr = v >= 0 ? g->values[v].producer : -1;
                if (!is_f16(p, v) || p->constant[v] || cast[v] || (pr >= 0 && f32[p->owner[pr]]))
                    continue;
                cast[v] = true; /* one Cast per value */
                if (pr >= 0 && live(p, (size_t)pr) &&
                    cast_between(p, (size_t)pr, OC_DT_FLOAT, OC_DT_FLOAT16) &&
                    !g->values[v].is_output) {
                    drop(p, (size_t)pr, OC_KERNEL_REMOVED, "a Cast ORT's Cast to float undoes");
                    continue;
                }
                if (!add_inserted(p, OC_OPID_Cast, v, i, true))
                    return false;
            }
        }
        if (!f32[i])
            continue;
        for (size_t k = 0; k < n->n_outputs; k++) {
            int v = n->outputs[k];
            if (!is_f16(p, v))
                continue;
            bool need = g->values[v].is_output;
            for (int e = p->cons_start[v]; e < p->cons_start[v + 1]; e++) {
                size_t c = (size_t)p->owner[p->cons[e]];
                if (f32[c] || !live(p, c))
                    continue;
                if (cast_between(p, c, OC_DT_FLOAT16, OC_DT_FLOAT)) {
                    if (!g->values[out0(p, c)].is_output)
                        drop(p, c, OC_KERNEL_REMOVED, "a Cast back to the float ORT ran in");
                    continue;
                }
                need = true;
            }
            if (need && !add_inserted(p, OC_OPID_Cast, v, i, false))
                return false;
        }
        if (is_op(p, n, OC_OPID_Softmax) && n->opset >= 13) {
            static const oc_op_id body[] = {OC_OPID_ReduceMax, OC_OPID_Sub, OC_OPID_Exp,
                                            OC_OPID_ReduceSum};
            for (size_t q = 0; q < 4; q++)
                if (!add_inserted(p, body[q], out0(p, i), i, true))
                    return false;
            set_kernel(&p->nk[i], OC_OPID_Div);
            p->nk[i].as_op = "Softmax";
        }
    }
    return true;
}

/* ---- pass 2a: quantized graphs ---- */

/* The live node that produces v when it is operator id, or -1. */
static int producer_op(const pctx *p, int v, oc_op_id id)
{
    if (v < 0)
        return -1;
    int pr = p->g->values[v].producer;
    return pr >= 0 && live(p, (size_t)pr) && is_op(p, &p->g->nodes[pr], id) ? pr : -1;
}

/* Scale and zero point of QuantizeLinear/DequantizeLinear node i, when both
 * are constant scalars (an absent zero point is 0). */
static bool qparams(const pctx *p, size_t i, double *scale, double *zp)
{
    cvals c;
    int s = in(p, i, 1), z = in(p, i, 2);
    if (!const_vals(p, s, &c) || c.n != 1)
        return false;
    *scale = cval(&c, 0);
    *zp = 0;
    if (z >= 0) {
        if (!const_vals(p, z, &c) || c.n != 1)
            return false;
        *zp = cval(&c, 0);
    }
    return true;
}

/* The integer type of a Q's output or a DQ's input (as the model has it:
 * an alias may stand for the float op a dropped QDQ pair surrounded). */
static oc_dtype qtype(const pctx *p, size_t i, bool is_q)
{
    const oc_node *n = &p->g->nodes[i];
    const oc_tinfo *t = ainfo(p, is_q ? out0(p, i) : n->n_inputs ? n->inputs[0] : -1);
    if (t && t->dtype != OC_DT_UNDEFINED)
        return t->dtype;
    const oc_tinfo *z = ainfo(p, in(p, i, 2));
    return z && z->dtype != OC_DT_UNDEFINED ? z->dtype : OC_DT_UINT8;
}

static bool is_8bit(oc_dtype d)
{
    return d == OC_DT_UINT8 || d == OC_DT_INT8;
}

/* ReluQuantFusion / ClipQuantFusion (level 1): a Relu or Clip whose only
 * reader is a QuantizeLinear that clamps to the same range goes. */
static bool redundant_before_q(pctx *p)
{
    const oc_graph *g = p->g;
    bool any = false;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        const oc_node *n = &g->nodes[i];
        bool relu = is_op(p, n, OC_OPID_Relu);
        if (!live(p, i) || !(relu || is_op(p, n, OC_OPID_Clip)) || in(p, i, 0) < 0)
            continue;
        int q = sole_next(p, i);
        double s, z;
        if (q < 0 || !is_op(p, &g->nodes[q], OC_OPID_QuantizeLinear) ||
            !qparams(p, (size_t)q, &s, &z))
            continue;
        oc_dtype dt = qtype(p, (size_t)q, true);
        if (!is_8bit(dt))
            continue;
        double lo = dt == OC_DT_UINT8 ? 0 : -128, hi = dt == OC_DT_UINT8 ? 255 : 127;
        bool red;
        if (relu) {
            red = z == lo;
        } else {
            double mn = -1e300, mx = 1e300;
            cvals c;
            if (n->opset < 11) {
                const oc_attr *a = oc_node_attr(n, "min"), *b = oc_node_attr(n, "max");
                mn = a ? a->f : mn;
                mx = b ? b->f : mx;
            } else {
                if (in(p, i, 1) >= 0) {
                    if (!const_vals(p, in(p, i, 1), &c) || c.n != 1)
                        continue;
                    mn = cval(&c, 0);
                }
                if (in(p, i, 2) >= 0) {
                    if (!const_vals(p, in(p, i, 2), &c) || c.n != 1)
                        continue;
                    mx = cval(&c, 0);
                }
            }
            double qlo = (lo - z) * s, qhi = (hi - z) * s;
            double tol = 1e-6 * (fabs(qlo) + fabs(qhi) + 1);
            red = mn <= qlo + tol && mx >= qhi - tol;
        }
        if (!red)
            continue;
        drop(p, i, OC_KERNEL_REMOVED, "redundant before the QuantizeLinear after it");
        p->alias[out0(p, i)] = in(p, i, 0);
        any = true;
    }
    return !any || count_uses(p);
}

/* Operators whose DQ -> op -> Q group ORT runs on the integers, DQ and Q
 * dropped, when both have the same scale and zero point (DropQDQNodesRules,
 * qdq_selector_action_transformer.cc). */
static bool qdq_droppable(const pctx *p, const oc_node *n, bool *positive)
{
    static const oc_op_id ops[] = {OC_OPID_Expand, OC_OPID_Flatten, OC_OPID_Gather,
                                   OC_OPID_GatherElements, OC_OPID_Reshape, OC_OPID_Slice,
                                   OC_OPID_Squeeze, OC_OPID_Tile, OC_OPID_Transpose,
                                   OC_OPID_Unsqueeze, OC_OPID_Resize};
    *positive = false;
    for (size_t q = 0; q < sizeof ops / sizeof ops[0]; q++)
        if (is_op(p, n, ops[q]))
            return true;
    *positive = true;
    return (is_op(p, n, OC_OPID_MaxPool) && n->opset >= 12) ||
           is_op(p, n, OC_OPID_ReduceMax) || is_op(p, n, OC_OPID_ReduceMin);
}

/* The QLinear kernel ORT makes of a DQ -> op -> Q group of node n (the QDQ
 * selectors of qdq_selector_action_transformer.cc), or OC_OPID_UNKNOWN;
 * *inputs: how many inputs come from a DQ (0: all present ones). */
static int qlinear_kid(const pctx *p, const oc_node *n, size_t *inputs)
{
    static const struct {
        oc_op_id op;
        int kid;
        size_t inputs;
    } rows[] = {
        {OC_OPID_Conv, OC_OPID_QLinearConv, 0},
        {OC_OPID_MatMul, OC_OPID_QLinearMatMul, 2},
        {OC_OPID_Gemm, OC_OPID_MS_QGemm, 0},
        {OC_OPID_Add, OC_OPID_MS_QLinearAdd, 2},
        {OC_OPID_Mul, OC_OPID_MS_QLinearMul, 2},
        {OC_OPID_AveragePool, OC_OPID_MS_QLinearAveragePool, 1},
        {OC_OPID_GlobalAveragePool, OC_OPID_MS_QLinearGlobalAveragePool, 1},
        {OC_OPID_Sigmoid, OC_OPID_MS_QLinearSigmoid, 1},
        {OC_OPID_LeakyRelu, OC_OPID_MS_QLinearLeakyRelu, 1},
        {OC_OPID_Concat, OC_OPID_MS_QLinearConcat, 0},
    };
    for (size_t q = 0; q < sizeof rows / sizeof rows[0]; q++)
        if (is_op(p, n, rows[q].op)) {
            *inputs = rows[q].inputs;
            return rows[q].kid;
        }
    return OC_OPID_UNKNOWN;
}

/* A Conv's bias DQ must carry the scale x_scale * w_scale (per channel) the
 * integer kernel assumes: ORT 1.30 keeps the Conv in float otherwise
 * (checked: the same one-Conv model becomes QLinearConv only with that
 * scale). */
static bool bias_scale_ok(const pctx *p, const int *dq)
{
    cvals xs, ws, bs;
    if (!const_vals(p, in(p, (size_t)dq[0], 1), &xs) || xs.n != 1 ||
        !const_vals(p, in(p, (size_t)dq[1], 1), &ws) ||
        !const_vals(p, in(p, (size_t)dq[2], 1), &bs) || ws.ints || bs.ints ||
        (ws.n != bs.n && ws.n != 1))
        return false;
    for (int64_t k = 0; k < bs.n; k++) {
        double want = cval(&xs, 0) * cval(&ws, ws.n == 1 ? 0 : k), got = cval(&bs, k);
        if (fabs(want - got) > 1e-6 * fabs(want))
            return false;
    }
    return true;
}

/* Node i with its DQ inputs and Q output as one QLinear kernel, when it
 * qualifies; its DQs are marked for pass_quant to remove. */
static void qdq_group(pctx *p, size_t i, bool *dq_used)
{
    const oc_graph *g = p->g;
    const oc_node *n = &g->nodes[i];
    size_t want;
    int kid = qlinear_kid(p, n, &want);
    bool positive = false, dropq = kid == OC_OPID_UNKNOWN && qdq_droppable(p, n, &positive);
    if (kid == OC_OPID_UNKNOWN && !dropq)
        return;
    if (dropq)
        want = 1;
    int dq[OC_PLAN_MAX_NODES];
    size_t n_in = 0;
    for (size_t k = 0; k < n->n_inputs; k++) {
        if (n->inputs[k] < 0 || (want && k >= want))
            continue;
        if (k >= OC_PLAN_MAX_NODES - 2)
            return;
        int d = producer_op(p, in(p, i, k), OC_OPID_DequantizeLinear);
        bool bias = k == 2 && (is_op(p, n, OC_OPID_Conv) || is_op(p, n, OC_OPID_Gemm));
        if (d < 0 || !(bias ? qtype(p, (size_t)d, false) == OC_DT_INT32
                            : is_8bit(qtype(p, (size_t)d, false))))
            return;
        dq[n_in++] = d;
    }
    if (!n_in)
        return;
    int q = sole_next(p, i);
    if (q >= 0 && !is_op(p, &g->nodes[q], OC_OPID_QuantizeLinear))
        q = -1;
    oc_dtype x_t = qtype(p, (size_t)dq[0], false);
    if (q < 0) {
        /* MatMul -> MatMulIntegerToFloat; Gemm -> QGemm with a float Y */
        if (is_op(p, n, OC_OPID_MatMul))
            kid = OC_OPID_MS_MatMulIntegerToFloat;
        else if (!is_op(p, n, OC_OPID_Gemm))
            return;
        int y = out0(p, i);
        if (y >= 0 && p->uses[y] > 1 && is_op(p, n, OC_OPID_Gemm))
            return;
    } else if (qtype(p, (size_t)q, true) != x_t) {
        return;
    }
    if (dropq) {
        double s1, z1, s2, z2;
        if (q < 0 || out0(p, (size_t)q) < 0 || !qparams(p, (size_t)dq[0], &s1, &z1) ||
            !qparams(p, (size_t)q, &s2, &z2) ||
            s1 != s2 || z1 != z2 || (positive && s1 <= 0))
            return;
        drop(p, (size_t)q, OC_KERNEL_REMOVED, "QDQ pair dropped: the op runs on the integers");
        p->alias[out0(p, (size_t)q)] = out0(p, i);
        p->flags[i] |= F_QUNIT;
        p->nk[i].on_ints = x_t;
        dq_used[dq[0]] = true;
        return;
    }
    if (is_op(p, n, OC_OPID_Conv) || is_op(p, n, OC_OPID_MatMul)) {
        /* int8 activations only where ORT allows them (not x86), weights
         * of any 8-bit type with uint8 activations */
        if (x_t != OC_DT_UINT8)
            return;
        if (is_op(p, n, OC_OPID_Conv) && n_in == 3 && !bias_scale_ok(p, dq))
            return;
    } else if (is_op(p, n, OC_OPID_Gemm)) {
        const oc_attr *beta = oc_node_attr(n, "beta");
        if (x_t == OC_DT_INT8 && qtype(p, (size_t)dq[1], false) != OC_DT_INT8)
            return;
        if (n_in == 3 && ((beta && beta->f != 1.0) ||
                          (ainfo(p, in(p, (size_t)dq[2], 0)) &&
                           ainfo(p, in(p, (size_t)dq[2], 0))->dtype != OC_DT_INT32)))
            return;
    } else {
        for (size_t k = 1; k < n_in; k++)
            if (qtype(p, (size_t)dq[k], false) != x_t)
                return;
    }
    set_kernel(&p->nk[i], kid);
    p->nk[i].as_op = p->nk[i].op;
    p->flags[i] |= F_QUNIT;
    for (size_t k = 0; k < n_in; k++)
        dq_used[dq[k]] = true;
    if (q >= 0)
        absorb(p, i, (size_t)q);
}

/* MatMulIntegerToFloatFusion then DynamicQuantizeMatMulFusion
 * (matmul_integer_to_float.cc, dynamic_quantize_matmul_fusion.cc): Mul(
 * Cast(MatMulInteger(A, B)), Mul(a_scale, b_scale)) [+ Add of a constant bias
 * of shape [1.., N > 1], either input] is one MatMulIntegerToFloat, and with the
 * DynamicQuantizeLinear that alone feeds it (its three outputs, B, b_scale
 * and b_zero_point constant) one DynamicQuantizeMatMul, named after the
 * MatMulInteger. */
static void dynamic_matmul(pctx *p, size_t m)
{
    const oc_graph *g = p->g;
    if (g->nodes[m].n_inputs != 2)
        return;
    int cast = -1, right = -1;
    for (size_t k = 0; k < 2; k++) {
        int v = in(p, m, k);
        if (cast < 0 && producer_op(p, v, OC_OPID_Cast) >= 0)
            cast = producer_op(p, v, OC_OPID_Cast);
        else if (right < 0 && producer_op(p, v, OC_OPID_Mul) >= 0)
            right = producer_op(p, v, OC_OPID_Mul);
    }
    if (cast < 0 || right < 0)
        return;
    int mi = producer_op(p, in(p, (size_t)cast, 0), OC_OPID_MatMulInteger);
    if (mi < 0 || sole_next(p, (size_t)cast) != (int)m || sole_next(p, (size_t)mi) != cast ||
        sole_next(p, (size_t)right) != (int)m || p->nk[mi].kind != OC_KERNEL_RUN)
        return;
    int add = sole_next(p, m);
    if (add >= 0) {
        /* the bias either side (ORT 1.30 fuses Add(bias, y) too: the
         * corpus's bert_small_dq, as the exporter writes a Linear) */
        const oc_node *an = &g->nodes[add];
        int b = in(p, (size_t)add, 1);
        if (b == out0(p, m))
            b = in(p, (size_t)add, 0);
        const oc_tinfo *bt = sinfo(p, b);
        bool ok = is_op(p, an, OC_OPID_Add) && an->n_inputs == 2 && b >= 0 && b != out0(p, m) &&
                  p->constant[b] && bt && bt->rank >= 1;
        for (int d = 0; ok && d < bt->rank; d++)
            ok = oc_dim_is_known(bt->dims[d]) &&
                 (d == bt->rank - 1 ? bt->dims[d].v > 1 : bt->dims[d].v == 1);
        if (!ok)
            add = -1;
    }
    absorb(p, (size_t)mi, (size_t)cast);
    absorb(p, (size_t)mi, (size_t)right);
    absorb(p, (size_t)mi, m);
    if (add >= 0)
        absorb(p, (size_t)mi, (size_t)add);
    set_kernel(&p->nk[mi], OC_OPID_MS_MatMulIntegerToFloat);
    p->nk[mi].as_op = p->nk[mi].op;
    p->flags[mi] |= F_QUNIT;
    /* the quantizer of A */
    int d = producer_op(p, in(p, (size_t)mi, 0), OC_OPID_DynamicQuantizeLinear);
    const oc_node *dn = d >= 0 ? &g->nodes[d] : NULL;
    int bs = in(p, (size_t)right, 1), bz = in(p, (size_t)mi, 3), b = in(p, (size_t)mi, 1);
    if (!dn || dn->n_outputs < 3 || b < 0 || !p->constant[b] || bs < 0 || !p->constant[bs] ||
        (bz >= 0 && !p->constant[bz]))
        return;
    int edges = 0;
    for (size_t k = 0; k < dn->n_outputs; k++) {
        int v = dn->outputs[k];
        if (v < 0)
            continue;
        if (g->values[v].is_output)
            return;
        for (int e = p->cons_start[v]; e < p->cons_start[v + 1]; e++) {
            if (p->owner[p->cons[e]] != mi)
                return;
            edges++;
        }
    }
    if (edges != 3)
        return;
    absorb(p, (size_t)mi, (size_t)d);
    set_kernel(&p->nk[mi], OC_OPID_MS_DynamicQuantizeMatMul);
    p->nk[mi].as_op = p->nk[mi].op;
}

/* The quantized tensor kernel m reads in data slot k of its main node: a
 * DQ's input where the DQ ran inside it. */
static int qdata_in(const pctx *p, size_t m, size_t k)
{
    int v = in(p, m, k), pr = v >= 0 ? p->g->values[v].producer : -1;
    if (pr >= 0 && p->owner[pr] == (int)m && pr != (int)m &&
        is_op(p, &p->g->nodes[pr], OC_OPID_DequantizeLinear))
        return in(p, (size_t)pr, 0);
    return v;
}

/* NhwcTransformer (layout level): a 2-D QLinearConv on uint8 runs channels
 * last, with a Transpose before and after, which the transpose optimizer
 * cancels between such kernels and pushes through a QLinearAdd/QLinearMul
 * whose inputs are both channels last (ORT 1.30, the ort-quant corpus:
 * qdq_resnet, qop_cnn). */
static bool nhwc_pass(pctx *p)
{
    const oc_graph *g = p->g;
    bool *nhwc = oc_arena_calloc(p->ar, p->nn + 1, sizeof(bool));
    bool *tin = oc_arena_calloc(p->ar, p->nv + 1, sizeof(bool));
    if (!nhwc || !tin)
        return false;
    bool any = false;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (!live(p, i))
            continue;
        const oc_kernel *k = &p->nk[i];
        if (k->kid == OC_OPID_QLinearConv) {
            bool qop = is_op(p, &g->nodes[i], OC_OPID_QLinearConv);
            int x = qdata_in(p, i, 0), w = qop ? in(p, i, 3) : qdata_in(p, i, 1);
            const oc_tinfo *xt = ainfo(p, x);
            nhwc[i] = xt && xt->rank == 4 && (!qop || xt->dtype == OC_DT_UINT8) && w >= 0 &&
                      p->constant[w];
        } else if (k->kid == OC_OPID_MS_QLinearAdd || k->kid == OC_OPID_MS_QLinearMul) {
            bool qop = !is_op(p, &g->nodes[i], OC_OPID_Add) && !is_op(p, &g->nodes[i], OC_OPID_Mul);
            nhwc[i] = true;
            for (size_t s = 0; s < 2; s++) {
                int v = qop ? in(p, i, s * 3) : qdata_in(p, i, s);
                int pr = v >= 0 ? g->values[v].producer : -1;
                nhwc[i] &= pr >= 0 && nhwc[p->owner[pr]];
            }
        }
        any |= nhwc[i];
    }
    if (!any)
        return true;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (!live(p, i) || !nhwc[i])
            continue;
        bool conv = p->nk[i].kid == OC_OPID_QLinearConv;
        bool qop = is_op(p, &g->nodes[i], OC_OPID_QLinearConv) ||
                   is_op(p, &g->nodes[i], OC_OPID_MS_QLinearAdd) ||
                   is_op(p, &g->nodes[i], OC_OPID_MS_QLinearMul);
        int x = conv ? (qop ? in(p, i, 0) : qdata_in(p, i, 0)) : -1;
        int pr = x >= 0 ? g->values[x].producer : -1;
        if (x >= 0 && !tin[x] && !(pr >= 0 && nhwc[p->owner[pr]])) {
            tin[x] = true;
            if (!add_inserted(p, OC_OPID_Transpose, x, i, true))
                return false;
        }
        int y = kernel_out(p, i);
        bool plain = y >= 0 && g->values[y].is_output;
        for (int e = y >= 0 ? p->cons_start[y] : 0; y >= 0 && e < p->cons_start[y + 1]; e++)
            if (!nhwc[p->owner[p->cons[e]]])
                plain = true;
        if (plain && !add_inserted(p, OC_OPID_Transpose, y, i, false))
            return false;
    }
    return true;
}

/* What ORT makes of quantized graphs: redundant Relu/Clip before a Q, QDQ
 * groups as QLinear kernels (or the op on the integers, QDQ dropped),
 * dynamic quantization's MatMul pattern as one kernel.  DequantizeLinear
 * never folds (pass_remove), so a QDQ weight stays a DQ node until a group
 * takes it. */
static bool pass_quant(pctx *p)
{
    const oc_graph *g = p->g;
    if (!redundant_before_q(p))
        return false;
    bool *dq_used = oc_arena_calloc(p->ar, p->nn + 1, sizeof(bool));
    if (!dq_used)
        return false;
    bool any = false;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (!live(p, i) || p->owner[i] != (int)i)
            continue;
        if (is_op(p, &g->nodes[i], OC_OPID_Mul))
            dynamic_matmul(p, i);
        if (live(p, i) && p->owner[i] == (int)i && !(p->flags[i] & F_QUNIT))
            qdq_group(p, i, dq_used);
        any |= (p->flags[i] & F_QUNIT) != 0;
    }
    if (!any)
        return nhwc_pass(p);
    /* A DQ goes when every reader is a group that took it (ORT gives each
     * reader its own copy first, EnsureUniqueDQForNodeUnit); with one
     * reader it runs inside that kernel. */
    for (size_t i = 0; i < p->nn; i++) {
        int v = out0(p, i);
        if (!dq_used[i] || !live(p, i) || v < 0 || g->values[v].is_output)
            continue;
        int reader = -1;
        bool all = true;
        for (int e = p->cons_start[v]; e < p->cons_start[v + 1]; e++) {
            int o = p->owner[p->cons[e]];
            all &= (p->flags[o] & F_QUNIT) != 0;
            reader = reader == -1 || reader == o ? o : -2;
        }
        if (!all)
            continue;
        if (reader >= 0 && p->nk[reader].as_op)
            absorb(p, (size_t)reader, i);
        else {
            drop(p, i, OC_KERNEL_REMOVED, "runs inside the quantized kernels that read it");
            p->alias[v] = in(p, i, 0);
        }
    }
    return count_uses(p) && nhwc_pass(p);
}

static void pass_fuse(pctx *p)
{
    const oc_graph *g = p->g;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (!live(p, i) || (p->flags[i] & F_QUNIT))
            continue;
        const oc_node *n = &g->nodes[i];
        if (is_op(p, n, OC_OPID_Conv))
            fuse_conv(p, i);
        else if (is_op(p, n, OC_OPID_Gemm) || is_op(p, n, OC_OPID_MatMul))
            fuse_matmul(p, i);
        else if (is_op(p, n, OC_OPID_ReduceMean) && fuse_layernorm(p, i, true))
            fuse_skip(p, i, in(p, i, 0));
        else if (is_op(p, n, OC_OPID_LayerNormalization))
            fuse_skip(p, i, in(p, i, 0));
        else if (is_op(p, n, OC_OPID_Div) && !fuse_div_mul(p, i))
            fuse_gelu(p, i);
        else if (is_op(p, n, OC_OPID_Sigmoid))
            fuse_swish(p, i);
        else if (is_op(p, n, OC_OPID_Pad))
            fuse_pad(p, i);
        else if (is_op(p, n, OC_OPID_Pow) && !fuse_rmsnorm(p, i))
            pow_as_products(p, i);
        else if (is_op(p, n, OC_OPID_Gather) && range_to_slice(p, i))
            continue; /* its indices computed: no part of a Split */
        else if ((is_op(p, n, OC_OPID_Slice) || is_op(p, n, OC_OPID_Gather)) && in(p, i, 0) >= 0)
            fuse_split(p, in(p, i, 0));
    }
}

/* Eager PyTorch runs nn.LayerNorm and nn.GELU as one kernel each, forward
 * and backward, where an export spells out their arithmetic (opset < 17
 * has no LayerNormalization, none has Gelu before 20). */
static void eager_fuse(pctx *p)
{
    const oc_graph *g = p->g;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (!live(p, i))
            continue;
        const oc_node *n = &g->nodes[i];
        if (is_op(p, n, OC_OPID_ReduceMean))
            fuse_layernorm(p, i, false);
        else if (is_op(p, n, OC_OPID_Div))
            gelu_chain(p, i);
    }
}

/* ---- pass 3: NCHWc ---- */

static bool add_inserted(pctx *p, int kid, int value, size_t at, bool before)
{
    if (p->n_ins == p->cap_ins) {
        size_t cap = p->cap_ins ? 2 * p->cap_ins : 64;
        inserted *ni = oc_arena_alloc(p->ar, cap * sizeof *ni);
        if (!ni)
            return false;
        if (p->n_ins)
            memcpy(ni, p->ins, p->n_ins * sizeof *ni);
        p->ins = ni;
        p->cap_ins = cap;
    }
    inserted *e = &p->ins[p->n_ins++];
    memset(e, 0, sizeof *e);
    e->k.kind = OC_KERNEL_RUN;
    e->k.main = OC_PLAN_INSERTED;
    set_kernel(&e->k, kid);
    e->k.value = value;
    e->k.axis = -1;
    e->at = at;
    e->before = before;
    return true;
}

/* The value kernel m hands on: the output of its last node that is read
 * outside the kernel (or is a graph output). */
static int kernel_out(const pctx *p, size_t m)
{
    const oc_kernel *k = &p->nk[m];
    int best = out0(p, m);
    for (size_t f = 0; f <= k->n_fused; f++) {
        size_t node = f == 0 ? m : k->fused[f - 1];
        int v = out0(p, node);
        if (v < 0)
            continue;
        bool outside = p->g->values[v].is_output;
        for (int e = p->cons_start[v]; e < p->cons_start[v + 1]; e++)
            if (p->owner[p->cons[e]] != (int)m)
                outside = true;
        if (outside)
            best = v;
    }
    return best;
}

/* Value v becomes blocked, made by kernel m, of ch channels, its dim 0
 * that of value src. */
static void make_nchwc(pctx *p, int v, size_t m, int64_t ch, int src)
{
    p->nchwc[v] = (int)m;
    p->nchwc_left[v] = p->uses[v];
    p->nchwc_ch[v] = ch;
    p->bsrc[v] = src;
}

/* The value whose dim 0 the output y of a Conv or pool reading x carries:
 * x's source when x is blocked (ConvPoolShapeInference), else y itself
 * (a shape of its own output's). */
static int batch_src(const pctx *p, int x, int y)
{
    return p->nchwc[x] >= 0 ? p->bsrc[x] : y;
}

/* Node i runs on the blocked layout and its output, of ch channels, is
 * blocked (named "<output>_nchwc" as ORT names the node), its dim 0
 * that of src. */
static void run_blocked(pctx *p, size_t i, int64_t ch, int src)
{
    p->blocked[i] = true;
    p->nk[i].value = out0(p, i);
    make_nchwc(p, out0(p, i), i, ch, src);
}

/* nchwc_transformer.cc's test that the blocked inputs x and v of a binary
 * op have one shape, less the dims' values (shapes_eq tests them): the
 * channels are compared as load-time inference has them (x and v have a
 * rank then), dim 0 by derivation from one value or as known at load time
 * (not lost to a Resize). */
static bool same_batch(const pctx *p, int x, int v)
{
    return !p->rankless[x] && !p->rankless[v] &&
           (p->bsrc[x] == p->bsrc[v] || (!dim_lost(p, x, 0) && !dim_lost(p, v, 0)));
}

/* Kernel m reads blocked value v (in as many slots as its nodes do). */
static void consume(pctx *p, size_t m, int v)
{
    const oc_kernel *k = &p->nk[m];
    for (size_t f = 0; f <= k->n_fused; f++) {
        size_t node = f == 0 ? m : k->fused[f - 1];
        for (size_t q = 0; q < p->g->nodes[node].n_inputs; q++)
            if (in(p, node, q) == v)
                p->nchwc_left[v]--;
    }
}

/* Input value v of node i is read blocked: use the blocked tensor or add a
 * (shared) ReorderInput. */
static bool read_blocked(pctx *p, int v, size_t i)
{
    if (p->nchwc[v] >= 0) {
        p->nchwc_left[v]--;
        return true;
    }
    if (p->reordered[v] < 0) {
        if (!add_inserted(p, OC_KID_ReorderInput, v, i, true))
            return false;
        p->reordered[v] = (int)i;
    }
    return true;
}

/* The channels of v as ORT's load-time inference has them, which
 * TransformPool reads (-1: not a number there). Measured with ORT 1.30:
 * blind23's condensenet_lite average-pools a Concat whose shape that
 * inference loses (a channel shuffle's Reshape to a computed shape at
 * opset 13), and its pools ran plain, with the BatchNormalization and
 * Relu after them. */
static int64_t channels(const pctx *p, int v)
{
    const oc_tinfo *t = ort_info(p, v);
    return t && t->rank == 4 && oc_dim_is_known(t->dims[1]) ? t->dims[1].v : -1;
}

/* The ReorderInput of x reads an NHWC tensor itself (channels_last): a
 * Transpose(0,3,1,2) before it that nothing else reads goes (NCHWc
 * transformer, as ORT 1.30 runs convnext). */
static void reorder_takes_transpose(pctx *p, int x)
{
    static const signed char to_nchw[4] = {0, 3, 1, 2};
    const tperm *r = &p->tp[x];
    if (r->r != 4 || memcmp(r->v, to_nchw, 4) != 0)
        return;
    for (int e = p->tk_head[p->buf[x]]; e >= 0; e = p->tk[e].next) {
        tkernel *t = &p->tk[e];
        if (!perm_same(&t->perm, r) || t->readers != 1)
            continue;
        if (t->node >= 0)
            drop(p, (size_t)t->node, OC_KERNEL_REMOVED, "read by its ReorderInput (channels last)");
        else if (t->ins >= 0)
            p->ins[t->ins].k.kind = OC_KERNEL_REMOVED;
        t->readers = 0;
    }
}

static void nchwc_conv(pctx *p, size_t m)
{
    int w = in(p, m, 1), b = in(p, m, 2), x = in(p, m, 0);
    const oc_tinfo *wt = sinfo(p, w);
    /* ORT's NchwcTransformer takes the weights and bias from the graph's
     * own initializers: in a subgraph whose Conv reads them from the
     * enclosing graph (an If branch), the Conv stays plain and fuses as
     * outside NCHWc (measured with ORT 1.30 on the corpus' if_rank, and on
     * the same model with W moved into the branch, which runs blocked). */
    if (p->outer && ((w >= 0 && p->outer[w]) || (b >= 0 && p->outer[b])))
        return;
    if (w < 0 || !p->constant[w] || !wt || wt->rank != 4 ||
        !(wt->dtype == OC_DT_FLOAT || (wt->dtype == OC_DT_FLOAT16 && p->nk[m].in_fp32)) ||
        !dims_concrete(wt, 0, 4))
        return;
    if (b >= 0 && !p->constant[b])
        return;
    int64_t co = wt->dims[0].v, ci = wt->dims[1].v, bl = p->block;
    const oc_attr *ga = oc_node_attr(&p->g->nodes[m], "group");
    int64_t grp = ga ? ga->i : 1;
    /* Channel counts that are not whole blocks are padded to the block
     * when they are multiples of 4 (ORT 1.30, as the corpus shows: 52, 72
     * and 440 channels run blocked, 26 and 110 do not); other grouped convs
     * need whole blocks per group.  Fewer input channels than a block: the
     * plain input is read directly. */
    bool reorder_in = true;
    if (grp > 1) {
        if (ci == 1 && co == grp) {
            if (co % 4)
                return;
        } else if (co % bl || ci % bl || co % grp || (co / grp) % bl)
            return;
    } else if (ci < bl)
        reorder_in = false;
    else if (ci % 4)
        return;
    if (reorder_in && p->nchwc[x] < 0 && p->reordered[x] < 0)
        reorder_takes_transpose(p, x);
    if (reorder_in && !read_blocked(p, x, m))
        return;
    set_kernel(&p->nk[m], OC_OPID_Conv);
    p->blocked[m] = true;
    int src = reorder_in ? batch_src(p, x, out0(p, m)) : out0(p, m);
    p->nk[m].value = kernel_out(p, m);
    make_nchwc(p, p->nk[m].value, m, co, src);
}

/* Fused one-input activations ORT 1.30 runs on a blocked tensor as they
 * are, with no reorder around them (as the corpus shows: QuickGelu in
 * efficientnet's and maxvit's squeeze-excitation, the Gelu (com.microsoft,
 * from GeluFusion) between maxvit's blocked convs). */
static bool elementwise_blocked(const pctx *p, size_t i)
{
    const oc_kernel *k = &p->nk[i];
    return k->kid == OC_KID_QuickGelu || (k->kid == OC_OPID_Gelu && k->n_fused > 0);
}

/* A global pool on a blocked tensor runs blocked only when the load-time
 * shape of its input has known spatial dims (read off the corpus, ORT
 * 1.30's nchwc_transformer.cc not being at hand: maxvit's
 * squeeze-excitation pools run blocked after the stem, whose shape is
 * known, and plain after a window-attention block, whose Reshape leaves
 * [?, C, ?, ?]; every other corpus pool has known spatial dims). */
static bool global_pool_blocked(const pctx *p, int x)
{
    const oc_tinfo *t = sinfo(p, x);
    return t && t->rank == 4 && dims_concrete(t, 2, 4);
}

/* nchwc_transformer.cc TransformBinary: an Add or Sum of blocked tensors
 * with the same channels whose equal shape cannot be shown (a spatial dim
 * unknown at load time) still runs blocked: each input is reshaped to the
 * explicit 5-D NCHWc shape, and the sum reshaped back to the blocked 4-D
 * tensor (three Reshape kernels, no fusion into a Conv). */
static void nchwc_add_reshaped(pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    int x = in(p, i, 0);
    for (size_t k = 0; k < n->n_inputs; k++) {
        int v = in(p, i, k);
        if (v < 0 || p->nchwc[v] < 0 || p->nchwc_ch[v] != p->nchwc_ch[x])
            return;
    }
    for (size_t k = 0; k < n->n_inputs; k++) {
        int v = in(p, i, k);
        p->nchwc_left[v]--;
        add_inserted(p, OC_OPID_Reshape, v, i, true);
    }
    add_inserted(p, OC_OPID_Reshape, out0(p, i), i, false);
    make_nchwc(p, out0(p, i), i, p->nchwc_ch[x], out0(p, i));
}

/* String attribute `name` of n is written out and equals s. */
static bool attr_str_is(const oc_node *n, const char *name, const char *s)
{
    const oc_attr *a = oc_node_attr(n, name);
    return a && a->s && strcmp(a->s, s) == 0;
}

/* The whole-number factors a Resize/Upsample scales x by, from a constant
 * float scales tensor of 4 positive whole numbers or a constant int64
 * sizes tensor of 4 that the load-time dims of x divide exactly. */
static bool resize_factors(const pctx *p, int x, int sc, bool sizes, int64_t *f)
{
    const oc_tinfo *t = sinfo(p, sc), *xt = ort_info(p, x);
    cvals c;
    if (!t || t->dtype != (sizes ? OC_DT_INT64 : OC_DT_FLOAT) || t->rank != 1 ||
        !const_vals(p, sc, &c) || c.n != 4 || c.ints != sizes)
        return false;
    if (sizes && (!xt || xt->rank != 4 || !dims_concrete(xt, 0, 4)))
        return false;
    for (int d = 0; d < 4; d++) {
        if (sizes) {
            int64_t in_d = xt->dims[d].v;
            if (in_d <= 0 || c.i[d] % in_d)
                return false;
            f[d] = c.i[d] / in_d;
        } else {
            double s = cval(&c, d);
            f[d] = (int64_t)s;
            if ((double)f[d] != s)
                return false;
        }
        if (f[d] <= 0)
            return false;
    }
    return true;
}

/* nchwc_transformer.cc TransformResize: a Resize of the versions it knows
 * (10, 11, 13: opsets 10 to 17) or Upsample-9 reading a blocked tensor runs
 * blocked, as an NCHWc Upsample, when: mode nearest (the default) or
 * linear; from Resize-11 coordinate_transformation_mode written out as
 * asymmetric (linear: also align_corners or half_pixel) and, for nearest,
 * nearest_mode written out as floor; the factors come from a constant
 * (scales, or sizes when that input is given) and are whole numbers, 1 on
 * N and C.  Its other inputs are constants (the transformer only looks at
 * a node whose input edges all became blocked). */
static void nchwc_resize(pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    int x = in(p, i, 0);
    bool resize = is_op(p, n, OC_OPID_Resize);
    if (resize ? n->opset < 10 || n->opset > 17 : n->opset != 9)
        return;
    for (size_t k = 1; k < n->n_inputs; k++)
        if (in(p, i, k) >= 0 && !p->constant[in(p, i, k)])
            return;
    const oc_attr *mode = oc_node_attr(n, "mode");
    bool nearest = !mode || !mode->s || !strcmp(mode->s, "nearest");
    if (!nearest && strcmp(mode->s, "linear"))
        return;
    int sc = in(p, i, 1);
    bool sizes = false;
    if (resize && n->opset >= 11) {
        if (!attr_str_is(n, "coordinate_transformation_mode", "asymmetric") &&
            (nearest || (!attr_str_is(n, "coordinate_transformation_mode", "align_corners") &&
                         !attr_str_is(n, "coordinate_transformation_mode", "half_pixel"))))
            return;
        if (nearest && !attr_str_is(n, "nearest_mode", "floor"))
            return;
        sizes = n->n_inputs >= 4;
        sc = in(p, i, sizes ? 3 : 2);
    }
    int64_t f[4];
    if (!resize_factors(p, x, sc, sizes, f) || f[0] != 1 || f[1] != 1)
        return;
    p->nchwc_left[x]--;
    set_kernel(&p->nk[i], OC_OPID_Upsample);
    run_blocked(p, i, p->nchwc_ch[x], out0(p, i));
}

/* A Mul of a blocked tensor by a constant per-channel scale ([C,1,1] or
 * [1,C,1,1]) that no Conv took (ConvMulFusion reads only a second-input
 * constant) runs on the blocked layout as an NCHWc Conv kernel (ORT 1.30,
 * checked: "<output>_mul_nchwc", op Conv, no reorders around it).  The
 * blocked value it scales, or -1. */
static int channel_scaled(const pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    if (n->n_inputs != 2)
        return -1;
    for (int k = 0; k < 2; k++) {
        int c = in(p, i, (size_t)k), v = in(p, i, (size_t)(1 - k));
        const oc_tinfo *t = sinfo(p, c), *vt = sinfo(p, v);
        if (c < 0 || v < 0 || !p->constant[c] || p->nchwc[v] < 0 || !t || !vt ||
            vt->rank != 4 || (t->rank != 3 && t->rank != 4))
            continue;
        int first = t->rank - 3; /* the channel axis of the constant */
        bool ok = t->rank == 3 || (oc_dim_is_known(t->dims[0]) && t->dims[0].v == 1);
        ok = ok && oc_dim_is_known(t->dims[first]) && t->dims[first].v == p->nchwc_ch[v];
        for (int d = first + 1; ok && d < t->rank; d++)
            ok = oc_dim_is_known(t->dims[d]) && t->dims[d].v == 1;
        if (ok)
            return v;
    }
    return -1;
}

static void nchwc_pass(pctx *p)
{
    const oc_graph *g = p->g;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (!live(p, i) || (p->flags[i] & F_QUNIT))
            continue;
        const oc_node *n = &g->nodes[i];
        int x = in(p, i, 0);
        if (is_op(p, n, OC_OPID_Conv)) {
            nchwc_conv(p, i);
            continue;
        }
        if (x < 0)
            continue;
        bool xb = p->nchwc[x] >= 0;
        int scaled = is_op(p, n, OC_OPID_Mul) ? channel_scaled(p, i) : -1;
        if (is_op(p, n, OC_OPID_MaxPool) || is_op(p, n, OC_OPID_AveragePool)) {
            const oc_tinfo *xt = sinfo(p, x);
            int64_t ch = channels(p, x);
            if (n->n_outputs > 1 && n->outputs[1] >= 0)
                continue;
            bool f = xt && (xt->dtype == OC_DT_FLOAT ||
                            (xt->dtype == OC_DT_FLOAT16 && p->nk[i].in_fp32));
            if (!f || ch < 0 || ch % p->block)
                continue;
            int src = batch_src(p, x, out0(p, i));
            if (read_blocked(p, x, i))
                run_blocked(p, i, ch, src);
        } else if ((is_op(p, n, OC_OPID_GlobalAveragePool) ||
                    is_op(p, n, OC_OPID_GlobalMaxPool)) && xb &&
                   p->nchwc_ch[x] % p->block == 0 && global_pool_blocked(p, x)) {
            p->nchwc_left[x]--;
            run_blocked(p, i, p->nchwc_ch[x], p->bsrc[x]);
        } else if (scaled >= 0) {
            p->nchwc_left[scaled]--;
            set_kernel(&p->nk[i], OC_OPID_Conv);
            run_blocked(p, i, p->nchwc_ch[scaled], p->bsrc[scaled]);
        } else if ((is_op(p, n, OC_OPID_Add) || is_op(p, n, OC_OPID_Sum) ||
                    is_op(p, n, OC_OPID_Mul)) && n->n_inputs >= 2) {
            bool all = true;
            for (size_t k = 0; k < n->n_inputs; k++) {
                int v = in(p, i, k);
                all &= v >= 0 && p->nchwc[v] >= 0 && p->nchwc_ch[v] == p->nchwc_ch[x] &&
                       shapes_eq(sinfo(p, v), sinfo(p, x)) && same_batch(p, x, v);
            }
            if (!all && !is_op(p, n, OC_OPID_Mul))
                nchwc_add_reshaped(p, i);
            if (!all)
                continue;
            for (size_t k = 0; k < n->n_inputs; k++)
                p->nchwc_left[in(p, i, k)]--;
            if (!is_op(p, n, OC_OPID_Mul) && n->n_inputs == 2) {
                for (size_t k = 0; k < 2; k++) {
                    int v = in(p, i, k);
                    size_t c = (size_t)p->nchwc[v];
                    if (p->nk[c].kid == OC_OPID_Conv && p->blocked[c] && p->uses[v] == 1 &&
                        !(p->flags[c] & (F_ACT | F_SUM))) {
                        p->flags[c] |= F_SUM;
                        absorb(p, c, i);
                        make_nchwc(p, out0(p, i), c, p->nchwc_ch[v], p->bsrc[v]);
                        break;
                    }
                }
                if (p->owner[i] != (int)i)
                    continue;
            }
            make_nchwc(p, out0(p, i), i, p->nchwc_ch[x], p->bsrc[x]);
        } else if (is_op(p, n, OC_OPID_Concat)) {
            const oc_attr *ax = oc_node_attr(n, "axis");
            bool all = ax && ax->i == 1;
            int64_t tot = 0;
            for (size_t k = 0; all && k < n->n_inputs; k++) {
                int v = in(p, i, k);
                all &= v >= 0 && p->nchwc[v] >= 0 && p->nchwc_ch[v] % p->block == 0;
                if (all)
                    tot += p->nchwc_ch[v];
            }
            if (!all)
                continue;
            for (size_t k = 0; k < n->n_inputs; k++)
                p->nchwc_left[in(p, i, k)]--;
            make_nchwc(p, out0(p, i), i, tot, p->bsrc[x]);
        } else if (elementwise_blocked(p, i) && xb) {
            /* elementwise on the blocked tensor */
            consume(p, i, x);
            p->blocked[i] = true;
            make_nchwc(p, kernel_out(p, i), i, p->nchwc_ch[x], p->bsrc[x]);
        } else if ((is_op(p, n, OC_OPID_Relu) || is_op(p, n, OC_OPID_Sigmoid) ||
                    is_op(p, n, OC_OPID_Tanh)) &&
                   !p->nk[i].n_fused && xb) {
            size_t c = (size_t)p->nchwc[x];
            p->nchwc_left[x]--;
            if (p->nk[c].kid == OC_OPID_Conv && p->blocked[c] && p->uses[x] == 1 &&
                !(p->flags[c] & F_ACT)) {
                p->flags[c] |= F_ACT;
                absorb(p, c, i);
                make_nchwc(p, out0(p, i), c, p->nchwc_ch[x], p->bsrc[x]);
            } else {
                p->blocked[i] = true;
                make_nchwc(p, out0(p, i), i, p->nchwc_ch[x], p->bsrc[x]);
            }
        } else if (is_op(p, n, OC_OPID_BatchNormalization) && xb && n->n_outputs == 1) {
            bool params = true;
            for (size_t q = 1; q < n->n_inputs; q++)
                params &= in(p, i, q) >= 0 && p->constant[in(p, i, q)];
            if (!params)
                continue;
            p->nchwc_left[x]--;
            set_kernel(&p->nk[i], OC_OPID_Conv);
            run_blocked(p, i, p->nchwc_ch[x], p->bsrc[x]);
        } else if ((is_op(p, n, OC_OPID_Resize) || is_op(p, n, OC_OPID_Upsample)) && xb) {
            nchwc_resize(p, i);
        } else if (is_op(p, n, OC_OPID_Transpose) && xb) {
            const oc_attr *perm = oc_node_attr(n, "perm");
            if (perm && perm->n == 4 && perm->ints[0] == 0 && perm->ints[1] == 2 &&
                perm->ints[2] == 3 && perm->ints[3] == 1) {
                /* a reader the transpose was pushed through reads x in
                 * NCHW, which a plain ReorderOutput gives besides this
                 * channels-last one (measured with ORT 1.30: blind23's
                 * vip_permutator, whose first LayerNorm's ReduceMean and
                 * Sub took the permute while the residual Add kept it) */
                int t = out0(p, i);
                bool pushed = false;
                for (int c = p->cons_start[t]; c < p->cons_start[t + 1]; c++)
                    pushed |= p->buf[t] == x && live(p, (size_t)p->cons[c]) &&
                              reads_buffer(p, t, (size_t)p->cons[c]);
                if (!pushed)
                    p->nchwc_left[x]--;
                set_kernel(&p->nk[i], OC_KID_ReorderOutput);
            }
        }
    }
    /* blocked tensors still read in the plain layout */
    for (size_t v = 0; v < p->nv; v++)
        if (p->nchwc[v] >= 0 && p->nchwc_left[v] > 0)
            add_inserted(p, OC_KID_ReorderOutput, (int)v, (size_t)p->nchwc[v], false);
}

/* Convs left in the plain layout: Conv + Add of a same-shape tensor
 * (+ activation) runs as one FusedConv (ConvAddActivationFusion). */
static void conv_add_act(pctx *p)
{
    const oc_graph *g = p->g;
    for (size_t t = 0; t < p->nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (!live(p, i) || !is_op(p, &g->nodes[i], OC_OPID_Conv) || p->blocked[i] ||
            (p->flags[i] & F_QUNIT))
            continue;
        /* 2-D convs with a bias (their own, or one folded in from a
         * BatchNormalization or constant Add) */
        const oc_tinfo *yt = sinfo(p, out0(p, i));
        bool bias = in(p, i, 2) >= 0 || p->nk[i].n_fused > 0;
        if (!(p->flags[i] & (F_ACT | F_SUM)) && bias && yt && yt->rank == 4) {
            size_t last = p->nk[i].n_fused ? p->nk[i].fused[p->nk[i].n_fused - 1] : i;
            int j = sole_next(p, last);
            if (j >= 0 && is_op(p, &g->nodes[j], OC_OPID_Add)) {
                int other = in(p, (size_t)j, (size_t)(1 - slot_of(p, out0(p, last), (size_t)j)));
                if (other >= 0 && !p->constant[other] &&
                    shapes_eq(sinfo(p, other), sinfo(p, out0(p, (size_t)j)))) {
                    absorb(p, i, (size_t)j);
                    p->flags[i] |= F_SUM;
                    int a2 = sole_next(p, (size_t)j);
                    if (a2 >= 0 && is_activation(p, &g->nodes[a2])) {
                        absorb(p, i, (size_t)a2);
                        p->flags[i] |= F_ACT;
                    }
                }
            }
        }
        set_kernel(&p->nk[i], p->flags[i] & (F_ACT | F_SUM) ? OC_KID_FusedConv : OC_OPID_Conv);
    }
}

/* ---- control flow ---- */

/* ORT's ConstantFolding inlines an If whose condition is a constant
 * initializer once the nodes before it have folded (its condition folds
 * at session creation): Graph::InlineIfSubgraph puts the branch's nodes in
 * the If's place (onnxruntime/core/optimizer/constant_folding.cc,
 * onnxruntime/core/graph/graph.cc).  The If is then no kernel; its branch
 * is planned on its own (oc_analysis_sub), so fusions across the If's
 * boundary are not replayed. */
static void mark_inlined_ifs(pctx *p)
{
    for (size_t i = 0; i < p->nn; i++) {
        const oc_node *n = &p->g->nodes[i];
        int c = in(p, i, 0);
        if (!live(p, i) || !is_op(p, n, OC_OPID_If) || c < 0 || !p->constant[c])
            continue;
        p->nk[i].inlined = true;
        p->nk[i].why = "inlined: its branch runs in its place";
    }
}

/* ---- assembling the plan ---- */

const char *oc_kernel_op(const oc_kernel *k)
{
    return k && k->op ? k->op : "";
}

static oc_status plan_build(const oc_analysis *a, const oc_plan_opts *opts, oc_plan *out,
                           oc_arena *arena, oc_analysis **own_s, oc_error *err)
{
    const oc_graph *g = oc_analysis_graph(a);
    const char *target = opts && opts->target ? opts->target : "";
    pctx p = {.a = a, .s = opts && opts->session ? opts->session : a, .g = g, .ar = arena,
              .nv = g->n_values, .nn = g->n_nodes, .own_s = own_s};
    p.may_reinfer = opts && opts->session && !opts->kept_subgraph &&
                    oc_analysis_graph(opts->session) == g &&
                    g == oc_model_graph(oc_analysis_model(a));
    size_t nv = p.nv + 1, nn = p.nn + 1;
    p.alias = oc_arena_alloc(arena, nv * sizeof(int));
    p.canon = oc_arena_alloc(arena, nv * sizeof(int));
    p.constant = oc_arena_calloc(arena, nv, sizeof(bool));
    p.rankless = oc_arena_calloc(arena, nv, sizeof(bool));
    p.lost = oc_arena_calloc(arena, nv, sizeof(oc_tinfo *));
    p.shape_data = oc_arena_calloc(arena, nv, sizeof(bool));
    p.uses = oc_arena_calloc(arena, nv, sizeof(int));
    p.cons_start = oc_arena_calloc(arena, nv + 1, sizeof(int));
    p.nchwc = oc_arena_alloc(arena, nv * sizeof(int));
    p.nchwc_left = oc_arena_calloc(arena, nv, sizeof(int));
    p.nchwc_ch = oc_arena_calloc(arena, nv, sizeof(int64_t));
    p.bsrc = oc_arena_alloc(arena, nv * sizeof(int));
    p.reordered = oc_arena_alloc(arena, nv * sizeof(int));
    p.nk = oc_arena_calloc(arena, nn, sizeof(oc_kernel));
    p.owner = oc_arena_alloc(arena, nn * sizeof(int));
    p.rank = oc_arena_alloc(arena, nn * sizeof(size_t));
    p.blocked = oc_arena_calloc(arena, nn, sizeof(bool));
    p.flags = oc_arena_calloc(arena, nn, 1);
    p.tp = oc_arena_calloc(arena, nv, sizeof *p.tp);
    p.buf = oc_arena_alloc(arena, nv * sizeof(int));
    p.lay = oc_arena_calloc(arena, nn, sizeof *p.lay);
    p.tslots = oc_arena_calloc(arena, nn, sizeof *p.tslots);
    p.lead = oc_arena_calloc(arena, nv, sizeof(bool));
    p.norank = oc_arena_calloc(arena, nv, sizeof(bool));
    p.tk_head = oc_arena_alloc(arena, nv * sizeof(int));
    out->kernel_of = oc_arena_calloc(arena, nn, sizeof *out->kernel_of);
    if (!p.alias || !p.canon || !p.constant || !p.rankless || !p.lost || !p.shape_data ||
        !p.uses ||
        !p.cons_start || !p.nchwc || !p.nchwc_left || !p.nchwc_ch || !p.bsrc ||
        !p.reordered || !p.nk ||
        !p.owner || !p.rank || !out->kernel_of || !p.blocked || !p.flags || !p.tp || !p.buf ||
        !p.lay || !p.tslots || !p.lead || !p.norank || !p.tk_head)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    p.outer = opts && opts->kept_subgraph ? opts->outer_constant : NULL;
    for (size_t v = 0; v < p.nv; v++) {
        p.alias[v] = (int)v;
        p.canon[v] = (int)v;
        p.nchwc[v] = -1;
        p.bsrc[v] = (int)v;
        p.reordered[v] = -1;
        p.buf[v] = (int)v;
        p.tk_head[v] = -1;
        p.constant[v] = g->values[v].is_initializer ||
                        (g->values[v].constant && g->values[v].producer < 0) ||
                        (opts && opts->outer_constant && opts->outer_constant[v]);
    }
    for (size_t t = 0; t < p.nn; t++)
        p.rank[g->topo[t]] = t;
    for (size_t i = 0; i < p.nn; i++) {
        p.owner[i] = (int)i;
        p.nk[i].main = i;
        p.nk[i].value = -1;
        p.nk[i].axis = -1;
        p.nk[i].op = g->nodes[i].op;
        p.nk[i].kid = oc_analysis_node_cost(a, i)->op;
    }
    bool ort = oc_target_plan_rules(target) == OC_PLAN_RULES_ORT;
    bool eager = oc_target_plan_rules(target) == OC_PLAN_RULES_EAGER;
    p.block = ort && opts && opts->nchwc_block > 1 ? opts->nchwc_block : 0;
    if (ort || eager)
        pass_remove(&p, eager);
    if (ort)
        mark_inlined_ifs(&p);
    if (!count_uses(&p) || (ort && not_where(&p) && !count_uses(&p)))
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    if (eager)
        eager_fuse(&p);
    if (ort) {
        /* ORT applies its level-1 rewrites in up to 10 rounds
         * (SessionOptions' max_num_graph_transformation_steps), inferring
         * shapes again between rounds: a Reshape whose input's shape comes
         * from a Reshape fused in this round waits for the next.  So a
         * chain of such Reshapes has its first 10 fused and keeps the
         * shape arithmetic of the rest (measured with ORT 1.30: 4, 9 or 10
         * blocks of one such Reshape fused whole, of 11 to 20 blocks the
         * first 10; blocks of two, the first 5). */
        ort_shapes(&p);
        for (int round = 0; round < OC_ORT_ROUNDS && pass_reshape(&p); round++) {
            reinfer(&p);
            ort_shapes(&p);
        }
        if ((fuse_contiguous_reshapes(&p) && !count_uses(&p)) || !expand_elimination(&p))
            return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        pass_transpose(&p);
        ort_shapes(&p);
        if (!late_noop(&p) || !pass_quant(&p) || !pass_fp16(&p))
            return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        pass_fuse(&p);
        if (p.block > 1)
            nchwc_pass(&p);
        conv_add_act(&p);
    }
    /* run order: the main nodes' topological order, inserted kernels next
     * to the node they serve */
    size_t total = p.n_ins;
    for (size_t i = 0; i < p.nn; i++)
        total += p.owner[i] == (int)i;
    out->kernels = oc_arena_calloc(arena, total + 1, sizeof *out->kernels);
    size_t *ins_start = oc_arena_calloc(arena, nn + 1, sizeof(size_t));
    size_t *ins_order = oc_arena_alloc(arena, (p.n_ins + 1) * sizeof(size_t));
    if (!out->kernels || !ins_start || !ins_order)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    for (size_t e = 0; e < p.n_ins; e++)
        ins_start[p.ins[e].at + 1]++;
    for (size_t i = 0; i < p.nn; i++)
        ins_start[i + 1] += ins_start[i];
    size_t *fill = oc_arena_calloc(arena, nn, sizeof(size_t));
    if (!fill)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    for (size_t e = 0; e < p.n_ins; e++)
        ins_order[ins_start[p.ins[e].at] + fill[p.ins[e].at]++] = e;
    out->n_kernels = 0;
    out->n_run = 0;
    for (size_t t = 0; t < p.nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (p.owner[i] != (int)i)
            continue;
        for (int pass = 0; pass < 3; pass++) {
            if (pass == 1) {
                out->kernels[out->n_kernels++] = p.nk[i];
                continue;
            }
            for (size_t q = ins_start[i]; q < ins_start[i + 1]; q++) {
                const inserted *e = &p.ins[ins_order[q]];
                if (e->before == (pass == 0))
                    out->kernels[out->n_kernels++] = e->k;
            }
        }
    }
    out->constant = p.constant;
    for (size_t q = 0; q < out->n_kernels; q++) {
        oc_kernel *k = &out->kernels[q];
        if (k->kind == OC_KERNEL_RUN && !k->inlined) {
            out->n_run++;
            k->why = NULL;
        }
        if (k->main == OC_PLAN_INSERTED)
            continue;
        out->kernel_of[k->main] = q;
        for (size_t f = 0; f < k->n_fused; f++)
            out->kernel_of[k->fused[f]] = q;
    }
    /* the nodes a kernel absorbed beyond the ones it lists */
    for (size_t i = 0; i < p.nn; i++) {
        size_t o = i;
        while (p.owner[o] != (int)o)
            o = (size_t)p.owner[o];
        out->kernel_of[i] = out->kernel_of[o];
    }
    return OC_OK;
}

oc_status oc_plan_build(const oc_analysis *a, const oc_plan_opts *opts, oc_plan *out,
                        oc_arena *arena, oc_error *err)
{
    oc_analysis *own_s = NULL;
    oc_status st = plan_build(a, opts, out, arena, &own_s, err);
    oc_analysis_free(own_s);
    return st;
}
