/* json.c - the JSON documents every command shares (json.h): one shape
 * for the same thing wherever it appears. */
#include "report/json.h"
#include "predictor/memory.h"
#include "predictor/result.h"
#include "predictor/sweep.h"

#include <string.h>

static json_t *dim_json(oc_dim d)
{
    char buf[128];
    if (oc_dim_is_known(d))
        return json_integer(d.v);
    if (oc_dim_is_unknown(d))
        return json_null();
    return json_string(oc_dim_str(d, buf, sizeof buf));
}

json_t *oc_json_shape(const oc_tinfo *t)
{
    if (!t || t->rank < 0)
        return json_null();
    json_t *a = json_array();
    for (int i = 0; i < t->rank; i++)
        json_array_append_new(a, dim_json(t->dims[i]));
    return a;
}

json_t *oc_json_decl_shape(const oc_value *v)
{
    if (v->rank < 0)
        return json_null();
    json_t *a = json_array();
    for (int i = 0; i < v->rank; i++)
        json_array_append_new(a, dim_json(v->dims[i]));
    return a;
}

static json_t *values_json(const oc_analysis *a, const oc_graph *g, const int *ids,
                           size_t n)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        if (ids[i] < 0) {
            json_object_set_new(o, "name", json_string(""));
            json_object_set_new(o, "dtype", json_null());
            json_object_set_new(o, "shape", json_null());
        } else {
            const oc_tinfo *t = oc_analysis_value(a, ids[i]);
            json_object_set_new(o, "name", json_string(g->values[ids[i]].name));
            json_object_set_new(o, "dtype", json_string(oc_dtype_name(t->dtype)));
            json_object_set_new(o, "shape", oc_json_shape(t));
        }
        json_array_append_new(arr, o);
    }
    return arr;
}

#define U(x) json_integer((json_int_t)(x))

json_t *oc_json_model(const oc_model *m)
{
    json_t *mo = json_object();
    json_object_set_new(mo, "file", json_string(oc_model_source(m)));
    json_object_set_new(mo, "ir_version", json_integer(oc_model_ir_version(m)));
    json_object_set_new(mo, "producer", json_string(oc_model_producer(m)));
    json_object_set_new(mo, "opset", json_integer(oc_model_opset(m, "")));
    return mo;
}

/* The nodes of graph g as analysis a has them, in run order; a control-flow
 * node whose subgraph the analysis ran (an If's branch, a Loop's or Scan's
 * body) carries it: "subgraph": {"runs": how many times one run of the
 * node runs it, "nodes": [...] for one of those runs}. */
static json_t *nodes_json(const oc_analysis *a, const oc_graph *g)
{
    json_t *nodes = json_array();
    for (size_t k = 0; k < g->n_nodes; k++) {
        size_t i = (size_t)g->topo[k];
        const oc_node *n = &g->nodes[i];
        const oc_node_cost *c = oc_analysis_node_cost(a, i);
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(n->name));
        json_object_set_new(o, "op", json_string(n->op));
        json_object_set_new(o, "domain", json_string(n->domain));
        json_object_set_new(o, "inputs", values_json(a, g, n->inputs, n->n_inputs));
        json_object_set_new(o, "outputs", values_json(a, g, n->outputs, n->n_outputs));
        json_object_set_new(o, "macs", U(c->macs));
        json_object_set_new(o, "flops", U(c->flops));
        json_object_set_new(o, "params", U(c->params));
        json_object_set_new(o, "bytes_read", U(c->bytes_read));
        json_object_set_new(o, "bytes_written", U(c->bytes_written));
        json_object_set_new(o, "shapes_known", json_boolean(c->shapes_known));
        json_object_set_new(o, "supported", json_boolean(c->supported));
        int64_t times;
        const oc_analysis *sub = oc_analysis_sub(a, i, &times);
        if (sub) {
            json_t *so = json_object();
            json_object_set_new(so, "runs", json_integer(times));
            json_object_set_new(so, "nodes", nodes_json(sub, oc_analysis_graph(sub)));
            json_object_set_new(o, "subgraph", so);
        }
        json_array_append_new(nodes, o);
    }
    return nodes;
}

