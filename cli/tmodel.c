/* tmodel.c - the timing model the predicting commands use. */
#include "cli/cli.h"
#include "predictor/estimate.h"

int cli_load_tmodel(const char *path, int64_t threads, oc_tmodel **tm, oc_overhead *ov)
{
    oc_error err;
    oc_error_clear(&err);
    *tm = NULL;
    oc_status st = path ? oc_tmodel_load(path, tm, &err) : oc_default_tmodel("ort-cpu", tm, ov, &err);
    if (st)
        return cli_fail(&err, path != NULL);
    if (threads && oc_tmodel_set_threads(*tm, (int)threads, &err) != OC_OK) {
        oc_tmodel_free(*tm);
        *tm = NULL;
        return cli_fail(&err, 0);
    }
    /* The in-graph fit is per thread count: take it after set_threads. */
    oc_target tgt;
    oc_tmodel_target(*tm, &tgt);
    oc_default_tmodel_overhead(tgt.name, ov, oc_tmodel_get_info(*tm)->threads);
    if (threads && !oc_tmodel_has_threads(*tm, (int)threads))
        fprintf(stderr, "onnxcost: warning: the timing model was not trained at %lld "
                        "threads; this is an extrapolation\n", (long long)threads);
    return 0;
}
