/* collect.c - collection of measured single-operator times (collect.h). */
#include "training/collect.h"
#include "report/format.h"
#include "training/driver.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "onnx/build.h"
#include "onnx/model.h"
#include "predictor/desc.h"

static bool stopped(const oc_collect *c) { return c->stop && *c->stop; }

#define MAX_SPREAD 0.5
#define DRIFT_RETRIES 2

/* "ort-cpu/t2/Conv/s0/000017"; Adam steps "torch-cpu/t1/adam/Conv/s0/000017"
 * (oc_split_of ignores the thread and optimizer segments). */
static void sample_id(oc_collect *c, oc_family fam, uint64_t index, char *buf, size_t size)
{
    bool adam = c->optimizer && strcmp(c->optimizer, "adam") == 0;
    snprintf(buf, size, "%s/t%" PRId64 "%s/%s/s%" PRIu64 "/%06" PRIu64, c->target, c->threads,
             adam ? "/adam" : "", oc_family_label(fam), c->seed, index);
}
/* The result field that names the runtime version, by driver. */
static const char *version_key(oc_collect *c)
{
    return c->entry->version_key;
}

typedef struct item {
    oc_sample s;
    char id[160];
    char model[PATH_MAX + 64];
    json_t *node, *fused, *features, *inputs; /* owned */
    json_t *result;                           /* owned, the accepted result */
    double calib[2];
    const char *why; /* reason for dropping, or NULL */
} item;

/* ---- small helpers ---- */

static oc_status io_error(const char *what, const char *path, oc_error *err)
{
    return oc_error_set(err, OC_ERR_IO, NULL, "%s %s: %s", what, path, strerror(errno));
}

static void utc_now(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static oc_status write_lines(const char *path, json_t *const *lines, size_t n, oc_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return io_error("cannot write", path, err);
    for (size_t i = 0; i < n; i++) {
        char *s = json_dumps(lines[i], OC_DATASET_JSON_FLAGS);
        if (!s || fputs(s, f) == EOF || fputc('\n', f) == EOF) {
            free(s);
            fclose(f);
            return io_error("cannot write", path, err);
        }
        free(s);
    }
    if (fclose(f) != 0)
        return io_error("cannot write", path, err);
    return 0;
}

/* The last `max` lines of a log file on stderr. */
/* ---- the driver ---- */

/* Run the driver; OC_ERR_IO with c->abandoned when a second Ctrl-C
 * abandoned the run. */
static oc_status spawn_driver(oc_collect *c, const char *manifest, const char *results,
                              const char *log, oc_error *err)
{
    char threads[24];
    snprintf(threads, sizeof threads, "%" PRId64, c->threads);
    char *argv[OC_COLLECT_MAX_DRIVER_ARGS + 12];
    size_t k = 0;
    argv[k++] = (char *)c->node;
    argv[k++] = (char *)c->driver;
    argv[k++] = "--threads";
    argv[k++] = threads;
    argv[k++] = "--in";
    argv[k++] = (char *)manifest;
    argv[k++] = "--out";
    argv[k++] = (char *)results;
    if (c->optimizer) {
        argv[k++] = "--optimizer";
        argv[k++] = (char *)c->optimizer;
    }
    for (size_t i = 0; i < c->n_driver_args; i++)
        argv[k++] = c->driver_argv[i];
    argv[k] = NULL;

    return oc_driver_run(argv, log, c->stop, c->log, &c->abandoned, err);
}

static bool stats_ok(const json_t *o)
{
    if (!json_is_object(o))
        return false;
    const char *keys[] = {"min", "median", "p10", "p90"};
    double v[4];
    for (int i = 0; i < 4; i++) {
        const json_t *x = json_object_get(o, keys[i]);
        if (!json_is_number(x))
            return false;
        v[i] = json_number_value(x);
        if (!isfinite(v[i]) || v[i] < 0)
            return false;
    }
    const json_t *n = json_object_get(o, "n");
    return v[1] > 0 && v[0] <= v[1] && v[2] <= v[1] && v[1] <= v[3] &&
           json_is_integer(n) && json_integer_value(n) >= 1;
}

/* Why a result line is unusable, or NULL. */
static const char *check_result(oc_collect *c, const json_t *r)
{
    if (!json_is_true(json_object_get(r, "ok")))
        return "the driver reported a failure";
    const json_t *v = json_object_get(r, version_key(c));
    if (!json_is_string(v) || !json_string_value(v)[0])
        return "no ort_version";
    const json_t *t = json_object_get(r, "threads");
    if (!json_is_integer(t) || json_integer_value(t) != c->threads)
        return "threads differ from the request";
    if (!stats_ok(json_object_get(r, "kernel_us")))
        return "kernel_us missing or inconsistent";
    if (!stats_ok(json_object_get(r, "wall_us")))
        return "wall_us missing or inconsistent";
    const json_t *p = json_object_get(r, "passes");
    if (!json_is_integer(p) || json_integer_value(p) < 1)
        return "passes missing";
    const json_t *s = json_object_get(r, "spread");
    if (!json_is_number(s) || !(json_number_value(s) >= 0))
        return "spread missing";
    if (!json_is_array(json_object_get(r, "kernels")))
        return "kernels missing";
    return NULL;
}

static json_t *manifest_line(const item *it)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(it->id));
    json_object_set_new(o, "model", json_string(it->model));
    json_object_set(o, "inputs", it->inputs);
    return o;
}