json_t *oc_json_analysis(const oc_model *m, const oc_analysis *a)
{
    const oc_graph *g = oc_model_graph(m);
    const oc_totals *t = oc_analysis_totals(a);
    json_t *j = json_object();
    json_object_set_new(j, "model", oc_json_model(m));
    json_object_set_new(j, "unbound_dims", oc_json_list(oc_analysis_assumed(a)));
    json_object_set_new(j, "data_dims", oc_json_list(oc_analysis_unknown_dims(a)));
    json_object_set_new(j, "inputs", values_json(a, g, g->inputs, g->n_inputs));
    json_object_set_new(j, "outputs", values_json(a, g, g->outputs, g->n_outputs));
    json_object_set_new(j, "nodes", nodes_json(a, g));
    json_t *to = json_object();
    json_object_set_new(to, "nodes", U(t->nodes));
    json_object_set_new(to, "macs", U(t->macs));
    json_object_set_new(to, "flops", U(t->flops));
    json_object_set_new(to, "params", U(t->params));
    json_object_set_new(to, "bytes_read", U(t->bytes_read));
    json_object_set_new(to, "bytes_written", U(t->bytes_written));
    json_object_set_new(to, "peak_activation_bytes", U(t->peak_activation_bytes));
    json_object_set_new(to, "weight_bytes", U(t->weight_bytes));
    json_object_set_new(to, "unknown_shape_nodes", U(t->unknown_shape_nodes));
    json_object_set_new(to, "unsupported_nodes", U(t->unsupported_nodes));
    json_object_set_new(to, "batch", json_integer(oc_analysis_batch(a)));
    json_object_set_new(j, "totals", to);
    json_t *w = json_array();
    for (size_t i = 0; i < oc_analysis_n_warnings(a); i++) {
        const oc_warning *x = oc_analysis_warning(a, i);
        json_t *o = json_object();
        json_object_set_new(o, "node", json_string(x->node));
        json_object_set_new(o, "message", json_string(x->msg));
        json_array_append_new(w, o);
    }
    json_object_set_new(j, "warnings", w);
    return j;
}

json_t *oc_json_list(const char *list)
{
    json_t *arr = json_array();
    for (const char *p = list; *p;) {
        size_t l = strcspn(p, ",");
        json_array_append_new(arr, json_stringn(p, l));
        p += l;
        if (*p)
            p++;
    }
    return arr;
}

/* The kernels of e that run, in run order (oc_estimate_each_kernel),
 * appended to arr; "subgraph_of" names the If whose inlined branch a
 * kernel came from, or, for what runs inside an If, Loop or Scan the
 * runtime keeps, that node: such a kernel lists its subgraph's kernels
 * (per run) under "kernels", with "times" the runs per inference. */
typedef struct kernels_ctx {
    json_t *arr;
    const char *inside; /* the kept control-flow node e runs in, or NULL */
} kernels_ctx;

static bool kernel_into(const oc_estimate *e, size_t q, const char *name, const char *from,
                        void *ud)
{
    kernels_ctx *c = ud;
    const oc_graph *g = oc_analysis_graph(e->analysis);
    const oc_kernel *k = &e->plan.kernels[q];
    const oc_estimate *sub = e->kernel_sub ? e->kernel_sub[q] : NULL;
    json_t *nodes = json_array();
    double us = e->kernel_us[q], lo = e->kernel_low_us[q], hi = e->kernel_high_us[q];
    if (k->main != OC_PLAN_INSERTED) {
        json_array_append_new(nodes, json_string(g->nodes[k->main].name));
        for (size_t f = 0; f < k->n_fused; f++)
            json_array_append_new(nodes, json_string(g->nodes[k->fused[f]].name));
    }
    json_t *o = json_pack("{s:s, s:s, s:o, s:f, s:f, s:f}", "name", name, "op", k->op,
                          "nodes", nodes, "time_us", us, "time_us_low", lo, "time_us_high", hi);
    if (from || c->inside)
        json_object_set_new(o, "subgraph_of", json_string(from ? from : c->inside));
    if (k->main == OC_PLAN_INSERTED && k->value >= 0) {
        json_object_set_new(o, "tensor", json_string(g->values[k->value].name));
        json_object_set_new(o, "costed_as", json_string("Transpose"));
    }
    if (k->main != OC_PLAN_INSERTED && e->node_unknown[k->main])
        json_object_set_new(o, "unknown", json_string(e->node_unknown[k->main]));
    if (k->main != OC_PLAN_INSERTED && e->node_outside[k->main])
        json_object_set_new(o, "extrapolated", json_string(e->node_outside[k->main]));
    if (sub) {
        kernels_ctx inner = {json_array(), g->nodes[k->main].name};
        oc_estimate_each_kernel(sub, kernel_into, &inner);
        json_object_set_new(o, "times", json_integer((json_int_t)e->kernel_times[q]));
        json_object_set_new(o, "kernels", inner.arr);
    }
    json_array_append_new(c->arr, o);
    return true;
}

