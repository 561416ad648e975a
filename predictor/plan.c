/*
 * plan.c - fusion rules of the ort-cpu target (see plan.h).
 *
 * Each rule only fires when ORT's would: the intermediate value has a
 * single consumer and is not a graph output, and the other operands are
 * what the fusion needs (constants for folded parameters).
 */
#include "predictor/plan.h"

#include <string.h>

typedef struct pctx {
    const oc_analysis *a;
    const oc_graph *g;
    int *n_consumers;   /* per value */
    int *consumer;      /* per value: the one consumer when n == 1 */
    bool *constant;     /* per value: known before the run */
    bool *taken;        /* per node: already in a kernel */
    int *cons_start;    /* CSR of consumers per value */
    int *cons;
} pctx;

static bool is_op(const oc_node *n, const char *op)
{
    return n->domain[0] == '\0' && strcmp(n->op, op) == 0;
}

/* The node that alone consumes output 0 of node i, or -1. */
static int sole_next(const pctx *p, size_t i)
{
    const oc_node *n = &p->g->nodes[i];
    if (n->n_outputs < 1 || n->outputs[0] < 0)
        return -1;
    int v = n->outputs[0];
    if (p->g->values[v].is_output || p->n_consumers[v] != 1)
        return -1;
    for (size_t k = 1; k < n->n_outputs; k++)
        if (n->outputs[k] >= 0 && p->n_consumers[n->outputs[k]] > 0)
            return -1;
    int c = p->consumer[v];
    return c >= 0 && !p->taken[c] ? c : -1;
}

static bool all_inputs_constant(const pctx *p, const oc_node *n)
{
    for (size_t k = 0; k < n->n_inputs; k++)
        if (n->inputs[k] >= 0 && !p->constant[n->inputs[k]])
            return false;
    return true;
}

/* Does node j read output 0 of node i through input `slot` (or any)? */
static int input_slot(const pctx *p, size_t i, size_t j)
{
    const oc_node *a = &p->g->nodes[i], *b = &p->g->nodes[j];
    for (size_t k = 0; k < b->n_inputs; k++)
        if (b->inputs[k] == a->outputs[0])
            return (int)k;
    return -1;
}

static bool is_conv_activation(const oc_node *n)
{
    static const char *acts[] = {"Relu", "Clip", "LeakyRelu", "Sigmoid", "Tanh",
                                 "HardSigmoid"};
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
        if (is_op(n, acts[i]))
            return true;
    return false;
}

static void absorb(pctx *p, oc_kernel *k, int j)
{
    if (k->n_fused < OC_PLAN_MAX_NODES) {
        k->fused[k->n_fused++] = (size_t)j;
        p->taken[j] = true;
    }
}

/* Conv [+ BatchNormalization] [+ Add] [+ activation] */
static void fuse_conv(pctx *p, oc_kernel *k)
{
    int j = sole_next(p, k->main);
    if (j >= 0 && is_op(&p->g->nodes[j], "BatchNormalization") &&
        input_slot(p, k->main, (size_t)j) == 0) {
        const oc_node *bn = &p->g->nodes[j];
        bool params_const = true;
        for (size_t q = 1; q < bn->n_inputs; q++)
            params_const &= bn->inputs[q] >= 0 && p->constant[bn->inputs[q]];
        if (params_const) {
            absorb(p, k, j);
            j = sole_next(p, (size_t)j);
        }
    }
    if (j >= 0 && is_op(&p->g->nodes[j], "Add")) {
        const oc_node *add = &p->g->nodes[j];
        /* a residual: the other operand is an activation of the same size */
        int other = add->inputs[0] == p->g->nodes[k->n_fused ? k->fused[k->n_fused - 1] : k->main].outputs[0]
                        ? add->inputs[1] : add->inputs[0];
        uint64_t a = 0, b = 0;
        const oc_tinfo *ot = other >= 0 ? oc_analysis_value(p->a, other) : NULL;
        const oc_tinfo *yt = oc_analysis_value(p->a, add->outputs[0]);
        if (ot && !p->constant[other] && oc_tinfo_numel(ot, &a) &&
            oc_tinfo_numel(yt, &b) && a == b) {
            absorb(p, k, j);
            j = sole_next(p, (size_t)j);
        }
    }
    if (j >= 0 && is_conv_activation(&p->g->nodes[j]))
        absorb(p, k, j);
}

