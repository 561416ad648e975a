/* calib.c - fitting, applying and storing a calibration (see calib.h). */
#include "predictor/calib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "onnx/model.h"
#include "predictor/estimate.h"

/* Ridge strengths, in units of probe rows: the slopes of every fit are
 * pulled towards 0 (global) or the global slopes (per group) with weight
 * SLOPE_RIDGE * n; a group's intercept towards the global one as if
 * GROUP_PRIOR rows sat there.  Chosen on the 915 operator samples of
 * ../shared/machines (probe subsets of 5-12 per family scored on the
 * rest), not on any whole model. */
#define SLOPE_RIDGE 0.3
#define GROUP_PRIOR 3.0
/* A correction never scales a kernel by more than e^3 either way, and a
 * covariate never reaches beyond 3 probe standard deviations. */
#define MAX_EXPONENT 3.0
#define MAX_Z 3.0

static const char *const group_names[OC_CALIB_GROUPS] = {
#define XX(id, name) name,
    OC_OP_FAMILY_LIST(XX)
#undef XX
    "conv_depthwise",
    "quantized",
};

static const char *const form_names[OC_CALIB_FORMS] = {
#define XX(id, name) name,
    OC_CALIB_FORM_LIST(XX)
#undef XX
};

const char *oc_calib_form_name(int form)
{
    return form >= 0 && form < OC_CALIB_FORMS ? form_names[form] : "?";
}

const char *oc_calib_group_name(int g)
{
    return g >= 0 && g < OC_CALIB_GROUPS ? group_names[g] : "?";
}

int oc_calib_group_of(const float *x)
{
    int fam = OC_OPF_OTHER;
    for (int f = 0; f < OC_OPF_COUNT; f++)
        if (x[OC_F_FAM_CONV + f] > 0.5f) {
            fam = f;
            break;
        }
    /* one-byte operands of a computing op: an integer kernel */
    bool computes = fam != OC_OPF_DATA_MOVEMENT && fam != OC_OPF_OTHER &&
                    fam != OC_OPF_REDUCE && fam != OC_OPF_NORM && fam != OC_OPF_SOFTMAX;
    if (computes && x[OC_F_DTYPE_BYTES] > 0.5f && x[OC_F_DTYPE_BYTES] < 1.5f)
        return OC_CALIB_QUANTIZED;
    if (fam == OC_OPF_CONV && x[OC_F_DEPTHWISE] > 0.5f)
        return OC_CALIB_DEPTHWISE;
    return fam;
}

static void covariates(const oc_calib_fit *f, const float *x, double pred_us, double a[3])
{
    double z[2] = {x[OC_F_LOG_INTENSITY], log(pred_us > 1e-3 ? pred_us : 1e-3)};
    a[0] = 1;
    for (int k = 0; k < 2; k++) {
        double v = (z[k] - f->mu[k]) / f->sd[k];
        a[k + 1] = v > MAX_Z ? MAX_Z : v < -MAX_Z ? -MAX_Z : v;
    }
}

static double exponent(const double w[3], const double a[3])
{
    double e = w[0] * a[0] + w[1] * a[1] + w[2] * a[2];
    return e > MAX_EXPONENT ? MAX_EXPONENT : e < -MAX_EXPONENT ? -MAX_EXPONENT : e;
}

double oc_calib_factor(const oc_calib_fit *f, const float *x, double pred_us)
{
    double a[3];
    covariates(f, x, pred_us, a);
    return exp(exponent(f->w[oc_calib_group_of(x)], a));
}

/* Solve the 3x3 system A w = b (A symmetric positive definite once the
 * ridge is added) by Gaussian elimination with partial pivoting. */
static void solve3(double A[3][3], double b[3], double w[3])
{
    for (int c = 0; c < 3; c++) {
        int p = c;
        for (int r = c + 1; r < 3; r++)
            if (fabs(A[r][c]) > fabs(A[p][c]))
                p = r;
        for (int k = 0; k < 3; k++) {
            double t = A[c][k];
            A[c][k] = A[p][k];
            A[p][k] = t;
        }
        double t = b[c];
        b[c] = b[p];
        b[p] = t;
        for (int r = c + 1; r < 3; r++) {
            double m = A[c][c] != 0 ? A[r][c] / A[c][c] : 0;
            for (int k = c; k < 3; k++)
                A[r][k] -= m * A[c][k];
            b[r] -= m * b[c];
        }
    }
    for (int c = 2; c >= 0; c--) {
        double s = b[c];
        for (int k = c + 1; k < 3; k++)
            s -= A[c][k] * w[k];
        w[c] = A[c][c] != 0 ? s / A[c][c] : 0;
    }
}

/* Ridge fit of r = w . a over the rows of group g (all rows when g < 0),
 * towards prior[] (slopes with weight SLOPE_RIDGE * n, the intercept with
 * weight `k0`), skipping row `skip`; with slopes false the intercept
 * alone (the slopes 0). */
typedef struct fit_row {
    int group;
    double a[3], r;
} fit_row;

static void ridge(const fit_row *rows, size_t n, int g, size_t skip, bool slopes,
                  const double prior[3], double k0, double w[3])
{
    double A[3][3] = {{0}}, b[3] = {0};
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == skip || (g >= 0 && rows[i].group != g))
            continue;
        m++;
        for (int p = 0; p < 3; p++) {
            b[p] += rows[i].a[p] * rows[i].r;
            for (int q = 0; q < 3; q++)
                A[p][q] += rows[i].a[p] * rows[i].a[q];
        }
    }
    if (!slopes) {
        w[0] = (b[0] + k0 * prior[0]) / (A[0][0] + k0);
        w[1] = w[2] = 0;
        return;
    }
    double lam = SLOPE_RIDGE * (double)(m ? m : 1);
    double k[3] = {k0, lam, lam};
    for (int p = 0; p < 3; p++) {
        A[p][p] += k[p];
        b[p] += k[p] * prior[p];
    }
    solve3(A, b, w);
}

/* Every group's weights of `form` (SIZE or SCALE) from rows (skipping
 * `skip`) into f->w. */
static void fit_all(oc_calib_fit *f, int form, const fit_row *rows, size_t n, size_t skip)
{
    static const double zero[3] = {0, 0, 0};
    bool slopes = form == OC_CALIB_SIZE;
    ridge(rows, n, -1, skip, slopes, zero, 1e-6, f->global);
    for (int g = 0; g < OC_CALIB_GROUPS; g++)
        ridge(rows, n, g, skip, slopes, f->global, GROUP_PRIOR, f->w[g]);
}

void oc_calib_use_form(oc_calib_fit *f, int form)
{
    f->form = form;
    memcpy(f->w, f->form_w[form], sizeof f->w);
    memcpy(f->global, f->form_global[form], sizeof f->global);
    f->err_after = f->form_err[form];
    f->residual = f->form_residual[form];
}