size_t oc_kernel_entries(const oc_estimate *e, size_t k)
{
    const oc_kernel *kn = &e->plan.kernels[k];
    if (kn->kind != OC_KERNEL_RUN)
        return 0;
    const oc_estimate *sub = e->kernel_sub ? e->kernel_sub[k] : NULL;
    return kn->inlined && sub ? oc_estimate_n_kernels(sub) : 1;
}

json_t *oc_json_kernels(const oc_estimate *e)
{
    kernels_ctx c = {json_array(), NULL};
    oc_estimate_each_kernel(e, kernel_into, &c);
    return c.arr;
}

json_t *oc_json_target(const oc_tmodel *tm, const oc_target_sel *tgt, oc_optimizer optimizer)
{
    const oc_tmodel_info *info = oc_tmodel_get_info(tm);
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(info->target));
    json_object_set_new(o, "runtime", json_string(info->runtime));
    json_object_set_new(o, "cpu", json_string(info->cpu));
    json_object_set_new(o, "threads", json_integer(info->threads));
    json_object_set_new(o, "mode", json_string(optimizer != OC_OPT_NONE ? "training" : "inference"));
    json_object_set_new(o, "optimizer", optimizer != OC_OPT_NONE
                                            ? json_string(oc_optimizer_name(optimizer))
                                            : json_null());
    json_object_set_new(o, "machine", tgt->machine[0] ? json_string(tgt->machine) : json_null());
    json_object_set_new(o, "model_machine",
                        info->machine[0] ? json_string(info->machine) : json_null());
    json_object_set_new(o, "calibrated", json_boolean(tgt->calibrated));
    json_object_set_new(o, "calibration", tgt->source[0] ? json_string(tgt->source) : json_null());
    json_object_set_new(o, "this_machine", json_boolean(tgt->this_machine));
    json_object_set_new(o, "nearest", json_boolean(tgt->nearest));
    json_object_set_new(o, "label", json_string(tgt->label));
    const char *fit = oc_tmodel_fit_source(tm);
    json_object_set_new(o, "in_graph_fit", fit ? json_string(fit) : json_null());
    /* whether the timing model learned this thread count (else every
     * kernel's time is an extrapolation), and what was said on stderr */
    json_object_set_new(o, "threads_measured",
                        json_boolean(oc_tmodel_has_threads(tm, info->threads)));
    json_t *w = json_array();
    for (size_t k = 0; k < tgt->n_warnings; k++)
        json_array_append_new(w, json_string(tgt->warnings[k]));
    json_object_set_new(o, "warnings", w);
    return o;
}


/* The time a node reports under the chosen baseline (or the model). */
double oc_baseline_node_us(const oc_estimate *e, const char *baseline, size_t i)
{
    if (baseline && !strcmp(baseline, "linear"))
        return e->node_linear_us[i];
    if (baseline && !strcmp(baseline, "roofline"))
        return e->node_roofline_us[i];
    return e->node_us[i];
}

double oc_baseline_total_us(const oc_estimate *e, const char *baseline)
{
    if (baseline && !strcmp(baseline, "linear"))
        return e->linear_us + e->overhead_us;
    if (baseline && !strcmp(baseline, "roofline"))
        return e->roofline_us + e->overhead_us;
    return e->total_us;
}

