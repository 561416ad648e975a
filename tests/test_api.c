/* test_api.c - the public interface (include/onnxcost.h) through the shared
 * library: ownership, errors and their messages, bindings, predictions,
 * sweeps and annotation. */
#include "harness.h"
#include "onnxcost.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAMPLE(name) OC_SAMPLES "/" name

static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static bool contains(const char *buf, size_t n, const char *s)
{
    size_t l = strlen(s);
    for (size_t i = 0; i + l <= n; i++)
        if (!memcmp(buf + i, s, l))
            return true;
    return false;
}

static void test_errors(void)
{
    CHECK_EQ_STR(onnxcost_version(), ONNXCOST_VERSION_STRING);
    CHECK_EQ_STR(onnxcost_status_str(ONNXCOST_ERR_IO), "I/O error");
    CHECK_EQ_STR(onnxcost_status_str((onnxcost_status)99), "unknown status");
    onnxcost_model *m = (onnxcost_model *)1;
    CHECK_EQ_INT(onnxcost_model_load("/nonexistent/x.onnx", &m), ONNXCOST_ERR_IO);
    CHECK(m == NULL);
    CHECK_CONTAINS(onnxcost_last_error(), "/nonexistent/x.onnx");
    CHECK_EQ_INT(onnxcost_model_load(NULL, &m), ONNXCOST_ERR_USAGE);
    CHECK_CONTAINS(onnxcost_last_error(), "path is NULL");
    CHECK_EQ_INT(onnxcost_model_load_buffer("not a model", 11, "junk", &m), ONNXCOST_ERR_INPUT);
    CHECK_CONTAINS(onnxcost_last_error(), "junk");
    /* the *_free functions accept NULL */
    onnxcost_model_free(NULL);
    onnxcost_analysis_free(NULL);
    onnxcost_predictor_free(NULL);
    onnxcost_prediction_free(NULL);
    onnxcost_bindings_free(NULL);

    onnxcost_predictor *p = (onnxcost_predictor *)1;
    CHECK_EQ_INT(onnxcost_predictor_open("torch-cpu", ONNXCOST_INFERENCE, 0, &p),
                 ONNXCOST_ERR_USAGE);
    CHECK(p == NULL);
    CHECK_EQ_STR(onnxcost_last_error(), "--target torch-cpu predicts training steps; "
                                        "add --mode training");
    CHECK_EQ_INT(onnxcost_predictor_open("nope@x", ONNXCOST_INFERENCE, 0, &p),
                 ONNXCOST_ERR_USAGE);
    CHECK_CONTAINS(onnxcost_last_error(), "no inference target 'nope@x'");
    CHECK_EQ_INT(onnxcost_predictor_open(NULL, (onnxcost_mode)7, 0, &p), ONNXCOST_ERR_USAGE);
    CHECK_EQ_INT(onnxcost_predictor_open(NULL, ONNXCOST_INFERENCE, -1, &p), ONNXCOST_ERR_USAGE);
    CHECK_EQ_INT(onnxcost_predictor_open("/nonexistent.tmodel", ONNXCOST_INFERENCE, 0, &p),
                 ONNXCOST_ERR_IO);
    CHECK_CONTAINS(onnxcost_last_error(), "/nonexistent.tmodel");

    CHECK_EQ_INT(onnxcost_bindings_set_batch(NULL, 2), ONNXCOST_ERR_USAGE);
    CHECK_EQ_STR(onnxcost_last_error(), "a NULL argument");
    CHECK_EQ_INT(onnxcost_analysis_node(NULL, 0, NULL), ONNXCOST_ERR_USAGE);
    CHECK_EQ_INT(onnxcost_prediction_kernel(NULL, 0, NULL), ONNXCOST_ERR_USAGE);
    CHECK_EQ_INT(onnxcost_analyze(NULL, NULL, NULL), ONNXCOST_ERR_USAGE);
    CHECK_EQ_INT(onnxcost_predict(NULL, NULL, NULL), ONNXCOST_ERR_USAGE);
    CHECK_EQ_INT(onnxcost_annotate(NULL, NULL, "x"), ONNXCOST_ERR_USAGE);
    onnxcost_bindings *b = onnxcost_bindings_new();
    CHECK_EQ_INT(onnxcost_bindings_set_batch(b, 0), ONNXCOST_ERR_USAGE);
    CHECK_EQ_INT(onnxcost_bindings_set_dim(b, "L", -2), ONNXCOST_ERR_USAGE);
    CHECK_EQ_INT(onnxcost_bindings_set_dim(b, "", 2), ONNXCOST_ERR_USAGE);
    int64_t dims[65] = {0};
    CHECK_EQ_INT(onnxcost_bindings_set_input(b, "x", dims, 65), ONNXCOST_ERR_USAGE);
    CHECK_EQ_INT(onnxcost_bindings_set_input(b, "x", NULL, 2), ONNXCOST_ERR_USAGE);
    dims[1] = -1;
    CHECK_EQ_INT(onnxcost_bindings_set_input(b, "x", dims, 2), ONNXCOST_ERR_USAGE);
    CHECK_CONTAINS(onnxcost_last_error(), "dim 1 is -1");
    onnxcost_bindings_free(b);
}

