/* calibrate.c - the fits of 'onnxcost calibrate' that need more than
 * predictor/calib.c: the in-graph scale from the anchor networks
 * (calibrate.h). */
#include "training/calibrate.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "onnx/model.h"
#include "predictor/dataset.h"
#include "predictor/estimate.h"
#include "predictor/hw.h"
#include "predictor/target.h"
#include "report/profile.h"

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

oc_status oc_calib_set_hw(oc_calib *cal, const char *hw_path, bool measure, const char *here,
                          bool *unknown, oc_error *err)
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
        /* A probe measured on another host names only its machine's id
         * (no vendor, ISA or cores): the profile describes that machine. */
        oc_machine m;
        if (!st && !cal->machine.vendor[0] &&
            oc_machine_from_json(json_object_get(j, "machine"), &m))
            cal->machine = m;
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
    bool training = !strcmp(cal->mode, "training");
    for (int i = 0; i < cal->n_fits; i++) {
        oc_calib_fit *f = &cal->fits[i];
        if (training) {
            /* faults at 2 threads of 2 cost 0.64x those at 1 in PyTorch's
             * steps (cpu-AuthenticAMD-f26-m2), 0.57-0.60x in the probe */
            oc_target t;
            oc_hw_target(&hw, cal->target, f->threads, &t);
            f->fault_us_per_mb = t.fault_us_per_mb;
            continue;
        }
        double n = hw.gbps_1 * f->threads;
        f->stream_gbps = f->threads == 1 ? hw.gbps_1 : n < hw.gbps_n ? n : hw.gbps_n;
    }
    return OC_OK;
}

/* One anchor run's kernels by calibration group: the predicted time of all
 * of them into raw[g], and of those the run's kernel list has, with its
 * profiled time, into sums[g].  A list that does not match the network
 * (another version of it) adds nothing. */
static oc_status group_sums(const char *path, const oc_graph *g, const oc_estimate *e,
                            const json_t *profiled, double *raw, oc_calib_group_sum *sums,
                            oc_error *err)
{
    for (size_t r = 0; r < e->n_run; r++)
        raw[oc_calib_group_of(e->x + r * OC_N_FEATURES)] += e->x_us[r];
    if (!profiled)
        return OC_OK;
    oc_profile pf;
    double *meas = malloc((e->plan.n_kernels + 1) * sizeof *meas);
    oc_status st = meas ? oc_profile_from_kernels(profiled, &pf, err)
                        : oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
    if (!st)
        st = oc_profile_times(path, "its kernel list", g, e, &pf, meas, err);
    double gm[OC_CALIB_GROUPS] = {0}, gp[OC_CALIB_GROUPS] = {0}, all = 0;
    size_t gn[OC_CALIB_GROUPS] = {0};
    for (size_t r = 0; !st && r < e->n_run; r++) {
        double mu = meas[e->x_kernel[r]];
        all += e->x_us[r];
        if (mu > 0 && e->x_us[r] > 0) {
            int c = oc_calib_group_of(e->x + r * OC_N_FEATURES);
            gm[c] += mu;
            gp[c] += e->x_us[r];
            gn[c]++;
        }
    }
    if (!st)
        oc_calib_group_sum_add(sums, gm, gp, gn, all);
    if (meas)
        oc_profile_free(&pf);
    free(meas);
    if (st == OC_ERR_INPUT) { /* not this network's kernels */
        oc_error_clear(err);
        st = OC_OK;
    }
    return st;
}

/* Last, with the rest of f fitted: the loop chains at `threads`, each run
 * predicted whole as predict would (f's overhead, no Loop cost yet), give
 * what a Loop's trip costs beyond its body (f->loop_trip_us), and with the
 * kernel chains what running a Loop costs once (f->loop_run_us). */
static oc_status loop_pass(const oc_tmodel *tm, oc_calib_fit *f, int64_t threads,
                           const oc_anchor_set *as, oc_error *err)
{
    oc_calib_chain loops[OC_MAX_ANCHOR_RUNS], chains[OC_MAX_ANCHOR_RUNS];
    size_t n = 0, nk = 0;
    oc_overhead ov;
    oc_overhead_calibrated(tm, (int)threads, f, &ov);
    ov.loop_trip_us = ov.loop_run_us = 0;
    for (size_t i = 0; i < as->n; i++) {
        const oc_anchor_run *r = &as->r[i];
        if (r->threads == threads && r->name == oc_chain_probe)
            chains[nk++] = (oc_calib_chain){r->kernels, r->wall_us, r->kernel_us, 0};
        if (r->threads != threads || r->name != oc_loop_probe)
            continue;
        loops[n] = (oc_calib_chain){r->kernels, r->wall_us, r->kernel_us, 0};
        oc_status st = oc_loop_predict(tm, &ov, r->kernels, &loops[n++].predicted_us, err);
        if (st)
            return st;
    }
    return n ? oc_calib_fit_loop(f, loops, n, chains, nk, err) : OC_OK;
}

