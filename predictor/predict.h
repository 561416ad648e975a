/*
 * predict.h - the time of one node, from the timing model.
 *
 *     oc_tmodel *tm;
 *     if (oc_tmodel_load("ort-cpu.tmodel", &tm, &err) != OC_OK) ...
 *     oc_tmodel_set_threads(tm, 2, &err);       // optional; default: training's
 *     oc_node_desc d;                          // desc.h, from an analysed model
 *     oc_node_desc_from_analysis(a, node, &d, arena, &err);
 *     double us, lo, hi;
 *     if (oc_tmodel_predict_desc(tm, &d, &us, &lo, &hi, &err) != OC_OK) ...
 *     oc_tmodel_free(tm);
 *
 * The time is the ensemble's geometric mean, low/high the quickest and
 * slowest member: a spread, not a calibrated interval.  The baselines are
 * there to print next to it.
 */
#ifndef OC_PREDICTOR_PREDICT_H
#define OC_PREDICTOR_PREDICT_H

#include "predictor/tmodel.h"

/* Predicted kernel time of node d in microseconds; low_us and high_us
 * may be NULL.  Errors: OC_ERR_INPUT (a shape of the node is unknown:
 * bind symbolic dims), OC_ERR_NOMEM. */
oc_status oc_tmodel_predict_desc(const oc_tmodel *tm, const oc_node_desc *d,
                                 double *time_us, double *low_us, double *high_us,
                                 oc_error *err);

/* The two baselines for d at the model's thread count: the linear-FLOPs
 * fit (0 when the model has none) and the roofline.  Either may be NULL. */
void oc_tmodel_baselines_desc(const oc_tmodel *tm, const oc_node_desc *d,
                              double *linear_us, double *roofline_us);

#endif
