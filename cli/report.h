/*
 * report.h - the HTML report of 'onnxcost report': what cmd_report.c
 * gathers (one analysis and estimate at the chosen batch, a sweep over
 * batch sizes, per-operator sums) and report_html() turns into one
 * self-contained page with inline SVG charts.
 */
#ifndef OC_CLI_REPORT_H
#define OC_CLI_REPORT_H

#include "cli/cli.h"
#include "predictor/estimate.h"

/* The nodes grouped by the operator of the kernel that runs them (a Relu
 * fused into a Conv counts as Conv; a node folded or removed keeps its own
 * operator). */
typedef struct report_op {
    const char *op;
    double us, linear_us, roofline_us; /* sums over its kernels */
    uint64_t macs;
    size_t kernels; /* kernels that run */
    const char *color;
} report_op;

typedef struct report {
    const oc_model *m;
    const oc_analysis *a;
    const oc_estimate *e;
    const oc_tmodel_info *target;
    const char *target_label; /* cli_target.label: which machine, calibrated or not */
    int64_t batch;
    size_t top;
    report_op *ops;   /* by predicted time, largest first */
    size_t n_ops;
    size_t *op_of;    /* per graph node: its index in ops */
    const cli_step *steps;
    size_t n_steps, fit, best; /* fit, best: SIZE_MAX when none */
    uint64_t memory_limit;     /* 0: none */
} report;

/* Group r->a's nodes into r->ops / r->op_of (memory from arena) and give
 * each operator its colour. */
oc_status report_group_ops(report *r, oc_arena *arena, oc_error *err);

/* Write the whole page to f; the caller checks ferror(f). */
void report_html(FILE *f, const report *r);

#endif
