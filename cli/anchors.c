/* anchors.c - whole networks timed by `onnxcost calibrate`: what a kernel
 * costs inside a network against the same kernel timed alone.
 *
 * The probe times kernels alone; inside a network ORT runs them with a
 * warm thread pool, data already in cache, and the pool's wake-ups between
 * them.  That ratio is the in-graph scale of the overhead fit
 * (estimate.h), and it is a property of the machine: 0.87 at 2 threads on
 * the machine the built-in model learnt, about 1.07 on
 * cpu-AuthenticAMD-f26-m2.  So calibrate also times a few whole networks
 * (the reference models that fitted the built-in overhead, graphs
 * committed under tests/reference/models with their weights left out) at
 * batch 1 and 4, filled with random weights here, and fits the scale of
 * this machine on them (oc_calib_fit_in_graph).
 */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "onnx/build.h"
#include "predictor/mlp.h"

#ifndef OC_SOURCE_DIR
#define OC_SOURCE_DIR "."
#endif

const char *const cli_anchor_names[CLI_N_ANCHORS] = {"squeezenet1_1", "mobilenet_v2",
                                                     "resnet18"};
const int64_t cli_anchor_batches[CLI_N_ANCHOR_BATCHES] = {1, 4};
const char cli_output_probe[] = "expand_output";
const uint64_t cli_output_probe_bytes[CLI_N_OUTPUT_PROBES] = {16000000, 64000000};
const char cli_chain_probe[] = "kernel_chain";
const size_t cli_chain_lengths[CLI_N_CHAINS] = {8, 256};

/* Where the anchors' graphs are: $ONNXCOST_ANCHORS or the source tree's. */
static const char *anchor_dir(void)
{
    const char *d = getenv("ONNXCOST_ANCHORS");
    return d && *d ? d : OC_SOURCE_DIR "/tests/reference/models";
}

int cli_anchor_path(const char *name, char *buf, size_t n)
{
    if (snprintf(buf, n, "%s/%s.onnx", anchor_dir(), name) >= (int)n)
        return -1;
    return access(buf, R_OK) == 0 ? 0 : -1;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in) {
        cli_error("cannot read %s: %s", from, strerror(errno));
        return EXIT_IO;
    }
    FILE *out = fopen(to, "wb");
    if (!out) {
        cli_error("cannot write %s: %s", to, strerror(errno));
        fclose(in);
        return EXIT_IO;
    }
    char buf[1 << 16];
    size_t k;
    int rc = 0;
    while ((k = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, k, out) != k) {
            rc = EXIT_IO;
            break;
        }
    if (ferror(in))
        rc = EXIT_IO;
    if (fclose(out) != 0)
        rc = EXIT_IO;
    fclose(in);
    if (rc)
        cli_error("cannot copy %s to %s", from, to);
    return rc;
}

/* Fill one external float tensor of `fd` with random values: weights of
 * rank >= 2 uniform in +-sqrt(3 / fan-in) (activations keep their scale
 * through the network, no overflow, no denormals), vectors (biases,
 * normalisation scales and variances) in [0.5, 1.5). */
static int fill_tensor(int fd, const oc_tensor *t, oc_rng *rng, const char *path)
{
    uint64_t bytes = t->numel * 4;
    if (t->ext_length && t->ext_length < bytes)
        bytes = t->ext_length;
    double fan_in = 1;
    for (int d = 1; d < t->rank; d++)
        fan_in *= (double)t->dims[d];
    double a = t->rank >= 2 ? sqrt(3.0 / (fan_in > 0 ? fan_in : 1)) : 0.5;
    double c = t->rank >= 2 ? 0 : 1.0;
    float buf[4096];
    uint64_t off = t->ext_offset;
    while (bytes >= 4) {
        size_t k = bytes / 4 < 4096 ? (size_t)(bytes / 4) : 4096;
        for (size_t i = 0; i < k; i++)
            buf[i] = (float)(c + a * (2 * oc_rng_uniform(rng) - 1));
        ssize_t w = pwrite(fd, buf, k * 4, (off_t)off);
        if (w != (ssize_t)(k * 4)) {
            cli_error("cannot write %s: %s", path, w < 0 ? strerror(errno) : "short write");
            return EXIT_IO;
        }
        off += k * 4;
        bytes -= k * 4;
    }
    return 0;
}

/* Copy the anchor graph `name` into `dir` with random weights in its
 * external data files; its input's per-sample shape to shape[1..rank). */
