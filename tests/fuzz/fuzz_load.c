/* fuzz_load.c - libFuzzer target: load + analyze an in-memory model. */
#include "analyzer/analyzer.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    oc_model *m;
    oc_error err;
    if (oc_model_load_buffer(data, size, "fuzz", &m, &err) != OC_OK)
        return 0;
    static const int64_t batches[] = {0, 3};
    for (size_t i = 0; i < sizeof batches / sizeof batches[0]; i++) {
        oc_analyze_opts o = {.batch = batches[i]};
        oc_analysis *a;
        if (oc_analyze(m, &o, &a, &err) == OC_OK)
            oc_analysis_free(a);
    }
    oc_model_free(m);
    return 0;
}
