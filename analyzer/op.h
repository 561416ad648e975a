/*
 * op.h - the interface an operator file implements (analyzer/ops/ *.c).
 *
 * Each operator has a shape rule and a cost rule, listed once in
 * analyzer/ops.def:
 *
 *     OC_OP(Conv, "", 1, oc_conv_infer, oc_conv_cost, CONV, 0)
 *
 * The shape rule reads its inputs' inferred info and attributes through an
 * oc_op_ctx and sets each output's dtype, shape and, where it can (shape
 * arithmetic), its values.  It returns OC_OK, or oc_fail(...) when the model
 * contradicts itself (bad rank, mismatched channels, invalid attribute).
 * An input whose shape is unknown is not an error: set what can be known
 * (dtype, rank) and leave the rest unknown.
 *
 * The cost rule runs after inference for nodes whose shapes are known and
 * sets macs and flops (bytes and params are counted by the core).
 * A NULL cost rule means no arithmetic (data movement only).
 *
 * Version: oc_ctx_opset() is the model's opset for the node's domain; a
 * rule branches on it where the operator changed (Squeeze axes became an
 * input in 13, Split in 13, Reduce* in 18, ...).
 */
#ifndef OC_OP_H
#define OC_OP_H

#include "analyzer/analyzer.h"
#include "analyzer/optable.h"

typedef struct oc_op_ctx oc_op_ctx;

typedef struct oc_cost {
    uint64_t macs, flops;
} oc_cost;

typedef oc_status (*oc_infer_fn)(oc_op_ctx *c);
typedef oc_status (*oc_cost_fn)(oc_op_ctx *c, oc_cost *out);

/* ---- node, inputs, outputs ---- */
const oc_node *oc_ctx_node(const oc_op_ctx *c);
int oc_ctx_opset(const oc_op_ctx *c);
size_t oc_ctx_n_in(const oc_op_ctx *c);  /* including omitted trailing ones */
size_t oc_ctx_n_out(const oc_op_ctx *c);
/* Info of input i; NULL when i is out of range or the input is omitted. */
const oc_tinfo *oc_ctx_in(const oc_op_ctx *c, size_t i);
/* Info of output i to fill in; NULL when out of range or omitted.  Starts
 * as kind TENSOR, dtype undefined, rank -1, nvals -1. */
oc_tinfo *oc_ctx_out(oc_op_ctx *c, size_t i);
/* Whether the analysis infers as a runtime does at load time
 * (oc_analyze_opts.session_view). */
bool oc_ctx_session_view(const oc_op_ctx *c);
/* How many times the node runs the subgraph it inferred last (If: 1 for
 * the branch taken; Loop: the trip count; Scan: the sequence length);
 * unset, it is unknown (oc_analysis_sub). */
void oc_ctx_set_trips(oc_op_ctx *c, int64_t times);
/* The constant behind input i (initializer/Constant), or NULL. */
const oc_tensor *oc_ctx_in_const(const oc_op_ctx *c, size_t i);
/* True if input i is an initializer (a weight). */
bool oc_ctx_in_is_weight(const oc_op_ctx *c, size_t i);

/* ---- attributes (NULL/default when absent) ---- */
const oc_attr *oc_ctx_attr(const oc_op_ctx *c, const char *name);
int64_t oc_attr_int(const oc_op_ctx *c, const char *name, int64_t def);
double oc_attr_float(const oc_op_ctx *c, const char *name, double def);
const char *oc_attr_str(const oc_op_ctx *c, const char *name, const char *def);
/* List attribute; *n set to its length (0 when absent, then NULL). */
const int64_t *oc_attr_ints(const oc_op_ctx *c, const char *name, size_t *n);
const double *oc_attr_floats(const oc_op_ctx *c, const char *name, size_t *n);

/* ---- results ---- */
/* Set output i (ignored when omitted).  dims is copied; rank -1 = unknown. */
oc_status oc_out_set(oc_op_ctx *c, size_t i, oc_dtype dt, int rank,
                     const oc_dim *dims);
