/* estimate.c - whole-graph time from kernels (see estimate.h). */
#include "predictor/estimate.h"
#include "predictor/builtin.h"
#include "predictor/calib.h"
#include "predictor/memory.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The value a kernel hands on: the output of one of its nodes that no
 * other node of the kernel reads (the last such in its order). */
static size_t kernel_node(const oc_kernel *k, size_t f)
{
    return f == 0 ? k->main : k->fused[f - 1];
}

static int kernel_exit(const oc_graph *g, const oc_kernel *k)
{
    int exit = g->nodes[k->main].n_outputs ? g->nodes[k->main].outputs[0] : -1;
    for (size_t f = 0; f <= k->n_fused; f++) {
        const oc_node *n = &g->nodes[kernel_node(k, f)];
        int v = n->n_outputs ? n->outputs[0] : -1;
        bool read = false;
        for (size_t q = 0; v >= 0 && q <= k->n_fused && !read; q++) {
            const oc_node *r = &g->nodes[kernel_node(k, q)];
            for (size_t i = 0; i < r->n_inputs; i++)
                read |= r->inputs[i] == v;
        }
        if (v >= 0 && !read)
            exit = v;
    }
    return exit;
}

/* Whether pred holds for an input or output of node n of a (its info,
 * NULL when the analysis has none). */
static bool any_io(const oc_analysis *a, const oc_node *n, bool (*pred)(const oc_tinfo *))
{
    for (size_t io = 0; io < 2; io++) {
        size_t cnt = io ? n->n_outputs : n->n_inputs;
        const int *vs = io ? n->outputs : n->inputs;
        for (size_t q = 0; q < cnt; q++)
            if (vs[q] >= 0 && pred(oc_analysis_value(a, vs[q])))
                return true;
    }
    return false;
}

/* Not shape data: unknown, more than 64 elements, or not integers. */
static bool not_shape_data(const oc_tinfo *t)
{
    uint64_t ne = 0;
    return !t || !oc_tinfo_numel(t, &ne) || ne > 64 ||
           (t->dtype != OC_DT_INT64 && t->dtype != OC_DT_INT32 && t->dtype != OC_DT_BOOL);
}

static bool is_bf16(const oc_tinfo *t)
{
    return t && t->dtype == OC_DT_BFLOAT16;
}

/* A kernel of shape arithmetic (every input and output at most 64
 * integer elements) or a view (Reshape, Squeeze, Unsqueeze, Flatten whose
 * output is not a graph output), with nothing fused into it.  ORT 1.30
 * aliases a view's output to its input, a graph input included (profiled
 * in the whole-model runs: blind38's feudal_network reshapes its 12.6 MB
 * input at batch 16 in 8 us), but copies into a graph output (pointrend_seg's
 * last Reshape: 1.3 ms at batch 16), as the timing model's samples do. */
static bool is_small(const oc_analysis *a, const oc_kernel *k)
{
    const oc_graph *g = oc_analysis_graph(a);
    const oc_node *n = &g->nodes[k->main];
    if (k->n_fused || n->domain[0])
        return false;
    switch (oc_analysis_node_cost(a, k->main)->op) {
    case OC_OPID_Reshape:
    case OC_OPID_Squeeze:
    case OC_OPID_Unsqueeze:
    case OC_OPID_Flatten:
        if (n->n_outputs > 0 && n->outputs[0] >= 0 && !g->values[n->outputs[0]].is_output)
            return true;
        break;
    default:
        break;
    }
    return !any_io(a, n, not_shape_data);
}

/* Why a kernel's time cannot be predicted: the first node of it (main,
 * then fused) without a shape rule, or with a value of unknown shape. */
static const char *unknown_reason(const oc_analysis *a, const oc_kernel *k, oc_arena *arena)
{
    const oc_graph *g = oc_analysis_graph(a);
    for (size_t f = 0; f <= k->n_fused; f++) {
        const oc_node *n = &g->nodes[kernel_node(k, f)];
        if (!oc_analysis_node_cost(a, kernel_node(k, f))->supported)
            return oc_arena_printf(arena, "%s%s%s has no shape rule: its outputs are unknown",
                                   n->domain, n->domain[0] ? "." : "", n->op);
        for (size_t io = 0; io < 2; io++) {
            size_t cnt = io ? n->n_outputs : n->n_inputs;
            const int *vs = io ? n->outputs : n->inputs;
            for (size_t q = 0; q < cnt; q++) {
                const oc_tinfo *t = vs[q] >= 0 ? oc_analysis_value(a, vs[q]) : NULL;
                uint64_t ne;
                if (!t || oc_tinfo_numel(t, &ne))
                    continue;
                const char *what = t->kind == OC_KIND_SEQUENCE   ? "a sequence"
                                   : t->kind == OC_KIND_OPTIONAL ? "an optional"
                                   : t->kind == OC_KIND_MAP      ? "a map"
                                   : t->rank < 0 ? "of unknown rank" : "of unknown shape";
                /* its inputs are known: the dims --assume can give */
                char dims[200] = "";
                for (int d = 0; io && t->kind == OC_KIND_TENSOR && d < t->rank; d++) {
                    size_t l = strlen(dims);
                    if (oc_dim_is_unknown(t->dims[d]) && l + 8 < sizeof dims) {
                        strcpy(dims + l, l ? ", " : ": dim ");
                        oc_unknown_dim_name(g->values[vs[q]].name, d, dims + strlen(dims),
                                            sizeof dims - strlen(dims));
                    }
                }
                return oc_arena_printf(arena, "%s%s%s %zu '%s' is %s%s%s%s",
                                       f ? n->op : "", f ? ": " : "", io ? "output" : "input",
                                       q, g->values[vs[q]].name, what,
                                       io && f == 0 && t->kind == OC_KIND_TENSOR
                                           ? " (its size depends on the values of its inputs"
                                           : "",
                                       io && f == 0 && t->kind == OC_KIND_TENSOR ? dims : "",
                                       io && f == 0 && t->kind == OC_KIND_TENSOR ? ")" : "");
            }
        }
    }
    return "its shapes are unknown";
}

/* The description of a kernel that moves one tensor into another layout
 * (value v): a Transpose the transpose optimizer leaves between kernels,
 * or a ReorderInput / ReorderOutput at the edge of an NCHWc region, each
 * described as a Transpose of v (a strided copy of the same bytes; the
 * timing model has Transpose samples, and the Conv and pool samples were
 * fitted without their reorders: features.c, in_graph_share). */
static oc_status layout_desc(const oc_analysis *a, int v, oc_node_desc *d, oc_arena *arena,
                             oc_error *err)
{
    oc_status st = oc_node_desc_fused_op(a, "Transpose", v, v, 0, d, arena, err);
    if (!st)
        d->opset = 13;
    return st;
}

/* The value a layout kernel moves (the plan's inserted reorders and
 * Transposes, or the reorder nodes of a model ORT optimised and saved:
 * their input), -1 when it has none; *is_layout whether kn is one. */
static int layout_value(const oc_analysis *a, const oc_kernel *kn, bool *is_layout)
{
    oc_op_id mid = kn->main == OC_PLAN_INSERTED ? OC_OPID_UNKNOWN
                                                : oc_analysis_node_cost(a, kn->main)->op;
    bool saved = mid == OC_OPID_NCHWC_ReorderInput || mid == OC_OPID_NCHWC_ReorderOutput;
    *is_layout = kn->main == OC_PLAN_INSERTED || saved;
    if (saved)
        return oc_analysis_graph(a)->nodes[kn->main].inputs[0];
    bool moves = kn->kid == OC_OPID_Transpose || kn->kid == OC_KID_ReorderInput ||
                 kn->kid == OC_KID_ReorderOutput;
    return *is_layout && moves ? kn->value : -1;
}

