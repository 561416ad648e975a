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
#include "training/anchors.h"
#include "training/driver.h"

#include <jansson.h>
#include <stdio.h>

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
#include "onnx/model.h"
#include "predictor/estimate.h"
#include "predictor/mlp.h"

#ifndef OC_SOURCE_DIR
#define OC_SOURCE_DIR "."
#endif

const char *const oc_anchor_names[OC_N_ANCHORS] = {"squeezenet1_1", "mobilenet_v2",
                                                     "resnet18"};
const int64_t oc_anchor_batches[OC_N_ANCHOR_BATCHES] = {1, 4};
const char oc_output_probe[] = "expand_output";
const uint64_t oc_output_probe_bytes[OC_N_OUTPUT_PROBES] = {40000000, 64000000};
const char oc_chain_probe[] = "kernel_chain";
const size_t oc_chain_lengths[OC_N_CHAINS] = {8, 256};
const char oc_step_probe[] = "step_chain";
const size_t oc_step_lengths[OC_N_STEP_CHAINS] = {4, 32};
const char oc_loop_probe[] = "loop_chain";
const size_t oc_loop_trips[OC_N_LOOP_CHAINS] = {4, 64};
const char *const oc_curve_names[OC_N_CURVE_NETS] = {
    /* blind16 */
    "lpd_recon", "rl_deconv", "admm_qp_layer", "hnn_leapfrog",
    /* blind17 */
    "qr_eigensolver", "deep_hedging", "yee_fdtd", "imu_strapdown",
    /* blind18 */
    "nmf_multiplicative", "lqr_riccati", "gray_scott", "clockwork_rnn"};
const int64_t oc_curve_batches[OC_N_CURVE_BATCHES] = {1, 4, 16};

bool oc_anchor_is_curve(const oc_anchor_run *r)
{
    for (int c = 0; c < OC_N_CURVE_NETS; c++)
        if (r->name == oc_curve_names[c])
            return true;
    return false;
}

const char *oc_anchor_dir(void)
{
    const char *d = getenv("ONNXCOST_ANCHORS");
    return d && *d ? d : OC_SOURCE_DIR "/tests/reference/models";
}

/* dir/name.onnx into buf; 0, or -1 when it is not readable. */
static int graph_in(const char *dir, const char *name, char *buf, size_t n)
{
    if (snprintf(buf, n, "%s/%s.onnx", dir, name) >= (int)n)
        return -1;
    return access(buf, R_OK) == 0 ? 0 : -1;
}

int oc_anchor_path(const char *name, char *buf, size_t n)
{
    return graph_in(oc_anchor_dir(), name, buf, n);
}

int oc_anchor_run_path(const oc_anchor_run *r, char *buf, size_t n)
{
    return graph_in(r->dir ? r->dir : oc_anchor_dir(), r->name, buf, n);
}

static oc_status copy_file(const char *from, const char *to, oc_error *err)
{
    FILE *in = fopen(from, "rb");
    if (!in) {
        return oc_error_set(err, OC_ERR_IO, NULL, "cannot read %s: %s", from, strerror(errno));
    }
    FILE *out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return oc_error_set(err, OC_ERR_IO, NULL, "cannot write %s: %s", to, strerror(errno));
    }
    char buf[1 << 16];
    size_t k;
    int rc = 0;
    while ((k = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, k, out) != k) {
            rc = OC_ERR_IO;
            break;
        }
    if (ferror(in))
        rc = OC_ERR_IO;
    if (fclose(out) != 0)
        rc = OC_ERR_IO;
    fclose(in);
    if (rc)
        oc_error_set(err, OC_ERR_IO, NULL, "cannot copy %s to %s", from, to);
    return rc;
}

/* Fill one external float tensor of `fd` with random values: weights of
 * rank >= 2 uniform in +-sqrt(3 / fan-in) (activations keep their scale
 * through the network, no overflow, no denormals), vectors (biases,
 * normalisation scales and variances) in [0.5, 1.5). */
static oc_status fill_tensor(int fd, const oc_tensor *t, oc_rng *rng, const char *path,
                             oc_error *err)
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
            return oc_error_set(err, OC_ERR_IO, NULL, "cannot write %s: %s", path, w < 0 ? strerror(errno) : "short write");
        }
        off += k * 4;
        bytes -= k * 4;
    }
    return 0;
}

/* Copy the anchor graph `name` into `dir` with random weights in its
 * external data files; its input's per-sample shape to shape[1..rank). */
