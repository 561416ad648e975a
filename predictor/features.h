/*
 * features.h - a node description (desc.h) and a target (hw.h) as the
 * fixed-length float vector the timing model reads, with a named schema;
 * and the measured samples of a dataset as such vectors.
 *
 *     float x[OC_N_FEATURES];
 *     if (oc_features_from_desc(&desc, &target, x, &err) != OC_OK) ...
 *     for (int i = 0; i < OC_N_FEATURES; i++)
 *         printf("%s = %g\n", oc_feature_name(i), x[i]);
 *
 * The vector is raw (not standardised): the timing-model file carries the
 * training set's means and standard deviations.  The schema is the
 * ordered list of names below; a model file records it and is refused by
 * a build whose list differs, so adding, removing or reordering a feature
 * (or an operator family, which is a feature) means retraining.
 *
 * log_inner_run is the length, in elements, of the contiguous stretch the
 * op's innermost loop walks: for Transpose the trailing axes left in
 * place (1 when the last axis moves), for Concat and Split the block per
 * part along the axis, for Slice and Pad the trailing block from the last
 * axis they change, for Gather the row after the axis, for a reduction
 * the trailing axes that are all folded or all kept, for a broadcast
 * elementwise op the output's innermost span over which every operand
 * runs along or stays constant (an outer product [.., D, 1] op [K]: K; a
 * bias [D]: D); 0 for the other families.  log_axis_inner is, for Softmax and
 * LogSoftmax, the elements after the axis (1 for the last axis, and
 * before opset 13, which coerces to 2-D): ORT moves any other axis last
 * and back inside the kernel.  The kernel traits (k_*) say what an
 * elementwise or activation op computes per element, and a reduction's
 * compare (ReduceMax, ArgMax) or exp (ReduceLogSumExp).
 *
 * Counts enter as log1p(x) (natural log): times scale as power laws of
 * sizes, and the MLP fits log time.  Attributes of the wrong family are 0
 * (a MatMul has no stride), which the one-hot family columns disambiguate.
 */
#ifndef OC_PREDICTOR_FEATURES_H
#define OC_PREDICTOR_FEATURES_H

#include "analyzer/optable.h"
#include "predictor/desc.h"
#include "predictor/hw.h"

/* The family of an operator (OC_OPF_OTHER for anything not listed, and
 * for every non-ONNX domain). */
oc_op_family oc_op_family_of(const char *op, const char *domain);