static oc_status estimate_many(const oc_analysis *const *a, const oc_analysis *const *sessions,
                               const bool *outer_constant, bool kept, size_t n,
                               const oc_tmodel *tm, const oc_overhead *ov, oc_estimate *out,
                               oc_arena *arena, oc_error *err);

/* Per value of subgraph sg of a node of graph g: an outer-scope value
 * that g's plan knows at session creation.  NULL when out of memory. */
static const bool *outer_constants(const oc_graph *g, const oc_plan *plan, const oc_graph *sg,
                                   oc_arena *arena)
{
    bool *c = oc_arena_calloc(arena, sg->n_values + 1, sizeof *c);
    for (size_t v = 0; c && v < sg->n_values; v++) {
        if (!sg->values[v].is_outer)
            continue;
        int pv = oc_graph_find(g, sg->values[v].name);
        c[v] = pv >= 0 && plan->constant && plan->constant[pv];
    }
    return c;
}

static bool is_control(oc_op_id op)
{
    return op == OC_OPID_If || op == OC_OPID_Loop || op == OC_OPID_Scan;
}

/* Why control-flow node m of `a` runs nothing the estimate can see. */
static const char *control_unknown(const oc_analysis *a, size_t m)
{
    switch (oc_analysis_node_cost(a, m)->op) {
    case OC_OPID_If:
        return "which branch runs is unknown (its condition depends on the "
               "values of the inputs)";
    case OC_OPID_Loop:
        return "its trip count is unknown (no constant trip count, or a "
               "condition that may stop it early)";
    default:
        return "its sequence length is unknown";
    }
}

/* Control-flow node m is not counted, for reason `why`. */
static oc_status mark_unknown(oc_estimate *out, size_t m, const char *why)
{
    out->node_unknown[m] = why;
    if (!out->n_uncounted)
        out->first_uncounted = m;
    out->n_uncounted++;
    out->n_uncounted_nodes++;
    return OC_OK;
}

/* A control-flow kernel k (main node m): its subgraph estimated on its
 * own (with the same timing model), times the runs.  When the subgraph,
 * its runs or anything in it is unknown, the node is marked like a node of
 * unknown shapes and the rest predicted. */
static oc_status control_kernel(const oc_analysis *a, const oc_analysis *session,
                                const oc_tmodel *tm, const oc_overhead *ov, oc_estimate *out,
                                size_t k, oc_arena *arena, oc_error *err)
{
    size_t m = out->plan.kernels[k].main;
    int64_t times;
    const oc_analysis *sub = oc_analysis_sub(a, m, &times);
    if (!sub) {
        /* an inlined If is no kernel of the plan's (plan.n_run): it is
         * listed as one, its branch unknown (oc_estimate_each_kernel) */
        if (out->plan.kernels[k].inlined)
            out->n_inner_run++;
        return mark_unknown(out, m, control_unknown(a, m));
    }
    /* what folds in the subgraph: the session's view of it (ORT optimises
     * a subgraph when it creates the session, before any dim is bound) */
    const oc_analysis *ss =
        session ? oc_analysis_sub_graph(session, m, oc_analysis_graph(sub)) : NULL;
    oc_estimate *se = oc_arena_calloc(arena, 1, sizeof *se);
    if (!se)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    const oc_analysis *sess = ss ? ss : sub;
    const bool *oc = outer_constants(oc_analysis_graph(a), &out->plan, oc_analysis_graph(sub),
                                     arena);
    if (!oc)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    oc_status st = estimate_many(&sub, &sess, oc, !out->plan.kernels[k].inlined, 1, tm, ov, se,
                                 arena, err);
    if (st)
        return st;
    out->kernel_sub[k] = se;
    out->kernel_times[k] = times;
    /* they run, whether or not their time is known (as in the main graph) */
    out->n_inner_run += (uint64_t)times * (se->plan.n_run + se->n_inner_run);
    if (se->n_uncounted) {
        /* part of what runs inside is unknown: the node is not counted */
        const oc_node *n = &oc_analysis_graph(sub)->nodes[se->first_uncounted];
        const char *why = oc_arena_printf(arena, "in its subgraph, node '%s' (%s): %s",
                                          n->name, n->op, se->node_unknown[se->first_uncounted]);
        if (!why)
            return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        return mark_unknown(out, m, why);
    }
    double t = (double)times;
    double scale = se->kernels_raw_us > 0 ? se->kernels_us / se->kernels_raw_us : 1.0;
    out->node_us[m] = out->kernel_us[k] = t * se->kernels_raw_us;
    out->node_low_us[m] = out->kernel_low_us[k] = t * se->kernels_low_us / scale;
    out->node_high_us[m] = out->kernel_high_us[k] = t * se->kernels_high_us / scale;
    out->node_linear_us[m] = t * se->linear_us;
    out->node_roofline_us[m] = t * se->roofline_us;
    out->linear_us += t * se->linear_us;
    out->roofline_us += t * se->roofline_us;
    out->inner_us += out->kernel_us[k];
    out->inner_low_us += out->kernel_low_us[k];
    out->inner_high_us += out->kernel_high_us[k];
    out->inner_overhead_us += t * se->overhead_us;
    /* ONNX Runtime's Loop kernel: its subgraph's execution set up once a
     * run, a frame for the body and its state handed over each trip */
    if (ov && oc_analysis_node_cost(a, m)->op == OC_OPID_Loop)
        out->inner_overhead_us += ov->loop_run_us + t * ov->loop_trip_us;
    out->profiler_us += t * se->profiler_us;
    out->outside_us += t * se->outside_us / scale; /* scaled with the rest */
    if (se->n_outside) {
        /* a thread count never learned marks every kernel of it alike */
        char buf[64];
        const char *th = oc_tmodel_threads_outside(tm, buf, sizeof buf);
        out->node_outside[m] =
            th ? oc_arena_strdup(arena, th)
               : "some kernels of its subgraph are outside the timing model's data";
        if (!out->node_outside[m])
            return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        out->n_outside++;
    }
    return OC_OK;
}

/* Elements of a described value, or 0 when unknown. */
static double desc_numel(const oc_desc_value *v)
{
    double n = 1;
    if (!v->present || v->rank < 0)
        return 0;
    for (int i = 0; i < v->rank; i++) {
        if (v->dims[i] < 0)
            return 0;
        n *= (double)v->dims[i];
    }
    return n;
}

/* The value `v` now holds elements of type dt: the bytes it counts for
 * change by the difference. */
static uint64_t rebytes(uint64_t bytes, const oc_desc_value *v, oc_dtype dt)
{
    double n = desc_numel(v), b = (double)bytes;
    b += n * ((double)oc_dtype_size(dt) - (double)oc_dtype_size(v->dtype));
    return b > 0 ? (uint64_t)b : 0;
}

/* The integer tensor a DequantizeLinear turns into value v (its input),
 * or -1 when no DequantizeLinear makes v. */
static int dq_source(const oc_graph *g, int v)
{
    int p = v >= 0 ? g->values[v].producer : -1;
    const oc_node *n = p >= 0 ? &g->nodes[p] : NULL;
    return n && !strcmp(n->op, "DequantizeLinear") && !n->domain[0] && n->n_inputs
               ? n->inputs[0] : -1;
}

