/*
 * onnxcost.h - the public interface of libonnxcost: read an ONNX model,
 * count what each node costs, and predict its run time on a target.
 *
 * A walk-through:
 *
 *     onnxcost_model *m;
 *     if (onnxcost_model_load("model.onnx", &m) != ONNXCOST_OK) {
 *         fprintf(stderr, "%s\n", onnxcost_last_error());
 *         return 1;
 *     }
 *     onnxcost_bindings *b = onnxcost_bindings_new();
 *     onnxcost_bindings_set_batch(b, 8);              // the inputs' leading dim
 *     onnxcost_bindings_set_dim(b, "sequence", 128);  // any symbolic dim by name
 *
 *     onnxcost_analysis *a;
 *     onnxcost_analyze(m, b, &a);                     // shapes, MACs, bytes, memory
 *
 *     onnxcost_predictor *p;                          // NULL: the built-in ort-cpu
 *     onnxcost_predictor_open(NULL, ONNXCOST_INFERENCE, 0, &p);
 *
 *     onnxcost_prediction *r;
 *     onnxcost_predict(p, a, &r);
 *     onnxcost_summary s;
 *     onnxcost_prediction_summary(r, &s);
 *     printf("%.3f ms\n", s.time_ms);
 *
 *     onnxcost_prediction_free(r);   // before the analysis it reads
 *     onnxcost_analysis_free(a);     // before the model it reads
 *     onnxcost_predictor_free(p);
 *     onnxcost_bindings_free(b);
 *     onnxcost_model_free(m);
 *
 * (each call's status should be checked; the walk-through leaves it out.)
 *
 * NULL.  The *_free functions accept NULL; so do the arguments said to.
 * Other handle arguments must not be NULL: the functions that return a
 * status refuse one (ONNXCOST_ERR_USAGE), the getters do not check.
 *
 * Ownership.  Every handle is made by one function and freed by its
 * *_free.  A handle that reads another must be freed
 * before it: a prediction before its analysis, an analysis before its
 * model.  Strings and structs the getters hand out belong to the handle
 * they come from and stay valid until it is freed.  Handles are not
 * shared between threads while one of them changes it; distinct handles
 * may be used from distinct threads.
 *
 * Errors.  Every call that can fail returns an onnxcost_status (0 is
 * ONNXCOST_OK) and, on failure, leaves its one-line reason in
 * onnxcost_last_error(), which is per thread.  Out parameters are set to
 * NULL on failure.  The library never prints and never exits; warnings
 * (an unbound dim, a target measured on another machine) come back as
 * strings from the handle they concern.
 *
 * Linking.  pkg-config --cflags --libs onnxcost, or in CMake
 * find_package(onnxcost) and target_link_libraries(app onnxcost::onnxcost).
 */
#ifndef ONNXCOST_H
#define ONNXCOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && defined(ONNXCOST_BUILDING)
#define ONNXCOST_API __attribute__((visibility("default")))
#else
#define ONNXCOST_API
#endif

/* The version of this header (the library's: onnxcost_version()). */
#define ONNXCOST_VERSION_MAJOR 0
#define ONNXCOST_VERSION_MINOR 1
#define ONNXCOST_VERSION_PATCH 0
#define ONNXCOST_VERSION_STRING "0.1.0"

/* "0.1.0": the library's version, which may be newer than the header's. */
ONNXCOST_API const char *onnxcost_version(void);

/* ---- status ---- */

#define ONNXCOST_STATUS_MAP(XX)                                               \
    XX(OK, "ok")                                                              \
    XX(ERR_USAGE, "usage error")                                              \
    XX(ERR_INPUT, "bad or unsupported input")                                 \
    XX(ERR_IO, "I/O error")                                                   \
    XX(ERR_NOMEM, "out of memory")                                            \
    XX(ERR_OVERFLOW, "arithmetic overflow")                                   \
    XX(ERR_INTERNAL, "internal error")

typedef enum onnxcost_status {
#define XX(name, str) ONNXCOST_##name,
    ONNXCOST_STATUS_MAP(XX)
#undef XX
} onnxcost_status;

