/* cmd_collect.c - onnxcost collect: measured single-operator times.
 *
 * Per family and chunk: draw samples (predictor/sampler.h), write each as
 * a model, analyse it, list it in a manifest; run the timing driver
 * (collector/ort_bench.js) over the manifest; check every result, merge it
 * with the sample's description and append the chunk whole to the dataset
 * (predictor/dataset.h, docs/dataset.md).
 */
#include "cli/cli.h"
#include "predictor/hw.h"
#include "predictor/machine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "predictor/dataset.h"
#include "predictor/desc.h"
#include "predictor/sampler.h"

#ifndef OC_SOURCE_DIR
#define OC_SOURCE_DIR "."
#endif

static const char collect_help[] =
    "usage: onnxcost collect --family F[,F...] --count N --dataset FILE [options]\n"
    "\n"
    "Measure single-operator run times for the timing model. For each family,\n"
    "draws N realistic configurations (deterministic in --seed and the sample\n"
    "index), writes each as a one-node (or small fused pattern) ONNX model,\n"
    "times it with the target's driver and appends one line per sample to a\n"
    "gzip JSON Lines dataset (format: docs/dataset.md).\n"
    "\n"
    "  -m, --target NAME      ort-cpu (default; ONNX Runtime through Node.js) or\n"
    "                         torch-cpu (PyTorch training steps: forward, backward,\n"
    "                         optimizer step)\n"
    "      --optimizer NAME   torch-cpu: sgd (default; momentum 0.9) or adam; Adam\n"
    "                         sample ids carry an /adam segment\n"
    "  -T, --threads N        intra-op threads of the runtime (default 1)\n"
    "  -F, --family LIST      comma-separated families, or 'all':\n"
    "                         conv, convtranspose, gemm, matmul, pool, batchnorm,\n"
    "                         layernorm, softmax, elementwise, activation, reduce,\n"
    "                         concat, split, slice, transpose, reshape, resize,\n"
    "                         pad, gather, swish (x * Sigmoid(x)); ONNX Runtime's\n"
    "                         quantized kernels (ort-cpu only): qconv\n"
    "                         (QLinearConv), qmatmul (QLinearMatMul,\n"
    "                         MatMulIntegerToFloat, DynamicQuantizeMatMul,\n"
    "                         MatMulNBits),\n"
    "                         qelementwise (QLinearAdd/Mul/Sigmoid/LeakyRelu/\n"
    "                         AveragePool/GlobalAveragePool)\n"
    "  -n, --count N          samples per family (indices 0..N-1)\n"
    "  -d, --dataset FILE     dataset to append to (e.g. data/ort-cpu.jsonl.gz);\n"
    "                         samples already in it are skipped (resume)\n"
    "  -c, --chunk N          samples per driver run and per append (default 64)\n"
    "  -s, --seed S           sample stream (default 0)\n"
    "  -w, --workdir DIR      models, manifests and results (default: a temporary\n"
    "                         directory, removed at the end)\n"
    "      --keep             keep the models of finished chunks in the workdir\n"
    "      --dry-run          write models, manifests and the dataset lines without\n"
    "                         times (pending.jsonl) to the workdir; time nothing,\n"
    "                         append nothing; the workdir is kept\n"
    "      --driver-args STR  extra driver options, e.g. \"--repeats 5 --passes 2\"\n"
    "                         (split on spaces; repeatable; recorded in the dataset)\n"
    "      --max-drift X      calibration drift (relative) that makes a chunk be\n"
    "                         measured again (default 0.1)\n"
    "      --quiet            no progress lines (warnings and errors still)\n"
    "  -h, --help             this text\n"
    "\n"
    "The driver is $ONNXCOST_COLLECTOR or " OC_SOURCE_DIR "/collector/ort_bench.js,\n"
    "run with $ONNXCOST_NODE or 'node' from PATH. A chunk whose calibration kernel\n"
    "drifts by more than --max-drift between its start and end is measured again (twice at\n"
    "most); a sample whose spread exceeds 0.5 is measured once more and dropped if\n"
    "it still does. Ctrl-C finishes the current chunk and stops; a second Ctrl-C\n"
    "abandons it. The dataset never holds part of a chunk.\n"
    "\n"
    "Exit status: 0 done, 1 usage error, 3 I/O, driver or internal error,\n"
    "130 interrupted (the dataset holds every chunk finished before).\n";