/* A QLinear kernel's operands as the QOperator node has them (and the
 * samples of the qconv, qmatmul and qelementwise families do; QLinearConcat
 * and the other unsampled ones keep their main node's): each quantized
 * operand of the main node (Conv: X and W; MatMul, Add, Mul: A and B;
 * Sigmoid, LeakyRelu, the average pools: X) as its integer tensor,
 * whether or not the kernel took the DequantizeLinear that made it (a
 * shared one stays a kernel of its own, and ORT's kernel still reads the
 * integers), followed by its scale and zero point; then the output's scale
 * and zero point; a Conv's bias as int32. */
static oc_status qlinear_operands(const oc_analysis *a, const oc_kernel *kn, oc_node_desc *d,
                                  oc_arena *arena, oc_error *err)
{
    const oc_graph *g = oc_analysis_graph(a);
    const oc_node *mn = &g->nodes[kn->main];
    bool conv = !strcmp(d->op, "QLinearConv");
    bool binary = conv || !strcmp(d->op, "QLinearMatMul") || !strcmp(d->op, "QLinearAdd") ||
                  !strcmp(d->op, "QLinearMul");
    bool unary = !strcmp(d->op, "QLinearSigmoid") || !strcmp(d->op, "QLinearLeakyRelu") ||
                 !strcmp(d->op, "QLinearAveragePool") ||
                 !strcmp(d->op, "QLinearGlobalAveragePool");
    size_t nq = binary ? 2 : 1;
    if ((!binary && !unary) || d->n_inputs < nq || mn->n_inputs < nq)
        return OC_OK;
    oc_desc_value *ins = oc_arena_alloc(arena, 10 * sizeof *ins);
    int64_t *cout = oc_arena_alloc(arena, sizeof *cout);
    if (!ins || !cout)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    size_t n = 0;
    for (size_t k = 0; k < nq; k++) {
        oc_desc_value q = d->inputs[k];
        int src = dq_source(g, mn->inputs[k]);
        const oc_tinfo *t = src >= 0 ? oc_analysis_value(a, src) : NULL;
        if (t && t->dtype != OC_DT_UNDEFINED && q.dtype != t->dtype) {
            d->cost.bytes_read = rebytes(d->cost.bytes_read, &q, t->dtype);
            q.dtype = t->dtype;
            q.weight = g->values[src].is_initializer;
        }
        ins[n++] = q;
        ins[n++] = (oc_desc_value){.present = true, .dtype = OC_DT_FLOAT, .rank = 0,
                                   .weight = true};
        ins[n++] = (oc_desc_value){.present = true, .dtype = q.dtype, .rank = 0,
                                   .weight = true};
    }
    ins[n++] = (oc_desc_value){.present = true, .dtype = OC_DT_FLOAT, .rank = 0, .weight = true};
    ins[n++] = (oc_desc_value){.present = true, .dtype = d->outputs[0].dtype, .rank = 0,
                               .weight = true};
    if (conv && d->n_inputs > 2 && d->inputs[2].present && d->inputs[1].rank > 0 &&
        d->inputs[1].dims) {
        *cout = d->inputs[1].dims[0];
        ins[n++] = (oc_desc_value){.present = true, .dtype = OC_DT_INT32, .rank = 1,
                                   .dims = cout, .weight = true};
    }
    d->inputs = ins;
    d->n_inputs = n;
    return OC_OK;
}

/* DynamicQuantizeMatMul's operands as ORT's fusion passes them (and its
 * samples have them): A, B, B's scale (a float constant), B's zero point,
 * and the bias when the group adds a constant, in place of MatMulInteger's
 * A, B and the two zero points. */
static oc_status dqmm_operands(const oc_graph *g, const oc_kernel *kn, oc_node_desc *d,
                               oc_arena *arena, oc_error *err)
{
    bool bias = false;
    for (size_t f = 0; f < kn->n_fused && !bias; f++) {
        const oc_node *fn = &g->nodes[kn->fused[f]];
        if (strcmp(fn->op, "Add") || fn->domain[0])
            continue;
        for (size_t k = 0; k < fn->n_inputs; k++)
            bias |= fn->inputs[k] >= 0 && g->values[fn->inputs[k]].is_initializer;
    }
    oc_desc_value *ins = oc_arena_alloc(arena, 5 * sizeof *ins);
    int64_t *n = oc_arena_alloc(arena, sizeof *n);
    if (!ins || !n)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    const oc_desc_value *y = &d->outputs[0];
    *n = y->rank > 0 && y->dims ? y->dims[y->rank - 1] : 0;
    ins[0] = d->inputs[0];
    ins[1] = d->inputs[1];
    ins[2] = (oc_desc_value){.present = true, .dtype = OC_DT_FLOAT, .rank = 0, .weight = true};
    ins[3] = d->inputs[3];
    ins[4] = (oc_desc_value){.present = true, .dtype = OC_DT_FLOAT, .rank = 1, .dims = n,
                             .weight = true};
    d->inputs = ins;
    d->n_inputs = bias && *n > 0 ? 5 : 4;
    return OC_OK;
}

/* A kernel that runs a quantized group (predictor/plan.c: QLinearConv of a
 * QDQ Conv, DynamicQuantizeMatMul of MatMulInteger + DynamicQuantizeLinear,
 * ...) reads the integer tensors behind the DequantizeLinear nodes it took
 * (the float input of a DynamicQuantizeLinear it took) and writes its
 * QuantizeLinear's integer output: its description says so, as the
 * samples of those kernels (QOperator nodes) do, with the bytes counted at
 * those sizes. */
static oc_status quantized_operands(const oc_analysis *a, const oc_kernel *kn, oc_node_desc *d,
                                    oc_arena *arena, oc_error *err)
{
    const oc_graph *g = oc_analysis_graph(a);
    const oc_node *mn = &g->nodes[kn->main];
    oc_desc_value *ins = oc_arena_alloc(arena, (d->n_inputs + 1) * sizeof *ins);
    oc_desc_value *outs = oc_arena_alloc(arena, (d->n_outputs + 1) * sizeof *outs);
    if (!ins || !outs)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    if (d->n_inputs)
        memcpy(ins, d->inputs, d->n_inputs * sizeof *ins);
    if (d->n_outputs)
        memcpy(outs, d->outputs, d->n_outputs * sizeof *outs);
    for (size_t f = 0; f < kn->n_fused; f++) {
        const oc_node *fn = &g->nodes[kn->fused[f]];
        bool dq = !strcmp(fn->op, "DequantizeLinear") || !strcmp(fn->op, "DynamicQuantizeLinear");
        if (dq && fn->n_inputs && fn->n_outputs && !fn->domain[0]) {
            int src = fn->inputs[0];
            const oc_tinfo *t = src >= 0 ? oc_analysis_value(a, src) : NULL;
            for (size_t k = 0; t && k < d->n_inputs && k < mn->n_inputs; k++) {
                if (mn->inputs[k] < 0 || mn->inputs[k] != fn->outputs[0] ||
                    t->dtype == OC_DT_UNDEFINED)
                    continue;
                d->cost.bytes_read = rebytes(d->cost.bytes_read, &ins[k], t->dtype);
                ins[k].dtype = t->dtype;
                ins[k].weight = g->values[src].is_initializer;
            }
        } else if (!strcmp(fn->op, "QuantizeLinear") && !fn->domain[0] && fn->n_outputs &&
                   fn->outputs[0] >= 0 && d->n_outputs) {
            const oc_tinfo *t = oc_analysis_value(a, fn->outputs[0]);
            if (t && t->dtype != OC_DT_UNDEFINED) {
                d->cost.bytes_written = rebytes(d->cost.bytes_written, &outs[0], t->dtype);
                outs[0].dtype = t->dtype;
            }
        }
    }
    /* a product rescaled in the kernel (the Cast and Mul after a
     * MatMulInteger) comes out as floats of the same size */
    if (d->n_outputs && outs[0].dtype == OC_DT_INT32 &&
        (!strcmp(d->op, "DynamicQuantizeMatMul") || !strcmp(d->op, "MatMulIntegerToFloat")))
        outs[0].dtype = OC_DT_FLOAT;
    d->inputs = ins;
    d->outputs = outs;
    if (!strcmp(d->op, "DynamicQuantizeMatMul") && d->n_inputs == 4 && d->n_outputs)
        return dqmm_operands(g, kn, d, arena, err);
    if (!strncmp(d->op, "QLinear", 7) && d->n_outputs)
        return qlinear_operands(a, kn, d, arena, err);
    return OC_OK;
}