/* Gemm/MatMul + activation; MatMul + constant Add (bias) as a Gemm. */
static void fuse_gemm(pctx *p, oc_kernel *k)
{
    int j = sole_next(p, k->main);
    const oc_node *m = &p->g->nodes[k->main];
    if (j >= 0 && is_op(m, "MatMul") && is_op(&p->g->nodes[j], "Add")) {
        const oc_node *add = &p->g->nodes[j];
        int other = add->inputs[0] == m->outputs[0] ? add->inputs[1] : add->inputs[0];
        const oc_tinfo *x = oc_analysis_value(p->a, m->inputs[0]);
        if (other >= 0 && p->constant[other] && x && x->rank == 2) {
            absorb(p, k, j);
            k->as_op = "Gemm";
            j = sole_next(p, (size_t)j);
        }
    }
    if (j >= 0 && (is_op(&p->g->nodes[j], "Relu") || is_op(&p->g->nodes[j], "Sigmoid") ||
                   is_op(&p->g->nodes[j], "Tanh")) &&
        (is_op(m, "Gemm") || k->as_op))
        absorb(p, k, j);
}

/* Follow a chain of ops from node i, each the sole consumer of the last.
 * Returns the number matched (all of `ops` on success). */
static size_t chain(const pctx *p, size_t i, const char *const *ops, size_t n,
                    int *nodes)
{
    size_t got = 0;
    int cur = (int)i;
    for (size_t q = 0; q < n; q++) {
        int nx = q == 0 ? cur : -1;
        if (q > 0) {
            const oc_node *c = &p->g->nodes[cur];
            int v = c->outputs[0];
            if (v < 0 || p->g->values[v].is_output)
                return got;
            /* the next op may be one of several consumers only for the
             * first step of LayerNorm (Sub reads x and the mean) */
            for (int e = p->cons_start[v]; e < p->cons_start[v + 1] && nx < 0; e++) {
                int t = p->cons[e];
                if (!p->taken[t] && is_op(&p->g->nodes[t], ops[q]))
                    nx = t;
            }
        }
        if (nx < 0 || !is_op(&p->g->nodes[nx], ops[q]))
            return got;
        nodes[got++] = nx;
        cur = nx;
    }
    return got;
}

/* ReduceMean -> Sub -> Pow -> ReduceMean -> Add -> Sqrt -> Div -> Mul -> Add */
static bool fuse_layernorm(pctx *p, oc_kernel *k)
{
    static const char *ops[] = {"ReduceMean", "Sub", "Pow", "ReduceMean", "Add",
                                "Sqrt", "Div", "Mul", "Add"};
    int nodes[9];
    size_t n = chain(p, k->main, ops, 9, nodes);
    if (n < 7)
        return false;
    for (size_t q = 1; q < n; q++)
        absorb(p, k, nodes[q]);
    k->as_op = "LayerNormalization";
    return true;
}

/* Div(sqrt 2) -> Erf -> Add(1) -> Mul(x) -> Mul(0.5): Gelu */
static bool fuse_gelu(pctx *p, oc_kernel *k)
{
    static const char *ops[] = {"Div", "Erf", "Add", "Mul", "Mul"};
    int nodes[5];
    if (chain(p, k->main, ops, 5, nodes) != 5)
        return false;
    for (size_t q = 1; q < 5; q++)
        absorb(p, k, nodes[q]);
    k->as_op = "Gelu";
    return true;
}

/* Sigmoid(x) -> Mul(x, that): Swish, which ORT runs as QuickGelu. */
static bool fuse_swish(pctx *p, oc_kernel *k)
{
    int j = sole_next(p, k->main);
    if (j < 0)
        return false;
    const oc_node *s = &p->g->nodes[k->main], *m = &p->g->nodes[j];
    if (!is_op(m, "Mul") || m->n_inputs != 2 || s->n_inputs < 1 || s->inputs[0] < 0)
        return false;
    int slot = input_slot(p, k->main, (size_t)j);
    if (slot < 0 || m->inputs[1 - slot] != s->inputs[0])
        return false;
    absorb(p, k, j);
    return true;
}

