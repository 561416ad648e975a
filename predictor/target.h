/*
 * target.h - choosing the target a prediction speaks for: which timing
 * model, which calibration fits it to a machine, the in-graph overheads at
 * the thread count, and the label that says whose times they are.  The
 * command and the public API (include/onnxcost.h) both choose through
 * oc_target_select; neither prints here: warnings come back as lines.
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
 * replaces the fingerprint (tests; a container that knows its host
 * better than /proc/cpuinfo does). */
void oc_this_machine(oc_machine *m);
/* $XDG_CACHE_HOME/onnxcost (else ~/.cache/onnxcost) into buf; the cache
 * file of a calibration.  0, or -1 when no cache directory is known or
 * the path does not fit. */
int oc_cache_dir(char *buf, size_t n);
int oc_calib_cache_path(const char *machine, const char *target, const char *runtime,
                        const char *mode, char *buf, size_t n);

#endif