static void utc_now(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void oc_calib_init(oc_calib *c, const oc_machine *machine, const char *target,
                   const char *runtime, const char *mode, const char *base_machine,
                   const char *base_created)
{
    memset(c, 0, sizeof *c);
    c->version = OC_CALIB_VERSION;
    c->machine = *machine;
    snprintf(c->target, sizeof c->target, "%s", target ? target : "");
    snprintf(c->runtime, sizeof c->runtime, "%s", runtime ? runtime : "");
    snprintf(c->mode, sizeof c->mode, "%s", mode ? mode : "inference");
    snprintf(c->base_machine, sizeof c->base_machine, "%s", base_machine ? base_machine : "");
    snprintf(c->base_created, sizeof c->base_created, "%s", base_created ? base_created : "");
    utc_now(c->created, sizeof c->created);
}

oc_status oc_calib_fit_threads(oc_calib *c, int threads, const oc_calib_row *rows, size_t n,
                               double kernel_scale, double per_kernel_us, oc_error *err)
{
    if (n < 8)
        return oc_error_set(err, OC_ERR_USAGE, NULL,
                            "%zu probe kernels at %d threads: a calibration needs at least 8",
                            n, threads);
    for (size_t i = 0; i < n; i++)
        if (!(rows[i].pred_us > 0) || !(rows[i].meas_us > 0))
            return oc_error_set(err, OC_ERR_USAGE, NULL, "probe kernel %zu has no time", i);
    oc_calib_fit *f = NULL;
    for (int i = 0; i < c->n_fits; i++)
        if (c->fits[i].threads == threads)
            f = &c->fits[i];
    if (!f && c->n_fits >= OC_CALIB_MAX_THREADS)
        return oc_error_set(err, OC_ERR_USAGE, NULL, "more than %d thread counts",
                            OC_CALIB_MAX_THREADS);
    fit_row *fr = malloc(n * sizeof *fr);
    double *e = malloc(n * sizeof *e);
    if (!fr || !e) {
        free(fr);
        free(e);
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    }
    if (!f)
        f = &c->fits[c->n_fits++];
    memset(f, 0, sizeof *f);
    f->threads = threads;
    f->n = (int)n;
    f->kernel_scale = kernel_scale > 0 ? kernel_scale : 1;
    f->per_kernel_us = per_kernel_us;
    /* Standardise the covariates over the probe. */
    double s[2] = {0, 0}, ss[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        double z[2] = {rows[i].x[OC_F_LOG_INTENSITY], log(rows[i].pred_us)};
        for (int k = 0; k < 2; k++) {
            s[k] += z[k];
            ss[k] += z[k] * z[k];
        }
    }
    for (int k = 0; k < 2; k++) {
        f->mu[k] = s[k] / (double)n;
        double var = ss[k] / (double)n - f->mu[k] * f->mu[k];
        f->sd[k] = var > 1e-12 ? sqrt(var) : 1;
    }
    for (size_t i = 0; i < n; i++) {
        fr[i].group = oc_calib_group_of(rows[i].x);
        covariates(f, rows[i].x, rows[i].pred_us, fr[i].a);
        fr[i].r = log(rows[i].meas_us / rows[i].pred_us);
        f->n_group[fr[i].group]++;
        e[i] = fabs(rows[i].pred_us - rows[i].meas_us) / rows[i].meas_us;
    }
    f->err_before = oc_median(e, n);
    /* Each form: leave-one-out (each probe kernel predicted by the fit
     * without it), then the fit on all, and its residual spread. */
    for (int form = 0; form < OC_CALIB_FORMS; form++) {
        if (form != OC_CALIB_NONE) {
            for (size_t i = 0; i < n; i++) {
                fit_all(f, form, fr, n, i);
                double p = rows[i].pred_us * exp(exponent(f->w[fr[i].group], fr[i].a));
                e[i] = fabs(p - rows[i].meas_us) / rows[i].meas_us;
            }
            f->form_err[form] = oc_median(e, n);
            fit_all(f, form, fr, n, (size_t)-1);
        } else {
            memset(f->w, 0, sizeof f->w);
            memset(f->global, 0, sizeof f->global);
            f->form_err[form] = f->err_before;
        }
        memcpy(f->form_w[form], f->w, sizeof f->w);
        memcpy(f->form_global[form], f->global, sizeof f->global);
        for (size_t i = 0; i < n; i++)
            e[i] = fabs(fr[i].r - exponent(f->w[fr[i].group], fr[i].a));
        f->form_residual[form] = oc_median(e, n);
    }
    /* Size, unless it does not beat the model left alone on the kernels it
     * was not fitted on (a model trained on this machine's data too): then
     * none.  The probe does not choose the scale form: on lone kernels it
     * and the size form score within a fraction of a point, and only whole
     * networks (oc_calib_fit_anchors) tell them apart. */
    oc_calib_use_form(f, f->form_err[OC_CALIB_SIZE] < f->form_err[OC_CALIB_NONE]
                             ? OC_CALIB_SIZE
                             : OC_CALIB_NONE);
    free(fr);
    free(e);
    return OC_OK;
}

/* The scale minimising sum(((s k + p n - m) / m)^2) over the anchors not
 * named `skip` (NULL: none); 0 when none is left. */
static double in_graph_scale(const oc_calib_anchor *a, size_t n, double per_kernel_us,
                             const char *skip)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        if (skip && !strcmp(a[i].name, skip))
            continue;
        double k = a[i].kernels_us / a[i].meas_us;
        num += k * (1 - per_kernel_us * (double)a[i].kernels / a[i].meas_us);
        den += k * k;
    }
    if (!(den > 0))
        return 0;
    double sc = num / den;
    return sc < 0.25 ? 0.25 : sc > 4 ? 4 : sc;
}

oc_status oc_calib_fit_in_graph(oc_calib_fit *f, const oc_calib_anchor *a, size_t n,
                                oc_error *err)
{
    if (!n)
        return oc_error_set(err, OC_ERR_USAGE, NULL, "no whole network to fit the scale on");
    for (size_t i = 0; i < n; i++)
        if (!(a[i].kernels_us > 0) || !(a[i].meas_us > 0) || !a[i].name)
            return oc_error_set(err, OC_ERR_USAGE, NULL, "network %zu has no time", i);
    double before = 0, after = 0;
    for (size_t i = 0; i < n; i++) {
        double ov = f->per_kernel_us * (double)a[i].kernels;
        before += fabs(f->kernel_scale * a[i].kernels_us + ov - a[i].meas_us) / a[i].meas_us;
        double loo = in_graph_scale(a, n, f->per_kernel_us, a[i].name);
        if (!(loo > 0))
            loo = f->kernel_scale; /* one network: nothing else to fit on */
        after += fabs(loo * a[i].kernels_us + ov - a[i].meas_us) / a[i].meas_us;
    }
    f->base_kernel_scale = f->kernel_scale;
    f->kernel_scale = in_graph_scale(a, n, f->per_kernel_us, NULL);
    f->n_anchors = (int)n;
    f->anchor_err_before = before / (double)n;
    f->anchor_err_after = after / (double)n;
    return OC_OK;
}