static oc_status materialize(const char *name, const char *dir, char *model, size_t n,
                             char *input, size_t input_n, int64_t *shape, int *rank,
                             oc_error *err)
{
    char src[PATH_MAX];
    if (oc_anchor_path(name, src, sizeof src)) {
        return oc_error_set(err, OC_ERR_IO, NULL, "calibrate: the anchor network %s is missing (set ONNXCOST_ANCHORS to "
                  "the folder of tests/reference/models)", src);
    }
    if (snprintf(model, n, "%s/%s.onnx", dir, name) >= (int)n) {
        return oc_error_set(err, OC_ERR_IO, NULL, "calibrate: %s: path too long", dir);
    }
    oc_model *m = NULL;
    int rc = oc_model_load(src, NULL, &m, err);
    if (rc) /* as the command's loads: a model that does not load is bad input */
        return err->status = rc == OC_ERR_IO ? OC_ERR_INPUT : rc;
    const oc_graph *g = oc_model_graph(m);
    if (g->n_inputs != 1) {
        oc_model_free(m);
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "calibrate: anchor %s has %zu inputs (one image input expected)",
                            src, g->n_inputs);
    }
    const oc_value *in = &g->values[g->inputs[0]];
    *rank = in->rank;
    snprintf(input, input_n, "%s", in->name);
    for (int d = 1; d < in->rank && d < 8; d++)
        shape[d] = oc_dim_is_known(in->dims[d]) ? in->dims[d].v : -1;
    if (in->dtype != OC_DT_FLOAT || in->rank < 2 || in->rank > 8) {
        rc = oc_error_set(err, OC_ERR_INPUT, NULL, "calibrate: anchor %s: its input is not a float tensor of rank 2 to 8", src);
    }
    for (int d = 1; !rc && d < in->rank; d++)
        if (shape[d] < 0) {
            rc = oc_error_set(err, OC_ERR_INPUT, NULL, "calibrate: anchor %s: input dim %d is not fixed", src, d);
        }
    if (!rc)
        rc = copy_file(src, model, err);
    oc_rng rng;
    oc_rng_seed(&rng, 20261204);
    for (size_t v = 0; !rc && v < g->n_values; v++) {
        const oc_tensor *t = g->values[v].constant;
        if (!g->values[v].is_initializer || !t || !t->external || !t->location)
            continue;
        if (t->dtype != OC_DT_FLOAT || strchr(t->location, '/')) {
            rc = oc_error_set(err, OC_ERR_INPUT, NULL, "calibrate: anchor %s: tensor '%s' is not float32 data beside the model",
                      src, t->name);
            break;
        }
        char data[PATH_MAX];
        if (snprintf(data, sizeof data, "%s/%s", dir, t->location) >= (int)sizeof data) {
            rc = oc_error_set(err, OC_ERR_IO, NULL, "calibrate: %s: path too long", dir);
            break;
        }
        int fd = open(data, O_WRONLY | O_CREAT, 0644);
        if (fd < 0) {
            rc = oc_error_set(err, OC_ERR_IO, NULL, "cannot write %s: %s", data, strerror(errno));
            break;
        }
        rc = fill_tensor(fd, t, &rng, data, err);
        if (close(fd) != 0 && !rc) {
            rc = oc_error_set(err, OC_ERR_IO, NULL, "cannot write %s: %s", data, strerror(errno));
        }
    }
    oc_model_free(m);
    return rc;
}

/* The output probe of `bytes`: Expand of one float, written to `path`. */
static oc_status output_probe(uint64_t bytes, const char *path, oc_error *err)
{
    oc_builder *b = oc_builder_new(13);
    int64_t one = 1, n = (int64_t)(bytes / 4);
    if (!b) {
        return oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
    }
    oc_builder_input(b, "x", OC_DT_FLOAT, 1, &one);
    oc_builder_ints(b, "size", 1, &one, &n);
    oc_builder_node(b, "Expand", "expand", "x,size", "y");
    oc_builder_output(b, "y", OC_DT_FLOAT, 1, &n);
    oc_status st = oc_builder_save(b, path, err);
    oc_builder_free(b);
    return st;
}

/* The kernel chain of length n: Neg and Abs of 16 floats, alternating
 * (nothing for ONNX Runtime to fold or fuse); NULL when out of memory. */
static oc_builder *chain_graph(size_t n)
{
    oc_builder *b = oc_builder_new(13);
    int64_t d[2] = {1, 16};
    if (!b)
        return NULL;
    oc_builder_input(b, "x", OC_DT_FLOAT, 2, d);
    char in[32] = "x", out[32], name[32];
    for (size_t i = 0; i < n; i++) {
        snprintf(out, sizeof out, i + 1 < n ? "t%zu" : "y", i);
        snprintf(name, sizeof name, "k%zu", i);
        oc_builder_node(b, i % 2 ? "Abs" : "Neg", name, in, out);
        memcpy(in, out, sizeof in);
    }
    oc_builder_output(b, "y", OC_DT_FLOAT, 2, d);
    return b;
}

/* s: tmpl with each '#' replaced by the step's prefix p and each '$' by
 * the hidden state h it starts from. */
static void step_names(char *s, size_t n, const char *tmpl, const char *p, const char *h)
{
    size_t k = 0;
    for (; *tmpl && k + 1 < n; tmpl++) {
        const char *r = *tmpl == '#' ? p : *tmpl == '$' ? h : NULL;
        if (!r)
            s[k++] = *tmpl;
        while (r && *r && k + 1 < n)
            s[k++] = *r++;
    }
    s[k] = 0;
}

/* The step chain of `steps` steps: x [1, steps + 1, 16] read a step at a
 * time (Gathers that do not cover x: ORT keeps them), a GRU-like update of
 * h [1, 32] (Concat, MatMul and Add, which ORT fuses into a Gemm, Split,
 * Sigmoid, Tanh, Sub, Mul, Add), then an attention read over a constant
 * memory of 16 (Unsqueeze, MatMul and its scale, fused into a FusedMatMul,
 * Softmax, MatMul, Reshape, Add, ReduceMean, Sub): 20 kernels a step, as
 * ONNX Runtime 1.30 runs them.  NULL when out of memory. */
