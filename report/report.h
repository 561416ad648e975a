/*
 * report.h - the HTML report of 'onnxcost report': what cmd_report.c
 * gathers (one analysis and estimate at the chosen batch, a sweep over
 * batch sizes, per-operator sums) and oc_report_html() turns into one
 * self-contained page with inline SVG charts.
 */
#ifndef OC_REPORT_REPORT_H
#define OC_REPORT_REPORT_H

#include <stdio.h>

#include "predictor/estimate.h"
#include "predictor/sweep.h"

/* The nodes grouped by the operator of the kernel that runs them (a Relu
 * fused into a Conv counts as Conv; a node folded or removed keeps its own
 * operator). */
typedef struct oc_report_op {
    const char *op;
    double us, linear_us, roofline_us; /* sums over its kernels */
    uint64_t macs;
    size_t kernels; /* kernels that run */
    const char *color;
} oc_report_op;

/* One batch size of a sweep (sweep and report share it). */
typedef struct oc_report_step {
    int64_t batch;
    double time_ms, low_ms, high_ms, throughput; /* samples per second */
    uint64_t memory, macs; /* memory: inference: weights + activation peak;
                              training: oc_training_memory's total */
    bool fits;             /* memory <= the limit (always, without one) */
    size_t uncounted;      /* nodes not counted (shapes unknown) */
    char unbound[256];     /* oc_analysis_assumed() of the step */
    char data_dims[512];   /* oc_analysis_unknown_dims() of the step */
} oc_report_step;

/* The n steps of sweep s as report steps (steps has room for n). */
void oc_report_steps_of(const oc_sweep *s, size_t n, oc_report_step *steps);

typedef struct oc_report {
    const oc_model *m;
    const oc_analysis *a;
    const oc_estimate *e;
    const oc_tmodel_info *target;
    const char *target_label; /* oc_target_sel.label: which machine, calibrated or not */
    int64_t batch;
    size_t top;
    oc_report_op *ops;   /* by predicted time, largest first */
    size_t n_ops;
    size_t *op_of;    /* per graph node: its index in ops */
    const oc_report_step *steps;
    size_t n_steps, fit, best; /* fit, best: SIZE_MAX when none */
    uint64_t memory_limit;     /* 0: none */
} oc_report;

/* Group r->a's nodes into r->ops / r->op_of (memory from arena) and give
 * each operator its colour. */
oc_status oc_report_group_ops(oc_report *r, oc_arena *arena, oc_error *err);

/* Write the whole page to f; the caller checks ferror(f). */
void oc_report_html(FILE *f, const oc_report *r);
/* The whole page in memory: *html (malloc'd, the caller frees it) and
 * *size.  OC_ERR_NOMEM when it cannot be built. */
oc_status oc_report_render(const oc_report *r, char **html, size_t *size, oc_error *err);

#endif
