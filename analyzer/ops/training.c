/*
 * training.c - ai.onnx.preview.training: Adagrad, Adam, Momentum, Gradient.
 *
 * The optimizers take R, T and then groups of n tensors (X..., G..., and
 * their accumulators); each output group mirrors an input group.  Gradient
 * outputs mirror the inputs named by its "xs" attribute (the first inputs).
 *
 * Costs (FLOPs per element of the optimized tensors X), from the update
 * formulas of the ONNX specification:
 *   Adagrad   9  (regularize 2, H += g^2 2, sqrt + eps 2, X -= r*g/h 3)
 *   Adam      15 (regularize 2, V 3, H 4, sqrt + eps 2, X 3, post-scale 1)
 *   Momentum  7 standard (regularize 2, V 3, X 2), 9 nesterov (X 4)
 *   Gradient  not counted (the gradient graph is not in the model)
 */
#include <string.h>

#include "analyzer/op.h"

typedef struct optimizer {
    const char *name;
    size_t in_groups;    /* groups of n inputs after R and T */
    size_t out_groups;   /* groups of n outputs */
    size_t from[3];      /* input group each output group mirrors */
} optimizer;

static const optimizer optimizers[] = {
    {"Adagrad", 3, 2, {0, 2, 0}},
    {"Adam", 4, 3, {0, 2, 3}},
    {"Momentum", 3, 2, {0, 2, 0}},
};

static const optimizer *find(const oc_op_ctx *c)
{
    for (size_t i = 0; i < sizeof optimizers / sizeof optimizers[0]; i++)
        if (strcmp(oc_ctx_node(c)->op, optimizers[i].name) == 0)
            return &optimizers[i];
    return NULL;
}

/* n, the number of optimized tensors; 0 on a malformed node. */
static size_t n_tensors(const oc_op_ctx *c, const optimizer *o)
{
    size_t nin = oc_ctx_n_in(c);
    if (nin < 2 || (nin - 2) % o->in_groups != 0)
        return 0;
    size_t n = (nin - 2) / o->in_groups;
    return oc_ctx_n_out(c) == n * o->out_groups ? n : 0;
}

oc_status oc_optimizer_infer(oc_op_ctx *c)
{
    const optimizer *o = find(c);
    if (!o)
        return oc_fail(c, "not an optimizer");
    size_t n = n_tensors(c, o);
    if (n == 0)
        return oc_fail(c, "%s: %zu inputs and %zu outputs do not form "
                          "groups of %zu and %zu", o->name, oc_ctx_n_in(c),
                       oc_ctx_n_out(c), o->in_groups, o->out_groups);
    for (size_t j = 0; j < n; j++) {
        const oc_tinfo *x = oc_ctx_in(c, 2 + j);
        for (size_t g = 1; g < o->in_groups; g++) {
            const oc_tinfo *y = oc_ctx_in(c, 2 + g * n + j);
            if (!x || !y || x->rank < 0 || y->rank < 0)
                continue;
            if (x->rank != y->rank)
                return oc_fail(c, "%s: tensor %zu has rank %d, its group %zu "
                                  "input rank %d", o->name, j, x->rank, g,
                               y->rank);
            for (int k = 0; k < x->rank; k++)
                if (oc_dim_eq(x->dims[k], y->dims[k]) == 0)
                    return oc_fail(c, "%s: tensor %zu and its group %zu "
                                      "input differ in dim %d", o->name, j,
                                   g, k);
        }
        for (size_t g = 0; g < o->out_groups; g++) {
            oc_status s = oc_out_like(c, g * n + j,
                                      oc_ctx_in(c, 2 + o->from[g] * n + j));
            if (s != OC_OK)
                return s;
        }
    }
    return OC_OK;
}

oc_status oc_optimizer_cost(oc_op_ctx *c, oc_cost *out)
{
    const optimizer *o = find(c);
    size_t n = o ? n_tensors(c, o) : 0;
    uint64_t per = 0, total = 0, e, f;
    if (!o)
        return OC_OK;
    if (strcmp(o->name, "Adagrad") == 0)
        per = 9;
    else if (strcmp(o->name, "Adam") == 0)
        per = 15;
    else
        per = strcmp(oc_attr_str(c, "mode", "standard"), "nesterov") == 0
                  ? 9 : 7;
    for (size_t j = 0; j < n; j++) {
        oc_status s;
        if (!oc_numel(oc_ctx_in(c, 2 + j), &e))
            return OC_OK;
        if ((s = oc_cmul(c, e, per, &f)) != OC_OK ||
            (s = oc_cadd(c, total, f, &total)) != OC_OK)
            return s;
    }
    out->flops = total;
    return OC_OK;
}

oc_status oc_gradient_infer(oc_op_ctx *c)
{
    size_t nx;
    const oc_attr *xs = oc_ctx_attr(c, "xs");
    nx = xs ? xs->n : 0;
    if (nx != oc_ctx_n_out(c))
        return oc_fail(c, "Gradient: %zu xs for %zu outputs", nx,
                       oc_ctx_n_out(c));
    for (size_t i = 0; i < oc_ctx_n_out(c); i++) {
        oc_status s = oc_out_like(c, i, oc_ctx_in(c, i));
        if (s != OC_OK)
            return s;
    }
    return OC_OK;
}
