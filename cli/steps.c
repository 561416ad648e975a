/* steps.c - the per-batch steps of sweep and report over a model loaded
 * once: every batch size analysed, then all their kernels through one pass
 * of the timing model (oc_estimate_run_many). */
#include "cli/cli.h"
#include "predictor/estimate.h"
#include "predictor/memory.h"


uint64_t cli_step_memory(const oc_analysis *a, const oc_plan *plan, oc_optimizer o)
{
    if (o == OC_OPT_NONE) {
        const oc_totals *t = oc_analysis_totals(a);
        return t->weight_bytes + t->peak_activation_bytes;
    }
    oc_train_memory mem;
    oc_training_memory(a, plan, o, &mem);
    return mem.total;
}

int cli_sweep_steps(const oc_model *m, analyze_args *aa, const oc_tmodel *tm,
                    const oc_overhead *ov, const int64_t *batches, size_t n,
                    uint64_t limit, cli_step *steps, size_t *fit, size_t *best, bool warn)
{
    oc_error err;
    oc_error_clear(&err);
    *fit = *best = SIZE_MAX;
    if (n > CLI_MAX_STEPS) {
        cli_error("at most %d batch sizes", CLI_MAX_STEPS);
        return EXIT_USAGE;
    }
    for (size_t k = 0; k < aa->opts.n_dims; k++)
        if (cli_dim_binds_batch(m, aa->dims[k].name)) {
            cli_error("--dim %s binds the batch dim, which the sweep sets to each batch "
                      "size: drop it", aa->dims[k].name);
            return EXIT_USAGE;
        }
    oc_analysis *an[CLI_MAX_STEPS] = {0};
    oc_estimate est[CLI_MAX_STEPS];
    oc_arena *ar = oc_arena_new();
    int rc = 0;
    if (!ar) {
        oc_error_set(&err, OC_ERR_NOMEM, NULL, "out of memory");
        rc = cli_fail(&err, 1);
    }
    for (size_t k = 0; k < n && !rc; k++) {
        aa->opts.batch = batches[k];
        /* --input overrides keep their dims but take this step's batch. */
        for (size_t q = 0; q < aa->opts.n_overrides; q++)
            if (aa->overrides[q].rank > 0)
                aa->overrides[q].dims[0] = batches[k];
        if (oc_analyze(m, &aa->opts, &an[k], &err) != OC_OK)
            rc = cli_fail(&err, 1);
        else if (k == 0 && warn)
            rc = cli_check_bound(aa, an[0]);
    }
    if (!rc && oc_estimate_run_many((const oc_analysis *const *)an, n, tm, ov, est, ar,
                                    &err) != OC_OK)
        rc = cli_fail(&err, 1);
    /* the step that leaves out most (the same nodes, as a rule) */
    size_t worst = 0;
    for (size_t k = 1; k < n && !rc; k++)
        if (est[k].n_uncounted_nodes > est[worst].n_uncounted_nodes)
            worst = k;
    if (!rc && warn && n)
        rc = cli_check_uncounted(aa, an[worst], &est[worst]);
    for (size_t k = 0; k < n && !rc; k++) {
        const oc_totals *t = oc_analysis_totals(an[k]);
        const oc_estimate *e = &est[k];
        cli_step *s = &steps[k];
        s->batch = batches[k];
        s->time_ms = e->total_us / 1e3;
        s->low_ms = e->total_low_us / 1e3;
        s->high_ms = e->total_high_us / 1e3;
        s->throughput = e->total_us > 0 ? batches[k] * 1e6 / e->total_us : 0;
        s->memory = cli_step_memory(an[k], &e->plan, oc_tmodel_get_info(tm)->optimizer);
        s->macs = t->macs;
        s->uncounted = e->n_uncounted_nodes;
        snprintf(s->unbound, sizeof s->unbound, "%s", oc_analysis_assumed(an[k]));
        s->fits = !limit || s->memory <= limit;
        if (s->fits && (*fit == SIZE_MAX || s->batch > steps[*fit].batch))
            *fit = k;
        if (s->fits && (*best == SIZE_MAX || s->throughput > steps[*best].throughput))
            *best = k;
    }
    for (size_t k = 0; k < n; k++)
        oc_analysis_free(an[k]);
    oc_arena_free(ar);
    return rc;
}
