/*
 * tmodel.h - the timing model: an ensemble of MLPs over the feature schema
 * of features.h, with everything needed to use it again (normalisation,
 * the hardware profile it was trained with, the baselines' coefficients,
 * the data split), and its file.
 *
 *     // training (onnxcost train)
 *     oc_train_set ts;  ... oc_train_set_load(&ts, "data/machines/cpu-AuthenticAMD-unrecorded/ort-cpu-t1.jsonl.gz", &hw, &err);
 *     oc_tmodel_train_opts o = oc_tmodel_train_defaults();
 *     oc_tmodel *tm;
 *     if (oc_tmodel_train(&ts, &hw, &o, &tm, &err) != OC_OK) ...
 *     oc_tmodel_save(tm, "ort-cpu.tmodel", &err);
 *
 *     // prediction (predict.h)
 *     oc_tmodel_load("ort-cpu.tmodel", &tm, &err);
 *     oc_tmodel_predict_desc(tm, &desc, &us, &lo, &hi, &err);
 *     oc_tmodel_free(tm);
 *
 * What the networks fit: y = (log(time_us) - base - y_mean) / y_std, with
 * MSE loss (mlp.h), where base is 0 or, by default, ln of the row's roofline
 * time (floored at 0.1 us), from standardised features (x - mean) / std of the
 * training rows (a constant column gets std 1).  The K members differ in
 * their seed only (initial weights, shuffling, dropout); the prediction is
 * the geometric mean of their times and the range their min and max.
 *
 * File (docs/timing-model.md): a 40-byte little-endian header
 *   "OCTMODEL", u32 format version, u32 feature count, u64 payload bytes,
 *   u64 compressed bytes, u32 CRC-32 of the payload, u32 0
 * then the payload compressed with zlib (compress2, level 9).  Version 5
 * ends the payload with the in-graph fit (per thread count) and the
 * coverage of the training data, so that a model file carries its own.  A file with
 * another magic, version or feature schema is refused with a one-line
 * error naming the difference.
 */
#ifndef OC_PREDICTOR_TMODEL_H
#define OC_PREDICTOR_TMODEL_H

#include "predictor/baseline.h"
#include "predictor/calib.h"
#include "predictor/features.h"
#include "predictor/mlp.h"

enum {
    OC_TMODEL_VERSION = 9, /* 2: optimizers; 3: the Huber threshold; 4: the
                              machine's fingerprint; 5: the in-graph fit and
                              the coverage; 6: the profiles of every machine
                              whose data trained it; 7: the whole-model
                              range; 8: the coverage's element types; 9: its
                              input counts (3 to 8 are still read) */
    OC_TMODEL_MAX_ENSEMBLE = 64,
    OC_TMODEL_MAX_MACHINES = 8,
    OC_TMODEL_MAX_THREADS = 16 /* distinct thread counts in one model */
};

typedef struct oc_tmodel oc_tmodel;

/* What a model was trained on and how; read-only. */
typedef struct oc_tmodel_info {
    uint32_t version;
    int n_features;
    char target[64];   /* target name of the data ("ort-cpu") */
    char runtime[96];  /* "onnxruntime-node 1.x.y" */
    char cpu[128];     /* target.cpu of the data */
    char machine[64];  /* fingerprint of the machine the data was measured
                          on (machine.h); "" when not recorded */
    oc_hw hw;          /* profile the target features were computed with */
    int n_machines;    /* >= 1: every machine whose data trained the model */
    oc_hw machines[OC_TMODEL_MAX_MACHINES]; /* their profiles; [0] is hw */
    int threads;       /* thread count predictions are made for */
    int n_thread_counts;
    int thread_counts[OC_TMODEL_MAX_THREADS]; /* seen in training */
    oc_optimizer optimizer; /* training step predictions are made for
                               (NONE: an inference target) */
    unsigned optimizers;    /* bit (1 << o) for each one seen in training */
    int n_linear;      /* one linear-FLOPs fit per thread count */
    oc_linear linear[OC_TMODEL_MAX_THREADS];
    double val_frac, test_frac;
    int ensemble;
    int n_hidden;
    int hidden[OC_MLP_MAX_LAYERS];
    int epochs, batch, patience;
    double lr, l2, dropout;
    double huber;      /* Huber threshold on ln(t); 0: squared error */
    uint64_t seed;
    uint64_t n_train, n_val, n_test;
    double val_mse;    /* members' mean validation MSE (standardised log) */
    bool roofline_base; /* the networks fit ln(t) - ln(max(roofline, 0.1 us)) */
    char created[32];  /* UTC, ISO 8601 */
} oc_tmodel_info;

