/*
 * anchors.h - whole networks timed by `onnxcost calibrate`: what a kernel
 * costs inside a network against the same kernel timed alone (anchors.c).
 */
#ifndef OC_TRAINING_ANCHORS_H
#define OC_TRAINING_ANCHORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "analyzer/analyzer.h"
#include "predictor/estimate.h"
#include "predictor/tmodel.h"
#include "training/log.h"

enum { OC_N_ANCHORS = 3, OC_N_ANCHOR_BATCHES = 2, OC_N_OUTPUT_PROBES = 2, OC_N_CHAINS = 2,
       OC_N_STEP_CHAINS = 2, OC_N_LOOP_CHAINS = 2, OC_N_CURVE_NETS = 12,
       OC_N_CURVE_BATCHES = 3,
       OC_N_ANCHOR_RUNS = OC_N_ANCHORS * OC_N_ANCHOR_BATCHES + OC_N_OUTPUT_PROBES +
                          OC_N_CHAINS + OC_N_STEP_CHAINS + OC_N_LOOP_CHAINS +
                          OC_N_CURVE_NETS * OC_N_CURVE_BATCHES };
/* The networks a kernel curve is fitted on (calib.h's oc_calib_fit_curve):
 * networks of hundreds of small kernels from blind sets already scored,
 * their graphs beside the anchors', timed at oc_curve_batches.  What such a
 * kernel adds to a run, against its profiled time, is the machine's own;
 * no lone kernel and no chain of one kind shows it. */
extern const char *const oc_curve_names[OC_N_CURVE_NETS];
extern const int64_t oc_curve_batches[OC_N_CURVE_BATCHES];
/* The network that measures handing outputs back: Expand of one float to
 * output_bytes / 4 of them. */
extern const char oc_output_probe[];
extern const uint64_t oc_output_probe_bytes[OC_N_OUTPUT_PROBES];
/* The networks that measure what one more kernel costs in a run and in a
 * profile: chains of oc_chain_lengths tiny kernels (Neg and Abs of 16
 * floats, alternating). */
extern const char oc_chain_probe[];
extern const size_t oc_chain_lengths[OC_N_CHAINS];
/* The networks that measure the same of the small kernels of recurrent
 * and attention networks: oc_step_lengths steps of a GRU-like update and an
 * attention read over a memory of 16 (20 kernels a step, hidden size 32). */
extern const char oc_step_probe[];
extern const size_t oc_step_lengths[OC_N_STEP_CHAINS];
/* The networks that measure what a trip of an ONNX Loop costs beyond its
 * body's kernels: a Loop of oc_loop_trips trips (a constant trip count)
 * whose body adds one to 16 floats. */
extern const char oc_loop_probe[];
extern const size_t oc_loop_trips[OC_N_LOOP_CHAINS];
extern const char *const oc_anchor_names[OC_N_ANCHORS];
extern const int64_t oc_anchor_batches[OC_N_ANCHOR_BATCHES];
/* the most inputs a whole-network run binds (a run of more is left out) */
enum { OC_ANCHOR_MAX_INPUTS = 2 };

typedef struct oc_anchor_run {
    const char *name; /* one of oc_anchor_names, another network of their
                         folder or of the set's models_dir, oc_output_probe,
                         oc_chain_probe, oc_step_probe or oc_loop_probe */
    const char *dir;  /* the folder of another network found in models_dir
                         (borrowed); NULL: the anchors' folder */
    int64_t batch, threads;
    double wall_us, spread;
    uint64_t output_bytes; /* oc_output_probe: its output's size */
    size_t kernels;        /* oc_chain_probe: its length; oc_step_probe: its steps;
                              oc_loop_probe: its trips */
    double kernel_us;      /* the probes: their kernels' profiled time */
    size_t ran_kernels;    /* the chains: the kernels ORT ran (0: not known) */
    /* the inputs' shapes when the run gives them (a reference network's
     * sequence length, ...); else batch binds the leading dims */
    int n_inputs;
    oc_input_override inputs[OC_ANCHOR_MAX_INPUTS];
    /* a network run's kernels as profiled ([{"name", "op", "median_us"}],
     * in run order: the driver's result, or the run's line in a file, as
     * scripts/measure_models.py writes it); NULL when not known.  Owned:
     * oc_anchor_runs_free releases it */
    json_t *profiled;
} oc_anchor_run;
/* Run r times a chain (of tiny kernels or of steps); a probe (a chain or
 * an output probe), not a network. */
static inline bool oc_anchor_is_chain(const oc_anchor_run *r)
{
    return r->name == oc_chain_probe || r->name == oc_step_probe || r->name == oc_loop_probe;
}
static inline bool oc_anchor_is_probe(const oc_anchor_run *r)
{
    return oc_anchor_is_chain(r) || r->name == oc_output_probe;
}
/* Run r times a curve network (oc_curve_names). */
bool oc_anchor_is_curve(const oc_anchor_run *r);
/* The sum of the kernels of the kernel chain of length n as tm predicts
 * them (no in-graph fit: each as timed alone), into *kernels_us.  Errors:
 * OC_ERR_NOMEM, and what predicting the chain fails with. */
oc_status oc_chain_predict(const oc_tmodel *tm, size_t n, double *kernels_us, oc_error *err);
/* The same of the step chain of `steps` steps, and the kernels its plan
 * runs into *n_kernels. */