/* ORT's quantized kernels, which take a group of nodes (the DequantizeLinear,
 * QuantizeLinear, DynamicQuantizeLinear around a product, the Cast, Mul and
 * Add of its rescaling) and do the rescaling in their own epilogue. */
static bool quantized_kernel(const char *op)
{
    return !strncmp(op, "QLinear", 7) || !strcmp(op, "QGemm") ||
           !strcmp(op, "MatMulIntegerToFloat") || !strcmp(op, "DynamicQuantizeMatMul");
}

/* d's cost: its main node's alone, as a QOperator sample of the kernel
 * counts it (the group's other nodes write no tensor of their own). */
static void own_cost(const oc_analysis *a, size_t node, oc_node_desc *d)
{
    const oc_node_cost *c = oc_analysis_node_cost(a, node);
    d->cost.macs = c->macs;
    d->cost.flops = c->flops;
    d->cost.params = c->params;
    d->cost.bytes_read = c->bytes_read;
    d->cost.bytes_written = c->bytes_written;
}

/* A kernel named by an op of ORT's com.microsoft domain (QLinearAdd,
 * DynamicQuantizeMatMul, ...) is described in that domain, as its samples
 * are: the features know the op by (domain, name). */
static void kernel_domain(oc_node_desc *d)
{
    if (oc_op_id_of("", d->op) == OC_OPID_UNKNOWN &&
        oc_op_id_of("com.microsoft", d->op) != OC_OPID_UNKNOWN) {
        d->domain = "com.microsoft";
        d->opset = 1;
    }
}

/* A float16 node ORT runs in float32 (predictor/plan.c, pass_fp16): its
 * description says float32, as the samples of the float32 op are. */
static oc_status as_fp32(oc_node_desc *d, oc_arena *arena, oc_error *err)
{
    oc_desc_value *ins = oc_arena_alloc(arena, (d->n_inputs + 1) * sizeof *ins);
    oc_desc_value *outs = oc_arena_alloc(arena, (d->n_outputs + 1) * sizeof *outs);
    if (!ins || !outs)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    for (size_t k = 0; k < d->n_inputs; k++) {
        ins[k] = d->inputs[k];
        if (ins[k].dtype == OC_DT_FLOAT16) {
            d->cost.bytes_read = rebytes(d->cost.bytes_read, &ins[k], OC_DT_FLOAT);
            ins[k].dtype = OC_DT_FLOAT;
        }
    }
    for (size_t k = 0; k < d->n_outputs; k++) {
        outs[k] = d->outputs[k];
        if (outs[k].dtype == OC_DT_FLOAT16) {
            d->cost.bytes_written = rebytes(d->cost.bytes_written, &outs[k], OC_DT_FLOAT);
            outs[k].dtype = OC_DT_FLOAT;
        }
    }
    d->inputs = ins;
    d->outputs = outs;
    return OC_OK;
}

/* A MaxPool whose QDQ pair ORT dropped runs on the integers (a slow
 * elementwise loop, not MLAS's float pooling): described on kn->on_ints,
 * as the qmaxpool samples are. The other ops ORT runs that way (Transpose,
 * Reshape, Gather, ...) keep the float description of their samples: no
 * sample family draws them on 8-bit integers. */
static oc_status on_integers(const oc_kernel *kn, oc_node_desc *d, oc_arena *arena,
                             oc_error *err)
{
    if (kn->on_ints == OC_DT_UNDEFINED || strcmp(d->op, "MaxPool") ||
        (d->domain && d->domain[0]) || d->n_inputs < 1 || d->n_outputs < 1)
        return OC_OK;
    oc_desc_value *ins = oc_arena_alloc(arena, d->n_inputs * sizeof *ins);
    oc_desc_value *outs = oc_arena_alloc(arena, d->n_outputs * sizeof *outs);
    if (!ins || !outs)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    memcpy(ins, d->inputs, d->n_inputs * sizeof *ins);
    memcpy(outs, d->outputs, d->n_outputs * sizeof *outs);
    d->cost.bytes_read = rebytes(d->cost.bytes_read, &ins[0], kn->on_ints);
    d->cost.bytes_written = rebytes(d->cost.bytes_written, &outs[0], kn->on_ints);
    ins[0].dtype = outs[0].dtype = kn->on_ints;
    d->inputs = ins;
    d->outputs = outs;
    return OC_OK;
}

/* The description of run kernel kn (not a layout kernel): its main node
 * with the nodes fused into it, as the op the runtime runs. */
static oc_status kernel_desc(const oc_analysis *a, const oc_kernel *kn, oc_node_desc *d,
                             oc_arena *arena, oc_error *err)
{
    const oc_graph *g = oc_analysis_graph(a);
    oc_status st = oc_node_desc_from_analysis(a, kn->main, d, arena, err);
    for (size_t f = 0; !st && f < kn->n_fused && f < OC_DESC_MAX_FUSED; f++)
        st = oc_node_desc_add_fused(d, a, kn->fused[f], arena, err);
    if (st)
        return st;
    if (kn->as_op && (!strcmp(kn->as_op, "LayerNormalization") ||
                      !strcmp(kn->as_op, "Gelu"))) {
        /* A decomposed subgraph runs as one op: described as that op's
         * samples are, from the subgraph's input and output. */
        uint64_t flops = d->cost.flops;
        st = oc_node_desc_fused_op(a, kn->as_op, g->nodes[kn->main].inputs[0],
                                   kernel_exit(g, kn), flops, d, arena, err);
        if (st)
            return st;
    } else if (kn->as_op) {
        /* runs as another op on the main node's operands (MatMul as Gemm
         * or FusedMatMul) */
        d->op = kn->as_op;
        d->n_fused = 0;
        if (quantized_kernel(kn->as_op))
            own_cost(a, kn->main, d);
        kernel_domain(d);
        if ((st = quantized_operands(a, kn, d, arena, err)))
            return st;
    }
    if ((st = on_integers(kn, d, arena, err)))
        return st;
    return kn->in_fp32 ? as_fp32(d, arena, err) : OC_OK;
}

/* The description of kernel k of plan, a Split made of the Gathers and
 * Slices that read one tensor (oc_kernel.axis): its parts are the nodes
 * the kernel holds, in the graph's order. */
