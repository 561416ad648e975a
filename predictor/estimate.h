/*
 * estimate.h - a whole graph's run time from the timing model: the nodes
 * grouped into the runtime's kernels (plan.h), each kernel's time from the
 * ensemble (predict.h), and the per-run overhead the runtime adds around
 * the kernels (fitted on whole-model measurements).
 *
 *     oc_estimate e;
 *     oc_estimate_run(a, tm, &ov, &e, arena, &err);
 *     e.total_us, e.node_us[i] ...
 */
#ifndef OC_PREDICTOR_ESTIMATE_H
#define OC_PREDICTOR_ESTIMATE_H

#include "predictor/desc.h"
#include "predictor/plan.h"
#include "predictor/predict.h"

/* The runtime's binding copies every graph output into a buffer of its
 * own, allocated afresh each run.  glibc's malloc takes a block this large
 * (the ceiling of its mmap threshold on 64-bit) from new pages and gives
 * them back on free, so every page of such an output faults in again,
 * run after run, where a smaller one mostly reuses the heap.  On
 * cpu-AuthenticAMD-f26-m2 (onnxruntime-node 1.30, 634 runs of the zoo,
 * its hold-out and blind1-6) an output of 50-67 MB cost 2.4-3.8 ms per MB
 * in all 12 runs that had one; of the 56 runs with outputs of 3-33 MB, 50
 * spent under 0.75 ms per MB beyond their kernels, 5 spent 2.0-2.8. */
#define OC_OUTPUT_FRESH_BYTES ((uint64_t)1 << 25)

/* From kernels timed alone to a whole graph (fitted on whole-model
 * measurements, bench/eval_models.py): total = kernel_scale * sum of the
 * kernels + per_kernel_us * kernels that run.  {1, 0} is the identity.
 * A negative per_kernel_us (a calibration's, measured on chains of tiny
 * kernels) takes ONNX Runtime's profiler cost per kernel, which the
 * timing model's profiled samples hold and a graph's run does not, out of
 * the kernels' sum; but each kernel still adds at least kernel_floor_us
 * (what one more tiny kernel adds to a run, measured the same way; or its
 * own time where that is less), and the total stays at least
 * kernel_floor_us per kernel run. */
typedef struct oc_overhead {
    double kernel_scale, per_kernel_us;
    double kernel_floor_us;
    /* shape arithmetic and view kernels in graph context: one measured
     * time each (0: the timing model predicts them like any kernel) */
    double small_kernel_us;
    /* handing a large graph output back to the caller, per MB (10^6
     * bytes) of the outputs of OC_OUTPUT_FRESH_BYTES or more; 0 when not
     * measured on the machine (calibrate measures it) */
    double output_us_per_mb;
    /* a training step (a target with an optimizer): the machine's cost of
     * fresh pages, us per MB, charged for the bytes the step's allocator
     * takes afresh from the kernel (memory.h's fresh); 0: not charged */
    double fault_us_per_mb;
    /* the machine's bandwidth streaming a graph's weights, GB/s: a Conv,
     * ConvTranspose, Gemm or MatMul kernel takes at least its weights'
     * bytes at this rate (its samples ran with their weights in cache; a
     * graph's weights are not, run after run); 0: no such floor */
    double stream_gbps;
    /* what each trip of a Loop costs beyond its body's kernels, and what
     * running a Loop costs once (a calibration's loop_trip_us and
     * loop_run_us, measured on loop chains); 0: not measured, a Loop costs
     * its trips' bodies alone */
    double loop_trip_us, loop_run_us;
    /* a calibration's kernel curve (calib.h): what a kernel adds to a
     * run against its predicted time, in place of per_kernel_us and
     * kernel_floor_us; NULL: none */
    const struct oc_calib_fit *curve;
    /* a calibration's per-group in-graph factors (calib.h's in_graph),
     * applied to each kernel the timing model predicts; NULL: none */
    const struct oc_calib_fit *in_graph;
    /* the whole-model range reaches at least [total * range_low, total *
     * range_high] (oc_tmodel_fit's); 0: the ensemble's range alone */
    double range_low, range_high;
    /* a calibration's range band (calib.h): the whole-model range is
     * [total * band_low, total * band_high] of the run's band, in place of
     * the ensemble's and range_low / range_high; NULL: none */
    const struct oc_calib_fit *band;
    /* a calibration's speed check (calib.h's oc_calib_speed): every time
     * of a run but its page faults is multiplied by it; 0: none */
    double speed;
} oc_overhead;

