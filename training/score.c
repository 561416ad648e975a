/* score.c - held-out error tables (score.h). */
#include "training/score.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct group {
    char name[96];
    int threads;
    size_t n, cap;
    double *ape[3]; /* model, linear, roofline */
    size_t in_range;
} group;

typedef struct kept {
    const oc_train_sample *sm;
    double t, lo, hi;
} kept;

struct oc_score {
    oc_score_by by;
    size_t n_groups, cap, n_samples;
    group *g;
    bool sorted, keep;
    kept *k; /* n_samples of them when keep */
    size_t k_cap;
};

oc_score *oc_score_new(oc_score_by by, bool keep)
{
    oc_score *sc = calloc(1, sizeof *sc);
    if (sc) {
        sc->by = by;
        sc->keep = keep;
    }
    return sc;
}

void oc_score_free(oc_score *sc)
{
    if (!sc)
        return;
    for (size_t i = 0; i < sc->n_groups; i++)
        for (int k = 0; k < 3; k++)
            free(sc->g[i].ape[k]);
    free(sc->g);
    free(sc->k);
    free(sc);
}


/* Room for one more element in the array *pp of *cap elements of `size`
 * bytes holding n (doubling, from `first`).  False when out of memory. */
static bool reserve(void *pp, size_t *cap, size_t n, size_t size, size_t first)
{
    if (n < *cap)
        return true;
    size_t c = *cap ? *cap * 2 : first;
    void *np = realloc(*(void **)pp, c * size);
    if (!np)
        return false;
    *(void **)pp = np;
    *cap = c;
    return true;
}

static group *find_group(oc_score *sc, const char *name, int threads)
{
    for (size_t i = 0; i < sc->n_groups; i++)
        if (sc->g[i].threads == threads && !strcmp(sc->g[i].name, name))
            return &sc->g[i];
    if (!reserve(&sc->g, &sc->cap, sc->n_groups, sizeof *sc->g, 32))
        return NULL;
    group *g = &sc->g[sc->n_groups++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->threads = threads;
    return g;
}

static bool group_add(group *g, const double ape[3], bool in_range)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 64;
        for (int k = 0; k < 3; k++) {
            double *nv = realloc(g->ape[k], cap * sizeof *nv);
            if (!nv)
                return false;
            g->ape[k] = nv;
        }
        g->cap = cap;
    }
    for (int k = 0; k < 3; k++)
        g->ape[k][g->n] = ape[k];
    g->n++;
    g->in_range += in_range;
    return true;
}

bool oc_score_add(oc_score *sc, const oc_tmodel *tm, const oc_train_sample *sm,
                   double t, double lo, double hi)
{
    const oc_tmodel_info *in = oc_tmodel_get_info(tm);
    const oc_linear *L = oc_tmodel_linear(tm, sm->threads);
    oc_target tg;
    oc_hw_target(oc_tmodel_hw_for(tm, sm->machine), in->target, sm->threads, &tg);
    double pred[3] = {t, L ? oc_linear_predict(L, sm->flops) : 0,
                      oc_roofline_time_us(&tg, sm->flops, sm->bytes)};
    double ape[3];
    for (int k = 0; k < 3; k++)
        ape[k] = 100 * fabs(pred[k] - sm->time_us) / sm->time_us;
    bool inr = lo <= sm->time_us && sm->time_us <= hi;
    char key[96];
    if (sc->by == OC_SCORE_BY_FAMILY)
        snprintf(key, sizeof key, "%s", sm->family);
    else if (sc->by == OC_SCORE_BY_PATTERN)
        snprintf(key, sizeof key, "%s", sm->pattern);
    else
        snprintf(key, sizeof key, "%.*s", (int)strcspn(sm->pattern, "+"), sm->pattern);
    for (int pass = 0; pass < 2; pass++) {
        group *g = find_group(sc, pass ? "~all" : key, sm->threads); /* '~' sorts last */
        if (!g || !group_add(g, ape, inr))
            return false;
    }
    if (sc->keep) {
        if (!reserve(&sc->k, &sc->k_cap, sc->n_samples, sizeof *sc->k, 256))
            return false;
        sc->k[sc->n_samples] = (kept){sm, t, lo, hi};
    }
    sc->n_samples++;
    sc->sorted = false;
    return true;
}