typedef struct oc_tmodel_train_opts {
    oc_mlp_train_opts mlp; /* hidden, epochs, ...; mlp.seed is the base seed;
                              mlp.huber is in units of ln(t) here */
    int ensemble;          /* K >= 1 */
    double val_frac, test_frac;
    /* The splits are oc_split_of_shifted(id, val_frac, test_frac,
     * split_shift): 0 (the default) for a model to ship, k/K for fold k
     * of a cross-validation.  A file records no shift: eval reads the
     * splits of shift 0. */
    double split_shift;
    /* Fit ln(t / max(roofline_us, 0.1)) rather than ln(t): the networks
     * learn the roofline's error, a smaller and smoother function.  The
     * loss is the same MSE on ln(t) (the offset is known per row). */
    bool roofline_base;
    /* After each epoch of member `member` (0-based); nonzero stops that
     * member.  log_scale is the std of log(time_us) in training, so
     * sqrt(e->val_loss) * log_scale is the validation RMSE of ln(time).
     * May be NULL. */
    int (*progress)(void *ud, int member, int n_members, const oc_mlp_epoch *e,
                    double log_scale);
    void *ud;
} oc_tmodel_train_opts;

/* hidden 32,64,128,128,128,128, epochs 300, batch 128, lr 1e-3, l2 1e-5,
 * dropout 0, Huber 0.1 (on ln t), patience 30, seed 1, ensemble 5, val 0.1,
 * test 0.1, split shift 0, roofline_base on. */
oc_tmodel_train_opts oc_tmodel_train_defaults(void);

/* Train on the TRAIN split of s (oc_split_of), early-stopping on VAL.
 * hws (n_hws of them, at most OC_TMODEL_MAX_MACHINES) must be the
 * profiles the set's features were computed with, of every machine whose
 * data it holds; the first is the model's own (info->hw).  The
 * default prediction thread count is the smallest in the data, the default
 * optimizer the most common.
 * Errors: OC_ERR_USAGE (bad options; no training samples; more than
 * OC_TMODEL_MAX_THREADS thread counts), OC_ERR_INPUT (training diverged),
 * OC_ERR_NOMEM. */
oc_status oc_tmodel_train(const oc_train_set *s, const oc_hw *hws, size_t n_hws,
                          const oc_tmodel_train_opts *o, oc_tmodel **out,
                          oc_error *err);

/* Load / save.  Load errors: OC_ERR_IO (cannot read), OC_ERR_INPUT (not a
 * timing model, other version or schema, truncated, corrupt).  Save writes
 * atomically (temp file, fsync, rename). */
oc_status oc_tmodel_load(const char *path, oc_tmodel **out, oc_error *err);
oc_status oc_tmodel_save(const oc_tmodel *tm, const char *path, oc_error *err);
/* The file's bytes in a malloc'ed buffer the caller frees. */
oc_status oc_tmodel_to_buffer(const oc_tmodel *tm, void **data, size_t *size,
                              oc_error *err);
/* `label` names the source in error messages. */
oc_status oc_tmodel_from_buffer(const void *data, size_t size, const char *label,
                                oc_tmodel **out, oc_error *err);
/* A file's payload already inflated (what the build embeds, so that the
 * built-in model loads without zlib): the header's version and feature
 * count, then the payload bytes. */
oc_status oc_tmodel_from_payload(uint32_t version, uint32_t n_features, const void *payload,
                                 size_t size, const char *label, oc_tmodel **out,
                                 oc_error *err);
