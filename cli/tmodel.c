/* tmodel.c - the target the predicting commands use, chosen by the
 * library (predictor/target.c): its warnings printed, its JSON and its
 * table line. */
#include "cli/cli.h"
#include "predictor/estimate.h"


int cli_load_tmodel(const char *spec, int64_t threads, const cli_mode *mode, oc_tmodel **tm,
                    oc_overhead *ov, cli_target *tgt)
{
    oc_error err;
    oc_error_clear(&err);
    cli_target dummy;
    if (!tgt)
        tgt = &dummy;
    oc_status st = oc_target_select(spec, (int)threads, mode->optimizer, tm, ov, tgt, &err);
    for (size_t k = 0; k < tgt->n_warnings; k++)
        fprintf(stderr, "onnxcost: warning: %s\n", tgt->warnings[k]);
    return st == OC_OK ? 0 : cli_fail(&err, tgt->load_error);
}

void cli_print_target(const oc_tmodel *tm, const cli_target *tgt, const cli_mode *mode)
{
    const oc_tmodel_info *info = oc_tmodel_get_info(tm);
    printf("target: %s (%s), %d thread%s%s%s; %s\n", info->target, info->runtime,
           info->threads, info->threads == 1 ? "" : "s",
           mode->training ? "; training step with " : "",
           mode->training ? oc_optimizer_name(mode->optimizer) : "", tgt->label);
}