static oc_builder *step_graph(size_t steps)
{
    enum { IN = 16, HID = 32, MEM = 16 };
    static const char *const nodes[][3] = {
        {"Gather", "x,#i", "#x"},       {"Concat", "#x,$", "#c"},
        {"MatMul", "#c,W", "#m"},       {"Add", "#m,b", "#z"},
        {"Split", "#z,split", "#r,#u,#n"}, {"Sigmoid", "#r", "#rs"},
        {"Sigmoid", "#u", "#us"},       {"Mul", "#rs,#n", "#rn"},
        {"Tanh", "#rn", "#t"},          {"Sub", "one,#us", "#ui"},
        {"Mul", "#us,$", "#k"},         {"Mul", "#ui,#t", "#a"},
        {"Add", "#k,#a", "#h1"},        {"Unsqueeze", "#h1,axis1", "#q"},
        {"MatMul", "#q,K", "#s"},       {"Mul", "#s,scale", "#ss"},
        {"Softmax", "#ss", "#p"},       {"MatMul", "#p,V", "#o"},
        {"Reshape", "#o,shape", "#o2"}, {"Add", "#h1,#o2", "#e"},
        {"ReduceMean", "#e", "#mu"},    {"Sub", "#e,#mu", "#h"}};
    oc_builder *b = oc_builder_new(13);
    if (!b)
        return NULL;
    const float zeros[HID] = {0};
    oc_builder_input(b, "x", OC_DT_FLOAT, 3, (int64_t[]){1, (int64_t)steps + 1, IN});
    oc_builder_random(b, "W", OC_DT_FLOAT, 2, (int64_t[]){IN + HID, 3 * HID}, -0.2, 0.2, 1);
    oc_builder_random(b, "b", OC_DT_FLOAT, 1, (int64_t[]){3 * HID}, -0.1, 0.1, 1);
    oc_builder_random(b, "K", OC_DT_FLOAT, 3, (int64_t[]){1, HID, MEM}, -0.2, 0.2, 1);
    oc_builder_random(b, "V", OC_DT_FLOAT, 3, (int64_t[]){1, MEM, HID}, -0.2, 0.2, 1);
    oc_builder_floats(b, "one", 1, (int64_t[]){1}, (const float[]){1});
    oc_builder_floats(b, "scale", 0, NULL, (const float[]){0.17f});
    oc_builder_floats(b, "h0", 2, (int64_t[]){1, HID}, zeros);
    oc_builder_ints(b, "split", 1, (int64_t[]){3}, (int64_t[]){HID, HID, HID});
    oc_builder_ints(b, "axis1", 1, (int64_t[]){1}, (int64_t[]){1});
    oc_builder_ints(b, "shape", 1, (int64_t[]){2}, (int64_t[]){1, HID});
    char h[32] = "h0";
    for (size_t i = 0; i < steps; i++) {
        char p[24], in[96], out[96], name[48];
        snprintf(p, sizeof p, "s%zu", i);
        step_names(name, sizeof name, "#i", p, h);
        oc_builder_ints(b, name, 0, NULL, (int64_t[]){(int64_t)i});
        for (size_t k = 0; k < sizeof nodes / sizeof nodes[0]; k++) {
            step_names(in, sizeof in, nodes[k][1], p, h);
            step_names(out, sizeof out, nodes[k][2], p, h);
            snprintf(name, sizeof name, "%s_%zu", p, k);
            size_t nd = oc_builder_node(b, nodes[k][0], name, in, out);
            if (!strcmp(nodes[k][0], "Gather") || !strcmp(nodes[k][0], "Concat") ||
                !strcmp(nodes[k][0], "Split"))
                oc_builder_attr_int(b, nd, "axis", 1);
            else if (!strcmp(nodes[k][0], "ReduceMean"))
                oc_builder_attr_ints(b, nd, "axes", 1, (int64_t[]){1});
        }
        step_names(h, sizeof h, "#h", p, h);
    }
    oc_builder_output(b, h, OC_DT_FLOAT, 2, (int64_t[]){1, HID});
    return b;
}

/* The loop chain of `trips` trips: a Loop whose trip count is an
 * initializer (no condition) and whose body adds one, from the enclosing
 * graph, to a state of 16 floats and hands its condition back (Identity of
 * a bool, Add: 2 kernels a trip).  *body gets the body's builder, to free
 * after b.  NULL when out of memory. */
static oc_builder *loop_graph(size_t trips, oc_builder **body)
{
    int64_t d[2] = {1, 16};
    oc_builder *b = oc_builder_new(13), *g = oc_builder_new(13);
    *body = g;
    if (!b || !g) {
        oc_builder_free(b);
        return NULL;
    }
    oc_builder_input(g, "i", OC_DT_INT64, 0, NULL);
    oc_builder_input(g, "c", OC_DT_BOOL, 0, NULL);
    oc_builder_input(g, "s", OC_DT_FLOAT, 2, d);
    oc_builder_node(g, "Identity", "cond", "c", "c_out");
    oc_builder_node(g, "Add", "step", "s,one", "s_out");
    oc_builder_output(g, "c_out", OC_DT_BOOL, 0, NULL);
    oc_builder_output(g, "s_out", OC_DT_FLOAT, 2, d);
    oc_builder_input(b, "x", OC_DT_FLOAT, 2, d);
    oc_builder_ints(b, "M", 0, NULL, (int64_t[]){(int64_t)trips});
    oc_builder_floats(b, "one", 1, (int64_t[]){1}, (const float[]){1});
    oc_builder_attr_graph(b, oc_builder_node(b, "Loop", "loop", "M,,x", "y"), "body", g);
    oc_builder_output(b, "y", OC_DT_FLOAT, 2, d);
    return b;
}

