/* profile.c - ONNX Runtime profiles read, reduced and matched with the
 * plan (profile.h). */
#include "report/profile.h"
#include "report/json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROFILE_LIMIT ((uint64_t)1 << 30)
#define KERNEL_SUFFIX "_kernel_time"
void oc_profile_free(oc_profile *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->k[i].name);
    free(p->k);
    free(p->ev);
    json_decref(p->root);
}

static int cmp_name(const oc_pevent *a, const oc_pevent *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->name, b->name, n);
    return c ? c : a->len < b->len ? -1 : a->len > b->len;
}

static int by_name_run_ts(const void *x, const void *y)
{
    const oc_pevent *a = x, *b = y;
    int c = cmp_name(a, b);
    if (c)
        return c;
    if (a->run != b->run)
        return a->run < b->run ? -1 : 1;
    return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static int by_name_occ_run(const void *x, const void *y)
{
    const oc_pevent *a = x, *b = y;
    int c = cmp_name(a, b);
    if (c)
        return c;
    if (a->occ != b->occ)
        return a->occ < b->occ ? -1 : 1;
    if (a->run != b->run)
        return a->run < b->run ? -1 : 1;
    return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static int by_order(const void *x, const void *y)
{
    const oc_pkernel *a = x, *b = y;
    if (a->order != b->order)
        return a->order < b->order ? -1 : 1;
    return strcmp(a->name, b->name);
}

typedef struct window {
    double ts, dur;
} window;

static int by_ts(const void *x, const void *y)
{
    const window *a = x, *b = y;
    return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static int by_event_ts(const void *x, const void *y)
{
    const oc_pevent *a = x, *b = y;
    return a->ts < b->ts ? -1 : a->ts > b->ts;
}

oc_status oc_profile_load(const char *path, oc_profile *p, oc_error *err)
{
    memset(p, 0, sizeof *p);
    FILE *f = fopen(path, "rb");
    if (!f) {
        return oc_error_set(err, OC_ERR_INPUT, NULL, "%s: cannot open: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            fclose(f);
            return oc_error_set(err, OC_ERR_INPUT, NULL, "%s: is a directory, not a profile", path);
        }
        if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > PROFILE_LIMIT) {
            fclose(f);
            return oc_error_set(err, OC_ERR_INPUT, NULL, "%s: %lld bytes, larger than the limit of 1 GiB for a profile", path,
                      (long long)st.st_size);
        }
    }
    json_error_t je;
    p->root = json_loadf(f, JSON_DECODE_INT_AS_REAL, &je);
    int rerr = ferror(f);
    fclose(f);
    if (!p->root) {
        if (rerr)
            return oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot read: %s", path, je.text);
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "%s: not valid JSON (truncated?): line %d column %d: %s", path,
                            je.line, je.column, je.text);
    }
    if (!json_is_array(p->root)) {
        return oc_error_set(err, OC_ERR_INPUT, NULL, "%s: not an ONNX Runtime profile (not a JSON array of trace events)", path);
    }
    size_t n = json_array_size(p->root), nw = 0;
    window *w = malloc((n + 1) * sizeof *w);
    p->ev = malloc((n + 1) * sizeof *p->ev);
    if (!w || !p->ev) {
        free(w);
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: out of memory", path);
    }
    size_t sl = strlen(KERNEL_SUFFIX);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(p->root, i);
        const char *cat = json_string_value(json_object_get(e, "cat"));
        const char *name = json_string_value(json_object_get(e, "name"));
        json_t *dur = json_object_get(e, "dur"), *ts = json_object_get(e, "ts");
        if (!cat || !name || !json_is_number(dur) || !json_is_number(ts))
            continue;
        if (!strcmp(cat, "Session") && !strcmp(name, "model_run")) {
            w[nw++] = (window){json_number_value(ts), json_number_value(dur)};
            continue;
        }
        size_t len = json_string_length(json_object_get(e, "name"));
        if (strcmp(cat, "Node") || len < sl || memcmp(name + len - sl, KERNEL_SUFFIX, sl))
            continue;
        const char *op = json_string_value(json_object_get(json_object_get(e, "args"), "op_name"));
        p->ev[p->n_ev++] = (oc_pevent){name, len - sl, op ? op : "?", json_number_value(ts),
                                    json_number_value(dur), 0, 0, 0};
    }
    if (!p->n_ev) {
        free(w);
        return oc_error_set(err, OC_ERR_INPUT, NULL, "%s: not an ONNX Runtime profile (no kernel events: \"cat\": \"Node\", "
                  "\"name\": \"..._kernel_time\")",
                  path);
    }
    /* A kernel belongs to the run whose window holds it (collector/ort_bench.js);
     * without model_run events all of them are one run, and kernels of one name
     * are one kernel. */
    p->runs = nw;
    if (nw) {
        qsort(w, nw, sizeof *w, by_ts);
        qsort(p->ev, p->n_ev, sizeof *p->ev, by_event_ts);
        size_t r = 0, keep = 0;
        for (size_t i = 0; i < p->n_ev; i++) {
            oc_pevent *e = &p->ev[i];
            while (r < nw && e->ts > w[r].ts + w[r].dur)
                r++;
            if (r >= nw)
                break;
            if (e->ts < w[r].ts)
                continue;
            e->run = r;
            e->rel = e->ts - w[r].ts;
            p->ev[keep++] = *e;
        }
        p->n_ev = keep;
        double *d = malloc(nw * sizeof *d);
        if (!d) {
            free(w);
            return oc_error_set(err, OC_ERR_IO, NULL, "%s: out of memory", path);
        }
        for (size_t i = 0; i < nw; i++)
            d[i] = w[i].dur;
        p->run_us = oc_median(d, nw);
        free(d);
        qsort(p->ev, p->n_ev, sizeof *p->ev, by_name_run_ts);
        for (size_t i = 0; i < p->n_ev; i++)
            p->ev[i].occ = i && !cmp_name(&p->ev[i], &p->ev[i - 1]) &&
                                   p->ev[i].run == p->ev[i - 1].run
                               ? p->ev[i - 1].occ + 1
                               : 0;
    } else {
        for (size_t i = 0; i < p->n_ev; i++)
            p->ev[i].rel = p->ev[i].ts;
    }
    free(w);
    if (!p->n_ev) {
        return oc_error_set(err, OC_ERR_INPUT, NULL, "%s: no kernel event lies inside a model_run", path);
    }
    qsort(p->ev, p->n_ev, sizeof *p->ev, by_name_occ_run);
    p->k = calloc(p->n_ev, sizeof *p->k);
    double *d = malloc(p->n_ev * sizeof *d);
    if (!p->k || !d) {
        free(d);
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: out of memory", path);
    }
    for (size_t i = 0, j; i < p->n_ev; i = j) {
        for (j = i; j < p->n_ev && !cmp_name(&p->ev[j], &p->ev[i]) &&
                    p->ev[j].occ == p->ev[i].occ;
             j++)
            d[j - i] = p->ev[j].dur;
        oc_pkernel *k = &p->k[p->n];
        if (!(k->name = malloc(p->ev[i].len + 1))) {
            free(d);
            return oc_error_set(err, OC_ERR_IO, NULL, "%s: out of memory", path);
        }
        p->n++;
        memcpy(k->name, p->ev[i].name, p->ev[i].len);
        k->name[p->ev[i].len] = '\0';
        k->op = p->ev[i].op;
        k->us = oc_median(d, j - i);
        k->runs = j - i;
        k->order = p->ev[i].rel;
        k->match = -1;
    }
    free(d);
    qsort(p->k, p->n, sizeof *p->k, by_order);
    return 0;
}