/* The base model (oc_calib_load_base) with cal applied, at `threads`, into
 * *tm (the caller frees it, whatever this returns). */
static oc_status calibrated_base(const char *base_path, const char *target, const oc_calib *cal,
                                 int64_t threads, oc_tmodel **tm, oc_error *err)
{
    oc_status st = oc_calib_load_base(base_path, target, tm, err);
    if (!st)
        st = oc_tmodel_set_calib(*tm, cal, err);
    if (!st)
        st = oc_tmodel_set_threads(*tm, (int)threads, err);
    return st;
}

/* A network run as estimated: its graph's path, the model, its analysis
 * (bound to the run's batch or inputs) and the estimate, in its arena. */
typedef struct net_estimate {
    char path[PATH_MAX];
    oc_model *m;
    oc_analysis *an;
    oc_arena *ar;
    oc_estimate e;
} net_estimate;

static void net_estimate_free(net_estimate *ne)
{
    oc_arena_free(ne->ar);
    oc_analysis_free(ne->an);
    oc_model_free(ne->m);
}

/* Network run r estimated by tm with overhead ov into *ne (freed by
 * net_estimate_free, whatever this returns). */
static oc_status estimate_network(const oc_anchor_run *r, const oc_tmodel *tm,
                                  const oc_overhead *ov, net_estimate *ne, oc_error *err)
{
    oc_analyze_opts ao = {.batch = r->n_inputs ? 0 : r->batch,
                          .overrides = r->inputs,
                          .n_overrides = (size_t)r->n_inputs};
    ne->m = NULL;
    ne->an = NULL;
    ne->ar = oc_arena_new();
    oc_status rc = OC_OK;
    if (oc_anchor_run_path(r, ne->path, sizeof ne->path)) {
        rc = oc_error_set(err, OC_ERR_IO, NULL,
                          "calibrate: the anchor network %s is missing (set "
                          "ONNXCOST_ANCHORS)", ne->path);
    } else if (!ne->ar) {
        rc = oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
    } else if ((rc = oc_model_load(ne->path, NULL, &ne->m, err))) {
        /* as the command's loads: a model that does not load is bad input */
        rc = err->status = rc == OC_ERR_IO ? OC_ERR_INPUT : rc;
    } else if (oc_analyze(ne->m, &ao, &ne->an, err) != OC_OK ||
               oc_estimate_run(ne->an, tm, ov, &ne->e, ne->ar, err) != OC_OK) {
        rc = err->status;
    }
    return rc;
}

/* The in-graph scale at `threads` from the anchor runs there: each network
 * predicted by the base model with the calibration just fitted; first,
 * from the runs that list their kernels, each group's in-graph factor
 * (f->in_graph), which the scale then includes. */