static int materialize(const char *name, const char *dir, char *model, size_t n,
                       char *input, size_t input_n, int64_t *shape, int *rank)
{
    char src[PATH_MAX];
    if (cli_anchor_path(name, src, sizeof src)) {
        cli_error("calibrate: the anchor network %s is missing (set ONNXCOST_ANCHORS to "
                  "the folder of tests/reference/models)", src);
        return EXIT_IO;
    }
    if (snprintf(model, n, "%s/%s.onnx", dir, name) >= (int)n) {
        cli_error("calibrate: %s: path too long", dir);
        return EXIT_IO;
    }
    oc_model *m = NULL;
    int rc = cli_load(src, &m);
    if (rc)
        return rc;
    const oc_graph *g = oc_model_graph(m);
    if (g->n_inputs != 1) {
        cli_error("calibrate: anchor %s has %zu inputs (one image input expected)", src,
                  g->n_inputs);
        oc_model_free(m);
        return EXIT_INPUT;
    }
    const oc_value *in = &g->values[g->inputs[0]];
    *rank = in->rank;
    snprintf(input, input_n, "%s", in->name);
    for (int d = 1; d < in->rank && d < 8; d++)
        shape[d] = oc_dim_is_known(in->dims[d]) ? in->dims[d].v : -1;
    if (in->dtype != OC_DT_FLOAT || in->rank < 2 || in->rank > 8) {
        cli_error("calibrate: anchor %s: its input is not a float tensor of rank 2 to 8", src);
        rc = EXIT_INPUT;
    }
    for (int d = 1; !rc && d < in->rank; d++)
        if (shape[d] < 0) {
            cli_error("calibrate: anchor %s: input dim %d is not fixed", src, d);
            rc = EXIT_INPUT;
        }
    if (!rc)
        rc = copy_file(src, model);
    oc_rng rng;
    oc_rng_seed(&rng, 20261204);
    for (size_t v = 0; !rc && v < g->n_values; v++) {
        const oc_tensor *t = g->values[v].constant;
        if (!g->values[v].is_initializer || !t || !t->external || !t->location)
            continue;
        if (t->dtype != OC_DT_FLOAT || strchr(t->location, '/')) {
            cli_error("calibrate: anchor %s: tensor '%s' is not float32 data beside the model",
                      src, t->name);
            rc = EXIT_INPUT;
            break;
        }
        char data[PATH_MAX];
        if (snprintf(data, sizeof data, "%s/%s", dir, t->location) >= (int)sizeof data) {
            cli_error("calibrate: %s: path too long", dir);
            rc = EXIT_IO;
            break;
        }
        int fd = open(data, O_WRONLY | O_CREAT, 0644);
        if (fd < 0) {
            cli_error("cannot write %s: %s", data, strerror(errno));
            rc = EXIT_IO;
            break;
        }
        rc = fill_tensor(fd, t, &rng, data);
        if (close(fd) != 0 && !rc) {
            cli_error("cannot write %s: %s", data, strerror(errno));
            rc = EXIT_IO;
        }
    }
    oc_model_free(m);
    return rc;
}

/* The output probe of `bytes`: Expand of one float, written to `path`. */
static int output_probe(uint64_t bytes, const char *path)
{
    oc_builder *b = oc_builder_new(13);
    int64_t one = 1, n = (int64_t)(bytes / 4);
    oc_error err;
    oc_error_clear(&err);
    if (!b) {
        cli_error("out of memory");
        return EXIT_IO;
    }
    oc_builder_input(b, "x", OC_DT_FLOAT, 1, &one);
    oc_builder_ints(b, "size", 1, &one, &n);
    oc_builder_node(b, "Expand", "expand", "x,size", "y");
    oc_builder_output(b, "y", OC_DT_FLOAT, 1, &n);
    oc_status st = oc_builder_save(b, path, &err);
    oc_builder_free(b);
    return st ? cli_fail(&err, 0) : 0;
}

/* The kernel chain of length n: Neg and Abs of 16 floats, alternating
 * (nothing for ONNX Runtime to fold or fuse), written to `path`. */
static int chain_probe(size_t n, const char *path)
{
    oc_builder *b = oc_builder_new(13);
    int64_t d[2] = {1, 16};
    oc_error err;
    oc_error_clear(&err);
    if (!b) {
        cli_error("out of memory");
        return EXIT_IO;
    }
    oc_builder_input(b, "x", OC_DT_FLOAT, 2, d);
    char in[32] = "x", out[32], name[32];
    for (size_t i = 0; i < n; i++) {
        snprintf(out, sizeof out, i + 1 < n ? "t%zu" : "y", i);
        snprintf(name, sizeof name, "k%zu", i);
        oc_builder_node(b, i % 2 ? "Abs" : "Neg", name, in, out);
        memcpy(in, out, sizeof in);
    }
    oc_builder_output(b, "y", OC_DT_FLOAT, 2, d);
    oc_status st = oc_builder_save(b, path, &err);
    oc_builder_free(b);
    return st ? cli_fail(&err, 0) : 0;
}