/* The probe graph b (chain_graph, step_graph or loop_graph), written to
 * `path`, and freed. */
static oc_status save_probe(oc_builder *b, const char *path, oc_error *err)
{
    if (!b)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    oc_status st = oc_builder_save(b, path, err);
    oc_builder_free(b);
    return st;
}

/* Probe graph b (named `name`) as tm predicts it with overhead ov (NULL:
 * none, each kernel as timed alone): its kernels' sum into *kernels_us, how
 * many the plan runs into *n_kernels, the whole run into *total_us (each
 * may be NULL); b freed.  A probe with a node not counted is an internal
 * error. */
static oc_status predict_probe(oc_builder *b, const char *name, const oc_tmodel *tm,
                               const oc_overhead *ov, double *kernels_us, size_t *n_kernels,
                               double *total_us, oc_error *err)
{
    void *buf = NULL;
    size_t size = 0;
    oc_model *m = NULL;
    oc_analysis *a = NULL;
    oc_arena *ar = oc_arena_new();
    oc_overhead none = {.kernel_scale = 1};
    oc_estimate e;
    oc_status st = b && ar ? oc_builder_pack(b, &buf, &size, err)
                           : oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    if (!st && !(st = oc_model_load_buffer(buf, size, name, &m, err)) &&
        !(st = oc_analyze(m, &(oc_analyze_opts){0}, &a, err)) &&
        !(st = oc_estimate_run(a, tm, ov ? ov : &none, &e, ar, err))) {
        if (e.n_uncounted)
            st = oc_error_set(err, OC_ERR_INTERNAL, NULL, "the %s probe has a node not counted",
                              name);
        if (kernels_us)
            *kernels_us = e.kernels_raw_us;
        if (n_kernels)
            *n_kernels = e.plan.n_run;
        if (total_us)
            *total_us = e.total_us;
    }
    oc_analysis_free(a);
    oc_model_free(m);
    oc_arena_free(ar);
    free(buf);
    oc_builder_free(b);
    return st;
}

oc_status oc_chain_predict(const oc_tmodel *tm, size_t n, double *kernels_us, oc_error *err)
{
    return predict_probe(chain_graph(n), oc_chain_probe, tm, NULL, kernels_us, NULL, NULL, err);
}

oc_status oc_step_predict(const oc_tmodel *tm, size_t steps, double *kernels_us,
                          size_t *n_kernels, oc_error *err)
{
    return predict_probe(step_graph(steps), oc_step_probe, tm, NULL, kernels_us, n_kernels,
                         NULL, err);
}

oc_status oc_loop_predict(const oc_tmodel *tm, const oc_overhead *ov, size_t trips,
                          double *total_us, oc_error *err)
{
    oc_builder *body;
    oc_builder *b = loop_graph(trips, &body);
    oc_status st = predict_probe(b, oc_loop_probe, tm, ov, NULL, NULL, total_us, err);
    oc_builder_free(body); /* after b, whose graph attribute it is */
    return st;
}

/* The run of `id` in a driver's result lines, or a reason it has none. */
static const char *result_of(const char *results, const char *id, double *wall_us,
                             double *spread, double *kernel_us, json_t **kernels)
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
                const json_t *ks = json_object_get(r, "kernels");
                *kernels = json_array_size(ks) ? json_incref((json_t *)ks) : NULL;
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
static oc_status manifest_line(FILE *mf, const char *id, const char *model,
                               const char *input, json_t *shape, oc_error *err)
{
    json_t *line = json_pack("{s:s, s:s, s:[{s:s, s:s, s:o}]}", "id", id, "model", model,
                             "inputs", "name", input, "dtype", "float32", "shape", shape);
    char *s = line ? json_dumps(line, JSON_COMPACT) : NULL;
    int rc = !s || fprintf(mf, "%s\n", s) < 0;
    free(s);
    json_decref(line);
    return rc ? oc_error_set(err, OC_ERR_IO, NULL, "cannot write the anchors' manifest") : OC_OK;
}

/* The anchor networks (random weights) and the output probes in `dir`,
 * listed in `manifest` for the driver. */
/* The runs calibrate measures at `threads`, in manifest order, untimed:
 * each anchor at each anchor batch, the output probes, the kernel chains,
 * the step chains, the loop chains, each curve network at each of its
 * batches.  runs has room for OC_N_ANCHOR_RUNS. */
