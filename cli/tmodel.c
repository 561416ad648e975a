/* tmodel.c - the timing model the predicting commands use. */
#include "cli/cli.h"
#include "predictor/estimate.h"

static bool predicts_training(const oc_tmodel *tm)
{
    return (oc_tmodel_get_info(tm)->optimizers & ~(1u << OC_OPT_NONE)) != 0;
}

int cli_load_tmodel(const char *path, int64_t threads, const cli_mode *mode, oc_tmodel **tm,
                    oc_overhead *ov)
{
    oc_error err;
    oc_error_clear(&err);
    *tm = NULL;
    bool training = mode->optimizer != OC_OPT_NONE;
    const char *builtin = training ? "torch-cpu" : "ort-cpu";
    oc_status st = path ? oc_tmodel_load(path, tm, &err) : oc_default_tmodel(builtin, tm, ov, &err);
    if (st)
        return cli_fail(&err, path != NULL);
    const char *target = oc_tmodel_get_info(*tm)->target;
    int rc = 0;
    if (predicts_training(*tm) != training) {
        cli_error("%s: the %s timing model predicts %s; %s", path ? path : "built-in", target,
                  training ? "inference" : "training steps",
                  training ? "give a training model (onnxcost train on torch-cpu samples)"
                           : "add --mode training");
        rc = EXIT_USAGE;
    } else if (training && oc_tmodel_set_optimizer(*tm, mode->optimizer, &err) != OC_OK) {
        rc = cli_fail(&err, 0);
    } else if (threads && oc_tmodel_set_threads(*tm, (int)threads, &err) != OC_OK) {
        rc = cli_fail(&err, 0);
    }
    if (rc) {
        oc_tmodel_free(*tm);
        *tm = NULL;
        return rc;
    }
    /* The in-graph fit is per thread count: take it after set_threads. */
    oc_default_tmodel_overhead(target, ov, oc_tmodel_get_info(*tm)->threads);
    if (threads && !oc_tmodel_has_threads(*tm, (int)threads))
        fprintf(stderr, "onnxcost: warning: the timing model was not trained at %lld "
                        "threads; this is an extrapolation\n", (long long)threads);
    return 0;
}
