/* sweep.c - the batch sizes that fit a memory limit, and the fastest.
 *
 *   cc sweep.c $(pkg-config --cflags --libs onnxcost) -o sweep
 *   ./sweep MODEL MEMORY_LIMIT_BYTES
 */
#include <onnxcost.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s MODEL MEMORY_LIMIT_BYTES\n", argv[0]);
        return 1;
    }
    const int64_t batches[] = {1, 2, 4, 8, 16, 32, 64};
    enum { N = sizeof batches / sizeof batches[0] };
    onnxcost_step steps[N];
    size_t fit, best;
    onnxcost_model *m = NULL;
    onnxcost_predictor *p = NULL;
    int rc = 1;
    if (onnxcost_model_load(argv[1], &m) != ONNXCOST_OK ||
        onnxcost_predictor_open(NULL, ONNXCOST_INFERENCE, 0, &p) != ONNXCOST_OK ||
        onnxcost_sweep(p, m, NULL, batches, N, strtoull(argv[2], NULL, 10), steps, &fit,
                       &best) != ONNXCOST_OK) {
        fprintf(stderr, "sweep: %s\n", onnxcost_last_error());
        goto done;
    }
    printf("%6s %10s %14s %14s\n", "batch", "ms", "samples/s", "memory");
    for (size_t k = 0; k < N; k++)
        printf("%6lld %10.3f %14.1f %14llu%s\n", (long long)steps[k].batch, steps[k].time_ms,
               steps[k].throughput_per_s, (unsigned long long)steps[k].memory_bytes,
               steps[k].fits ? "" : " over the limit");
    if (fit == SIZE_MAX)
        printf("no batch size fits\n");
    else
        printf("largest that fits: %lld; best throughput: %lld\n",
               (long long)steps[fit].batch, (long long)steps[best].batch);
    rc = 0;
done:
    onnxcost_predictor_free(p);
    onnxcost_model_free(m);
    return rc;
}
