/* predict.c - predict a model's inference time with the installed library.
 *
 *   cc predict.c $(pkg-config --cflags --libs onnxcost) -o predict
 *   ./predict MODEL [BATCH [TARGET]]
 */
#include <onnxcost.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s MODEL [BATCH [TARGET]]\n", argv[0]);
        return 1;
    }
    long long batch = argc > 2 ? atoll(argv[2]) : 1;
    onnxcost_model *m = NULL;
    onnxcost_bindings *b = onnxcost_bindings_new();
    onnxcost_analysis *a = NULL;
    onnxcost_predictor *p = NULL;
    onnxcost_prediction *r = NULL;
    int rc = 1;
    if (!b || onnxcost_bindings_set_batch(b, batch) != ONNXCOST_OK ||
        onnxcost_model_load(argv[1], &m) != ONNXCOST_OK ||
        onnxcost_analyze(m, b, &a) != ONNXCOST_OK ||
        onnxcost_predictor_open(argc > 3 ? argv[3] : NULL, ONNXCOST_INFERENCE, 0, &p) !=
            ONNXCOST_OK ||
        onnxcost_predict(p, a, &r) != ONNXCOST_OK) {
        fprintf(stderr, "predict: %s\n", b ? onnxcost_last_error() : "out of memory");
        goto done;
    }
    for (size_t i = 0; i < onnxcost_predictor_n_warnings(p); i++)
        fprintf(stderr, "predict: warning: %s\n", onnxcost_predictor_warning(p, i));
    onnxcost_target t;
    onnxcost_predictor_target(p, &t);
    onnxcost_summary s;
    onnxcost_prediction_summary(r, &s);
    printf("model: %s\n", onnxcost_model_source(m));
    printf("target: %s (%s), %d thread%s; %s\n", t.name, t.runtime, t.threads,
           t.threads == 1 ? "" : "s", t.label);
    printf("batch %lld: %.3f ms (%.3f to %.3f ms), %zu kernels, %.1f samples/s\n",
           (long long)s.batch, s.time_ms, s.time_ms_low, s.time_ms_high, s.kernels,
           s.throughput_per_s);
    printf("memory: %llu bytes\n", (unsigned long long)s.memory_bytes);
    rc = 0;
done:
    onnxcost_prediction_free(r);
    onnxcost_analysis_free(a);
    onnxcost_predictor_free(p);
    onnxcost_bindings_free(b);
    onnxcost_model_free(m);
    return rc;
}