static size_t planned_runs(int64_t threads, oc_anchor_run *runs)
{
    size_t n = 0;
    for (int a = 0; a < OC_N_ANCHORS; a++)
        for (int b = 0; b < OC_N_ANCHOR_BATCHES; b++)
            runs[n++] = (oc_anchor_run){.name = oc_anchor_names[a],
                                        .batch = oc_anchor_batches[b], .threads = threads};
    for (int p = 0; p < OC_N_OUTPUT_PROBES; p++)
        runs[n++] = (oc_anchor_run){.name = oc_output_probe, .threads = threads,
                                    .output_bytes = oc_output_probe_bytes[p]};
    for (int c = 0; c < OC_N_CHAINS; c++)
        runs[n++] = (oc_anchor_run){.name = oc_chain_probe, .threads = threads,
                                    .kernels = oc_chain_lengths[c]};
    for (int c = 0; c < OC_N_STEP_CHAINS; c++)
        runs[n++] = (oc_anchor_run){.name = oc_step_probe, .threads = threads,
                                    .kernels = oc_step_lengths[c]};
    for (int c = 0; c < OC_N_LOOP_CHAINS; c++)
        runs[n++] = (oc_anchor_run){.name = oc_loop_probe, .threads = threads,
                                    .kernels = oc_loop_trips[c]};
    for (int c = 0; c < OC_N_CURVE_NETS; c++)
        for (int b = 0; b < OC_N_CURVE_BATCHES; b++)
            runs[n++] = (oc_anchor_run){.name = oc_curve_names[c],
                                        .batch = oc_curve_batches[b], .threads = threads};
    return n;
}

/* The id of run r in the driver's manifest and results. */
static void run_id(const oc_anchor_run *r, char *id, size_t n)
{
    if (r->name == oc_output_probe)
        snprintf(id, n, "output/%" PRIu64, r->output_bytes);
    else if (r->name == oc_chain_probe)
        snprintf(id, n, "chain/%zu", r->kernels);
    else if (r->name == oc_step_probe)
        snprintf(id, n, "steps/%zu", r->kernels);
    else if (r->name == oc_loop_probe)
        snprintf(id, n, "loop/%zu", r->kernels);
    else
        snprintf(id, n, "anchor/%s/b%" PRId64, r->name, r->batch);
}

/* Network `name` (an anchor or a curve network: a pointer of their lists)
 * made in `dir` with random weights, and a manifest line for each of its
 * n batches. */
static oc_status manifest_network(FILE *mf, const char *dir, const char *name,
                                  const int64_t *batches, int n, oc_error *err)
{
    char model[PATH_MAX], input[256];
    int64_t shape[8];
    int rank = 0;
    oc_status rc = materialize(name, dir, model, sizeof model, input, sizeof input, shape,
                               &rank, err);
    for (int b = 0; !rc && b < n; b++) {
        json_t *dims = json_array();
        json_array_append_new(dims, json_integer(batches[b]));
        for (int d = 1; d < rank; d++)
            json_array_append_new(dims, json_integer(shape[d]));
        char id[96];
        run_id(&(oc_anchor_run){.name = name, .batch = batches[b]}, id, sizeof id);
        rc = manifest_line(mf, id, model, input, dims, err);
    }
    return rc;
}

static oc_status write_manifest(const char *dir, const char *manifest, oc_error *err)
{
    FILE *mf = fopen(manifest, "w");
    if (!mf) {
        return oc_error_set(err, OC_ERR_IO, NULL, "cannot write %s: %s", manifest, strerror(errno));
    }
    int rc = 0;
    for (int a = 0; a < OC_N_ANCHORS && !rc; a++)
        rc = manifest_network(mf, dir, oc_anchor_names[a], oc_anchor_batches,
                              OC_N_ANCHOR_BATCHES, err);
    for (int c = 0; c < OC_N_CURVE_NETS && !rc; c++)
        rc = manifest_network(mf, dir, oc_curve_names[c], oc_curve_batches,
                              OC_N_CURVE_BATCHES, err);
    for (int p = 0; !rc && p < OC_N_OUTPUT_PROBES; p++) {
        char model[PATH_MAX], id[64];
        run_id(&(oc_anchor_run){.name = oc_output_probe, .output_bytes = oc_output_probe_bytes[p]},
               id, sizeof id);
        if (snprintf(model, sizeof model, "%s/output%d.onnx", dir, p) >= (int)sizeof model) {
            rc = oc_error_set(err, OC_ERR_IO, NULL, "calibrate: %s: path too long", dir);
        } else if (!(rc = output_probe(oc_output_probe_bytes[p], model, err))) {
            rc = manifest_line(mf, id, model, "x", json_pack("[i]", 1), err);
        }
    }
    for (int c = 0; !rc && c < OC_N_CHAINS; c++) {
        char model[PATH_MAX], id[64];
        run_id(&(oc_anchor_run){.name = oc_chain_probe, .kernels = oc_chain_lengths[c]}, id,
               sizeof id);
        if (snprintf(model, sizeof model, "%s/chain%d.onnx", dir, c) >= (int)sizeof model) {
            rc = oc_error_set(err, OC_ERR_IO, NULL, "calibrate: %s: path too long", dir);
        } else if (!(rc = save_probe(chain_graph(oc_chain_lengths[c]), model, err))) {
            rc = manifest_line(mf, id, model, "x", json_pack("[i, i]", 1, 16), err);
        }
    }
    for (int c = 0; !rc && c < OC_N_STEP_CHAINS; c++) {
        char model[PATH_MAX], id[64];
        size_t steps = oc_step_lengths[c];
        run_id(&(oc_anchor_run){.name = oc_step_probe, .kernels = steps}, id, sizeof id);
        if (snprintf(model, sizeof model, "%s/steps%d.onnx", dir, c) >= (int)sizeof model) {
            rc = oc_error_set(err, OC_ERR_IO, NULL, "calibrate: %s: path too long", dir);
        } else if (!(rc = save_probe(step_graph(steps), model, err))) {
            json_t *dims = json_pack("[i, I, i]", 1, (json_int_t)steps + 1, 16);
            rc = manifest_line(mf, id, model, "x", dims, err);
        }
    }
    for (int c = 0; !rc && c < OC_N_LOOP_CHAINS; c++) {
        char model[PATH_MAX], id[64];
        oc_builder *body;
        run_id(&(oc_anchor_run){.name = oc_loop_probe, .kernels = oc_loop_trips[c]}, id,
               sizeof id);
        if (snprintf(model, sizeof model, "%s/loop%d.onnx", dir, c) >= (int)sizeof model) {
            rc = oc_error_set(err, OC_ERR_IO, NULL, "calibrate: %s: path too long", dir);
        } else {
            rc = save_probe(loop_graph(oc_loop_trips[c], &body), model, err);
            oc_builder_free(body);
            if (!rc)
                rc = manifest_line(mf, id, model, "x", json_pack("[i, i]", 1, 16), err);
        }
    }
    if (fclose(mf) != 0 && !rc) {
        rc = oc_error_set(err, OC_ERR_IO, NULL, "cannot write %s: %s", manifest, strerror(errno));
    }
    if (rc)
        remove(manifest); /* made again by the next call */
    return rc;
}

