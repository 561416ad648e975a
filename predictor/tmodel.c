/* tmodel.c - timing-model training, file format, and batch prediction. */
#include "predictor/tmodel.h"
#include "predictor/machine.h"

#include <pthread.h>

#include <cblas.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "onnx/model.h"

struct oc_tmodel {
    oc_tmodel_info info;
    double *mean, *std; /* n_features each */
    double y_mean, y_std;
    oc_mlp *nets[OC_TMODEL_MAX_ENSEMBLE];
    oc_calib *calib; /* NULL: predictions as trained */
    char speak_for[64]; /* no calibration: the trained-on machine predicted for */
    int nchwc_block; /* the planned CPU's NCHWc block; 0: this machine's */
    size_t n_cover;  /* operators with samples; 0 with cover NULL: unknown */
    struct cover {
        char op[64];
        uint64_t samples;
        double lo, hi;   /* log10(1 + work) of the samples */
        uint32_t dtypes; /* a bit per oc_dtype of their first input; 0: not recorded */
        uint32_t max_inputs; /* most inputs present in one sample; 0: not recorded */
    } *cover;
    int n_fit;       /* the in-graph fit, per thread count (0: none) */
    oc_tmodel_fit fit[OC_TMODEL_MAX_THREADS];
    char fit_source[256];
};

/* The per-row offset of the fitted target: 0, or ln of the roofline time
 * (floored at 0.1 us) recovered from the row's own feature. */
static double base_of(bool roofline_base, const float *xrow)
{
    if (!roofline_base)
        return 0;
    double roof = expm1((double)xrow[OC_F_LOG_ROOFLINE_US]);
    return log(roof > 0.1 ? roof : 0.1);
}

static oc_status nomem(oc_error *err)
{
    return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
}

void oc_tmodel_free(oc_tmodel *tm)
{
    if (!tm)
        return;
    for (int k = 0; k < OC_TMODEL_MAX_ENSEMBLE; k++)
        oc_mlp_free(tm->nets[k]);
    free(tm->mean);
    free(tm->std);
    free(tm->calib);
    free(tm->cover);
    free(tm);
}

enum { OC_COVER_MAX_INPUTS = 65535 }; /* a sane bound on max_inputs */

/* The coverage of "measured_ops" (scripts/coverage.py) into tm; a
 * document without it leaves coverage unknown. */
static oc_status set_coverage(oc_tmodel *tm, const json_t *doc, oc_error *err)
{
    json_t *ops = json_object_get(doc, "measured_ops");
    if (!json_is_object(ops)) { /* not recorded */
        free(tm->cover);
        tm->cover = NULL;
        tm->n_cover = 0;
        return OC_OK;
    }
    struct cover *c = calloc(json_object_size(ops) + 1, sizeof *c);
    if (!c)
        return nomem(err);
    size_t n = 0;
    const char *op;
    json_t *v;
    json_object_foreach(ops, op, v) {
        json_t *w = json_object_get(v, "log10_work");
        if (strlen(op) >= sizeof c[n].op || json_array_size(w) != 2 ||
            !json_is_number(json_array_get(w, 0)) || !json_is_number(json_array_get(w, 1))) {
            free(c);
            return oc_error_set(err, OC_ERR_INPUT, NULL, "coverage: bad entry '%s'", op);
        }
        snprintf(c[n].op, sizeof c[n].op, "%s", op);
        json_int_t k = json_integer_value(json_object_get(v, "samples"));
        c[n].samples = k > 0 ? (uint64_t)k : 0;
        c[n].lo = json_number_value(json_array_get(w, 0));
        c[n].hi = json_number_value(json_array_get(w, 1));
        const json_t *dts = json_object_get(v, "dtypes");
        if (dts && !json_is_array(dts)) {
            free(c);
            return oc_error_set(err, OC_ERR_INPUT, NULL, "coverage: bad dtype of '%s'", op);
        }
        const json_t *mi = json_object_get(v, "max_inputs");
        if (mi && (!json_is_integer(mi) || json_integer_value(mi) < 1 ||
                   json_integer_value(mi) > OC_COVER_MAX_INPUTS)) {
            free(c);
            return oc_error_set(err, OC_ERR_INPUT, NULL, "coverage: bad max_inputs of '%s'",
                                op);
        }
        c[n].max_inputs = mi ? (uint32_t)json_integer_value(mi) : 0;
        size_t i;
        const json_t *dt;
        json_array_foreach(dts, i, dt) {
            int t = 0;
            while (t < OC_DT_COUNT_ && (!json_is_string(dt) ||
                                        strcmp(json_string_value(dt), oc_dtype_name(t))))
                t++;
            if (t == OC_DT_COUNT_) {
                free(c);
                return oc_error_set(err, OC_ERR_INPUT, NULL, "coverage: bad dtype of '%s'", op);
            }
            c[n].dtypes |= 1u << t;
        }
        n++;
    }
    free(tm->cover);
    tm->cover = c;
    tm->n_cover = n;
    return OC_OK;
}

/* {"threads": {"1": {"kernel_scale", "per_kernel_us", ...}, ...}} in the
 * document's order. */
static oc_status set_threads_fit(oc_tmodel *tm, const json_t *doc, oc_error *err)
{
    const char *key;
    json_t *v;
    int n = 0;
    const json_t *range = json_object_get(doc, "range");
    double lo = 0, hi = 0;
    if (range) {
        lo = json_number_value(json_object_get(range, "low"));
        hi = json_number_value(json_object_get(range, "high"));
        if (!(lo > 0 && lo <= 1 && hi >= 1 && isfinite(hi)))
            return oc_error_set(err, OC_ERR_INPUT, NULL,
                                "range: low must be in (0, 1] and high at least 1");
    }
    json_object_foreach(json_object_get(doc, "threads"), key, v) {
        int th = atoi(key);
        if (n == OC_TMODEL_MAX_THREADS || th < 1 || !json_is_object(v))
            return oc_error_set(err, OC_ERR_INPUT, NULL, "in-graph fit: bad thread count '%s'",
                                key);
        double sc = json_number_value(json_object_get(v, "kernel_scale"));
        tm->fit[n++] = (oc_tmodel_fit){
            .threads = th,
            .kernel_scale = sc > 0 ? sc : 1,
            .per_kernel_us = json_number_value(json_object_get(v, "per_kernel_us")),
            .small_kernel_us = json_number_value(json_object_get(v, "small_kernel_us")),
            .output_us_per_mb = json_number_value(json_object_get(v, "output_us_per_mb")),
            .range_low = lo,
            .range_high = hi,
        };
    }
    tm->n_fit = n;
    return OC_OK;
}

/* "FILE (fitted on a, b, c)". */
static void set_fit_source(oc_tmodel *tm, const json_t *doc, const char *source)
{
    const char *base = strrchr(source, '/');
    size_t size = sizeof tm->fit_source;
    size_t used = (size_t)snprintf(tm->fit_source, size, "%s", base ? base + 1 : source);
    const json_t *on = json_object_get(doc, "fitted_on");
    for (size_t i = 0; i < json_array_size(on) && used < size; i++)
        used += (size_t)snprintf(tm->fit_source + used, size - used, "%s%s",
                                 i ? ", " : " (fitted on ",
                                 json_string_value(json_array_get(on, i)) ? json_string_value(json_array_get(on, i)) : "?");
    if (json_array_size(on) && used < size)
        snprintf(tm->fit_source + used, size - used, ")");
}

