/*
 * plan.h - what a runtime actually executes for an analysed graph: the
 * kernels its graph optimiser leaves, in run order.
 *
 * For ONNX Runtime's CPU provider at optimisation level "all" (the ort-*
 * targets) the plan follows ORT's transformers (onnxruntime/core/optimizer,
 * docs/plan.md lists each rule and where it differs):
 *   - constant folding as at session creation: values known from
 *     initializers and Constants, and Shape of a tensor whose dims are all
 *     concrete in the file (a symbolic batch stays symbolic even when the
 *     prediction binds it);
 *   - eliminations: Identity, Dropout, Cast to the type it already has,
 *     Expand to the shape it already has, no-op Slice, Add/Sub of 0 and
 *     Mul/Div by 1;
 *   - common-subexpression elimination (equal small constants count as
 *     one), and Reshape shapes rebuilt from the Reshape's own input shape;
 *   - fusions: Conv+BatchNormalization/Add/Mul of constants, Conv+activation
 *     (FusedConv), Conv+Add(+activation), MatMul+Add (Gemm), Gemm+activation
 *     (FusedGemm), MatMul with a transposed input or a scale (FusedMatMul),
 *     LayerNormalization, Add+LayerNormalization (SkipLayerNormalization),
 *     Gelu, BiasGelu, FastGelu, QuickGelu (x * Sigmoid(x));
 *   - quantized graphs: QDQ groups as QLinear kernels, dynamic
 *     quantization's MatMul as DynamicQuantizeMatMul, channels-last
 *     QLinearConv; float16 nodes without a float16 kernel in float32 with
 *     Casts at the edges;
 *   - the NCHWc layout transform of x86 CPUs with the ISA's block (8 with
 *     AVX2, 16 with AVX-512): Conv, pools, BatchNormalization, and the
 *     Add/Concat/activations between them run blocked, with ReorderInput and
 *     ReorderOutput kernels where the layout changes.
 * Each kernel keeps its main node and the nodes it absorbed, so that
 * per-node output can say where each node's time went; kernels the runtime
 * inserts (ReorderInput, ReorderOutput) have no node of their own.
 */
#ifndef OC_PREDICTOR_PLAN_H
#define OC_PREDICTOR_PLAN_H

#include <stdint.h>

#include "analyzer/analyzer.h"
#include "analyzer/optable.h"
#include "predictor/targets.h"

enum { OC_PLAN_MAX_NODES = 16 };

/* oc_kernel.main of a kernel the runtime inserts (no node of the graph) */
#define OC_PLAN_INSERTED SIZE_MAX

typedef enum oc_kernel_kind {
    OC_KERNEL_RUN = 0,   /* runs at every inference */
    OC_KERNEL_FOLDED,    /* computed once from constants at session start */
    OC_KERNEL_REMOVED    /* eliminated, deduplicated, or its work done by
                            another kernel */
} oc_kernel_kind;

/* What a kernel is: an ONNX operator's kernel has the operator's id
 * (OC_OPID_*, analyzer/optable.h); the kernels only ONNX Runtime has
 * (predictor/kernels.def) follow them as OC_KID_*. */
enum {
    OC_KID_BEFORE_ = OC_OPID_COUNT - 1,
#define OC_KERNEL(name) OC_KID_##name,
#include "predictor/kernels.def"
#undef OC_KERNEL
    OC_KID_COUNT
};

/* The profiler's name of kernel id kid ("FusedConv", "Conv"); NULL for
 * OC_OPID_UNKNOWN or an id out of range. */
const char *oc_kernel_id_name(int kid);