oc_status oc_anchors_measure(int64_t threads, const char *workdir, oc_stop_flag *stop,
                             const oc_log *lg, bool *abandoned, oc_anchor_run *runs,
                             size_t *n_runs, oc_error *err)
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
        return oc_error_set(err, OC_ERR_IO, NULL, "calibrate: %s: path too long", workdir);
    }
    /* room checked above: the names below are short */
    int w = snprintf(log, sizeof log, "%.*s/driver.log", (int)sizeof dir - 32, dir);
    w |= snprintf(manifest, sizeof manifest, "%.*s/manifest.jsonl", (int)sizeof dir - 32, dir);
    w |= snprintf(results, sizeof results, "%.*s/results-t%d.jsonl", (int)sizeof dir - 32, dir,
                  (int)threads);
    (void)w;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        return oc_error_set(err, OC_ERR_IO, NULL, "cannot create %s: %s", dir, strerror(errno));
    }
    /* The models and the manifest, made once for every thread count and
     * repeat of this calibration. */
    int rc = access(manifest, R_OK) == 0 ? 0 : write_manifest(dir, manifest, err);
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
    if ((rc = oc_driver_run(argv, log, stop, lg, abandoned, err)))
        return rc;
    oc_anchor_run plan[OC_N_ANCHOR_RUNS];
    size_t np = planned_runs(threads, plan);
    for (size_t q = 0; q < np; q++) {
        oc_anchor_run *r = &runs[*n_runs];
        *r = plan[q];
        char id[96];
        run_id(r, id, sizeof id);
        const char *why = result_of(results, id, &r->wall_us, &r->spread, &r->kernel_us,
                                    &r->profiled);
        bool chain = oc_anchor_is_chain(r);
        if (!why && chain && !(r->kernel_us > 0))
            why = "no profiled kernel time";
        if (!why && chain)
            r->ran_kernels = json_array_size(r->profiled);
        if (!why && oc_anchor_is_probe(r))
            oc_anchor_runs_free(r, 1); /* only a network's kernels are kept */
        if (why) {
            oc_anchor_runs_free(runs, *n_runs + 1); /* this run's list too */
            *n_runs = 0;
            return oc_error_set(err, OC_ERR_IO, NULL,
                                "calibrate: %s at %" PRId64 " thread%s: %s (%s)", id, threads,
                                threads == 1 ? "" : "s", why, log);
        }
        (*n_runs)++;
    }
    return OC_OK;
}


static const char *anchor_name(const char *model)
{
    for (int a = 0; model && a < OC_N_ANCHORS; a++)
        if (!strcmp(model, oc_anchor_names[a]))
            return oc_anchor_names[a];
    for (int c = 0; model && c < OC_N_CURVE_NETS; c++)
        if (!strcmp(model, oc_curve_names[c]))
            return oc_curve_names[c];
    if (model && !strcmp(model, oc_chain_probe))
        return oc_chain_probe;
    if (model && !strcmp(model, oc_step_probe))
        return oc_step_probe;
    if (model && !strcmp(model, oc_loop_probe))
        return oc_loop_probe;
    return model && !strcmp(model, oc_output_probe) ? oc_output_probe : NULL;
}

/* A network of the anchors' folder other than the anchors (a reference
 * network: scripts/measure_models.py's runs), or of s->models_dir (*dir
 * set to it), its name kept in s; NULL when neither has its graph. */
static const char *other_network(oc_anchor_set *s, const char *model, const char **dir)
{
    char path[PATH_MAX];
    *dir = NULL;
    if (!model || strlen(model) >= sizeof s->names[0] || strchr(model, '/'))
        return NULL;
    if (oc_anchor_path(model, path, sizeof path)) {
        if (!s->models_dir || graph_in(s->models_dir, model, path, sizeof path))
            return NULL;
        *dir = s->models_dir;
    }
    snprintf(s->names[s->n], sizeof s->names[0], "%s", model);
    return s->names[s->n];
}

