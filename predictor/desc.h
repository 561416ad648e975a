/*
 * desc.h - one node as the timing model sees it: operator, attributes,
 * input/output types and shapes, the ops fused after it, and its costs.
 *
 * The same description is built at prediction time from an analysed model
 * and at training time from a dataset line (docs/dataset.md), so that the
 * feature extractor (predictor/features.c) computes identical features in
 * both places:
 *
 *     // prediction time
 *     oc_node_desc d;
 *     if (oc_node_desc_from_analysis(a, node, &d, arena, &err) != OC_OK) ...
 *     // a fusion the target performs (Conv followed by Relu, say):
 *     oc_node_desc_add_fused(&d, a, relu_node, arena, &err);
 *
 *     // training time, from one dataset line `line`
 *     oc_node_desc_from_json(json_object_get(line, "node"),
 *                            json_object_get(line, "fused"),
 *                            json_object_get(line, "features"), &d, arena, &err);
 *
 *     // writing a dataset line
 *     json_object_set_new(line, "node", oc_node_desc_to_json(&d));
 *     json_object_set_new(line, "fused", oc_node_desc_fused_to_json(&d));
 *     json_object_set_new(line, "features", oc_node_desc_cost_to_json(&d));
 *
 * Every string and array a description points to lives in the arena given
 * when it was built; it borrows nothing from the model, the analysis or
 * the JSON, and is freed with the arena.  There is no oc_node_desc_free().
 *
 * Dims: known dims are >= 0; an unknown dim is -1; a symbolic dim v*N is
 * recorded as v (the analyzer costs unbound symbols as 1; bind them with
 * oc_analyze_opts to get real sizes).  rank == -1: shape unknown.
 */
#ifndef OC_PREDICTOR_DESC_H
#define OC_PREDICTOR_DESC_H

#include <jansson.h>

#include "analyzer/analyzer.h"

enum { OC_DESC_MAX_FUSED = 8 };

/* One attribute.  Types kept: OC_ATTR_INT, OC_ATTR_FLOAT, OC_ATTR_STRING,
 * OC_ATTR_INTS, OC_ATTR_FLOATS, OC_ATTR_STRINGS.  Tensor, graph and other
 * attributes are left out of a description (the ops the timing model
 * covers do not carry any). */
typedef struct oc_desc_attr {
    const char *name;
    oc_attr_type type;
    int64_t i;            /* OC_ATTR_INT */
    double f;             /* OC_ATTR_FLOAT (the model's float32 value) */
    const char *s;        /* OC_ATTR_STRING, NUL-terminated */
    size_t n;             /* element count of the list below */
    const int64_t *ints;  /* OC_ATTR_INTS */
    const double *floats; /* OC_ATTR_FLOATS */
    const char *const *strings; /* OC_ATTR_STRINGS */
} oc_desc_attr;

/* One input or output of the node. */
typedef struct oc_desc_value {
    bool present;        /* false for an omitted optional input/output */
    oc_dtype dtype;      /* OC_DT_UNDEFINED when unknown */
    int rank;            /* -1 when unknown */
    const int64_t *dims; /* rank entries (NULL when rank <= 0) */
    bool weight;         /* an initializer or Constant output: known ahead
                            of the run, not produced by another node */
} oc_desc_value;

/* Cost features: the analyzer's counts (analyzer.h conventions), summed
 * over the main node and the fused ones. */
typedef struct oc_desc_cost {
    uint64_t macs, flops, params, bytes_read, bytes_written;
} oc_desc_cost;

typedef struct oc_node_desc {
    const char *op;     /* "Conv" */
    const char *domain; /* "" for ai.onnx */
    int opset;          /* opset of the node's domain; 0 when not recorded */
    size_t n_attrs;
    const oc_desc_attr *attrs; /* in the model's order */
    size_t n_inputs, n_outputs;
    const oc_desc_value *inputs;
    const oc_desc_value *outputs;
    size_t n_fused;
    const char *fused[OC_DESC_MAX_FUSED]; /* ops after the main one: "Relu" */
    oc_desc_cost cost;
} oc_node_desc;

