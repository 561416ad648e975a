/*
 * score.h - held-out error tables: absolute percentage errors of the
 * timing model and both baselines, grouped by a key (family, op or
 * pattern) and thread count, printed as a table or JSON.  Shared by
 * 'onnxcost eval' (one model's test split) and 'onnxcost train --cv'
 * (each sample scored by the fold model that held it out).
 *
 *     oc_score *sc = oc_score_new(OC_SCORE_BY_FAMILY, false);
 *     for each held-out sample:
 *         oc_score_add(sc, tm, &set->s[i], t, lo, hi);
 *     oc_score_table(sc, stdout);    // or json_t *a = oc_score_json(sc);
 *     oc_score_free(sc);
 */
#ifndef OC_TRAINING_SCORE_H
#define OC_TRAINING_SCORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "predictor/features.h"
#include "predictor/tmodel.h"
#include "training/log.h"

typedef enum { OC_SCORE_BY_FAMILY, OC_SCORE_BY_OP, OC_SCORE_BY_PATTERN } oc_score_by;

typedef struct oc_score oc_score;

/* keep: also keep every sample's prediction for oc_score_predictions
 * (the samples must outlive the score).  NULL when out of memory. */
oc_score *oc_score_new(oc_score_by by, bool keep);
void oc_score_free(oc_score *sc);

/* Score one sample: the model's prediction t (range lo..hi) against the
 * measurement, next to tm's linear-FLOPs fit for the sample's thread
 * count and the roofline of tm's hardware profile.  False when out of
 * memory. */
bool oc_score_add(oc_score *sc, const oc_tmodel *tm, const oc_train_sample *sm,
                   double t, double lo, double hi);

/* Predict and score, with tm, the samples of s that fall in `split`
 * (an oc_split; -1: all) under tm's validation and test fractions and the
 * split shift `shift` (0 but for cross-validation folds); *n gets their
 * number.  Errors: those of oc_tmodel_predict_features, OC_ERR_NOMEM. */
oc_status oc_score_split(oc_score *sc, const oc_tmodel *tm, const oc_train_set *s,
                          int split, double shift, size_t *n, oc_error *err);

size_t oc_score_count(const oc_score *sc);

/* The table, written to out: one row per (key, threads), then "all" per thread
 * count. */
void oc_score_table(oc_score *sc, FILE *out);
/* The same rows as a JSON array (a new reference; NULL when out of
 * memory). */
json_t *oc_score_json(oc_score *sc);

/* The kept samples as a JSON array of {"id", "family", "pattern",
 * "threads", "time_us", "predicted_us", "low_us", "high_us"} in the order
 * added (a new reference; NULL when out of memory or not kept). */
json_t *oc_score_predictions(const oc_score *sc);

/* K-fold cross-validation into sc: fold k trains with split shift k/K and
 * test fraction 1/K (o otherwise as given), and scores the samples it held
 * out.  on_fold (may be NULL) is called with ud before fold k trains; a line
 * per fold goes to log.  Errors: those of oc_tmodel_train and
 * oc_score_split. */
oc_status oc_score_cross_validate(oc_score *sc, const oc_train_set *s, const oc_hw *hws,
                                  size_t n_hws, oc_tmodel_train_opts o, int folds,
                                  void (*on_fold)(void *ud, int fold, int folds), void *ud,
                                  const oc_log *log, oc_error *err);

/* The median absolute percentage error on the validation split of s (by
 * tm's val/test fractions) of tm, of its linear-FLOPs baseline and of the
 * roofline time, in med[0..2]; *n the validation samples (0: med left as
 * it is).  Errors: OC_ERR_NOMEM, those of the prediction. */
oc_status oc_score_val(const oc_tmodel *tm, const oc_train_set *s, size_t *n, double med[3],
                       oc_error *err);

#endif