oc_status oc_tmodel_set_fit(oc_tmodel *tm, const char *json, const char *source, oc_error *err)
{
    json_error_t je;
    json_t *doc = json_loads(json, 0, &je);
    if (!json_is_object(doc)) {
        json_decref(doc);
        return oc_error_set(err, OC_ERR_INPUT, NULL, "%s: not a JSON object (%s)", source,
                            doc ? "another value" : je.text);
    }
    oc_status st = set_threads_fit(tm, doc, err);
    if (st == OC_OK)
        st = set_coverage(tm, doc, err);
    if (st == OC_OK) {
        set_fit_source(tm, doc, source);
        /* Models trained before fingerprints were recorded: the fit's
         * file names the machine. */
        const char *m = json_string_value(json_object_get(doc, "machine"));
        if (!tm->info.machine[0] && m)
            oc_tmodel_set_machine(tm, m);
    }
    json_decref(doc);
    if (st != OC_OK)
        snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg), " in %s",
                 source);
    return st;
}

oc_status oc_tmodel_copy_fit(oc_tmodel *dst, const oc_tmodel *src, oc_error *err)
{
    struct cover *c = NULL;
    if (src->cover) {
        if (!(c = calloc(src->n_cover + 1, sizeof *c)))
            return nomem(err);
        memcpy(c, src->cover, src->n_cover * sizeof *c);
    }
    free(dst->cover);
    dst->cover = c;
    dst->n_cover = src->n_cover;
    dst->n_fit = src->n_fit;
    memcpy(dst->fit, src->fit, sizeof dst->fit);
    memcpy(dst->fit_source, src->fit_source, sizeof dst->fit_source);
    return OC_OK;
}

/* Two standardisations agree when every mean differs by at most
 * MERGE_TOL of its std and every std by MERGE_TOL of itself: members
 * trained on data that differ by a handful of rows in a hundred thousand
 * see the same inputs. */
#define MERGE_TOL 1e-3

static bool close_to(double a, double b, double scale)
{
    return fabs(a - b) <= MERGE_TOL * (scale > 0 ? scale : 1);
}

static const char *merge_mismatch(const oc_tmodel *a, const oc_tmodel *b)
{
    const oc_tmodel_info *x = &a->info, *y = &b->info;
    if (x->n_features != y->n_features)
        return "feature schema";
    if (strcmp(x->target, y->target) || strcmp(x->runtime, y->runtime))
        return "target or runtime";
    if (x->roofline_base != y->roofline_base || x->n_hidden != y->n_hidden ||
        memcmp(x->hidden, y->hidden, (size_t)x->n_hidden * sizeof x->hidden[0]))
        return "network layout";
    if (x->n_machines != y->n_machines)
        return "machines";
    for (int i = 0; i < x->n_machines; i++)
        if (strcmp(x->machines[i].machine, y->machines[i].machine))
            return "machines";
    if (x->n_thread_counts != y->n_thread_counts ||
        memcmp(x->thread_counts, y->thread_counts,
               (size_t)x->n_thread_counts * sizeof x->thread_counts[0]) ||
        x->optimizers != y->optimizers)
        return "thread counts or optimizers";
    if (!close_to(a->y_mean, b->y_mean, a->y_std) || !close_to(a->y_std, b->y_std, a->y_std))
        return "standardisation of the times";
    for (int f = 0; f < x->n_features; f++)
        if (!close_to(a->mean[f], b->mean[f], a->std[f]) ||
            !close_to(a->std[f], b->std[f], a->std[f]))
            return "standardisation of the features";
    return NULL;
}

oc_status oc_tmodel_merge(oc_tmodel *dst, oc_tmodel *src, oc_error *err)
{
    const char *why = merge_mismatch(dst, src);
    if (why)
        return oc_error_set(err, OC_ERR_USAGE, "",
                            "cannot merge: the models differ in their %s (train both on "
                            "the same data with the same options, another --seed)", why);
    int k0 = dst->info.ensemble, k1 = src->info.ensemble;
    if (k0 + k1 > OC_TMODEL_MAX_ENSEMBLE)
        return oc_error_set(err, OC_ERR_USAGE, "", "cannot merge: %d members, at most %d",
                            k0 + k1, OC_TMODEL_MAX_ENSEMBLE);
    for (int k = 0; k < k1; k++) {
        dst->nets[k0 + k] = src->nets[k];
        src->nets[k] = NULL;
    }
    dst->info.val_mse = (dst->info.val_mse * k0 + src->info.val_mse * k1) / (k0 + k1);
    dst->info.ensemble = k0 + k1;
    src->info.ensemble = 0;
    return OC_OK;
}