/* The run of `id` in a driver's result lines, or a reason it has none. */
static const char *result_of(const char *results, const char *id, double *wall_us,
                             double *spread, double *kernel_us)
{
    json_error_t je;
    FILE *f = fopen(results, "r");
    if (!f)
        return "the driver wrote no results";
    const char *why = "the driver reported no result";
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        json_t *r = json_loads(line, 0, &je);
        const char *rid = json_string_value(json_object_get(r, "id"));
        if (rid && !strcmp(rid, id)) {
            double w = json_number_value(
                json_object_get(json_object_get(r, "wall_us"), "median"));
            /* the spread of the wall times (p90 - p10 over the median) */
            const json_t *sj = json_object_get(r, "wall_spread");
            double s = json_number_value(sj ? sj : json_object_get(r, "spread"));
            if (!json_is_true(json_object_get(r, "ok")))
                why = "the driver reported a failure";
            else if (!(w > 0) || !isfinite(w))
                why = "no wall time";
            else {
                *kernel_us = json_number_value(
                    json_object_get(json_object_get(r, "kernel_us"), "median"));
                *wall_us = w;
                *spread = s >= 0 && isfinite(s) ? s : 0;
                why = NULL;
            }
        }
        json_decref(r);
        if (!why)
            break;
    }
    free(line);
    fclose(f);
    return why;
}

/* One manifest line: the model at `model` fed one float32 input. */
static int manifest_line(FILE *mf, const char *id, const char *model, const char *input,
                         json_t *shape)
{
    json_t *line = json_pack("{s:s, s:s, s:[{s:s, s:s, s:o}]}", "id", id, "model", model,
                             "inputs", "name", input, "dtype", "float32", "shape", shape);
    char *s = line ? json_dumps(line, JSON_COMPACT) : NULL;
    int rc = !s || fprintf(mf, "%s\n", s) < 0;
    free(s);
    json_decref(line);
    if (rc)
        cli_error("cannot write the anchors' manifest");
    return rc ? EXIT_IO : 0;
}

/* The anchor networks (random weights) and the output probes in `dir`,
 * listed in `manifest` for the driver. */
static int write_manifest(const char *dir, const char *manifest)
{
    FILE *mf = fopen(manifest, "w");
    if (!mf) {
        cli_error("cannot write %s: %s", manifest, strerror(errno));
        return EXIT_IO;
    }
    int rc = 0;
    for (int a = 0; a < CLI_N_ANCHORS && !rc; a++) {
        char model[PATH_MAX], input[256];
        int64_t shape[8];
        int rank = 0;
        rc = materialize(cli_anchor_names[a], dir, model, sizeof model, input, sizeof input,
                         shape, &rank);
        for (int b = 0; !rc && b < CLI_N_ANCHOR_BATCHES; b++) {
            json_t *dims = json_array();
            json_array_append_new(dims, json_integer(cli_anchor_batches[b]));
            for (int d = 1; d < rank; d++)
                json_array_append_new(dims, json_integer(shape[d]));
            char id[96];
            snprintf(id, sizeof id, "anchor/%s/b%" PRId64, cli_anchor_names[a],
                     cli_anchor_batches[b]);
            rc = manifest_line(mf, id, model, input, dims);
        }
    }
    for (int p = 0; !rc && p < CLI_N_OUTPUT_PROBES; p++) {
        char model[PATH_MAX], id[64];
        snprintf(id, sizeof id, "output/%" PRIu64, cli_output_probe_bytes[p]);
        if (snprintf(model, sizeof model, "%s/output%d.onnx", dir, p) >= (int)sizeof model) {
            cli_error("calibrate: %s: path too long", dir);
            rc = EXIT_IO;
        } else if (!(rc = output_probe(cli_output_probe_bytes[p], model))) {
            rc = manifest_line(mf, id, model, "x", json_pack("[i]", 1));
        }
    }
    for (int c = 0; !rc && c < CLI_N_CHAINS; c++) {
        char model[PATH_MAX], id[64];
        snprintf(id, sizeof id, "chain/%zu", cli_chain_lengths[c]);
        if (snprintf(model, sizeof model, "%s/chain%d.onnx", dir, c) >= (int)sizeof model) {
            cli_error("calibrate: %s: path too long", dir);
            rc = EXIT_IO;
        } else if (!(rc = chain_probe(cli_chain_lengths[c], model))) {
            rc = manifest_line(mf, id, model, "x", json_pack("[i, i]", 1, 16));
        }
    }
    if (fclose(mf) != 0 && !rc) {
        cli_error("cannot write %s: %s", manifest, strerror(errno));
        rc = EXIT_IO;
    }
    if (rc)
        remove(manifest); /* made again by the next call */
    return rc;
}