/* The status's name ("I/O error"); never NULL, also for unknown values. */
ONNXCOST_API const char *onnxcost_status_str(onnxcost_status s);
/* The reason the last failing call of this thread gave, one line without
 * a newline ("" when none failed yet).  Owned by the library; valid until
 * the next failing call of this thread.  Never NULL. */
ONNXCOST_API const char *onnxcost_last_error(void);

/* ---- models ---- */

typedef struct onnxcost_model onnxcost_model;

/* Read an ONNX model (protobuf, optionally gzip-compressed; external data
 * files are not read).  path must not be NULL.  On success *out is a new
 * model the caller frees with onnxcost_model_free. */
ONNXCOST_API onnxcost_status onnxcost_model_load(const char *path, onnxcost_model **out);
/* The same from memory: data[0..size) is copied, so the caller may free
 * it on return.  label names the model in messages (NULL: "<buffer>"). */
ONNXCOST_API onnxcost_status onnxcost_model_load_buffer(const void *data, size_t size,
                                                        const char *label,
                                                        onnxcost_model **out);
ONNXCOST_API void onnxcost_model_free(onnxcost_model *m); /* NULL accepted */
/* The path or label it was read from. */
ONNXCOST_API const char *onnxcost_model_source(const onnxcost_model *m);
ONNXCOST_API int64_t onnxcost_model_ir_version(const onnxcost_model *m);
/* The producer's name ("pytorch"; "" when unset). */
ONNXCOST_API const char *onnxcost_model_producer(const onnxcost_model *m);
/* The opset the model imports for `domain` ("" or NULL: the default ONNX
 * domain); 0 when it imports none. */
ONNXCOST_API int64_t onnxcost_model_opset(const onnxcost_model *m, const char *domain);
ONNXCOST_API size_t onnxcost_model_n_nodes(const onnxcost_model *m);
/* The graph inputs (initializers excluded), in the file's order. */
ONNXCOST_API size_t onnxcost_model_n_inputs(const onnxcost_model *m);
ONNXCOST_API const char *onnxcost_model_input_name(const onnxcost_model *m, size_t i);

/* ---- dim bindings ---- */

/* What to bind the model's symbolic dims to: the batch (the leading
 * symbolic dim of every input), dims by name, whole input shapes.  A dim
 * binding or an input shape wins over the batch; two that give one
 * symbol different values are an error of onnxcost_analyze. */
typedef struct onnxcost_bindings onnxcost_bindings;

/* A new, empty set (batch 1); NULL when out of memory. */
ONNXCOST_API onnxcost_bindings *onnxcost_bindings_new(void);
ONNXCOST_API void onnxcost_bindings_free(onnxcost_bindings *b); /* NULL accepted */
/* batch >= 1; ONNXCOST_ERR_USAGE otherwise. */
ONNXCOST_API onnxcost_status onnxcost_bindings_set_batch(onnxcost_bindings *b, int64_t batch);
/* Bind the symbolic dim `name` (copied) to value >= 0 wherever the model
 * declares it; a second call for one name replaces its value.  A name the
 * model does not declare is an error of onnxcost_analyze. */
ONNXCOST_API onnxcost_status onnxcost_bindings_set_dim(onnxcost_bindings *b, const char *name,
                                                       int64_t value);
/* The size (>= 0) of a dim that depends on the data (NonZero's count, a
 * Resize to a computed size), named as onnxcost_analysis_data_dim lists
 * them ("OUTPUT:DIM"); a name the analysis does not list is an error of
 * onnxcost_analyze whose message lists those it has. */
ONNXCOST_API onnxcost_status onnxcost_bindings_set_assume(onnxcost_bindings *b,
                                                          const char *name, int64_t value);
/* Give the input `name` (copied) the shape dims[0..rank) (each >= 0;
 * rank <= 64); a second call for one input replaces it. */
ONNXCOST_API onnxcost_status onnxcost_bindings_set_input(onnxcost_bindings *b,
                                                         const char *name,
                                                         const int64_t *dims, size_t rank);

/* ---- analysis: shapes and costs ---- */

typedef struct onnxcost_analysis onnxcost_analysis;

typedef struct onnxcost_totals {
    uint64_t nodes, macs, flops, params, bytes_read, bytes_written;
    uint64_t peak_activation_bytes, weight_bytes;
    uint64_t unknown_shape_nodes; /* nodes with an output shape unknown */
    uint64_t unsupported_nodes;   /* operators without a shape rule */
} onnxcost_totals;