static oc_status anchor_pass(const char *base_path, oc_calib *cal, oc_calib_fit *f,
                            const char *target, int64_t threads, const oc_anchor_set *as,
                            oc_error *err)
{
    oc_tmodel *tm = NULL;
    oc_overhead ov;
    oc_status st = calibrated_base(base_path, target, cal, threads, &tm, err);
    if (st) {
        oc_tmodel_free(tm);
        return st;
    }
    /* chains of tiny kernels first: what a shape kernel costs as profiled
     * here (the networks' small kernels take it, as predict's do) */
    oc_calib_chain chains[OC_MAX_ANCHOR_RUNS];
    size_t n_chains = 0;
    for (size_t i = 0; i < as->n && !st; i++)
        if (as->r[i].threads == threads && as->r[i].name == oc_chain_probe) {
            /* and as this calibration predicts its kernels */
            chains[n_chains] = (oc_calib_chain){as->r[i].kernels, as->r[i].wall_us,
                                                as->r[i].kernel_us, 0};
            st = oc_chain_predict(tm, as->r[i].kernels, &chains[n_chains++].predicted_us, err);
        }
    if (!st && n_chains)
        st = oc_calib_fit_chain(f, chains, n_chains, err);
    /* and chains of recurrent steps, whose kernels are a network's small
     * ones: the profiler's cost in their predictions sets per_kernel_us */
    size_t n_steps = 0;
    f->steps_ran = f->steps_planned = 0;
    for (size_t i = 0; i < as->n && !st; i++)
        if (as->r[i].threads == threads && as->r[i].name == oc_step_probe) {
            oc_calib_chain *c = &chains[n_steps++];
            *c = (oc_calib_chain){0, as->r[i].wall_us, as->r[i].kernel_us, 0};
            st = oc_step_predict(tm, as->r[i].kernels, &c->predicted_us, &c->kernels, err);
            /* a runtime that rewrites the steps otherwise: their slopes
             * are not per planned kernel */
            if (!st && as->r[i].ran_kernels && as->r[i].ran_kernels != c->kernels &&
                !f->steps_ran) {
                f->steps_ran = as->r[i].ran_kernels;
                f->steps_planned = c->kernels;
            }
        }
    if (!st && n_steps && !f->steps_ran)
        st = oc_calib_fit_steps(f, chains, n_steps, err);
    if (st) {
        oc_tmodel_free(tm);
        return st;
    }
    /* then the output probes: a network's large outputs cost their share
     * of its wall time, which is none of its kernels' */
    oc_calib_output out[OC_MAX_ANCHOR_RUNS];
    size_t n_out = 0;
    for (size_t i = 0; i < as->n; i++)
        if (as->r[i].threads == threads && as->r[i].name == oc_output_probe)
            out[n_out++] = (oc_calib_output){as->r[i].wall_us, as->r[i].kernel_us,
                                             as->r[i].output_bytes};
    if (n_out && (st = oc_calib_fit_output(f, out, n_out, err)) != OC_OK) {
        oc_tmodel_free(tm);
        return st;
    }
    oc_tmodel_overhead(tm, (int)threads, &ov);
    ov.kernel_scale = 1;
    ov.per_kernel_us = 0;
    ov.stream_gbps = f->stream_gbps;
    ov.output_us_per_mb = f->output_us_per_mb;
    ov.small_kernel_us = oc_calib_small_kernel_us(f, ov.small_kernel_us);
    oc_calib_anchor a[OC_MAX_ANCHOR_RUNS];
    double (*raw)[OC_CALIB_GROUPS] = calloc(OC_MAX_ANCHOR_RUNS, sizeof *raw);
    oc_calib_group_sum sums[OC_CALIB_GROUPS] = {{0}};
    if (!raw) {
        oc_tmodel_free(tm);
        return oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
    }
    size_t k = 0;
    int rc = 0;
    for (size_t i = 0; i < as->n && !rc; i++) {
        const oc_anchor_run *r = &as->r[i];
        /* the curve networks are the kernel curve's (curve_pass) */
        if (r->threads != threads || oc_anchor_is_probe(r) || oc_anchor_is_curve(r))
            continue;
        net_estimate ne;
        rc = estimate_network(r, tm, &ov, &ne, err);
        const oc_estimate *e = &ne.e;
        /* a network that is all output hand-back says nothing of its kernels */
        bool kernels = !rc && r->wall_us > 2 * e->output_us;
        if (kernels)
            rc = group_sums(ne.path, oc_analysis_graph(ne.an), e, r->profiled, raw[k], sums,
                            err);
        if (kernels && !rc)
            a[k++] = (oc_calib_anchor){r->name, e->kernels_raw_us, e->plan.n_run,
                                       r->wall_us - e->output_us};
        net_estimate_free(&ne);
    }
    if (!rc) {
        oc_calib_fit_in_graph_groups(f, sums);
        for (size_t j = 0; j < k; j++)
            for (int g = 0; g < OC_CALIB_GROUPS; g++)
                a[j].kernels_us += raw[j][g] * (oc_calib_in_graph_factor(f, g) - 1);
    }
    free(raw);
    if (!rc && k)
        rc = oc_calib_fit_in_graph(f, a, k, err);
    if (!rc)
        rc = loop_pass(tm, f, threads, as, err);
    oc_tmodel_free(tm);
    return rc;
}

/* Last, this machine's kernel curve at `threads` (calib.h), where the
 * curve networks of at least two kinds were timed: fitted on their runs
 * and the other networks' (the anchors'), each predicted as predict would
 * with f, which has no curve yet. */