void oc_calib_group_sum_add(oc_calib_group_sum *s, const double *meas, const double *pred,
                            const size_t *n, double all_pred_us)
{
    for (int g = 0; g < OC_CALIB_GROUPS; g++) {
        if (!n[g] || !(meas[g] > 0) || !(pred[g] > 0))
            continue;
        s[g].meas_us += meas[g];
        s[g].pred_us += pred[g];
        s[g].n += n[g];
        double w = all_pred_us > 0 ? pred[g] / all_pred_us : 0;
        s[g].log_ratio_w += w * log(meas[g] / pred[g]);
        s[g].w += w;
    }
}

void oc_calib_fit_in_graph_groups(oc_calib_fit *f, const oc_calib_group_sum *s)
{
    double all = 0;
    for (int g = 0; g < OC_CALIB_GROUPS; g++)
        all += s[g].meas_us;
    for (int g = 0; g < OC_CALIB_GROUPS; g++) {
        double r = s[g].w > 0 ? exp(s[g].log_ratio_w / s[g].w) : 0;
        bool enough = s[g].n >= 20 && s[g].meas_us >= 0.02 * all && r > 0;
        f->in_graph[g] = !enough ? 0 : r < 0.5 ? 0.5 : r > 2 ? 2 : r;
    }
}

double oc_calib_in_graph_factor(const oc_calib_fit *f, int g)
{
    return f && g >= 0 && g < OC_CALIB_GROUPS && f->in_graph[g] > 0 ? f->in_graph[g] : 1;
}

/* Least-squares slope of y over x; 0 when x does not vary. */
static double slope(const double *x, const double *y, size_t n)
{
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= (double)n;
    my /= (double)n;
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
    }
    return sxx > 0 ? sxy / sxx : 0;
}

enum { MAX_CHAINS = 64 };

/* The slopes over the kernel count of n chains' wall (*sw), profiled (*sp)
 * and predicted (*sq; 0 unless every chain was predicted) times, each
 * clamped at 0; `what` names the chains in errors. */
static oc_status chain_slopes(const oc_calib_chain *c, size_t n, const char *what, double *sw,
                              double *sp, double *sq, oc_error *err)
{
    double x[MAX_CHAINS], w[MAX_CHAINS], p[MAX_CHAINS], q[MAX_CHAINS];
    if (!n || n > MAX_CHAINS)
        return oc_error_set(err, OC_ERR_USAGE, NULL, "%zu %s (2 to %d)", n, what, MAX_CHAINS);
    bool lengths = false, predicted = true;
    for (size_t i = 0; i < n; i++) {
        if (!c[i].kernels || !(c[i].wall_us > 0) || !(c[i].kernel_us > 0) ||
            !isfinite(c[i].wall_us) || !isfinite(c[i].kernel_us))
            return oc_error_set(err, OC_ERR_USAGE, NULL, "%s: chain %zu has no time", what, i);
        x[i] = (double)c[i].kernels;
        w[i] = c[i].wall_us;
        p[i] = c[i].kernel_us;
        q[i] = c[i].predicted_us;
        predicted &= c[i].predicted_us > 0 && isfinite(c[i].predicted_us);
        lengths |= c[i].kernels != c[0].kernels;
    }
    if (!lengths)
        return oc_error_set(err, OC_ERR_USAGE, NULL, "%s of one length: the fit needs two",
                            what);
    *sw = fmax(slope(x, w, n), 0);
    *sp = fmax(slope(x, p, n), 0);
    *sq = predicted ? fmax(slope(x, q, n), 0) : 0;
    return OC_OK;
}

oc_status oc_calib_fit_chain(oc_calib_fit *f, const oc_calib_chain *c, size_t n, oc_error *err)
{
    double sw, sp, sq;
    oc_status st = chain_slopes(c, n, "kernel chains", &sw, &sp, &sq, err);
    if (st)
        return st;
    f->kernel_floor_us = sw;
    f->profiled_kernel_us = sp;
    f->predicted_kernel_us = sq;
    f->per_kernel_us = f->kernel_floor_us - (f->predicted_kernel_us > 0 ? f->predicted_kernel_us
                                                                       : f->profiled_kernel_us);
    f->n_chains = (int)n;
    return OC_OK;
}

/* chain_slopes of chains that must all have been predicted. */
static oc_status predicted_slopes(const oc_calib_chain *c, size_t n, const char *what,
                                  double *sw, double *sp, double *sq, oc_error *err)
{
    oc_status st = chain_slopes(c, n, what, sw, sp, sq, err);
    if (!st && !(*sq > 0))
        st = oc_error_set(err, OC_ERR_USAGE, NULL, "%s not predicted", what);
    return st;
}

oc_status oc_calib_fit_steps(oc_calib_fit *f, const oc_calib_chain *c, size_t n, oc_error *err)
{
    double sw, sp, sq;
    oc_status st = predicted_slopes(c, n, "step chains", &sw, &sp, &sq, err);
    if (st)
        return st;
    f->step_wall_us = sw;
    f->step_profiled_us = sp;
    f->step_predicted_us = sq;
    f->per_kernel_us = sw - sq;
    f->n_steps = (int)n;
    return OC_OK;
}

/* The wall time at length 0 of n chains whose wall slope is sw. */
static double wall_at_zero(const oc_calib_chain *c, size_t n, double sw)
{
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; i++) {
        mx += (double)c[i].kernels;
        my += c[i].wall_us;
    }
    return (my - sw * mx) / (double)n;
}

oc_status oc_calib_fit_loop(oc_calib_fit *f, const oc_calib_chain *c, size_t n,
                            const oc_calib_chain *kc, size_t nk, oc_error *err)
{
    double sw, sp, sq;
    oc_status st = predicted_slopes(c, n, "loop chains", &sw, &sp, &sq, err);
    if (st)
        return st;
    f->loop_wall_us = sw;
    f->loop_predicted_us = sq;
    f->loop_trip_us = fmax(0, sw - sq);
    /* the kernel chains' wall slope is their fit's floor */
    f->loop_run_us =
        nk && f->n_chains
            ? fmax(0, wall_at_zero(c, n, sw) - wall_at_zero(kc, nk, f->kernel_floor_us))
            : 0;
    f->n_loops = (int)n;
    return OC_OK;
}

