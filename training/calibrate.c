/* calibrate.c - the fits of 'onnxcost calibrate' that need more than
 * predictor/calib.c: the in-graph scale from the anchor networks
 * (calibrate.h). */
#include "training/calibrate.h"

#include <limits.h>

#include <jansson.h>
#include <string.h>

#include "onnx/model.h"
#include "predictor/estimate.h"
#include "predictor/hw.h"
#include "predictor/target.h"

/* The base model: the file `path` (a file of format 3 or 4 with the
 * built-in's in-graph fit when it is the built-in model), else the
 * built-in model of `target`. */
oc_status oc_calib_load_base(const char *path, const char *target, oc_tmodel **tm,
                           oc_error *err)
{
    oc_overhead ov;
    if (!path)
        return oc_default_tmodel(target, tm, &ov, err);
    bool fitted;
    oc_status st = oc_tmodel_load(path, tm, err);
    if (st == OC_OK && (st = oc_tmodel_fit_legacy(*tm, &fitted, err)) != OC_OK) {
        oc_tmodel_free(*tm);
        *tm = NULL;
    }
    return st;
}

oc_status oc_calib_set_stream(oc_calib *cal, const char *hw_path, bool measure,
                              const char *here, bool *unknown, oc_error *err)
{
    oc_hw hw;
    *unknown = false;
    if (hw_path) {
        json_error_t je;
        json_t *j = json_load_file(hw_path, 0, &je);
        if (!j)
            return oc_error_set(err, OC_ERR_INPUT, NULL, "%s: %s", hw_path, je.text);
        const char *id =
            json_string_value(json_object_get(json_object_get(j, "machine"), "id"));
        oc_status st = oc_hw_from_json(j, &hw, err);
        if (!st && (!id || strcmp(id, cal->machine.id)))
            st = oc_error_set(err, OC_ERR_INPUT, NULL,
                              "calibrate: %s was measured on %s, the calibration is of %s",
                              hw_path, id ? id : "an unrecorded machine", cal->machine.id);
        json_decref(j);
        if (st)
            return st;
    } else if (measure && !strcmp(cal->machine.id, here)) {
        oc_status st = oc_hw_measure(0, &hw, err);
        if (st)
            return st;
    } else {
        *unknown = true;
        return OC_OK;
    }
    for (int i = 0; i < cal->n_fits; i++) {
        oc_calib_fit *f = &cal->fits[i];
        double n = hw.gbps_1 * f->threads;
        f->stream_gbps = f->threads == 1 ? hw.gbps_1 : n < hw.gbps_n ? n : hw.gbps_n;
    }
    return OC_OK;
}

/* The in-graph scale at `threads` from the anchor runs there: each network
 * predicted by the base model with the calibration just fitted. */
oc_status oc_calib_fit_anchors(const char *base_path, oc_calib *cal, const char *target,
                               int64_t threads, const oc_anchor_set *as, oc_error *err)
{
    oc_calib_fit *f = (oc_calib_fit *)oc_calib_fit_for(cal, (int)threads);
    if (!f || !oc_anchor_count(as, threads))
        return OC_OK;
    oc_tmodel *tm = NULL;
    oc_overhead ov;
    oc_status st = oc_calib_load_base(base_path, target, &tm, err);
    if (!st)
        st = oc_tmodel_set_calib(tm, cal, err);
    if (!st)
        st = oc_tmodel_set_threads(tm, (int)threads, err);
    if (st) {
        oc_tmodel_free(tm);
        return st;
    }
    oc_tmodel_overhead(tm, (int)threads, &ov);
    ov.kernel_scale = 1;
    ov.per_kernel_us = 0;
    ov.stream_gbps = f->stream_gbps;
    oc_calib_anchor a[OC_MAX_ANCHOR_RUNS];
    oc_calib_output out[OC_MAX_ANCHOR_RUNS];
    oc_calib_chain chains[OC_MAX_ANCHOR_RUNS];
    size_t k = 0, n_out = 0, n_chains = 0;
    int rc = 0;
    for (size_t i = 0; i < as->n && !rc; i++) {
        const oc_anchor_run *r = &as->r[i];
        if (r->threads != threads)
            continue;
        if (r->name == oc_output_probe) {
            out[n_out++] = (oc_calib_output){r->wall_us, r->kernel_us, r->output_bytes};
            continue;
        }
        if (r->name == oc_chain_probe) {
            chains[n_chains++] = (oc_calib_chain){r->kernels, r->wall_us, r->kernel_us};
            continue;
        }
        char path[PATH_MAX];
        oc_model *m = NULL;
        oc_analysis *an = NULL;
        oc_arena *ar = oc_arena_new();
        oc_estimate e;
        oc_analyze_opts ao = {.batch = r->n_inputs ? 0 : r->batch,
                              .overrides = r->inputs,
                              .n_overrides = (size_t)r->n_inputs};
        if (oc_anchor_path(r->name, path, sizeof path)) {
            rc = oc_error_set(err, OC_ERR_IO, NULL,
                              "calibrate: the anchor network %s is missing (set "
                              "ONNXCOST_ANCHORS)", path);
        } else if (!ar) {
            rc = oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
        } else if ((rc = oc_model_load(path, NULL, &m, err))) {
            /* as the command's loads: a model that does not load is bad input */
            rc = err->status = rc == OC_ERR_IO ? OC_ERR_INPUT : rc;
        } else if (oc_analyze(m, &ao, &an, err) != OC_OK ||
                   oc_estimate_run(an, tm, &ov, &e, ar, err) != OC_OK) {
            rc = err->status;
        }
        if (!rc)
            a[k++] = (oc_calib_anchor){r->name, e.kernels_raw_us, e.plan.n_run, r->wall_us};
        oc_arena_free(ar);
        oc_analysis_free(an);
        oc_model_free(m);
    }
    oc_tmodel_free(tm);
    if (!rc && n_chains)
        rc = oc_calib_fit_chain(f, chains, n_chains, err);
    if (!rc && k)
        rc = oc_calib_fit_in_graph(f, a, k, err);
    if (!rc && n_out)
        rc = oc_calib_fit_output(f, out, n_out, err);
    return rc;
}