static oc_status curve_pass(const char *base_path, oc_calib *cal, oc_calib_fit *f,
                            const char *target, int64_t threads, const oc_anchor_set *as,
                            oc_error *err)
{
    const char *first = NULL;
    bool two = false;
    for (size_t i = 0; i < as->n; i++)
        if (as->r[i].threads == threads && oc_anchor_is_curve(&as->r[i])) {
            two |= first && as->r[i].name != first;
            first = first ? first : as->r[i].name;
        }
    if (!two)
        return OC_OK;
    oc_tmodel *tm = NULL;
    oc_status st = calibrated_base(base_path, target, cal, threads, &tm, err);
    oc_overhead ov;
    if (!st)
        oc_overhead_calibrated(tm, (int)threads, f, &ov);
    oc_calib_curve_run *runs = calloc(as->n, sizeof *runs);
    const char **nets = calloc(as->n, sizeof *nets);
    size_t n = 0, n_nets = 0;
    if (!st && (!runs || !nets))
        st = oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    for (size_t i = 0; i < as->n && !st; i++) {
        const oc_anchor_run *r = &as->r[i];
        if (r->threads != threads || oc_anchor_is_probe(r))
            continue;
        net_estimate ne;
        st = estimate_network(r, tm, &ov, &ne, err);
        const oc_estimate *e = &ne.e;
        double *x = st ? NULL : malloc((e->plan.n_kernels + 1) * sizeof *x);
        if (!st && !x)
            st = oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        if (!st) {
            /* the kernels the curve applies to (estimate.c's profiler_cost) */
            size_t nx = 0;
            double sum = 0;
            for (size_t k = 0; k < e->plan.n_kernels; k++)
                if (e->plan.kernels[k].kind == OC_KERNEL_RUN && !e->plan.kernels[k].inlined)
                    sum += x[nx++] = e->kernel_us[k];
            size_t q = 0; /* (a network read from a file has a name per run) */
            while (q < n_nets && strcmp(nets[q], r->name))
                q++;
            if (q == n_nets)
                nets[n_nets++] = r->name;
            runs[n++] = (oc_calib_curve_run){r->wall_us, e->total_us,
                                             e->total_us - (sum - e->profiler_us), x, nx,
                                             (int)q};
        }
        net_estimate_free(&ne);
    }
    if (!st)
        st = oc_calib_fit_curve(f, runs, n, OC_CALIB_CURVE_RIDGE, &f->curve_err_before,
                                &f->curve_err_after, err);
    if (!st)
        f->curve_nets = (int)n_nets;
    for (size_t i = 0; runs && i < n; i++)
        free((void *)runs[i].x_us);
    free(runs);
    free(nets);
    oc_tmodel_free(tm);
    return st;
}

oc_status oc_calib_fit_anchors(const char *base_path, oc_calib *cal, const char *target,
                               int64_t threads, const oc_anchor_set *as, oc_error *err)
{
    oc_calib_fit *f = (oc_calib_fit *)oc_calib_fit_for(cal, (int)threads);
    if (!f || !oc_anchor_count(as, threads))
        return OC_OK;
    /* The probe's form and each simpler one (calib.h), judged on the whole
     * networks: the one whose networks come out best once the in-graph fit
     * is made on the others (the probe's first, so that it stays on a tie
     * and where no whole network was timed).  Networks may take away what
     * the probe fitted on lone kernels, never add what it did not earn: a
     * handful of networks is too few to fit slopes on. */
    oc_calib_fit *start = malloc(sizeof *start), *best = malloc(sizeof *best);
    if (!start || !best) {
        free(start);
        free(best);
        return oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
    }
    *start = *f;
    double errs[OC_CALIB_FORMS] = {0};
    oc_status st = OC_OK;
    for (int form = start->form; form < OC_CALIB_FORMS && !st; form++) {
        *f = *start;
        oc_calib_use_form(f, form);
        if ((st = anchor_pass(base_path, cal, f, target, threads, as, err)))
            break;
        errs[form] = f->anchor_err_after;
        if (form == start->form || f->anchor_err_after < best->anchor_err_after)
            *best = *f;
    }
    if (!st) {
        *f = *best;
        if (f->n_anchors)
            memcpy(f->form_anchor_err, errs, sizeof errs);
    }
    free(start);
    free(best);
    if (!st)
        st = curve_pass(base_path, cal, f, target, threads, as, err);
    return st;
}


/* Rows from the profiles (o->profiles) for `threads`: every kernel the
 * timing model predicts and the profile ran, with its feature row, the
 * base model's prediction and the profiled time.  The rows' features go to
 * *xbuf (malloc'd, the caller frees).  Appends to rows at *n (room for
 * cap). */
