/* steps.c - the per-batch step of sweep and report: one analysis and one
 * estimate per batch size over a model loaded once. */
#include "cli/cli.h"
#include "predictor/estimate.h"

int cli_sweep_steps(const oc_model *m, analyze_args *aa, const oc_tmodel *tm,
                    const oc_overhead *ov, const int64_t *batches, size_t n,
                    uint64_t limit, cli_step *steps, size_t *fit, size_t *best)
{
    oc_error err;
    oc_error_clear(&err);
    *fit = *best = SIZE_MAX;
    for (size_t k = 0; k < n; k++) {
        aa->opts.batch = batches[k];
        /* --input overrides keep their dims but take this step's batch. */
        for (size_t q = 0; q < aa->opts.n_overrides; q++)
            if (aa->overrides[q].rank > 0)
                aa->overrides[q].dims[0] = batches[k];
        oc_analysis *a = NULL;
        oc_arena *ar = oc_arena_new();
        oc_estimate e;
        int rc = 0;
        if (!ar || oc_analyze(m, &aa->opts, &a, &err) != OC_OK ||
            oc_estimate_run(a, tm, ov, &e, ar, &err) != OC_OK) {
            if (!ar)
                oc_error_set(&err, OC_ERR_NOMEM, NULL, "out of memory");
            rc = cli_fail(&err, 1);
        } else {
            const oc_totals *t = oc_analysis_totals(a);
            cli_step *s = &steps[k];
            s->batch = batches[k];
            s->time_ms = e.total_us / 1e3;
            s->low_ms = e.total_low_us / 1e3;
            s->high_ms = e.total_high_us / 1e3;
            s->throughput = e.total_us > 0 ? batches[k] * 1e6 / e.total_us : 0;
            s->memory = t->weight_bytes + t->peak_activation_bytes;
            s->macs = t->macs;
            s->fits = !limit || s->memory <= limit;
            if (s->fits && (*fit == SIZE_MAX || s->batch > steps[*fit].batch))
                *fit = k;
            if (s->fits && (*best == SIZE_MAX || s->throughput > steps[*best].throughput))
                *best = k;
        }
        oc_arena_free(ar);
        oc_analysis_free(a);
        if (rc)
            return rc;
    }
    return 0;
}
