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
 * outputs of what PyTorch runs as views (Reshape, Flatten, Squeeze,
 * Unsqueeze, Transpose, Slice, Split, Expand) excepted: those alias their
 * input.  Transient buffers of the backward pass (one
 * layer's gradients at a time) are left out.
 *
 * `fresh` is what one step's allocations take afresh from the kernel, each
 * page of it faulted in again step after step.  PyTorch allocates a CPU
 * tensor with glibc's malloc, which maps a block over its mmap threshold
 * anew each time and unmaps it on free; the threshold follows the largest
 * block freed so far, up to OC_FRESH_MMAP_MAX.  Blocks under it come from
 * the heap, whose top glibc hands back once more than twice the threshold
 * lies free there, as it does when a step's activations are released.  So:
 * every block of OC_FRESH_MMAP_MAX or more (a saved activation and its
 * gradient, a weight's gradient, for Adam two temporaries of its size),
 * and OC_FRESH_HEAP_SHARE of the rest beyond twice the threshold.  The
 * share is fitted (see OC_FRESH_HEAP_SHARE).  The blocks are the graph's
 * tensors less the views above (a copy PyTorch makes to make a view
 * contiguous is not counted), and a network's heap may give nothing back.
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
    uint64_t fresh;           /* taken afresh from the kernel each step
                                 (training only; see above): */
    uint64_t fresh_large;     /* the blocks of OC_FRESH_MMAP_MAX or more */
    uint64_t heap_churn;      /* the rest beyond twice the mmap threshold,
                                 of which OC_FRESH_HEAP_SHARE is fresh */
} oc_train_memory;

/* glibc's largest dynamic mmap threshold on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX:
 * 4 * 1024 * 1024 * sizeof(long)); estimate.h's OC_OUTPUT_FRESH_BYTES is
 * the same bound seen from ONNX Runtime's outputs. */
#define OC_FRESH_MMAP_MAX ((uint64_t)32 << 20)
/* The share of a step's heap churn (saved activations and weight gradients
 * under OC_FRESH_MMAP_MAX, less twice the mmap threshold) that faults in
 * again each step: fitted on PyTorch 1.13 training steps (SGD, 1 thread)
 * of 8 CNNs at batch 1, 4 and 16 on cpu-AuthenticAMD-f26-m2, whose
 * measured page faults it puts within 20% in half the cases (26% at 2
 * threads; bench/page_faults.py); glibc's heap gives back more or less of
 * its top from one network to the next (0.05 to 0.9 of the churn
 * measured), and on transformers of ten zoo families often nothing. */
#define OC_FRESH_HEAP_SHARE 0.27

/* The optimizer's state in copies of the float weights: NONE 0, SGD
 * (momentum) 1, Adam 2. */
int oc_optimizer_state_copies(oc_optimizer o);

/* Fill *out for the graph of `a` as `plan` runs it (folded and removed
 * kernels keep nothing); optimizer NONE gives the inference figure
 * (weights and activations only, no gradients). */
void oc_training_memory(const oc_analysis *a, const oc_plan *plan, oc_optimizer o,
                        oc_train_memory *out);

#endif