#define MAX_DRIVER_ARGS 32
#define MAX_SPREAD 0.5
#define DRIFT_RETRIES 2

typedef struct collect {
    const char *target;
    const oc_target_entry *entry; /* its row of predictor/targets.def */
    const char *optimizer; /* torch-cpu: "sgd" or "adam"; NULL for ort-cpu */
    int64_t threads, count, chunk;
    uint64_t seed;
    int families[OC_FAM_COUNT_];
    size_t n_families;
    const char *dataset;
    char workdir[PATH_MAX];
    bool own_workdir, keep, dry_run;
    bool quiet; /* no banner, progress or summary lines (calibrate's) */
    double max_drift; /* calibration drift that triggers a re-measurement */
    char *driver_argv[MAX_DRIVER_ARGS];
    size_t n_driver_args;
    char driver_args_str[512];
    const char *driver, *node;
    char driver_buf[PATH_MAX];
    char calib[PATH_MAX + 16];
    char cpu[256];
    char machine[64]; /* fingerprint (predictor/machine.h) */
    long cores;
    char ort_version[64];
    oc_idset done;
    /* totals */
    uint64_t kept, dropped, skipped;
} collect;

static bool is_torch(const collect *c) { return c->entry->mode == OC_TARGET_TRAINING; }

/* The target's timing driver in the source tree. */
static const char *driver_path(collect *c)
{
    snprintf(c->driver_buf, sizeof c->driver_buf, "%s/%s", OC_SOURCE_DIR, c->entry->driver);
    return c->driver_buf;
}

/* "ort-cpu/t2/Conv/s0/000017"; Adam steps "torch-cpu/t1/adam/Conv/s0/000017"
 * (oc_split_of ignores the thread and optimizer segments). */
static void sample_id(const collect *c, oc_family fam, uint64_t index, char *buf, size_t size)
{
    bool adam = c->optimizer && strcmp(c->optimizer, "adam") == 0;
    snprintf(buf, size, "%s/t%" PRId64 "%s/%s/s%" PRIu64 "/%06" PRIu64, c->target, c->threads,
             adam ? "/adam" : "", oc_family_label(fam), c->seed, index);
}
/* The result field that names the runtime version, by driver. */
static const char *version_key(const collect *c)
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

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted += sig == SIGTERM ? 2 : 1;
}

/* ---- small helpers ---- */