bool oc_tmodel_fit_at(const oc_tmodel *tm, int threads, oc_tmodel_fit *out)
{
    int best = -1, best_d = 1 << 30;
    for (int i = 0; i < tm->n_fit; i++) {
        int d = abs(tm->fit[i].threads - threads);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    if (best < 0)
        return false;
    *out = tm->fit[best];
    return true;
}

const char *oc_tmodel_fit_source(const oc_tmodel *tm)
{
    return tm->n_fit || tm->cover ? tm->fit_source : NULL;
}

bool oc_tmodel_has_coverage(const oc_tmodel *tm)
{
    return tm->cover != NULL;
}

const char *oc_tmodel_outside(const oc_tmodel *tm, const oc_node_desc *d, char *buf,
                              size_t size)
{
    const struct cover *c = NULL;
    for (size_t i = 0; tm->cover && i < tm->n_cover && !c; i++)
        if (!strcmp(tm->cover[i].op, d->op))
            c = &tm->cover[i];
    if (tm->cover && !c) {
        snprintf(buf, size, OC_TMODEL_NO_SAMPLE "%s" OC_TMODEL_IN_DATA, d->op);
        return buf;
    }
    oc_dtype dt = d->n_inputs && d->inputs[0].present ? d->inputs[0].dtype : OC_DT_UNDEFINED;
    if (c && c->dtypes && dt != OC_DT_UNDEFINED && !(c->dtypes & (1u << dt))) {
        snprintf(buf, size, OC_TMODEL_NO_SAMPLE "%s on %s" OC_TMODEL_IN_DATA, d->op,
                 oc_dtype_name(dt));
        return buf;
    }
    size_t present = oc_desc_count_present(d->inputs, d->n_inputs);
    if (c && c->max_inputs && present > c->max_inputs) {
        snprintf(buf, size, "%s of %zu inputs: its samples have at most %u", d->op, present,
                 (unsigned)c->max_inputs);
        return buf;
    }
    double work = (double)d->cost.flops + (double)d->cost.bytes_read +
                  (double)d->cost.bytes_written;
    double beyond = c ? log10(1 + work) - c->hi : 0;
    if (beyond > 1) {
        snprintf(buf, size, "%s: %.0fx the work of the largest sample", d->op, pow(10, beyond));
        return buf;
    }
    return oc_tmodel_threads_outside(tm, buf, size);
}

const char *oc_tmodel_threads_outside(const oc_tmodel *tm, char *buf, size_t size)
{
    if (oc_tmodel_has_threads(tm, tm->info.threads))
        return NULL;
    snprintf(buf, size, OC_TMODEL_NO_THREADS "%d threads", tm->info.threads);
    return buf;
}

bool oc_tmodel_measured_op(const oc_tmodel *tm, const char *op, size_t len)
{
    if (!tm->cover)
        return true;
    for (size_t i = 0; i < tm->n_cover; i++)
        if (strlen(tm->cover[i].op) == len && !strncmp(tm->cover[i].op, op, len))
            return true;
    return false;
}

oc_status oc_tmodel_set_calib(oc_tmodel *tm, const oc_calib *c, oc_error *err)
{
    if (!c) {
        free(tm->calib);
        tm->calib = NULL;
        return OC_OK;
    }
    bool training = (tm->info.optimizers & ~(1u << OC_OPT_NONE)) != 0;
    if (strcmp(c->target, tm->info.target) != 0 ||
        strcmp(c->mode, training ? "training" : "inference") != 0)
        return oc_error_set(err, OC_ERR_USAGE, "",
                            "the calibration is of %s (%s), the timing model of %s (%s)",
                            c->target, c->mode, tm->info.target,
                            training ? "training" : "inference");
    oc_calib *copy = malloc(sizeof *copy);
    if (!copy)
        return nomem(err);
    *copy = *c;
    free(tm->calib);
    tm->calib = copy;
    return OC_OK;
}

const oc_calib *oc_tmodel_calib(const oc_tmodel *tm) { return tm->calib; }

const oc_calib_fit *oc_tmodel_calib_fit(const oc_tmodel *tm)
{
    return oc_calib_fit_for(tm->calib, tm->info.threads);
}

void oc_tmodel_set_machine(oc_tmodel *tm, const char *fingerprint)
{
    snprintf(tm->info.machine, sizeof tm->info.machine, "%s", fingerprint ? fingerprint : "");
}

const oc_tmodel_info *oc_tmodel_get_info(const oc_tmodel *tm) { return &tm->info; }

const oc_mlp *oc_tmodel_member(const oc_tmodel *tm, int k)
{
    return k >= 0 && k < tm->info.ensemble ? tm->nets[k] : NULL;
}

const double *oc_tmodel_means(const oc_tmodel *tm) { return tm->mean; }
const double *oc_tmodel_stds(const oc_tmodel *tm) { return tm->std; }

oc_status oc_tmodel_set_threads(oc_tmodel *tm, int threads, oc_error *err)
{
    if (threads < 1)
        return oc_error_set(err, OC_ERR_USAGE, "", "thread count must be at least 1");
    tm->info.threads = threads;
    return OC_OK;
}

bool oc_tmodel_has_threads(const oc_tmodel *tm, int threads)
{
    for (int i = 0; i < tm->info.n_thread_counts; i++)
        if (tm->info.thread_counts[i] == threads)
            return true;
    return false;
}

oc_status oc_tmodel_set_optimizer(oc_tmodel *tm, oc_optimizer o, oc_error *err)
{
    if (!(tm->info.optimizers & (1u << o)))
        return oc_error_set(err, OC_ERR_USAGE, "",
                            o == OC_OPT_NONE ? "the %s timing model predicts training steps"
                                             : "the %s timing model has no %s training steps",
                            tm->info.target, oc_optimizer_name(o));
    tm->info.optimizer = o;
    return OC_OK;
}

static int this_block;
static pthread_once_t this_block_once = PTHREAD_ONCE_INIT;

static void detect_block(void)
{
    oc_machine m;
    oc_machine_detect(&m);
    this_block = oc_machine_nchwc_block(&m);
}

void oc_tmodel_set_nchwc_block(oc_tmodel *tm, int block)
{
    tm->nchwc_block = block;
}

const oc_hw *oc_tmodel_hw_for(const oc_tmodel *tm, const char *fingerprint)
{
    for (int i = 0; fingerprint && fingerprint[0] && i < tm->info.n_machines; i++)
        if (!strcmp(tm->info.machines[i].machine, fingerprint))
            return &tm->info.machines[i];
    return &tm->info.hw;
}

bool oc_tmodel_trained_on(const oc_tmodel *tm, const char *fingerprint)
{
    return oc_tmodel_hw_for(tm, fingerprint) != &tm->info.hw ||
           (fingerprint && fingerprint[0] && !strcmp(tm->info.machine, fingerprint));
}

void oc_tmodel_speak_for(oc_tmodel *tm, const char *fingerprint)
{
    snprintf(tm->speak_for, sizeof tm->speak_for, "%s", fingerprint ? fingerprint : "");
}

void oc_tmodel_target(const oc_tmodel *tm, oc_target *out)
{
    const oc_hw *hw = oc_tmodel_hw_for(tm, tm->calib ? tm->calib->machine.id : tm->speak_for);
    oc_hw_target(hw, tm->info.target, tm->info.threads, out);
    out->optimizer = tm->info.optimizer;
    if (tm->nchwc_block > 0 || tm->nchwc_block == OC_NCHWC_NONE) {
        out->nchwc_block = tm->nchwc_block > 0 ? tm->nchwc_block : 0;
    } else {
        pthread_once(&this_block_once, detect_block);
        out->nchwc_block = this_block;
    }
}

const oc_linear *oc_tmodel_linear(const oc_tmodel *tm, int threads)
{
    const oc_linear *best = NULL;
    int bd = 0;
    for (int i = 0; i < tm->info.n_linear; i++) {
        int dd = abs(tm->info.linear[i].threads - threads);
        if (!best || dd < bd) {
            best = &tm->info.linear[i];
            bd = dd;
        }
    }
    return best;
}

/* Rows of x that repeat an earlier one (a network's repeated blocks give
 * the same kernel many times) are predicted once: first[r] is the index of
 * the first row equal to row r.  Returns the count of distinct rows, or 0
 * when out of memory. */
static size_t distinct_rows(const float *x, size_t n, int F, size_t *first)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    size_t *slot = malloc(cap * sizeof *slot);
    if (!slot)
        return 0;
    for (size_t i = 0; i < cap; i++)
        slot[i] = SIZE_MAX;
    size_t distinct = 0;
    for (size_t r = 0; r < n; r++) {
        const float *row = x + r * (size_t)F;
        uint64_t h = oc_hash_bytes(row, (size_t)F * sizeof(float));
        size_t j = (size_t)h & (cap - 1);
        while (slot[j] != SIZE_MAX &&
               memcmp(x + slot[j] * (size_t)F, row, (size_t)F * sizeof(float)) != 0)
            j = (j + 1) & (cap - 1);
        if (slot[j] == SIZE_MAX) {
            slot[j] = r;
            distinct++;
        }
        first[r] = slot[j];
    }
    free(slot);
    return distinct;
}