/* Time items[0..n) in one driver run (files named by `tag` in dir): fills
 * res[i] (a new reference or NULL when the driver gave none) and calib.
 * OC_ERR_IO when the driver fails, is abandoned or its results are bad. */
static oc_status measure(oc_collect *c, const char *dir, const char *tag, item **items,
                         size_t n, json_t **res, double calib[2], oc_error *err)
{
    char manifest[PATH_MAX + 64], results[PATH_MAX + 64], log[PATH_MAX + 64];
    snprintf(manifest, sizeof manifest, "%s/manifest-%s.jsonl", dir, tag);
    snprintf(results, sizeof results, "%s/results-%s.jsonl", dir, tag);
    snprintf(log, sizeof log, "%s/driver-%s.log", dir, tag);
    json_t **lines = calloc(n + 1, sizeof *lines);
    if (!lines)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    lines[0] = json_pack("{s:s}", "calibration_model", c->calib);
    for (size_t i = 0; i < n; i++)
        lines[i + 1] = manifest_line(items[i]);
    int rc = write_lines(manifest, lines, n + 1, err);
    for (size_t i = 0; i <= n; i++)
        json_decref(lines[i]);
    free(lines);
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++)
        res[i] = NULL;
    rc = spawn_driver(c, manifest, results, log, err);
    if (rc)
        return rc;

    FILE *f = fopen(results, "r");
    if (!f)
        return io_error("the driver wrote no results:", results, err);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, ncal = 0;
    calib[0] = calib[1] = -1;
    while ((len = getline(&line, &cap, f)) > 0) {
        lineno++;
        json_error_t je;
        json_t *j = json_loadb(line, (size_t)len, 0, &je);
        if (!json_is_object(j)) {
            rc = oc_error_set(err, OC_ERR_IO, NULL, "%s:%d: not a JSON object (%s)", results,
                              lineno, je.text);
            json_decref(j);
            break;
        }
        if (json_is_true(json_object_get(j, "calibration"))) {
            const char *when = json_string_value(json_object_get(j, "when"));
            const json_t *m = json_object_get(j, "median_us");
            if (json_is_false(json_object_get(j, "ok")) || !json_is_number(m) ||
                !(json_number_value(m) > 0) || !when) {
                const char *e = json_string_value(json_object_get(j, "error"));
                rc = oc_error_set(err, OC_ERR_IO, NULL, "%s:%d: the calibration kernel failed: %s",
                                  results, lineno, e ? e : "no median_us");
                json_decref(j);
                break;
            }
            calib[strcmp(when, "before") ? 1 : 0] = json_number_value(m);
            ncal++;
            json_decref(j);
            continue;
        }
        const char *id = json_string_value(json_object_get(j, "id"));
        size_t k = 0;
        while (id && k < n && strcmp(items[k]->id, id))
            k++;
        if (!id || k == n || res[k]) {
            rc = oc_error_set(err, OC_ERR_IO, NULL, "%s:%d: a result for %s %s", results, lineno,
                              !id      ? "no id"
                              : k == n ? "an id not in the manifest:"
                                       : "twice:",
                              id ? id : "");
            json_decref(j);
            break;
        }
        res[k] = j;
    }
    free(line);
    fclose(f);
    if (!rc && (ncal != 2 || calib[0] <= 0 || calib[1] <= 0)) {
        rc = oc_error_set(err, OC_ERR_IO, NULL, "%s: expected a calibration line before and after the samples",
                  results);
    }
    if (rc)
        for (size_t i = 0; i < n; i++) {
            json_decref(res[i]);
            res[i] = NULL;
        }
    return rc;
}

