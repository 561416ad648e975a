/*
 * calib.h - a calibration: what turns a timing model measured on one
 * machine into a model of another, fitted on a probe of kernels measured
 * there (onnxcost calibrate).
 *
 *     // fitting (rows: probe kernels with the base model's prediction)
 *     oc_calib c;
 *     oc_calib_init(&c, &machine, tmodel_info, "inference");
 *     oc_calib_fit_threads(&c, 1, rows, n, &ov, &err);
 *     oc_calib_save(&c, path, &err);
 *
 *     // use (the timing model applies it to every kernel it predicts)
 *     oc_calib_load(path, &c, &err);
 *     oc_tmodel_set_calib(tm, &c, &err);          // tmodel.h
 *
 * The correction is multiplicative and per kernel: for a kernel of group
 * g (its operator family; depthwise convolutions apart)
 *     t' = t * exp(w_g0 + w_g1 * z1 + w_g2 * z2)
 * (the slopes 0 when the form chosen is a scale per group, every w 0 when
 * it is none: oc_calib_form)
 * where z1 is the kernel's arithmetic intensity (log1p(FLOPs / bytes)) and
 * z2 the base model's ln(t), both standardised over the probe: a machine
 * with AVX-512 speeds up the compute-bound convolutions more than the
 * memory-bound copies, and large kernels more than small ones, whose time
 * is the runtime's fixed cost.  Each group's weights are a ridge fit
 * shrunk towards the fit over all groups, so a group with few probe
 * kernels (or none) falls back to the machine-wide ratio: this is the
 * "scale by measured hardware ratios" idea (Habitat), with the ratios
 * measured on the runtime's own kernels rather than on a GEMM and a copy.
 * The ensemble's range is widened by the probe's residual spread.
 *
 * File: one JSON object (docs/calibration.md), written atomically.
 */
#ifndef OC_PREDICTOR_CALIB_H
#define OC_PREDICTOR_CALIB_H

#include <jansson.h>

#include "predictor/features.h"
#include "predictor/machine.h"

enum {
    OC_CALIB_VERSION = 1,
    /* the op families, then depthwise conv, then ORT's integer kernels
     * (QLinearConv, QLinearMatMul, QLinearAdd, ...: the probe has none, so
     * they take the machine-wide correction, not their fp32 family's) */
    OC_CALIB_GROUPS = OC_OPF_COUNT + 2,
    OC_CALIB_DEPTHWISE = OC_OPF_COUNT,
    OC_CALIB_QUANTIZED = OC_OPF_COUNT + 1,
    OC_CALIB_MAX_THREADS = 16
};

/* The forms a correction can take, most general first: each group's
 * intercept and slopes on z1 and z2 (SIZE), each group's intercept alone
 * (SCALE: one factor per op family), or none.  The probe's leave-one-out
 * error chooses between SIZE and NONE; where whole networks were timed too
 * (calibrate's anchors), their error may then choose a simpler form: a
 * probe kernel is timed alone, and slopes fitted on lone kernels can
 * stretch a network's large kernels away from what they take among the
 * others. */
#define OC_CALIB_FORM_LIST(XX) \
    XX(SIZE, "size")           \
    XX(SCALE, "scale")         \
    XX(NONE, "none")

typedef enum {
#define XX(id, name) OC_CALIB_##id,
    OC_CALIB_FORM_LIST(XX)
#undef XX
    OC_CALIB_FORMS
} oc_calib_form;

const char *oc_calib_form_name(int form);

/* The fit for one thread count. */
enum { OC_CALIB_CURVE_MAX = 16, OC_CALIB_BAND_MAX = 8 };