static oc_status split_desc(const oc_analysis *a, const oc_plan *plan, size_t k,
                            oc_node_desc *d, oc_arena *arena, oc_error *err)
{
    const oc_graph *g = oc_analysis_graph(a);
    const oc_kernel *kn = &plan->kernels[k];
    int x = g->nodes[kn->main].inputs[0];
    int *ys = oc_arena_alloc(arena, (g->n_nodes + 1) * sizeof *ys);
    if (!ys)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < g->n_nodes; i++)
        if (plan->kernel_of[i] == k && g->nodes[i].n_inputs > 0 && g->nodes[i].inputs[0] == x &&
            g->nodes[i].n_outputs > 0)
            ys[n++] = g->nodes[i].outputs[0];
    return oc_node_desc_split(a, x, kn->axis, ys, n, d, arena, err);
}

/* Kernel k of out's plan, a shape kernel or a view, takes us (oc_overhead's
 * small_kernel_us: what such a kernel takes in a graph), as does its main
 * node when it has one. */
static void price_small(oc_estimate *out, size_t k, double us)
{
    size_t m = out->plan.kernels[k].main;
    if (m != OC_PLAN_INSERTED)
        out->node_us[m] = out->node_low_us[m] = out->node_high_us[m] = us;
    out->kernel_us[k] = out->kernel_low_us[k] = out->kernel_high_us[k] = us;
    out->small_us += us;
    out->n_small++;
}

/* Kernel kn is not predicted: its nodes are marked with why, and the rest
 * is. */
static void leave_out(oc_estimate *out, const oc_kernel *kn, const char *why)
{
    for (size_t f = 0; f <= kn->n_fused; f++)
        out->node_unknown[kernel_node(kn, f)] = why;
    if (!out->n_uncounted)
        out->first_uncounted = kn->main;
    out->n_uncounted++;
    out->n_uncounted_nodes += 1 + kn->n_fused;
}

/* Node m of a computes on bfloat16 where ONNX Runtime's CPU provider has
 * no kernel for it: of its default-domain operators only casts and data
 * movement take bfloat16 (ORT 1.30, onnxruntime-node: Cast, Concat,
 * Expand, Flatten, Gather, Identity, Reshape, Shape, Slice, Split,
 * Squeeze, Transpose and Unsqueeze load; Add, MatMul, Relu and the other
 * arithmetic fail with "Could not find an implementation"). */
static bool no_bf16_kernel(const oc_analysis *a, size_t m)
{
    const oc_node *n = &oc_analysis_graph(a)->nodes[m];
    switch (oc_analysis_node_cost(a, m)->op) {
    case OC_OPID_Cast:
    case OC_OPID_Concat:
    case OC_OPID_Expand:
    case OC_OPID_Flatten:
    case OC_OPID_Gather:
    case OC_OPID_Identity:
    case OC_OPID_Reshape:
    case OC_OPID_Shape:
    case OC_OPID_Slice:
    case OC_OPID_Split:
    case OC_OPID_Squeeze:
    case OC_OPID_Transpose:
    case OC_OPID_Unsqueeze:
        return false;
    default:
        break;
    }
    return any_io(a, n, is_bf16);
}

/* Phase 1 for one analysis: the plan, the baselines, and the feature
 * rows of the kernels that run (appended to x at row *rows; run[] gets
 * their main nodes, SIZE_MAX for a kernel the plan inserted).  x and run have
 * room for every kernel. */
static oc_status gather(const oc_analysis *a, const oc_analysis *session, const oc_tmodel *tm,
                        const oc_target *tgt, const oc_overhead *ov, oc_estimate *out,
                        float *x, size_t *run, size_t *kidx, oc_arena *arena, oc_error *err)
{
    const oc_graph *g = oc_analysis_graph(a);
    for (size_t k = 0; k < out->plan.n_kernels; k++) {
        const oc_kernel *kn = &out->plan.kernels[k];
        if (kn->kind != OC_KERNEL_RUN)
            continue;
        if (kn->main == OC_PLAN_INSERTED && kn->kid == OC_OPID_Squeeze && ov &&
            ov->small_kernel_us > 0) {
            /* a view the runtime inserts (after a Split it made of
             * Gathers) */
            price_small(out, k, ov->small_kernel_us);
            continue;
        }
        bool is_layout;
        int v = layout_value(a, kn, &is_layout);
        if (is_layout) {
            /* a layout kernel whose shape is unknown is left out */
            oc_node_desc d;
            oc_error ignored;
            oc_error_clear(&ignored);
            oc_status st = v >= 0 ? layout_desc(a, v, &d, arena, err) : OC_ERR_INPUT;
            if (st == OC_OK &&
                oc_features_from_desc(&d, tgt, x + out->n_run * OC_N_FEATURES, &ignored) ==
                    OC_OK) {
                kidx[out->n_run] = k;
                run[out->n_run++] = kn->main == OC_PLAN_INSERTED ? SIZE_MAX : kn->main;
            } else if (st != OC_OK && st != OC_ERR_INPUT) {
                return st;
            }
            continue;
        }
        oc_op_id mid = oc_analysis_node_cost(a, kn->main)->op;
        if (is_control(mid) && !g->nodes[kn->main].domain[0]) {
            oc_status st = control_kernel(a, session, tm, ov, out, k, arena, err);
            if (st)
                return st;
            continue;
        }
        if (ov && ov->small_kernel_us > 0 && is_small(a, kn)) {
            /* shape arithmetic and views: their measured time in graph
             * context (the timing model's samples ran them alone, on
             * graph inputs: a copy where a graph runs a view) */
            price_small(out, k, ov->small_kernel_us);
            continue;
        }
        if (oc_target_plan_rules(tgt->name) == OC_PLAN_RULES_ORT && kn->main != OC_PLAN_INSERTED &&
            no_bf16_kernel(a, kn->main)) {
            const oc_node *n = &g->nodes[kn->main];
            const char *why = oc_arena_printf(arena,
                                              "ONNX Runtime's CPU provider has no bfloat16 "
                                              "kernel for %s (it cannot create the session)",
                                              n->op);
            if (!why)
                return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
            leave_out(out, kn, why);
            continue;
        }
        oc_node_desc d;
        oc_status st = kn->axis >= 0 ? split_desc(a, &out->plan, k, &d, arena, err)
                                     : kernel_desc(a, kn, &d, arena, err);
        if (st)
            return st;
        if ((st = oc_features_from_desc(&d, tgt, x + out->n_run * OC_N_FEATURES, err))) {
            if (st != OC_ERR_INPUT)
                return st;
            /* Shapes unknown: the kernel is left out, its nodes marked,
             * and the rest predicted. */
            if (err)
                oc_error_clear(err);
            const char *why = unknown_reason(a, kn, arena);
            if (!why)
                return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
            leave_out(out, kn, why);
            continue;
        }
        double lin = 0, roof = 0;
        oc_tmodel_baselines_desc(tm, &d, &lin, &roof);
        size_t m = kn->main;
        char why[160];
        if (oc_tmodel_outside(tm, &d, why, sizeof why)) {
            if (!(out->node_outside[m] = oc_arena_strdup(arena, why)))
                return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
            out->n_outside++;
        }
        out->node_linear_us[m] = lin;
        out->node_roofline_us[m] = roof;
        out->linear_us += lin;
        out->roofline_us += roof;
        kidx[out->n_run] = k;
        run[out->n_run++] = m;
    }
    return OC_OK;
}

/* Phase 2: the kernels' times (us, lo, hi: one per row of phase 1) into
 * per-node times and totals, with the in-graph fit. */
