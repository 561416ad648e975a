/* sweep.c - the per-batch steps of a sweep over a model loaded once. */
#include "predictor/sweep.h"
#include "predictor/memory.h"

#include <stdlib.h>
#include <string.h>

uint64_t oc_step_memory(const oc_analysis *a, const oc_plan *plan, oc_optimizer o)
{
    if (o == OC_OPT_NONE) {
        const oc_totals *t = oc_analysis_totals(a);
        return t->weight_bytes + t->peak_activation_bytes;
    }
    oc_train_memory mem;
    oc_training_memory(a, plan, o, &mem);
    return mem.total;
}

bool oc_dim_binds_batch(const oc_model *m, const char *name)
{
    const oc_graph *g = oc_model_graph(m);
    for (size_t q = 0; q < g->n_inputs; q++) {
        const oc_value *v = &g->values[g->inputs[q]];
        if (v->rank > 0 && v->dims[0].sym && !strcmp(v->dims[0].sym, name))
            return true;
    }
    return false;
}

void oc_sweep_free(oc_sweep *s)
{
    if (!s)
        return;
    for (size_t k = 0; k < OC_SWEEP_MAX_STEPS; k++) {
        oc_analysis_free(s->an[k]);
        s->an[k] = NULL;
    }
    oc_arena_free(s->ar);
    s->ar = NULL;
}

oc_status oc_sweep_run(const oc_model *m, const oc_analyze_opts *opts, const oc_tmodel *tm,
                       const oc_overhead *ov, const int64_t *batches, size_t n,
                       uint64_t limit, oc_sweep *out, oc_error *err)
{
    memset(out, 0, sizeof *out);
    out->fit = out->best = SIZE_MAX;
    if (n == 0 || n > OC_SWEEP_MAX_STEPS)
        return oc_error_set(err, OC_ERR_USAGE, NULL, "from 1 to %d batch sizes, not %zu",
                            OC_SWEEP_MAX_STEPS, n);
    for (size_t k = 0; k < n; k++)
        if (batches[k] < 1)
            return oc_error_set(err, OC_ERR_USAGE, NULL,
                                "batch size %lld: a batch is at least 1",
                                (long long)batches[k]);
    for (size_t k = 0; k < opts->n_dims; k++)
        if (oc_dim_binds_batch(m, opts->dims[k].name))
            return oc_error_set(err, OC_ERR_USAGE, NULL,
                                "--dim %s binds the batch dim, which the sweep sets to each "
                                "batch size: drop it", opts->dims[k].name);
    oc_analyze_opts o = *opts;
    oc_input_override *ovr = NULL;
    if (opts->n_overrides) {
        ovr = malloc(opts->n_overrides * sizeof *ovr);
        if (!ovr)
            return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        memcpy(ovr, opts->overrides, opts->n_overrides * sizeof *ovr);
        o.overrides = ovr;
    }
    oc_status st = OC_OK;
    out->n = n;
    out->ar = oc_arena_new();
    if (!out->ar)
        st = oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    for (size_t k = 0; k < n && st == OC_OK; k++) {
        o.batch = batches[k];
        /* Overrides keep their dims but take this step's batch. */
        for (size_t q = 0; q < o.n_overrides; q++)
            if (ovr[q].rank > 0)
                ovr[q].dims[0] = batches[k];
        st = oc_analyze(m, &o, &out->an[k], err);
    }
    free(ovr);
    if (st == OC_OK)
        st = oc_estimate_run_many((const oc_analysis *const *)out->an, n, tm, ov, out->est,
                                  out->ar, err);
    if (st != OC_OK)
        return st;
    /* the step that leaves out most (the same nodes, as a rule), then the
     * one with most kernels beyond the timing model's data */
    for (size_t k = 1; k < n; k++) {
        const oc_estimate *e = &out->est[k], *w = &out->est[out->worst];
        if (e->n_uncounted_nodes > w->n_uncounted_nodes ||
            (e->n_uncounted_nodes == w->n_uncounted_nodes && e->n_outside > w->n_outside))
            out->worst = k;
    }
    oc_optimizer opt = oc_tmodel_get_info(tm)->optimizer;
    for (size_t k = 0; k < n; k++) {
        const oc_totals *t = oc_analysis_totals(out->an[k]);
        const oc_estimate *e = &out->est[k];
        oc_sweep_step *s = &out->steps[k];
        s->batch = batches[k];
        s->time_ms = e->total_us / 1e3;
        s->low_ms = e->total_low_us / 1e3;
        s->high_ms = e->total_high_us / 1e3;
        s->throughput = e->total_us > 0 ? batches[k] * 1e6 / e->total_us : 0;
        s->memory = oc_step_memory(out->an[k], &e->plan, opt);
        s->macs = t->macs;
        s->uncounted = e->n_uncounted_nodes;
        s->fits = !limit || s->memory <= limit;
        if (s->fits && (out->fit == SIZE_MAX || s->batch > out->steps[out->fit].batch))
            out->fit = k;
        if (s->fits && (out->best == SIZE_MAX || s->throughput > out->steps[out->best].throughput))
            out->best = k;
    }
    return OC_OK;
}