json_t *oc_json_predict(const oc_model *m, const oc_analysis *a, const oc_estimate *e,
                        const char *baseline, oc_optimizer optimizer, int64_t dataset_size,
                        int64_t epochs, const oc_tmodel *tm, const oc_target_sel *tgt)
{
    const oc_graph *g = oc_model_graph(m);
    bool training = optimizer != OC_OPT_NONE;
    json_t *j = oc_json_analysis(m, a);
    json_t *nodes = json_object_get(j, "nodes");
    for (size_t k = 0; k < g->n_nodes; k++) {
        size_t i = (size_t)g->topo[k];
        json_t *o = json_array_get(nodes, k);
        const char *note = oc_node_kernel_note(g, e, i);
        bool sub = baseline != NULL;
        json_object_set_new(o, "time_us", json_real(oc_baseline_node_us(e, baseline, i)));
        json_object_set_new(o, "time_us_low", json_real(sub ? oc_baseline_node_us(e, baseline, i) : e->node_low_us[i]));
        json_object_set_new(o, "time_us_high", json_real(sub ? oc_baseline_node_us(e, baseline, i) : e->node_high_us[i]));
        json_object_set_new(o, "linear_us", json_real(e->node_linear_us[i]));
        json_object_set_new(o, "roofline_us", json_real(e->node_roofline_us[i]));
        if (note && (!strcmp(note, "folded") || !strcmp(note, "removed")))
            json_object_set_new(o, "kernel", json_string(note));
        else if (note)
            json_object_set_new(o, "fused_into", json_string(note));
        const oc_kernel *kn = &e->plan.kernels[e->plan.kernel_of[i]];
        if (kn->main == i && kn->as_op)
            json_object_set_new(o, "runs_as", json_string(kn->as_op));
        if (kn->main == i && e->kernel_sub[e->plan.kernel_of[i]]) {
            /* its time is what runs inside it: the subgraph's kernels */
            json_object_set_new(o, "subgraph_runs",
                                json_integer((json_int_t)e->kernel_times[e->plan.kernel_of[i]]));
            if (kn->inlined)
                json_object_set_new(o, "kernel", json_string("inlined"));
        }
        if (e->node_unknown[i])
            json_object_set_new(o, "unknown", json_string(e->node_unknown[i]));
        if (e->node_outside[i])
            json_object_set_new(o, "extrapolated", json_string(e->node_outside[i]));
    }
    json_t *t = json_object_get(j, "totals");
    bool sub = baseline != NULL;
    double total = oc_baseline_total_us(e, baseline);
    json_object_set_new(t, "time_ms", json_real(total / 1e3));
    json_object_set_new(t, "time_ms_low", json_real((sub ? total : e->total_low_us) / 1e3));
    json_object_set_new(t, "time_ms_high", json_real((sub ? total : e->total_high_us) / 1e3));
    json_object_set_new(t, "kernels", json_integer((json_int_t)(e->plan.n_run + e->n_inner_run)));
    json_object_set_new(t, "uncounted_nodes", json_integer((json_int_t)e->n_uncounted_nodes));
    json_object_set_new(t, "extrapolated_kernels", json_integer((json_int_t)e->n_outside));
    json_object_set_new(t, "extrapolated_ms", json_real(e->outside_us / 1e3));
    json_object_set_new(j, "kernels", oc_json_kernels(e));
    json_object_set_new(t, "inserted_kernels", json_integer((json_int_t)e->n_inserted));
    json_object_set_new(t, "inserted_ms", json_real(e->inserted_us / 1e3));
    json_object_set_new(t, "overhead_ms", json_real(e->overhead_us / 1e3));
    json_object_set_new(t, "profiler_ms", json_real(e->profiler_us / 1e3));
    json_object_set_new(t, "output_bytes", json_integer((json_int_t)e->output_bytes));
    json_object_set_new(t, "output_large_bytes",
                        json_integer((json_int_t)e->output_fresh_bytes));
    json_object_set_new(t, "output_ms", json_real(e->output_us / 1e3));
    if (training)
        json_object_set_new(t, "fault_ms", json_real(e->fault_us / 1e3));
    json_object_set_new(t, "kernels_raw_ms", json_real(e->kernels_raw_us / 1e3));
    json_object_set_new(t, "linear_ms", json_real((e->linear_us + e->overhead_us) / 1e3));
    json_object_set_new(t, "roofline_ms", json_real((e->roofline_us + e->overhead_us) / 1e3));
    oc_train_memory mem;
    if (training)
        oc_training_memory(a, &e->plan, optimizer, &mem);
    json_object_set_new(t, "memory_bytes",
                        json_integer((json_int_t)(training
                                                      ? mem.total
                                                      : oc_step_memory(a, &e->plan,
                                                                        OC_OPT_NONE))));
    if (training)
        json_object_set_new(t, "training_memory",
                            json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
                                      "weights_bytes", (json_int_t)mem.weights,
                                      "gradients_bytes", (json_int_t)mem.gradients,
                                      "optimizer_state_bytes", (json_int_t)mem.optimizer_state,
                                      "activations_bytes", (json_int_t)mem.activations,
                                      "total_bytes", (json_int_t)mem.total, "fresh_bytes",
                                      (json_int_t)mem.fresh, "fresh_large_bytes",
                                      (json_int_t)mem.fresh_large, "heap_churn_bytes",
                                      (json_int_t)mem.heap_churn));
    int64_t batch = oc_analysis_batch(a);
    json_object_set_new(t, "batch", json_integer(batch));
    json_object_set_new(t, "throughput_per_s", json_real(total > 0 ? batch * 1e6 / total : 0));
    if (dataset_size) {
        int64_t steps = (dataset_size + batch - 1) / batch;
        json_object_set_new(t, "steps_per_epoch", json_integer(steps));
        json_object_set_new(t, "epoch_s", json_real(steps * total / 1e6));
        json_object_set_new(t, "epochs", json_integer(epochs));
        json_object_set_new(t, "total_s", json_real(epochs * steps * total / 1e6));
    }
    json_t *tg = oc_json_target(tm, tgt, optimizer);
    json_object_set_new(tg, "baseline", baseline ? json_string(baseline) : json_null());
    json_object_set_new(j, "target", tg);
    return j;
}