oc_status oc_step_predict(const oc_tmodel *tm, size_t steps, double *kernels_us,
                          size_t *n_kernels, oc_error *err);
/* The loop chain of `trips` trips as tm predicts it whole, with the
 * overhead ov (its trip cost included), into *total_us.  Errors as
 * oc_step_predict's. */
oc_status oc_loop_predict(const oc_tmodel *tm, const oc_overhead *ov, size_t trips,
                          double *total_us, oc_error *err);
/* Release the runs' kernel lists (the runs stay, without them). */
void oc_anchor_runs_free(oc_anchor_run *r, size_t n);
/* Where the anchors' graphs are: $ONNXCOST_ANCHORS or the source tree's
 * tests/reference/models. */
const char *oc_anchor_dir(void);
/* The graph of anchor `name` into buf; 0, or -1 when it is not readable. */
int oc_anchor_path(const char *name, char *buf, size_t n);
/* The graph of the network run r timed (the anchors' folder, or r->dir)
 * into buf; 0, or -1 when it is not readable. */
int oc_anchor_run_path(const oc_anchor_run *r, char *buf, size_t n);
/* Time every anchor at every anchor batch, the output probes, the kernel
 * chains, the step chains and the loop chains, with
 * ONNX Runtime at `threads` (models with random weights made under
 * workdir/anchors); runs needs room for OC_N_ANCHOR_RUNS.  Errors: OC_ERR_IO (the
 * driver failed, its log's tail logged as DETAIL; or *abandoned: stopped),
 * OC_ERR_INPUT (an anchor network unusable). */
oc_status oc_anchors_measure(int64_t threads, const char *workdir, oc_stop_flag *stop,
                             const oc_log *lg, bool *abandoned, oc_anchor_run *runs,
                             size_t *n_runs, oc_error *err);

enum { OC_MAX_ANCHOR_RUNS = 2048 };
/* The spread between passes above which an anchor run is measured again
 * (the quiet machine's whole-model runs spread 5-7%). */
#define OC_MAX_ANCHOR_SPREAD 0.25

/* oc_anchors_measure, and the runs that spread more than
 * OC_MAX_ANCHOR_SPREAD between passes (a busy machine) measured again,
 * once, unless *stop: the steadier of the two kept.  What it does goes to
 * lg (a warning when runs stay unsteady).  Errors as oc_anchors_measure. */
oc_status oc_anchors_measure_steady(int64_t threads, const char *workdir, oc_stop_flag *stop,
                                    const oc_log *lg, bool *abandoned, oc_anchor_run *runs,
                                    size_t *n_runs, oc_error *err);

typedef struct oc_anchor_set {
    oc_anchor_run r[OC_MAX_ANCHOR_RUNS];
    char names[OC_MAX_ANCHOR_RUNS][64]; /* of networks other than the anchors */
    char input_names[OC_MAX_ANCHOR_RUNS][OC_ANCHOR_MAX_INPUTS][64];
    size_t n;
    /* set before loading: a folder of further networks' graphs (NAME.onnx),
     * searched after the anchors' own; NULL: none */
    const char *models_dir;
    /* the runs left out because no graph of their network was found (the
     * first such network's name in unknown), or because their inputs
     * cannot be bound (more than OC_ANCHOR_MAX_INPUTS, or not
     * [{"name", "shape"}]) */
    size_t n_unknown, n_unbound;
    char unknown[64];
} oc_anchor_set;

/* A whole-network run's "inputs" ([{"name", "shape": [positive ints]}];
 * absent: none) as at most cap overrides into ov, *n of them, the names
 * borrowed from the JSON; false when they are not of that form or more
 * than cap. */
bool oc_run_inputs_parse(const json_t *in, oc_input_override *ov, size_t cap, size_t *n);
/* Whether s has a run of what `want` times (the same network or probe at
 * the same batch, size and thread count). */
bool oc_anchors_has(const oc_anchor_set *s, const oc_anchor_run *want);
/* How many runs of s are at `threads`. */
size_t oc_anchor_count(const oc_anchor_set *s, int64_t threads);
/* Whether s has every run calibrate measures at `threads`: each anchor at
 * each anchor batch, each output probe, each kernel, step and loop chain. */
bool oc_anchors_complete(const oc_anchor_set *s, int64_t threads);
/* The anchor runs of a file (calibrate --anchors, or whole-model runs of
 * scripts/measure_models.py: lines {"model", "batch", "threads",
 * "wall_us": {"median"}, "inputs": [{"name", "shape"}]}, at any batch, of
 * any network whose graph is in the anchors' folder (the reference
 * networks) or in s->models_dir; the runs of others, and those whose
 * inputs cannot be bound, are counted in s->n_unknown and s->n_unbound),
 * added to s.  A missing file is an empty one. */
oc_status oc_anchors_load(const char *path, const char *machine, oc_anchor_set *s,
                          oc_error *err);
/* Release the runs' kernel lists (oc_anchor_runs_free); s stays usable. */
void oc_anchors_free(oc_anchor_set *s);
/* Append runs to `path` (one line each, whole lines at once); OC_ERR_IO. */
oc_status oc_anchors_append(const char *path, const char *machine, const oc_anchor_run *r,
                            size_t n, oc_error *err);

#endif