static void test_analyze(void)
{
    size_t size;
    char *buf = slurp(SAMPLE("tiny_encoder.onnx"), &size);
    CHECK(buf != NULL);
    onnxcost_model *m = NULL;
    CHECK_EQ_INT(onnxcost_model_load_buffer(buf, size, "enc", &m), ONNXCOST_OK);
    free(buf); /* the model keeps its own copy */
    if (!m)
        return;
    CHECK_EQ_STR(onnxcost_model_source(m), "enc");
    CHECK_EQ_INT(onnxcost_model_ir_version(m), 7);
    CHECK_EQ_STR(onnxcost_model_producer(m), "pytorch");
    CHECK_EQ_INT(onnxcost_model_opset(m, NULL), 13);
    CHECK_EQ_INT(onnxcost_model_opset(m, "com.example"), 0);
    CHECK_EQ_INT(onnxcost_model_n_inputs(m), 1);
    CHECK_EQ_STR(onnxcost_model_input_name(m, 0), "input_ids");
    CHECK(onnxcost_model_input_name(m, 1) == NULL);

    /* unbound: L (batch 1 binds N, the leading dim) */
    onnxcost_analysis *a = NULL;
    CHECK_EQ_INT(onnxcost_analyze(m, NULL, &a), ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_analysis_n_unbound(a), 1);
    CHECK_EQ_STR(onnxcost_analysis_unbound(a, 0), "L");
    CHECK(onnxcost_analysis_unbound(a, 1) == NULL);
    onnxcost_totals t1;
    onnxcost_analysis_totals(a, &t1);
    onnxcost_analysis_free(a);

    /* batch binds N, a dim binds L; MACs grow with both */
    onnxcost_bindings *b = onnxcost_bindings_new();
    CHECK_EQ_INT(onnxcost_bindings_set_batch(b, 2), ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_bindings_set_dim(b, "L", 8), ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_bindings_set_dim(b, "L", 16), ONNXCOST_OK); /* replaces */
    CHECK_EQ_INT(onnxcost_analyze(m, b, &a), ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_analysis_n_unbound(a), 0);
    CHECK_EQ_INT(onnxcost_analysis_batch(a), 2);
    onnxcost_totals t2;
    onnxcost_analysis_totals(a, &t2);
    CHECK(t2.macs > 16 * t1.macs);
    CHECK_EQ_INT(t2.nodes, onnxcost_model_n_nodes(m));
    uint64_t sum = 0;
    onnxcost_node nd;
    for (size_t i = 0; i < onnxcost_model_n_nodes(m); i++) {
        CHECK_EQ_INT(onnxcost_analysis_node(a, i, &nd), ONNXCOST_OK);
        sum += nd.macs;
    }
    CHECK_EQ_INT(sum, t2.macs);
    CHECK_EQ_INT(onnxcost_analysis_node(a, onnxcost_model_n_nodes(m), &nd), ONNXCOST_ERR_USAGE);
    CHECK_CONTAINS(onnxcost_last_error(), "onnxcost_analysis_node");
    onnxcost_analysis_free(a);

    /* an input shape binds N and L too; one that says L=5 against the
     * dim binding's 16 is refused, one that agrees is not */
    int64_t shape[2] = {3, 5};
    CHECK_EQ_INT(onnxcost_bindings_set_input(b, "input_ids", shape, 2), ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_analyze(m, b, &a), ONNXCOST_ERR_USAGE);
    CHECK_CONTAINS(onnxcost_last_error(), "L");
    shape[1] = 16;
    CHECK_EQ_INT(onnxcost_bindings_set_input(b, "input_ids", shape, 2), ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_analyze(m, b, &a), ONNXCOST_OK);
    if (a)
        CHECK_EQ_INT(onnxcost_analysis_batch(a), 3);
    onnxcost_analysis_free(a);

    /* a dim the model does not declare: the analyzer's message */
    CHECK_EQ_INT(onnxcost_bindings_set_dim(b, "NOPE", 3), ONNXCOST_OK);
    a = (onnxcost_analysis *)1;
    CHECK_EQ_INT(onnxcost_analyze(m, b, &a), ONNXCOST_ERR_USAGE);
    CHECK(a == NULL);
    CHECK_CONTAINS(onnxcost_last_error(), "NOPE");
    onnxcost_bindings_free(b);
    onnxcost_model_free(m);

    /* a size that depends on the data (NonZero's count): listed, then
     * assumed; an assumption that names nothing lists what there is */
    CHECK_EQ_INT(onnxcost_model_load(OC_TESTS_DIR "/data/unknown/nonzero.onnx", &m),
                 ONNXCOST_OK);
    b = onnxcost_bindings_new();
    CHECK_EQ_INT(onnxcost_analyze(m, b, &a), ONNXCOST_OK);
    if (a) {
        CHECK_EQ_INT((int)onnxcost_analysis_n_data_dims(a), 1);
        CHECK_EQ_STR(onnxcost_analysis_data_dim(a, 0), "nz:1");
        CHECK(onnxcost_analysis_data_dim(a, 1) == NULL);
    }
    onnxcost_analysis_free(a);
    CHECK_EQ_INT(onnxcost_bindings_set_assume(b, "nz:1", -1), ONNXCOST_ERR_USAGE);
    CHECK_EQ_INT(onnxcost_bindings_set_assume(b, "nz:1", 7), ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_analyze(m, b, &a), ONNXCOST_OK);
    if (a) {
        onnxcost_totals t;
        onnxcost_analysis_totals(a, &t);
        CHECK_EQ_INT((int)onnxcost_analysis_n_data_dims(a), 0);
        CHECK_EQ_INT((int)t.unknown_shape_nodes, 0);
    }
    onnxcost_analysis_free(a);
    onnxcost_bindings_free(b);
    b = onnxcost_bindings_new();
    CHECK_EQ_INT(onnxcost_bindings_set_assume(b, "nz:2", 3), ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_analyze(m, b, &a), ONNXCOST_ERR_USAGE);
    CHECK_CONTAINS(onnxcost_last_error(), "nz:1");
    onnxcost_bindings_free(b);
    onnxcost_model_free(m);
}

