/* memory.c - training-step memory from the analysed graph (see memory.h). */
#include "predictor/memory.h"

#include <string.h>

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    uint64_t r;
    return oc_add_u64(a, b, &r) ? r : UINT64_MAX;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    uint64_t r;
    return oc_mul_u64(a, b, &r) ? r : UINT64_MAX;
}

int oc_optimizer_state_copies(oc_optimizer o)
{
    return o == OC_OPT_SGD ? 1 : o == OC_OPT_ADAM ? 2 : 0;
}

/* Node i of the main graph is a view of its input in PyTorch (no copy
 * kept): reshape, flatten, squeeze and unsqueeze, and permute, narrow,
 * split and expand, which an export materialises as Transpose, Slice,
 * Split and Expand. */
static bool is_view(const oc_analysis *a, const oc_node *n, size_t i)
{
    if (n->domain[0])
        return false;
    switch (oc_analysis_node_cost(a, i)->op) {
    case OC_OPID_Reshape:
    case OC_OPID_Flatten:
    case OC_OPID_Squeeze:
    case OC_OPID_Unsqueeze:
    case OC_OPID_Transpose:
    case OC_OPID_Slice:
    case OC_OPID_Split:
    case OC_OPID_Expand:
        return true;
    default:
        return false;
    }
}

static uint64_t value_bytes(const oc_analysis *a, int v)
{
    const oc_tinfo *t = oc_analysis_value(a, v);
    uint64_t n;
    if (!t || !oc_tinfo_numel(t, &n))
        return 0;
    return mul_sat(n, oc_dtype_size(t->dtype));
}

/* A step's blocks by what glibc does with them (memory.h's fresh): those of
 * OC_FRESH_MMAP_MAX or more, mapped anew each time; the heap's, and the
 * largest of those (glibc's mmap threshold settles there). */
typedef struct churn {
    uint64_t large, small, largest_small;
} churn;

static void block(churn *c, uint64_t bytes, uint64_t times)
{
    if (bytes >= OC_FRESH_MMAP_MAX) {
        c->large = add_sat(c->large, mul_sat(bytes, times));
        return;
    }
    c->small = add_sat(c->small, bytes);
    if (bytes > c->largest_small)
        c->largest_small = bytes;
}

/* an activation saved for backward: a large one's gradient is mapped anew
 * in backward too */
static void saved(oc_train_memory *out, churn *c, uint64_t bytes)
{
    out->activations = add_sat(out->activations, bytes);
    block(c, bytes, 2);
}

void oc_training_memory(const oc_analysis *a, const oc_plan *plan, oc_optimizer o,
                        oc_train_memory *out)
{
    const oc_graph *g = oc_model_graph(oc_analysis_model(a));
    memset(out, 0, sizeof *out);
    out->weights = oc_analysis_totals(a)->weight_bytes;
    uint64_t float_weights = 0;
    /* the float weights the model stores (initializers, Constant nodes) */
    for (size_t v = 0; v < g->n_values; v++) {
        const oc_tinfo *t = oc_analysis_value(a, (int)v);
        uint64_t n;
        if (oc_analysis_weight(a, (int)v) == OC_WEIGHT_STORED && oc_dtype_is_float(t->dtype) &&
            oc_tinfo_numel(t, &n))
            float_weights = add_sat(float_weights, mul_sat(n, oc_dtype_size(t->dtype)));
    }
    if (o != OC_OPT_NONE) {
        out->gradients = float_weights;
        out->optimizer_state = mul_sat(float_weights, (uint64_t)oc_optimizer_state_copies(o));
    }
    churn c = {0};
    for (size_t k = 0; k < g->n_inputs; k++)
        saved(out, &c, value_bytes(a, g->inputs[k]));
    for (size_t i = 0; i < g->n_nodes; i++) {
        const oc_node *n = &g->nodes[i];
        if (plan->kernels[plan->kernel_of[i]].kind != OC_KERNEL_RUN || is_view(a, n, i))
            continue;
        for (size_t q = 0; q < n->n_outputs; q++)
            if (n->outputs[q] >= 0)
                saved(out, &c, value_bytes(a, n->outputs[q]));
    }
    out->total = add_sat(add_sat(out->weights, out->gradients),
                         add_sat(out->optimizer_state, out->activations));
    if (o == OC_OPT_NONE)
        return;
    /* each float weight's gradient, allocated in backward, freed by
     * zero_grad(set_to_none); Adam's update makes two temporaries of a
     * weight's size (its second moment's square root, then that over the
     * bias correction) */
    for (size_t v = 0; v < g->n_values; v++) {
        const oc_tinfo *t = oc_analysis_value(a, (int)v);
        uint64_t n;
        if (oc_analysis_weight(a, (int)v) != OC_WEIGHT_STORED || !oc_dtype_is_float(t->dtype) ||
            !oc_tinfo_numel(t, &n))
            continue;
        uint64_t bytes = mul_sat(n, oc_dtype_size(t->dtype));
        block(&c, bytes, 1);
        if (o == OC_OPT_ADAM && bytes >= OC_FRESH_MMAP_MAX)
            c.large = add_sat(c.large, mul_sat(bytes, 2));
    }
    out->fresh_large = c.large;
    out->heap_churn = c.small > 2 * c.largest_small ? c.small - 2 * c.largest_small : 0;
    double fresh = (double)c.large + OC_FRESH_HEAP_SHARE * (double)out->heap_churn;
    out->fresh = fresh < 1.8e19 ? (uint64_t)fresh : UINT64_MAX;
}
