/*
 * analyzer.h - infer every tensor's type and shape and count each node's
 * work.
 *
 *     oc_analyze_opts o = {.batch = 32};
 *     oc_analysis *a;
 *     if (oc_analyze(model, &o, &a, &err) != OC_OK) ...
 *     const oc_node_cost *c = oc_analysis_node_cost(a, i);
 *     const oc_tinfo *t = oc_analysis_value(a, value_index);
 *     oc_analysis_free(a);
 *
 * The analysis borrows the model: free it before the model.
 *
 * Cost conventions (one place, tested in tests/test_costs.c):
 *   macs   multiply-accumulates of Conv, ConvTranspose, Gemm, MatMul,
 *          Einsum, recurrent cells and the like; one per fused multiply-add.
 *   flops  2 per MAC, plus each operator's own elementwise work: one FLOP
 *          per output element for simple arithmetic and activations,
 *          counted per operator in analyzer/ops/ (see README "Costs").
 *   params weight elements a node consumes (totals count a weight
 *          shared by several nodes once).  Weights are initializers,
 *          Constant nodes' values (oc_model_param_count) and what a cheap
 *          op the runtime folds (Cast, Reshape, Transpose, Identity, ...)
 *          derives from weights alone; they are not activations.
 *   bytes_read / bytes_written   sizes of the node's input / output tensors
 *          by dtype size.
 * Unbound symbolic dims (no --batch) are costed as 1 and listed in
 * oc_analysis_assumed().
 */
#ifndef OC_ANALYZER_H
#define OC_ANALYZER_H

#include "analyzer/optable.h"
#include "onnx/model.h"

enum { OC_MAX_RANK = 64 };

/* Inferred information about one value. */
typedef struct oc_tinfo {
    oc_value_kind kind;
    oc_dtype dtype; /* OC_DT_UNDEFINED when unknown */
    int rank;       /* -1 when unknown */
    oc_dim *dims;
    /* Known contents (shape arithmetic), for small tensors; nvals == -1
     * when unknown.  Integer/bool dtypes use ivals (possibly symbolic),
     * float dtypes use fvals. */
    int64_t nvals;
    oc_dim *ivals;
    double *fvals;
    /* For sequences/optionals: the element's info, or NULL. */
    struct oc_tinfo *elem;
} oc_tinfo;

typedef struct oc_input_override {
    const char *name;
    int rank;
    int64_t dims[OC_MAX_RANK];
} oc_input_override;

/* A value for a named symbolic dim ("N", "sequence_length"), wherever the
 * model declares it (as onnxruntime_perf_test's -f). */
typedef struct oc_dim_binding {
    const char *name;
    int64_t value; /* >= 0 */
} oc_dim_binding;

/* The elements of an integer tensor of the main graph (value index v)
 * that a runtime's rewrite made a constant: ORT's ReshapeFusion writes a
 * Reshape's computed target as one, with 0 for a dim copied from the
 * input and -1 for the one left over, and infers shapes again. */
typedef struct oc_value_ints {
    int v;
    int64_t n;
    const int64_t *vals;
} oc_value_ints;

/* What binds a symbolic dim, first to last: a dim binding, an override's
 * dim where the input declares that symbol, the batch for the leading
 * symbolic dim of every input.  A binding that names no symbolic dim of
 * the model, an override that names no input, and two that give one
 * symbol different values are usage errors (OC_ERR_USAGE) whose message
 * lists what the model has. */
typedef struct oc_analyze_opts {
    int64_t batch; /* > 0 binds the leading symbolic dim of every input */
    const oc_input_override *overrides;
    size_t n_overrides;
    const oc_dim_binding *dims;
    size_t n_dims;
    /* Sizes for dims the analysis cannot know from shapes (data-dependent:
     * NonZero's count, Unique's, a Range or Resize to a computed size), by
     * the names oc_analysis_unknown_dims() gives them ("nz:1").  An
     * assumption that names no unknown dim is a usage error whose message
     * lists them. */
    const oc_dim_binding *assumes;
    size_t n_assumes;
    /* Infer as a runtime's ONNX shape inference does when it loads the
     * model: the contents of a shape tensor are known only when they are
     * computed from constants and fully known shapes (Shape of a tensor with
     * a symbolic dim gives unknown values, not symbolic ones). */
    bool session_view;
    /* Values whose elements are given (oc_value_ints), whatever their
     * node computes; their shapes are their node's. */
    const oc_value_ints *known_ints;
    size_t n_known_ints;
} oc_analyze_opts;

