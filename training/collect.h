/*
 * collect.h - collection of measured single-operator times (what
 * 'onnxcost collect' runs): per family and chunk, draw samples
 * (training/sampler.h), write each as a model, analyse it, list it in a
 * manifest; run the timing driver over the manifest; check every result,
 * merge it with the sample's description (the dataset line schema,
 * docs/dataset.md) and append the chunk whole to the dataset.
 *
 * The caller fills an oc_collect (target, threads, families, dataset,
 * workdir, driver), then calls oc_collect_calibration_model once and
 * oc_collect_family per family.  Progress goes to c->log; nothing is
 * printed.
 */
#ifndef OC_TRAINING_COLLECT_H
#define OC_TRAINING_COLLECT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "predictor/dataset.h"
#include "predictor/targets.h"
#include "training/log.h"
#include "training/sampler.h"

enum { OC_COLLECT_MAX_DRIVER_ARGS = 32 };


typedef struct oc_collect {
    const char *target;
    const oc_target_entry *entry; /* its row of predictor/targets.def */
    const char *optimizer; /* torch-cpu: "sgd" or "adam"; NULL for ort-cpu */
    int64_t threads, count, chunk;
    uint64_t seed;
    int families[OC_FAM_COUNT_];
    size_t n_families;
    const char *dataset;
    char workdir[PATH_MAX];
    bool own_workdir, keep, dry_run;
    bool quiet; /* no banner, progress or summary lines (calibrate's) */
    double max_drift; /* calibration drift that triggers a re-measurement */
    char *driver_argv[OC_COLLECT_MAX_DRIVER_ARGS];
    size_t n_driver_args;
    char driver_args_str[512];
    const char *driver, *node;
    char driver_buf[PATH_MAX];
    char calib[PATH_MAX + 16];
    char cpu[256];
    char machine[64]; /* fingerprint (predictor/machine.h) */
    long cores;
    char ort_version[64];
    oc_idset done;
    const oc_log *log;  /* progress lines, and a failed driver's log tail */
    oc_stop_flag *stop; /* NULL, or polled: 1 ends after the chunk, 2 abandons it */
    bool abandoned;     /* set when a run was abandoned (OC_ERR_IO) */
    /* totals */
    uint64_t kept, dropped, skipped;
} oc_collect;

static inline bool oc_collect_is_training(const oc_collect *c)
{
    return c->entry->mode == OC_TARGET_TRAINING;
}

/* Write the calibration kernel's model (a 256x256 MatMul the driver times
 * before and after each chunk) to workdir/calib.onnx; c->calib names it. */
oc_status oc_collect_calibration_model(oc_collect *c, oc_error *err);

/* c->driver and c->node from c->entry: $ONNXCOST_COLLECTOR, else the
 * source tree's driver of the target; its interpreter $interp_env, else
 * the row's (predictor/targets.def). */
void oc_collect_use_driver(oc_collect *c);

/* Time the calibration kernel alone, in one driver run at c->threads
 * (c->workdir holds its files; c->calib made by
 * oc_collect_calibration_model): us[0] its median after the driver's
 * warm-up, us[1] a second reading, as every chunk of samples reads it
 * before and after.  Errors: those of a chunk's driver run (OC_ERR_IO). */
oc_status oc_collect_check_kernel(oc_collect *c, double us[2], oc_error *err);

/* Collect c->count samples of family `fam`, those not already in c->done,
 * chunk by chunk (re-measured while the calibration kernel drifts more
 * than c->max_drift; noisy samples once more), each chunk appended whole
 * to c->dataset (a dry run writes pending.jsonl and the manifest in the
 * chunk's folder instead).  Adds to c->kept, c->dropped, c->skipped.
 * Errors: OC_ERR_IO (the driver failed, its log's tail logged as DETAIL,
 * or c->abandoned; a bad result file; a write), OC_ERR_INPUT, OC_ERR_NOMEM. */
oc_status oc_collect_family(oc_collect *c, oc_family fam, oc_error *err);

/* The families of a comma-separated list ("all": every one) added to c's,
 * each once.  Errors: OC_ERR_USAGE (an unknown family, none given). */
oc_status oc_collect_add_families(oc_collect *c, const char *list, oc_error *err);
/* The space-separated arguments of s added to c's driver arguments (and
 * to driver_args_str, as given).  Errors: OC_ERR_USAGE (too many),
 * OC_ERR_NOMEM. */
oc_status oc_collect_add_driver_args(oc_collect *c, const char *s, oc_error *err);

#endif
