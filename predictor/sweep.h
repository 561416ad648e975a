/*
 * sweep.h - a model predicted at several batch sizes: every batch size
 * analysed, then all their kernels through one pass of the timing model
 * (oc_estimate_run_many), with each step's memory against a limit.  The
 * sweep command, the report and the public API's onnxcost_sweep share it.
 */
#ifndef OC_PREDICTOR_SWEEP_H
#define OC_PREDICTOR_SWEEP_H

#include "predictor/estimate.h"

enum { OC_SWEEP_MAX_STEPS = 64 };

typedef struct oc_sweep_step {
    int64_t batch;
    double time_ms, low_ms, high_ms, throughput; /* samples per second */
    uint64_t memory, macs; /* memory: oc_step_memory */
    bool fits;             /* memory <= the limit (always, without one) */
    size_t uncounted;      /* nodes not counted (shapes unknown) */
} oc_sweep_step;

typedef struct oc_sweep {
    size_t n;
    oc_sweep_step steps[OC_SWEEP_MAX_STEPS];
    oc_analysis *an[OC_SWEEP_MAX_STEPS]; /* each step's analysis */
    oc_estimate est[OC_SWEEP_MAX_STEPS]; /* each step's estimate (in ar) */
    oc_arena *ar;
    size_t fit;   /* the largest batch that fits (SIZE_MAX: none) */
    size_t best;  /* the best throughput among those (SIZE_MAX: none) */
    size_t worst; /* the step that leaves most nodes out (then: with most
                     kernels extrapolated) */
} oc_sweep;

/* Analyse and predict m at batches[0..n) (n <= OC_SWEEP_MAX_STEPS) into
 * *out (caller-owned; oc_sweep_free frees what it holds, also after a
 * failure).  opts' overrides keep their dims but take each step's batch
 * (opts is not changed); a dim binding of the batch dim, which each step
 * sets, is OC_ERR_USAGE.  limit 0 means none.  The optimizer of tm says
 * which memory a step needs. */
oc_status oc_sweep_run(const oc_model *m, const oc_analyze_opts *opts, const oc_tmodel *tm,
                       const oc_overhead *ov, const int64_t *batches, size_t n,
                       uint64_t limit, oc_sweep *out, oc_error *err);
void oc_sweep_free(oc_sweep *s); /* NULL accepted */

/* Memory of one step: inference (optimizer NONE) the weights and the
 * activation peak; training the weights, gradients, optimizer state and
 * saved activations (predictor/memory.h). */
uint64_t oc_step_memory(const oc_analysis *a, const oc_plan *plan, oc_optimizer o);
/* Whether the symbolic dim `name` is the leading dim of an input of m
 * (the batch dim, which a sweep sets per step). */
bool oc_dim_binds_batch(const oc_model *m, const char *name);

#endif