oc_status oc_calib_fit_output(oc_calib_fit *f, const oc_calib_output *p, size_t n,
                              oc_error *err)
{
    enum { MAX = 64 };
    double v[MAX];
    size_t k = 0;
    if (!n || n > MAX)
        return oc_error_set(err, OC_ERR_USAGE, NULL, "%zu output probes (1 to %d)", n, MAX);
    for (size_t i = 0; i < n; i++) {
        if (!p[i].bytes || !(p[i].wall_us > 0) || !(p[i].kernel_us >= 0))
            return oc_error_set(err, OC_ERR_USAGE, NULL, "output probe %zu has no time", i);
        double x = (p[i].wall_us - p[i].kernel_us) / ((double)p[i].bytes / 1e6);
        if (p[i].bytes >= OC_OUTPUT_FRESH_BYTES)
            v[k++] = x > 0 ? x : 0;
    }
    f->output_us_per_mb = k ? oc_median(v, k) : 0;
    return OC_OK;
}

/* ---- the kernel curve ---- */

const double oc_calib_curve_knots[OC_CALIB_CURVE_KNOTS] = {1, 2, 4, 8, 16, 32, 64};

/* LAPACK's least squares by QR (OpenBLAS carries LAPACK). */
extern void dgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a,
                   const int *lda, double *b, const int *ldb, double *work, const int *lwork,
                   int *info, size_t trans_len);

/* Run r's row of the curve's design: per knot, its kernels' weights on
 * that point (the hat functions of the piecewise-linear curve, through
 * (0, 0)), and last the kernels' time beyond the last point (slope 1). */
typedef double curve_row_t[OC_CALIB_CURVE_KNOTS + 1];

static void curve_row(const oc_calib_curve_run *r, curve_row_t row)
{
    enum { K = OC_CALIB_CURVE_KNOTS };
    const double *kn = oc_calib_curve_knots;
    memset(row, 0, sizeof(curve_row_t));
    for (size_t i = 0; i < r->n; i++) {
        double x = fmax(0, r->x_us[i]);
        if (x >= kn[K - 1]) {
            row[K - 1] += 1;
            row[K] += x - kn[K - 1];
            continue;
        }
        int j = 0;
        while (x >= kn[j])
            j++;
        double lo = j ? kn[j - 1] : 0, t = (x - lo) / (kn[j] - lo);
        row[j] += t;
        if (j)
            row[j - 1] += 1 - t;
    }
}

/* The curve's values at the knots into w, fitted on the runs (their
 * design rows in rows) not of network `skip` (-1: all): least squares on
 * relative error with the ridge rows towards prior, then non-negative, at
 * most x, the last at least its prior, rising.  false when out of memory
 * or LAPACK fails. */
static bool curve_solve(const oc_calib_curve_run *runs, const curve_row_t *rows, size_t n,
                        int skip, const double *prior, double ridge, double *w)
{
    enum { K = OC_CALIB_CURVE_KNOTS };
    size_t used = 0;
    for (size_t i = 0; i < n; i++)
        used += runs[i].net != skip;
    int m = (int)(used + K), k = K, one = 1, lwork = -1, info = 0;
    double *a = calloc((size_t)m * K, sizeof *a), *b = calloc((size_t)m, sizeof *b), q;
    bool ok = a && b;
    size_t r = 0;
    for (size_t i = 0; ok && i < n; i++) {
        if (runs[i].net == skip)
            continue;
        double mw = runs[i].wall_us;
        for (int j = 0; j < K; j++)
            a[r + (size_t)j * (size_t)m] = rows[i][j] / mw;
        b[r++] = (mw - runs[i].rest_us - rows[i][K]) / mw;
    }
    for (int j = 0; ok && j < K; j++) {
        double sc = sqrt(ridge * (double)used) / fmax(prior[j], 0.2);
        a[r + (size_t)j * (size_t)m] = sc;
        b[r++] = sc * prior[j];
    }
    if (ok) /* the workspace it wants, then the fit */
        dgels_("N", &m, &k, &one, a, &m, b, &m, &q, &lwork, &info, 1);
    double *work = ok && !info ? malloc((size_t)q * sizeof *work) : NULL;
    if ((ok = work != NULL)) {
        lwork = (int)q;
        dgels_("N", &m, &k, &one, a, &m, b, &m, work, &lwork, &info, 1);
        ok = !info;
    }
    for (int j = 0; ok && j < K; j++) {
        double v = fmin(fmax(b[j], 0), oc_calib_curve_knots[j]);
        if (j == K - 1)
            v = fmax(v, prior[j]);
        w[j] = j && v < w[j - 1] ? w[j - 1] : v;
    }
    free(work);
    free(a);
    free(b);
    return ok;
}

/* A run of design row `row` and rest rest_us as the curve w predicts it. */
static double curve_total(const curve_row_t row, double rest_us, const double *w)
{
    double t = rest_us + row[OC_CALIB_CURVE_KNOTS];
    for (int j = 0; j < OC_CALIB_CURVE_KNOTS; j++)
        t += row[j] * w[j];
    return t;
}

oc_status oc_calib_fit_curve(oc_calib_fit *f, const oc_calib_curve_run *runs, size_t n,
                             double ridge, double *err_before, double *err_after,
                             oc_error *err)
{
    enum { K = OC_CALIB_CURVE_KNOTS };
    double prior[K], w[K], before = 0, after = 0;
    bool nets = false;
    for (size_t i = 0; i < n; i++) {
        if (!(runs[i].wall_us > 0) || !isfinite(runs[i].rest_us))
            return oc_error_set(err, OC_ERR_USAGE, NULL, "curve run %zu has no time", i);
        nets |= runs[i].net != runs[0].net;
        before += fabs(runs[i].total_us / runs[i].wall_us - 1);
    }
    if (err_before)
        *err_before = n ? before / (double)n : 0;
    if (err_after)
        *err_after = 0;
    if (n < OC_CALIB_CURVE_MIN_RUNS || !nets)
        return OC_OK;
    /* the chains' rule: the profiler's cost out, at least the floor */
    double floor = f->n_chains ? f->kernel_floor_us : 0, g = fmin(f->per_kernel_us, 0);
    for (int j = 0; j < K; j++)
        prior[j] = fmin(oc_calib_curve_knots[j], fmax(floor, oc_calib_curve_knots[j] + g));
    /* every run's design row once, for every fit */
    curve_row_t *rows = malloc(n * sizeof *rows);
    if (!rows)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory (the kernel curve)");
    int max_net = 0;
    for (size_t i = 0; i < n; i++) {
        curve_row(&runs[i], rows[i]);
        max_net = runs[i].net > max_net ? runs[i].net : max_net;
    }
    /* each network predicted by a curve fitted on the others, then the
     * curve fitted on all */
    bool ok = true;
    for (int q = 0; ok && q <= max_net; q++) {
        bool any = false;
        for (size_t i = 0; i < n && !any; i++)
            any = runs[i].net == q;
        if (!any)
            continue;
        ok = curve_solve(runs, rows, n, q, prior, ridge, w);
        for (size_t i = 0; ok && i < n; i++)
            if (runs[i].net == q)
                after += fabs(curve_total(rows[i], runs[i].rest_us, w) / runs[i].wall_us - 1);
    }
    ok = ok && curve_solve(runs, rows, n, -1, prior, ridge, w);
    free(rows);
    if (!ok)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory (the kernel curve)");
    if (err_after)
        *err_after = after / (double)n;
    f->n_curve = K;
    f->curve_runs = (int)n;
    memcpy(f->curve_x, oc_calib_curve_knots, sizeof oc_calib_curve_knots);
    memcpy(f->curve_w, w, sizeof w);
    f->curve_from[0] = 0;
    return OC_OK;
}