static void test_predict(void)
{
    onnxcost_model *m = NULL;
    onnxcost_analysis *a = NULL;
    onnxcost_predictor *p = NULL;
    onnxcost_prediction *r = NULL;
    CHECK_EQ_INT(onnxcost_model_load(SAMPLE("squeezenet1_1.onnx"), &m), ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_analyze(m, NULL, &a), ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_predictor_open("ort-cpu", ONNXCOST_INFERENCE, 2, &p), ONNXCOST_OK);
    if (!m || !a || !p)
        goto done;
    onnxcost_target t;
    onnxcost_predictor_target(p, &t);
    CHECK_EQ_STR(t.name, "ort-cpu");
    CHECK_EQ_STR(t.mode, "inference");
    CHECK(t.optimizer == NULL);
    CHECK_EQ_INT(t.threads, 2);
    CHECK(t.label[0] != '\0');
    CHECK_EQ_INT(onnxcost_predict(p, a, &r), ONNXCOST_OK);
    if (!r)
        goto done;
    onnxcost_summary s;
    onnxcost_prediction_summary(r, &s);
    CHECK_EQ_INT(s.batch, 1);
    CHECK(s.time_ms > 0 && s.time_ms_low <= s.time_ms && s.time_ms <= s.time_ms_high);
    CHECK(fabs(s.throughput_per_s - 1e3 / s.time_ms) < 1e-6 * s.throughput_per_s);
    CHECK(s.kernels > 0 && s.kernels < onnxcost_model_n_nodes(m)); /* Relus fused */
    CHECK(s.memory_bytes > 0 && s.weights_bytes == 0);
    /* the nodes' times are the kernels' times, each carried by its main node */
    double nodes_us = 0, kernels_us = 0, inserted_us = 0;
    size_t fused = 0;
    onnxcost_node_time nt;
    for (size_t i = 0; i < onnxcost_model_n_nodes(m); i++) {
        CHECK_EQ_INT(onnxcost_prediction_node(r, i, &nt), ONNXCOST_OK);
        nodes_us += nt.time_us;
        if (nt.fused_into) {
            fused++;
            CHECK(nt.time_us == 0);
        }
    }
    CHECK(fused > 0);
    CHECK_EQ_INT(onnxcost_prediction_n_kernels(r), s.kernels);
    size_t covered = 0, covered_main = 0, inserted = 0;
    onnxcost_kernel_time kt;
    for (size_t k = 0; k < onnxcost_prediction_n_kernels(r); k++) {
        CHECK_EQ_INT(onnxcost_prediction_kernel(r, k, &kt), ONNXCOST_OK);
        kernels_us += kt.time_us;
        inserted += kt.n_nodes == 0;
        if (kt.n_nodes == 0) /* a reorder or Transpose the plan inserted: no node's */
            inserted_us += kt.time_us;
        covered += kt.n_nodes;
        /* its main node carries its time */
        const char *main_node = onnxcost_prediction_kernel_node(r, k, 0);
        for (size_t i = 0; kt.n_nodes && i < onnxcost_model_n_nodes(m); i++)
            if (onnxcost_prediction_node(r, i, &nt) == ONNXCOST_OK && main_node &&
                !strcmp(nt.name, main_node)) {
                CHECK(nt.time_us == kt.time_us && !nt.fused_into);
                covered_main++;
            }
        CHECK(onnxcost_prediction_kernel_node(r, k, kt.n_nodes) == NULL);
    }
    CHECK(inserted > 0 && inserted_us > 0);
    CHECK(fabs(nodes_us + inserted_us - kernels_us) < 1e-6 * kernels_us);
    CHECK(covered > s.kernels);
    CHECK_EQ_INT(covered_main, s.kernels - inserted);
    CHECK(s.overhead_ms >= 0 && s.profiler_ms >= 0 &&
          kernels_us / 1e3 - s.profiler_ms <= s.time_ms * (1 + 1e-9));
    CHECK_EQ_INT(onnxcost_prediction_kernel(r, s.kernels, &kt), ONNXCOST_ERR_USAGE);

    /* training: a step costs more, and its memory has gradients */
    onnxcost_predictor *tp = NULL;
    onnxcost_prediction *tr = NULL;
    CHECK_EQ_INT(onnxcost_predictor_open(NULL, ONNXCOST_TRAINING_ADAM, 0, &tp), ONNXCOST_OK);
    if (tp) {
        onnxcost_predictor_target(tp, &t);
        CHECK_EQ_STR(t.name, "torch-cpu");
        CHECK_EQ_STR(t.optimizer, "adam");
        CHECK_EQ_INT(onnxcost_predict(tp, a, &tr), ONNXCOST_OK);
        onnxcost_summary ts;
        onnxcost_prediction_summary(tr, &ts);
        CHECK(ts.gradients_bytes > 0 && ts.optimizer_state_bytes == 2 * ts.gradients_bytes);
        CHECK_EQ_INT(ts.memory_bytes, ts.weights_bytes + ts.gradients_bytes +
                                          ts.optimizer_state_bytes + ts.activations_bytes);
    }
    onnxcost_prediction_free(tr);
    onnxcost_predictor_free(tp);

    /* a sweep's batch-1 step is the prediction at batch 1 (threads 2) */
    int64_t batches[3] = {1, 4, 16};
    onnxcost_step st[3];
    size_t fit = 0, best = 0;
    CHECK_EQ_INT(onnxcost_sweep(p, m, NULL, batches, 3, 0, st, &fit, &best), ONNXCOST_OK);
    CHECK(fabs(st[0].time_ms - s.time_ms) < 1e-6 * s.time_ms); /* batched BLAS rounding */
    CHECK_EQ_INT(st[0].memory_bytes, s.memory_bytes);
    CHECK_EQ_INT(fit, 2); /* no limit: all fit */
    CHECK(st[1].memory_bytes < st[2].memory_bytes);
    /* a limit between steps 1 and 2 */
    uint64_t lim = (st[1].memory_bytes + st[2].memory_bytes) / 2;
    CHECK_EQ_INT(onnxcost_sweep(p, m, NULL, batches, 3, lim, st, &fit, &best), ONNXCOST_OK);
    CHECK_EQ_INT(fit, 1);
    CHECK(!st[2].fits && st[1].fits);
    CHECK(best <= 1);
    CHECK_EQ_INT(onnxcost_sweep(p, m, NULL, batches, 3, 1000, st, &fit, &best), ONNXCOST_OK);
    CHECK(fit == SIZE_MAX && best == SIZE_MAX);
    int64_t bad[1] = {0};
    CHECK_EQ_INT(onnxcost_sweep(p, m, NULL, bad, 1, 0, st, NULL, NULL), ONNXCOST_ERR_USAGE);
    CHECK_EQ_INT(onnxcost_sweep(p, m, NULL, batches, 0, 0, st, NULL, NULL), ONNXCOST_ERR_USAGE);

    /* annotate: the file carries the times; a second time is refused */
    char path[] = "/tmp/oc_test_api_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        CHECK_EQ_INT(onnxcost_annotate(p, a, path), ONNXCOST_OK);
        size_t n = 0;
        char *buf = slurp(path, &n);
        CHECK(buf && contains(buf, n, "onnxcost.time_ms") &&
              contains(buf, n, "onnxcost: time_us=") && contains(buf, n, "ort-cpu"));
        onnxcost_model *back = NULL;
        CHECK_EQ_INT(onnxcost_model_load(path, &back), ONNXCOST_OK);
        CHECK(back && onnxcost_model_n_nodes(back) == onnxcost_model_n_nodes(m));
        onnxcost_model_free(back);
        free(buf);
        CHECK_EQ_INT(onnxcost_annotate(p, a, path), ONNXCOST_ERR_USAGE);
        CHECK_CONTAINS(onnxcost_last_error(), "already");
        remove(path);
    }
    /* in place: the model's own file, replaced whole */
    char own[] = "/tmp/oc_test_api_own_XXXXXX";
    int fo = mkstemp(own);
    size_t n = 0;
    char *orig = slurp(SAMPLE("squeezenet1_1.onnx"), &n);
    if (fo >= 0 && orig && write(fo, orig, n) == (ssize_t)n) {
        onnxcost_model *om = NULL;
        onnxcost_analysis *oa = NULL;
        CHECK_EQ_INT(onnxcost_model_load(own, &om), ONNXCOST_OK);
        CHECK_EQ_INT(onnxcost_analyze(om, NULL, &oa), ONNXCOST_OK);
        CHECK_EQ_INT(onnxcost_annotate(p, oa, own), ONNXCOST_OK);
        onnxcost_analysis_free(oa);
        onnxcost_model_free(om);
        size_t n2 = 0;
        char *buf = slurp(own, &n2);
        CHECK(buf && n2 > n && contains(buf, n2, "onnxcost.time_ms"));
        free(buf);
    } else {
        CHECK(!"cannot copy the sample");
    }
    if (fo >= 0) {
        close(fo);
        remove(own);
    }
    free(orig);