/* Copy dtype and shape (not values) of src into output i. */
oc_status oc_out_like(oc_op_ctx *c, size_t i, const oc_tinfo *src);
/* Known integer contents of output i (n elements, copied). */
oc_status oc_out_ivals(oc_op_ctx *c, size_t i, int64_t n, const oc_dim *vals);
oc_status oc_out_fvals(oc_op_ctx *c, size_t i, int64_t n, const double *vals);
/* Report an inconsistency in the model: returns OC_ERR_INPUT. */
oc_status oc_fail(oc_op_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A non-fatal note (e.g. "mode 'foo' not understood"), kept as a warning. */
void oc_warn(oc_op_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Scratch memory that lives as long as the analysis. */
void *oc_ctx_alloc(oc_op_ctx *c, size_t size);

/* Infer a subgraph attribute (If/Loop/Scan bodies) given the infos of its
 * formal inputs (n_in of them, in order; NULL entries = unknown).  Outer
 * scope values are visible.  outs receives n_out pointers (NULL where the
 * body declares fewer outputs).  The subgraph's costs are added to *cost
 * (may be NULL). */
oc_status oc_ctx_infer_subgraph(oc_op_ctx *c, const struct oc_graph *g,
                                const oc_tinfo *const *ins, size_t n_in,
                                const oc_tinfo **outs, size_t n_out,
                                oc_cost *cost);

/* ---- dims ----
 * Symbolic arithmetic: products of symbols stay symbolic ("L*N"), other
 * expressions become opaque names ("(L+1)"); anything involving an unknown
 * dim is unknown.  All are overflow-checked (overflow -> unknown). */
oc_dim oc_dim_mul(oc_op_ctx *c, oc_dim a, oc_dim b);
oc_dim oc_dim_add(oc_op_ctx *c, oc_dim a, oc_dim b);
oc_dim oc_dim_sub(oc_op_ctx *c, oc_dim a, oc_dim b);
/* Exact division when it is exact (4N / 2 = 2N, N*L / L = N), else floor
 * division for known values, else an opaque symbol. */
oc_dim oc_dim_div(oc_op_ctx *c, oc_dim a, oc_dim b);
oc_dim oc_dim_ceildiv(oc_op_ctx *c, oc_dim a, oc_dim b);
/* 1 when a and b are certainly equal, 0 when certainly different, -1 when
 * it cannot be told. */
int oc_dim_eq(oc_dim a, oc_dim b);
/* Multidirectional (numpy) broadcasting of n shapes; fails on a certain
 * mismatch.  Unknown rank of any input -> *rank = -1. */
oc_status oc_broadcast(oc_op_ctx *c, const oc_tinfo *const *ins, size_t n,
                       int *rank, oc_dim *dims /* OC_MAX_RANK */);
/* Normalise an axis in [-rank, rank) (or [-rank-1, rank] with extra=1). */
oc_status oc_axis(oc_op_ctx *c, int64_t axis, int rank, int extra,
                  int *out);
/* Known contents of inputs (oc_in_ints, oc_in_floats, ...): values.h. */

/* ---- cost helpers ---- */
/* Elements of t with symbols costed as 1; false when unknown/overflow. */
bool oc_numel(const oc_tinfo *t, uint64_t *out);
/* Set out->flops = per_elem * elements of output 0 (checked). */
oc_status oc_cost_per_output(oc_op_ctx *c, oc_cost *out, uint64_t per_elem);
/* Checked helpers that report overflow through the context. */
oc_status oc_cmul(oc_op_ctx *c, uint64_t a, uint64_t b, uint64_t *out);
oc_status oc_cadd(oc_op_ctx *c, uint64_t a, uint64_t b, uint64_t *out);
/* Value of a dim with symbols costed as 1; -1 if unknown. */
int64_t oc_dim_cost(oc_dim d);
/* A Gemm-shaped product (A rank 2, transA, output 0 of *mn elements):
 * out->macs = mn x K and out->flops = 2 per MAC (matmul.c).  *mn = 0 and
 * nothing set when a shape is unknown. */
oc_status oc_gemm_macs(oc_op_ctx *c, oc_cost *out, uint64_t *mn);

/* ---- the operator table ---- */
typedef struct oc_op_desc {
    const char *name;
    const char *domain;
    int since;
    oc_infer_fn infer;
    oc_cost_fn cost;
    oc_op_id id;
    oc_op_family family;
    unsigned traits; /* OC_EW_* */
} oc_op_desc;

/* Descriptor for (domain, op) or NULL (analyzer/optable.c). */
const oc_op_desc *oc_op_lookup(const char *domain, const char *op);
/* Descriptor of an id; NULL for OC_OPID_UNKNOWN or out of range. */
const oc_op_desc *oc_op_desc_of(oc_op_id id);

#define OC_OP(name, domain, since, infer, cost, fam, traits)                  \
    oc_status infer(oc_op_ctx *c);
#define OC_OP_NOCOST(name, domain, since, infer, fam, traits)                 \
    oc_status infer(oc_op_ctx *c);
#define OC_OP_AS(id, name, domain, since, infer, cost, fam, traits)           \
    oc_status infer(oc_op_ctx *c);
#define OC_OP_AS_NOCOST(id, name, domain, since, infer, fam, traits)          \
    oc_status infer(oc_op_ctx *c);
#include "analyzer/ops.def"
#undef OC_OP
#undef OC_OP_NOCOST
#undef OC_OP_AS
#undef OC_OP_AS_NOCOST
#define OC_OP(name, domain, since, infer, cost, fam, traits)                  \
    oc_status cost(oc_op_ctx *c, oc_cost *out);
#define OC_OP_NOCOST(name, domain, since, infer, fam, traits)
#define OC_OP_AS(id, name, domain, since, infer, cost, fam, traits)           \
    oc_status cost(oc_op_ctx *c, oc_cost *out);
#define OC_OP_AS_NOCOST(id, name, domain, since, infer, fam, traits)
#include "analyzer/ops.def"
#undef OC_OP
#undef OC_OP_NOCOST
#undef OC_OP_AS
#undef OC_OP_AS_NOCOST

#endif