static double drift(const double calib[2])
{
    double lo = fmin(calib[0], calib[1]);
    return lo > 0 ? fabs(calib[1] - calib[0]) / lo : INFINITY;
}

/* ---- one chunk ---- */

static void item_free(item *it)
{
    oc_sample_free(&it->s);
    json_decref(it->node);
    json_decref(it->fused);
    json_decref(it->features);
    json_decref(it->inputs);
    json_decref(it->result);
    memset(it, 0, sizeof *it);
}

static json_t *dims_json(int rank, const int64_t *d)
{
    json_t *a = json_array();
    for (int i = 0; i < rank; i++)
        json_array_append_new(a, json_integer((json_int_t)d[i]));
    return a;
}

/* Draw, write and analyse one sample. */
static oc_status prepare(oc_collect *c, oc_family fam, uint64_t index, const char *dir,
                         item *it, oc_error *err)
{
    if (oc_sample_draw(fam, c->seed, index, NULL, &it->s, err))
        return err->status;
    snprintf(it->model, sizeof it->model, "%s/%06" PRIu64 ".onnx", dir, index);
    if (oc_sample_save(&it->s, it->model, err))
        return err->status;

    oc_model *m;
    if (oc_model_load_file(it->model, &m, err))
        return err->status;
    oc_analysis *a;
    if (oc_analyze(m, NULL, &a, err)) {
        oc_model_free(m);
        return err->status;
    }
    oc_arena *ar = oc_arena_new();
    oc_node_desc d;
    oc_status st =
        ar ? oc_node_desc_from_analysis(a, it->s.main_node, &d, ar, err) : oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    for (size_t i = 0; !st && i < it->s.n_fused; i++)
        st = oc_node_desc_add_fused(&d, a, it->s.fused_nodes[i], ar, err);
    int rc = 0;
    if (st) {
        rc = err->status;
    } else {
        it->node = oc_node_desc_to_json(&d);
        it->fused = oc_node_desc_fused_to_json(&d);
        it->features = oc_node_desc_cost_to_json(&d);
        const oc_graph *g = oc_model_graph(m);
        uint64_t in_elems = 0, out_elems = 0, e;
        for (size_t i = 0; i < g->n_inputs; i++)
            if (oc_tinfo_numel(oc_analysis_value(a, g->inputs[i]), &e))
                in_elems += e;
        for (size_t i = 0; i < g->n_outputs; i++)
            if (oc_tinfo_numel(oc_analysis_value(a, g->outputs[i]), &e))
                out_elems += e;
        const json_t *b = json_object_get(it->s.config, "batch");
        int64_t batch = json_is_integer(b)         ? json_integer_value(b)
                        : it->s.inputs[0].rank > 0 ? it->s.inputs[0].dims[0]
                                                   : 1;
        const oc_totals *t = oc_analysis_totals(a);
        json_object_set_new(it->features, "in_elems", json_integer((json_int_t)in_elems));
        json_object_set_new(it->features, "out_elems",
                            json_integer((json_int_t)out_elems));
        json_object_set_new(it->features, "batch", json_integer((json_int_t)batch));
        json_object_set_new(it->features, "weight_bytes",
                            json_integer((json_int_t)t->weight_bytes));
        json_object_set_new(it->features, "tensor_bytes",
                            json_integer((json_int_t)it->s.tensor_bytes));
        it->inputs = json_array();
        for (size_t i = 0; i < it->s.n_inputs; i++) {
            const oc_sample_input *in = &it->s.inputs[i];
            json_t *o = json_object();
            json_object_set_new(o, "name", json_string(in->name));
            json_object_set_new(o, "dtype", json_string(oc_dtype_name(in->dtype)));
            json_object_set_new(o, "shape", dims_json(in->rank, in->dims));
            if (in->bound > 0)
                json_object_set_new(o, "bound", json_integer((json_int_t)in->bound));
            json_array_append_new(it->inputs, o);
        }
        if (!it->node || !it->fused || !it->features || !it->inputs) {
            rc = oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
        }
    }
    oc_arena_free(ar);
    oc_analysis_free(a);
    oc_model_free(m);
    return rc;
}