static oc_status profile_rows(const oc_calib_probe_opts *o, oc_tmodel *base, int64_t threads,
                              oc_calib_row **rows, size_t *n, size_t *cap, float **xbuf,
                              const oc_log *log, oc_error *err)
{
    if (threads != o->profile_threads)
        return OC_OK;
    for (size_t p = 0; p < o->n_profiles; p++) {
        char model[PATH_MAX];
        const char *eq = strchr(o->profiles[p], '=');
        snprintf(model, sizeof model, "%.*s", (int)(eq - o->profiles[p]), o->profiles[p]);
        const char *prof = eq + 1;
        oc_model *m = NULL;
        oc_analysis *a = NULL;
        oc_arena *ar = oc_arena_new();
        oc_overhead ov = {.kernel_scale = 1};
        oc_estimate e;
        double *meas = NULL;
        oc_analyze_opts ao = {.batch = 1};
        oc_status st = ar ? OC_OK : oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        if (!st && ((st = oc_model_load(model, o->load, &m, err)) != OC_OK ||
                    (st = oc_analyze(m, &ao, &a, err)) != OC_OK ||
                    (st = oc_estimate_run(a, base, &ov, &e, ar, err)) != OC_OK) &&
            st == OC_ERR_IO)
            st = err->status = OC_ERR_INPUT; /* the profile's model: calibrate's input */
        if (!st && !(meas = malloc((e.plan.n_kernels + 1) * sizeof *meas)))
            st = oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        if (!st)
            st = oc_profile_kernel_times(model, prof, oc_model_graph(m), &e, meas, err);
        size_t got = 0;
        for (size_t r = 0; !st && r < e.n_run; r++) {
            double mu = meas[e.x_kernel[r]], pu = e.x_us[r];
            if (!(mu > 0) || !(pu > 0))
                continue;
            if (*n == *cap) {
                size_t nc = *cap ? 2 * *cap : 256;
                oc_calib_row *nr = realloc(*rows, nc * sizeof *nr);
                float *nx = realloc(*xbuf, nc * OC_N_FEATURES * sizeof *nx);
                if (nr)
                    *rows = nr;
                if (nx)
                    *xbuf = nx;
                if (!nr || !nx) {
                    st = oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
                    break;
                }
                *cap = nc;
            }
            memcpy(*xbuf + *n * OC_N_FEATURES, e.x + r * OC_N_FEATURES,
                   OC_N_FEATURES * sizeof **xbuf);
            (*rows)[*n] = (oc_calib_row){NULL, pu, mu};
            (*n)++;
            got++;
        }
        if (!st)
            oc_logf(log, OC_LOG_PROGRESS, "calibrate: %s: %zu kernels of %s at %lld thread%s",
                    prof, got, model, (long long)threads, threads == 1 ? "" : "s");
        free(meas);
        oc_arena_free(ar);
        oc_analysis_free(a);
        oc_model_free(m);
        if (st)
            return st;
    }
    return OC_OK;
}