void oc_tmodel_free(oc_tmodel *tm); /* NULL accepted */

const oc_tmodel_info *oc_tmodel_get_info(const oc_tmodel *tm);
/* Member k (0 <= k < info->ensemble), for inspection and tests. */
const oc_mlp *oc_tmodel_member(const oc_tmodel *tm, int k);
/* Feature means and stds (n_features each). */
const double *oc_tmodel_means(const oc_tmodel *tm);
const double *oc_tmodel_stds(const oc_tmodel *tm);

/* Predict for another thread count (the target features change with it).
 * Errors: OC_ERR_USAGE (threads < 1). */
oc_status oc_tmodel_set_threads(oc_tmodel *tm, int threads, oc_error *err);
/* Whether the training data had samples at this thread count. */
bool oc_tmodel_has_threads(const oc_tmodel *tm, int threads);
/* Predict training steps with another update rule.  Errors: OC_ERR_USAGE
 * when the training data had no sample with that optimizer (an inference
 * model has only NONE). */
oc_status oc_tmodel_set_optimizer(oc_tmodel *tm, oc_optimizer o, oc_error *err);
/* Apply a calibration (calib.h) to every prediction from now on: the
 * kernels of a thread count it has a fit for are corrected, others are
 * not.  A copy is kept.  Errors: OC_ERR_USAGE when the calibration is of
 * another target or mode than the model; OC_ERR_NOMEM.  NULL removes it. */
oc_status oc_tmodel_set_calib(oc_tmodel *tm, const oc_calib *c, oc_error *err);

/* The NCHWc block of the CPU the plan is for (ORT's layout transform: 8
 * with AVX2, 16 with AVX-512), OC_NCHWC_NONE for a CPU without it, or 0
 * (the default): this machine's, from its ISA.  oc_tmodel_target() reports
 * the block in effect. */
enum { OC_NCHWC_NONE = -1 };
void oc_tmodel_set_nchwc_block(oc_tmodel *tm, int block);
/* The calibration applied (NULL: none), and its fit for the model's
 * current thread count (NULL: predictions at that count are uncorrected). */
const oc_calib *oc_tmodel_calib(const oc_tmodel *tm);
const oc_calib_fit *oc_tmodel_calib_fit(const oc_tmodel *tm);
/* The fingerprint a model's data came from when the file did not record
 * it (a built-in model trained before fingerprints existed). */
void oc_tmodel_set_machine(oc_tmodel *tm, const char *fingerprint);

/* The in-graph fit (bench/eval_models.py --fit-overhead): from kernels
 * timed alone to a whole graph at one thread count (estimate.h's
 * oc_overhead). */
typedef struct oc_tmodel_fit {
    int threads;
    double kernel_scale, per_kernel_us, small_kernel_us, output_us_per_mb;
    /* the whole-model range reaches at least [t * range_low, t *
     * range_high] around the prediction t: the spread of the errors on
     * architectures no fit had seen; 0: the ensemble's range alone */
    double range_low, range_high;
} oc_tmodel_fit;

/* Append src's members to dst's ensemble (src keeps none; free it as
 * usual): models trained on the same data with the same options and
 * another seed.  dst keeps its in-graph fit, coverage and calibration.
 * Errors: OC_ERR_USAGE (another schema, target, runtime, layout,
 * machines, thread counts or standardisation; more than
 * OC_TMODEL_MAX_ENSEMBLE members). */
oc_status oc_tmodel_merge(oc_tmodel *dst, oc_tmodel *src, oc_error *err);

/* Give the model the in-graph fit and coverage of an overhead file's
 * text (data/<target>-overhead.json): "threads" (per thread count:
 * kernel_scale, per_kernel_us, small_kernel_us, output_us_per_mb),
 * "range" ({"low", "high"}: oc_tmodel_fit's range, every thread count),
 * "measured_ops" (per operator the timing model describes a kernel as,
 * desc.h: its samples, the range of log10(1 + FLOPs + bytes read +
 * bytes written), the element types of their first input and the most
 * inputs one had, scripts/coverage.py), and "machine" (taken when the
 * model records none).  Saved with the model (format 5).  `source` names
 * the file in messages and in oc_tmodel_fit_source.
 * Errors: OC_ERR_INPUT (not JSON, a malformed entry), OC_ERR_NOMEM. */