bool oc_run_inputs_parse(const json_t *in, oc_input_override *ov, size_t cap, size_t *n)
{
    *n = 0;
    if (!in)
        return true;
    if (!json_is_array(in) || json_array_size(in) > cap)
        return false;
    size_t i;
    const json_t *e;
    json_array_foreach(in, i, e) {
        const char *name = json_string_value(json_object_get(e, "name"));
        const json_t *sh = json_object_get(e, "shape");
        if (!name || !json_is_array(sh) || json_array_size(sh) > OC_MAX_RANK)
            return false;
        ov[i].name = name;
        ov[i].rank = (int)json_array_size(sh);
        for (int d = 0; d < ov[i].rank; d++) {
            const json_t *v = json_array_get(sh, (size_t)d);
            if (!json_is_integer(v) || json_integer_value(v) <= 0)
                return false;
            ov[i].dims[d] = json_integer_value(v);
        }
        (*n)++;
    }
    return true;
}

/* r's inputs from a run's "inputs" (their names kept in s at slot i);
 * false when they are not of that form or too many. */
static bool run_inputs(oc_anchor_set *s, size_t i, const json_t *in, oc_anchor_run *r)
{
    size_t n;
    r->n_inputs = 0;
    if (!oc_run_inputs_parse(in, r->inputs, OC_ANCHOR_MAX_INPUTS, &n))
        return false;
    for (size_t k = 0; k < n; k++) {
        if (strlen(r->inputs[k].name) >= sizeof s->input_names[0][0])
            return false;
        snprintf(s->input_names[i][k], sizeof s->input_names[0][0], "%s", r->inputs[k].name);
        r->inputs[k].name = s->input_names[i][k];
    }
    r->n_inputs = (int)n;
    return true;
}

bool oc_anchors_has(const oc_anchor_set *s, const oc_anchor_run *want)
{
    for (size_t i = 0; i < s->n; i++) {
        const oc_anchor_run *r = &s->r[i];
        if (r->threads == want->threads && r->name == want->name && r->batch == want->batch &&
            r->output_bytes == want->output_bytes && r->kernels == want->kernels)
            return true;
    }
    return false;
}

bool oc_anchors_complete(const oc_anchor_set *s, int64_t threads)
{
    oc_anchor_run plan[OC_N_ANCHOR_RUNS];
    size_t np = planned_runs(threads, plan);
    for (size_t q = 0; q < np; q++)
        if (!oc_anchors_has(s, &plan[q]))
            return false;
    return true;
}

size_t oc_anchor_count(const oc_anchor_set *s, int64_t threads)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        k += s->r[i].threads == threads;
    return k;
}

void oc_anchor_runs_free(oc_anchor_run *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        json_decref(r[i].profiled);
        r[i].profiled = NULL;
    }
}

void oc_anchors_free(oc_anchor_set *s) { oc_anchor_runs_free(s->r, s->n); }

oc_status oc_anchors_load(const char *path, const char *machine, oc_anchor_set *s,
                          oc_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        return oc_error_set(err, OC_ERR_IO, NULL, "cannot read %s: %s", path, strerror(errno));
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, rc = 0;
    while (!rc && getline(&line, &cap, f) > 0) {
        lineno++;
        json_error_t je;
        json_t *j = json_loads(line, 0, &je);
        const char *model = json_string_value(json_object_get(j, "model"));
        const char *name = anchor_name(model), *dir = NULL;
        bool full = s->n == OC_MAX_ANCHOR_RUNS;
        if (!name && !full)
            name = other_network(s, model, &dir);
        const char *mach = json_string_value(json_object_get(j, "machine"));
        json_t *b = json_object_get(j, "batch"), *t = json_object_get(j, "threads");
        json_t *ob = json_object_get(j, "output_bytes");
        double w = json_number_value(json_object_get(json_object_get(j, "wall_us"), "median"));
        double k = json_number_value(json_object_get(json_object_get(j, "kernel_us"), "median"));
        bool probe = name == oc_output_probe, steps = name == oc_step_probe,
             loop = name == oc_loop_probe, chain = name == oc_chain_probe || steps || loop;
        /* a step chain's length is its steps, a loop chain's its trips, a
         * kernel chain's its kernels */
        json_t *nk = json_object_get(j, steps ? "steps" : loop ? "trips" : "kernels");
        json_t *rk = json_object_get(j, "ran_kernels");
        if (!json_is_object(j) || !json_is_integer(t) || !(w > 0) ||
            (probe ? !json_is_integer(ob) || json_integer_value(ob) <= 0 || !(k >= 0)
             : chain ? !json_is_integer(nk) || json_integer_value(nk) <= 0 || !(k > 0)
                     : !json_is_integer(b) || json_integer_value(b) <= 0)) {
            rc = oc_error_set(err, OC_ERR_INPUT, NULL,
                              "%s:%d: not a whole-network run (model, batch or output_bytes "
                              "or kernels, threads, wall_us)", path, lineno);
        } else if (mach && strcmp(mach, machine)) {
            rc = oc_error_set(err, OC_ERR_INPUT, NULL, "%s:%d: measured on %s, not %s", path, lineno, mach, machine);
        } else if (!name && !full) {
            if (!s->n_unknown++)
                snprintf(s->unknown, sizeof s->unknown, "%s", model ? model : "?");
        } else if (full) {
            rc = oc_error_set(err, OC_ERR_INPUT, NULL, "%s: more than %d anchor runs", path, OC_MAX_ANCHOR_RUNS);
        } else {
            double sp = json_number_value(json_object_get(j, "spread"));
            oc_anchor_run *run = &s->r[s->n];
            *run = (oc_anchor_run){
                .name = name, .dir = dir, .batch = probe || chain ? 0 : json_integer_value(b),
                .threads = json_integer_value(t), .wall_us = w, .spread = sp,
                .output_bytes = probe ? (uint64_t)json_integer_value(ob) : 0,
                .kernels = chain ? (size_t)json_integer_value(nk) : 0,
                .kernel_us = probe || chain ? k : 0,
                .ran_kernels = chain && json_integer_value(rk) > 0
                                   ? (size_t)json_integer_value(rk) : 0};
            /* a network whose inputs cannot be bound is not an anchor */
            if (probe || chain || run_inputs(s, s->n, json_object_get(j, "inputs"), run)) {
                if (!probe && !chain && json_array_size(nk))
                    run->profiled = json_incref(nk);
                s->n++;
            } else {
                s->n_unbound++;
            }
        }
        json_decref(j);
    }
    free(line);
    fclose(f);
    return rc;
}

