/* result.c - node and kernel words shared by the command and the API, and
 * the annotation of a model with its prediction. */
#include "predictor/result.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#ifndef OC_VERSION
#error "OC_VERSION is set by the build"
#endif

const char *oc_kernel_name(const oc_graph *g, const oc_kernel *k, char *buf, size_t size)
{
    if (k->main == OC_PLAN_INSERTED)
        return k->op;
    if (k->value < 0)
        return g->nodes[k->main].name;
    snprintf(buf, size, "%s_nchwc", g->values[k->value].name);
    return buf;
}

void oc_inline_names_init(oc_inline_names *n, const oc_inline_names *outer,
                          const oc_graph *parent, size_t if_node, const oc_graph *branch)
{
    const oc_node *nd = &parent->nodes[if_node];
    const oc_attr *then = oc_node_attr(nd, "then_branch");
    char name[512];
    n->outer = outer;
    n->parent = parent;
    n->if_node = if_node;
    n->g = branch;
    snprintf(n->prefix, sizeof n->prefix, "%.480s%s_",
             oc_inline_node_name(outer, parent, if_node, name, sizeof name),
             then && then->g == branch ? "then_branch" : "else_branch");
}

const char *oc_inline_node_name(const oc_inline_names *n, const oc_graph *g, size_t node,
                                char *buf, size_t size)
{
    if (!n)
        return g->nodes[node].name;
    snprintf(buf, size, "%s%s", n->prefix, n->g->nodes[node].name);
    return buf;
}

const char *oc_inline_value_name(const oc_inline_names *n, const oc_graph *g, int v, char *buf,
                                 size_t size)
{
    if (!n)
        return g->values[v].name;
    const oc_value *val = &n->g->values[v];
    for (size_t i = 0; i < n->g->n_outputs; i++) {
        const oc_node *nd = &n->parent->nodes[n->if_node];
        if (n->g->outputs[i] == v && i < nd->n_outputs && nd->outputs[i] >= 0)
            return oc_inline_value_name(n->outer, n->parent, nd->outputs[i], buf, size);
    }
    if (val->is_outer)
        return val->name;
    snprintf(buf, size, "%s%s", n->prefix, val->name);
    return buf;
}

const char *oc_inline_kernel_name(const oc_inline_names *n, const oc_graph *g,
                                  const oc_kernel *k, char *buf, size_t size)
{
    if (k->main == OC_PLAN_INSERTED)
        return k->op;
    if (k->value < 0)
        return oc_inline_node_name(n, g, k->main, buf, size);
    char v[512];
    snprintf(buf, size, "%s_nchwc", oc_inline_value_name(n, g, k->value, v, sizeof v));
    return buf;
}

static bool each_kernel(const oc_estimate *e, const oc_inline_names *names, const char *from,
                        oc_kernel_visit fn, void *ud)
{
    const oc_graph *g = oc_analysis_graph(e->analysis);
    for (size_t q = 0; q < e->plan.n_kernels; q++) {
        const oc_kernel *k = &e->plan.kernels[q];
        if (k->kind != OC_KERNEL_RUN)
            continue;
        const oc_estimate *sub = e->kernel_sub ? e->kernel_sub[q] : NULL;
        if (k->inlined && sub) {
            oc_inline_names in;
            oc_inline_names_init(&in, names, g, k->main, oc_analysis_graph(sub->analysis));
            if (!each_kernel(sub, &in, g->nodes[k->main].name, fn, ud))
                return false;
            continue;
        }
        char buf[512];
        if (!fn(e, q, oc_inline_kernel_name(names, g, k, buf, sizeof buf), from, ud))
            return false;
    }
    return true;
}

bool oc_estimate_each_kernel(const oc_estimate *e, oc_kernel_visit fn, void *ud)
{
    return each_kernel(e, NULL, NULL, fn, ud);
}

static bool count_one(const oc_estimate *e, size_t k, const char *name, const char *from,
                      void *ud)
{
    (void)e, (void)k, (void)name, (void)from;
    ++*(size_t *)ud;
    return true;
}

size_t oc_estimate_n_kernels(const oc_estimate *e)
{
    size_t n = 0;
    oc_estimate_each_kernel(e, count_one, &n);
    return n;
}

const char *oc_node_kernel_note(const oc_graph *g, const oc_estimate *e, size_t i)
{
    const oc_kernel *k = &e->plan.kernels[e->plan.kernel_of[i]];
    if (k->kind == OC_KERNEL_FOLDED)
        return "folded";
    if (k->kind == OC_KERNEL_REMOVED)
        return "removed";
    if (k->main != i)
        return g->nodes[k->main].name;
    return NULL;
}