oc_status oc_tmodel_predict_features(const oc_tmodel *tm, const float *x, size_t n,
                                     double *time_us, double *low_us, double *high_us,
                                     oc_error *err)
{
    int F = tm->info.n_features, K = tm->info.ensemble;
    size_t m = n ? n : 1;
    size_t *first = malloc(m * sizeof *first), *uniq = malloc(m * sizeof *uniq);
    float *z = malloc(m * (size_t)F * sizeof *z);
    float *y = malloc(m * sizeof *y);
    double *sum = calloc(m, sizeof *sum), *lo = malloc(m * sizeof *lo),
           *hi = malloc(m * sizeof *hi);
    oc_status st = OC_OK;
    size_t nu = 0;
    if (!first || !uniq || !z || !y || !sum || !lo || !hi ||
        (n && !(nu = distinct_rows(x, n, F, first)))) {
        st = nomem(err);
        goto done;
    }
    /* The distinct rows, standardised, in order of first appearance;
     * first[] is rewritten to index them. */
    size_t u = 0;
    for (size_t r = 0; r < n; r++) {
        if (first[r] != r) {
            first[r] = first[first[r]];
            continue;
        }
        uniq[u] = r;
        for (int j = 0; j < F; j++)
            z[u * F + j] = (float)(((double)x[r * F + j] - tm->mean[j]) / tm->std[j]);
        first[r] = u++;
    }
    /* A prediction's matrices are small: OpenBLAS's thread pool costs more
     * than it saves (its workers spin and yield), so one thread. */
    int saved_threads = openblas_get_num_threads();
    openblas_set_num_threads(1);
    for (int k = 0; k < K; k++) {
        if ((st = oc_mlp_forward(tm->nets[k], z, nu, y, err)) != OC_OK)
            break;
        for (size_t q = 0; q < nu; q++) {
            double lt = (double)y[q] * tm->y_std + tm->y_mean +
                        base_of(tm->info.roofline_base, x + uniq[q] * (size_t)F);
            sum[q] += lt;
            if (k == 0 || lt < lo[q])
                lo[q] = lt;
            if (k == 0 || lt > hi[q])
                hi[q] = lt;
        }
    }
    openblas_set_num_threads(saved_threads);
    if (st != OC_OK)
        goto done;
    /* A calibration corrects each kernel by its group's factor and widens
     * the range by the probe's residual spread; the fit is the one of the
     * row's own thread count (a feature), so rows of several counts mix. */
    for (size_t r = 0; r < n; r++) {
        size_t q = first[r];
        double t = exp(sum[q] / K), f = 1, wid = 1;
        const oc_calib_fit *cf =
            tm->calib ? oc_calib_fit_for(tm->calib, (int)x[r * (size_t)F + OC_F_THREADS]) : NULL;
        if (cf) {
            f = oc_calib_factor(cf, x + r * (size_t)F, t);
            wid = exp(cf->residual);
        }
        time_us[r] = t * f;
        if (low_us)
            low_us[r] = exp(lo[q]) * f / wid;
        if (high_us)
            high_us[r] = exp(hi[q]) * f * wid;
    }
done:
    free(first);
    free(uniq);
    free(z);
    free(y);
    free(sum);
    free(lo);
    free(hi);
    return st;
}

/* ---- training ---- */

oc_tmodel_train_opts oc_tmodel_train_defaults(void)
{
    static const int hidden[] = {32, 64, 128, 128, 128, 128};
    oc_tmodel_train_opts o = {0};
    o.mlp = oc_mlp_train_defaults();
    o.mlp.hidden = hidden;
    o.mlp.n_hidden = 6;
    o.mlp.epochs = 300;
    o.mlp.patience = 30;
    o.mlp.huber = 0.1;
    o.ensemble = 5;
    o.val_frac = 0.1;
    o.test_frac = 0.1;
    o.roofline_base = true;
    return o;
}

typedef struct member_cb {
    const oc_tmodel_train_opts *o;
    int member;
    double log_scale;
} member_cb;

static int member_progress(void *ud, const oc_mlp_epoch *e)
{
    member_cb *c = ud;
    return c->o->progress(c->o->ud, c->member, c->o->ensemble, e, c->log_scale);
}