const oc_calib_fit *oc_calib_fit_for(const oc_calib *c, int threads)
{
    for (int i = 0; c && i < c->n_fits; i++)
        if (c->fits[i].threads == threads)
            return &c->fits[i];
    return NULL;
}

/* ---- JSON ---- */

static json_t *vec(const double *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++)
        json_array_append_new(a, json_real(v[i]));
    return a;
}

static json_t *overhead_json(const oc_calib_fit *f)
{
    json_t *o = json_pack("{s:f, s:f, s:f}", "kernel_scale", f->kernel_scale, "per_kernel_us",
                          f->per_kernel_us, "output_us_per_mb", f->output_us_per_mb);
    if (o && f->stream_gbps > 0)
        json_object_set_new(o, "stream_gbps", json_real(f->stream_gbps));
    if (o && f->fault_us_per_mb > 0)
        json_object_set_new(o, "fault_us_per_mb", json_real(f->fault_us_per_mb));
    json_t *ch = o && f->n_chains ? json_pack("{s:i, s:f, s:f}", "runs", f->n_chains,
                                              "wall_us_per_kernel", f->kernel_floor_us,
                                              "profiled_us_per_kernel", f->profiled_kernel_us)
                                  : NULL;
    if (ch && f->predicted_kernel_us > 0)
        json_object_set_new(ch, "predicted_us_per_kernel", json_real(f->predicted_kernel_us));
    if (ch)
        json_object_set_new(o, "kernel_chain", ch);
    if (o && f->n_steps)
        json_object_set_new(o, "step_chain",
                            json_pack("{s:i, s:f, s:f, s:f}", "runs", f->n_steps,
                                      "wall_us_per_kernel", f->step_wall_us,
                                      "profiled_us_per_kernel", f->step_profiled_us,
                                      "predicted_us_per_kernel", f->step_predicted_us));
    if (o && f->n_loops)
        json_object_set_new(o, "loop_chain",
                            json_pack("{s:i, s:f, s:f, s:f, s:f}", "runs", f->n_loops,
                                      "wall_us_per_trip", f->loop_wall_us,
                                      "predicted_us_per_trip", f->loop_predicted_us,
                                      "trip_us", f->loop_trip_us, "run_us", f->loop_run_us));
    if (o && f->n_curve) {
        json_t *kc = json_pack("{s:o, s:o, s:i}", "predicted_us", vec(f->curve_x, f->n_curve),
                               "wall_us", vec(f->curve_w, f->n_curve), "runs", f->curve_runs);
        if (kc && f->curve_from[0])
            json_object_set_new(kc, "from", json_string(f->curve_from));
        if (kc)
            json_object_set_new(o, "kernel_curve", kc);
    }
    if (o && f->n_band) {
        json_t *rb = json_pack("{s:o, s:o, s:o, s:f, s:i}", "per_kernel_us",
                               vec(f->band_us, f->n_band - 1), "low", vec(f->band_low, f->n_band),
                               "high", vec(f->band_high, f->n_band), "quantile",
                               f->band_quantile, "runs", f->band_runs);
        if (rb)
            json_object_set_new(o, "range_band", rb);
    }
    json_t *ig = o ? json_object() : NULL;
    for (int g = 0; ig && g < OC_CALIB_GROUPS; g++)
        if (f->in_graph[g] > 0)
            json_object_set_new(ig, group_names[g], json_real(f->in_graph[g]));
    if (ig && json_object_size(ig))
        json_object_set_new(o, "in_graph_groups", ig);
    else
        json_decref(ig);
    if (o && f->n_anchors)
        json_object_set_new(o, "anchors",
                            json_pack("{s:i, s:f, s:f, s:f}", "runs", f->n_anchors,
                                      "base_kernel_scale", f->base_kernel_scale,
                                      "mean_error_before", f->anchor_err_before,
                                      "mean_error_after_lono", f->anchor_err_after));
    return o;
}

json_t *oc_calib_to_json(const oc_calib *c)
{
    json_t *fits = json_array();
    for (int i = 0; fits && i < c->n_fits; i++) {
        const oc_calib_fit *f = &c->fits[i];
        json_t *groups = json_object();
        for (int g = 0; groups && g < OC_CALIB_GROUPS; g++)
            json_object_set_new(groups, group_names[g],
                                json_pack("{s:o, s:i}", "w", vec(f->w[g], 3), "n",
                                          f->n_group[g]));
        json_t *fo = json_pack("{s:i, s:i, s:f, s:f, s:f, s:o, s:o, s:o, s:o, s:o}", "threads",
                               f->threads, "probe_kernels", f->n, "median_error_before",
                               f->err_before, "median_error_after_loo", f->err_after,
                               "residual", f->residual, "mean", vec(f->mu, 2), "std",
                               vec(f->sd, 2), "global", vec(f->global, 3), "groups", groups,
                               "overhead", overhead_json(f));
        if (fo)
            json_object_set_new(fo, "correction", json_string(form_names[f->form]));
        if (fo && f->check_us > 0)
            json_object_set_new(fo, "check_kernel_us", json_real(f->check_us));
        json_array_append_new(fits, fo);
    }
    json_t *base = json_pack("{s:s, s:s}", "machine", c->base_machine, "created",
                             c->base_created);
    if (base && c->base_path[0])
        json_object_set_new(base, "path", json_string(c->base_path));
    json_t *j = json_pack("{s:s, s:i, s:s, s:o, s:s, s:s, s:s, s:o, s:s, s:f, s:o}",
                          "format", "onnxcost-calibration", "version", c->version,
                          "fingerprint", c->machine.id, "machine",
                          oc_machine_to_json(&c->machine), "target", c->target, "runtime",
                          c->runtime, "mode", c->mode, "base", base, "created", c->created,
                          "probe_seconds", c->probe_seconds, "threads", fits);
    if (j && c->speed.factor > 0)
        json_object_set_new(j, "speed",
                            json_pack("{s:s, s:f, s:f, s:f, s:f}", "checked", c->speed.checked,
                                      "check_kernel_us", c->speed.check_us,
                                      "calibration_check_kernel_us",
                                      c->speed.calibration_check_us, "elasticity",
                                      OC_CALIB_SPEED_ELASTICITY, "factor", c->speed.factor));
    return j;
}