typedef struct oc_calib_fit {
    int threads;
    double w[OC_CALIB_GROUPS][3];
    int n_group[OC_CALIB_GROUPS]; /* probe kernels of each group */
    double global[3];
    double mu[2], sd[2];          /* standardisation of z1, z2 */
    double residual;              /* median |ln(measured / calibrated)| */
    int n;                        /* probe kernels */
    double err_before;            /* median abs. relative error, base model */
    double err_after;             /* the same, calibrated, leave-one-out
                                     (err_before with form NONE) */
    int form;                     /* oc_calib_form of w and global */
    /* While fitting (not stored): every form's weights, leave-one-out
     * error and residual, for the anchors to choose among
     * (oc_calib_use_form). */
    double form_w[OC_CALIB_FORMS][OC_CALIB_GROUPS][3];
    double form_global[OC_CALIB_FORMS][3];
    double form_err[OC_CALIB_FORMS], form_residual[OC_CALIB_FORMS];
    /* and, where whole networks chose, each form's mean error on them
     * (leave-one-network-out; 0: not judged) */
    double form_anchor_err[OC_CALIB_FORMS];
    double kernel_scale, per_kernel_us; /* the in-graph fit used with it */
    /* Whole networks timed here (calibrate's anchors): the kernel_scale
     * above is fitted on them when n_anchors > 0, else it is the base
     * model's.  Mean abs. relative error of their totals with the base
     * model's scale and with the fitted one (leave-one-network-out). */
    int n_anchors;
    double base_kernel_scale;
    /* handing outputs back per MB (estimate.h), measured on a network whose
     * output is large; 0 when not measured */
    double output_us_per_mb;
    double anchor_err_before, anchor_err_after;
    /* Chains of tiny kernels timed here with and without ONNX Runtime's
     * profiler (calibrate's anchors): what one more kernel adds to a
     * graph's run (kernel_floor_us) and to its profile (profiled_kernel_us),
     * and what the calibrated timing model predicts for one of them
     * (predicted_kernel_us; 0: not predicted).  The timing model learned
     * profiled kernel times alone, so per_kernel_us is the run's slope less
     * the predicted one (less the profiled one where none was predicted),
     * negative where the profiler's own cost per kernel exceeds the
     * executor's.  n_chains 0: not measured. */
    int n_chains;
    double kernel_floor_us, profiled_kernel_us, predicted_kernel_us;
    /* Chains of recurrent steps (calibrate's step probe: a GRU-like update
     * and an attention read over a small memory, 20 kernels of 15 kinds on
     * a few dozen floats each) timed the same way: what one of their
     * kernels adds to a run (step_wall_us) and to its profile
     * (step_profiled_us), and as the calibrated model predicts it
     * (step_predicted_us).  Where measured, per_kernel_us is step_wall_us
     * less step_predicted_us: the small kernels of networks (a Gather, a
     * Concat, a Gemm of one row) carry more of the profiler's cost in their
     * predictions than the chains' Neg and Abs do, which still set the
     * floor.  n_steps 0: not measured. */
    int n_steps;
    double step_wall_us, step_profiled_us, step_predicted_us;
    /* Chains of Loop trips (calibrate's loop probe: a Loop with a constant
     * trip count whose body adds one to 16 floats) timed in a run: what a
     * trip adds to the run (loop_wall_us), what the calibrated estimate
     * gives a trip (loop_predicted_us: its body's kernels), and what a trip
     * costs beyond that (loop_trip_us, at least 0): ONNX Runtime's Loop
     * kernel makes a frame for the body and hands its state over each trip.
     * And what running a Loop costs once, beyond its trips (loop_run_us, at
     * least 0): the loop chains' wall time at no trip less the kernel
     * chains' at no kernel (the run's own cost, in both).  n_loops 0: not
     * measured (a Loop then costs its trips' bodies alone). */
    int n_loops;
    double loop_wall_us, loop_predicted_us, loop_trip_us, loop_run_us;
    /* What a kernel adds to a run against its predicted (profiled) time:
     * wall_us at predicted_us, piecewise linear from (0, 0) through the
     * n_curve points, at slope 1 beyond the last. Fitted on this machine's
     * whole-model runs (scripts/fit_kernel_curve.py), where the profiler's
     * cost (per_kernel_us, kernel_floor_us) misjudged many small kernels.
     * It replaces per_kernel_us and kernel_floor_us's part in a kernel's
     * time. n_curve 0: none. curve_from: "" when fitted on this machine's
     * runs, else the machine whose curve it is (oc_calib_adopt_curve). */
    int n_curve, curve_runs;
    double curve_x[OC_CALIB_CURVE_MAX], curve_w[OC_CALIB_CURVE_MAX];
    char curve_from[64];
    /* While fitting one here (calibrate; not stored): the networks it was
     * fitted on, and their runs' mean abs. relative error without it and
     * with it (leave-one-network-out; 0: no curve fitted). */
    int curve_nets;
    double curve_err_before, curve_err_after;
    /* Step chains left out because ONNX Runtime ran another number of
     * kernels than the plan has (another version's rewrites): the kernels
     * it ran and the plan's, of the first such run; not saved. */
    size_t steps_ran, steps_planned;
    /* The machine's copy bandwidth at this thread count (onnxcost hw), GB/s:
     * a graph's weights do not stay in cache from one run to the next, so
     * a kernel takes at least its weights' bytes at this rate; 0 when not
     * measured. */
    double stream_gbps;
    /* The machine's cost of fresh pages, us per MB (hw.h's fault_us_per_mb):
     * what a PyTorch training step pays for the memory glibc's malloc hands
     * back to the kernel and takes again (memory.h's fresh bytes); 0 when
     * not measured. */
    double fault_us_per_mb;
    /* Each group's kernels in whole networks over the same kernels as the
     * calibrated model predicts them (both as profiled): the anchor runs'
     * profiled kernels summed over their predictions, for the groups with
     * enough of the anchors' kernel time (oc_calib_fit_in_graph_groups); 0
     * where not fitted.  A kernel alone, as the probe and the samples time
     * it, is not one among a network's (its weights and inputs in cache, no
     * other kernel's data evicting them). */
    double in_graph[OC_CALIB_GROUPS];
    /* the probe's check kernel (a 256^3 MatMul timed before and after each
     * chunk), median in us: how fast this host ran while it was measured;
     * 0 when not recorded */
    double check_us;
    /* The whole-model range, by how small a run's kernels are: a run
     * whose predicted time per kernel (its total over the kernels it
     * runs) is under band_us[b] (any, in the last band) ran within
     * [total * band_low[b], total * band_high[b]] but for band_quantile
     * of this machine's runs on each side (scripts/fit_range_band.py);
     * n_band bands (0: none, the range is the ensemble's). */
    int n_band, band_runs;
    double band_quantile;
    double band_us[OC_CALIB_BAND_MAX - 1], band_low[OC_CALIB_BAND_MAX],
        band_high[OC_CALIB_BAND_MAX];
} oc_calib_fit;

