/*
 * plan.h - what a runtime actually executes for an analysed graph: nodes
 * grouped into kernels the way the runtime's graph optimiser fuses them.
 *
 * ONNX Runtime's CPU provider at optimisation level "all" (the ort-cpu
 * target) folds constants, drops Identity and inference-mode Dropout,
 * folds a BatchNormalization into the Conv before it, fuses a Conv with a
 * following activation and with a residual Add (+Relu), and rewrites the
 * decomposed LayerNorm and Gelu subgraphs that exporters emit into single
 * kernels, and Swish, x * Sigmoid(x), into one QuickGelu kernel (planned as
 * the Sigmoid with the Mul fused: the pattern the samples measure).  A kernel keeps its main node and the nodes it absorbed, so that
 * per-node output can say where each node's time went.
 */
#ifndef OC_PREDICTOR_PLAN_H
#define OC_PREDICTOR_PLAN_H

#include "analyzer/analyzer.h"

enum { OC_PLAN_MAX_NODES = 16 };

typedef enum oc_kernel_kind {
    OC_KERNEL_RUN = 0,   /* runs at every inference */
    OC_KERNEL_FOLDED,    /* computed once from constants at session start */
    OC_KERNEL_REMOVED    /* eliminated (Identity, Dropout, BN folded) */
} oc_kernel_kind;

typedef struct oc_kernel {
    oc_kernel_kind kind;
    size_t main;                       /* main node (index in the graph) */
    const char *as_op;                 /* op the fused kernel runs as
                                          ("LayerNormalization", "Gelu"),
                                          or NULL: the main node's op */
    size_t n_fused;                    /* absorbed nodes, in order */
    size_t fused[OC_PLAN_MAX_NODES];
} oc_kernel;

typedef struct oc_plan {
    size_t n_kernels;
    oc_kernel *kernels;    /* in topological order of their main nodes */
    size_t *kernel_of;     /* per graph node: the kernel that runs it */
} oc_plan;

/* Group the main graph of `a` for `target`.  "ort-*": the fusions above;
 * "torch-*" (eager PyTorch, the graph as the model's Python code ran it):
 * no fusion, constants folded (the exporter's shape arithmetic is Python
 * ints there), Identity, inference Dropout and Shape cost nothing; any
 * other name: one kernel per node.  Memory from `arena`. */
oc_status oc_plan_build(const oc_analysis *a, const char *target,
                        oc_plan *out, oc_arena *arena, oc_error *err);

#endif