typedef struct oc_estimate {
    const oc_analysis *analysis; /* the analysis estimated (for a
                                    subgraph's estimate: its view) */
    oc_plan plan;
    /* per graph node: the time of the kernel it is the main node of (0 for
     * nodes fused into another, folded or removed) */
    double *node_us, *node_low_us, *node_high_us;
    double *node_linear_us, *node_roofline_us;
    /* per plan kernel (plan.kernels order): its time, 0 for kernels not
     * predicted (folded, removed, shapes unknown) */
    double *kernel_us, *kernel_low_us, *kernel_high_us;
    size_t n_run;               /* kernels the timing model predicted */
    size_t n_small;             /* shape-arithmetic and view kernels, each
                                   costed at the overhead's small_kernel_us */
    double small_us;            /* their sum */
    size_t n_inserted;          /* predicted kernels of no graph node: the
                                   reorders and Transposes the plan inserts */
    double inserted_us;         /* their sum (in kernels_us, in no node_us) */
    /* Control flow: an If, Loop or Scan kernel runs the kernels of its
     * subgraph (the If's branch taken, the body once per trip); per plan
     * kernel, that subgraph's own estimate (NULL for other kernels) and
     * how many times one inference runs it.  The kernel's time is
     * times x the subgraph's kernels; an If, Loop or Scan whose branch or
     * trip count is unknown is not predicted (node_unknown says why). */
    const struct oc_estimate **kernel_sub;
    int64_t *kernel_times;
    double inner_us, inner_low_us, inner_high_us; /* those kernels' time
                                                     (as timed alone) */
    double inner_overhead_us;   /* their per-kernel overhead, and each
                                   Loop's (oc_overhead's loop_trip_us a
                                   trip, loop_run_us a run) */
    uint64_t n_inner_run;       /* how many kernels run inside them per
                                   inference (plan.n_run + this: all); an
                                   inlined If whose branch is unknown is
                                   one, as it is listed */
    double kernels_raw_us;      /* sum of the kernels as timed alone */
    double kernels_us, kernels_low_us, kernels_high_us; /* scaled */
    double overhead_us;         /* per_kernel_us > 0: the runtime's per-kernel
                                   cost (+ inner_overhead_us) */
    double profiler_us;         /* per_kernel_us < 0: the profiler's cost per
                                   kernel held in kernels_us, taken out of
                                   the total (inner kernels' too) */
    uint64_t output_bytes;      /* the graph's outputs (known shapes) */
    uint64_t output_fresh_bytes; /* of those, the outputs of at least
                                    OC_OUTPUT_FRESH_BYTES (output_us's) */
    double output_us;           /* handing them back (oc_overhead) */
    double fault_us;            /* a training step: faulting in the pages its
                                   allocator takes afresh from the kernel
                                   (memory.h's fresh bytes at oc_overhead's
                                   fault_us_per_mb; 0 when not charged) */
    double total_us, total_low_us, total_high_us;
    double linear_us, roofline_us; /* baselines over the same kernels */
    /* Kernels whose shapes stay unknown (data-dependent sizes such as
     * NonZero's or NonMaxSuppression's, operators without a shape rule,
     * what reads their outputs) are not predicted: their nodes get no time
     * and a reason, and the totals cover the rest. */
    const char **node_unknown;  /* per graph node: why it is not counted, or NULL */
    size_t n_uncounted;         /* kernels not predicted */
    size_t n_uncounted_nodes;   /* graph nodes in them */
    size_t first_uncounted;     /* the main node of the first (SIZE_MAX: none) */
    /* Kernels predicted outside the timing model's data (an operator it
     * has no sample of, or 10x beyond its largest): an extrapolation. */
    const char **node_outside;  /* per graph node (main nodes): why, or NULL */
    size_t n_outside;           /* such kernels */
    double outside_us;          /* their share of kernels_us */
    /* The timing model's rows: n_run feature rows (OC_N_FEATURES each),
     * the plan kernel of each, and its prediction before the in-graph fit
     * (us).  In the arena, like the rest. */
    const float *x;
    const size_t *x_kernel;
    const double *x_us;
} oc_estimate;

/* A kernel of unknown shapes is not an error: it is left out and counted
 * (n_uncounted).  Errors: OC_ERR_INPUT when a kernel cannot be described
 * for another reason, OC_ERR_NOMEM. */
oc_status oc_estimate_run(const oc_analysis *a, const oc_tmodel *tm,
                          const oc_overhead *ov, oc_estimate *out, oc_arena *arena,
                          oc_error *err);

/* The same for n analyses at once (one model at several batch sizes):
 * out[i] for a[i], every kernel of every analysis through one pass of the
 * ensemble. */
oc_status oc_estimate_run_many(const oc_analysis *const *a, size_t n, const oc_tmodel *tm,
                               const oc_overhead *ov, oc_estimate *out, oc_arena *arena,
                               oc_error *err);

/* The description of row r of e (0 <= r < e->n_run; the kernel
 * e->x_kernel[r]) that its features e->x[r] were computed from, with its
 * strings in the arena: what a dataset line of that kernel holds
 * (training/ingraph.h).  Errors: OC_ERR_USAGE (no such row), OC_ERR_NOMEM. */
oc_status oc_estimate_row_desc(const oc_estimate *e, size_t r, oc_node_desc *d,
                               oc_arena *arena, oc_error *err);
/* The timing model built into this library for `target` ("ort-cpu")
 * and its in-graph fit at its thread count, or OC_ERR_IO when this build
 * has none. */
oc_status oc_default_tmodel(const char *target, oc_tmodel **out, oc_overhead *ov,
                            oc_error *err);
/* The calibrations built into this library: the machines the project
 * measured (data/machines/<fingerprint>/).  get fails like
 * oc_calib_loadb; *path (may be NULL) is the file's path under data/. */
size_t oc_builtin_calib_count(void);
oc_status oc_builtin_calib_get(size_t i, oc_calib *out, const char **path, oc_error *err);

/* The model's own in-graph fit (tmodel.h) for a thread count (0: the
 * model's; else the nearest one fitted) as an overhead; the identity
 * {1, 0, 0, 0} when the model carries none. */
void oc_tmodel_overhead(const oc_tmodel *tm, int threads, oc_overhead *ov);
/* The model's overhead at a thread count (oc_tmodel_overhead) with the
 * calibration fit cf (NULL: none) over it, as predict takes it. */
void oc_overhead_calibrated(const oc_tmodel *tm, int threads, const struct oc_calib_fit *cf,
                            oc_overhead *ov);

#endif