/* ---- the plan ---- */


static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Sort keys for the matching: index arrays over one side's kernels. */
static const oc_pkernel *sort_pk;
static int pk_by_name(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    int c = strcmp(sort_pk[a].name, sort_pk[b].name);
    return c ? c : a < b ? -1 : a > b;
}
static int pk_by_op(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    int c = strcmp(sort_pk[a].op, sort_pk[b].op);
    return c ? c : a < b ? -1 : a > b;
}

/* First index in idx[0..n) (sorted by key) whose key is >= s. */
static size_t lower(const size_t *idx, size_t n, const char *s, bool op)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const oc_pkernel *k = &sort_pk[idx[mid]];
        if (strcmp(op ? k->op : k->name, s) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Match pl[] and pk[]: by exact name (a planned reorder's name is the op,
 * ORT numbers its copies: those go by op), then the rest by op, each side
 * in run order.  Returns the number of pairs, or -1 out of memory. */
static long match(oc_planned *pl, size_t np, oc_pkernel *pk, size_t nk)
{
    size_t *idx = malloc((nk + 1) * sizeof *idx), *next = malloc((nk + 1) * sizeof *next);
    long pairs = -1;
    if (!idx || !next)
        goto out;
    pairs = 0;
    sort_pk = pk;
    for (int pass = 0; pass < 2; pass++) {
        bool op = pass == 1;
        for (size_t i = 0; i < nk; i++)
            idx[i] = next[i] = i;
        qsort(idx, nk, sizeof *idx, op ? pk_by_op : pk_by_name);
        for (size_t q = 0; q < np; q++) {
            if (pl[q].match >= 0 || (!op && pl[q].inserted))
                continue;
            const char *key = op ? pl[q].op : pl[q].name;
            size_t lb = lower(idx, nk, key, op);
            /* next[lb]: the first candidate of this key not yet taken */
            size_t j = next[lb];
            while (j < nk && pk[idx[j]].match >= 0 &&
                   !strcmp(op ? pk[idx[j]].op : pk[idx[j]].name, key))
                j++;
            if (j < nk && !strcmp(op ? pk[idx[j]].op : pk[idx[j]].name, key)) {
                pl[q].match = (long)idx[j];
                pl[q].by_op = op;
                pk[idx[j]].match = (long)q;
                pairs++;
                j++;
            }
            next[lb] = j;
        }
    }
out:
    free(idx);
    free(next);
    return pairs;
}

/* Whether s is "<tensor>_nchwc", ORT's name for a node it moved to the NCHWc
 * layout, of a tensor of g (the plan names it so only for the CPU's block). */
static bool nchwc_of_value(const oc_graph *g, const char *s)
{
    static const char sfx[] = "_nchwc";
    size_t n = strlen(s), sl = sizeof sfx - 1;
    if (n <= sl || strcmp(s + n - sl, sfx))
        return false;
    char *stem = malloc(n - sl + 1);
    if (!stem)
        return false;
    memcpy(stem, s, n - sl);
    stem[n - sl] = '\0';
    bool found = oc_graph_find(g, stem) >= 0;
    free(stem);
    return found;
}

/* How many profiled kernels name a planned kernel or a node of the model,
 * or are a kernel the runtime inserts and numbers ("ReorderOutput_token_3")
 * of an op the plan inserts too, or a tensor's NCHWc kernel. */
static size_t names_found(const oc_graph *g, const oc_planned *pl, size_t np, const oc_pkernel *pk,
                          size_t nk, bool *nomem)
{
    const char **names = malloc((np + g->n_nodes + 1) * sizeof *names);
    const char **ops = malloc((np + 1) * sizeof *ops);
    size_t nn = 0, no = 0, found = 0;
    *nomem = !names || !ops;
    if (*nomem)
        goto out;
    for (size_t q = 0; q < np; q++) {
        names[nn++] = pl[q].name;
        ops[no++] = pl[q].op;
    }
    for (size_t i = 0; i < g->n_nodes; i++)
        if (g->nodes[i].name)
            names[nn++] = g->nodes[i].name;
    qsort(names, nn, sizeof *names, cmp_str);
    qsort(ops, no, sizeof *ops, cmp_str);
    for (size_t i = 0; i < nk; i++) {
        const char *s = pk[i].name;
        size_t ol = strlen(pk[i].op);
        if (bsearch(&s, names, nn, sizeof *names, cmp_str))
            found++;
        else if (!strncmp(s, pk[i].op, ol) && s[ol] == '_' &&
                 bsearch(&pk[i].op, ops, no, sizeof *ops, cmp_str))
            found++;
        else if (nchwc_of_value(g, s))
            found++;
    }
out:
    free(names);
    free(ops);
    return found;
}

oc_status oc_profile_match(const char *model_path, const char *prof_path, const oc_graph *g,
                           const oc_estimate *e, oc_profile *pf, oc_profile_matched *out,
                           oc_error *err)
{
    memset(out, 0, sizeof *out);
    out->kernels = oc_json_kernels(e);
    size_t np = json_array_size(out->kernels);
    oc_planned *pl = out->kernels ? calloc(np + 1, sizeof *pl) : NULL;
    out->pl = pl;
    out->np = np;
    if (!out->kernels || !pl)
        return oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
    for (size_t q = 0; q < np; q++) {
        json_t *k = json_array_get(out->kernels, q);
        const char *name = json_string_value(json_object_get(k, "name"));
        const char *op = json_string_value(json_object_get(k, "op"));
        pl[q] = (oc_planned){name ? name : "", op ? op : "?",
                             json_number_value(json_object_get(k, "time_us")),
                             json_array_size(json_object_get(k, "nodes")) == 0, -1, false};
        out->pred_sum += pl[q].us;
    }
    /* A profile of another model matches by op alone: judge by names. */
    bool nomem = false;
    size_t found = names_found(g, pl, np, pf->k, pf->n, &nomem);
    long pairs = nomem ? -1 : match(pl, np, pf->k, pf->n);
    if (pairs < 0)
        return oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
    if (2 * found < pf->n)
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "%s does not look like a profile of %s (%zu of %zu kernel names "
                            "found)",
                            prof_path, model_path, found, pf->n);
    out->matched = (size_t)pairs;
    return OC_OK;
}