done:
    onnxcost_prediction_free(r);
    onnxcost_analysis_free(a);
    onnxcost_predictor_free(p);
    onnxcost_model_free(m);
}

/* The target choice's warnings come back, not printed: on a machine of
 * AVX2 alone (the raw model: no shipped calibration has its NCHWc block)
 * and on one of AVX-512 (the nearest measured machine's calibration). */
static void test_warnings(void)
{
    setenv("ONNXCOST_MACHINE", "other-box", 1);
    setenv("ONNXCOST_ISA", "avx2 fma", 1);
    onnxcost_predictor *p = NULL;
    CHECK_EQ_INT(onnxcost_predictor_open(NULL, ONNXCOST_INFERENCE, 3, &p), ONNXCOST_OK);
    if (p) {
        CHECK_EQ_INT(onnxcost_predictor_n_warnings(p), 2);
        CHECK_EQ_STR(onnxcost_predictor_warning(p, 0),
                     "the timing model was not trained at 3 threads; this is an "
                     "extrapolation");
        CHECK_CONTAINS(onnxcost_predictor_warning(p, 1), "this machine is other-box");
        CHECK(onnxcost_predictor_warning(p, 2) == NULL);
        onnxcost_target t;
        onnxcost_predictor_target(p, &t);
        CHECK(!t.this_machine && !t.calibrated && t.calibration == NULL && !t.nearest);
    }
    onnxcost_predictor_free(p);
    p = NULL;
    setenv("ONNXCOST_ISA", "avx2 fma avx512f avx512_vnni avx512_bf16", 1);
    CHECK_EQ_INT(onnxcost_predictor_open(NULL, ONNXCOST_INFERENCE, 1, &p), ONNXCOST_OK);
    if (p) {
        CHECK_EQ_INT(onnxcost_predictor_n_warnings(p), 1);
        CHECK_CONTAINS(onnxcost_predictor_warning(p, 0),
                       "no calibration for this machine (other-box): predicting with that of "
                       "cpu-AuthenticAMD-f26-m2, the measured machine nearest it (the same "
                       "NCHWc block, 0 ISA features apart)");
        onnxcost_target t;
        onnxcost_predictor_target(p, &t);
        CHECK(!t.this_machine && t.calibrated && t.nearest);
        CHECK_EQ_STR(t.machine, "cpu-AuthenticAMD-f26-m2");
        CHECK_EQ_STR(t.calibration, "built-in ort-cpu@cpu-AuthenticAMD-f26-m2");
    }
    onnxcost_predictor_free(p);
    unsetenv("ONNXCOST_MACHINE");
    unsetenv("ONNXCOST_ISA");
}