oc_status oc_calib_fit_probe(oc_calib *cal, oc_tmodel *base, const oc_train_set *s,
                             int64_t threads, const oc_calib_probe_opts *o, const oc_log *log,
                             oc_error *err)
{
    oc_status st = oc_tmodel_set_threads(base, (int)threads, err);
    if (st != OC_OK)
        return st;
    size_t n = 0;
    oc_calib_row *rows = malloc((s->n + 1) * sizeof *rows);
    float *x = malloc((s->n + 1) * OC_N_FEATURES * sizeof *x);
    double *pred = malloc((s->n + 1) * sizeof *pred);
    size_t *idx = malloc((s->n + 1) * sizeof *idx);
    size_t unmeasured = 0;
    const char *first_unmeasured = NULL;
    for (size_t i = 0; rows && x && pred && idx && i < s->n; i++) {
        if (s->s[i].threads != threads)
            continue;
        if (o->training && s->s[i].optimizer != o->optimizer)
            continue;
        /* a kernel the base model never measured (a quantized one) says
         * nothing about how this machine differs: left out */
        const char *p = s->s[i].pattern ? s->s[i].pattern : "";
        if (!oc_tmodel_measured_op(base, p, strcspn(p, "+"))) {
            if (!unmeasured++)
                first_unmeasured = p;
            continue;
        }
        memcpy(x + n * OC_N_FEATURES, s->X + i * OC_N_FEATURES, OC_N_FEATURES * sizeof *x);
        idx[n++] = i;
    }
    if (unmeasured)
        oc_logf(log, OC_LOG_WARNING,
                "%zu probe samples at %lld thread%s are of operators the timing model has no "
                "sample of (%s, ...): left out of the fit",
                unmeasured, (long long)threads, threads == 1 ? "" : "s", first_unmeasured);
    float *px = NULL;
    if (!rows || !x || !pred || !idx) {
        st = oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    } else if (n && (st = oc_tmodel_predict_features(base, x, n, pred, NULL, NULL, err)) !=
                        OC_OK) {
        /* err says it */
    } else {
        for (size_t r = 0; r < n; r++) {
            rows[r].x = x + r * OC_N_FEATURES;
            rows[r].pred_us = pred[r];
            rows[r].meas_us = s->s[idx[r]].time_us;
        }
        /* the profiles' kernels join the probe's, featurised as a
         * prediction with this calibration will be: with the profile of
         * the calibration's machine when the model learned it (else the
         * model's own, as then too) */
        oc_calib_row *prow = NULL;
        size_t pn = 0, pcap = 0;
        oc_tmodel_speak_for(base, cal->machine.id);
        st = profile_rows(o, base, threads, &prow, &pn, &pcap, &px, log, err);
        if (!st && pn) {
            oc_calib_row *all = realloc(rows, (n + pn + 1) * sizeof *all);
            if (!all) {
                st = oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
            } else {
                rows = all;
                /* row pointers into x stay valid: x was not moved */
                for (size_t q = 0; q < pn; q++) {
                    rows[n + q] = prow[q];
                    rows[n + q].x = px + q * OC_N_FEATURES;
                }
                n += pn;
            }
        }
        free(prow);
        oc_overhead ov;
        if (!st)
            oc_tmodel_overhead(base, (int)threads, &ov);
        if (!st && oc_calib_fit_threads(cal, (int)threads, rows, n, ov.kernel_scale,
                                        ov.per_kernel_us, err) != OC_OK) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            st = oc_error_set(err, OC_ERR_INPUT, NULL, "calibrate: %s%s", msg,
                              n ? "" : " (the probe has no samples at that thread count)");
        }
    }
    free(px);
    free(idx);
    free(rows);
    free(x);
    free(pred);
    return st;
}

void oc_calib_probe_check(const char *probe, oc_calib *cal)
{
    struct {
        double *v;
        size_t n, cap;
    } per[OC_CALIB_MAX_THREADS] = {{0}};
    oc_dataset_reader *rd = NULL;
    oc_error err;
    oc_error_clear(&err);
    const char *line;
    size_t len;
    if (oc_dataset_open(probe, &rd, &err) != OC_OK)
        return;
    /* one pass: each sample's timings to the fit of its thread count */
    while (oc_dataset_next(rd, &line, &len, &err) == OC_OK && line) {
        json_t *j = json_loadb(line, len, 0, NULL);
        json_t *cu = json_object_get(j, "calib_us");
        json_t *target = json_object_get(j, "target");
        json_int_t th = json_integer_value(json_object_get(target, "threads"));
        int k = 0;
        while (k < cal->n_fits && cal->fits[k].threads != th)
            k++;
        for (size_t q = 0; k < cal->n_fits && q < json_array_size(cu); q++) {
            double x = json_number_value(json_array_get(cu, q));
            if (!(x > 0))
                continue;
            if (per[k].n == per[k].cap) {
                size_t cap = per[k].cap ? 2 * per[k].cap : 256;
                double *nv = realloc(per[k].v, cap * sizeof *nv);
                if (!nv)
                    break;
                per[k].v = nv;
                per[k].cap = cap;
            }
            per[k].v[per[k].n++] = x;
        }
        json_decref(j);
    }
    oc_dataset_close(rd);
    for (int k = 0; k < cal->n_fits; k++) {
        cal->fits[k].check_us = oc_median(per[k].v, per[k].n);
        free(per[k].v);
    }
}

/* Whether `prog` runs: an absolute path that is executable, or a name
 * found on PATH. */
static bool runnable(const char *prog)
{
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0;
    const char *path = getenv("PATH");
    char buf[PATH_MAX];
    while (path && *path) {
        size_t n = strcspn(path, ":");
        if (n && snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog) < (int)sizeof buf &&
            access(buf, X_OK) == 0)
            return true;
        path += n + (path[n] == ':');
    }
    return false;
}

#ifndef OC_SOURCE_DIR
#define OC_SOURCE_DIR "."
#endif