/* How much slower (factor > 1) or faster this machine runs than when the
 * calibration was measured, from its check kernel timed again
 * ('onnxcost calibrate --check --save'): factor = (check_us /
 * calibration_check_us) ^ OC_CALIB_SPEED_ELASTICITY, the check kernel at
 * one thread, applied to every predicted time at every thread count.
 * Inference calibrations only: PyTorch's training steps moved 1.9x their
 * check kernel's move in the one pair of sessions measured (train30 on
 * cpu-GenuineIntel-f6-m167), not 0.6x.  factor 0: never checked. */
typedef struct oc_calib_speed {
    double factor;
    double check_us, calibration_check_us; /* 1 thread, now and at calibration */
    char checked[32];                      /* when, UTC, ISO 8601 */
} oc_calib_speed;

/* What whole runs move per move of the 1-thread check kernel: across the
 * 72 pairs of sessions that measured blind18-29 on cpu-GenuineIntel-f6-m167
 * (2026-12-06/07), the median log ratio of the runs' times was 0.64 (1
 * thread) and 0.54 (2 threads) of the check kernel's (r = 0.79 / 0.72; the
 * 2-thread check kernel predicted both less well). */
#define OC_CALIB_SPEED_ELASTICITY 0.6

typedef struct oc_calib {
    int version;
    oc_machine machine;     /* where the probe ran (machine.id: fingerprint) */
    char target[64];        /* "ort-cpu" */
    char runtime[96];       /* "onnxruntime-node 1.30.0" */
    char mode[16];          /* "inference" or "training" */
    char base_machine[64];  /* fingerprint of the base model's data */
    char base_created[32];  /* the base model's creation time */
    char base_path[512];    /* the base model's file when it is not a
                               built-in one (calibrate -m FILE), else "" */
    char created[32];       /* UTC, ISO 8601 */
    double probe_seconds;   /* wall time of the probe */
    int n_fits;
    oc_calib_fit fits[OC_CALIB_MAX_THREADS];
    oc_calib_speed speed;
} oc_calib;

