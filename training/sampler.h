/*
 * sampler.h - random realistic operator configurations, one family at a
 * time, for the ground-truth collector (onnxcost collect).
 *
 *     oc_sample s;
 *     if (oc_sample_draw(OC_FAM_CONV, seed, index, NULL, &s, &err) != OC_OK) ...
 *     oc_sample_save(&s, "/tmp/w/000123.onnx", &err);   // the runnable model
 *     ... s.config, s.inputs (for the driver's manifest), s.main_node ...
 *     oc_sample_free(&s);
 *
 * A sample is a pure function of (family, seed, index): the same triple
 * gives the same configuration and the same model bytes (weights included)
 * on every machine.  Sizes follow real models (docs/dataset.md lists the
 * distributions); a draw over the limits (FLOPs, tensor bytes) is replaced
 * by the next draw of the same stream, so the limits are part of the
 * sample's identity too.
 */
#ifndef OC_TRAINING_SAMPLER_H
#define OC_TRAINING_SAMPLER_H

#include <jansson.h>

#include "onnx/build.h"

/* XX(ENUM, command-line name, label in sample ids and datasets) */
#define OC_FAMILY_MAP(XX)                                                     \
    XX(CONV, "conv", "Conv")                                                  \
    XX(CONVTRANSPOSE, "convtranspose", "ConvTranspose")                       \
    XX(GEMM, "gemm", "Gemm")                                                  \
    XX(MATMUL, "matmul", "MatMul")                                            \
    XX(POOL, "pool", "Pool")                                                  \
    XX(BATCHNORM, "batchnorm", "BatchNormalization")                          \
    XX(LAYERNORM, "layernorm", "LayerNormalization")                          \
    XX(SOFTMAX, "softmax", "Softmax")                                         \
    XX(ELEMENTWISE, "elementwise", "Elementwise")                             \
    XX(ACTIVATION, "activation", "Activation")                                \
    XX(SWISH, "swish", "Swish")            /* x * Sigmoid(x): ORT's QuickGelu */ \
    XX(REDUCE, "reduce", "Reduce")                                            \
    XX(CONCAT, "concat", "Concat")                                            \
    XX(SPLIT, "split", "Split")                                               \
    XX(SLICE, "slice", "Slice")                                               \
    XX(TRANSPOSE, "transpose", "Transpose")                                   \
    XX(RESHAPE, "reshape", "Reshape")                                         \
    XX(RESIZE, "resize", "Resize")                                            \
    XX(PAD, "pad", "Pad")                                                     \
    XX(GATHER, "gather", "Gather")                                            \
    XX(QCONV, "qconv", "QLinearConv")      /* ORT's quantized kernels: */     \
    XX(QMATMUL, "qmatmul", "QMatMul")      /* uint8 activations, int8 */      \
    XX(QELEMENTWISE, "qelementwise", "QElementwise") /* weights */   \
    XX(CONV1D, "conv1d", "Conv1d")         /* [N,C,L]: audio, text, points */ \
    XX(CONV3D, "conv3d", "Conv3d")         /* [N,C,T,H,W]: video */           \
    XX(UNARY, "unary", "Unary")            /* Elu, Softplus, Sin, Round... */ \
    XX(DEPTHTOSPACE, "depthtospace", "DepthToSpace") /* and SpaceToDepth */   \
    XX(INSTANCENORM, "instancenorm", "InstanceNormalization")                \
    XX(GCONV, "gconv", "GroupedConv")      /* groups 2..64, not depthwise */   \
    XX(AXIS_SOFTMAX, "axis_softmax", "AxisSoftmax") /* (Log)Softmax, any axis */ \
    XX(BROADCAST, "broadcast", "Broadcast") /* outer, pairwise, middle axes */ \
    XX(REDUCE_AXES, "reduce_axes", "ReduceAxes") /* any axes, 8 reductions */ \
    XX(LONGCONV, "longconv", "LongConv1d") /* kernels spanning the sequence */ \
    XX(PERMUTE, "permute", "Permute")     /* Transpose, any permutation */    \
    XX(GATHER_AXIS, "gather_axis", "GatherAxis") /* Gather on an inner axis */ \
    XX(GATHER_ELEMENTS, "gather_elements", "GatherElements") /* any axis */   \
    XX(EINSUM, "einsum", "Einsum")         /* contractions of five layouts */ \
    XX(SMALL, "small", "Small")            /* kernels of 1..4096 elements */ \
    XX(UPCONV, "upconv", "ConvTransposeNd") /* 1-D, 2-D, 3-D upsamplers */ \
    XX(QMAXPOOL, "qmaxpool", "QMaxPool")   /* MaxPool on uint8 / int8 */ \
    XX(PRELU, "prelu", "PRelu")            /* per-channel or one slope */     \
    XX(LOGIC, "logic", "Logic")            /* bool logic, int64, Tile */     \
    XX(THINCONV, "thinconv", "ThinConv")   /* 1..4 input channels */       \
    XX(RNN, "rnn", "Recurrent")            /* LSTM, GRU, RNN */            \
    XX(SELECT, "select", "Select")         /* TopK, Scatter, Where, Cast */ \
    XX(FRAMEBANK, "framebank", "FrameBank") /* STFT, inverse STFT as convs */ \
    XX(BANDCONV, "bandconv", "BandConv")   /* 2-D, non-square kernels */