oc_status oc_anchors_append(const char *path, const char *machine, const oc_anchor_run *r,
                            size_t n, oc_error *err)
{
    FILE *f = fopen(path, "a");
    if (!f) {
        return oc_error_set(err, OC_ERR_IO, NULL, "cannot write %s: %s", path, strerror(errno));
    }
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *j = json_pack("{s:s, s:I, s:s, s:{s:f}, s:f}", "model", r[i].name, "threads",
                              (json_int_t)r[i].threads, "machine", machine, "wall_us",
                              "median", r[i].wall_us, "spread", r[i].spread);
        if (j && (r[i].output_bytes || r[i].kernels)) {
            json_object_set_new(j, !r[i].kernels ? "output_bytes"
                                   : r[i].name == oc_step_probe ? "steps"
                                   : r[i].name == oc_loop_probe ? "trips" : "kernels",
                                json_integer((json_int_t)(r[i].kernels ? r[i].kernels
                                                                       : r[i].output_bytes)));
            json_object_set_new(j, "kernel_us", json_pack("{s:f}", "median", r[i].kernel_us));
            if (r[i].ran_kernels)
                json_object_set_new(j, "ran_kernels", json_integer((json_int_t)r[i].ran_kernels));
        } else if (j) {
            json_object_set_new(j, "batch", json_integer((json_int_t)r[i].batch));
            if (r[i].profiled)
                json_object_set(j, "kernels", r[i].profiled);
        }
        char *t = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(7)) : NULL;
        bad |= !t || fprintf(f, "%s\n", t) < 0;
        free(t);
        json_decref(j);
    }
    bad |= fclose(f) != 0;
    if (bad) {
        return oc_error_set(err, OC_ERR_IO, NULL, "cannot write %s", path);
    }
    return 0;
}


/* A network run whose wall time varied between passes (a busy machine).
 * A chain's run takes tens to hundreds of microseconds, its wall-time
 * spread is the scheduler's; its fit reads the medians. */
static bool unsteady_run(const oc_anchor_run *r)
{
    /* a chain's or a curve network's run of a few hundred us spreads that
     * much on a quiet machine too (on cpu-GenuineIntel-f6-m167, 8 of the 36
     * curve runs at 2 threads, measured twice): measuring it again would
     * not steady it */
    return !oc_anchor_is_chain(r) && !oc_anchor_is_curve(r) &&
           r->spread > OC_MAX_ANCHOR_SPREAD;
}

oc_status oc_anchors_measure_steady(int64_t threads, const char *workdir, oc_stop_flag *stop,
                                    const oc_log *lg, bool *abandoned, oc_anchor_run *runs,
                                    size_t *n_runs, oc_error *err)
{
    oc_anchor_run again[OC_N_ANCHOR_RUNS];
    size_t n = 0, n2 = 0;
    oc_status st = oc_anchors_measure(threads, workdir, stop, lg, abandoned, runs, &n, err);
    *n_runs = n;
    size_t unsteady = 0;
    for (size_t i = 0; !st && i < n; i++)
        unsteady += unsteady_run(&runs[i]);
    if (st || !unsteady || *stop)
        return st;
    oc_logf(lg, OC_LOG_PROGRESS,
            "calibrate: %zu of the whole-network runs varied by more than %.0f%% between "
            "passes (a busy machine?): measuring them again",
            unsteady, 100 * OC_MAX_ANCHOR_SPREAD);
    if ((st = oc_anchors_measure(threads, workdir, stop, lg, abandoned, again, &n2, err))) {
        oc_anchor_runs_free(runs, n);
        *n_runs = 0;
        return st;
    }
    for (size_t i = 0; i < n && i < n2; i++)
        if (again[i].spread < runs[i].spread) {
            oc_anchor_runs_free(&runs[i], 1);
            runs[i] = again[i];
            again[i].profiled = NULL;
        }
    oc_anchor_runs_free(again, n2);
    unsteady = 0;
    for (size_t i = 0; i < n; i++)
        unsteady += unsteady_run(&runs[i]);
    if (unsteady)
        oc_logf(lg, OC_LOG_WARNING,
                "%zu whole-network run%s still varied by more than %.0f%%: the in-graph scale "
                "at %lld thread%s is uncertain (calibrate on a quiet machine)",
                unsteady, unsteady == 1 ? "" : "s", 100 * OC_MAX_ANCHOR_SPREAD,
                (long long)threads, threads == 1 ? "" : "s");
    return OC_OK;
}