static int io_error(const char *what, const char *path)
{
    cli_error("%s %s: %s", what, path, strerror(errno));
    return EXIT_IO;
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

static const char *eta_str(double s, char *buf, size_t n)
{
    if (s < 90)
        snprintf(buf, n, "%.0fs", s);
    else if (s < 5400)
        snprintf(buf, n, "%.0fm", s / 60);
    else
        snprintf(buf, n, "%.1fh", s / 3600);
    return buf;
}

static int write_lines(const char *path, json_t *const *lines, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return io_error("cannot write", path);
    for (size_t i = 0; i < n; i++) {
        char *s = json_dumps(lines[i], OC_DATASET_JSON_FLAGS);
        if (!s || fputs(s, f) == EOF || fputc('\n', f) == EOF) {
            free(s);
            fclose(f);
            return io_error("cannot write", path);
        }
        free(s);
    }
    if (fclose(f) != 0)
        return io_error("cannot write", path);
    return 0;
}

/* The last `max` lines of a log file on stderr. */
/* ---- the driver ---- */

/* Run the driver; 0, EXIT_IO (message printed) or EXIT_INTERRUPTED when a
 * second Ctrl-C abandoned the run. */
static int spawn_driver(const collect *c, const char *manifest, const char *results,
                        const char *log)
{
    char threads[24];
    snprintf(threads, sizeof threads, "%" PRId64, c->threads);
    char *argv[MAX_DRIVER_ARGS + 12];
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

    return cli_run_driver(argv, log, &interrupted);
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
static const char *check_result(const collect *c, const json_t *r)
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
 * 0, EXIT_IO or EXIT_INTERRUPTED. */
static int measure(const collect *c, const char *dir, const char *tag, item **items,
                   size_t n, json_t **res, double calib[2])
{
    char manifest[PATH_MAX + 64], results[PATH_MAX + 64], log[PATH_MAX + 64];
    snprintf(manifest, sizeof manifest, "%s/manifest-%s.jsonl", dir, tag);
    snprintf(results, sizeof results, "%s/results-%s.jsonl", dir, tag);
    snprintf(log, sizeof log, "%s/driver-%s.log", dir, tag);
    json_t **lines = calloc(n + 1, sizeof *lines);
    if (!lines)
        return EXIT_IO;
    lines[0] = json_pack("{s:s}", "calibration_model", c->calib);
    for (size_t i = 0; i < n; i++)
        lines[i + 1] = manifest_line(items[i]);
    int rc = write_lines(manifest, lines, n + 1);
    for (size_t i = 0; i <= n; i++)
        json_decref(lines[i]);
    free(lines);
    if (rc)
        return rc;
    for (size_t i = 0; i < n; i++)
        res[i] = NULL;
    rc = spawn_driver(c, manifest, results, log);
    if (rc)
        return rc;

    FILE *f = fopen(results, "r");
    if (!f)
        return io_error("the driver wrote no results:", results);
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
            cli_error("%s:%d: not a JSON object (%s)", results, lineno, je.text);
            json_decref(j);
            rc = EXIT_IO;
            break;
        }
        if (json_is_true(json_object_get(j, "calibration"))) {
            const char *when = json_string_value(json_object_get(j, "when"));
            const json_t *m = json_object_get(j, "median_us");
            if (json_is_false(json_object_get(j, "ok")) || !json_is_number(m) ||
                !(json_number_value(m) > 0) || !when) {
                const char *e = json_string_value(json_object_get(j, "error"));
                cli_error("%s:%d: the calibration kernel failed: %s", results, lineno,
                          e ? e : "no median_us");
                json_decref(j);
                rc = EXIT_IO;
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
            cli_error("%s:%d: a result for %s %s", results, lineno,
                      !id      ? "no id"
                      : k == n ? "an id not in the manifest:"
                               : "twice:",
                      id ? id : "");
            json_decref(j);
            rc = EXIT_IO;
            break;
        }
        res[k] = j;
    }
    free(line);
    fclose(f);
    if (!rc && (ncal != 2 || calib[0] <= 0 || calib[1] <= 0)) {
        cli_error("%s: expected a calibration line before and after the samples",
                  results);
        rc = EXIT_IO;
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
static int prepare(const collect *c, oc_family fam, uint64_t index, const char *dir,
                   item *it)
{
    oc_error err;
    oc_error_clear(&err);
    if (oc_sample_draw(fam, c->seed, index, NULL, &it->s, &err))
        return cli_fail(&err, 0);
    snprintf(it->model, sizeof it->model, "%s/%06" PRIu64 ".onnx", dir, index);
    if (oc_sample_save(&it->s, it->model, &err))
        return cli_fail(&err, 0);

    oc_model *m;
    if (oc_model_load_file(it->model, &m, &err))
        return cli_fail(&err, 0);
    oc_analysis *a;
    if (oc_analyze(m, NULL, &a, &err)) {
        oc_model_free(m);
        return cli_fail(&err, 0);
    }
    oc_arena *ar = oc_arena_new();
    oc_node_desc d;
    oc_status st =
        ar ? oc_node_desc_from_analysis(a, it->s.main_node, &d, ar, &err) : OC_ERR_NOMEM;
    for (size_t i = 0; !st && i < it->s.n_fused; i++)
        st = oc_node_desc_add_fused(&d, a, it->s.fused_nodes[i], ar, &err);
    int rc = 0;
    if (st) {
        rc = cli_fail(&err, 0);
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
            cli_error("out of memory");
            rc = EXIT_IO;
        }
    }
    oc_arena_free(ar);
    oc_analysis_free(a);
    oc_model_free(m);
    return rc;
}

static json_t *target_json(const collect *c, const char *version)
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
static json_t *dataset_line(const collect *c, const item *it, const json_t *r,
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
static int run_chunk(collect *c, oc_family fam, const uint64_t *idx, size_t n,
                     size_t chunk_no, chunk_stats *cs)
{
    memset(cs, 0, sizeof *cs);
    char dir[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%s/%s-%04zu", c->workdir, oc_family_name(fam),
                 chunk_no) >= (int)sizeof dir) {
        cli_error("workdir path too long");
        return EXIT_USAGE;
    }
    if (cli_mkdir_p(dir) != 0)
        return io_error("cannot create", dir);
    item *items = calloc(n, sizeof *items);
    item **ptrs = calloc(n, sizeof *ptrs);
    json_t **res = calloc(n, sizeof *res);
    json_t **best = calloc(n, sizeof *best);
    if (!items || !ptrs || !res || !best) {
        free(items), free(ptrs), free(res), free(best);
        cli_error("out of memory");
        return EXIT_IO;
    }
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        item *it = &items[i];
        sample_id(c, fam, idx[i], it->id, sizeof it->id);
        rc = prepare(c, fam, idx[i], dir, it);
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
        rc = lines ? write_lines(path, lines, n) : EXIT_IO;
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
                rc = write_lines(path, ml, n + 1);
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
        rc = measure(c, dir, tag, ptrs, n, res, calib);
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
        if (d <= c->max_drift || interrupted)
            break;
        cs->remeasured_chunk++;
        fprintf(stderr,
                "[%s] chunk %zu: calibration drifted %.0f%% (%.1f -> %.1f us), "
                "measuring it again\n",
                oc_family_name(fam), chunk_no, 100 * d, calib[0], calib[1]);
    }
    cs->worst_drift = best_drift;
    if (best_drift > c->max_drift)
        fprintf(stderr,
                "[%s] chunk %zu: warning: calibration still drifts %.0f%%; kept the "
                "steadiest run (calib_us records it)\n",
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
            fprintf(stderr, "[%s] dropped %s (%s): %s%s%s\n", oc_family_name(fam), it->id,
                    it->s.pattern, it->why, e ? ": " : "", e ? e : "");
            continue;
        }
        it->result = json_incref(best[i]);
        if (json_number_value(json_object_get(r, "spread")) > MAX_SPREAD)
            ptrs[n_noisy++] = it;
    }
    if (n_noisy && !interrupted) {
        cs->remeasured_samples = (int)n_noisy;
        double calib[2];
        rc = measure(c, dir, "noisy", ptrs, n_noisy, res, calib);
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
                fprintf(stderr, "[%s] dropped %s (%s): %s\n", oc_family_name(fam), it->id,
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
        rc = EXIT_IO;
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
            rc = EXIT_IO;
            break;
        }
        nl++;
    }
    if (!rc && nl) {
        oc_error err;
        oc_error_clear(&err);
        if (oc_dataset_append(c->dataset, (const char *const *)lines, nl, &err))
            rc = cli_fail(&err, 0);
    }
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
            cli_rm_tree(dir);
        else if (!c->keep)
            for (size_t i = 0; i < n; i++) {
                char p[PATH_MAX + 64];
                snprintf(p, sizeof p, "%s/%06" PRIu64 ".onnx", dir, idx[i]);
                unlink(p);
            }
    }
    return rc;
}

