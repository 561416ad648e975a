/*
 * memory.h - what one training step keeps in memory: the weights, their
 * gradients, the optimizer's state and the activations autograd saves for
 * the backward pass.
 *
 *     oc_train_memory m;
 *     oc_training_memory(a, &plan, OC_OPT_ADAM, &m);
 *     m.total ...
 *
 * An estimate from the analysed graph, not a measurement: gradients are one
 * copy of the float weights; SGD with momentum keeps one more (the momentum
 * buffer), Adam two (first and second moments); the saved activations are
 * every tensor a node that runs produces (the graph's inputs included), the
 * outputs of view ops (Reshape, Flatten, Squeeze, Unsqueeze) excepted:
 * those alias their input.  Transient buffers of the backward pass (one
 * layer's gradients at a time) are left out.
 */
#ifndef OC_PREDICTOR_MEMORY_H
#define OC_PREDICTOR_MEMORY_H

#include "predictor/hw.h"
#include "predictor/plan.h"

typedef struct oc_train_memory {
    uint64_t weights;         /* stored weights (initializers, Constant nodes), all types */
    uint64_t gradients;       /* one per float weight */
    uint64_t optimizer_state; /* momentum / moments */
    uint64_t activations;     /* kept for backward */
    uint64_t total;           /* the sum (saturating) */
} oc_train_memory;

/* The optimizer's state in copies of the float weights: NONE 0, SGD
 * (momentum) 1, Adam 2. */
int oc_optimizer_state_copies(oc_optimizer o);

/* Fill *out for the graph of `a` as `plan` runs it (folded and removed
 * kernels keep nothing); optimizer NONE gives the inference figure
 * (weights and activations only, no gradients). */
void oc_training_memory(const oc_analysis *a, const oc_plan *plan, oc_optimizer o,
                        oc_train_memory *out);

#endif