/* squeezenet1_1 at 1 thread through target `spec` as machine `fp`: the
 * time, and whether the target says it is this machine's with no warning. */
static double time_as(const char *spec, const char *fp, int *own, const onnxcost_analysis *a)
{
    setenv("ONNXCOST_MACHINE", fp, 1);
    onnxcost_predictor *p = NULL;
    onnxcost_prediction *r = NULL;
    double ms = -1;
    *own = 0;
    if (onnxcost_predictor_open(spec, ONNXCOST_INFERENCE, 1, &p) == ONNXCOST_OK &&
        onnxcost_predict(p, a, &r) == ONNXCOST_OK) {
        onnxcost_target t;
        onnxcost_predictor_target(p, &t);
        onnxcost_summary s;
        onnxcost_prediction_summary(r, &s);
        ms = s.time_ms;
        *own = t.this_machine && !strcmp(t.machine, fp) && !t.calibrated &&
               onnxcost_predictor_n_warnings(p) == 0 && strstr(t.label, "trained on this machine");
    }
    onnxcost_prediction_free(r);
    onnxcost_predictor_free(p);
    unsetenv("ONNXCOST_MACHINE");
    return ms;
}

/* A timing model trained on several machines' samples predicts, with no
 * calibration, for the machine at hand when it is one of them (its own
 * hardware profile, no warning), and warns elsewhere. */