/* One probe kernel: its feature row (features.h), the base model's
 * prediction and the measured time (both > 0). */
typedef struct oc_calib_row {
    const float *x;
    double pred_us, meas_us;
} oc_calib_row;

/* Name of a group ("conv", ..., "conv_depthwise"); the group of a raw
 * feature row. */
const char *oc_calib_group_name(int g);
int oc_calib_group_of(const float *x);

/* An empty calibration of `machine` for the base model described by the
 * arguments. */
void oc_calib_init(oc_calib *c, const oc_machine *machine, const char *target,
                   const char *runtime, const char *mode, const char *base_machine,
                   const char *base_created);

/* Fit the correction for `threads` from n probe rows (replacing an earlier
 * fit for that thread count).  ov gives the in-graph fit stored with it.
 * Errors: OC_ERR_USAGE (fewer than 8 rows, a non-positive time, too many
 * thread counts), OC_ERR_NOMEM. */
oc_status oc_calib_fit_threads(oc_calib *c, int threads, const oc_calib_row *rows, size_t n,
                               double kernel_scale, double per_kernel_us, oc_error *err);

/* Make `form` the fit's correction (its weights, leave-one-out error and
 * residual, as oc_calib_fit_threads fitted them). */
void oc_calib_use_form(oc_calib_fit *f, int form);

/* One whole network timed on the machine: the calibrated timing model's
 * kernels of it as timed alone (sum, count) and its measured wall time. */
typedef struct oc_calib_anchor {
    const char *name;   /* the network (the leave-out groups by it) */
    double kernels_us;  /* predicted, calibrated, before any in-graph scale */
    size_t kernels;     /* kernels run (each costs per_kernel_us) */
    double meas_us;
} oc_calib_anchor;

/* Fit f's in-graph scale on n anchors: total = scale * kernels_us +
 * per_kernel_us * kernels, least squares in relative error, per_kernel_us
 * kept; the scale is kept in [0.25, 4].  Errors: OC_ERR_USAGE (no anchor,
 * a non-positive time). */
oc_status oc_calib_fit_in_graph(oc_calib_fit *f, const oc_calib_anchor *a, size_t n,
                                oc_error *err);

/* The anchors' kernels of one group, summed: profiled in the runs and
 * predicted (calibrated, as profiled), n of them; and over the runs, each
 * run's log(profiled / predicted) of the group weighted by the group's
 * share of that run's predicted time (log_ratio_w), and those weights
 * (w): every network counts by how much the group weighs in it, not by
 * how long it runs. */
typedef struct oc_calib_group_sum {
    double meas_us, pred_us;
    size_t n;
    double log_ratio_w, w;
} oc_calib_group_sum;

/* Add one run's kernels of each group (profiled meas[g], predicted
 * pred[g], count n[g]; all_pred_us the run's whole predicted time) to s. */
void oc_calib_group_sum_add(oc_calib_group_sum *s, const double *meas, const double *pred,
                            const size_t *n, double all_pred_us);

/* f->in_graph from the groups' sums: for each group with at least 20
 * kernels and 2% of all the measured time, the share-weighted geometric
 * mean of its runs' ratios, within [0.5, 2]; 0 for the others. */
void oc_calib_fit_in_graph_groups(oc_calib_fit *f, const oc_calib_group_sum *s);

/* The band (calib.h's band_us) of a run predicted at per_kernel_us per
 * kernel; f->n_band > 0. */