/* Bytes of the graph's outputs whose sizes are known, into *all, and of
 * those of OC_OUTPUT_FRESH_BYTES or more, into *fresh. */
static void output_bytes(const oc_analysis *a, uint64_t *all, uint64_t *fresh)
{
    const oc_graph *g = oc_analysis_graph(a);
    *all = *fresh = 0;
    for (size_t i = 0; i < g->n_outputs; i++) {
        const oc_tinfo *t = oc_analysis_value(a, g->outputs[i]);
        uint64_t n;
        size_t es = t ? oc_dtype_size(t->dtype) : 0;
        if (!es || !oc_tinfo_numel(t, &n) || n > UINT64_MAX / es || *all + n * es < *all)
            continue;
        *all += n * es;
        if (n * es >= OC_OUTPUT_FRESH_BYTES)
            *fresh += n * es;
    }
}

/* What a kernel of predicted time x adds to a run by the calibration's
 * kernel curve c (calib.h). */
static double curve_wall(const oc_calib_fit *c, double x)
{
    double x0 = 0, w0 = 0;
    for (int k = 0; k < c->n_curve; k++) {
        if (x <= c->curve_x[k])
            return w0 + (c->curve_w[k] - w0) * (x - x0) / (c->curve_x[k] - x0);
        x0 = c->curve_x[k];
        w0 = c->curve_w[k];
    }
    return w0 + (x - x0);
}

/* The part of the kernels' predicted times that a run does not spend: the
 * profiler's cost their profiled times hold.  With ov's kernel curve, each
 * kernel's time less what the curve says it adds to a run.  Else g each
 * (oc_overhead's per_kernel_us, negated), so that what a kernel adds to a
 * run is its time less g; but no kernel adds less than ov's
 * kernel_floor_us (what one more tiny kernel adds to a run), nor, when it
 * is quicker still, less than its own time; kernel_floor_us 0: g for
 * each. */
static double profiler_cost(const oc_estimate *out, const oc_overhead *ov, double g)
{
    double floor_us = ov->kernel_floor_us;
    if (!ov->curve && !(floor_us > 0))
        return g * (double)out->plan.n_run;
    double sum = 0;
    for (size_t k = 0; k < out->plan.n_kernels; k++) {
        const oc_kernel *kn = &out->plan.kernels[k];
        double x = out->kernel_us[k];
        if (kn->kind == OC_KERNEL_RUN && !kn->inlined)
            sum += ov->curve ? x - curve_wall(ov->curve, x) : fmin(g, fmax(0, x - floor_us));
    }
    return sum;
}

static void scatter(const oc_analysis *a, oc_estimate *out, const size_t *run,
                    const double *us, const double *lo, const double *hi,
                    const oc_overhead *ov)
{
    out->kernels_us += out->small_us + out->inner_us;
    out->kernels_low_us += out->small_us + out->inner_low_us;
    out->kernels_high_us += out->small_us + out->inner_high_us;
    for (size_t r = 0; r < out->n_run; r++) {
        size_t m = run[r], k = out->x_kernel[r];
        out->kernel_us[k] = us[r];
        out->kernel_low_us[k] = lo[r];
        out->kernel_high_us[k] = hi[r];
        if (m != SIZE_MAX) {
            out->node_us[m] = us[r];
            out->node_low_us[m] = lo[r];
            out->node_high_us[m] = hi[r];
        }
        out->kernels_us += us[r];
        out->kernels_low_us += lo[r];
        out->kernels_high_us += hi[r];
    }
    for (size_t r = 0; r < out->n_run; r++)
        if (run[r] != SIZE_MAX && out->node_outside[run[r]])
            out->outside_us += us[r];

    double scale = ov && ov->kernel_scale > 0 ? ov->kernel_scale : 1.0;
    out->outside_us *= scale;
    out->kernels_raw_us = out->kernels_us;
    out->kernels_us *= scale;
    out->kernels_low_us *= scale;
    out->kernels_high_us *= scale;
    size_t n_nodes = oc_analysis_graph(a)->n_nodes;
    for (size_t i = 0; i < n_nodes; i++) {
        out->node_us[i] *= scale;
        out->node_low_us[i] *= scale;
        out->node_high_us[i] *= scale;
    }
    for (size_t r = 0; r < out->n_run; r++)
        if (run[r] == SIZE_MAX) {
            out->n_inserted++;
            out->inserted_us += us[r] * scale;
        }
    for (size_t k = 0; k < out->plan.n_kernels; k++) {
        out->kernel_us[k] *= scale;
        out->kernel_low_us[k] *= scale;
        out->kernel_high_us[k] *= scale;
    }
    /* every kernel that runs, those the runtime inserts included */
    double per = ov ? ov->per_kernel_us : 0, n_run = (double)out->plan.n_run;
    /* a kernel curve stands for the per-kernel cost either way */
    bool curve = ov && ov->curve;
    out->overhead_us = (per > 0 && !curve ? per * n_run : 0) + out->inner_overhead_us;
    out->profiler_us += per < 0 || curve ? profiler_cost(out, ov, -per) : 0;
    output_bytes(a, &out->output_bytes, &out->output_fresh_bytes);
    out->output_us = ov ? ov->output_us_per_mb * (double)out->output_fresh_bytes / 1e6 : 0;
    double fixed = out->overhead_us + out->output_us - out->profiler_us;
    /* what the kernels cost at the least, every kernel a graph runs */
    double kernels = n_run + (double)out->n_inner_run;
    double floor = (ov && ov->kernel_floor_us > 0 ? ov->kernel_floor_us : 0) * kernels +
                   out->output_us;
    out->total_us = fmax(out->kernels_us + fixed, floor);
    if (ov && ov->band && kernels > 0) {
        /* a calibration's band: as far as its machine's runs of that kind
         * strayed from their predictions */
        int b = oc_calib_band_of(ov->band, out->total_us / kernels);
        out->total_low_us = out->total_us * ov->band->band_low[b];
        out->total_high_us = out->total_us * ov->band->band_high[b];
        return;
    }
    out->total_low_us = fmax(out->kernels_low_us + fixed, floor);
    out->total_high_us = fmax(out->kernels_high_us + fixed, floor);
    /* the ensemble agrees more often than it is right: the range reaches
     * at least as far as the model's errors on unseen architectures did */
    if (ov && ov->range_low > 0)
        out->total_low_us = fmin(out->total_low_us, out->total_us * ov->range_low);
    if (ov && ov->range_high > 0)
        out->total_high_us = fmax(out->total_high_us, out->total_us * ov->range_high);
}

/* Each Conv, ConvTranspose, Gemm and MatMul kernel of the n rows of x
 * that reads weights no earlier kernel of its graph read (fresh[r])
 * takes at least its weights' bytes at gbps (its prediction as timed
 * alone, us, and its range, lo and hi, raised to that).  Other kernels
 * with weights (Gather, a bias Add) read only part of them, or little. */
static void stream_floor(const float *x, const bool *fresh, size_t n, double gbps, double *us,
                         double *lo, double *hi)
{
    for (size_t r = 0; r < n; r++) {
        const float *f = x + r * OC_N_FEATURES;
        if (!fresh[r] || (f[OC_F_FAM_CONV] < 0.5f && f[OC_F_FAM_CONV_TRANSPOSE] < 0.5f &&
                          f[OC_F_FAM_GEMM] < 0.5f && f[OC_F_FAM_MATMUL] < 0.5f))
            continue;
        /* LOG_PARAMS is log1p(weight elements), DTYPE_BYTES their size */
        double bytes = expm1((double)f[OC_F_LOG_PARAMS]) * (double)f[OC_F_DTYPE_BYTES];
        double t = bytes / (gbps * 1e3); /* GB/s = 1e3 bytes per us */
        us[r] = fmax(us[r], t);
        lo[r] = fmax(lo[r], t);
        hi[r] = fmax(hi[r], t);
    }
}

