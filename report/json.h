/*
 * json.h - the JSON documents the commands print, built in one place so
 * that the same thing has one shape in every command (jansson values, each
 * a new reference the caller owns).
 */
#ifndef OC_REPORT_JSON_H
#define OC_REPORT_JSON_H

#include <jansson.h>

#include "analyzer/analyzer.h"
#include "predictor/estimate.h"
#include "predictor/target.h"

/* A shape as an array: a known dim a number, a symbolic one its name, an
 * unknown one null; null for an unknown rank. */
json_t *oc_json_shape(const oc_tinfo *t);
json_t *oc_json_decl_shape(const oc_value *v);
/* The model as every JSON document names it: {"file", "ir_version",
 * "producer", "opset"}. */
json_t *oc_json_model(const oc_model *m);
/* analyze's document (model, unbound_dims, data_dims, inputs, outputs,
 * nodes in topological order, totals, warnings). */
json_t *oc_json_analysis(const oc_model *m, const oc_analysis *a);
/* A comma-separated list (oc_analysis_assumed()'s symbols "H,W",
 * oc_analysis_unknown_dims()'s "nz:1") as an array. */
json_t *oc_json_list(const char *list);
/* The kernels of an estimate that run, in run order: name (as ONNX
 * Runtime names them), op (as its profiler does), nodes, times. */
json_t *oc_json_kernels(const oc_estimate *e);
/* How many entries of oc_json_kernels plan kernel k is: 0 when it does
 * not run, the kernels of its branch for an If the runtime inlines, else
 * 1. */
size_t oc_kernel_entries(const oc_estimate *e, size_t k);
/* The target (predict, sweep, compare): {"name", "runtime", "cpu",
 * "threads", "mode", "optimizer", "machine", "model_machine",
 * "calibrated", "calibration", "this_machine", "label", "in_graph_fit"};
 * optimizer OC_OPT_NONE is inference. */
json_t *oc_json_target(const oc_tmodel *tm, const oc_target_sel *tgt, oc_optimizer optimizer);

/* The time of node i, and the total, under a baseline ("linear",
 * "roofline"; NULL: the timing model's prediction); the totals include the
 * estimate's overhead. */
double oc_baseline_node_us(const oc_estimate *e, const char *baseline, size_t i);
double oc_baseline_total_us(const oc_estimate *e, const char *baseline);
/* predict's document: analyze's (oc_json_analysis) with each node's times
 * and kernel, the kernels in run order, the totals (times, memory,
 * throughput; the epoch with dataset_size > 0) and the target, under
 * `baseline` (NULL: the timing model) and `optimizer` (OC_OPT_NONE:
 * inference). */
json_t *oc_json_predict(const oc_model *m, const oc_analysis *a, const oc_estimate *e,
                        const char *baseline, oc_optimizer optimizer, int64_t dataset_size,
                        int64_t epochs, const oc_tmodel *tm, const oc_target_sel *tgt);

/* The operators of g's main graph and how often each occurs, most
 * frequent first (ties by name): n_out entries, malloc'd (the caller
 * frees), NULL when out of memory.  Names point into g. */
typedef struct oc_op_count {
    const char *name;
    size_t n;
} oc_op_count;
oc_op_count *oc_op_histogram(const oc_graph *g, size_t *n_out);
/* How many of g's initializers are stored as external data. */
size_t oc_model_n_external(const oc_graph *g);
/* 'onnxcost info --format json': the model file, producer, opsets, inputs
 * and outputs, operator histogram, parameters and weight bytes, without
 * analysing it (a new reference). */
json_t *oc_json_info(const oc_model *m);

#endif