int oc_calib_band_of(const oc_calib_fit *f, double per_kernel_us);

/* The in-graph factor of group g in f (1 when not fitted). */
double oc_calib_in_graph_factor(const oc_calib_fit *f, int g);

/* A network whose wall time is mostly handing its output back: its
 * measured wall time, its kernels' time, its outputs' size. */
typedef struct oc_calib_output {
    double wall_us, kernel_us;
    uint64_t bytes;
} oc_calib_output;

/* f's output_us_per_mb: the median over the n probes whose output is of
 * OC_OUTPUT_FRESH_BYTES or more (estimate.h; 0 when there is none) of
 * what their wall time holds beyond their kernels, per MB (10^6 bytes) of
 * output, at least 0; a smaller output's cost is not that of a large one.
 * Errors: OC_ERR_USAGE (no probe, one without output or time). */
oc_status oc_calib_fit_output(oc_calib_fit *f, const oc_calib_output *p, size_t n,
                              oc_error *err);

/* What a shape kernel (shape arithmetic on a few elements, a view) costs
 * as profiled on the calibration's machine: a kernel of its chains (they
 * run on a few floats) where chains were timed, else base_us, the timing
 * model's (0: not costed apart). */
static inline double oc_calib_small_kernel_us(const oc_calib_fit *f, double base_us)
{
    return f && f->n_chains && f->profiled_kernel_us > 0 && base_us > 0 ? f->profiled_kernel_us
                                                                         : base_us;
}

/* A chain of `kernels` tiny kernels (each runs on a few floats) timed in
 * one session: its wall time and its kernels' profiled time; and the sum
 * of its kernels as the calibrated timing model predicts them (0: not
 * predicted). */
typedef struct oc_calib_chain {
    size_t kernels;
    double wall_us, kernel_us, predicted_us;
} oc_calib_chain;

/* f's kernel_floor_us, profiled_kernel_us, predicted_kernel_us and
 * per_kernel_us from n chains of at least two lengths: the slopes of wall,
 * profiled and predicted time over the kernel count (least squares);
 * per_kernel_us is the wall's slope less the predicted one (the profiled
 * one where a chain was not predicted).  Fit it before
 * oc_calib_fit_in_graph, which keeps it.  Errors: OC_ERR_USAGE (fewer
 * than two lengths, a non-positive time). */
oc_status oc_calib_fit_chain(oc_calib_fit *f, const oc_calib_chain *c, size_t n,
                             oc_error *err);

/* f's step_wall_us, step_profiled_us, step_predicted_us and per_kernel_us
 * (step_wall_us - step_predicted_us) from n chains of recurrent steps of at
 * least two lengths, each chain's `kernels` the kernels the plan runs for
 * it (the slopes are per kernel), each predicted.  Fit it after
 * oc_calib_fit_chain, whose per_kernel_us it replaces.  Errors:
 * OC_ERR_USAGE (fewer than two lengths, a non-positive or missing time). */
oc_status oc_calib_fit_steps(oc_calib_fit *f, const oc_calib_chain *c, size_t n,
                             oc_error *err);

/* f's loop_wall_us, loop_predicted_us and loop_trip_us from n runs of
 * loop chains of at least two trip counts (each chain's `kernels` its
 * trips, `predicted_us` the estimate of the whole run with no trip cost):
 * the slopes over the trips of the wall and predicted times, the trip cost
 * their difference (at least 0); and loop_run_us, the loop chains' wall
 * time at no trip less that of the nk kernel chains `kc` at no kernel,
 * through their slope as oc_calib_fit_chain fitted it on them (at least 0;
 * 0 without kernel chains or that fit).  Fit it after oc_calib_fit_chain.
 * Errors: OC_ERR_USAGE (fewer than two trip counts, a non-positive or
 * missing time). */
oc_status oc_calib_fit_loop(oc_calib_fit *f, const oc_calib_chain *c, size_t n,
                            const oc_calib_chain *kc, size_t nk, oc_error *err);