/* ---- the command ---- */

/* ONNX Runtime's own quantized kernels: no PyTorch training step runs them. */
static bool ort_only_family(int f)
{
    return f == OC_FAM_QCONV || f == OC_FAM_QMATMUL || f == OC_FAM_QELEMENTWISE;
}

static int parse_families(collect *c, const char *list)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "all")) {
            for (int f = 0; f < OC_FAM_COUNT_; f++) {
                if (is_torch(c) && ort_only_family(f))
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
        if (f < 0) {
            cli_error("--family: unknown family '%s' (see 'onnxcost collect --help')", t);
            return EXIT_USAGE;
        }
        if (is_torch(c) && ort_only_family(f)) {
            cli_error("--family: %s is ONNX Runtime's (ort-cpu only)", t);
            return EXIT_USAGE;
        }
        bool have = false;
        for (size_t i = 0; i < c->n_families; i++)
            have |= c->families[i] == f;
        if (!have)
            c->families[c->n_families++] = f;
    }
    if (!c->n_families) {
        cli_error("--family: no family given");
        return EXIT_USAGE;
    }
    return 0;
}

static int parse_driver_args(collect *c, const char *s)
{
    size_t l = strlen(c->driver_args_str);
    snprintf(c->driver_args_str + l, sizeof c->driver_args_str - l, "%s%s", l ? " " : "",
             s);
    char *copy = strdup(s);
    if (!copy)
        return EXIT_IO;
    for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t;
         t = strtok_r(NULL, " \t", &save)) {
        if (c->n_driver_args >= MAX_DRIVER_ARGS) {
            cli_error("--driver-args: too many arguments");
            free(copy);
            return EXIT_USAGE;
        }
        c->driver_argv[c->n_driver_args++] = strdup(t);
    }
    free(copy);
    return 0;
}