oc_status oc_tmodel_train(const oc_train_set *s, const oc_hw *hws, size_t n_hws,
                          const oc_tmodel_train_opts *o, oc_tmodel **out,
                          oc_error *err)
{
    *out = NULL;
    if (n_hws < 1 || n_hws > OC_TMODEL_MAX_MACHINES)
        return oc_error_set(err, OC_ERR_USAGE, "", "1 to %d hardware profiles",
                            OC_TMODEL_MAX_MACHINES);
    if (o->ensemble < 1 || o->ensemble > OC_TMODEL_MAX_ENSEMBLE)
        return oc_error_set(err, OC_ERR_USAGE, "", "ensemble size must be in [1, %d]",
                            OC_TMODEL_MAX_ENSEMBLE);
    if (!(o->val_frac >= 0 && o->test_frac >= 0 && o->val_frac + o->test_frac < 1))
        return oc_error_set(err, OC_ERR_USAGE, "",
                            "validation and test fractions must be >= 0 and sum below 1");
    if (!(o->split_shift >= 0 && o->split_shift < 1))
        return oc_error_set(err, OC_ERR_USAGE, "", "split shift must be in [0, 1)");
    if (o->mlp.n_hidden < 0 || o->mlp.n_hidden >= OC_MLP_MAX_LAYERS)
        return oc_error_set(err, OC_ERR_USAGE, "", "at most %d hidden layers",
                            OC_MLP_MAX_LAYERS - 1);
    const int F = OC_N_FEATURES;
    oc_status st = OC_OK;
    oc_tmodel *tm = calloc(1, sizeof *tm);
    size_t *tr = malloc((s->n ? s->n : 1) * sizeof *tr);
    size_t *va = malloc((s->n ? s->n : 1) * sizeof *va);
    float *Xtr = NULL, *Xva = NULL, *ytr = NULL, *yva = NULL;
    double *lx = NULL, *lt = NULL;
    if (!tm || !tr || !va) {
        st = nomem(err);
        goto fail;
    }
    oc_tmodel_info *in = &tm->info;
    size_t ntr = 0, nva = 0, nte = 0;
    for (size_t i = 0; i < s->n; i++) {
        oc_split sp = oc_split_of_shifted(s->s[i].id, o->val_frac, o->test_frac,
                                          o->split_shift);
        if (sp == OC_SPLIT_TRAIN)
            tr[ntr++] = i;
        else if (sp == OC_SPLIT_VAL)
            va[nva++] = i;
        else
            nte++;
    }
    if (ntr == 0) {
        st = oc_error_set(err, OC_ERR_USAGE, "", "no training samples (%zu samples in all)",
                          s->n);
        goto fail;
    }
    /* Thread counts; the default is the smallest (the most predictable on
     * a shared machine; --threads picks another). */
    for (size_t i = 0; i < s->n; i++) {
        int t = s->s[i].threads, k;
        for (k = 0; k < in->n_thread_counts; k++)
            if (in->thread_counts[k] == t)
                break;
        if (k == in->n_thread_counts) {
            if (k == OC_TMODEL_MAX_THREADS) {
                st = oc_error_set(err, OC_ERR_USAGE, "",
                                  "more than %d distinct thread counts in the data",
                                  OC_TMODEL_MAX_THREADS);
                goto fail;
            }
            in->thread_counts[in->n_thread_counts++] = t;
        }
    }
    int best = 0;
    for (int k = 1; k < in->n_thread_counts; k++)
        if (in->thread_counts[k] < in->thread_counts[best])
            best = k;
    in->threads = in->thread_counts[best];
    /* Optimizers, the most common the default. */
    size_t opt_n[OC_OPT_ADAM + 1] = {0};
    for (size_t i = 0; i < s->n; i++) {
        opt_n[s->s[i].optimizer]++;
        in->optimizers |= 1u << s->s[i].optimizer;
    }
    for (int o = OC_OPT_NONE; o <= OC_OPT_ADAM; o++)
        if (opt_n[o] > opt_n[in->optimizer])
            in->optimizer = (oc_optimizer)o;

    /* Standardisation over the training rows. */
    tm->mean = calloc((size_t)F, sizeof *tm->mean);
    tm->std = calloc((size_t)F, sizeof *tm->std);
    Xtr = malloc(ntr * (size_t)F * sizeof *Xtr);
    ytr = malloc(ntr * sizeof *ytr);
    Xva = malloc((nva ? nva : 1) * (size_t)F * sizeof *Xva);
    yva = malloc((nva ? nva : 1) * sizeof *yva);
    if (!tm->mean || !tm->std || !Xtr || !ytr || !Xva || !yva) {
        st = nomem(err);
        goto fail;
    }
    for (size_t r = 0; r < ntr; r++)
        for (int j = 0; j < F; j++)
            tm->mean[j] += s->X[tr[r] * F + j];
    for (int j = 0; j < F; j++)
        tm->mean[j] /= (double)ntr;
    for (size_t r = 0; r < ntr; r++)
        for (int j = 0; j < F; j++) {
            double dv = s->X[tr[r] * F + j] - tm->mean[j];
            tm->std[j] += dv * dv;
        }
    for (int j = 0; j < F; j++) {
        tm->std[j] = sqrt(tm->std[j] / (double)ntr);
        if (!(tm->std[j] > 1e-6))
            tm->std[j] = 1; /* constant in training: centred only */
    }
    in->roofline_base = o->roofline_base;
#define LT(i) (log(s->s[i].time_us) - base_of(in->roofline_base, s->X + (i) * F))
    double ym = 0, yv = 0;
    for (size_t r = 0; r < ntr; r++)
        ym += LT(tr[r]);
    ym /= (double)ntr;
    for (size_t r = 0; r < ntr; r++) {
        double dv = LT(tr[r]) - ym;
        yv += dv * dv;
    }
    tm->y_mean = ym;
    tm->y_std = ntr > 1 && sqrt(yv / (double)ntr) > 1e-6 ? sqrt(yv / (double)ntr) : 1;
    for (size_t r = 0; r < ntr; r++) {
        for (int j = 0; j < F; j++)
            Xtr[r * F + j] = (float)((s->X[tr[r] * F + j] - tm->mean[j]) / tm->std[j]);
        ytr[r] = (float)((LT(tr[r]) - tm->y_mean) / tm->y_std);
    }
    for (size_t r = 0; r < nva; r++) {
        for (int j = 0; j < F; j++)
            Xva[r * F + j] = (float)((s->X[va[r] * F + j] - tm->mean[j]) / tm->std[j]);
        yva[r] = (float)((LT(va[r]) - tm->y_mean) / tm->y_std);
    }
#undef LT

    /* The ensemble: member k's seed is the k-th splitmix64 output of the
     * base seed, so member 0 of K=5 equals member 0 of K=1. */
    uint64_t seed_state = o->mlp.seed;
    double val_sum = 0;
    for (int k = 0; k < o->ensemble; k++) {
        oc_mlp_train_opts mo = o->mlp;
        mo.seed = oc_splitmix64(&seed_state);
        mo.huber = o->mlp.huber / tm->y_std; /* ln(t) -> the standardised target */
        member_cb cb = {o, k, tm->y_std};
        if (o->progress) {
            mo.progress = member_progress;
            mo.ud = &cb;
        } else {
            mo.progress = NULL;
        }
        oc_mlp_train_report rep;
        if ((st = oc_mlp_train(&mo, Xtr, ytr, ntr, (size_t)F, Xva, yva, nva, &tm->nets[k],
                               &rep, err)) != OC_OK)
            goto fail;
        val_sum += rep.best_val_mse;
    }

    /* Linear-FLOPs baselines per thread count, on the same training rows. */
    lx = malloc(ntr * sizeof *lx);
    lt = malloc(ntr * sizeof *lt);
    if (!lx || !lt) {
        st = nomem(err);
        goto fail;
    }
    for (int k = 0; k < in->n_thread_counts; k++) {
        size_t m = 0;
        for (size_t r = 0; r < ntr; r++)
            if (s->s[tr[r]].threads == in->thread_counts[k]) {
                lx[m] = s->s[tr[r]].flops;
                lt[m] = s->s[tr[r]].time_us;
                m++;
            }
        if (m == 0)
            continue;
        oc_linear *L = &in->linear[in->n_linear];
        if ((st = oc_linear_fit(lx, lt, m, L, err)) != OC_OK)
            goto fail;
        L->threads = in->thread_counts[k];
        in->n_linear++;
    }

    in->version = OC_TMODEL_VERSION;
    in->n_features = F;
    snprintf(in->target, sizeof in->target, "%s", s->target);
    snprintf(in->runtime, sizeof in->runtime, "%s", s->runtime);
    snprintf(in->cpu, sizeof in->cpu, "%s", s->cpu);
    snprintf(in->machine, sizeof in->machine, "%s", s->mixed_machine ? "" : s->machine);
    in->hw = hws[0];
    in->n_machines = (int)n_hws;
    for (size_t i = 0; i < n_hws; i++)
        in->machines[i] = hws[i];
    in->val_frac = o->val_frac;
    in->test_frac = o->test_frac;
    in->ensemble = o->ensemble;
    in->n_hidden = o->mlp.n_hidden;
    for (int i = 0; i < o->mlp.n_hidden; i++)
        in->hidden[i] = o->mlp.hidden[i];
    in->epochs = o->mlp.epochs;
    in->batch = o->mlp.batch;
    in->patience = o->mlp.patience;
    in->lr = o->mlp.lr;
    in->l2 = o->mlp.l2;
    in->dropout = o->mlp.dropout;
    in->huber = o->mlp.huber;
    in->seed = o->mlp.seed;
    in->n_train = ntr;
    in->n_val = nva;
    in->n_test = nte;
    in->val_mse = val_sum / o->ensemble;
    time_t now = time(NULL);
    struct tm g;
    if (gmtime_r(&now, &g))
        strftime(in->created, sizeof in->created, "%Y-%m-%dT%H:%M:%SZ", &g);
    *out = tm;
    tm = NULL;
fail:
    oc_tmodel_free(tm);
    free(tr);
    free(va);
    free(Xtr);
    free(Xva);
    free(ytr);
    free(yva);
    free(lx);
    free(lt);
    return st;
}

/* ---- serialisation ---- */

typedef struct wbuf {
    unsigned char *p;
    size_t n, cap;
    bool oom;
} wbuf;