/* fresh[r] for n_run kernel rows of analysis a (run[r]: row r's node in
 * a's graph, the rows in the order they run; others, inserted kernels):
 * false where every weight the node reads (a constant of rank 2 or more)
 * was read by an earlier row.  A weight
 * shared by the steps of an unrolled decoder streams from memory once a
 * run; the other steps find it in cache, as the samples had it. */
static oc_status fresh_weights(const oc_analysis *a, const size_t *run, size_t n_run,
                               bool *fresh, oc_arena *arena, oc_error *err)
{
    const oc_graph *g = oc_analysis_graph(a);
    bool *seen = oc_arena_calloc(arena, g->n_values + 1, sizeof(bool));
    if (!seen)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    for (size_t r = 0; r < n_run; r++) {
        fresh[r] = true;
        if (run[r] >= g->n_nodes)
            continue;
        const oc_node *nd = &g->nodes[run[r]];
        bool weights = false, unseen = false;
        for (size_t k = 0; k < nd->n_inputs; k++) {
            int v = nd->inputs[k];
            const oc_tensor *t = v >= 0 ? g->values[v].constant : NULL;
            if (!t || t->rank < 2)
                continue;
            weights = true;
            unseen |= !seen[v];
            seen[v] = true;
        }
        fresh[r] = !weights || unseen;
    }
    return OC_OK;
}

/* A training step's page faults (memory.h's fresh bytes at us_per_mb) on
 * top of its kernels.  The large blocks fault every step; the heap gives
 * its top back on one network's steps and not on another's (bert_small's
 * steps on f26 faulted nothing where its churn put 9-34 MB, a tabular MLP's
 * ten times the churn's share), so the range takes the heap's part from
 * none to four times the share. */
static void charge_faults(oc_estimate *e, oc_optimizer o, double us_per_mb)
{
    oc_train_memory m;
    oc_training_memory(e->analysis, &e->plan, o, &m);
    e->fault_us = us_per_mb * (double)m.fresh / 1e6;
    double large_us = us_per_mb * (double)m.fresh_large / 1e6;
    double heap_us = e->fault_us - large_us;
    e->total_us += e->fault_us;
    e->total_low_us += large_us;
    e->total_high_us += large_us + 4 * heap_us;
}

/* The estimates of n analyses, each planned with what folds in sessions[i]
 * (NULL: the analysis itself); outer_constant: for a subgraph (n == 1),
 * its outer-scope values the enclosing plan folds, or NULL; kept: that
 * subgraph runs as one (not an inlined If's branch). */
static oc_status estimate_many(const oc_analysis *const *a, const oc_analysis *const *sessions,
                               const bool *outer_constant, bool kept, size_t n,
                               const oc_tmodel *tm, const oc_overhead *ov, oc_estimate *out,
                               oc_arena *arena, oc_error *err)
{
    oc_target tgt;
    oc_tmodel_target(tm, &tgt);
    size_t total = 1;
    for (size_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].analysis = a[i];
        const oc_graph *g = oc_analysis_graph(a[i]);
        oc_plan_opts po = {.target = tgt.name, .nchwc_block = tgt.nchwc_block,
                           .session = sessions[i], .outer_constant = outer_constant,
                           .kept_subgraph = kept};
        oc_status st = oc_plan_build(a[i], &po, &out[i].plan, arena, err);
        if (st)
            return st;
        size_t nn = g->n_nodes + 1;
        out[i].node_us = oc_arena_calloc(arena, nn, sizeof(double));
        out[i].node_low_us = oc_arena_calloc(arena, nn, sizeof(double));
        out[i].node_high_us = oc_arena_calloc(arena, nn, sizeof(double));
        out[i].node_linear_us = oc_arena_calloc(arena, nn, sizeof(double));
        out[i].node_roofline_us = oc_arena_calloc(arena, nn, sizeof(double));
        out[i].node_unknown = oc_arena_calloc(arena, nn, sizeof(const char *));
        out[i].node_outside = oc_arena_calloc(arena, nn, sizeof(const char *));
        size_t nk = out[i].plan.n_kernels + 1;
        out[i].kernel_us = oc_arena_calloc(arena, nk, sizeof(double));
        out[i].kernel_low_us = oc_arena_calloc(arena, nk, sizeof(double));
        out[i].kernel_high_us = oc_arena_calloc(arena, nk, sizeof(double));
        out[i].kernel_sub = oc_arena_calloc(arena, nk, sizeof(*out[i].kernel_sub));
        out[i].kernel_times = oc_arena_calloc(arena, nk, sizeof(int64_t));
        out[i].first_uncounted = SIZE_MAX;
        if (!out[i].node_us || !out[i].node_low_us || !out[i].node_high_us ||
            !out[i].node_linear_us || !out[i].node_roofline_us || !out[i].node_unknown ||
            !out[i].node_outside || !out[i].kernel_us || !out[i].kernel_low_us ||
            !out[i].kernel_high_us || !out[i].kernel_sub || !out[i].kernel_times)
            return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        total += out[i].plan.n_kernels;
    }
    /* Every kernel's features first, then one pass of the ensemble over
     * all of them: a batched forward is an sgemm per layer, not one per
     * kernel or per analysis. */
    float *x = oc_arena_alloc(arena, total * OC_N_FEATURES * sizeof(float));
    size_t *run = oc_arena_alloc(arena, total * sizeof(size_t));
    size_t *kidx = oc_arena_alloc(arena, total * sizeof(size_t));
    double *us = oc_arena_alloc(arena, 3 * total * sizeof(double));
    if (!x || !run || !kidx || !us)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    size_t rows = 0;
    for (size_t i = 0; i < n; i++) {
        oc_status st = gather(a[i], sessions[i], tm, &tgt, ov, &out[i],
                              x + rows * OC_N_FEATURES, run + rows, kidx + rows, arena, err);
        if (st)
            return st;
        rows += out[i].n_run;
    }
    if (rows) {
        oc_status st = oc_tmodel_predict_features(tm, x, rows, us, us + total,
                                                  us + 2 * total, err);
        if (st)
            return st;
    }
    for (size_t r = 0; ov && ov->in_graph && r < rows; r++) {
        double f = oc_calib_in_graph_factor(ov->in_graph,
                                            oc_calib_group_of(x + r * OC_N_FEATURES));
        us[r] *= f;
        us[total + r] *= f;
        us[2 * total + r] *= f;
    }
    if (ov && ov->stream_gbps > 0) {
        bool *fresh = oc_arena_alloc(arena, (rows + 1) * sizeof(bool));
        if (!fresh)
            return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        for (size_t i = 0, r = 0; i < n; r += out[i].n_run, i++) {
            oc_status st = fresh_weights(a[i], run + r, out[i].n_run, fresh + r, arena, err);
            if (st)
                return st;
        }
        stream_floor(x, fresh, rows, ov->stream_gbps, us, us + total, us + 2 * total);
    }
    for (size_t i = 0, r = 0; i < n; r += out[i].n_run, i++) {
        out[i].x = x + r * OC_N_FEATURES;
        out[i].x_kernel = kidx + r;
        out[i].x_us = us + r;
        scatter(a[i], &out[i], run + r, us + r, us + total + r, us + 2 * total + r, ov);
        if (ov && ov->fault_us_per_mb > 0 && tgt.optimizer != OC_OPT_NONE && !outer_constant)
            charge_faults(&out[i], tgt.optimizer, ov->fault_us_per_mb);
    }
    return OC_OK;
}