oc_status oc_calib_check_runtime(bool training, oc_error *err)
{
    const char *drv = getenv("ONNXCOST_COLLECTOR");
    const char *interp = getenv(training ? "ONNXCOST_PYTHON" : "ONNXCOST_NODE");
    if (!interp || !*interp)
        interp = training ? "/usr/bin/python3" : "node";
    if (!runnable(interp))
        return oc_error_set(err, OC_ERR_IO, NULL,
                            "calibrate: %s is not installed (needed to run the %s probe); run "
                            "'bash scripts/setup.sh --deps-only'",
                            interp, training ? "PyTorch" : "ONNX Runtime");
    if (drv && *drv)
        return OC_OK; /* the user's own driver brings its runtime */
    const char *lib = training ? "/usr/lib/python3/dist-packages/torch/__init__.py"
                               : OC_SOURCE_DIR "/collector/node_modules/onnxruntime-node/"
                                               "package.json";
    if (access(lib, R_OK) != 0)
        return oc_error_set(err, OC_ERR_IO, NULL,
                            "calibrate: %s is not installed (%s is missing); run 'bash "
                            "scripts/setup.sh --deps-only'",
                            training ? "PyTorch (Debian python3-torch)"
                                     : "ONNX Runtime (onnxruntime-node)",
                            lib);
    return OC_OK;
}

const oc_calib_probe_family oc_calib_probe_families[OC_CALIB_N_PROBE_FAMILIES] = {
    {"conv", 4, false},       {"matmul", 2, false},    {"gemm", 2, false},
    {"pool", 1, false},       {"batchnorm", 1, false}, {"layernorm", 1, false},
    {"softmax", 1, false},    {"elementwise", 1, false}, {"activation", 1, false},
    {"swish", 1, true},       {"reduce", 1, false},    {"concat", 1, false},
    {"split", 1, false},      {"slice", 1, false},     {"transpose", 1, false},
    {"reshape", 1, false},    {"resize", 1, false},    {"pad", 1, false},
    {"gather", 1, false},     {"convtranspose", 1, false},
};

/* Seconds per probe sample and per family run (a driver start and two
 * check kernels), as measured on cpu-AuthenticAMD-f26-m2: ORT ~0.8 s a
 * sample, PyTorch training steps ~1 s. */
static double sample_cost(bool training) { return training ? 1.0 : 0.8; }
static double family_cost(bool training) { return training ? 2.0 : 1.5; }

double oc_calib_family_seconds(bool training, int n)
{
    return family_cost(training) + n * sample_cost(training);
}

double oc_calib_probe_plan(double budget, size_t n_threads, bool training, bool anchors,
                           int *units, int *weights)
{
    int fams = 0;
    *weights = 0;
    for (int f = 0; f < OC_CALIB_N_PROBE_FAMILIES; f++)
        if (!(training && oc_calib_probe_families[f].ort_only)) {
            *weights += oc_calib_probe_families[f].weight;
            fams++;
        }
    double per_thread = budget / (double)n_threads - (anchors ? OC_CALIB_ANCHOR_SECONDS : 0);
    *units = (int)((per_thread - fams * family_cost(training)) /
                   (*weights * sample_cost(training)));
    if (*units < 1)
        *units = 1;
    return (double)n_threads * (fams * family_cost(training) +
                                *units * *weights * sample_cost(training) +
                                (anchors ? OC_CALIB_ANCHOR_SECONDS : 0));
}

size_t oc_calib_compare_shipped(const oc_calib *cal, oc_calib_check *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < oc_builtin_calib_count(); i++) {
        oc_calib ref;
        oc_error err;
        const char *path;
        if (oc_builtin_calib_get(i, &ref, &path, &err) != OC_OK ||
            strcmp(ref.machine.id, cal->machine.id) || strcmp(ref.target, cal->target) ||
            strcmp(ref.mode, cal->mode))
            continue;
        for (int k = 0; k < cal->n_fits; k++) {
            const oc_calib_fit *f = &cal->fits[k];
            for (int q = 0; q < ref.n_fits; q++) {
                const oc_calib_fit *r = &ref.fits[q];
                if (r->threads != f->threads || !(r->check_us > 0) || !(f->check_us > 0))
                    continue;
                if (n < cap)
                    out[n++] = (oc_calib_check){f->threads, f->check_us, r->check_us, path};
            }
        }
    }
    return n;
}

/* Where the training graphs of the networks whose steps were timed are:
 * $ONNXCOST_TRAIN_ANCHORS or the source tree's (scripts/measure_training.py
 * exports them there). */
static int step_graph_path(const char *name, char *buf, size_t n)
{
    const char *d = getenv("ONNXCOST_TRAIN_ANCHORS");
    if (!d || !*d)
        d = OC_SOURCE_DIR "/tests/reference/train";
    if (strchr(name, '/') || snprintf(buf, n, "%s/%s.onnx", d, name) >= (int)n)
        return -1;
    return access(buf, R_OK) == 0 ? 0 : -1;
}