typedef struct oc_node_cost {
    uint64_t macs, flops, params, bytes_read, bytes_written;
    bool shapes_known; /* every input and output shape fully known */
    bool supported;    /* the operator has a shape rule */
    oc_op_id op;       /* its row of analyzer/ops.def; OC_OPID_UNKNOWN when
                          the list does not have it (n->op names it) */
} oc_node_cost;

typedef struct oc_totals {
    uint64_t nodes, macs, flops, params, bytes_read, bytes_written;
    uint64_t peak_activation_bytes, weight_bytes;
    uint64_t unknown_shape_nodes; /* nodes with some output shape unknown */
    uint64_t unsupported_nodes;
} oc_totals;

typedef struct oc_warning {
    const char *node; /* node name */
    const char *msg;
} oc_warning;

typedef struct oc_analysis oc_analysis;

/* Runs shape inference and costing.  Errors (OC_ERR_INPUT) are reserved for
 * models that contradict themselves (mismatched ranks or channels, negative
 * dims, overflowing counts); operators without a rule only add warnings. */
oc_status oc_analyze(const oc_model *m, const oc_analyze_opts *opts,
                     oc_analysis **out, oc_error *err);
void oc_analysis_free(oc_analysis *a);

const oc_model *oc_analysis_model(const oc_analysis *a);
/* Info for value index v of the main graph. */
const oc_tinfo *oc_analysis_value(const oc_analysis *a, int v);
const oc_node_cost *oc_analysis_node_cost(const oc_analysis *a, size_t node);
const oc_totals *oc_analysis_totals(const oc_analysis *a);
/* The graph the analysis is of: the model's main graph, or for a view
 * from oc_analysis_sub the subgraph. */
const oc_graph *oc_analysis_graph(const oc_analysis *a);
/* What runs inside control-flow node `node` (If: the branch taken; Loop,
 * Scan: the body with its final shapes), as an analysis of that subgraph:
 * its values, node costs and own subgraphs, read with the same functions.
 * *times (may be NULL): how many times one run of the node runs it (1 for
 * an If, the trip count of a Loop, the sequence length of a Scan).  NULL
 * (and *times -1) when the node has no subgraph, or which branch runs or
 * how many times is unknown.  The view belongs to `a`: never pass it to
 * oc_analysis_free. */
const oc_analysis *oc_analysis_sub(const oc_analysis *a, size_t node, int64_t *times);
/* The same for subgraph g of the node, whenever it was inferred (an If
 * whose condition is unknown infers both branches): NULL when it was not. */
const oc_analysis *oc_analysis_sub_graph(const oc_analysis *a, size_t node, const oc_graph *g);

typedef enum oc_weight_kind {
    OC_NOT_WEIGHT = 0,
    OC_WEIGHT_STORED,  /* an initializer or a Constant node's value */
    OC_WEIGHT_DERIVED  /* a folded op's output computed from weights only */
} oc_weight_kind;
/* Whether value index v of the main graph is a weight. */
oc_weight_kind oc_analysis_weight(const oc_analysis *a, int v);
size_t oc_analysis_n_warnings(const oc_analysis *a);
const oc_warning *oc_analysis_warning(const oc_analysis *a, size_t i);
/* Symbols that were costed as 1, comma separated ("" if none). */
const char *oc_analysis_assumed(const oc_analysis *a);
/* The dims the main graph's nodes leave unknown although their inputs'
 * shapes are known (sizes that depend on values), comma separated ("" if
 * none; up to ~500 characters), each named "VALUE:DIM": the output's name, a colon and the dim's
 * index ("nz:1" for the count of NonZero's output nz).  Those names are
 * what oc_analyze_opts.assumes binds. */
const char *oc_analysis_unknown_dims(const oc_analysis *a);
/* That name of dim d of the value named `value`, into buf. */
void oc_unknown_dim_name(const char *value, int d, char *buf, size_t size);
/* The batch the analysis is for: the value of the batch dim, the leading
 * symbolic dim of the first input that declares one, whichever option
 * bound it (a dim binding, an override, the batch); 1 while it is unbound
 * (costed as 1).  A model without one: the leading dim of the first
 * override of rank >= 1, else 1 (its inputs' shapes are fixed). */
int64_t oc_analysis_batch(const oc_analysis *a);

/* Number of elements with symbols costed as 1; false if unknown/overflow. */
bool oc_tinfo_numel(const oc_tinfo *t, uint64_t *out);
bool oc_tinfo_shape_known(const oc_tinfo *t); /* rank and dims, symbols ok */
/* Format a dim ("N", "32", "?") into buf. */
const char *oc_dim_str(oc_dim d, char *buf, size_t size);
/* Format a shape ("[N,3,224,224]"; "?" when rank < 0) into buf. */
char *oc_shape_str(int rank, const oc_dim *dims, char *buf, size_t n);

#endif