void oc_profile_matched_free(oc_profile_matched *m)
{
    free(m->pl);
    json_decref(m->kernels);
    memset(m, 0, sizeof *m);
}

oc_status oc_profile_from_kernels(const json_t *kernels, oc_profile *p, oc_error *err)
{
    memset(p, 0, sizeof *p);
    size_t n = json_array_size(kernels);
    if (!n)
        return oc_error_set(err, OC_ERR_INPUT, NULL, "no kernels listed");
    if (!(p->k = calloc(n, sizeof *p->k)))
        return oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const json_t *k = json_array_get(kernels, i);
        const char *name = json_string_value(json_object_get(k, "name"));
        const char *op = json_string_value(json_object_get(k, "op"));
        const json_t *us = json_object_get(k, "median_us");
        if (!name || !op || !json_is_number(us))
            return oc_error_set(err, OC_ERR_INPUT, NULL,
                                "kernel %zu: needs \"name\", \"op\" and \"median_us\"", i);
        if (!(p->k[i].name = strdup(name)))
            return oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
        p->n = i + 1;
        p->k[i].op = op;
        p->k[i].us = json_number_value(us);
        p->k[i].order = (double)i;
        p->k[i].runs = 1;
        p->k[i].match = -1;
    }
    return OC_OK;
}

