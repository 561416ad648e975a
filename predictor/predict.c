/* predict.c - one node description through the timing model. */
#include "predictor/predict.h"

oc_status oc_tmodel_predict_desc(const oc_tmodel *tm, const oc_node_desc *d,
                                 double *time_us, double *low_us, double *high_us,
                                 oc_error *err)
{
    oc_target t;
    oc_tmodel_target(tm, &t);
    float x[OC_N_FEATURES];
    oc_status st = oc_features_from_desc(d, &t, x, err);
    if (st != OC_OK)
        return st;
    return oc_tmodel_predict_features(tm, x, 1, time_us, low_us, high_us, err);
}

void oc_tmodel_baselines_desc(const oc_tmodel *tm, const oc_node_desc *d,
                              double *linear_us, double *roofline_us)
{
    oc_target t;
    oc_tmodel_target(tm, &t);
    double flops = (double)d->cost.flops;
    double bytes = (double)d->cost.bytes_read + (double)d->cost.bytes_written;
    if (linear_us) {
        const oc_linear *l = oc_tmodel_linear(tm, t.threads);
        *linear_us = l ? oc_linear_predict(l, flops) : 0;
    }
    if (roofline_us)
        *roofline_us = oc_roofline_time_us(&t, flops, bytes);
}
