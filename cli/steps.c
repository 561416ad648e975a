/* steps.c - the per-batch steps of sweep and report (predictor/sweep.c),
 * with what they leave out said once. */
#include "cli/cli.h"
#include "predictor/estimate.h"
#include "predictor/sweep.h"

#include <stdlib.h>

int cli_sweep_steps(const oc_model *m, analyze_args *aa, const oc_tmodel *tm,
                    const oc_overhead *ov, const int64_t *batches, size_t n,
                    uint64_t limit, oc_report_step *steps, size_t *fit, size_t *best, bool warn)
{
    oc_error err;
    oc_error_clear(&err);
    *fit = *best = SIZE_MAX;
    if (n > CLI_MAX_STEPS) {
        cli_error("at most %d batch sizes", CLI_MAX_STEPS);
        return EXIT_USAGE;
    }
    oc_sweep *s = malloc(sizeof *s);
    if (!s) {
        oc_error_set(&err, OC_ERR_NOMEM, NULL, "out of memory");
        return cli_fail(&err, 1);
    }
    int rc = 0;
    if (oc_sweep_run(m, &aa->opts, tm, ov, batches, n, limit, s, &err) != OC_OK)
        rc = cli_fail(&err, 1);
    if (!rc && warn)
        rc = cli_check_bound(aa, s->an[0]);
    if (!rc && warn)
        rc = cli_check_uncounted(aa, s->an[s->worst], &s->est[s->worst]);
    for (size_t k = 0; k < n && !rc; k++) {
        const oc_sweep_step *o = &s->steps[k];
        oc_report_step *c = &steps[k];
        c->batch = o->batch;
        c->time_ms = o->time_ms;
        c->low_ms = o->low_ms;
        c->high_ms = o->high_ms;
        c->throughput = o->throughput;
        c->memory = o->memory;
        c->macs = o->macs;
        c->fits = o->fits;
        c->uncounted = o->uncounted;
        snprintf(c->unbound, sizeof c->unbound, "%s", oc_analysis_assumed(s->an[k]));
    }
    if (!rc) {
        *fit = s->fit;
        *best = s->best;
    }
    oc_sweep_free(s);
    free(s);
    return rc;
}