int cli_anchors_measure(int64_t threads, const char *workdir,
                        const volatile sig_atomic_t *interrupted, cli_anchor_run *runs,
                        size_t *n_runs)
{
    *n_runs = 0;
    const char *node = getenv("ONNXCOST_NODE");
    if (!node || !*node)
        node = "node";
    const char *driver = getenv("ONNXCOST_COLLECTOR");
    if (!driver || !*driver)
        driver = OC_SOURCE_DIR "/collector/ort_bench.js";
    char dir[PATH_MAX], manifest[PATH_MAX], results[PATH_MAX], log[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%s/anchors", workdir) >= (int)sizeof dir - 32) {
        cli_error("calibrate: %s: path too long", workdir);
        return EXIT_IO;
    }
    /* room checked above: the names below are short */
    int w = snprintf(log, sizeof log, "%.*s/driver.log", (int)sizeof dir - 32, dir);
    w |= snprintf(manifest, sizeof manifest, "%.*s/manifest.jsonl", (int)sizeof dir - 32, dir);
    w |= snprintf(results, sizeof results, "%.*s/results-t%d.jsonl", (int)sizeof dir - 32, dir,
                  (int)threads);
    (void)w;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        cli_error("cannot create %s: %s", dir, strerror(errno));
        return EXIT_IO;
    }
    /* The models and the manifest, made once for every thread count and
     * repeat of this calibration. */
    int rc = access(manifest, R_OK) == 0 ? 0 : write_manifest(dir, manifest);
    if (rc)
        return rc;
    /* As the reference runs (scripts/measure_models.py) and the probe: five
     * repeats in two interleaved passes; a pool that does not spin at two
     * or more threads. */
    char th[24];
    snprintf(th, sizeof th, "%" PRId64, threads);
    char *argv[] = {(char *)node, (char *)driver, "--threads", th, "--in", manifest,
                    "--out", results, "--warmup", "1", "--repeats", "5", "--passes", "2",
                    "--max-seconds", "40", threads > 1 ? "--no-spin" : NULL, NULL};
    if ((rc = cli_run_driver(argv, log, interrupted)))
        return rc;
    for (int a = 0; a < CLI_N_ANCHORS; a++)
        for (int b = 0; b < CLI_N_ANCHOR_BATCHES; b++) {
            cli_anchor_run *r = &runs[*n_runs];
            memset(r, 0, sizeof *r);
            r->name = cli_anchor_names[a];
            r->batch = cli_anchor_batches[b];
            r->threads = threads;
            char id[96];
            snprintf(id, sizeof id, "anchor/%s/b%" PRId64, r->name, r->batch);
            const char *why = result_of(results, id, &r->wall_us, &r->spread, &r->kernel_us);
            if (why) {
                cli_error("calibrate: %s at %" PRId64 " thread%s: %s (%s)", id, threads,
                          threads == 1 ? "" : "s", why, log);
                return EXIT_IO;
            }
            (*n_runs)++;
        }
    for (int p = 0; p < CLI_N_OUTPUT_PROBES; p++) {
        cli_anchor_run *r = &runs[*n_runs];
        memset(r, 0, sizeof *r);
        r->name = cli_output_probe;
        r->threads = threads;
        r->output_bytes = cli_output_probe_bytes[p];
        char id[64];
        snprintf(id, sizeof id, "output/%" PRIu64, r->output_bytes);
        const char *why = result_of(results, id, &r->wall_us, &r->spread, &r->kernel_us);
        if (why) {
            cli_error("calibrate: %s at %" PRId64 " thread%s: %s (%s)", id, threads,
                      threads == 1 ? "" : "s", why, log);
            return EXIT_IO;
        }
        (*n_runs)++;
    }
    for (int c = 0; c < CLI_N_CHAINS; c++) {
        cli_anchor_run *r = &runs[*n_runs];
        memset(r, 0, sizeof *r);
        r->name = cli_chain_probe;
        r->threads = threads;
        r->kernels = cli_chain_lengths[c];
        char id[64];
        snprintf(id, sizeof id, "chain/%zu", r->kernels);
        const char *why = result_of(results, id, &r->wall_us, &r->spread, &r->kernel_us);
        if (!why && !(r->kernel_us > 0))
            why = "no profiled kernel time";
        if (why) {
            cli_error("calibrate: %s at %" PRId64 " thread%s: %s (%s)", id, threads,
                      threads == 1 ? "" : "s", why, log);
            return EXIT_IO;
        }
        (*n_runs)++;
    }
    return 0;
}