/* The feature schema.  XX(id, name): OC_F_<id> is the column index. */
#define OC_FEATURE_LIST(XX)                                                   \
    /* cost counts (analyzer totals over the pattern) */                      \
    XX(LOG_MACS, "log_macs")                                                  \
    XX(LOG_FLOPS, "log_flops")                                                \
    XX(LOG_BYTES_READ, "log_bytes_read")                                      \
    XX(LOG_BYTES_WRITTEN, "log_bytes_written")                                \
    XX(LOG_PARAMS, "log_params")                                              \
    XX(LOG_IN_ELEMS, "log_in_elems")       /* all present inputs */           \
    XX(LOG_OUT_ELEMS, "log_out_elems")     /* all outputs */                  \
    XX(LOG_INTENSITY, "log_intensity")     /* log1p(flops / bytes moved) */   \
    XX(LOG_ROOFLINE_US, "log_roofline_us") /* log1p(max(F/peak, B/bw) us) */  \
    /* operator family, one-hot */                                            \
    XX(FAM_CONV, "fam_conv")                                                  \
    XX(FAM_CONV_TRANSPOSE, "fam_conv_transpose")                              \
    XX(FAM_GEMM, "fam_gemm")                                                  \
    XX(FAM_MATMUL, "fam_matmul")                                              \
    XX(FAM_POOL, "fam_pool")                                                  \
    XX(FAM_GLOBAL_POOL, "fam_global_pool")                                    \
    XX(FAM_NORM, "fam_norm")                                                  \
    XX(FAM_SOFTMAX, "fam_softmax")                                            \
    XX(FAM_ELEMENTWISE, "fam_elementwise")                                    \
    XX(FAM_ACTIVATION, "fam_activation")                                      \
    XX(FAM_REDUCE, "fam_reduce")                                              \
    XX(FAM_DATA_MOVEMENT, "fam_data_movement")                                \
    XX(FAM_OTHER, "fam_other")                                                \
    /* layer attributes */                                                    \
    XX(KERNEL_H, "log2_kernel_h")          /* first spatial kernel dim */     \
    XX(KERNEL_W, "log2_kernel_w")          /* second (1 for 1-D) */           \
    XX(LOG_KERNEL_ELEMS, "log_kernel_elems")                                  \
    XX(STRIDE_H, "log2_stride_h")                                             \
    XX(STRIDE_W, "log2_stride_w")                                             \
    XX(DILATION_H, "log2_dilation_h")      /* dilations capped at 8 */        \
    XX(DILATION_W, "log2_dilation_w")                                         \
    XX(LOG_GROUP, "log_group")                                                \
    XX(DEPTHWISE, "depthwise")             /* group > 1 and group == c_in */  \
    XX(LOG_C_IN, "log_c_in")               /* channels; K for Gemm/MatMul */  \
    XX(LOG_C_OUT, "log_c_out")             /* channels; N for Gemm/MatMul */  \
    XX(LOG_SPATIAL_IN, "log_spatial_in")   /* H*W...; M for Gemm/MatMul */    \
    XX(LOG_SPATIAL_OUT, "log_spatial_out")                                    \
    XX(LOG_BATCH, "log_batch")             /* leading dim of the 1st input */ \
    XX(LOG_REDUCE_LEN, "log_reduce_len")   /* elements folded into one */     \
    XX(RANK_OUT, "rank_out")                                                  \
    XX(N_ACT_INPUTS, "n_act_inputs")       /* present non-weight inputs */    \
    XX(BROADCAST, "broadcast")             /* elementwise: an input smaller */ \
    XX(TRANS_A, "trans_a")                                                    \
    XX(TRANS_B, "trans_b")                                                    \
    XX(DTYPE_BYTES, "dtype_bytes")         /* element size computed in (1st input) */ \
    XX(PAD_REFLECT, "pad_reflect")         /* Pad mode reflect (or wrap) */    \
    XX(PAD_EDGE, "pad_edge")               /* Pad mode edge */                \
    XX(RESIZE_INTERP, "resize_interp")     /* Resize: 0 nearest, 1 linear, 2 cubic */ \
    /* memory layout */                                                       \
    XX(LOG_INNER_RUN, "log_inner_run")     /* contiguous run (see below) */   \
    XX(INNER_REDUCED, "inner_reduced")     /* reduce: the last axis folds */  \
    XX(LOG_AXIS_INNER, "log_axis_inner")   /* Softmax: elements after the axis */ \
    XX(GENERIC_MOVE, "generic_move")       /* Transpose: more than one axis moves */ \
    /* elementwise and activation kernel traits (oc_ew_traits) */           \
    XX(K_BINARY, "k_binary")               /* combines two or more operands */ \
    XX(K_SELECT, "k_select")               /* compares or selects per element */ \
    XX(K_DIVIDE, "k_divide")               /* a division or square root */    \
    XX(K_EXP, "k_exp")                     /* an exp or log */                \
    XX(K_ERF, "k_erf")                     /* erf or a trigonometric function */ \
    XX(K_GATED, "k_gated")                 /* x times a function of x */      \
    /* fusion */                                                              \
    XX(FUSED_RELU, "fused_relu")           /* Relu among the fused ops */     \
    XX(FUSED_ADD_RELU, "fused_add_relu")   /* Add then Relu (residual) */     \
    XX(N_FUSED, "n_fused")                                                    \
    /* target */                                                              \
    XX(THREADS, "threads")                                                    \
    XX(LOG_GFLOPS, "log_gflops")           /* peak sgemm at these threads */  \
    XX(LOG_GBPS, "log_gbps")               /* copy bandwidth */                \
    XX(OPT_ADAM, "opt_adam")               /* training step updates with Adam */

typedef enum oc_feature {
#define XX(id, name) OC_F_##id,
    OC_FEATURE_LIST(XX)
#undef XX
    OC_N_FEATURES
} oc_feature;

/* Kernel traits (OC_EW_* bits, analyzer/optable.h) of an elementwise or
 * activation node: its row's, and for Gelu erf and gated, or exp and
 * gated with approximate=tanh. */
unsigned oc_ew_traits(const oc_node_desc *d);

/* Name of column i ("log_macs"); NULL when out of range. */
const char *oc_feature_name(int i);

