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

json_t *cli_target_json(const oc_tmodel *tm, const cli_target *tgt, const cli_mode *mode)
{
    const oc_tmodel_info *info = oc_tmodel_get_info(tm);
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(info->target));
    json_object_set_new(o, "runtime", json_string(info->runtime));
    json_object_set_new(o, "cpu", json_string(info->cpu));
    json_object_set_new(o, "threads", json_integer(info->threads));
    json_object_set_new(o, "mode", json_string(cli_mode_name(mode)));
    json_object_set_new(o, "optimizer", mode->training
                                            ? json_string(oc_optimizer_name(mode->optimizer))
                                            : json_null());
    json_object_set_new(o, "machine", tgt->machine[0] ? json_string(tgt->machine) : json_null());
    json_object_set_new(o, "model_machine",
                        info->machine[0] ? json_string(info->machine) : json_null());
    json_object_set_new(o, "calibrated", json_boolean(tgt->calibrated));
    json_object_set_new(o, "calibration", tgt->source[0] ? json_string(tgt->source) : json_null());
    json_object_set_new(o, "this_machine", json_boolean(tgt->this_machine));
    json_object_set_new(o, "label", json_string(tgt->label));
    const char *fit = oc_tmodel_fit_source(tm);
    json_object_set_new(o, "in_graph_fit", fit ? json_string(fit) : json_null());
    return o;
}

void cli_print_target(const oc_tmodel *tm, const cli_target *tgt, const cli_mode *mode)
{
    const oc_tmodel_info *info = oc_tmodel_get_info(tm);
    printf("target: %s (%s), %d thread%s%s%s; %s\n", info->target, info->runtime,
           info->threads, info->threads == 1 ? "" : "s",
           mode->training ? "; training step with " : "",
           mode->training ? oc_optimizer_name(mode->optimizer) : "", tgt->label);
}