typedef struct oc_kernel {
    oc_kernel_kind kind;
    int kid;              /* OC_OPID_* or OC_KID_*; OC_OPID_UNKNOWN when the
                             op is one the table does not list (op names it) */
    size_t main;          /* main node (index in the graph), or
                             OC_PLAN_INSERTED */
    const char *op;       /* the op as the runtime's profiler names the
                             kernel ("FusedConv", "ReorderInput"); never NULL */
    const char *as_op;    /* the op the timing model costs it as
                             ("LayerNormalization", "Gelu"), or NULL: the
                             main node's op with the fused ones */
    const char *why;      /* FOLDED/REMOVED: the reason ("constant",
                             "identity", "duplicate of NODE", ...); NULL
                             for kernels that run */
    int value;            /* inserted kernels: the tensor they convert,
                             whose shape sizes them; kernels moved to the
                             NCHWc layout: the output they are named after
                             ("<output>_nchwc"); -1 otherwise */
    bool inlined;         /* an If whose condition is constant when the
                             session is created: the runtime puts the
                             branch's nodes in its place, so it is no
                             kernel of its own (the estimate runs the
                             branch's kernels, oc_analysis_sub) */
    bool in_fp32;         /* a float16 node ORT runs in float32 (no float16
                             kernel: InsertCastTransformer casts around it) */
    oc_dtype on_ints;     /* an op whose DequantizeLinear and QuantizeLinear
                             ORT dropped (DropQDQNodesRules): the 8-bit type
                             it runs on; OC_DT_UNDEFINED otherwise */
    int axis;             /* a Split made of the Gathers and Slices that
                             read one tensor (GatherSliceToSplitFusion):
                             the axis it splits that tensor (its main
                             node's input) on; -1 otherwise */
    size_t n_fused;       /* absorbed nodes, in order */
    size_t fused[OC_PLAN_MAX_NODES];
} oc_kernel;

typedef struct oc_plan {
    size_t n_kernels;
    oc_kernel *kernels;    /* in run order */
    size_t *kernel_of;     /* per graph node: the kernel that runs it */
    size_t n_run;          /* kernels of kind OC_KERNEL_RUN, inlined Ifs
                              left out */
    bool *constant;        /* per value: known when the session is created
                              (initializers, what folds) */
} oc_plan;

typedef struct oc_plan_opts {
    const char *target;   /* "ort-cpu", "torch-cpu", ... */
    int nchwc_block;      /* ort-*: NCHWc block of the CPU (8, 16), or 0
                             for none (no AVX2, or not x86) */
    /* The model as the runtime sees it when it creates the session, before
     * any dim is bound (symbolic dims stay symbolic): what folds.  NULL:
     * the analysis itself. */
    const oc_analysis *session;
    /* Planning a subgraph (oc_analysis_sub): per value of it, whether it
     * is an outer-scope value the enclosing graph's plan folds (ORT folds
     * the nodes before an If or Loop before it optimises its subgraphs,
     * constant_folding.cc), or NULL. */
    const bool *outer_constant;
    /* ... and whether that subgraph runs as one (a kept If's branch, a
     * Loop's or Scan's body) rather than inlined into the enclosing graph:
     * ORT's NchwcTransformer then blocks no Conv whose weights or bias are
     * the enclosing graph's. */
    bool kept_subgraph;
} oc_plan_opts;

/* Plan the main graph of `a`.  "ort-*": the rules above; "torch-*" (eager
 * PyTorch, the graph as the model's Python code ran it): constants folded,
 * and Shape with what is computed from shapes and constants alone (Python
 * ints there); Identity and inference Dropout cost nothing; an exported
 * LayerNorm's or GELU's arithmetic is the one kernel nn.LayerNorm or
 * nn.GELU runs; nothing else fused; any other target: one kernel per
 * node.  Memory from `arena`.  Errors: OC_ERR_NOMEM. */
oc_status oc_plan_build(const oc_analysis *a, const oc_plan_opts *opts, oc_plan *out,
                        oc_arena *arena, oc_error *err);

/* The op name of kernel k (k->op), for convenience with a NULL check. */
const char *oc_kernel_op(const oc_kernel *k);

#endif
