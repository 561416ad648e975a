/* ingraph.c - dataset lines of the kernels of measured whole-model runs
 * (ingraph.h). */
#include "training/ingraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx/model.h"
#include "predictor/estimate.h"
#include "predictor/features.h"
#include "report/profile.h"
#include "training/anchors.h"

/* Whether d's dataset line gives back a description of the same features
 * xrow (the line is what training reads). */
static bool faithful(const json_t *line, const oc_target *tgt, const float *xrow)
{
    oc_arena *ar = oc_arena_new();
    oc_node_desc d;
    oc_error e;
    float x[OC_N_FEATURES];
    bool same = ar &&
                oc_node_desc_from_json(json_object_get(line, "node"),
                                       json_object_get(line, "fused"),
                                       json_object_get(line, "features"), &d, ar, &e) == OC_OK &&
                oc_features_from_desc(&d, tgt, x, &e) == OC_OK &&
                memcmp(x, xrow, sizeof x) == 0;
    oc_arena_free(ar);
    return same;
}

static json_t *target_json(const json_t *run, const oc_ingraph_opts *o, int64_t threads)
{
    const char *ver = json_string_value(json_object_get(run, "ort_version"));
    return json_pack("{s:s, s:s, s:s*, s:I, s:s*, s:s}", "name", "ort-cpu", "runtime",
                     "onnxruntime-node", "version", ver, "threads", (json_int_t)threads,
                     "machine", o->machine, "source", "in-graph");
}

/* The line of row r of e, timed us. */
static json_t *kernel_line(const oc_estimate *e, size_t r, const json_t *run, const char *model,
                           int64_t batch, int64_t threads, const oc_ingraph_opts *o, double us,
                           oc_arena *ar, oc_error *err)
{
    oc_node_desc d;
    if (oc_estimate_row_desc(e, r, &d, ar, err) != OC_OK)
        return NULL;
    char id[512], pat[256];
    snprintf(id, sizeof id, "ort-cpu/t%lld/InGraph/%s/b%lld/%06zu", (long long)threads, model,
             (long long)batch, e->x_kernel[r]);
    json_t *line = json_pack(
        "{s:i, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:{s:s, s:I, s:I}, s:f}", "v", 1, "id",
        id, "family", "InGraph", "op", d.op, "pattern",
        oc_node_desc_pattern(&d, pat, sizeof pat), "target", target_json(run, o, threads),
        "node", oc_node_desc_to_json(&d), "fused", oc_node_desc_fused_to_json(&d),
        "features", oc_node_desc_cost_to_json(&d), "sample", "model", model, "batch",
        (json_int_t)batch, "kernel", (json_int_t)e->x_kernel[r], "time_us", us);
    if (!line)
        oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    return line;
}

oc_status oc_ingraph_lines(const char *model_path, const json_t *run, oc_tmodel *tm,
                           const oc_ingraph_opts *o, json_t *lines, oc_ingraph_counts *n,
                           oc_error *err)
{
    const char *model = json_string_value(json_object_get(run, "model"));
    const json_t *bj = json_object_get(run, "batch"), *tj = json_object_get(run, "threads");
    const json_t *kernels = json_object_get(run, "kernels");
    oc_input_override ov_in[16];
    size_t n_in;
    if (!model || !json_is_integer(bj) || !json_is_integer(tj) || !json_is_array(kernels) ||
        !oc_run_inputs_parse(json_object_get(run, "inputs"), ov_in, 16, &n_in))
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "a run needs \"model\", \"batch\", \"threads\", \"kernels\" and "
                            "at most 16 \"inputs\" with positive dims");
    int64_t batch = json_integer_value(bj), threads = json_integer_value(tj);
    if (threads < 1 || threads > 4096)
        return oc_error_set(err, OC_ERR_INPUT, NULL, "bad \"threads\" %lld",
                            (long long)threads);
    oc_status st = oc_tmodel_set_threads(tm, (int)threads, err);
    if (st)
        return err->status = OC_ERR_INPUT;
    oc_tmodel_set_nchwc_block(tm, o->nchwc_block);
    oc_target tgt;
    oc_tmodel_target(tm, &tgt);
    oc_overhead ov;
    oc_tmodel_overhead(tm, (int)threads, &ov);

    oc_model *m = NULL;
    oc_analysis *an = NULL;
    oc_arena *ar = oc_arena_new();
    double *meas = NULL;
    oc_profile pf;
    memset(&pf, 0, sizeof pf);
    oc_estimate e;
    oc_analyze_opts ao = {.batch = n_in ? 0 : batch, .overrides = ov_in, .n_overrides = n_in};
    if (!ar)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    if ((st = oc_model_load(model_path, NULL, &m, err)) ||
        (st = oc_analyze(m, &ao, &an, err)) || (st = oc_estimate_run(an, tm, &ov, &e, ar, err)))
        goto done;
    if (!(meas = malloc((e.plan.n_kernels + 1) * sizeof *meas))) {
        st = oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        goto done;
    }
    if ((st = oc_profile_from_kernels(kernels, &pf, err)))
        goto done;
    if ((st = oc_profile_times(model_path, "its kernel list", oc_analysis_graph(an), &e, &pf,
                               meas, err)) == OC_ERR_INPUT) {
        if (!n->foreign++)
            snprintf(n->first_foreign, sizeof n->first_foreign, "%s b%lld t%lld", model,
                     (long long)batch, (long long)threads);
        oc_error_clear(err);
        st = OC_OK;
        goto done;
    }
    if (st)
        goto done;
    for (size_t r = 0; r < e.n_run; r++) {
        double us = meas[e.x_kernel[r]];
        if (!(us > 0)) {
            n->unmatched++;
            continue;
        }
        json_t *line = kernel_line(&e, r, run, model, batch, threads, o, us, ar, err);
        if (!line) {
            st = err->status;
            goto done;
        }
        if (!faithful(line, &tgt, e.x + r * OC_N_FEATURES)) {
            n->unfaithful++;
            json_decref(line);
            continue;
        }
        if (json_array_append_new(lines, line)) {
            st = oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
            goto done;
        }
        n->lines++;
    }
done:
    if (st == OC_ERR_IO)
        st = err->status = OC_ERR_INPUT; /* the run names a model that is not there */
    oc_profile_free(&pf);
    free(meas);
    oc_analysis_free(an);
    oc_model_free(m);
    oc_arena_free(ar);
    return st;
}
