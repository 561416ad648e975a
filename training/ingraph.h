/*
 * ingraph.h - operator samples from whole-model runs: every kernel ONNX
 * Runtime ran inside a measured network, described as the plan describes
 * it for a prediction and timed as ORT's profiler saw it in that graph
 * ('onnxcost collect --from-runs'; docs/dataset.md, "In-graph samples").
 *
 * A kernel timed alone (collect's families) runs with its inputs and
 * weights in cache, after itself; inside a network it runs after other
 * kernels, on their outputs.  These lines teach the timing model the
 * second kind of time for the kernels real networks have.
 *
 *     json_t *lines = json_array();
 *     oc_ingraph_counts n = {0};
 *     oc_ingraph_lines("build/zoo/resnet18.onnx", run, tm, &opts, lines, &n, &err);
 */
#ifndef OC_TRAINING_INGRAPH_H
#define OC_TRAINING_INGRAPH_H

#include <jansson.h>

#include "predictor/tmodel.h"

typedef struct oc_ingraph_opts {
    const char *machine; /* fingerprint of the machine that ran the runs
                            (NULL: not recorded, as the oldest data) */
    int nchwc_block;     /* its NCHWc block (8, 16) or OC_NCHWC_NONE */
} oc_ingraph_opts;

typedef struct oc_ingraph_counts {
    size_t lines;      /* kernels written */
    size_t unmatched;  /* predicted kernels the run's profile did not list */
    size_t unfaithful; /* kernels whose description does not come back
                          from its dataset line with the same features
                          (left out; a bug in desc.c's JSON) */
    size_t foreign;    /* runs whose kernel list does not match the plan
                          (fewer than half its names found: left out) */
    char first_foreign[160]; /* "MODEL bB tT" of the first of them */
} oc_ingraph_counts;

/* Append to the JSON array `lines` one dataset line per kernel that the
 * timing model predicts in run `run` of the model at model_path and that
 * the run's profile lists.  `run` is a line of a whole-model run file
 * (scripts/measure_zoo.py, scripts/measure_models.py): {"model", "batch",
 * "threads", "inputs": [{"name", "shape"}], "ort_version", "kernels":
 * [{"name", "op", "median_us"}]}.  tm (an ort-cpu timing model) plans it;
 * its thread count and NCHWc block are set to the run's.  A line's id is
 * ort-cpu/t<threads>/InGraph/<model>/b<batch>/<kernel index>, its family
 * "InGraph", its time the kernel's profiled median.  A run whose kernel
 * list the plan does not match is counted in n->foreign and gives no
 * line.  Errors: OC_ERR_INPUT (a run not of that form, a model that does
 * not load or analyse, threads the model was not trained at),
 * OC_ERR_NOMEM. */
oc_status oc_ingraph_lines(const char *model_path, const json_t *run, oc_tmodel *tm,
                           const oc_ingraph_opts *o, json_t *lines, oc_ingraph_counts *n,
                           oc_error *err);

#endif