/* A calibration's speed check (calib.h's oc_calib_speed): every time of
 * the run but its page faults (the kernel's, measured apart) times s. */
static void apply_speed(oc_estimate *e, double s)
{
    size_t n_nodes = oc_analysis_graph(e->analysis)->n_nodes;
    for (size_t i = 0; i < n_nodes; i++) {
        e->node_us[i] *= s;
        e->node_low_us[i] *= s;
        e->node_high_us[i] *= s;
    }
    for (size_t k = 0; k < e->plan.n_kernels; k++) {
        e->kernel_us[k] *= s;
        e->kernel_low_us[k] *= s;
        e->kernel_high_us[k] *= s;
        /* a control-flow kernel's subgraph estimate (made here, in the
         * arena, by control_kernel), as its kernels are listed */
        if (e->kernel_sub && e->kernel_sub[k])
            apply_speed((oc_estimate *)e->kernel_sub[k], s);
    }
    double *v[] = {&e->small_us,       &e->inserted_us,  &e->inner_us,       &e->inner_low_us,
                   &e->inner_high_us,  &e->inner_overhead_us, &e->kernels_us, &e->kernels_low_us,
                   &e->kernels_high_us, &e->overhead_us, &e->profiler_us,    &e->output_us,
                   &e->outside_us};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        *v[i] *= s;
    e->total_us = (e->total_us - e->fault_us) * s + e->fault_us;
    e->total_low_us = (e->total_low_us - e->fault_us) * s + e->fault_us;
    e->total_high_us = (e->total_high_us - e->fault_us) * s + e->fault_us;
}

oc_status oc_estimate_run_many(const oc_analysis *const *a, size_t n, const oc_tmodel *tm,
                               const oc_overhead *ov, oc_estimate *out, oc_arena *arena,
                               oc_error *err)
{
    /* What folds is decided on the model as the runtime loads it, before
     * any dim is bound: analyse it once more unbound when it has
     * symbolic input dims. */
    oc_analysis *own = NULL;
    if (n > 0) {
        oc_error ignored;
        oc_analyze_opts so = {.session_view = true};
        if (oc_analyze(oc_analysis_model(a[0]), &so, &own, &ignored) != OC_OK)
            own = NULL; /* plan on the bound analysis */
    }
    const oc_analysis **sessions = oc_arena_alloc(arena, (n + 1) * sizeof *sessions);
    if (!sessions) {
        oc_analysis_free(own);
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        sessions[i] = own;
    oc_status st = estimate_many(a, sessions, NULL, false, n, tm, ov, out, arena, err);
    oc_analysis_free(own);
    if (st == OC_OK && ov && ov->speed > 0 && ov->speed != 1)
        for (size_t i = 0; i < n; i++)
            apply_speed(&out[i], ov->speed);
    return st;
}

oc_status oc_estimate_run(const oc_analysis *a, const oc_tmodel *tm,
                          const oc_overhead *ov, oc_estimate *out, oc_arena *arena,
                          oc_error *err)
{
    return oc_estimate_run_many(&a, 1, tm, ov, out, arena, err);
}

static const oc_builtin_tmodel *builtin(const char *target)
{
    for (size_t i = 0; i < oc_n_builtin_tmodels; i++)
        if (strcmp(oc_builtin_tmodels[i].target, target) == 0)
            return &oc_builtin_tmodels[i];
    return NULL;
}

oc_status oc_default_tmodel(const char *target, oc_tmodel **out, oc_overhead *ov,
                            oc_error *err)
{
    *out = NULL;
    const oc_builtin_tmodel *b = builtin(target);
    if (!b)
        return oc_error_set(err, OC_ERR_IO, NULL,
                            "this build has no built-in timing model for %s (train one "
                            "with 'onnxcost train' and pass --timing-model)", target);
    char label[96];
    snprintf(label, sizeof label, "built-in %s timing model", target);
    oc_status st = oc_tmodel_from_payload(b->version, b->n_features, b->payload, b->size,
                                          label, out, err);
    if (st)
        return st;
    oc_tmodel_overhead(*out, 0, ov);
    return OC_OK;
}

size_t oc_builtin_calib_count(void) { return oc_n_builtin_calibs; }

oc_status oc_builtin_calib_get(size_t i, oc_calib *out, const char **path, oc_error *err)
{
    if (i >= oc_n_builtin_calibs)
        return oc_error_set(err, OC_ERR_USAGE, NULL, "no built-in calibration %zu", i);
    if (path)
        *path = oc_builtin_calibs[i].path;
    return oc_calib_loadb(oc_builtin_calibs[i].json, strlen(oc_builtin_calibs[i].json),
                          oc_builtin_calibs[i].path, out, err);
}

void oc_tmodel_overhead(const oc_tmodel *tm, int threads, oc_overhead *ov)
{
    oc_tmodel_fit f;
    *ov = (oc_overhead){.kernel_scale = 1};
    if (oc_tmodel_fit_at(tm, threads ? threads : oc_tmodel_get_info(tm)->threads, &f))
        *ov = (oc_overhead){.kernel_scale = f.kernel_scale,
                            .per_kernel_us = f.per_kernel_us,
                            .small_kernel_us = f.small_kernel_us,
                            .output_us_per_mb = f.output_us_per_mb,
                            .range_low = f.range_low,
                            .range_high = f.range_high};
}

void oc_overhead_calibrated(const oc_tmodel *tm, int threads, const oc_calib_fit *cf,
                            oc_overhead *ov)
{
    oc_tmodel_overhead(tm, threads, ov);
    if (!cf)
        return;
    ov->kernel_scale = cf->kernel_scale;
    ov->per_kernel_us = cf->per_kernel_us;
    const oc_calib *cal = oc_tmodel_calib(tm);
    ov->speed = cal && cal->speed.factor > 0 ? cal->speed.factor : 0;
    ov->kernel_floor_us = cf->n_chains ? cf->kernel_floor_us : 0;
    ov->small_kernel_us = oc_calib_small_kernel_us(cf, ov->small_kernel_us);
    ov->stream_gbps = cf->stream_gbps;
    ov->fault_us_per_mb = cf->fault_us_per_mb;
    ov->loop_trip_us = cf->loop_trip_us;
    ov->loop_run_us = cf->loop_run_us;
    ov->in_graph = cf;
    ov->curve = cf->n_curve >= 2 ? cf : NULL;
    ov->band = cf->n_band ? cf : NULL;
    if (cf->output_us_per_mb > 0)
        ov->output_us_per_mb = cf->output_us_per_mb;
}

oc_status oc_estimate_row_desc(const oc_estimate *e, size_t r, oc_node_desc *d,
                               oc_arena *arena, oc_error *err)
{
    if (r >= e->n_run)
        return oc_error_set(err, OC_ERR_USAGE, NULL, "no row %zu (of %zu)", r, e->n_run);
    const oc_kernel *kn = &e->plan.kernels[e->x_kernel[r]];
    bool is_layout;
    int v = layout_value(e->analysis, kn, &is_layout);
    return is_layout ? layout_desc(e->analysis, v, d, arena, err)
                     : kernel_desc(e->analysis, kn, d, arena, err);
}