typedef enum oc_family {
#define XX(e, name, label) OC_FAM_##e,
    OC_FAMILY_MAP(XX)
#undef XX
    OC_FAM_COUNT_
} oc_family;

const char *oc_family_name(oc_family f);  /* "conv"; "?" when out of range */
const char *oc_family_label(oc_family f); /* "Conv" */
/* The family named `s` (command-line name, case-insensitive), or -1. */
int oc_family_from_name(const char *s);

enum { OC_SAMPLE_MAX_INPUTS = 8, OC_SAMPLE_MAX_FUSED = 4, OC_SAMPLE_MAX_RANK = 8 };

/* A graph input the runner must feed. */
typedef struct oc_sample_input {
    char name[16];
    oc_dtype dtype; /* OC_DT_FLOAT, OC_DT_INT64 or OC_DT_UINT8 (quantized) */
    int rank;
    int64_t dims[OC_SAMPLE_MAX_RANK];
    int64_t bound;  /* integer inputs: values in [0, bound); else 0 */
} oc_sample_input;

typedef struct oc_sample_limits {
    uint64_t max_flops;        /* analyzer FLOPs over all nodes */
    uint64_t max_tensor_bytes; /* inputs + weights + every node output */
} oc_sample_limits;

/* 2 GFLOP and 200 MB: a sample runs in well under 100 ms on 2 cores. */
#define OC_SAMPLE_LIMITS_DEFAULT ((oc_sample_limits){2000000000ull, 200000000ull})

typedef struct oc_sample {
    oc_family family;
    uint64_t seed, index;
    unsigned redraws;     /* draws over the limits before this one */
    char op[32];          /* the main node's op: "Conv", "MaxPool", ... */
    char pattern[64];     /* "Conv+Add+Relu"; equals op when nothing is fused */
    int64_t opset;        /* of the default domain */
    json_t *config;       /* family-specific attributes (owned) */
    size_t n_inputs;
    oc_sample_input inputs[OC_SAMPLE_MAX_INPUTS];
    size_t main_node;     /* node index in the built model */
    size_t n_fused;       /* nodes after it that the pattern fuses */
    size_t fused_nodes[OC_SAMPLE_MAX_FUSED];
    uint64_t flops, tensor_bytes; /* as checked against the limits */
    uint64_t stream_;     /* generator state at the start of the kept draw */
} oc_sample;

/* Draw sample `index` of family f under `lim` (NULL: the defaults).
 * On success *out owns its config (oc_sample_free).  Errors: OC_ERR_USAGE
 * (family out of range), OC_ERR_INTERNAL (the family's generator made a
 * model the analyzer rejects, or no draw fit the limits), OC_ERR_NOMEM. */
oc_status oc_sample_draw(oc_family f, uint64_t seed, uint64_t index,
                         const oc_sample_limits *lim, oc_sample *out,
                         oc_error *err);

/* Build the sample's model.  with_data false leaves random weights out
 * (oc_builder_elide_random): analysable, not runnable.  *out is the
 * caller's (oc_builder_free). */
oc_status oc_sample_build(const oc_sample *s, bool with_data, oc_builder **out,
                          oc_error *err);
/* Build with data and save to path (atomically). */
oc_status oc_sample_save(const oc_sample *s, const char *path, oc_error *err);

void oc_sample_free(oc_sample *s); /* frees config; NULL is accepted */

#endif
