/*
 * result.h - what an estimate says about a node or a kernel, in the words
 * the command, the API and an annotated model share: the kernel's name as
 * ONNX Runtime's profiler gives it, which kernel runs a node, and the
 * metadata 'onnxcost annotate' writes.
 */
#ifndef OC_PREDICTOR_RESULT_H
#define OC_PREDICTOR_RESULT_H

#include "predictor/estimate.h"

/* The kernel's name as ONNX Runtime names it: a node moved to the NCHWc
 * layout is named after its output ("<output>_nchwc"); inserted reorders
 * after their op; other kernels keep their main node's name.  The result
 * is buf or a string of g or k. */
const char *oc_kernel_name(const oc_graph *g, const oc_kernel *k, char *buf, size_t size);
/* The names ONNX Runtime gives the nodes and values of an If's branch when
 * its constant folding inlines it (Graph::InlineIfSubgraph,
 * onnxruntime/core/graph/graph.cc): the branch's outputs take the If's
 * output names; other nodes and values get the prefix "<If's
 * name><then_branch|else_branch>_" (the If's name as inlined itself when
 * it sat in an inlined branch); outer-scope values keep theirs. */
typedef struct oc_inline_names {
    const struct oc_inline_names *outer; /* the If's own graph's, or NULL
                                            for the main graph */
    const oc_graph *parent;              /* the graph of the If */
    size_t if_node;                      /* its index there */
    const oc_graph *g;                   /* the branch */
    char prefix[512];
} oc_inline_names;

void oc_inline_names_init(oc_inline_names *n, const oc_inline_names *outer,
                          const oc_graph *parent, size_t if_node, const oc_graph *branch);
/* Node `node` and value v of n->g as inlined; n NULL: g's own names
 * (g is then the graph they are of).  The result is buf or a string of
 * the graph. */
const char *oc_inline_node_name(const oc_inline_names *n, const oc_graph *g, size_t node,
                                char *buf, size_t size);
const char *oc_inline_value_name(const oc_inline_names *n, const oc_graph *g, int v, char *buf,
                                 size_t size);
/* oc_kernel_name of a kernel of n->g, with the inlined names. */
const char *oc_inline_kernel_name(const oc_inline_names *n, const oc_graph *g,
                                  const oc_kernel *k, char *buf, size_t size);
/* The kernels of e that run, in run order, as the runtime lists them: an
 * If it inlines has no kernel of its own, its branch's kernels stand in
 * its place (recursively), named as the runtime renames them.  fn gets
 * the estimate the kernel is of, its index in that plan, its name, and
 * the name of the If whose branch it came from (NULL in e itself); the
 * walk stops when fn returns false, and returns whether it went through.
 * An If, Loop or Scan the runtime keeps is one kernel here (its subgraph
 * is e->kernel_sub[k], walked on its own). */
typedef bool (*oc_kernel_visit)(const oc_estimate *e, size_t k, const char *name,
                                const char *inlined_from, void *ud);
bool oc_estimate_each_kernel(const oc_estimate *e, oc_kernel_visit fn, void *ud);
/* How many kernels oc_estimate_each_kernel visits. */
size_t oc_estimate_n_kernels(const oc_estimate *e);
/* How node i runs: "folded", "removed", the name of the node whose kernel
 * runs it (fused), or NULL when it runs its own kernel. */
const char *oc_node_kernel_note(const oc_graph *g, const oc_estimate *e, size_t i);

/* Write the prediction into m (the model a analysed, e predicted): a
 * line "onnxcost: time_us=... macs=..." appended to each node's
 * doc_string (the nodes of the subgraph an If, Loop or Scan runs too,
 * with their time per run), the same as node metadata "onnxcost.*", the
 * totals in the
 * model's metadata ("onnxcost.time_ms", "onnxcost.target" = target_line,
 * ...).  A node not counted says why instead. */
oc_status oc_annotate_model(oc_model *m, const oc_analysis *a, const oc_estimate *e,
                            const char *target_line, oc_error *err);
/* External data locations are relative to the model's folder: a copy in
 * another folder would point at files that are not there (rewriting them
 * would need "../" paths, which ONNX Runtime refuses).  Whether m, read
 * from `in`, may be written to `out`: it keeps no tensor in external
 * files, or out is in in's folder. */
bool oc_external_copy_ok(const oc_model *m, const char *in, const char *out);
/* The "onnxcost.target" line: "ort-cpu onnxruntime-node 1.30.0, 1 thread;
 * LABEL". */
void oc_target_line(const oc_tmodel *tm, const char *label, char *buf, size_t n);

/* The kernels of e predicted outside the timing model's data, in one line
 * (in buf): how many, their share of the kernel time, the operators it has
 * no sample of, then the first kernels far beyond its largest samples (a
 * few of each; linear in the nodes).  NULL when there are none.  Kernels
 * marked only for a thread count the model never learned are left out:
 * the target's warning says that once. */
const char *oc_estimate_outside_note(const oc_analysis *a, const oc_estimate *e, char *buf,
                                     size_t size);

#endif
