/*
 * baseline.h - the two models the timing model is compared against.
 *
 *   linear FLOPs  time_us = a * flops + b, fitted by ordinary least squares
 *                 on the training samples of one thread count (the
 *                 baseline of the paper: run time proportional to work).
 *   roofline      time_us = max(flops / peak, bytes / bandwidth) with the
 *                 target's measured sgemm peak and copy bandwidth; no
 *                 fitted parameters (oc_roofline_time_us in features.h).
 */
#ifndef OC_PREDICTOR_BASELINE_H
#define OC_PREDICTOR_BASELINE_H

#include "onnx/common.h"

typedef struct oc_linear {
    int threads;  /* the thread count it was fitted for */
    double a;     /* microseconds per FLOP */
    double b;     /* microseconds */
    size_t n;     /* samples fitted */
} oc_linear;

/* Least-squares fit of t = a*x + b over n points (x = FLOPs, t = us).
 * With n == 1 or all x equal, a = 0 and b = mean(t).
 * Errors: OC_ERR_USAGE (n == 0), OC_ERR_INPUT (a non-finite value). */
oc_status oc_linear_fit(const double *x, const double *t, size_t n, oc_linear *out,
                        oc_error *err);

/* a*flops + b, floored at 1e-3 us so that a percentage error stays
 * defined (a negative intercept can predict a negative time). */
double oc_linear_predict(const oc_linear *m, double flops);

#endif