oc_status oc_plan_build(const oc_analysis *a, const char *target, oc_plan *out,
                        oc_arena *arena, oc_error *err)
{
    const oc_graph *g = oc_model_graph(oc_analysis_model(a));
    size_t nv = g->n_values, nn = g->n_nodes;
    pctx p = {a, g, oc_arena_calloc(arena, nv + 1, sizeof(int)),
              oc_arena_calloc(arena, nv + 1, sizeof(int)),
              oc_arena_calloc(arena, nv + 1, sizeof(bool)),
              oc_arena_calloc(arena, nn + 1, sizeof(bool)), NULL, NULL};
    out->kernels = oc_arena_calloc(arena, nn + 1, sizeof *out->kernels);
    out->kernel_of = oc_arena_calloc(arena, nn + 1, sizeof *out->kernel_of);
    if (!p.n_consumers || !p.consumer || !p.constant || !p.taken || !out->kernels ||
        !out->kernel_of)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    bool ort = target && strncmp(target, "ort-", 4) == 0;
    bool eager = target && strncmp(target, "torch-", 6) == 0;
    for (size_t v = 0; v < nv; v++) {
        p.consumer[v] = -1;
        p.constant[v] = g->values[v].is_initializer ||
                        (g->values[v].constant && g->values[v].producer < 0);
    }
    for (size_t i = 0; i < nn; i++) {
        const oc_node *n = &g->nodes[i];
        for (size_t k = 0; k < n->n_inputs; k++)
            if (n->inputs[k] >= 0) {
                p.n_consumers[n->inputs[k]]++;
                p.consumer[n->inputs[k]] = (int)i;
            }
    }
    size_t n_edges = 0;
    for (size_t i = 0; i < nn; i++)
        n_edges += g->nodes[i].n_inputs;
    p.cons_start = oc_arena_calloc(arena, nv + 2, sizeof(int));
    p.cons = oc_arena_calloc(arena, n_edges + 1, sizeof(int));
    int *fill = oc_arena_calloc(arena, nv + 1, sizeof(int));
    if (!p.cons_start || !p.cons || !fill)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    for (size_t v = 0; v < nv; v++)
        p.cons_start[v + 1] = p.cons_start[v] + p.n_consumers[v];
    for (size_t i = 0; i < nn; i++) {
        const oc_node *n = &g->nodes[i];
        for (size_t k = 0; k < n->n_inputs; k++) {
            int v = n->inputs[k];
            if (v >= 0)
                p.cons[p.cons_start[v] + fill[v]++] = (int)i;
        }
    }
    out->n_kernels = 0;
    for (size_t t = 0; t < nn; t++) {
        size_t i = (size_t)g->topo[t];
        if (p.taken[i])
            continue;
        const oc_node *n = &g->nodes[i];
        oc_kernel *k = &out->kernels[out->n_kernels++];
        memset(k, 0, sizeof *k);
        k->main = i;
        p.taken[i] = true;
        if (!ort && !eager)
            continue;
        if (all_inputs_constant(&p, n) && !is_op(n, "RandomNormal") &&
            !is_op(n, "RandomUniform")) {
            k->kind = OC_KERNEL_FOLDED;
            for (size_t q = 0; q < n->n_outputs; q++)
                if (n->outputs[q] >= 0)
                    p.constant[n->outputs[q]] = true;
            continue;
        }
        if (is_op(n, "Identity") || is_op(n, "Dropout") || (eager && is_op(n, "Shape"))) {
            k->kind = OC_KERNEL_REMOVED;
            continue;
        }
        if (eager)
            continue;
        if (is_op(n, "Conv"))
            fuse_conv(&p, k);
        else if (is_op(n, "Gemm") || is_op(n, "MatMul"))
            fuse_gemm(&p, k);
        else if (is_op(n, "ReduceMean"))
            fuse_layernorm(&p, k);
        else if (is_op(n, "Div"))
            fuse_gelu(&p, k);
        else if (is_op(n, "Sigmoid"))
            fuse_swish(&p, k);
    }
    for (size_t q = 0; q < out->n_kernels; q++) {
        const oc_kernel *k = &out->kernels[q];
        out->kernel_of[k->main] = q;
        for (size_t f = 0; f < k->n_fused; f++)
            out->kernel_of[k->fused[f]] = q;
    }
    return OC_OK;
}