static json_t *target_json(oc_collect *c, const char *version)
{
    json_t *t = json_object();
    json_object_set_new(t, "name", json_string(c->target));
    json_object_set_new(t, "runtime", json_string(c->entry->runtime));
    json_object_set_new(t, "version", version ? json_string(version) : json_null());
    json_object_set_new(t, "threads", json_integer((json_int_t)c->threads));
    json_object_set_new(t, "cpu", json_string(c->cpu));
    json_object_set_new(t, "machine", json_string(c->machine));
    json_object_set_new(t, "cores", json_integer((json_int_t)c->cores));
    if (c->optimizer)
        json_object_set_new(t, "optimizer", json_string(c->optimizer));
    if (c->driver_args_str[0])
        json_object_set_new(t, "driver_args", json_string(c->driver_args_str));
    return t;
}

static json_t *num(const json_t *o, const char *stats, const char *key)
{
    const json_t *s = stats ? json_object_get(o, stats) : o;
    return json_real(json_number_value(json_object_get(s, key)));
}

/* The dataset line of a measured (or, with r == NULL, a pending) item. */
static json_t *dataset_line(oc_collect *c, const item *it, const json_t *r,
                            const char *when)
{
    json_t *o = json_object();
    json_object_set_new(o, "v", json_integer(1));
    json_object_set_new(o, "id", json_string(it->id));
    json_object_set_new(o, "family", json_string(oc_family_label(it->s.family)));
    json_object_set_new(o, "op", json_string(it->s.op));
    json_object_set_new(o, "pattern", json_string(it->s.pattern));
    json_object_set_new(
        o, "target",
        target_json(c, r ? json_string_value(json_object_get(r, version_key(c))) : NULL));
    json_object_set(o, "config", it->s.config);
    json_object_set(o, "node", it->node);
    json_object_set(o, "fused", it->fused);
    json_object_set(o, "features", it->features);
    json_object_set_new(o, "sample",
                        json_pack("{s:I,s:I,s:i}", "seed", (json_int_t)it->s.seed,
                                  "index", (json_int_t)it->s.index, "redraws",
                                  (int)it->s.redraws));
    if (r) {
        json_object_set_new(o, "time_us", num(r, "kernel_us", "median"));
        json_object_set_new(o, "wall_us", num(r, "wall_us", "median"));
        json_object_set_new(o, "spread", num(r, NULL, "spread"));
        json_object_set_new(o, "runs",
                            json_integer(json_integer_value(
                                json_object_get(json_object_get(r, "kernel_us"), "n"))));
        json_object_set_new(
            o, "passes", json_integer(json_integer_value(json_object_get(r, "passes"))));
        json_t *ks = json_object();
        json_object_set_new(ks, "min", num(r, "kernel_us", "min"));
        json_object_set_new(ks, "p10", num(r, "kernel_us", "p10"));
        json_object_set_new(ks, "p90", num(r, "kernel_us", "p90"));
        json_object_set_new(o, "time_stats_us", ks);
        json_t *kern = json_array();
        const json_t *src = json_object_get(r, "kernels");
        for (size_t i = 0; i < json_array_size(src); i++) {
            const json_t *k = json_array_get(src, i);
            json_array_append_new(kern, json_pack("{s:O?,s:O?,s:O?}", "name",
                                                  json_object_get(k, "name"), "op",
                                                  json_object_get(k, "op"), "median_us",
                                                  json_object_get(k, "median_us")));
        }
        json_object_set_new(o, "kernels", kern);
        json_object_set_new(o, "calib_us",
                            json_pack("[f,f]", it->calib[0], it->calib[1]));
        json_object_set_new(o, "collected", json_string(when));
    }
    return o;
}