/* One timed step of a steps file as an anchor: its network's kernels
 * predicted by tm (cal applied, no in-graph scale, no page faults) at the
 * line's batch and optimizer.  1: *a set; 0: the line is not one to fit
 * on; -1: its network's graph does not load or predict (err says why). */
static int step_anchor(const json_t *j, int64_t threads, oc_tmodel *tm, oc_arena *ar,
                       oc_calib_anchor *a, oc_error *err)
{
    const char *name = json_string_value(json_object_get(j, "model"));
    const char *malloc_kind = json_string_value(json_object_get(j, "malloc"));
    json_t *b = json_object_get(j, "batch"), *t = json_object_get(j, "threads");
    double meas = json_number_value(
        json_object_get(json_object_get(j, "step_us"), "best_pass_median"));
    oc_optimizer o;
    char path[PATH_MAX];
    if (!name || !json_is_integer(b) || json_integer_value(b) < 1 || !json_is_integer(t) ||
        json_integer_value(t) != threads || !(meas > 0) || !malloc_kind ||
        strcmp(malloc_kind, "retain") ||
        !oc_optimizer_parse(json_string_value(json_object_get(j, "optimizer")), &o) ||
        o == OC_OPT_NONE || step_graph_path(name, path, sizeof path))
        return 0;
    if (oc_tmodel_set_optimizer(tm, o, err) != OC_OK)
        return -1;
    oc_model *m = NULL;
    oc_analysis *an = NULL;
    oc_overhead ov = {.kernel_scale = 1};
    oc_estimate e;
    oc_analyze_opts ao = {.batch = json_integer_value(b)};
    int rc = oc_model_load(path, NULL, &m, err) == OC_OK && oc_analyze(m, &ao, &an, err) == OC_OK &&
                     oc_estimate_run(an, tm, &ov, &e, ar, err) == OC_OK
                 ? e.kernels_us > 0
                 : -1;
    if (rc > 0)
        *a = (oc_calib_anchor){name, e.kernels_us, e.plan.n_run, meas};
    oc_analysis_free(an);
    oc_model_free(m);
    return rc;
}

oc_status oc_calib_fit_step_anchors(const char *base_path, oc_calib *cal, const char *target,
                                    int64_t threads, const char *path, size_t *n_used,
                                    oc_error *err)
{
    *n_used = 0;
    oc_calib_fit *f = (oc_calib_fit *)oc_calib_fit_for(cal, (int)threads);
    if (!f)
        return OC_OK;
    FILE *in = fopen(path, "r");
    if (!in)
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot read", path);
    oc_tmodel *tm = NULL;
    oc_status st = calibrated_base(base_path, target, cal, threads, &tm, err);
    oc_arena *ar = oc_arena_new();
    oc_calib_anchor *a = calloc(OC_MAX_STEP_ANCHORS, sizeof *a);
    json_t **keep = calloc(OC_MAX_STEP_ANCHORS, sizeof *keep);
    if (!st && (!ar || !a || !keep))
        st = oc_error_set(err, OC_ERR_IO, NULL, "out of memory");
    char *line = NULL;
    size_t cap = 0, n = 0, lineno = 0;
    while (!st && n < OC_MAX_STEP_ANCHORS && getline(&line, &cap, in) > 0) {
        lineno++;
        if (line[strspn(line, " \t\r\n")] == '\0')
            continue;
        json_error_t je;
        json_t *j = json_loads(line, 0, &je);
        if (!j) {
            st = oc_error_set(err, OC_ERR_INPUT, NULL, "%s:%zu: not a JSON line: %s", path,
                              lineno, je.text);
            break;
        }
        oc_error le;
        oc_error_clear(&le);
        int used = step_anchor(j, threads, tm, ar, &a[n], &le);
        if (used > 0) {
            keep[n++] = j; /* a[n].name points into it */
            continue;
        }
        if (used < 0)
            st = oc_error_set(err, OC_ERR_INPUT, NULL, "%s:%zu: %s", path, lineno, le.msg);
        json_decref(j);
    }
    free(line);
    fclose(in);
    if (!st && n)
        st = oc_calib_fit_in_graph(f, a, n, err);
    if (!st)
        *n_used = n;
    for (size_t i = 0; i < n; i++)
        json_decref(keep[i]);
    free(keep);
    free(a);
    oc_arena_free(ar);
    oc_tmodel_free(tm);
    return st;
}
