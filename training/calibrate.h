/*
 * calibrate.h - the fits of 'onnxcost calibrate' beyond predictor/calib.c:
 * the base timing model it corrects, and the in-graph scale and output
 * cost at one thread count from the whole-network runs (anchors.h).
 */
#ifndef OC_TRAINING_CALIBRATE_H
#define OC_TRAINING_CALIBRATE_H

#include "predictor/calib.h"
#include "predictor/tmodel.h"
#include "training/anchors.h"
#include "training/log.h"

struct oc_load_opts;

/* The base model: the file `path` (a file of format 3 or 4 with the
 * built-in's in-graph fit when it is the built-in model), else (path
 * NULL) the built-in model of `target`. */
oc_status oc_calib_load_base(const char *path, const char *target, oc_tmodel **tm,
                             oc_error *err);

/* What cal's machine does beside its kernels, stored in every fit of cal:
 * for inference (cal->mode) the rate at which it streams a graph's weights
 * (stream_gbps), for training steps what its fresh pages cost at the fit's
 * thread count (fault_us_per_mb; 0 from a profile that lacks it).  From
 * the hardware profile at hw_path ('onnxcost hw -o FILE'; it must be of
 * cal's machine), else (hw_path NULL) measured now when `measure` and cal
 * is of this machine (`here`), else left unknown (*unknown set).  Errors:
 * OC_ERR_IO (the file unreadable), OC_ERR_INPUT (not a hardware profile,
 * or another machine's). */
oc_status oc_calib_set_hw(oc_calib *cal, const char *hw_path, bool measure, const char *here,
                          bool *unknown, oc_error *err);

/* The in-graph scale and the output cost of cal's fit at `threads` from
 * the anchor runs there (none: nothing to do), each network predicted by
 * the base model with cal applied; and the form of the correction
 * (calib.h) whose networks then come out best.  Errors: those of loading the base
 * model and the anchor networks (OC_ERR_INPUT), of the fits. */
oc_status oc_calib_fit_anchors(const char *base_path, oc_calib *cal, const char *target,
                               int64_t threads, const oc_anchor_set *as, oc_error *err);

/* What calibrate fits a thread count on besides the probe's samples. */
typedef struct oc_calib_probe_opts {
    bool training;          /* only the probe's samples of `optimizer` count */
    oc_optimizer optimizer;
    const char *const *profiles; /* MODEL=PROFILE.json: an ONNX Runtime profile of
                                  * MODEL at batch 1, its kernels joining the probe's */
    size_t n_profiles;
    int64_t profile_threads; /* the intra-op threads the profiles ran with */
    const struct oc_load_opts *load; /* how the profiles' models load (NULL: defaults) */
} oc_calib_probe_opts;

/* cal's fit at `threads` from the probe samples of s at that count (and
 * the profiles' kernels when they ran at that count), each predicted by
 * base (set to `threads`).  A line per profile goes to log.  Errors:
 * OC_ERR_NOMEM; OC_ERR_INPUT (a profile's model unreadable or not
 * analysable, a profile not matching, no samples to fit: the message says
 * so); those of the prediction. */
oc_status oc_calib_fit_probe(oc_calib *cal, oc_tmodel *base, const oc_train_set *s,
                             int64_t threads, const oc_calib_probe_opts *o, const oc_log *log,
                             oc_error *err);

/* The probe's check kernel (calib_us of its samples at `probe`: a 256^3
 * MatMul timed before and after each chunk), its median per thread count,
 * into cal's fits (check_us; left 0 when the probe cannot be read). */
void oc_calib_probe_check(const char *probe, oc_calib *cal);

/* Whether the runtime the probe needs runs here (ONNX Runtime for
 * inference, PyTorch for training; ONNXCOST_NODE, ONNXCOST_PYTHON and
 * ONNXCOST_COLLECTOR as the drivers read them).  Errors: OC_ERR_IO with a
 * line naming what is missing and how to install it. */
oc_status oc_calib_check_runtime(bool training, oc_error *err);

/* cal's check kernel against the one of a calibration the project ships
 * for the same machine kind, target and mode, per thread count both have:
 * up to cap in out (in order), how many returned. */
typedef struct oc_calib_check {
    int threads;
    double here_us, ref_us;
    const char *ref_path; /* the shipped calibration's */
} oc_calib_check;
size_t oc_calib_compare_shipped(const oc_calib *cal, oc_calib_check *out, size_t cap);

/* ---- the probe: what calibrate measures, sized by its time budget ---- */

/* Seconds to time the anchor networks at one thread count (three networks
 * at batch 1 and 4, the chains and probes, and the twelve curve networks
 * at batch 1, 4 and 16; two passes of five: about 27 s on
 * cpu-GenuineIntel-f6-m167, most of it loading the curve networks). */
#define OC_CALIB_ANCHOR_SECONDS 30.0

/* The probe's sampler families and their weights: samples per family per
 * unit of budget (convolutions and matrix products carry most of a
 * network's time); ort_only ones are not probed in training mode. */
typedef struct oc_calib_probe_family {
    const char *name;
    int weight;
    bool ort_only;
} oc_calib_probe_family;
enum { OC_CALIB_N_PROBE_FAMILIES = 20 };
extern const oc_calib_probe_family oc_calib_probe_families[OC_CALIB_N_PROBE_FAMILIES];

/* Seconds to measure n probe samples of one family (a driver start, two
 * check kernels and the samples). */
double oc_calib_family_seconds(bool training, int n);

/* The probe's units per thread count (*units, at least 1; a family gets
 * units * weight samples) and *weights (the weights summed) for `budget`
 * seconds over n_threads thread counts, the anchors timed too when
 * `anchors`; returns the seconds it should take. */
double oc_calib_probe_plan(double budget, size_t n_threads, bool training, bool anchors,
                           int *units, int *weights);

/* The in-graph scale of a training calibration's fit at `threads` from
 * whole training steps timed with freed memory kept, so without their page
 * faults: lines of scripts/measure_training.py --malloc retain ({"model",
 * "batch", "threads", "optimizer", "step_us": {"best_pass_median"},
 * "malloc": "retain"}) whose network's training graph is in
 * tests/reference/train ($ONNXCOST_TRAIN_ANCHORS); lines of other thread
 * counts, of glibc's default allocator or of other networks are skipped.
 * Each step is predicted by the base model with cal applied; the scale
 * minimises their squared relative error (oc_calib_fit_in_graph, at most
 * OC_MAX_STEP_ANCHORS steps).  *n_used: the steps fitted on (none: the fit
 * keeps the base model's scale).  Errors: OC_ERR_IO (the file unreadable),
 * OC_ERR_INPUT (a line that is not JSON, or whose network's graph does not
 * load: the file and line named), those of loading the base. */
enum { OC_MAX_STEP_ANCHORS = 1024 };
oc_status oc_calib_fit_step_anchors(const char *base_path, oc_calib *cal, const char *target,
                                    int64_t threads, const char *path, size_t *n_used,
                                    oc_error *err);

#endif