json_t *oc_score_predictions(const oc_score *sc)
{
    if (!sc->keep)
        return NULL;
    json_t *a = json_array();
    for (size_t i = 0; a && i < sc->n_samples; i++) {
        const kept *k = &sc->k[i];
        json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:f, s:f, s:f, s:f}", "id", k->sm->id,
                              "family", k->sm->family, "pattern", k->sm->pattern, "threads",
                              k->sm->threads, "time_us", k->sm->time_us, "predicted_us",
                              k->t, "low_us", k->lo, "high_us", k->hi);
        if (!o || json_array_append_new(a, o)) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

oc_status oc_score_split(oc_score *sc, const oc_tmodel *tm, const oc_train_set *s,
                          int split, double shift, size_t *n, oc_error *err)
{
    const oc_tmodel_info *in = oc_tmodel_get_info(tm);
    size_t cap = s->n ? s->n : 1, m = 0;
    size_t *idx = malloc(cap * sizeof *idx);
    float *X = malloc(cap * OC_N_FEATURES * sizeof *X);
    double *t = malloc(cap * 3 * sizeof *t), *lo = t + cap, *hi = t + 2 * cap;
    oc_status st = OC_OK;
    if (!idx || !X || !t) {
        st = oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
        goto out;
    }
    for (size_t i = 0; i < s->n; i++)
        if (split < 0 || (int)oc_split_of_shifted(s->s[i].id, in->val_frac, in->test_frac,
                                                  shift) == split) {
            memcpy(X + m * OC_N_FEATURES, s->X + i * OC_N_FEATURES, OC_N_FEATURES * sizeof *X);
            idx[m++] = i;
        }
    if (m && (st = oc_tmodel_predict_features(tm, X, m, t, lo, hi, err)) != OC_OK)
        goto out;
    for (size_t r = 0; r < m; r++)
        if (!oc_score_add(sc, tm, &s->s[idx[r]], t[r], lo[r], hi[r])) {
            st = oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
            goto out;
        }
out:
    *n = st == OC_OK ? m : 0;
    free(idx);
    free(X);
    free(t);
    return st;
}

size_t oc_score_count(const oc_score *sc) { return sc->n_samples; }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int by_name(const void *a, const void *b)
{
    const group *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->threads - y->threads;
}

static void sort_all(oc_score *sc)
{
    if (sc->sorted)
        return;
    qsort(sc->g, sc->n_groups, sizeof *sc->g, by_name);
    for (size_t i = 0; i < sc->n_groups; i++)
        for (int k = 0; k < 3; k++)
            qsort(sc->g[i].ape[k], sc->g[i].n, sizeof(double), cmp_double);
    sc->sorted = true;
}

/* Median and mean of sorted values. */
static void med_mean(const double *v, size_t n, double *med, double *mean)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    *mean = n ? sum / (double)n : NAN;
    *med = n == 0 ? NAN : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static const char *key_name(const oc_score *sc)
{
    return sc->by == OC_SCORE_BY_FAMILY ? "family" : sc->by == OC_SCORE_BY_OP ? "op" : "pattern";
}

static const char *row_name(const group *g)
{
    return strcmp(g->name, "~all") ? g->name : "all";
}