oc_status oc_tmodel_set_fit(oc_tmodel *tm, const char *json, const char *source,
                            oc_error *err);
/* dst's fit and coverage replaced by src's.  Errors: OC_ERR_NOMEM. */
oc_status oc_tmodel_copy_fit(oc_tmodel *dst, const oc_tmodel *src, oc_error *err);
/* The fit for `threads`, else the nearest thread count's; false when the
 * model has none (a file of format 3 or 4, or trained without one). */
bool oc_tmodel_fit_at(const oc_tmodel *tm, int threads, oc_tmodel_fit *out);
/* Where the fit came from ("ort-cpu-overhead.json (fitted on ...)"),
 * NULL when the model has neither fit nor coverage. */
const char *oc_tmodel_fit_source(const oc_tmodel *tm);
/* Whether coverage is known. */
bool oc_tmodel_has_coverage(const oc_tmodel *tm);
/* Why a prediction for kernel description d lies outside the training
 * data, written into buf: "no sample of OP in the timing model's data",
 * "no sample of OP on int64 in the timing model's data" (its first input's
 * element type, where the coverage records them), "OP of 250 inputs: its
 * samples have at most 4" (present inputs, where the coverage records
 * them), "OP: 25x the work of the largest sample" (more than 10x), or "no
 * sample at 4 threads" (a thread count the model never learned), in that
 * order.  NULL when inside; with coverage unknown, only the thread count
 * is asked. */
#define OC_TMODEL_NO_SAMPLE "no sample of "
#define OC_TMODEL_IN_DATA " in the timing model's data"
const char *oc_tmodel_outside(const oc_tmodel *tm, const oc_node_desc *d, char *buf,
                              size_t size);
/* The thread-count part of that: "no sample at 4 threads" (it starts with
 * OC_TMODEL_NO_THREADS) when tm never learned the count it is set to, in
 * buf; NULL when it did. */
#define OC_TMODEL_NO_THREADS "no sample at "
const char *oc_tmodel_threads_outside(const oc_tmodel *tm, char *buf, size_t size);
/* Whether the training data has samples of operator op (its first len
 * characters); true when coverage is unknown. */
bool oc_tmodel_measured_op(const oc_tmodel *tm, const char *op, size_t len);

/* The target descriptor predictions use (hw figures at info->threads):
 * those of the calibration's machine when the model was trained on that
 * machine's data too; without a calibration, those of the machine named
 * by oc_tmodel_speak_for; else the model's own (info->hw). */
void oc_tmodel_target(const oc_tmodel *tm, oc_target *out);

/* Whether machine `fingerprint`'s samples trained the model. */
bool oc_tmodel_trained_on(const oc_tmodel *tm, const char *fingerprint);

/* Predict, when no calibration is set, for machine `fingerprint`, one the
 * model was trained on (oc_tmodel_trained_on): its profile's hardware
 * figures; NULL or another machine: the model's own. */
void oc_tmodel_speak_for(oc_tmodel *tm, const char *fingerprint);

/* The profile of machine `fingerprint` among those whose data trained the
 * model, else info->hw. */
const oc_hw *oc_tmodel_hw_for(const oc_tmodel *tm, const char *fingerprint);

/* Times in microseconds for n raw feature rows (x: n x OC_N_FEATURES, as
 * oc_features_from_desc computes them); low/high may be NULL.
 * Errors: OC_ERR_NOMEM. */
oc_status oc_tmodel_predict_features(const oc_tmodel *tm, const float *x, size_t n,
                                     double *time_us, double *low_us, double *high_us,
                                     oc_error *err);

/* The linear-FLOPs fit for a thread count: the exact one, else the one
 * nearest (NULL when the model has none). */
const oc_linear *oc_tmodel_linear(const oc_tmodel *tm, int threads);

#endif