static double speed_factor(double now_us, double then_us)
{
    return pow(now_us / then_us, OC_CALIB_SPEED_ELASTICITY);
}

oc_status oc_calib_set_speed(oc_calib *c, double check_us, oc_error *err)
{
    const oc_calib_fit *f = oc_calib_fit_for(c, 1);
    if (!f || !(f->check_us > 0))
        return oc_error_set(err, OC_ERR_USAGE, NULL,
                            "the calibration recorded no check kernel at 1 thread");
    if (!(check_us > 0) || !isfinite(check_us))
        return oc_error_set(err, OC_ERR_USAGE, NULL, "a check kernel time must be positive");
    c->speed.check_us = check_us;
    c->speed.calibration_check_us = f->check_us;
    c->speed.factor = speed_factor(check_us, f->check_us);
    utc_now(c->speed.checked, sizeof c->speed.checked);
    return OC_OK;
}

#define BAD(...) oc_error_set(err, OC_ERR_INPUT, NULL, __VA_ARGS__)

static bool get_str(const json_t *o, const char *key, char *dst, size_t size)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_string(v) || json_string_length(v) >= size)
        return false;
    memcpy(dst, json_string_value(v), json_string_length(v) + 1);
    return strlen(dst) == json_string_length(v); /* no embedded NUL */
}

static bool get_num(const json_t *o, const char *key, double lo, double hi, double *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_number(v))
        return false;
    double d = json_number_value(v);
    if (!isfinite(d) || d < lo || d > hi)
        return false;
    *out = d;
    return true;
}

static bool get_vec(const json_t *o, const char *key, int n, double lo, double hi,
                    double *out)
{
    const json_t *a = json_object_get(o, key);
    if (!json_is_array(a) || json_array_size(a) != (size_t)n)
        return false;
    for (int i = 0; i < n; i++) {
        const json_t *v = json_array_get(a, (size_t)i);
        if (!json_is_number(v))
            return false;
        double d = json_number_value(v);
        if (!isfinite(d) || d < lo || d > hi)
            return false;
        out[i] = d;
    }
    return true;
}

/* A kernel curve: 2 .. OC_CALIB_CURVE_MAX points, predicted_us rising
 * from above 0, wall_us from 0 to at most predicted_us, never falling. */
static bool curve_from_json(const json_t *kc, oc_calib_fit *f)
{
    const json_t *x = json_object_get(kc, "predicted_us"), *w = json_object_get(kc, "wall_us");
    double runs = 0;
    size_t n = json_array_size(x);
    if (!json_is_object(kc) || !json_is_array(x) || !json_is_array(w) || n < 2 ||
        n > OC_CALIB_CURVE_MAX || json_array_size(w) != n ||
        !get_num(kc, "runs", 1, 1e9, &runs))
        return false;
    for (size_t k = 0; k < n; k++) {
        const json_t *a = json_array_get(x, k), *b = json_array_get(w, k);
        if (!json_is_number(a) || !json_is_number(b))
            return false;
        double px = json_number_value(a), pw = json_number_value(b);
        if (!(px > (k ? f->curve_x[k - 1] : 0)) || !(px < 1e6) ||
            !(pw >= (k ? f->curve_w[k - 1] : 0)) || !(pw <= px))
            return false;
        f->curve_x[k] = px;
        f->curve_w[k] = pw;
    }
    const json_t *from = json_object_get(kc, "from");
    if (from && (!json_is_string(from) || !json_string_length(from) ||
                 json_string_length(from) >= sizeof f->curve_from))
        return false;
    snprintf(f->curve_from, sizeof f->curve_from, "%s", from ? json_string_value(from) : "");
    f->n_curve = (int)n;
    f->curve_runs = (int)runs;
    return true;
}

int oc_calib_adopt_curve(oc_calib *cal, const oc_calib *from)
{
    int n = 0;
    for (int k = 0; k < cal->n_fits; k++) {
        oc_calib_fit *f = &cal->fits[k];
        for (int q = 0; !f->n_curve && q < from->n_fits; q++) {
            const oc_calib_fit *g = &from->fits[q];
            if (g->threads != f->threads || !g->n_curve)
                continue;
            f->n_curve = g->n_curve;
            f->curve_runs = g->curve_runs;
            memcpy(f->curve_x, g->curve_x, sizeof f->curve_x);
            memcpy(f->curve_w, g->curve_w, sizeof f->curve_w);
            snprintf(f->curve_from, sizeof f->curve_from, "%s",
                     g->curve_from[0] ? g->curve_from : from->machine.id);
            n++;
        }
    }
    return n;
}

/* A range band: 1 .. OC_CALIB_BAND_MAX bands, per_kernel_us rising from
 * above 0 (one fewer), each band's low in (0, 100] and high from low to
 * 100, quantile in (0, 0.5). */
static bool band_from_json(const json_t *rb, oc_calib_fit *f)
{
    const json_t *e = json_object_get(rb, "per_kernel_us"), *lo = json_object_get(rb, "low"),
                 *hi = json_object_get(rb, "high");
    double runs = 0;
    size_t n = json_array_size(lo);
    if (!json_is_object(rb) || !json_is_array(e) || !json_is_array(lo) || !json_is_array(hi) ||
        n < 1 || n > OC_CALIB_BAND_MAX || json_array_size(hi) != n ||
        json_array_size(e) != n - 1 || !get_num(rb, "runs", 1, 1e9, &runs) ||
        !get_num(rb, "quantile", 1e-6, 0.5 - 1e-6, &f->band_quantile))
        return false;
    for (size_t b = 0; b < n; b++) {
        const json_t *a = json_array_get(lo, b), *c = json_array_get(hi, b);
        if (!json_is_number(a) || !json_is_number(c))
            return false;
        f->band_low[b] = json_number_value(a);
        f->band_high[b] = json_number_value(c);
        if (!(f->band_low[b] > 0) || !(f->band_high[b] >= f->band_low[b]) ||
            !(f->band_high[b] <= 100))
            return false;
        if (b + 1 < n) {
            const json_t *u = json_array_get(e, b);
            if (!json_is_number(u))
                return false;
            f->band_us[b] = json_number_value(u);
            if (!(f->band_us[b] > (b ? f->band_us[b - 1] : 0)) || !(f->band_us[b] < 1e9))
                return false;
        }
    }
    f->n_band = (int)n;
    f->band_runs = (int)runs;
    return true;
}