typedef struct chunk_stats {
    size_t kept, dropped;
    double worst_drift;
    int remeasured_chunk, remeasured_samples;
} chunk_stats;

/* Prepare, time and append one chunk of indices.  0 or an exit code. */
static oc_status run_chunk(oc_collect *c, oc_family fam, const uint64_t *idx, size_t n,
                           size_t chunk_no, chunk_stats *cs, oc_error *err)
{
    memset(cs, 0, sizeof *cs);
    char dir[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%s/%s-%04zu", c->workdir, oc_family_name(fam),
                 chunk_no) >= (int)sizeof dir) {
        return oc_error_set(err, OC_ERR_USAGE, NULL, "workdir path too long");
    }
    if (oc_mkdir_p(dir) != 0)
        return io_error("cannot create", dir, err);
    item *items = calloc(n, sizeof *items);
    item **ptrs = calloc(n, sizeof *ptrs);
    json_t **res = calloc(n, sizeof *res);
    json_t **best = calloc(n, sizeof *best);
    if (!items || !ptrs || !res || !best) {
        free(items), free(ptrs), free(res), free(best);
        return oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
    }
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        item *it = &items[i];
        sample_id(c, fam, idx[i], it->id, sizeof it->id);
        rc = prepare(c, fam, idx[i], dir, it, err);
        ptrs[i] = it;
    }
    if (rc)
        goto out;

    if (c->dry_run) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/pending.jsonl", dir);
        json_t **lines = calloc(n, sizeof *lines);
        for (size_t i = 0; lines && i < n; i++)
            lines[i] = dataset_line(c, &items[i], NULL, NULL);
        rc = lines ? write_lines(path, lines, n, err)
                   : oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        for (size_t i = 0; lines && i < n; i++)
            json_decref(lines[i]);
        free(lines);
        if (!rc) {
            /* The manifest as the driver would get it. */
            snprintf(path, sizeof path, "%s/manifest.jsonl", dir);
            json_t **ml = calloc(n + 1, sizeof *ml);
            if (ml) {
                ml[0] = json_pack("{s:s}", "calibration_model", c->calib);
                for (size_t i = 0; i < n; i++)
                    ml[i + 1] = manifest_line(&items[i]);
                rc = write_lines(path, ml, n + 1, err);
                for (size_t i = 0; i <= n; i++)
                    json_decref(ml[i]);
                free(ml);
            }
        }
        cs->kept = n;
        goto out;
    }

    /* Whole chunk; again while the calibration kernel drifts. */
    double best_drift = INFINITY, best_calib[2] = {0, 0};
    for (int attempt = 0; attempt <= DRIFT_RETRIES; attempt++) {
        char tag[16];
        snprintf(tag, sizeof tag, "a%d", attempt);
        double calib[2];
        rc = measure(c, dir, tag, ptrs, n, res, calib, err);
        if (rc)
            goto out;
        double d = drift(calib);
        if (d < best_drift) {
            best_drift = d;
            best_calib[0] = calib[0], best_calib[1] = calib[1];
            for (size_t i = 0; i < n; i++) {
                json_decref(best[i]);
                best[i] = res[i];
                res[i] = NULL;
            }
        } else {
            for (size_t i = 0; i < n; i++) {
                json_decref(res[i]);
                res[i] = NULL;
            }
        }
        if (d <= c->max_drift || stopped(c))
            break;
        cs->remeasured_chunk++;
        oc_logf(c->log, OC_LOG_PROGRESS,
                "[%s] chunk %zu: calibration drifted %.0f%% (%.1f -> %.1f us), "
                "measuring it again",
                oc_family_name(fam), chunk_no, 100 * d, calib[0], calib[1]);
    }
    cs->worst_drift = best_drift;
    if (best_drift > c->max_drift)
        oc_logf(c->log, OC_LOG_PROGRESS,
                "[%s] chunk %zu: warning: calibration still drifts %.0f%%; kept the "
                "steadiest run (calib_us records it)",
                oc_family_name(fam), chunk_no, 100 * best_drift);

    /* Validate; collect the noisy ones for one more measurement. */
    size_t n_noisy = 0;
    for (size_t i = 0; i < n; i++) {
        item *it = &items[i];
        it->calib[0] = best_calib[0], it->calib[1] = best_calib[1];
        const json_t *r = best[i];
        if (!r) {
            it->why = "no result from the driver";
            continue;
        }
        it->why = check_result(c, r);
        if (it->why) {
            const char *e = json_string_value(json_object_get(r, "error"));
            oc_logf(c->log, OC_LOG_PROGRESS, "[%s] dropped %s (%s): %s%s%s", oc_family_name(fam), it->id,
                    it->s.pattern, it->why, e ? ": " : "", e ? e : "");
            continue;
        }
        it->result = json_incref(best[i]);
        if (json_number_value(json_object_get(r, "spread")) > MAX_SPREAD)
            ptrs[n_noisy++] = it;
    }
    if (n_noisy && !stopped(c)) {
        cs->remeasured_samples = (int)n_noisy;
        double calib[2];
        rc = measure(c, dir, "noisy", ptrs, n_noisy, res, calib, err);
        if (rc)
            goto out;
        for (size_t i = 0; i < n_noisy; i++) {
            item *it = ptrs[i];
            const json_t *r = res[i];
            json_decref(it->result);
            it->result = NULL;
            if (!r || check_result(c, r)) {
                it->why = "failed when measured again";
            } else if (json_number_value(json_object_get(r, "spread")) > MAX_SPREAD) {
                it->why = "spread over 0.5 twice";
            } else {
                it->why = NULL;
                it->result = json_incref(res[i]);
                it->calib[0] = calib[0], it->calib[1] = calib[1];
            }
            if (it->why)
                oc_logf(c->log, OC_LOG_PROGRESS, "[%s] dropped %s (%s): %s", oc_family_name(fam), it->id,
                        it->s.pattern, it->why);
            json_decref(res[i]);
            res[i] = NULL;
        }
    } else if (n_noisy) {
        for (size_t i = 0; i < n_noisy; i++) {
            json_decref(ptrs[i]->result);
            ptrs[i]->result = NULL;
            ptrs[i]->why = "spread over 0.5 (interrupted before measuring it again)";
        }
    }

    /* Merge and append the chunk whole. */
    char when[32];
    utc_now(when, sizeof when);
    char **lines = calloc(n, sizeof *lines);
    size_t nl = 0;
    if (!lines) {
        rc = oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        item *it = &items[i];
        if (!it->result) {
            cs->dropped++;
            continue;
        }
        const char *v = json_string_value(json_object_get(it->result, version_key(c)));
        if (!c->ort_version[0])
            snprintf(c->ort_version, sizeof c->ort_version, "%s", v);
        json_t *line = dataset_line(c, it, it->result, when);
        lines[nl] = json_dumps(line, OC_DATASET_JSON_FLAGS);
        json_decref(line);
        if (!lines[nl]) {
            rc = oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
            break;
        }
        nl++;
    }
    if (!rc && nl)
        rc = oc_dataset_append(c->dataset, (const char *const *)lines, nl, err);
    cs->kept = rc ? 0 : nl;
    for (size_t i = 0; i < nl; i++)
        free(lines[i]);
    free(lines);