/* One node of an analysis.  A MAC is one multiply-accumulate; FLOPs count
 * two per MAC plus the operator's own elementwise work. */
typedef struct onnxcost_node {
    const char *name, *op, *domain; /* domain "" for the default one */
    const char *output_shape;       /* first output: "[N,64,56,56]"; "?" unknown rank */
    uint64_t macs, flops, params, bytes_read, bytes_written;
    int shapes_known; /* every input and output shape is known */
    int supported;    /* the operator has a shape rule */
} onnxcost_node;

/* Infer shapes and count costs of m with bindings b (NULL: batch 1).  A
 * binding that names nothing in the model, or a model that contradicts
 * itself, fails.  *out reads m: free it (onnxcost_analysis_free) first. */
ONNXCOST_API onnxcost_status onnxcost_analyze(const onnxcost_model *m,
                                              const onnxcost_bindings *b,
                                              onnxcost_analysis **out);
ONNXCOST_API void onnxcost_analysis_free(onnxcost_analysis *a); /* NULL accepted */
ONNXCOST_API void onnxcost_analysis_totals(const onnxcost_analysis *a, onnxcost_totals *out);
/* The batch the analysis is for (the leading symbolic dim's value; 1
 * while it is unbound or the model has none). */
ONNXCOST_API int64_t onnxcost_analysis_batch(const onnxcost_analysis *a);
/* The symbolic dims left unbound (costed as 1), in the model's order. */
ONNXCOST_API size_t onnxcost_analysis_n_unbound(const onnxcost_analysis *a);
ONNXCOST_API const char *onnxcost_analysis_unbound(const onnxcost_analysis *a, size_t i);
/* The dims whose size depends on the data and was not assumed
 * (onnxcost_bindings_set_assume), named "OUTPUT:DIM" ("nz:1": NonZero's
 * count); the nodes they size are not counted. */
ONNXCOST_API size_t onnxcost_analysis_n_data_dims(const onnxcost_analysis *a);
ONNXCOST_API const char *onnxcost_analysis_data_dim(const onnxcost_analysis *a, size_t i);
/* Nodes in topological order: i < onnxcost_model_n_nodes(); *out's
 * strings belong to a.  ONNXCOST_ERR_USAGE when i is out of range. */
ONNXCOST_API onnxcost_status onnxcost_analysis_node(const onnxcost_analysis *a, size_t i,
                                                    onnxcost_node *out);
/* The analyzer's warnings (an operator without a rule, ...): the node's
 * name in *node when node is not NULL. */
ONNXCOST_API size_t onnxcost_analysis_n_warnings(const onnxcost_analysis *a);
ONNXCOST_API const char *onnxcost_analysis_warning(const onnxcost_analysis *a, size_t i,
                                                   const char **node);

/* ---- predictors: a timing model fitted to a target ---- */

typedef enum onnxcost_mode {
    ONNXCOST_INFERENCE = 0,   /* ONNX Runtime inference (ort-cpu) */
    ONNXCOST_TRAINING_SGD,    /* one PyTorch training step (torch-cpu), SGD */
    ONNXCOST_TRAINING_ADAM    /* the same with Adam */
} onnxcost_mode;

typedef struct onnxcost_predictor onnxcost_predictor;

/* Whose times a predictor's are; the strings belong to the predictor. */
typedef struct onnxcost_target {
    const char *name;          /* "ort-cpu" */
    const char *runtime;       /* "onnxruntime-node 1.30.0" */
    const char *cpu;           /* the CPU the timing model was measured on */
    const char *mode;          /* "inference" or "training" */
    const char *optimizer;     /* "sgd", "adam"; NULL for inference */
    const char *machine;       /* the fingerprint the times are for; "" unknown */
    const char *model_machine; /* where the timing model was measured; "" unknown */
    const char *calibration;   /* the calibration's file or name; NULL none */
    const char *label;         /* "calibrated on this machine (...), 2026-12-03" */
    int threads;
    int calibrated;   /* a calibration's fit applies at this thread count */
    int this_machine; /* machine is this machine's fingerprint */
    /* the whole-graph fit the timing model carries ("ort-cpu-overhead.json
     * (fitted on ...)"); NULL: none, the kernels' sum */
    const char *in_graph_fit;
    /* the timing model learned this thread count (0: every kernel's time
     * is an extrapolation; onnxcost_predictor_warning says so too) */
    int threads_measured;
    /* this machine has no calibration, nor its kind: the shipped one of
     * the measured machine nearest it is used (machine names it; a
     * warning says so) */
    int nearest;
} onnxcost_target;