int oc_calib_band_of(const oc_calib_fit *f, double per_kernel_us)
{
    int b = 0;
    while (b < f->n_band - 1 && !(per_kernel_us < f->band_us[b]))
        b++;
    return b;
}

static oc_status fit_from_json(const json_t *o, oc_calib_fit *f, const char *label,
                               oc_error *err)
{
    memset(f, 0, sizeof *f);
    double th = 0, n = 0;
    const json_t *ov = json_object_get(o, "overhead");
    const json_t *groups = json_object_get(o, "groups");
    if (!json_is_object(o) || !get_num(o, "threads", 1, 256, &th) ||
        !get_num(o, "probe_kernels", 1, 1e9, &n) ||
        !get_num(o, "median_error_before", 0, 1e9, &f->err_before) ||
        !get_num(o, "median_error_after_loo", 0, 1e9, &f->err_after) ||
        !get_num(o, "residual", 0, 10, &f->residual) ||
        !get_vec(o, "mean", 2, -1e3, 1e3, f->mu) || !get_vec(o, "std", 2, 1e-9, 1e3, f->sd) ||
        !get_vec(o, "global", 3, -10, 10, f->global) || !json_is_object(groups) ||
        !json_is_object(ov) || !get_num(ov, "kernel_scale", 1e-3, 1e3, &f->kernel_scale) ||
        !get_num(ov, "per_kernel_us", -1e3, 1e6, &f->per_kernel_us))
        return BAD("%s: corrupt calibration: bad entry in \"threads\"", label);
    const json_t *ch = json_object_get(ov, "kernel_chain");
    double nc = 0;
    if (ch && (!get_num(ch, "runs", 2, 1e6, &nc) ||
               !get_num(ch, "wall_us_per_kernel", 0, 1e6, &f->kernel_floor_us) ||
               !get_num(ch, "profiled_us_per_kernel", 0, 1e6, &f->profiled_kernel_us) ||
               (json_object_get(ch, "predicted_us_per_kernel") &&
                !get_num(ch, "predicted_us_per_kernel", 0, 1e6, &f->predicted_kernel_us))))
        return BAD("%s: corrupt calibration: bad \"kernel_chain\" in \"overhead\"", label);
    f->n_chains = (int)nc;
    const json_t *sc = json_object_get(ov, "step_chain");
    double ns = 0;
    if (sc && (!get_num(sc, "runs", 2, 1e6, &ns) ||
               !get_num(sc, "wall_us_per_kernel", 0, 1e6, &f->step_wall_us) ||
               !get_num(sc, "profiled_us_per_kernel", 0, 1e6, &f->step_profiled_us) ||
               !get_num(sc, "predicted_us_per_kernel", 1e-9, 1e6, &f->step_predicted_us)))
        return BAD("%s: corrupt calibration: bad \"step_chain\" in \"overhead\"", label);
    f->n_steps = (int)ns;
    const json_t *lc = json_object_get(ov, "loop_chain");
    double nl = 0;
    if (lc && (!get_num(lc, "runs", 2, 1e6, &nl) ||
               !get_num(lc, "wall_us_per_trip", 0, 1e6, &f->loop_wall_us) ||
               !get_num(lc, "predicted_us_per_trip", 0, 1e6, &f->loop_predicted_us) ||
               !get_num(lc, "trip_us", 0, 1e6, &f->loop_trip_us) ||
               !get_num(lc, "run_us", 0, 1e6, &f->loop_run_us)))
        return BAD("%s: corrupt calibration: bad \"loop_chain\" in \"overhead\"", label);
    f->n_loops = (int)nl;
    if (json_object_get(ov, "kernel_curve") &&
        !curve_from_json(json_object_get(ov, "kernel_curve"), f))
        return BAD("%s: corrupt calibration: bad \"kernel_curve\" in \"overhead\"", label);
    if (json_object_get(ov, "range_band") && !band_from_json(json_object_get(ov, "range_band"), f))
        return BAD("%s: corrupt calibration: bad \"range_band\" in \"overhead\"", label);
    if (json_object_get(ov, "stream_gbps") &&
        !get_num(ov, "stream_gbps", 0, 1e6, &f->stream_gbps))
        return BAD("%s: corrupt calibration: bad \"stream_gbps\"", label);
    if (json_object_get(ov, "fault_us_per_mb") &&
        !get_num(ov, "fault_us_per_mb", 0, 1e6, &f->fault_us_per_mb))
        return BAD("%s: corrupt calibration: bad \"fault_us_per_mb\"", label);
    if (!ch && !sc && f->per_kernel_us < 0)
        return BAD("%s: corrupt calibration: negative \"per_kernel_us\" without its "
                   "\"kernel_chain\" or \"step_chain\"", label);
    const json_t *an = json_object_get(ov, "anchors");
    double na = 0;
    if (an && (!get_num(an, "runs", 1, 1e6, &na) ||
               !get_num(an, "base_kernel_scale", 1e-3, 1e3, &f->base_kernel_scale) ||
               !get_num(an, "mean_error_before", 0, 1e9, &f->anchor_err_before) ||
               !get_num(an, "mean_error_after_lono", 0, 1e9, &f->anchor_err_after)))
        return BAD("%s: corrupt calibration: bad \"anchors\" in \"overhead\"", label);
    f->n_anchors = (int)na;
    const json_t *ig = json_object_get(ov, "in_graph_groups");
    if (ig && !json_is_object(ig))
        return BAD("%s: corrupt calibration: bad \"in_graph_groups\"", label);
    for (int g = 0; ig && g < OC_CALIB_GROUPS; g++)
        if (json_object_get(ig, group_names[g]) &&
            !get_num(ig, group_names[g], 0.5, 2, &f->in_graph[g]))
            return BAD("%s: corrupt calibration: bad \"in_graph_groups\" \"%s\"", label,
                       group_names[g]);
    if (json_object_get(ov, "output_us_per_mb") &&
        !get_num(ov, "output_us_per_mb", 0, 1e6, &f->output_us_per_mb))
        return BAD("%s: corrupt calibration: bad \"output_us_per_mb\"", label);
    if (json_object_get(o, "check_kernel_us") &&
        !get_num(o, "check_kernel_us", 0, 1e9, &f->check_us))
        return BAD("%s: corrupt calibration: bad \"check_kernel_us\"", label);
    f->threads = (int)th;
    f->n = (int)n;
    /* a calibration older than the forms had slopes, or no correction */
    const json_t *form = json_object_get(o, "correction");
    f->form = f->global[1] != 0 || f->global[2] != 0 ? OC_CALIB_SIZE
              : f->global[0] != 0                    ? OC_CALIB_SCALE
                                                     : OC_CALIB_NONE;
    if (form) {
        f->form = -1;
        for (int k = 0; k < OC_CALIB_FORMS && json_is_string(form); k++)
            if (!strcmp(json_string_value(form), form_names[k]))
                f->form = k;
        if (f->form < 0)
            return BAD("%s: corrupt calibration: bad \"correction\"", label);
    }
    for (int g = 0; g < OC_CALIB_GROUPS; g++) {
        const json_t *e = json_object_get(groups, group_names[g]);
        double gn = 0;
        if (!e && g == OC_CALIB_QUANTIZED) { /* a calibration older than the group */
            memcpy(f->w[g], f->global, sizeof f->w[g]);
            continue;
        }
        if (!json_is_object(e) || !get_vec(e, "w", 3, -10, 10, f->w[g]) ||
            !get_num(e, "n", 0, 1e9, &gn))
            return BAD("%s: corrupt calibration: group \"%s\" missing or out of range",
                       label, group_names[g]);
        f->n_group[g] = (int)gn;
    }
    return OC_OK;
}