static int write_calibration_model(collect *c)
{
    snprintf(c->calib, sizeof c->calib, "%s/calib.onnx", c->workdir);
    oc_builder *b = oc_builder_new(17);
    if (!b)
        return EXIT_IO;
    oc_builder_input(b, "A", OC_DT_FLOAT, 2, (const int64_t[]){256, 256});
    oc_builder_random(b, "B", OC_DT_FLOAT, 2, (const int64_t[]){256, 256}, -1, 1, 0);
    oc_builder_node(b, "MatMul", "calib", "A,B", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, 2, (const int64_t[]){256, 256});
    oc_error err;
    oc_error_clear(&err);
    oc_status st = oc_builder_save(b, c->calib, &err);
    oc_builder_free(b);
    return st ? cli_fail(&err, 0) : 0;
}

static int collect_family(collect *c, oc_family fam)
{
    uint64_t *todo = malloc((size_t)c->count * sizeof *todo);
    if (!todo)
        return EXIT_IO;
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
            fprintf(stderr, "[%s] %" PRIu64 "/%" PRId64 " samples already in the dataset\n",
                fname, have, c->count);
        free(todo);
        return 0;
    }
    if (have && !c->quiet)
        fprintf(stderr,
                "[%s] resuming: %" PRIu64 " of %" PRId64 " samples already in the "
                "dataset\n",
                fname, have, c->count);
    int rc = 0;
    double t_total = 0;
    size_t chunks = 0, dropped = 0, done = 0;
    for (size_t start = 0; start < n_todo && !rc && !interrupted;
         start += (size_t)c->chunk) {
        size_t n = n_todo - start < (size_t)c->chunk ? n_todo - start : (size_t)c->chunk;
        double t0 = now_s();
        chunk_stats cs;
        rc = run_chunk(c, fam, todo + start, n, start / (size_t)c->chunk, &cs);
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
        fprintf(stderr, "[%s] %" PRIu64 "/%" PRId64 " samples, %.1f s/chunk, eta %s",
                fname, have + done, c->count, t_total / (double)chunks,
                eta_str(eta, eb, sizeof eb));
        if (c->dry_run)
            fprintf(stderr, " (dry run: %s/%s-%04zu)", c->workdir, fname,
                    start / (size_t)c->chunk);
        else if (dropped)
            fprintf(stderr, ", %zu dropped", dropped);
        if (cs.remeasured_chunk)
            fprintf(stderr, ", chunk re-measured %dx", cs.remeasured_chunk);
        if (cs.remeasured_samples)
            fprintf(stderr, ", %d noisy re-measured", cs.remeasured_samples);
        fputc('\n', stderr);
        if (interrupted && start + n < n_todo && !c->quiet)
            fprintf(stderr, "[%s] interrupted: stopping after this chunk\n", fname);
    }
    free(todo);
    return rc;
}