oc_status oc_profile_kernel_times(const char *model_path, const char *prof_path,
                                  const oc_graph *g, const oc_estimate *e, double *meas,
                                  oc_error *err)
{
    oc_profile pf;
    oc_status rc = oc_profile_load(prof_path, &pf, err);
    if (!rc)
        rc = oc_profile_times(model_path, prof_path, g, e, &pf, meas, err);
    oc_profile_free(&pf);
    return rc;
}

oc_status oc_profile_times(const char *model_path, const char *prof_label, const oc_graph *g,
                           const oc_estimate *e, oc_profile *pf, double *meas, oc_error *err)
{
    oc_profile_matched mt = {0};
    oc_status rc = oc_profile_match(model_path, prof_label, g, e, pf, &mt, err);
    /* plan kernel k is the next oc_kernel_entries entries (an inlined
     * If: the kernels of its branch, measured when all of them are) */
    for (size_t k = 0, q = 0; !rc && k < e->plan.n_kernels; k++) {
        size_t n = oc_kernel_entries(e, k);
        meas[k] = n ? 0 : -1;
        for (size_t r = q; r < q + n; r++)
            meas[k] = r < mt.np && mt.pl[r].match >= 0 && meas[k] >= 0
                          ? meas[k] + pf->k[mt.pl[r].match].us
                          : -1;
        q += n;
    }
    oc_profile_matched_free(&mt);
    return rc;
}

static bool ends_nchwc(const char *s)
{
    size_t n = strlen(s);
    return n > 6 && !strcmp(s + n - 6, "_nchwc");
}

const char *oc_profile_nchwc_hint(const oc_planned *pl, size_t np, const oc_profile *pf)
{
    bool plan = false, ran = false;
    for (size_t q = 0; q < np; q++)
        plan |= ends_nchwc(pl[q].name);
    for (size_t i = 0; i < pf->n; i++)
        ran |= ends_nchwc(pf->k[i].name);
    if (ran && !plan)
        return "the profile ran NCHWc kernels and the plan has none: its CPU has the "
               "layout (try --nchwc-block 8 or 16)";
    if (plan && !ran)
        return "the plan has NCHWc kernels and the profile none: its CPU lacks the "
               "layout (try --nchwc-block 0)";
    return NULL;
}