/* Open the timing model of `target`, the same choice as the command's
 * --target: NULL (the built-in model of the mode, with this machine's
 * calibration when 'onnxcost calibrate' cached one), a built-in name
 * ("ort-cpu", "torch-cpu"), a shipped calibration ("ort-cpu@FINGERPRINT",
 * 'onnxcost targets'), or a file: a calibration (JSON) or a timing model
 * ('onnxcost train').  threads 0 keeps the model's own count.  A target of
 * the other mode fails with ONNXCOST_ERR_USAGE.  On success *out is a new
 * predictor (onnxcost_predictor_free); what the choice warns about is in
 * onnxcost_predictor_warning. */
ONNXCOST_API onnxcost_status onnxcost_predictor_open(const char *target, onnxcost_mode mode,
                                                     int threads, onnxcost_predictor **out);
ONNXCOST_API void onnxcost_predictor_free(onnxcost_predictor *p); /* NULL accepted */
ONNXCOST_API void onnxcost_predictor_target(const onnxcost_predictor *p,
                                            onnxcost_target *out);
/* Lines such as "the ort-cpu timing model was measured on X, this machine
 * is Y: ..." (no "warning:" prefix). */
ONNXCOST_API size_t onnxcost_predictor_n_warnings(const onnxcost_predictor *p);
ONNXCOST_API const char *onnxcost_predictor_warning(const onnxcost_predictor *p, size_t i);

/* ---- predictions ---- */

typedef struct onnxcost_prediction onnxcost_prediction;

typedef struct onnxcost_summary {
    int64_t batch;
    double time_ms, time_ms_low, time_ms_high; /* the range: the ensemble's spread */
    double throughput_per_s;                   /* samples per second */
    double overhead_ms;     /* per-run and per-kernel overhead, in time_ms */
    double output_ms;       /* handing the outputs back, in time_ms */
    double kernels_raw_ms;  /* the kernels as timed alone */
    double linear_ms, roofline_ms; /* the baselines over the same kernels */
    uint64_t output_bytes;
    /* inference: weights and activation peak; training: the sum below */
    uint64_t memory_bytes;
    /* training only (0 for inference) */
    uint64_t weights_bytes, gradients_bytes, optimizer_state_bytes, activations_bytes;
    size_t kernels;         /* kernels the runtime runs per inference (those
                               inside a Loop or Scan once per trip) */
    size_t uncounted_nodes; /* nodes whose shapes are unknown: not in the time */
    /* kernels predicted beyond the timing model's data (an operator it has
     * no sample of, or over 10x its largest), and their share of time_ms */
    size_t extrapolated_kernels;
    double extrapolated_ms;
    /* ONNX Runtime's profiler cost per kernel, which the kernels' times (as
     * profiled) hold and a run has not, taken out of time_ms (0 unless the
     * calibration measured it on chains of tiny kernels) */
    double profiler_ms;
    /* a training step: the bytes its allocator takes afresh from the
     * kernel each step (an estimate from its tensors' sizes), and faulting
     * them in, in time_ms (0 unless the target's calibration measured what
     * a fresh page costs) */
    uint64_t fresh_bytes;
    double fault_ms;
    /* of fresh_bytes' estimate: the blocks over glibc's largest mmap
     * threshold, and the heap's churn beyond twice its threshold */
    uint64_t fresh_large_bytes, heap_churn_bytes;
} onnxcost_summary;

/* One node's share.  A node fused into another's kernel, folded or
 * removed costs 0 and says so. */