int cmd_collect(int argc, char **argv)
{
    enum { OPT_KEEP = 1000, OPT_DRY, OPT_DRIVER_ARGS, OPT_MAX_DRIFT, OPT_OPTIMIZER, OPT_QUIET };
    static const struct option opts[] = {
        {"target", required_argument, NULL, 'm'},
        {"threads", required_argument, NULL, 'T'},
        {"family", required_argument, NULL, 'F'},
        {"count", required_argument, NULL, 'n'},
        {"dataset", required_argument, NULL, 'd'},
        {"chunk", required_argument, NULL, 'c'},
        {"seed", required_argument, NULL, 's'},
        {"workdir", required_argument, NULL, 'w'},
        {"keep", no_argument, NULL, OPT_KEEP},
        {"dry-run", no_argument, NULL, OPT_DRY},
        {"driver-args", required_argument, NULL, OPT_DRIVER_ARGS},
        {"max-drift", required_argument, NULL, OPT_MAX_DRIFT},
        {"optimizer", required_argument, NULL, OPT_OPTIMIZER},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    static collect c;
    memset(&c, 0, sizeof c);
    c.target = oc_target_of_mode(OC_TARGET_INFERENCE)->name;
    c.threads = 1;
    c.chunk = 64;
    c.max_drift = 0.10;
    const char *families = NULL, *workdir = NULL;
    int64_t seed = 0;
    int opt, rc;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "m:T:F:n:d:c:s:w:h", opts, NULL)) != -1) {
        switch (opt) {
        case 'm':
            c.target = optarg;
            break;
        case 'T':
            if (cli_parse_i64("--threads", optarg, 1, 256, &c.threads))
                return EXIT_USAGE;
            break;
        case 'F':
            families = optarg;
            break;
        case 'n':
            if (cli_parse_i64("--count", optarg, 1, 999999, &c.count))
                return EXIT_USAGE;
            break;
        case 'd':
            c.dataset = optarg;
            break;
        case 'c':
            if (cli_parse_i64("--chunk", optarg, 1, 4096, &c.chunk))
                return EXIT_USAGE;
            break;
        case 's':
            if (cli_parse_i64("--seed", optarg, 0, INT64_MAX, &seed))
                return EXIT_USAGE;
            break;
        case 'w':
            workdir = optarg;
            break;
        case OPT_KEEP:
            c.keep = true;
            break;
        case OPT_DRY:
            c.dry_run = true;
            break;
        case OPT_DRIVER_ARGS:
            if ((rc = parse_driver_args(&c, optarg)))
                return rc;
            break;
        case OPT_MAX_DRIFT: {
            char *end;
            c.max_drift = strtod(optarg, &end);
            if (end == optarg || *end || !(c.max_drift > 0) || c.max_drift > 10) {
                cli_error("--max-drift: '%s' is not a fraction like 0.1", optarg);
                return EXIT_USAGE;
            }
            break;
        }
        case OPT_QUIET:
            c.quiet = true;
            break;
        case OPT_OPTIMIZER: {
            cli_mode mode = {0};
            int rc = cli_parse_optimizer(optarg, &mode);
            if (rc)
                return rc;
            c.optimizer = oc_optimizer_name(mode.optimizer);
            break;
        }
        case 'h':
            fputs(collect_help, stdout);
            return EXIT_OK;
        default:
            return cli_bad_option("collect", argv, "m:T:F:n:d:c:s:w:h");
        }
    }
    c.seed = (uint64_t)seed;
    if (optind != argc) {
        cli_error("collect: unexpected argument '%s'", argv[optind]);
        return EXIT_USAGE;
    }
    if (!(c.entry = oc_target_entry_of(oc_target_lookup(c.target)))) {
        cli_error("--target: '%s' is not one of %s", c.target, oc_target_names());
        return EXIT_USAGE;
    }
    if (c.optimizer && !is_torch(&c)) {
        cli_error("--optimizer: only the torch-cpu target runs training steps");
        return EXIT_USAGE;
    }
    if (is_torch(&c) && !c.optimizer)
        c.optimizer = "sgd";
    if (!families || !c.count || (!c.dataset && !c.dry_run)) {
        cli_error("collect: --family, --count and --dataset are required "
                  "(see 'onnxcost collect --help')");
        return EXIT_USAGE;
    }
    if ((rc = parse_families(&c, families)))
        return rc;

    c.driver = getenv("ONNXCOST_COLLECTOR");
    if (!c.driver || !*c.driver)
        c.driver = driver_path(&c);
    c.node = getenv(c.entry->interp_env);
    if (!c.node || !*c.node)
        c.node = c.entry->interp;
    /* libgomp's default spin-wait made 2 threads up to 4x slower than 1 on
     * these machines: the torch-cpu target always runs with it passive. */
    if (is_torch(&c))
        setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    if (!c.dry_run && access(c.driver, R_OK) != 0) {
        cli_error("the timing driver %s is missing (set ONNXCOST_COLLECTOR)", c.driver);
        return EXIT_IO;
    }
    oc_hw_cpu_name(c.cpu, sizeof c.cpu);
    if (!c.cpu[0])
        snprintf(c.cpu, sizeof c.cpu, "unknown");
    c.cores = sysconf(_SC_NPROCESSORS_ONLN);
    oc_machine mach;
    oc_machine_detect(&mach);
    snprintf(c.machine, sizeof c.machine, "%s", mach.id);

    int lock_fd = -1;
    oc_error err;
    oc_error_clear(&err);
    if (c.dataset) {
        if (!c.dry_run && oc_dataset_lock(c.dataset, &lock_fd, &err)) {
            rc = cli_fail(&err, 0);
            goto done;
        }
        uint64_t good;
        bool cut;
        if (oc_dataset_ids(c.dataset, &c.done, &good, &cut, &err)) {
            rc = cli_fail(&err, 1);
            goto done;
        }
        if (cut) {
            if (c.dry_run) {
                fprintf(stderr, "onnxcost: %s ends with an incomplete chunk (ignored)\n",
                        c.dataset);
            } else {
                fprintf(stderr,
                        "onnxcost: %s ends with an incomplete chunk (an interrupted "
                        "append); cutting it back to %" PRIu64 " bytes\n",
                        c.dataset, good);
                if (oc_dataset_truncate(c.dataset, good, &err)) {
                    rc = cli_fail(&err, 0);
                    goto done;
                }
            }
        }
    }
    /* The workdir, absolute: the manifest names models by full path. */
    if (workdir) {
        if (cli_mkdir_p(workdir) != 0) {
            rc = io_error("cannot create", workdir);
            goto done;
        }
        if (cli_absolute(workdir, c.workdir, sizeof c.workdir) != 0) {
            rc = io_error("cannot resolve", workdir);
            goto done;
        }
    } else {
        const char *tmp = getenv("TMPDIR");
        char tmpl[PATH_MAX];
        snprintf(tmpl, sizeof tmpl, "%s/onnxcost-collect.XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(tmpl)) {
            rc = io_error("cannot create a directory like", tmpl);
            goto done;
        }
        if (cli_absolute(tmpl, c.workdir, sizeof c.workdir) != 0) {
            rc = io_error("cannot resolve", tmpl);
            goto done;
        }
        c.own_workdir = !c.dry_run;
    }

    if ((rc = write_calibration_model(&c)))
        goto done;

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    struct sigaction old_int, old_term;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    if (!c.quiet)
        fprintf(stderr,
            "onnxcost collect: %s, %" PRId64 " thread%s, %zu famil%s x %" PRId64
            " samples, seed %" PRIu64 ", chunks of %" PRId64 "%s\n",
            c.target, c.threads, c.threads == 1 ? "" : "s", c.n_families,
            c.n_families == 1 ? "y" : "ies", c.count, c.seed, c.chunk,
            c.dry_run ? " (dry run)" : "");
    if (!c.quiet)
        fprintf(stderr, "  cpu: %s (%ld cores); workdir: %s\n", c.cpu, c.cores, c.workdir);
    for (size_t i = 0; i < c.n_families && !rc && !interrupted; i++)
        rc = collect_family(&c, (oc_family)c.families[i]);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);

    if (!rc && interrupted)
        rc = EXIT_INTERRUPTED;
    if (c.quiet)
        ;
    else if (c.dry_run)
        fprintf(stderr,
                "onnxcost collect: dry run: %" PRIu64 " samples written to %s "
                "(%" PRIu64 " already in the dataset)\n",
                c.kept, c.workdir, c.skipped);
    else
        fprintf(stderr,
                "onnxcost collect: %s: %" PRIu64 " samples appended, %" PRIu64
                " dropped, %" PRIu64 " already there%s%s%s\n",
                c.dataset, c.kept, c.dropped, c.skipped,
                c.ort_version[0] ? "; runtime " : "", c.ort_version,
                rc == EXIT_INTERRUPTED ? " (interrupted)" : "");

done:
    if (c.own_workdir && (rc == 0 || rc == EXIT_INTERRUPTED))
        cli_rm_tree(c.workdir);
    else if (c.own_workdir)
        fprintf(stderr, "onnxcost: the workdir %s is kept for inspection\n", c.workdir);
    if (lock_fd >= 0)
        close(lock_fd);
    oc_idset_free(&c.done);
    for (size_t i = 0; i < c.n_driver_args; i++)
        free(c.driver_argv[i]);
    return rc;
}