json_t *oc_score_json(oc_score *sc)
{
    sort_all(sc);
    json_t *a = json_array();
    for (size_t i = 0; a && i < sc->n_groups; i++) {
        const group *g = &sc->g[i];
        double med[3], mean[3];
        for (int k = 0; k < 3; k++)
            med_mean(g->ape[k], g->n, &med[k], &mean[k]);
        json_t *o = json_pack(
            "{s:s, s:i, s:I, s:{s:f, s:f, s:f}, s:{s:f, s:f}, s:{s:f, s:f}}", key_name(sc),
            row_name(g), "threads", g->threads, "n", (json_int_t)g->n, "model",
            "median_ape", med[0], "mape", mean[0], "in_range",
            (double)g->in_range / (double)g->n, "linear_flops", "median_ape", med[1],
            "mape", mean[1], "roofline", "median_ape", med[2], "mape", mean[2]);
        if (!o || json_array_append_new(a, o)) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

void oc_score_table(oc_score *sc, FILE *out)
{
    sort_all(sc);
    fprintf(out, "%-20s %3s %6s   %-17s %6s   %-17s   %-17s\n", key_name(sc), "thr", "n", "model",
           "range", "linear-FLOPs", "roofline");
    for (size_t i = 0; i < sc->n_groups; i++) {
        const group *g = &sc->g[i];
        char cell[3][40];
        for (int k = 0; k < 3; k++) {
            double med, mean;
            med_mean(g->ape[k], g->n, &med, &mean);
            snprintf(cell[k], sizeof cell[k], "%6.1f%% / %6.1f%%", med, mean);
        }
        bool all = !strcmp(g->name, "~all");
        if (all && i > 0 && strcmp(sc->g[i - 1].name, "~all"))
            fprintf(out, "%.*s\n", 96, "------------------------------------------------"
                                 "------------------------------------------------");
        fprintf(out, "%-20s %3d %6zu   %-17s %5.0f%%   %-17s   %-17s\n", row_name(g), g->threads,
               g->n, cell[0], 100.0 * (double)g->in_range / (double)g->n, cell[1], cell[2]);
    }
}

oc_status oc_score_cross_validate(oc_score *sc, const oc_train_set *s, const oc_hw *hws,
                                  size_t n_hws, oc_tmodel_train_opts o, int folds,
                                  void (*on_fold)(void *ud, int fold, int folds), void *ud,
                                  const oc_log *log, oc_error *err)
{
    o.test_frac = 1.0 / folds;
    for (int k = 0; k < folds; k++) {
        o.split_shift = (double)k / folds;
        if (on_fold)
            on_fold(ud, k, folds);
        oc_tmodel *tm;
        oc_status st = oc_tmodel_train(s, hws, n_hws, &o, &tm, err);
        if (st != OC_OK)
            return st;
        size_t m;
        st = oc_score_split(sc, tm, s, OC_SPLIT_TEST, o.split_shift, &m, err);
        oc_tmodel_free(tm);
        if (st != OC_OK)
            return st;
        oc_logf(log, OC_LOG_PROGRESS, "fold %d/%d: %zu samples held out", k + 1, folds, m);
    }
    return OC_OK;
}

oc_status oc_score_val(const oc_tmodel *tm, const oc_train_set *s, size_t *n, double med[3],
                       oc_error *err)
{
    const oc_tmodel_info *in = oc_tmodel_get_info(tm);
    size_t nv = 0;
    *n = 0;
    for (size_t i = 0; i < s->n; i++)
        nv += oc_split_of(s->s[i].id, in->val_frac, in->test_frac) == OC_SPLIT_VAL;
    if (nv == 0)
        return OC_OK;
    float *X = malloc(nv * OC_N_FEATURES * sizeof *X);
    double *t = malloc(nv * sizeof *t), *ape[3];
    for (int k = 0; k < 3; k++)
        ape[k] = malloc(nv * sizeof *ape[k]);
    size_t *idx = malloc(nv * sizeof *idx);
    oc_status st = OC_OK;
    if (!X || !t || !ape[0] || !ape[1] || !ape[2] || !idx) {
        st = oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        goto out;
    }
    size_t m = 0;
    for (size_t i = 0; i < s->n; i++)
        if (oc_split_of(s->s[i].id, in->val_frac, in->test_frac) == OC_SPLIT_VAL) {
            memcpy(X + m * OC_N_FEATURES, s->X + i * OC_N_FEATURES, OC_N_FEATURES * sizeof *X);
            idx[m++] = i;
        }
    if ((st = oc_tmodel_predict_features(tm, X, nv, t, NULL, NULL, err)) != OC_OK)
        goto out;
    for (size_t r = 0; r < nv; r++) {
        const oc_train_sample *sm = &s->s[idx[r]];
        const oc_linear *L = oc_tmodel_linear(tm, sm->threads);
        oc_target tg;
        oc_hw_target(oc_tmodel_hw_for(tm, sm->machine), in->target, sm->threads, &tg);
        double lin = L ? oc_linear_predict(L, sm->flops) : 0;
        double roof = oc_roofline_time_us(&tg, sm->flops, sm->bytes);
        ape[0][r] = 100 * fabs(t[r] - sm->time_us) / sm->time_us;
        ape[1][r] = 100 * fabs(lin - sm->time_us) / sm->time_us;
        ape[2][r] = 100 * fabs(roof - sm->time_us) / sm->time_us;
    }
    for (int k = 0; k < 3; k++)
        med[k] = oc_median(ape[k], nv);
    *n = nv;
out:
    free(X);
    free(t);
    for (int k = 0; k < 3; k++)
        free(ape[k]);
    free(idx);
    return st;
}