out:
    for (size_t i = 0; i < n; i++) {
        json_decref(best[i]);
        item_free(&items[i]);
    }
    free(items), free(ptrs), free(res), free(best);
    if (!c->dry_run && !rc) {
        if (c->own_workdir)
            oc_rm_tree(dir);
        else if (!c->keep)
            for (size_t i = 0; i < n; i++) {
                char p[PATH_MAX + 64];
                snprintf(p, sizeof p, "%s/%06" PRIu64 ".onnx", dir, idx[i]);
                unlink(p);
            }
    }
    return rc;
}

oc_status oc_collect_calibration_model(oc_collect *c, oc_error *err)
{
    snprintf(c->calib, sizeof c->calib, "%s/calib.onnx", c->workdir);
    oc_builder *b = oc_builder_new(17);
    if (!b)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    oc_builder_input(b, "A", OC_DT_FLOAT, 2, (const int64_t[]){256, 256});
    oc_builder_random(b, "B", OC_DT_FLOAT, 2, (const int64_t[]){256, 256}, -1, 1, 0);
    oc_builder_node(b, "MatMul", "calib", "A,B", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, 2, (const int64_t[]){256, 256});
    oc_status st = oc_builder_save(b, c->calib, err);
    oc_builder_free(b);
    return st;
}