static void test_trained_machines(void)
{
    onnxcost_model *m = NULL;
    onnxcost_analysis *a = NULL;
    CHECK_EQ_INT(onnxcost_model_load(SAMPLE("squeezenet1_1.onnx"), &m), ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_analyze(m, NULL, &a), ONNXCOST_OK);
    const char *tm = OC_SAMPLES "/../data/ort-cpu.tmodel";
    int own_a, own_b, own_c;
    double ta = time_as(tm, "cpu-AuthenticAMD-unrecorded", &own_a, a);
    double tb = time_as(tm, "cpu-AuthenticAMD-f26-m2", &own_b, a);
    double tc = time_as(tm, "other-box", &own_c, a);
    CHECK(ta > 0 && tb > 0 && tc > 0);
    CHECK(own_a && own_b && !own_c);
    /* each machine's own profile: different figures, different times; a
     * machine it never saw gets the model's first */
    CHECK(fabs(ta - tb) > 0.01 * ta);
    CHECK(fabs(ta - tc) < 1e-9 * ta);
    onnxcost_analysis_free(a);
    onnxcost_model_free(m);
}

/* An If on a constant condition is its branch's kernels, named as ORT's
 * Graph::InlineIfSubgraph renames them; a Loop is one kernel, its body's
 * run once per trip in the count (tests/data/control, gen_control.py). */