/* Describe node `node` (index into the main graph's nodes) of the model
 * behind analysis `a`.  n_fused is 0 and cost is that node's own cost.
 * Errors: OC_ERR_USAGE (node out of range), OC_ERR_NOMEM. */
oc_status oc_node_desc_from_analysis(const oc_analysis *a, size_t node,
                                     oc_node_desc *out, oc_arena *arena,
                                     oc_error *err);

/* Describe a kernel that runs a subgraph as one op of the runtime's
 * (LayerNormalization, Gelu: what the timing model's samples of that op
 * look like): op `op`, input x (value index), for LayerNormalization a
 * scale and a bias of x's last dim, output y; flops as given, bytes those
 * of x (+ scale and bias) and y.  Errors: OC_ERR_NOMEM. */
oc_status oc_node_desc_fused_op(const oc_analysis *a, const char *op, int x, int y,
                                uint64_t flops, oc_node_desc *out, oc_arena *arena,
                                oc_error *err);

/* Describe a Split the runtime made of the n nodes that read value x in
 * parts along `axis` (Gathers and Slices, GatherSliceToSplitFusion), as
 * the timing model's samples of Split look: input x and the sizes of the
 * parts, output the n parts ys (a Gather's with the axis it drops).
 * Errors: OC_ERR_NOMEM. */
oc_status oc_node_desc_split(const oc_analysis *a, int x, int axis, const int *ys, size_t n,
                             oc_node_desc *out, oc_arena *arena, oc_error *err);

/* Append node `node`'s op to d->fused and add its cost to d->cost.
 * Errors: OC_ERR_USAGE (out of range, or more than OC_DESC_MAX_FUSED),
 * OC_ERR_OVERFLOW, OC_ERR_NOMEM. */
oc_status oc_node_desc_add_fused(oc_node_desc *d, const oc_analysis *a,
                                 size_t node, oc_arena *arena, oc_error *err);

/* Read a description from a dataset line's "node", "fused" and "features"
 * objects.  fused and features may be NULL (then empty / zero); extra keys
 * in features (in_elems, batch, ...) are ignored.
 * Errors: OC_ERR_INPUT (a field missing or of the wrong type), OC_ERR_NOMEM. */
oc_status oc_node_desc_from_json(const json_t *node_obj, const json_t *fused,
                                 const json_t *features, oc_node_desc *out,
                                 oc_arena *arena, oc_error *err);

/* New references (the caller owns them); NULL on allocation failure.
 *   node:     {"op", "domain", "opset", "attrs": {name: value},
 *              "inputs": [{"dtype", "shape", "weight"} | null],
 *              "outputs": [{"dtype", "shape"} | null]}
 *             ints are JSON integers, floats JSON reals, strings JSON strings,
 *             lists JSON arrays (an empty list reads back as ints);
 *             "shape" is null when the rank is unknown.
 *   fused:    ["Relu", ...]
 *   features: {"macs", "flops", "params", "bytes_read", "bytes_written"} */
json_t *oc_node_desc_to_json(const oc_node_desc *d);
json_t *oc_node_desc_fused_to_json(const oc_node_desc *d);
json_t *oc_node_desc_cost_to_json(const oc_node_desc *d);

/* How many of the n values v are present (not omitted optional ones). */
size_t oc_desc_count_present(const oc_desc_value *v, size_t n);
/* The attribute named `name`, or NULL. */
const oc_desc_attr *oc_node_desc_attr(const oc_node_desc *d, const char *name);
/* Its int value, or dflt when absent or not an int. */
int64_t oc_node_desc_attr_int(const oc_node_desc *d, const char *name,
                              int64_t dflt);
/* Its ints (count in *n), or NULL with *n = 0 when absent or not ints. */
const int64_t *oc_node_desc_attr_ints(const oc_node_desc *d, const char *name,
                                      size_t *n);

/* "Conv+Relu" (op and fused joined by '+') into buf; returns buf. */
const char *oc_node_desc_pattern(const oc_node_desc *d, char *buf, size_t size);

#endif