typedef struct onnxcost_node_time {
    const char *name, *op;
    double time_us, time_us_low, time_us_high;
    const char *kernel;     /* "folded", "removed", or NULL */
    const char *fused_into; /* the node whose kernel runs it, or NULL */
    const char *runs_as;    /* the kernel's op when not the node's, or NULL */
    const char *unknown;    /* why it is not counted, or NULL */
    const char *extrapolated; /* why its time is beyond the data, or NULL */
} onnxcost_node_time;

/* One kernel the runtime runs, in run order, named as ONNX Runtime's
 * profiler names it. */
typedef struct onnxcost_kernel_time {
    const char *name, *op;
    size_t n_nodes; /* onnxcost_prediction_kernel_node(r, i, 0..n_nodes) */
    double time_us, time_us_low, time_us_high;
    const char *extrapolated; /* why its time is beyond the data, or NULL */
} onnxcost_kernel_time;

/* Predict analysis a with predictor p.  *out reads a (and p's nothing):
 * free it before a. */
ONNXCOST_API onnxcost_status onnxcost_predict(const onnxcost_predictor *p,
                                              const onnxcost_analysis *a,
                                              onnxcost_prediction **out);
ONNXCOST_API void onnxcost_prediction_free(onnxcost_prediction *r); /* NULL accepted */
ONNXCOST_API void onnxcost_prediction_summary(const onnxcost_prediction *r,
                                              onnxcost_summary *out);
/* Nodes in topological order, as onnxcost_analysis_node. */
ONNXCOST_API onnxcost_status onnxcost_prediction_node(const onnxcost_prediction *r, size_t i,
                                                      onnxcost_node_time *out);
/* The kernels in run order: an If the runtime inlines (its condition
 * folds at session creation) is its branch's kernels, named as the
 * runtime renames them; a kept If, a Loop or a Scan is one kernel whose
 * time is all that runs inside it. */
ONNXCOST_API size_t onnxcost_prediction_n_kernels(const onnxcost_prediction *r);
ONNXCOST_API onnxcost_status onnxcost_prediction_kernel(const onnxcost_prediction *r, size_t i,
                                                        onnxcost_kernel_time *out);
/* The name of node j of kernel i (its main node first); NULL when out of
 * range. */
ONNXCOST_API const char *onnxcost_prediction_kernel_node(const onnxcost_prediction *r,
                                                         size_t i, size_t j);

/* ---- sweeps over batch sizes ---- */

#define ONNXCOST_SWEEP_MAX 64

typedef struct onnxcost_step {
    int64_t batch;
    double time_ms, time_ms_low, time_ms_high, throughput_per_s;
    uint64_t memory_bytes, macs; /* memory as onnxcost_summary's */
    int fits;                    /* memory_bytes <= the limit (1 without one) */
    size_t uncounted_nodes;
} onnxcost_step;

/* Predict m at each of batches[0..n) (1 <= n <= ONNXCOST_SWEEP_MAX, each
 * >= 1) with bindings b (NULL: none; input shapes keep their dims but
 * take each step's batch; a dim binding of the batch dim fails) into
 * steps[0..n), caller-owned.  memory_limit 0 means none.  *largest_fit
 * (may be NULL) is the index of the largest batch that fits, *best (may
 * be NULL) of the best throughput among those; both SIZE_MAX when none
 * fits. */
ONNXCOST_API onnxcost_status onnxcost_sweep(const onnxcost_predictor *p,
                                            const onnxcost_model *m,
                                            const onnxcost_bindings *b,
                                            const int64_t *batches, size_t n,
                                            uint64_t memory_limit, onnxcost_step *steps,
                                            size_t *largest_fit, size_t *best);

/* ---- annotation ---- */

/* Write a's model to `path` with every node carrying its predicted time
 * and costs as 'onnxcost annotate' writes them (a doc_string line
 * "onnxcost: time_us=... macs=...", node metadata "onnxcost.time_us",
 * "onnxcost.macs", ...; the totals in the model's metadata).  The file is
 * written beside path and renamed; path may be the model's own file (it is
 * replaced whole).  A model with external data can only be written into
 * its own folder.  The annotation goes into the loaded model (a's model
 * changes), so a model is annotated once: load it again for another. */
ONNXCOST_API onnxcost_status onnxcost_annotate(const onnxcost_predictor *p,
                                               const onnxcost_analysis *a,
                                               const char *path);

#ifdef __cplusplus
}
#endif

#endif
