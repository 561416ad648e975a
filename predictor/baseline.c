/* baseline.c - the linear-FLOPs baseline (roofline: features.c). */
#include "predictor/baseline.h"

#include <math.h>

oc_status oc_linear_fit(const double *x, const double *t, size_t n, oc_linear *out,
                        oc_error *err)
{
    out->a = out->b = 0;
    out->n = n;
    if (n == 0)
        return oc_error_set(err, OC_ERR_USAGE, "", "linear baseline: no samples");
    /* Two passes (means, then centred sums) keep the fit accurate when
     * FLOPs span nine orders of magnitude. */
    double mx = 0, mt = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(t[i]))
            return oc_error_set(err, OC_ERR_INPUT, "", "linear baseline: non-finite value");
        mx += x[i];
        mt += t[i];
    }
    mx /= (double)n;
    mt /= (double)n;
    double sxx = 0, sxt = 0;
    for (size_t i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxt += (x[i] - mx) * (t[i] - mt);
    }
    out->a = sxx > 0 ? sxt / sxx : 0;
    out->b = mt - out->a * mx;
    return OC_OK;
}

double oc_linear_predict(const oc_linear *m, double flops)
{
    double t = m->a * flops + m->b;
    return t > 1e-3 ? t : 1e-3;
}
