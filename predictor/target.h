/*
 * target.h - choosing the target a prediction speaks for: which timing
 * model, which calibration fits it to a machine, the in-graph overheads at
 * the thread count, and the label that says whose times they are.
 *
 * Every kind of target --target names is one value (oc_target_value),
 * opened by one function (oc_target_open): a built-in target ("ort-cpu"),
 * a shipped calibration ("ort-cpu@FINGERPRINT"), a calibration file, or a
 * timing-model file.  oc_target_select opens it and readies it for a
 * prediction (predict, sweep, annotate, report and the public API,
 * include/onnxcost.h); 'onnxcost targets' opens each one it lists.
 * Nothing prints here: warnings come back as lines.
 */
#ifndef OC_PREDICTOR_TARGET_H
#define OC_PREDICTOR_TARGET_H

#include "predictor/estimate.h"
#include "predictor/machine.h"
#include "predictor/targets.h"
#include "predictor/tmodel.h"

enum { OC_TARGET_MAX_WARNINGS = 6 };

typedef struct oc_target_sel {
    char label[192];   /* "calibrated on this machine (...), 2026-12-03", "measured on ..." */
    char machine[64];  /* the fingerprint the predictions are for ("" unknown) */
    char source[4160]; /* the calibration's file or name; "" without one */
    bool calibrated;   /* a calibration's fit applies at this thread count */
    bool this_machine; /* machine is this machine's fingerprint */
    /* No calibration of this machine or its kind: the shipped one of the
     * measured machine nearest it (oc_calib_nearest_builtin) is used. */
    bool nearest;
    /* On failure: the error came from reading a file the caller named (a
     * timing model or a calibration), not from the library's own data. */
    bool load_error;
    /* One line each, no "warning:" prefix, in the order they arose: a
     * cached calibration ignored, a calibration of another base model, a
     * thread count the model was not trained at, no fit at this thread
     * count, predictions for another machine than this one. */
    size_t n_warnings;
    char warnings[OC_TARGET_MAX_WARNINGS][1024];
} oc_target_sel;

/* What a target is made of. */
typedef enum oc_target_kind {
    OC_TARGET_KIND_BUILTIN,     /* "ort-cpu": a built-in timing model */
    OC_TARGET_KIND_SHIPPED,     /* "ort-cpu@FINGERPRINT": a calibration the project ships */
    OC_TARGET_KIND_CALIBRATION, /* a calibration file ('onnxcost calibrate') */
    OC_TARGET_KIND_MODEL_FILE   /* a timing-model file ('onnxcost train') */
} oc_target_kind;

/* A target, opened: what it is and what it predicts with. */
typedef struct oc_target_value {
    oc_target_kind kind;
    char name[4160];              /* as named: "ort-cpu", "ort-cpu@FP", the file */
    char target[64];              /* the target it predicts for: "ort-cpu" */
    const oc_target_entry *entry; /* its row (targets.def); NULL: a target no row has */
    oc_target_mode mode;          /* what its timing model predicts */
    char runtime[96];             /* the calibration's when there is one, else the model's */
    char machine[64];             /* the fingerprint its times are of ("" unrecorded) */
    char created[32];             /* the calibration's date, else the model's */
    char source[4160];            /* the calibration: its file or "built-in NAME@FP"; "" none */
    char base[4096];              /* the timing-model file it predicts with; "" built-in */
    bool has_calib;
    oc_calib calib; /* the calibration, when has_calib (not yet applied to tm) */
    oc_tmodel *tm;  /* the timing model (the calibration's base); oc_target_close frees it */
    bool load_error; /* on failure: reading a file the caller named failed */
    size_t n_warnings; /* one line each, no "warning:" prefix */
    char warnings[OC_TARGET_MAX_WARNINGS][1024];
} oc_target_value;

/* Any mode: oc_target_open takes the target for what it is. */
#define OC_TARGET_ANY_MODE (-1)

/* Open the target `spec` names (NULL: the built-in target of `mode`, no
 * calibration yet: oc_target_select looks for one) into *t: a built-in
 * name, NAME@FINGERPRINT (a shipped calibration), or a file: a calibration
 * (JSON; its base.path, when set, names the timing model it fits) or a
 * timing model.  mode is OC_TARGET_INFERENCE or OC_TARGET_TRAINING (a
 * target of the other mode is OC_ERR_USAGE) or OC_TARGET_ANY_MODE.  On
 * success the caller frees t->tm with oc_target_close.  Errors:
 * OC_ERR_USAGE (an unknown name, the other mode), those of loading the
 * calibration or the timing model (t->load_error when it is a file the
 * caller named). */
oc_status oc_target_open(const char *spec, int mode, oc_target_value *t, oc_error *err);
void oc_target_close(oc_target_value *t);

/* Choose the target of a prediction.  `spec` is NULL (the built-in model
 * of the mode: ort-cpu for inference, torch-cpu for training steps, with
 * this machine's cached calibration when 'onnxcost calibrate' made one,
 * else a shipped one of this machine's fingerprint), a built-in name
 * ("ort-cpu"), a shipped calibration ("ort-cpu@FINGERPRINT"), or a file: a
 * timing model or a calibration (JSON; its base.path, when set, names the
 * timing model it fits).  `optimizer` OC_OPT_NONE predicts inference, any
 * other a training step with it; threads 0 keeps the model's own.  On
 * success *tm (the caller frees it with oc_tmodel_free) is set to the
 * threads, the optimizer and the calibration, *ov holds its in-graph fit
 * at that thread count, and *sel says whose times they are.  A model or a
 * calibration of the other mode, or an unknown name, is OC_ERR_USAGE.
 * *sel's warnings are filled on failure too. */
oc_status oc_target_select(const char *spec, int threads, oc_optimizer optimizer,
                           oc_tmodel **tm, oc_overhead *ov, oc_target_sel *sel,
                           oc_error *err);

/* A model of file format 3 or 4 carries no in-graph fit or coverage:
 * when it is a built-in model (same target, same creation stamp) it gets
 * the built-in's.  *fitted says whether the model has its own or got
 * them.  Errors: OC_ERR_NOMEM. */
oc_status oc_tmodel_fit_legacy(oc_tmodel *tm, bool *fitted, oc_error *err);

/* This machine (predictor/machine.h); $ONNXCOST_MACHINE, when set,
 * replaces the fingerprint, and $ONNXCOST_ISA ("avx2 fma") the ISA
 * features (tests; a container that knows its host better than
 * /proc/cpuinfo does). */
void oc_this_machine(oc_machine *m);
/* The shipped calibration of `target` ("ort-cpu") and `mode`
 * ("inference") whose machine is nearest `here`, into *out: one with
 * ONNX Runtime's NCHWc block of this machine (the same MLAS code paths),
 * then the fewest ISA features apart, then the same vendor, then the same
 * number of cores.  0, or -1 when no shipped calibration has this
 * machine's block. */
int oc_calib_nearest_builtin(const oc_machine *here, const char *target, const char *mode,
                             oc_calib *out);
/* $XDG_CACHE_HOME/onnxcost (else ~/.cache/onnxcost) into buf; the cache
 * file of a calibration.  0, or -1 when no cache directory is known or
 * the path does not fit. */
int oc_cache_dir(char *buf, size_t n);
int oc_calib_cache_path(const char *machine, const char *target, const char *runtime,
                        const char *mode, char *buf, size_t n);

#endif