/* "speed": a check recorded by oc_calib_set_speed, its factor recomputed
 * (a hand-edited factor is not taken on trust). */
static oc_status speed_from_json(const json_t *o, oc_calib *out, const char *label,
                                 oc_error *err)
{
    oc_calib_speed *s = &out->speed;
    const oc_calib_fit *f = oc_calib_fit_for(out, 1);
    if (!json_is_object(o) || !get_str(o, "checked", s->checked, sizeof s->checked) ||
        !get_num(o, "check_kernel_us", 1e-3, 1e9, &s->check_us) ||
        !get_num(o, "calibration_check_kernel_us", 1e-3, 1e9, &s->calibration_check_us) ||
        !f || fabs(f->check_us - s->calibration_check_us) > 1e-6 * f->check_us)
        return BAD("%s: corrupt calibration: bad \"speed\"", label);
    if (strcmp(out->mode, "inference") != 0) /* calibrate --check --save refuses it */
        return BAD("%s: a \"speed\" in a %s calibration: no speed factor is known there",
                   label, out->mode);
    s->factor = speed_factor(s->check_us, s->calibration_check_us);
    return OC_OK;
}

oc_status oc_calib_from_json(const json_t *j, const char *label, oc_calib *out,
                             oc_error *err)
{
    memset(out, 0, sizeof *out);
    const json_t *fmt = json_object_get(j, "format");
    if (!json_is_object(j) || !json_is_string(fmt) ||
        strcmp(json_string_value(fmt), "onnxcost-calibration") != 0)
        return BAD("%s: not an onnxcost calibration", label);
    double ver = 0;
    if (!get_num(j, "version", 0, 1e9, &ver) || (int)ver != OC_CALIB_VERSION)
        return BAD("%s: calibration format version %g, this onnxcost reads version %d: run "
                   "'onnxcost calibrate' again", label, ver, OC_CALIB_VERSION);
    out->version = (int)ver;
    char fp[64];
    const json_t *base = json_object_get(j, "base");
    if (!get_str(j, "fingerprint", fp, sizeof fp) ||
        !get_str(j, "target", out->target, sizeof out->target) || !out->target[0] ||
        !get_str(j, "runtime", out->runtime, sizeof out->runtime) ||
        !get_str(j, "mode", out->mode, sizeof out->mode) ||
        (strcmp(out->mode, "inference") && strcmp(out->mode, "training")) ||
        !get_str(j, "created", out->created, sizeof out->created) ||
        !json_is_object(base) ||
        !get_str(base, "machine", out->base_machine, sizeof out->base_machine) ||
        !get_str(base, "created", out->base_created, sizeof out->base_created) ||
        (json_object_get(base, "path") &&
         !get_str(base, "path", out->base_path, sizeof out->base_path)) ||
        !get_num(j, "probe_seconds", 0, 1e9, &out->probe_seconds))
        return BAD("%s: corrupt calibration: a field of the header is missing or wrong",
                   label);
    if (!oc_machine_from_json(json_object_get(j, "machine"), &out->machine))
        return BAD("%s: corrupt calibration: bad \"machine\"", label);
    if (strcmp(fp, out->machine.id) != 0)
        return BAD("%s: corrupt calibration: fingerprint %s but machine %s", label, fp,
                   out->machine.id);
    const json_t *fits = json_object_get(j, "threads");
    if (!json_is_array(fits) || json_array_size(fits) == 0 ||
        json_array_size(fits) > OC_CALIB_MAX_THREADS)
        return BAD("%s: corrupt calibration: no thread counts", label);
    for (size_t i = 0; i < json_array_size(fits); i++) {
        oc_status st = fit_from_json(json_array_get(fits, i), &out->fits[i], label, err);
        if (st)
            return st;
        for (size_t k = 0; k < i; k++)
            if (out->fits[k].threads == out->fits[i].threads)
                return BAD("%s: corrupt calibration: %d threads twice", label,
                           out->fits[i].threads);
        out->n_fits++;
    }
    if (json_object_get(j, "speed"))
        return speed_from_json(json_object_get(j, "speed"), out, label, err);
    return OC_OK;
}

oc_status oc_calib_loadb(const char *text, size_t n, const char *label, oc_calib *out,
                         oc_error *err)
{
    json_error_t je;
    json_t *j = json_loadb(text, n, JSON_REJECT_DUPLICATES, &je);
    if (!j)
        return BAD("%s: not an onnxcost calibration (line %d: %s)", label, je.line, je.text);
    oc_status st = oc_calib_from_json(j, label, out, err);
    json_decref(j);
    return st;
}

oc_status oc_calib_load(const char *path, oc_calib *out, oc_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot read", path);
    /* A calibration is a few KiB: anything past 1 MiB is not one. */
    enum { LIMIT = 1 << 20 };
    char *buf = malloc(LIMIT + 1);
    size_t n = buf ? fread(buf, 1, LIMIT + 1, f) : 0;
    bool rd_err = ferror(f);
    fclose(f);
    if (!buf)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    oc_status st;
    if (rd_err)
        st = oc_error_set(err, OC_ERR_IO, NULL, "%s: read error", path);
    else if (n > LIMIT)
        st = BAD("%s: not an onnxcost calibration (larger than 1 MiB)", path);
    else
        st = oc_calib_loadb(buf, n, path, out, err);
    free(buf);
    return st;
}

oc_status oc_calib_save(const oc_calib *c, const char *path, oc_error *err)
{
    json_t *j = oc_calib_to_json(c);
    char *text = j ? json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
                                       JSON_REAL_PRECISION(9))
                   : NULL;
    json_decref(j);
    if (!text)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    size_t n = strlen(text);
    char *buf = realloc(text, n + 2);
    if (!buf) {
        free(text);
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    }
    buf[n] = '\n';
    oc_status st = oc_write_file_atomic(path, buf, n + 1, err);
    free(buf);
    return st;
}