static void put(wbuf *b, const void *src, size_t n)
{
    if (b->oom)
        return;
    if (b->cap - b->n < n) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->n < n)
            cap *= 2;
        unsigned char *np = realloc(b->p, cap);
        if (!np) {
            b->oom = true;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void put_u32(wbuf *b, uint32_t v)
{
    unsigned char c[4] = {(unsigned char)v, (unsigned char)(v >> 8),
                          (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
    put(b, c, 4);
}

static void put_u64(wbuf *b, uint64_t v)
{
    put_u32(b, (uint32_t)v);
    put_u32(b, (uint32_t)(v >> 32));
}

static void put_f64(wbuf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    put_u64(b, u);
}

static void put_f32(wbuf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    put_u32(b, u);
}

static void put_str(wbuf *b, const char *s)
{
    size_t n = strlen(s);
    put_u32(b, (uint32_t)n);
    put(b, s, n);
}

/* A hardware profile's figures (its fingerprint is written apart). */
static void put_hw(wbuf *b, const oc_hw *h)
{
    put_str(b, h->cpu);
    put_u32(b, (uint32_t)h->cores);
    put_u32(b, (uint32_t)h->max_threads);
    put_f64(b, h->gflops_1);
    put_f64(b, h->gflops_n);
    put_f64(b, h->gbps_1);
    put_f64(b, h->gbps_n);
    put_u32(b, (uint32_t)h->sgemm_n);
    put_f64(b, h->copy_mib);
}

typedef struct rbuf {
    const unsigned char *p;
    size_t n, pos;
    bool bad;
} rbuf;

static const unsigned char *take(rbuf *b, size_t n)
{
    if (b->bad || b->n - b->pos < n) {
        b->bad = true;
        return NULL;
    }
    const unsigned char *p = b->p + b->pos;
    b->pos += n;
    return p;
}

/* The little-endian u32 at c. */
static uint32_t le32(const unsigned char *c)
{
    return (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 |
           (uint32_t)c[3] << 24;
}

static uint32_t get_u32(rbuf *b)
{
    const unsigned char *c = take(b, 4);
    return c ? le32(c) : 0;
}

static uint64_t get_u64(rbuf *b)
{
    uint64_t lo = get_u32(b);
    return lo | (uint64_t)get_u32(b) << 32;
}

static double get_f64(rbuf *b)
{
    uint64_t u = get_u64(b);
    double v;
    memcpy(&v, &u, 8);
    return v;
}

/* n floats into dst; false (and b->bad) when short or one is not finite. */
static bool get_f32s(rbuf *b, float *dst, size_t n)
{
    const unsigned char *c = n <= SIZE_MAX / 4 ? take(b, 4 * n) : (b->bad = true, NULL);
    if (!c)
        return false;
    for (size_t i = 0; i < n; i++, c += 4) {
        uint32_t u = le32(c);
        memcpy(&dst[i], &u, 4);
        if (!isfinite(dst[i]))
            return false;
    }
    return true;
}

/* A string into dst (truncated to size - 1). */
static void get_str(rbuf *b, char *dst, size_t size)
{
    uint32_t n = get_u32(b);
    const unsigned char *s = n <= 65536 ? take(b, n) : (b->bad = true, NULL);
    if (!s) {
        dst[0] = '\0';
        return;
    }
    size_t k = n < size - 1 ? n : size - 1;
    memcpy(dst, s, k);
    dst[k] = '\0';
}

static void get_hw(rbuf *b, oc_hw *h)
{
    get_str(b, h->cpu, sizeof h->cpu);
    h->cores = (int)get_u32(b);
    h->max_threads = (int)get_u32(b);
    h->gflops_1 = get_f64(b);
    h->gflops_n = get_f64(b);
    h->gbps_1 = get_f64(b);
    h->gbps_n = get_f64(b);
    h->sgemm_n = (int)get_u32(b);
    h->copy_mib = get_f64(b);
}

enum { HEADER_BYTES = 40 };
static const char MAGIC[8] = {'O', 'C', 'T', 'M', 'O', 'D', 'E', 'L'};

static void serialise(const oc_tmodel *tm, wbuf *b)
{
    const oc_tmodel_info *in = &tm->info;
    put_u32(b, (uint32_t)in->n_features);
    for (int j = 0; j < in->n_features; j++)
        put_str(b, oc_feature_name(j));
    for (int j = 0; j < in->n_features; j++)
        put_f64(b, tm->mean[j]);
    for (int j = 0; j < in->n_features; j++)
        put_f64(b, tm->std[j]);
    put_f64(b, tm->y_mean);
    put_f64(b, tm->y_std);
    put_u32(b, in->roofline_base ? 1 : 0);
    put_str(b, in->target);
    put_str(b, in->runtime);
    put_str(b, in->cpu);
    put_hw(b, &in->hw);
    put_u32(b, (uint32_t)in->threads);
    put_u32(b, (uint32_t)in->n_thread_counts);
    for (int i = 0; i < in->n_thread_counts; i++)
        put_u32(b, (uint32_t)in->thread_counts[i]);
    put_u32(b, (uint32_t)in->optimizer);
    put_u32(b, in->optimizers);
    put_u32(b, (uint32_t)in->n_linear);
    for (int i = 0; i < in->n_linear; i++) {
        put_u32(b, (uint32_t)in->linear[i].threads);
        put_f64(b, in->linear[i].a);
        put_f64(b, in->linear[i].b);
        put_u64(b, in->linear[i].n);
    }
    put_f64(b, in->val_frac);
    put_f64(b, in->test_frac);
    put_u32(b, (uint32_t)in->n_hidden);
    for (int i = 0; i < in->n_hidden; i++)
        put_u32(b, (uint32_t)in->hidden[i]);
    put_u32(b, (uint32_t)in->epochs);
    put_u32(b, (uint32_t)in->batch);
    put_u32(b, (uint32_t)in->patience);
    put_f64(b, in->lr);
    put_f64(b, in->l2);
    put_f64(b, in->dropout);
    put_f64(b, in->huber);
    put_u64(b, in->seed);
    put_u64(b, in->n_train);
    put_u64(b, in->n_val);
    put_u64(b, in->n_test);
    put_f64(b, in->val_mse);
    put_str(b, in->created);
    put_u32(b, (uint32_t)in->ensemble);
    for (int k = 0; k < in->ensemble; k++) {
        const oc_mlp *m = tm->nets[k];
        put_u32(b, (uint32_t)m->n_layers);
        for (int l = 0; l <= m->n_layers; l++)
            put_u32(b, (uint32_t)m->sizes[l]);
        for (int l = 0; l < m->n_layers; l++) {
            size_t nw = (size_t)m->sizes[l] * (size_t)m->sizes[l + 1];
            for (size_t i = 0; i < nw; i++)
                put_f32(b, m->W[l][i]);
            for (int i = 0; i < m->sizes[l + 1]; i++)
                put_f32(b, m->b[l][i]);
        }
    }
    put_str(b, in->machine);
    put_u32(b, (uint32_t)tm->n_fit);
    for (int i = 0; i < tm->n_fit; i++) {
        const oc_tmodel_fit *f = &tm->fit[i];
        put_u32(b, (uint32_t)f->threads);
        put_f64(b, f->kernel_scale);
        put_f64(b, f->per_kernel_us);
        put_f64(b, f->small_kernel_us);
        put_f64(b, f->output_us_per_mb);
        put_f64(b, f->range_low);
        put_f64(b, f->range_high);
    }
    put_str(b, tm->fit_source);
    put_u32(b, tm->cover ? 1 : 0);
    put_u32(b, (uint32_t)tm->n_cover);
    for (size_t i = 0; i < tm->n_cover; i++) {
        put_str(b, tm->cover[i].op);
        put_u64(b, tm->cover[i].samples);
        put_f64(b, tm->cover[i].lo);
        put_f64(b, tm->cover[i].hi);
        put_u32(b, tm->cover[i].dtypes);
        put_u32(b, tm->cover[i].max_inputs);
    }
    put_u32(b, (uint32_t)in->n_machines);
    for (int i = 0; i < in->n_machines; i++) {
        put_str(b, in->machines[i].machine);
        put_hw(b, &in->machines[i]);
        put_u32(b, (uint32_t)in->machines[i].nchwc_block);
    }
    put(b, "END1", 4);
}

oc_status oc_tmodel_to_buffer(const oc_tmodel *tm, void **data, size_t *size,
                              oc_error *err)
{
    *data = NULL;
    *size = 0;
    wbuf pl = {0};
    serialise(tm, &pl);
    if (pl.oom) {
        free(pl.p);
        return nomem(err);
    }
    uLong bound = compressBound((uLong)pl.n);
    unsigned char *out = malloc(HEADER_BYTES + bound);
    if (!out) {
        free(pl.p);
        return nomem(err);
    }
    uLongf clen = bound;
    if (compress2(out + HEADER_BYTES, &clen, pl.p, (uLong)pl.n, 9) != Z_OK) {
        free(pl.p);
        free(out);
        return oc_error_set(err, OC_ERR_INTERNAL, "", "zlib compress2 failed");
    }
    uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), pl.p, (uInt)pl.n);
    wbuf h = {0};
    put(&h, MAGIC, 8);
    put_u32(&h, OC_TMODEL_VERSION);
    put_u32(&h, (uint32_t)tm->info.n_features);
    put_u64(&h, pl.n);
    put_u64(&h, clen);
    put_u32(&h, crc);
    put_u32(&h, 0);
    free(pl.p);
    if (h.oom) {
        free(out);
        return nomem(err);
    }
    memcpy(out, h.p, HEADER_BYTES);
    free(h.p);
    *data = out;
    *size = HEADER_BYTES + clen;
    return OC_OK;
}

oc_status oc_tmodel_save(const oc_tmodel *tm, const char *path, oc_error *err)
{
    void *data;
    size_t size;
    oc_status st = oc_tmodel_to_buffer(tm, &data, &size, err);
    if (st != OC_OK)
        return st;
    st = oc_write_file_atomic(path, data, size, err);
    free(data);
    return st;
}

#define CORRUPT(why)                                                          \
    oc_error_set(err, OC_ERR_INPUT, "", "%s: truncated or corrupt timing model (%s)", \
                 label, why)

/* Format 5's in-graph fit and coverage sections. */
static oc_status parse_fit(rbuf *b, oc_tmodel *tm, const char *label, oc_error *err)
{
    uint32_t nf = get_u32(b);
    if (b->bad || nf > OC_TMODEL_MAX_THREADS)
        return CORRUPT("in-graph fit");
    for (uint32_t i = 0; i < nf; i++) {
        oc_tmodel_fit *f = &tm->fit[i];
        f->threads = (int)get_u32(b);
        f->kernel_scale = get_f64(b);
        f->per_kernel_us = get_f64(b);
        f->small_kernel_us = get_f64(b);
        f->output_us_per_mb = get_f64(b);
        if (tm->info.version >= 7) {
            f->range_low = get_f64(b);
            f->range_high = get_f64(b);
        }
        if (b->bad || f->threads < 1 || !(f->kernel_scale > 0) || !isfinite(f->kernel_scale) ||
            !isfinite(f->per_kernel_us) || !isfinite(f->small_kernel_us) ||
            !isfinite(f->output_us_per_mb) || !(f->range_low >= 0 && f->range_low <= 1) ||
            !(f->range_high == 0 || (f->range_high >= 1 && isfinite(f->range_high))))
            return CORRUPT("in-graph fit");
    }
    tm->n_fit = (int)nf;
    get_str(b, tm->fit_source, sizeof tm->fit_source);
    uint32_t known = get_u32(b), nc = get_u32(b);
    if (b->bad || known > 1 || (!known && nc) || nc > 65536 || b->n - b->pos < (size_t)nc * 28)
        return CORRUPT("coverage");
    if (!known)
        return OC_OK;
    if (!(tm->cover = calloc((size_t)nc + 1, sizeof *tm->cover)))
        return nomem(err);
    tm->n_cover = nc;
    for (uint32_t i = 0; i < nc; i++) {
        struct cover *c = &tm->cover[i];
        get_str(b, c->op, sizeof c->op);
        c->samples = get_u64(b);
        c->lo = get_f64(b);
        c->hi = get_f64(b);
        c->dtypes = tm->info.version >= 8 ? get_u32(b) : 0;
        c->max_inputs = tm->info.version >= 9 ? get_u32(b) : 0;
        if (b->bad || !c->op[0] || !isfinite(c->lo) || !isfinite(c->hi) ||
            c->dtypes >> OC_DT_COUNT_ || c->max_inputs > OC_COVER_MAX_INPUTS)
            return CORRUPT("coverage");
    }
    return OC_OK;
}

static oc_status parse_payload(rbuf *b, oc_tmodel *tm, const char *label, oc_error *err)
{
    oc_tmodel_info *in = &tm->info;
    uint32_t nf = get_u32(b);
    if (b->bad)
        return CORRUPT("no schema");
    if (nf != OC_N_FEATURES)
        return oc_error_set(err, OC_ERR_INPUT, "",
                            "%s: timing model has %u features, this onnxcost computes %d: "
                            "retrain it with 'onnxcost train'",
                            label, nf, OC_N_FEATURES);
    for (uint32_t j = 0; j < nf; j++) {
        char name[128];
        get_str(b, name, sizeof name);
        if (b->bad)
            return CORRUPT("schema");
        if (strcmp(name, oc_feature_name((int)j)) != 0)
            return oc_error_set(err, OC_ERR_INPUT, "",
                                "%s: timing-model feature %u is '%s', this onnxcost "
                                "computes '%s': retrain it with 'onnxcost train'",
                                label, j, name, oc_feature_name((int)j));
    }
    in->n_features = (int)nf;
    tm->mean = calloc(nf, sizeof *tm->mean);
    tm->std = calloc(nf, sizeof *tm->std);
    if (!tm->mean || !tm->std)
        return nomem(err);
    for (uint32_t j = 0; j < nf; j++)
        tm->mean[j] = get_f64(b);
    for (uint32_t j = 0; j < nf; j++)
        tm->std[j] = get_f64(b);
    tm->y_mean = get_f64(b);
    tm->y_std = get_f64(b);
    uint32_t base = get_u32(b);
    if (base > 1)
        return CORRUPT("target kind");
    in->roofline_base = base == 1;
    for (uint32_t j = 0; j < nf; j++)
        if (!isfinite(tm->mean[j]) || !(tm->std[j] > 0) || !isfinite(tm->std[j]))
            return CORRUPT("normalisation");
    if (!isfinite(tm->y_mean) || !(tm->y_std > 0) || !isfinite(tm->y_std))
        return CORRUPT("target normalisation");
    get_str(b, in->target, sizeof in->target);
    get_str(b, in->runtime, sizeof in->runtime);
    get_str(b, in->cpu, sizeof in->cpu);
    get_hw(b, &in->hw);
    in->threads = (int)get_u32(b);
    uint32_t ntc = get_u32(b);
    if (b->bad || ntc > OC_TMODEL_MAX_THREADS || in->threads < 1 || in->hw.max_threads < 1)
        return CORRUPT("target");
    in->n_thread_counts = (int)ntc;
    for (uint32_t i = 0; i < ntc; i++)
        in->thread_counts[i] = (int)get_u32(b);
    uint32_t opt = get_u32(b);
    in->optimizers = get_u32(b);
    if (b->bad || opt > OC_OPT_ADAM || !(in->optimizers & (1u << opt)) ||
        in->optimizers >= (1u << (OC_OPT_ADAM + 1)))
        return CORRUPT("optimizers");
    in->optimizer = (oc_optimizer)opt;
    uint32_t nl = get_u32(b);
    if (b->bad || nl > OC_TMODEL_MAX_THREADS)
        return CORRUPT("baselines");
    in->n_linear = (int)nl;
    for (uint32_t i = 0; i < nl; i++) {
        in->linear[i].threads = (int)get_u32(b);
        in->linear[i].a = get_f64(b);
        in->linear[i].b = get_f64(b);
        in->linear[i].n = (size_t)get_u64(b);
    }
    in->val_frac = get_f64(b);
    in->test_frac = get_f64(b);
    uint32_t nh = get_u32(b);
    if (b->bad || nh >= OC_MLP_MAX_LAYERS)
        return CORRUPT("hidden layers");
    in->n_hidden = (int)nh;
    for (uint32_t i = 0; i < nh; i++)
        in->hidden[i] = (int)get_u32(b);
    in->epochs = (int)get_u32(b);
    in->batch = (int)get_u32(b);
    in->patience = (int)get_u32(b);
    in->lr = get_f64(b);
    in->l2 = get_f64(b);
    in->dropout = get_f64(b);
    in->huber = get_f64(b);
    in->seed = get_u64(b);
    in->n_train = get_u64(b);
    in->n_val = get_u64(b);
    in->n_test = get_u64(b);
    in->val_mse = get_f64(b);
    get_str(b, in->created, sizeof in->created);
    uint32_t K = get_u32(b);
    if (b->bad || K < 1 || K > OC_TMODEL_MAX_ENSEMBLE)
        return CORRUPT("ensemble size");
    in->ensemble = (int)K;
    for (uint32_t k = 0; k < K; k++) {
        uint32_t L = get_u32(b);
        if (b->bad || L < 1 || L > OC_MLP_MAX_LAYERS)
            return CORRUPT("layer count");
        int sizes[OC_MLP_MAX_LAYERS + 1];
        size_t need = 0;
        for (uint32_t l = 0; l <= L; l++) {
            uint32_t v = get_u32(b);
            if (v < 1 || v > OC_MLP_MAX_WIDTH)
                return CORRUPT("layer width");
            sizes[l] = (int)v;
        }
        if (b->bad || sizes[0] != (int)nf || sizes[L] != 1)
            return CORRUPT("network shape");
        for (uint32_t l = 0; l < L; l++)
            need += ((size_t)sizes[l] + 1) * (size_t)sizes[l + 1] * 4;
        if (b->n - b->pos < need) /* before allocating anything */
            return CORRUPT("weights");
        oc_status st = oc_mlp_new(sizes[0], sizes + 1, (int)L - 1, sizes[L], &tm->nets[k], err);
        if (st != OC_OK)
            return st;
        oc_mlp *m = tm->nets[k];
        for (uint32_t l = 0; l < L; l++) {
            size_t nw = (size_t)sizes[l] * (size_t)sizes[l + 1];
            if (!get_f32s(b, m->W[l], nw))
                return CORRUPT(b->bad ? "weights" : "non-finite weight");
            if (!get_f32s(b, m->b[l], (size_t)sizes[l + 1]))
                return CORRUPT(b->bad ? "biases" : "non-finite bias");
        }
    }
    if (in->version >= 4)
        get_str(b, in->machine, sizeof in->machine);
    oc_status st = in->version >= 5 ? parse_fit(b, tm, label, err) : OC_OK;
    if (st != OC_OK)
        return st;
    in->n_machines = 1;
    in->machines[0] = in->hw;
    snprintf(in->machines[0].machine, sizeof in->machines[0].machine, "%s", in->machine);
    if (in->version >= 6) {
        uint32_t nm = get_u32(b);
        if (b->bad || nm < 1 || nm > OC_TMODEL_MAX_MACHINES)
            return CORRUPT("machines");
        in->n_machines = (int)nm;
        for (uint32_t i = 0; i < nm; i++) {
            oc_hw *h = &in->machines[i];
            get_str(b, h->machine, sizeof h->machine);
            get_hw(b, h);
            h->nchwc_block = (int)get_u32(b);
            if (b->bad || h->max_threads < 1 || h->nchwc_block > 64)
                return CORRUPT("machines");
        }
        in->hw = in->machines[0];
    }
    const unsigned char *end = take(b, 4);
    if (!end || memcmp(end, "END1", 4) != 0 || b->pos != b->n)
        return CORRUPT("trailer");
    return OC_OK;
}

/* The version, schema size and payload checks shared by a file and a
 * pre-inflated payload. */
static oc_status from_payload(uint32_t ver, uint32_t nf, const void *payload, size_t size,
                              const char *label, oc_tmodel **out, oc_error *err)
{
    if (ver > OC_TMODEL_VERSION || ver < 3)
        return oc_error_set(err, OC_ERR_INPUT, "",
                            "%s: timing-model format version %u, this onnxcost reads "
                            "versions 3 to %d: retrain it with 'onnxcost train'",
                            label, ver, OC_TMODEL_VERSION);
    if (nf != OC_N_FEATURES)
        return oc_error_set(err, OC_ERR_INPUT, "",
                            "%s: timing model has %u features, this onnxcost computes %d: "
                            "retrain it with 'onnxcost train'",
                            label, nf, OC_N_FEATURES);
    oc_tmodel *tm = calloc(1, sizeof *tm);
    if (!tm)
        return nomem(err);
    tm->info.version = ver;
    rbuf b = {payload, size, 0, false};
    oc_status st = parse_payload(&b, tm, label, err);
    if (st != OC_OK) {
        oc_tmodel_free(tm);
        return st;
    }
    *out = tm;
    return OC_OK;
}

oc_status oc_tmodel_from_buffer(const void *data, size_t size, const char *label,
                                oc_tmodel **out, oc_error *err)
{
    *out = NULL;
    rbuf h = {data, size, 0, false};
    const unsigned char *magic = take(&h, 8);
    if (!magic || memcmp(magic, MAGIC, 8) != 0)
        return oc_error_set(err, OC_ERR_INPUT, "",
                            "%s: not an onnxcost timing model (bad magic)", label);
    uint32_t ver = get_u32(&h), nf = get_u32(&h);
    uint64_t raw = get_u64(&h), clen = get_u64(&h);
    uint32_t crc = get_u32(&h);
    (void)get_u32(&h);
    if (h.bad)
        return CORRUPT("short header");
    if (ver > OC_TMODEL_VERSION || ver < 3 || nf != OC_N_FEATURES)
        return from_payload(ver, nf, NULL, 0, label, out, err); /* the message */
    if (clen != size - HEADER_BYTES)
        return CORRUPT("size does not match the header");
    if (raw == 0 || raw > ((uint64_t)1 << 30))
        return CORRUPT("implausible payload size");
    unsigned char *pl = malloc((size_t)raw);
    if (!pl)
        return nomem(err);
    uLongf got = (uLongf)raw;
    int zr = uncompress(pl, &got, (const Bytef *)data + HEADER_BYTES, (uLong)clen);
    if (zr != Z_OK || got != raw) {
        free(pl);
        return CORRUPT("zlib");
    }
    if ((uint32_t)crc32(crc32(0L, Z_NULL, 0), pl, (uInt)raw) != crc) {
        free(pl);
        return CORRUPT("checksum mismatch");
    }
    oc_status st = from_payload(ver, nf, pl, (size_t)raw, label, out, err);
    free(pl);
    return st;
}

oc_status oc_tmodel_from_payload(uint32_t version, uint32_t n_features, const void *payload,
                                 size_t size, const char *label, oc_tmodel **out,
                                 oc_error *err)
{
    *out = NULL;
    return from_payload(version, n_features, payload, size, label, out, err);
}

oc_status oc_tmodel_load(const char *path, oc_tmodel **out, oc_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return oc_error_set(err, OC_ERR_IO, "", "cannot open timing model %s", path);
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (n < cap)
            break;
        if (cap > ((size_t)1 << 30)) {
            free(buf);
            fclose(f);
            return oc_error_set(err, OC_ERR_INPUT, "", "%s: too large for a timing model",
                                path);
        }
        unsigned char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    bool rerr = ferror(f);
    fclose(f);
    if (!buf)
        return nomem(err);
    if (rerr) {
        free(buf);
        return oc_error_set(err, OC_ERR_IO, "", "cannot read timing model %s", path);
    }
    oc_status st = oc_tmodel_from_buffer(buf, n, path, out, err);
    free(buf);
    return st;
}