/* A kernel curve (oc_calib_fit's curve_x, curve_w) fitted on whole-network
 * runs: per run, its measured wall time, its prediction without a curve
 * (total_us), the rest of that prediction (the total less what its
 * kernels add to it: their predicted times less the profiler's cost taken
 * out of them), its kernels' predicted (profiled) times, and the network
 * it is of (runs of one network share `net`). */
typedef struct oc_calib_curve_run {
    double wall_us, total_us, rest_us;
    const double *x_us;
    size_t n;
    int net;
} oc_calib_curve_run;
/* The points the curve is fitted at (us), and the fewest runs it is
 * fitted on. */
enum { OC_CALIB_CURVE_KNOTS = 7, OC_CALIB_CURVE_MIN_RUNS = 12 };
/* calibrate's ridge strength (fit_kernel_curve.py's --ridge default) */
#define OC_CALIB_CURVE_RIDGE 0.01
extern const double oc_calib_curve_knots[OC_CALIB_CURVE_KNOTS];

/* f's kernel curve from n whole-network runs at its thread count: what a
 * kernel predicted at x us adds to a run, at oc_calib_curve_knots (slope 1
 * beyond the last), by least squares on the runs' relative error with a
 * ridge pull (strength `ridge` per run) towards f's chains' rule (the
 * profiler's cost per kernel, per_kernel_us, taken out, at least
 * kernel_floor_us, never more than x); then made non-negative, at most x,
 * rising, and at the last point at least the rule (a fit with no large
 * kernels must not take tens of us off every large kernel).  The same
 * fit as scripts/fit_kernel_curve.py's.  curve_from becomes "" (this
 * machine's), curve_runs n; *err_before and *err_after (may be NULL) get
 * the runs' mean abs. relative error without the curve and with one
 * fitted leaving out each network's runs in turn.  Fewer than
 * OC_CALIB_CURVE_MIN_RUNS runs or only one network: no curve, f unchanged,
 * *err_after 0.  Errors: OC_ERR_NOMEM; OC_ERR_USAGE (a run without a
 * positive wall time). */
oc_status oc_calib_fit_curve(oc_calib_fit *f, const oc_calib_curve_run *runs, size_t n,
                             double ridge, double *err_before, double *err_after,
                             oc_error *err);

/* The fit for a thread count, or NULL when the calibration has none. */
const oc_calib_fit *oc_calib_fit_for(const oc_calib *c, int threads);

/* The factor for a kernel whose raw feature row is x and base time pred_us. */
double oc_calib_factor(const oc_calib_fit *f, const float *x, double pred_us);

/* JSON (a new reference or NULL) and back.  from_json errors:
 * OC_ERR_INPUT naming what is missing or out of range. */
json_t *oc_calib_to_json(const oc_calib *c);
oc_status oc_calib_from_json(const json_t *j, const char *label, oc_calib *out,
                             oc_error *err);
/* Errors: OC_ERR_IO (cannot read or write), OC_ERR_INPUT (not a
 * calibration, corrupt). */
oc_status oc_calib_load(const char *path, oc_calib *out, oc_error *err);
oc_status oc_calib_loadb(const char *text, size_t n, const char *label, oc_calib *out,
                         oc_error *err);
oc_status oc_calib_save(const oc_calib *c, const char *path, oc_error *err);

/* Record a speed check: the 1-thread check kernel timed now at check_us
 * (c's 1-thread fit must have recorded its own), stamped with the time.
 * Errors: OC_ERR_USAGE (no 1-thread check kernel in c, check_us not
 * positive). */
oc_status oc_calib_set_speed(oc_calib *c, double check_us, oc_error *err);

/* A calibration whose machine has too few whole-model runs to fit a
 * kernel curve of its own (calibrate fits none) takes `from`'s: each fit
 * without a curve gets the curve of `from`'s fit at the same thread count,
 * if it has one, with curve_from set to `from`'s machine.  Returns how
 * many fits took one. */
int oc_calib_adopt_curve(oc_calib *cal, const oc_calib *from);

#endif