/* The folder of path as stat sees it: 0 or -1. */
static int folder_of(const char *path, struct stat *sb)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path),
                      path) >= (int)sizeof dir)
        return -1;
    return stat(dir, sb);
}

bool oc_external_copy_ok(const oc_model *m, const char *in, const char *out)
{
    if (!oc_model_external_count(m, NULL) || !oc_model_dir(m))
        return true;
    struct stat a, b;
    return folder_of(in, &a) == 0 && folder_of(out, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

void oc_target_line(const oc_tmodel *tm, const char *label, char *buf, size_t n)
{
    const oc_tmodel_info *info = oc_tmodel_get_info(tm);
    snprintf(buf, n, "%s %s, %d thread%s%s%s; %s", info->target, info->runtime, info->threads,
             info->threads == 1 ? "" : "s",
             info->optimizer != OC_OPT_NONE ? ", training step with " : "",
             info->optimizer != OC_OPT_NONE ? oc_optimizer_name(info->optimizer) : "", label);
}

static oc_status meta_u64(oc_model *m, const oc_graph *g, size_t node, const char *key,
                          uint64_t v, oc_error *err)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return oc_model_graph_node_set_meta(m, g, node, key, buf, err);
}

/* The nodes of e's graph (e->analysis's: the main graph, or the subgraph
 * a control-flow node runs), then those of the subgraphs its If, Loop and
 * Scan nodes run.  `inside`: the node whose subgraph this is (NULL for
 * the main graph), `times` its runs; the times are per run. */
static oc_status annotate_graph(oc_model *m, const oc_estimate *e, const char *inside,
                                int64_t times, oc_error *err)
{
    const oc_analysis *a = e->analysis;
    const oc_graph *g = oc_analysis_graph(a);
    oc_status st = OC_OK;
    char buf[512], where[256] = "";
    if (inside && times == 1)
        snprintf(where, sizeof where, " (in '%s')", inside);
    else if (inside)
        snprintf(where, sizeof where, " (per run of '%s', %" PRId64 " runs)", inside, times);
    for (size_t i = 0; i < g->n_nodes && !st; i++) {
        const oc_node_cost *c = oc_analysis_node_cost(a, i);
        size_t q = e->plan.kernel_of[i];
        const oc_kernel *k = &e->plan.kernels[q];
        uint64_t bytes = c->bytes_read + c->bytes_written;
        const char *how = k->kind == OC_KERNEL_FOLDED    ? " (folded)"
                          : k->kind == OC_KERNEL_REMOVED ? " (removed)"
                          : k->inlined                   ? " (inlined: its branch runs)"
                          : k->main != i                 ? " (fused)"
                                                         : "";
        if (e->node_unknown[i]) {
            /* no time: not a zero */
            snprintf(buf, sizeof buf, "onnxcost: not counted: %s", e->node_unknown[i]);
            st = oc_model_graph_node_append_doc(m, g, i, buf, err);
            if (!st)
                st = oc_model_graph_node_set_meta(m, g, i, "onnxcost.unknown",
                                                  e->node_unknown[i], err);
        } else {
            snprintf(buf, sizeof buf,
                     "onnxcost: time_us=%.3f macs=%" PRIu64 " flops=%" PRIu64
                     " bytes=%" PRIu64 " params=%" PRIu64 "%s%s",
                     e->node_us[i], c->macs, c->flops, bytes, c->params, how, where);
            st = oc_model_graph_node_append_doc(m, g, i, buf, err);
            snprintf(buf, sizeof buf, "%.3f", e->node_us[i]);
            if (!st)
                st = oc_model_graph_node_set_meta(m, g, i, "onnxcost.time_us", buf, err);
            if (!st)
                st = meta_u64(m, g, i, "onnxcost.macs", c->macs, err);
            if (!st)
                st = meta_u64(m, g, i, "onnxcost.flops", c->flops, err);
            if (!st)
                st = meta_u64(m, g, i, "onnxcost.bytes", bytes, err);
            if (!st)
                st = meta_u64(m, g, i, "onnxcost.params", c->params, err);
            if (!st && k->main != i)
                st = oc_model_graph_node_set_meta(m, g, i, "onnxcost.fused_into",
                                                  g->nodes[k->main].name, err);
        }
        if (!st && k->main == i && e->kernel_sub && e->kernel_sub[q])
            st = annotate_graph(m, e->kernel_sub[q], g->nodes[i].name, e->kernel_times[q], err);
    }
    return st;
}

oc_status oc_annotate_model(oc_model *m, const oc_analysis *a, const oc_estimate *e,
                            const char *target_line, oc_error *err)
{
    oc_status st = annotate_graph(m, e, NULL, 1, err);
    if (st)
        return st;
    const oc_totals *t = oc_analysis_totals(a);
    struct {
        const char *key;
        char val[512];
    } kv[8] = {{"onnxcost.time_ms", ""},
               {"onnxcost.batch", ""},
               {"onnxcost.target", ""},
               {"onnxcost.macs", ""},
               {"onnxcost.flops", ""},
               {"onnxcost.params", ""},
               {"onnxcost.peak_activation_bytes", ""},
               {"onnxcost.version", ""}};
    snprintf(kv[0].val, sizeof kv[0].val, "%.4f", e->total_us / 1e3);
    snprintf(kv[1].val, sizeof kv[1].val, "%" PRId64, oc_analysis_batch(a));
    snprintf(kv[2].val, sizeof kv[2].val, "%s", target_line);
    snprintf(kv[3].val, sizeof kv[3].val, "%" PRIu64, t->macs);
    snprintf(kv[4].val, sizeof kv[4].val, "%" PRIu64, t->flops);
    snprintf(kv[5].val, sizeof kv[5].val, "%" PRIu64, t->params);
    snprintf(kv[6].val, sizeof kv[6].val, "%" PRIu64, t->peak_activation_bytes);
    snprintf(kv[7].val, sizeof kv[7].val, "%s", OC_VERSION);
    for (int q = 0; q < 8 && !st; q++)
        st = oc_model_set_meta(m, kv[q].key, kv[q].val, err);
    if (!st && e->n_uncounted_nodes) {
        snprintf(kv[0].val, sizeof kv[0].val, "%zu", e->n_uncounted_nodes);
        st = oc_model_set_meta(m, "onnxcost.uncounted_nodes", kv[0].val, err);
    }
    return st;
}

/* Kernels predicted outside the timing model's data, said once (result.h). */
const char *oc_estimate_outside_note(const oc_analysis *a, const oc_estimate *e, char *buf,
                                     size_t size)
{
    enum { MAX_OPS = 8, MAX_BIG = 2 };
    static const char none[] = OC_TMODEL_NO_SAMPLE, at[] = OC_TMODEL_NO_THREADS;
    if (!e->n_outside)
        return NULL;
    size_t nn = oc_model_graph(oc_analysis_model(a))->n_nodes;
    const char *ops[MAX_OPS + 1], *big[MAX_BIG + 1];
    size_t ops_len[MAX_OPS + 1], n_ops = 0, n_big = 0, n_at = 0;
    double at_us = 0;
    bool more_ops = false, more_big = false;
    for (size_t i = 0; i < nn; i++) {
        const char *w = e->node_outside[i];
        if (!w)
            continue;
        if (!strncmp(w, at, sizeof at - 1)) {
            /* a thread count never learned: the target's warning says it */
            n_at++;
            at_us += e->node_us[i];
            continue;
        }
        if (!strncmp(w, none, sizeof none - 1)) {
            /* the operator, and its element type where that is what no
             * sample had: "ReduceSum on int64" */
            const char *op = w + sizeof none - 1, *end = strstr(op, OC_TMODEL_IN_DATA);
            size_t l = end ? (size_t)(end - op) : strlen(op), j = 0;
            while (j < n_ops && (ops_len[j] != l || strncmp(ops[j], op, l)))
                j++;
            if (j == n_ops && n_ops < MAX_OPS) {
                ops[n_ops] = op;
                ops_len[n_ops++] = l;
            } else if (j == n_ops) {
                more_ops = true;
            }
        } else {
            /* sizes beyond the data, each reason listed once */
            size_t j = 0;
            while (j < n_big && strcmp(big[j], w))
                j++;
            if (j == n_big && n_big < MAX_BIG)
                big[n_big++] = w;
            else if (j == n_big)
                more_big = true;
        }
    }
    size_t n = e->n_outside - n_at;
    if (!n)
        return NULL;
    char list[768];
    size_t len = 0;
    for (size_t j = 0; j < n_ops && len < sizeof list; j++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%.*s",
                                j ? ", " : "no samples of ", (int)ops_len[j], ops[j]);
    if (more_ops && len < sizeof list)
        len += (size_t)snprintf(list + len, sizeof list - len, ", ...");
    for (size_t j = 0; j < n_big && len < sizeof list; j++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? "; " : "", big[j]);
    if (more_big && len < sizeof list)
        snprintf(list + len, sizeof list - len, "; ...");
    double total = e->kernels_us > 0 ? e->kernels_us : 1;
    snprintf(buf, size,
             "%zu kernel%s (%.0f%% of the predicted kernel time) %s extrapolated beyond the "
             "timing model's data: %s",
             n, n == 1 ? "" : "s", 100 * fmax(0, e->outside_us - at_us) / total,
             n == 1 ? "is" : "are", list);
    return buf;
}