#ifndef OC_SOURCE_DIR
#define OC_SOURCE_DIR "."
#endif

void oc_collect_use_driver(oc_collect *c)
{
    c->driver = getenv("ONNXCOST_COLLECTOR");
    if (!c->driver || !*c->driver) {
        snprintf(c->driver_buf, sizeof c->driver_buf, "%s/%s", OC_SOURCE_DIR, c->entry->driver);
        c->driver = c->driver_buf;
    }
    c->node = getenv(c->entry->interp_env);
    if (!c->node || !*c->node)
        c->node = c->entry->interp;
}

oc_status oc_collect_check_kernel(oc_collect *c, double us[2], oc_error *err)
{
    return measure(c, c->workdir, "check", NULL, 0, NULL, us, err);
}

oc_status oc_collect_family(oc_collect *c, oc_family fam, oc_error *err)
{
    uint64_t *todo = malloc((size_t)c->count * sizeof *todo);
    if (!todo)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    size_t n_todo = 0;
    for (int64_t i = 0; i < c->count; i++) {
        char id[160];
        sample_id(c, fam, (uint64_t)i, id, sizeof id);
        if (oc_idset_has(&c->done, id))
            c->skipped++;
        else
            todo[n_todo++] = (uint64_t)i;
    }
    const char *fname = oc_family_name(fam);
    uint64_t have = (uint64_t)c->count - n_todo;
    if (!n_todo) {
        if (!c->quiet)
            oc_logf(c->log, OC_LOG_PROGRESS, "[%s] %" PRIu64 "/%" PRId64 " samples already in the dataset",
                fname, have, c->count);
        free(todo);
        return OC_OK;
    }
    if (have && !c->quiet)
        oc_logf(c->log, OC_LOG_PROGRESS,
                "[%s] resuming: %" PRIu64 " of %" PRId64 " samples already in the "
                "dataset",
                fname, have, c->count);
    int rc = 0;
    double t_total = 0;
    size_t chunks = 0, dropped = 0, done = 0;
    for (size_t start = 0; start < n_todo && !rc && !stopped(c);
         start += (size_t)c->chunk) {
        size_t n = n_todo - start < (size_t)c->chunk ? n_todo - start : (size_t)c->chunk;
        double t0 = now_s();
        chunk_stats cs;
        rc = run_chunk(c, fam, todo + start, n, start / (size_t)c->chunk, &cs, err);
        if (rc)
            break;
        double dt = now_s() - t0;
        t_total += dt;
        chunks++;
        done += n;
        dropped += cs.dropped;
        c->kept += cs.kept;
        c->dropped += cs.dropped;
        size_t left = n_todo - done;
        double eta = left ? t_total / (double)done * (double)left : 0;
        char eb[32];
        if (c->quiet)
            continue;
        char line[PATH_MAX + 512];
        size_t l = (size_t)snprintf(line, sizeof line,
                                    "[%s] %" PRIu64 "/%" PRId64 " samples, %.1f s/chunk, eta %s",
                                    fname, have + done, c->count, t_total / (double)chunks,
                                    oc_fmt_seconds(eta, eb, sizeof eb));
        if (c->dry_run && l < sizeof line)
            l += (size_t)snprintf(line + l, sizeof line - l, " (dry run: %s/%s-%04zu)",
                                  c->workdir, fname, start / (size_t)c->chunk);
        else if (dropped && l < sizeof line)
            l += (size_t)snprintf(line + l, sizeof line - l, ", %zu dropped", dropped);
        if (cs.remeasured_chunk && l < sizeof line)
            l += (size_t)snprintf(line + l, sizeof line - l, ", chunk re-measured %dx",
                                  cs.remeasured_chunk);
        if (cs.remeasured_samples && l < sizeof line)
            snprintf(line + l, sizeof line - l, ", %d noisy re-measured",
                     cs.remeasured_samples);
        oc_logf(c->log, OC_LOG_PROGRESS, "%s", line);
        if (stopped(c) && start + n < n_todo && !c->quiet)
            oc_logf(c->log, OC_LOG_PROGRESS, "[%s] interrupted: stopping after this chunk", fname);
    }
    free(todo);
    return rc;
}


