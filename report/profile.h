/*
 * profile.h - an ONNX Runtime profile (Chrome-trace JSON) read and reduced
 * to one median time per kernel, and matched against the kernels the plan
 * predicts ('onnxcost compare'; calibrate's probe reads its kernel times
 * through oc_profile_kernel_times).
 */
#ifndef OC_REPORT_PROFILE_H
#define OC_REPORT_PROFILE_H

#include <jansson.h>
#include <stdbool.h>

#include "predictor/estimate.h"

typedef struct oc_pevent {
    const char *name; /* into the JSON tree, not terminated at len */
    size_t len;
    const char *op;
    double ts, dur, rel; /* rel: ts from the start of its run */
    size_t run, occ;     /* occ: the how-manieth kernel of this name in its run */
} oc_pevent;

/* A kernel of the profile: its events over the runs, reduced. */
typedef struct oc_pkernel {
    char *name;
    const char *op;
    double us, order; /* median dur; position in the run (rel of its first run) */
    size_t runs;
    long match; /* index of the planned kernel, -1 none */
} oc_pkernel;

typedef struct oc_profile {
    json_t *root;
    oc_pevent *ev;
    size_t n_ev;
    oc_pkernel *k;
    size_t n;
    size_t runs;   /* model_run events (0: none, the run time is unknown) */
    double run_us; /* their median dur */
} oc_profile;

typedef struct oc_planned {
    const char *name, *op;
    double us;
    bool inserted; /* a reorder the runtime inserts: matched by op (its name is ORT's) */
    long match;    /* index of the profiled kernel, -1 none */
    bool by_op;
} oc_planned;


/* Read and reduce the profile at path (at most 1 GiB).  oc_profile_free
 * frees what it holds, also after a failure.  Errors: OC_ERR_INPUT (not a
 * profile, no kernel events), OC_ERR_IO. */
oc_status oc_profile_load(const char *path, oc_profile *p, oc_error *err);
/* A profile from a run's kernel list as the measuring scripts keep it
 * ([{"name", "op", "median_us"}] in run order).  Errors: OC_ERR_INPUT (not
 * such a list, or empty), OC_ERR_IO (out of memory). */
oc_status oc_profile_from_kernels(const json_t *kernels, oc_profile *p, oc_error *err);
void oc_profile_free(oc_profile *p);

/* The plan's kernels (oc_json_kernels(e), which pl's strings point into)
 * matched with a loaded profile's: by exact name, then by op in run order. */
typedef struct oc_profile_matched {
    json_t *kernels;
    oc_planned *pl;
    size_t np;       /* planned kernels */
    size_t matched;  /* pairs */
    double pred_sum; /* the planned kernels' predicted time */
} oc_profile_matched;
/* Match e's kernels with pf's (pf->k[].match and out->pl[].match set).  A
 * profile of another model (fewer than half its kernel names found in the
 * plan or the graph g) is OC_ERR_INPUT; out of memory OC_ERR_IO.
 * oc_profile_matched_free frees *out, also after a failure. */
oc_status oc_profile_match(const char *model_path, const char *prof_path, const oc_graph *g,
                           const oc_estimate *e, oc_profile *pf, oc_profile_matched *out,
                           oc_error *err);
void oc_profile_matched_free(oc_profile_matched *m);

/* The times the profile at prof_path measured for the kernels of e:
 * meas[k] for plan kernel k, its median over the profile's runs, or -1
 * when the profile did not run it.  Errors as oc_profile_load and
 * oc_profile_match. */
oc_status oc_profile_kernel_times(const char *model_path, const char *prof_path,
                                  const oc_graph *g, const oc_estimate *e, double *meas,
                                  oc_error *err);
/* The same from a loaded profile (prof_label names it in errors). */
oc_status oc_profile_times(const char *model_path, const char *prof_label, const oc_graph *g,
                           const oc_estimate *e, oc_profile *pf, double *meas, oc_error *err);

/* When only one side has NCHWc kernels (the plan's np kernels pl, the
 * profile pf's), the plan was made for a CPU of another block than the
 * profile's: a sentence saying which option fixes it, else NULL. */
const char *oc_profile_nchwc_hint(const oc_planned *pl, size_t np, const oc_profile *pf);

#endif