static void test_control(void)
{
    onnxcost_model *m = NULL, *lm = NULL;
    onnxcost_analysis *a = NULL, *la = NULL;
    onnxcost_predictor *p = NULL;
    onnxcost_prediction *r = NULL, *lr = NULL;
    CHECK_EQ_INT(onnxcost_model_load(OC_TESTS_DIR "/data/control/if_const.onnx", &m), ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_model_load(OC_TESTS_DIR "/data/control/loop_const.onnx", &lm),
                 ONNXCOST_OK);
    CHECK_EQ_INT(onnxcost_predictor_open("ort-cpu", ONNXCOST_INFERENCE, 1, &p), ONNXCOST_OK);
    if (m && lm && p && onnxcost_analyze(m, NULL, &a) == ONNXCOST_OK &&
        onnxcost_analyze(lm, NULL, &la) == ONNXCOST_OK &&
        onnxcost_predict(p, a, &r) == ONNXCOST_OK && onnxcost_predict(p, la, &lr) == ONNXCOST_OK) {
        onnxcost_kernel_time kt;
        CHECK(onnxcost_prediction_n_kernels(r) >= 1);
        CHECK_EQ_INT(onnxcost_prediction_kernel(r, 0, &kt), ONNXCOST_OK);
        CHECK(strstr(kt.op, "Conv") != NULL && kt.time_us > 0);
        /* blocked (NCHWc): named after the If's output; else the node */
        CHECK(!strcmp(kt.name, "Y_nchwc") || !strcmp(kt.name, "ifthen_branch_then_conv"));
        CHECK_EQ_STR(onnxcost_prediction_kernel_node(r, 0, 0), "then_conv");
        onnxcost_summary s;
        onnxcost_prediction_summary(r, &s);
        CHECK_EQ_INT(s.kernels, onnxcost_prediction_n_kernels(r));
        CHECK_EQ_INT(onnxcost_prediction_n_kernels(lr), 1);
        CHECK_EQ_INT(onnxcost_prediction_kernel(lr, 0, &kt), ONNXCOST_OK);
        CHECK_EQ_STR(kt.op, "Loop");
        onnxcost_prediction_summary(lr, &s);
        CHECK_EQ_INT(s.kernels, 1 + 5 * 3); /* MatMul, Relu and the condition's Identity */
    } else {
        t_failed++;
    }
    onnxcost_prediction_free(lr);
    onnxcost_prediction_free(r);
    onnxcost_analysis_free(la);
    onnxcost_analysis_free(a);
    onnxcost_predictor_free(p);
    onnxcost_model_free(lm);
    onnxcost_model_free(m);
}

int main(void)
{
    setenv("XDG_CACHE_HOME", "/nonexistent-oc-cache", 1);
    test_errors();
    test_analyze();
    test_predict();
    test_warnings();
    test_trained_machines();
    test_control();
    return t_report("api");
}
