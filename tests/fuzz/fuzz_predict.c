/* fuzz_predict.c - libFuzzer target over everything after the load: the
 * bytes are a model; analyze it at a batch, predict it for inference and
 * for a training step (SGD and Adam), sweep three batches, annotate it into
 * a temporary file and load and analyze what was written.  Goes through the
 * public interface, as a program linking libonnxcost would. */
#include "onnxcost.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static onnxcost_predictor *infer, *train_sgd, *train_adam;
static char out_path[64];

static void open_predictors(void)
{
    if (infer)
        return;
    /* explicit built-in targets: no cached calibration of the fuzzing
     * machine makes a run depend on what is in $XDG_CACHE_HOME */
    if (onnxcost_predictor_open("ort-cpu", ONNXCOST_INFERENCE, 1, &infer) != ONNXCOST_OK ||
        onnxcost_predictor_open("torch-cpu", ONNXCOST_TRAINING_SGD, 1, &train_sgd) !=
            ONNXCOST_OK ||
        onnxcost_predictor_open("torch-cpu", ONNXCOST_TRAINING_ADAM, 2, &train_adam) !=
            ONNXCOST_OK) {
        fprintf(stderr, "fuzz_predict: %s\n", onnxcost_last_error());
        abort();
    }
    snprintf(out_path, sizeof out_path, "/tmp/oc-fuzz-predict-%ld.onnx", (long)getpid());
}

static void predict_all(const onnxcost_analysis *a)
{
    onnxcost_predictor *ps[] = {infer, train_sgd, train_adam};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        onnxcost_prediction *r;
        if (onnxcost_predict(ps[i], a, &r) != ONNXCOST_OK)
            continue;
        onnxcost_summary s;
        onnxcost_prediction_summary(r, &s);
        size_t n = onnxcost_prediction_n_kernels(r);
        /* a time is a number, and the kernel list agrees with itself: the
         * kernels run per inference are the listed ones, plus what a
         * kept If, Loop or Scan (listed as one) runs inside, per trip */
        if (isnan(s.time_ms) || s.time_ms < 0 || s.time_ms_low > s.time_ms_high ||
            s.kernels < n) {
            fprintf(stderr, "fuzz_predict: inconsistent prediction (%g ms, %zu kernels)\n",
                    s.time_ms, s.kernels);
            abort();
        }
        for (size_t k = 0; k < n; k++) {
            onnxcost_kernel_time kt;
            if (onnxcost_prediction_kernel(r, k, &kt) != ONNXCOST_OK || isnan(kt.time_us))
                abort();
            size_t j = 0;
            while (onnxcost_prediction_kernel_node(r, k, j))
                j++;
            if (j != kt.n_nodes)
                abort();
        }
        onnxcost_prediction_free(r);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    open_predictors();
    onnxcost_model *m;
    if (onnxcost_model_load_buffer(data, size, "fuzz", &m) != ONNXCOST_OK)
        return 0;
    onnxcost_bindings *b = onnxcost_bindings_new();
    onnxcost_bindings_set_batch(b, 2);
    onnxcost_analysis *a;
    if (onnxcost_analyze(m, b, &a) == ONNXCOST_OK) {
        predict_all(a);
        static const int64_t batches[] = {1, 4, 16};
        onnxcost_step steps[3];
        onnxcost_sweep(infer, m, NULL, batches, 3, 1u << 30, steps, NULL, NULL);
        if (onnxcost_annotate(infer, a, out_path) == ONNXCOST_OK) {
            onnxcost_model *m2;
            /* what was written must load and analyze as the original did */
            if (onnxcost_model_load(out_path, &m2) != ONNXCOST_OK) {
                fprintf(stderr, "fuzz_predict: annotated copy does not load: %s\n",
                        onnxcost_last_error());
                abort();
            }
            onnxcost_analysis *a2;
            if (onnxcost_analyze(m2, b, &a2) != ONNXCOST_OK) {
                fprintf(stderr, "fuzz_predict: annotated copy does not analyze: %s\n",
                        onnxcost_last_error());
                abort();
            }
            onnxcost_analysis_free(a2);
            onnxcost_model_free(m2);
            unlink(out_path);
        }
        onnxcost_analysis_free(a);
    }
    onnxcost_bindings_free(b);
    onnxcost_model_free(m);
    return 0;
}