/* ---- info: the model without analysis ---- */

static int by_count(const void *a, const void *b)
{
    const oc_op_count *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    return strcmp(x->name, y->name);
}

oc_op_count *oc_op_histogram(const oc_graph *g, size_t *n_out)
{
    oc_op_count *h = calloc(g->n_nodes + 1, sizeof *h);
    size_t n = 0;
    if (!h)
        return NULL;
    for (size_t i = 0; i < g->n_nodes; i++) {
        const oc_node *nd = &g->nodes[i];
        size_t k;
        for (k = 0; k < n; k++)
            if (!strcmp(h[k].name, nd->op))
                break;
        if (k == n)
            h[n++].name = nd->op;
        h[k].n++;
    }
    qsort(h, n, sizeof *h, by_count);
    *n_out = n;
    return h;
}

size_t oc_model_n_external(const oc_graph *g)
{
    size_t n = 0;
    for (size_t i = 0; i < g->n_values; i++)
        n += g->values[i].is_initializer && g->values[i].constant->external;
    return n;
}

static json_t *io_json(const oc_graph *g, const int *ids, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        const oc_value *v = &g->values[ids[i]];
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(v->name));
        json_object_set_new(o, "dtype", json_string(oc_dtype_name(v->dtype)));
        json_object_set_new(o, "shape", oc_json_decl_shape(v));
        json_array_append_new(a, o);
    }
    return a;
}

json_t *oc_json_info(const oc_model *m)
{
    const oc_graph *g = oc_model_graph(m);
    json_t *j = json_object();
    json_object_set_new(j, "file", json_string(oc_model_source(m)));
    json_object_set_new(j, "file_bytes", json_integer((json_int_t)oc_model_file_size(m)));
    json_object_set_new(j, "compression",
                        json_string(oc_model_compression(m) == OC_GZIP ? "gzip" : "none"));
    json_object_set_new(j, "ir_version", json_integer(oc_model_ir_version(m)));
    json_object_set_new(j, "producer", json_string(oc_model_producer(m)));
    json_object_set_new(j, "producer_version", json_string(oc_model_producer_version(m)));
    json_t *ops = json_array();
    for (size_t i = 0; i < oc_model_n_opsets(m); i++) {
        json_t *o = json_object();
        json_object_set_new(o, "domain", json_string(oc_model_opsets(m)[i].domain));
        json_object_set_new(o, "version", json_integer(oc_model_opsets(m)[i].version));
        json_array_append_new(ops, o);
    }
    json_object_set_new(j, "opsets", ops);
    json_object_set_new(j, "inputs", io_json(g, g->inputs, g->n_inputs));
    json_object_set_new(j, "outputs", io_json(g, g->outputs, g->n_outputs));
    json_object_set_new(j, "nodes", json_integer((json_int_t)g->n_nodes));
    size_t nh;
    oc_op_count *h = oc_op_histogram(g, &nh);
    json_t *hist = json_object();
    for (size_t i = 0; h && i < nh; i++)
        json_object_set_new(hist, h[i].name, json_integer((json_int_t)h[i].n));
    free(h);
    json_object_set_new(j, "operators", hist);
    json_object_set_new(j, "initializers", json_integer((json_int_t)g->n_initializers));
    json_object_set_new(j, "external_initializers", json_integer((json_int_t)oc_model_n_external(g)));
    json_object_set_new(j, "params", json_integer((json_int_t)oc_model_param_count(m)));
    json_object_set_new(j, "weight_bytes", json_integer((json_int_t)oc_model_weight_bytes(m)));
    return j;
}