/* Fill x[OC_N_FEATURES] for node d on target t.
 * Errors: OC_ERR_INPUT when an input or output the node has is of
 * unknown shape (bind symbolic dims first) or when the node has no
 * output. */
oc_status oc_features_from_desc(const oc_node_desc *d, const oc_target *t, float *x,
                                oc_error *err);

/* Roofline time in microseconds: max(flops / peak, bytes / bandwidth). */
double oc_roofline_time_us(const oc_target *t, double flops, double bytes);

/* ---- dataset splits ---- */

typedef enum oc_split { OC_SPLIT_TRAIN = 0, OC_SPLIT_VAL, OC_SPLIT_TEST } oc_split;

/* Which split a sample belongs to, from a hash of its id (FNV-1a then
 * splitmix64) with the thread and optimizer segments ("/t2", "/adam")
 * removed, so that the same configuration measured at 1 and 2 threads or
 * with another optimizer falls in the same split: a
 * uniform u in [0, 1) is TEST below test_frac, VAL below test_frac +
 * val_frac, TRAIN above.  Independent of any seed, so eval finds the test
 * split train held out. */
oc_split oc_split_of(const char *id, double val_frac, double test_frac);
/* The same with u shifted down by `shift` (mod 1): the K folds of a
 * cross-validation are shifts k/K with test_frac 1/K, each sample in
 * exactly one fold's test split; shift 0 is oc_split_of. */
oc_split oc_split_of_shifted(const char *id, double val_frac, double test_frac,
                             double shift);

/* ---- measured samples ---- */

typedef struct oc_train_sample {
    const char *id;
    const char *machine; /* target.machine (fingerprint); "" when unrecorded */
    const char *family;  /* the dataset's "family" ("Conv"), else op family */
    const char *pattern; /* "Conv+Relu" */
    int threads;
    oc_optimizer optimizer; /* target.optimizer; SGD for torch-cpu lines
                               without one, NONE for inference targets */
    double time_us;      /* measured kernel time */
    double flops, bytes; /* for the baselines: flops, bytes read + written */
} oc_train_sample;

typedef struct oc_train_set {
    size_t n, cap;
    oc_train_sample *s;
    float *X;                 /* n x OC_N_FEATURES, raw */
    char target[64];          /* target.name of the first sample */
    char cpu[128];            /* target.cpu of the first sample */
    char runtime[96];         /* "onnxruntime-node 1.x.y" of the first */
    char machine[64];         /* target.machine (fingerprint) of the first */
    bool mixed_machine;       /* some sample has another fingerprint */
    bool mixed_target;        /* some sample has another target name */
    bool mixed_cpu;           /* ... or another cpu */
    size_t n_lines;           /* lines read */
    size_t n_skipped;         /* lines without a usable measurement */
    size_t n_duplicates;      /* ids seen before (the first is kept) */
    size_t n_unfeaturised;    /* nodes whose features could not be built */
    size_t n_cut_off;         /* files ending in a cut-off chunk (ignored) */
    /* private */
    void *arena_;
    void *ids_;
    size_t ids_cap_;
} oc_train_set;

void oc_train_set_init(oc_train_set *s);
void oc_train_set_free(oc_train_set *s);

/* Append the samples of a dataset file (gzip JSON Lines, docs/dataset.md,
 * read with dataset.h: a cut-off last chunk is ignored and counted) to s, computing features for each sample's thread
 * count from hw.  A line that is not valid JSON or lacks "id"/"node" is an
 * error (OC_ERR_INPUT, "FILE:LINE: reason"); a line without a positive
 * time_us is skipped and counted.  Errors: OC_ERR_IO, OC_ERR_INPUT,
 * OC_ERR_NOMEM. */
oc_status oc_train_set_load(oc_train_set *s, const char *path, const oc_hw *hw,
                             oc_error *err);

/* The same over the data of several machines: each line's features are
 * computed from the profile of the machine that measured it (hws[i].machine
 * equal to the line's target.machine; a profile without a fingerprint
 * takes the lines without one); a line of a machine none of hws describes
 * takes `fallback`, or is an error (OC_ERR_INPUT) when that is NULL.  A
 * sample id counts once per machine.  oc_train_set_load(s, path, hw, err)
 * is oc_train_set_load_machines(s, path, NULL, 0, hw, err). */
oc_status oc_train_set_load_machines(oc_train_set *s, const char *path, const oc_hw *hws,
                                     size_t n_hws, const oc_hw *fallback, oc_error *err);

#endif
