/*
 * score.h - held-out error tables: absolute percentage errors of the
 * timing model and both baselines, grouped by a key (family, op or
 * pattern) and thread count, printed as a table or JSON.  Shared by
 * 'onnxcost eval' (one model's test split) and 'onnxcost train --cv'
 * (each sample scored by the fold model that held it out).
 *
 *     cli_score *sc = cli_score_new(SCORE_BY_FAMILY, false);
 *     for each held-out sample:
 *         cli_score_add(sc, tm, &set->s[i], t, lo, hi);
 *     cli_score_print(sc);            // or json_t *a = cli_score_json(sc);
 *     cli_score_free(sc);
 */
#ifndef OC_CLI_SCORE_H
#define OC_CLI_SCORE_H

#include <jansson.h>
#include <stdbool.h>

#include "predictor/features.h"
#include "predictor/tmodel.h"

typedef enum { SCORE_BY_FAMILY, SCORE_BY_OP, SCORE_BY_PATTERN } score_by;

typedef struct cli_score cli_score;

/* keep: also keep every sample's prediction for cli_score_predictions
 * (the samples must outlive the score).  NULL when out of memory. */
cli_score *cli_score_new(score_by by, bool keep);
void cli_score_free(cli_score *sc);

/* Parse --by family|op|pattern; 0 or EXIT_USAGE (message printed). */
int cli_parse_score_by(const char *s, score_by *by);

/* Score one sample: the model's prediction t (range lo..hi) against the
 * measurement, next to tm's linear-FLOPs fit for the sample's thread
 * count and the roofline of tm's hardware profile.  False when out of
 * memory. */
bool cli_score_add(cli_score *sc, const oc_tmodel *tm, const oc_train_sample *sm,
                   double t, double lo, double hi);

/* Predict and score, with tm, the samples of s that fall in `split`
 * (an oc_split; -1: all) under tm's validation and test fractions and the
 * split shift `shift` (0 but for cross-validation folds); *n gets their
 * number.  Errors: those of oc_tmodel_predict_features, OC_ERR_NOMEM. */
oc_status cli_score_split(cli_score *sc, const oc_tmodel *tm, const oc_train_set *s,
                          int split, double shift, size_t *n, oc_error *err);

size_t cli_score_count(const cli_score *sc);

/* The table on stdout: one row per (key, threads), then "all" per thread
 * count. */
void cli_score_print(cli_score *sc);
/* The same rows as a JSON array (a new reference; NULL when out of
 * memory). */
json_t *cli_score_json(cli_score *sc);

/* The kept samples as a JSON array of {"id", "family", "pattern",
 * "threads", "time_us", "predicted_us", "low_us", "high_us"} in the order
 * added (a new reference; NULL when out of memory or not kept). */
json_t *cli_score_predictions(const cli_score *sc);

#endif