/* ONNX Runtime's own quantized kernels: no PyTorch training step runs them. */
static bool ort_only_family(int f)
{
    return f == OC_FAM_QCONV || f == OC_FAM_QMATMUL || f == OC_FAM_QELEMENTWISE;
}

oc_status oc_collect_add_families(oc_collect *c, const char *list, oc_error *err)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "all")) {
            for (int f = 0; f < OC_FAM_COUNT_; f++) {
                if (oc_collect_is_training(c) && ort_only_family(f))
                    continue;
                bool have = false;
                for (size_t i = 0; i < c->n_families; i++)
                    have |= c->families[i] == f;
                if (!have)
                    c->families[c->n_families++] = f;
            }
            continue;
        }
        int f = oc_family_from_name(t);
        if (f < 0)
            return oc_error_set(err, OC_ERR_USAGE, NULL,
                                "--family: unknown family '%s' (see 'onnxcost collect --help')",
                                t);
        if (oc_collect_is_training(c) && ort_only_family(f))
            return oc_error_set(err, OC_ERR_USAGE, NULL,
                                "--family: %s is ONNX Runtime's (ort-cpu only)", t);
        bool have = false;
        for (size_t i = 0; i < c->n_families; i++)
            have |= c->families[i] == f;
        if (!have)
            c->families[c->n_families++] = f;
    }
    if (!c->n_families)
        return oc_error_set(err, OC_ERR_USAGE, NULL, "--family: no family given");
    return OC_OK;
}

oc_status oc_collect_add_driver_args(oc_collect *c, const char *s, oc_error *err)
{
    size_t l = strlen(c->driver_args_str);
    snprintf(c->driver_args_str + l, sizeof c->driver_args_str - l, "%s%s", l ? " " : "", s);
    char *copy = strdup(s);
    if (!copy)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t;
         t = strtok_r(NULL, " \t", &save)) {
        if (c->n_driver_args >= OC_COLLECT_MAX_DRIVER_ARGS) {
            free(copy);
            return oc_error_set(err, OC_ERR_USAGE, NULL, "--driver-args: too many arguments");
        }
        c->driver_argv[c->n_driver_args++] = strdup(t);
    }
    free(copy);
    return OC_OK;
}
