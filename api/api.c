/* api.c - the public interface (include/onnxcost.h) over the library: each
 * handle wraps the internal object and keeps the strings it hands out. */
#include "onnxcost.h"

#include "analyzer/analyzer.h"
#include "onnx/model.h"
#include "predictor/estimate.h"
#include "predictor/memory.h"
#include "predictor/result.h"
#include "predictor/sweep.h"
#include "predictor/target.h"

#include <stdlib.h>
#include <string.h>

#ifndef OC_VERSION
#error "OC_VERSION is set by the build"
#endif

/* The public codes are the library's, value for value. */
#define XX(name, str) _Static_assert((int)ONNXCOST_##name == (int)OC_##name, #name);
ONNXCOST_STATUS_MAP(XX)
#undef XX

struct onnxcost_model {
    oc_model *m;
    bool annotated; /* its nodes carry one prediction already */
};

typedef struct dim_entry {
    char *name;
    int64_t value;
} dim_entry;

typedef struct input_entry {
    char *name;
    int rank;
    int64_t dims[OC_MAX_RANK];
} input_entry;

struct onnxcost_bindings {
    int64_t batch;
    dim_entry *dims;
    size_t n_dims, cap_dims;
    dim_entry *assumes; /* sizes of dims that depend on the data */
    size_t n_assumes, cap_assumes;
    input_entry *inputs;
    size_t n_inputs, cap_inputs;
};

struct onnxcost_analysis {
    oc_analysis *a;
    const onnxcost_model *model;
    oc_arena *ar;            /* the strings handed out */
    const char **unbound;    /* oc_analysis_assumed split */
    size_t n_unbound;
    const char **data_dims;  /* oc_analysis_unknown_dims split */
    size_t n_data_dims;
    const char **shapes;     /* per node (graph index): the first output's shape */
};

struct onnxcost_predictor {
    oc_tmodel *tm;
    oc_overhead ov;
    oc_target_sel sel;
    char optimizer[16];
    char mode[16];
};

struct onnxcost_prediction {
    const onnxcost_analysis *an;
    oc_optimizer optimizer;
    oc_arena *ar;
    oc_estimate e;
    /* the kernels that run, in run order (an If the runtime inlines: its
     * branch's kernels in its place): each one's estimate and index in
     * its plan, and its profiler name */
    const oc_estimate **run_e;
    size_t *run;
    size_t n_run, cap_run;
    const char **kname;
};

/* ---- errors ---- */

static _Thread_local char last_error[sizeof ((oc_error *)0)->msg];

const char *onnxcost_version(void) { return OC_VERSION; }

const char *onnxcost_status_str(onnxcost_status s)
{
    /* the same table (onnx/common.h takes its map from the header) */
    return oc_status_str((oc_status)s);
}

const char *onnxcost_last_error(void) { return last_error; }

static onnxcost_status fail(const oc_error *err)
{
    snprintf(last_error, sizeof last_error, "%s",
             err->msg[0] ? err->msg : oc_status_str(err->status));
    return (onnxcost_status)(err->status ? err->status : OC_ERR_INTERNAL);
}

static onnxcost_status fail_with(onnxcost_status st, const char *msg)
{
    snprintf(last_error, sizeof last_error, "%s", msg);
    return st;
}

#define NOMEM() fail_with(ONNXCOST_ERR_NOMEM, "out of memory")
/* A status-returning function refuses a NULL handle or out pointer. */
#define NEED(cond)                                                            \
    do {                                                                      \
        if (!(cond))                                                          \
            return fail_with(ONNXCOST_ERR_USAGE, "a NULL argument");          \
    } while (0)

/* ---- models ---- */

static onnxcost_status wrap_model(oc_status st, oc_model *m, const oc_error *err,
                                  onnxcost_model **out)
{
    if (st != OC_OK)
        return fail(err);
    onnxcost_model *w = calloc(1, sizeof *w);
    if (!w) {
        oc_model_free(m);
        return NOMEM();
    }
    w->m = m;
    *out = w;
    return ONNXCOST_OK;
}

onnxcost_status onnxcost_model_load(const char *path, onnxcost_model **out)
{
    if (!out)
        return fail_with(ONNXCOST_ERR_USAGE, "onnxcost_model_load: out is NULL");
    *out = NULL;
    if (!path)
        return fail_with(ONNXCOST_ERR_USAGE, "onnxcost_model_load: path is NULL");
    oc_error err;
    oc_error_clear(&err);
    oc_model *m = NULL;
    oc_status st = oc_model_load_file(path, &m, &err);
    return wrap_model(st, m, &err, out);
}

onnxcost_status onnxcost_model_load_buffer(const void *data, size_t size, const char *label,
                                           onnxcost_model **out)
{
    if (!out)
        return fail_with(ONNXCOST_ERR_USAGE, "onnxcost_model_load_buffer: out is NULL");
    *out = NULL;
    if (!data && size)
        return fail_with(ONNXCOST_ERR_USAGE, "onnxcost_model_load_buffer: data is NULL");
    oc_error err;
    oc_error_clear(&err);
    oc_model *m = NULL;
    oc_status st = oc_model_load_buffer(data ? data : "", size, label ? label : "<buffer>", &m,
                                        &err);
    return wrap_model(st, m, &err, out);
}

void onnxcost_model_free(onnxcost_model *m)
{
    if (!m)
        return;
    oc_model_free(m->m);
    free(m);
}

const char *onnxcost_model_source(const onnxcost_model *m) { return oc_model_source(m->m); }

int64_t onnxcost_model_ir_version(const onnxcost_model *m) { return oc_model_ir_version(m->m); }

const char *onnxcost_model_producer(const onnxcost_model *m) { return oc_model_producer(m->m); }

int64_t onnxcost_model_opset(const onnxcost_model *m, const char *domain)
{
    return oc_model_opset(m->m, domain ? domain : "");
}

size_t onnxcost_model_n_nodes(const onnxcost_model *m) { return oc_model_graph(m->m)->n_nodes; }

size_t onnxcost_model_n_inputs(const onnxcost_model *m)
{
    return oc_model_graph(m->m)->n_inputs;
}

const char *onnxcost_model_input_name(const onnxcost_model *m, size_t i)
{
    const oc_graph *g = oc_model_graph(m->m);
    return i < g->n_inputs ? g->values[g->inputs[i]].name : NULL;
}

/* ---- bindings ---- */

onnxcost_bindings *onnxcost_bindings_new(void)
{
    onnxcost_bindings *b = calloc(1, sizeof *b);
    if (b)
        b->batch = 1;
    return b;
}

void onnxcost_bindings_free(onnxcost_bindings *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n_dims; i++)
        free(b->dims[i].name);
    for (size_t i = 0; i < b->n_assumes; i++)
        free(b->assumes[i].name);
    for (size_t i = 0; i < b->n_inputs; i++)
        free(b->inputs[i].name);
    free(b->dims);
    free(b->assumes);
    free(b->inputs);
    free(b);
}

onnxcost_status onnxcost_bindings_set_batch(onnxcost_bindings *b, int64_t batch)
{
    NEED(b);
    if (batch < 1) {
        snprintf(last_error, sizeof last_error, "batch %lld: a batch is at least 1",
                 (long long)batch);
        return ONNXCOST_ERR_USAGE;
    }
    b->batch = batch;
    return ONNXCOST_OK;
}

/* Make room for one more entry of size `size` in *arr. */
static bool grow(void **arr, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return true;
    size_t c = *cap ? *cap * 2 : 8;
    void *p = realloc(*arr, c * size);
    if (!p)
        return false;
    *arr = p;
    *cap = c;
    return true;
}

static bool valid_name(const char *name, const char *what)
{
    if (name && name[0])
        return true;
    snprintf(last_error, sizeof last_error, "%s: the name is %s", what, name ? "empty" : "NULL");
    return false;
}

/* name = value into the list (e, *n, *cap): a second call for one name
 * replaces its value.  fn names the API function in messages. */
static onnxcost_status set_named(dim_entry **e, size_t *n, size_t *cap, const char *name,
                                 int64_t value, const char *fn)
{
    if (!valid_name(name, fn))
        return ONNXCOST_ERR_USAGE;
    if (value < 0) {
        snprintf(last_error, sizeof last_error, "%s: %s=%lld: a dim is at least 0", fn, name,
                 (long long)value);
        return ONNXCOST_ERR_USAGE;
    }
    for (size_t i = 0; i < *n; i++)
        if (!strcmp((*e)[i].name, name)) {
            (*e)[i].value = value;
            return ONNXCOST_OK;
        }
    if (!grow((void **)e, *n, cap, sizeof **e))
        return NOMEM();
    char *copy = strdup(name);
    if (!copy)
        return NOMEM();
    (*e)[(*n)++] = (dim_entry){copy, value};
    return ONNXCOST_OK;
}

onnxcost_status onnxcost_bindings_set_dim(onnxcost_bindings *b, const char *name, int64_t value)
{
    NEED(b);
    return set_named(&b->dims, &b->n_dims, &b->cap_dims, name, value,
                     "onnxcost_bindings_set_dim");
}

onnxcost_status onnxcost_bindings_set_assume(onnxcost_bindings *b, const char *name,
                                             int64_t value)
{
    NEED(b);
    return set_named(&b->assumes, &b->n_assumes, &b->cap_assumes, name, value,
                     "onnxcost_bindings_set_assume");
}

onnxcost_status onnxcost_bindings_set_input(onnxcost_bindings *b, const char *name,
                                            const int64_t *dims, size_t rank)
{
    NEED(b);
    if (!valid_name(name, "onnxcost_bindings_set_input"))
        return ONNXCOST_ERR_USAGE;
    if (rank > OC_MAX_RANK || (rank && !dims)) {
        snprintf(last_error, sizeof last_error, "input %s: rank %zu (at most %d, dims given)",
                 name, rank, OC_MAX_RANK);
        return ONNXCOST_ERR_USAGE;
    }
    input_entry e = {.rank = (int)rank};
    for (size_t k = 0; k < rank; k++) {
        if (dims[k] < 0) {
            snprintf(last_error, sizeof last_error, "input %s: dim %zu is %lld, not >= 0",
                     name, k, (long long)dims[k]);
            return ONNXCOST_ERR_USAGE;
        }
        e.dims[k] = dims[k];
    }
    for (size_t i = 0; i < b->n_inputs; i++)
        if (!strcmp(b->inputs[i].name, name)) {
            e.name = b->inputs[i].name;
            b->inputs[i] = e;
            return ONNXCOST_OK;
        }
    if (!grow((void **)&b->inputs, b->n_inputs, &b->cap_inputs, sizeof *b->inputs))
        return NOMEM();
    if (!(e.name = strdup(name)))
        return NOMEM();
    b->inputs[b->n_inputs++] = e;
    return ONNXCOST_OK;
}

/* The analyzer's options from b (NULL: batch 1), their arrays malloc'ed
 * (freed by free_opts). */
static bool make_opts(const onnxcost_bindings *b, oc_analyze_opts *o)
{
    memset(o, 0, sizeof *o);
    o->batch = b ? b->batch : 1;
    if (!b)
        return true;
    oc_dim_binding *d = b->n_dims ? malloc(b->n_dims * sizeof *d) : NULL;
    oc_dim_binding *s = b->n_assumes ? malloc(b->n_assumes * sizeof *s) : NULL;
    oc_input_override *v = b->n_inputs ? malloc(b->n_inputs * sizeof *v) : NULL;
    if ((b->n_dims && !d) || (b->n_assumes && !s) || (b->n_inputs && !v)) {
        free(d);
        free(s);
        free(v);
        return false;
    }
    for (size_t i = 0; i < b->n_dims; i++)
        d[i] = (oc_dim_binding){b->dims[i].name, b->dims[i].value};
    for (size_t i = 0; i < b->n_assumes; i++)
        s[i] = (oc_dim_binding){b->assumes[i].name, b->assumes[i].value};
    for (size_t i = 0; i < b->n_inputs; i++) {
        v[i].name = b->inputs[i].name;
        v[i].rank = b->inputs[i].rank;
        memcpy(v[i].dims, b->inputs[i].dims, sizeof v[i].dims);
    }
    o->dims = d;
    o->n_dims = b->n_dims;
    o->assumes = s;
    o->n_assumes = b->n_assumes;
    o->overrides = v;
    o->n_overrides = b->n_inputs;
    return true;
}

static void free_opts(oc_analyze_opts *o)
{
    free((void *)o->dims);
    free((void *)o->assumes);
    free((void *)o->overrides);
}

/* ---- analysis ---- */

/* The comma-separated list s as strings in ar (*n of them; an entry NULL
 * when out of memory); NULL when out of memory. */
static const char **split_list(oc_arena *ar, const char *s, size_t *n)
{
    size_t m = s[0] ? 1 : 0;
    for (const char *p = s; *p; p++)
        m += *p == ',';
    const char **out = oc_arena_calloc(ar, m + 1, sizeof *out);
    *n = 0;
    for (const char *p = s; out && *p;) {
        size_t l = strcspn(p, ",");
        out[(*n)++] = oc_arena_strndup(ar, p, l);
        p += l;
        if (*p)
            p++;
    }
    return out;
}

onnxcost_status onnxcost_analyze(const onnxcost_model *m, const onnxcost_bindings *b,
                                 onnxcost_analysis **out)
{
    if (!out)
        return fail_with(ONNXCOST_ERR_USAGE, "onnxcost_analyze: out is NULL");
    *out = NULL;
    if (!m)
        return fail_with(ONNXCOST_ERR_USAGE, "onnxcost_analyze: the model is NULL");
    oc_analyze_opts o;
    if (!make_opts(b, &o))
        return NOMEM();
    oc_error err;
    oc_error_clear(&err);
    oc_analysis *a = NULL;
    oc_status st = oc_analyze(m->m, &o, &a, &err);
    free_opts(&o);
    if (st != OC_OK)
        return fail(&err);
    onnxcost_analysis *w = calloc(1, sizeof *w);
    oc_arena *ar = oc_arena_new();
    const oc_graph *g = oc_model_graph(m->m);
    size_t k = 0, nd = 0;
    const char **unbound = ar ? split_list(ar, oc_analysis_assumed(a), &k) : NULL;
    const char **data_dims = ar ? split_list(ar, oc_analysis_unknown_dims(a), &nd) : NULL;
    const char **shapes = ar ? oc_arena_calloc(ar, g->n_nodes + 1, sizeof *shapes) : NULL;
    if (!w || !ar || !unbound || !data_dims || !shapes) {
        free(w);
        oc_arena_free(ar);
        oc_analysis_free(a);
        return NOMEM();
    }
    for (size_t i = 0; i < g->n_nodes; i++) {
        const oc_node *n = &g->nodes[i];
        char buf[512] = "?";
        if (n->n_outputs && n->outputs[0] >= 0) {
            const oc_tinfo *t = oc_analysis_value(a, n->outputs[0]);
            oc_shape_str(t ? t->rank : -1, t ? t->dims : NULL, buf, sizeof buf);
        }
        shapes[i] = oc_arena_strdup(ar, buf);
    }
    for (size_t i = 0; i < k; i++)
        if (!unbound[i])
            goto nomem;
    for (size_t i = 0; i < nd; i++)
        if (!data_dims[i])
            goto nomem;
    for (size_t i = 0; i < g->n_nodes; i++)
        if (!shapes[i])
            goto nomem;
    w->a = a;
    w->model = m;
    w->ar = ar;
    w->unbound = unbound;
    w->n_unbound = k;
    w->data_dims = data_dims;
    w->n_data_dims = nd;
    w->shapes = shapes;
    *out = w;
    return ONNXCOST_OK;
nomem:
    free(w);
    oc_arena_free(ar);
    oc_analysis_free(a);
    return NOMEM();
}

void onnxcost_analysis_free(onnxcost_analysis *a)
{
    if (!a)
        return;
    oc_analysis_free(a->a);
    oc_arena_free(a->ar);
    free(a);
}

void onnxcost_analysis_totals(const onnxcost_analysis *a, onnxcost_totals *out)
{
    const oc_totals *t = oc_analysis_totals(a->a);
    *out = (onnxcost_totals){
        .nodes = t->nodes,
        .macs = t->macs,
        .flops = t->flops,
        .params = t->params,
        .bytes_read = t->bytes_read,
        .bytes_written = t->bytes_written,
        .peak_activation_bytes = t->peak_activation_bytes,
        .weight_bytes = t->weight_bytes,
        .unknown_shape_nodes = t->unknown_shape_nodes,
        .unsupported_nodes = t->unsupported_nodes,
    };
}

int64_t onnxcost_analysis_batch(const onnxcost_analysis *a) { return oc_analysis_batch(a->a); }

size_t onnxcost_analysis_n_unbound(const onnxcost_analysis *a) { return a->n_unbound; }

size_t onnxcost_analysis_n_data_dims(const onnxcost_analysis *a) { return a->n_data_dims; }

const char *onnxcost_analysis_data_dim(const onnxcost_analysis *a, size_t i)
{
    return i < a->n_data_dims ? a->data_dims[i] : NULL;
}

const char *onnxcost_analysis_unbound(const onnxcost_analysis *a, size_t i)
{
    return i < a->n_unbound ? a->unbound[i] : NULL;
}

/* Graph index of the i-th node in topological order, or SIZE_MAX. */
static size_t topo_node(const oc_graph *g, size_t i, const char *fn)
{
    if (i < g->n_nodes)
        return (size_t)g->topo[i];
    snprintf(last_error, sizeof last_error, "%s: node %zu of %zu", fn, i, g->n_nodes);
    return SIZE_MAX;
}

onnxcost_status onnxcost_analysis_node(const onnxcost_analysis *a, size_t i, onnxcost_node *out)
{
    NEED(a && out);
    const oc_graph *g = oc_model_graph(a->model->m);
    size_t n = topo_node(g, i, "onnxcost_analysis_node");
    if (n == SIZE_MAX)
        return ONNXCOST_ERR_USAGE;
    const oc_node *nd = &g->nodes[n];
    const oc_node_cost *c = oc_analysis_node_cost(a->a, n);
    *out = (onnxcost_node){
        .name = nd->name,
        .op = nd->op,
        .domain = nd->domain,
        .output_shape = a->shapes[n],
        .macs = c->macs,
        .flops = c->flops,
        .params = c->params,
        .bytes_read = c->bytes_read,
        .bytes_written = c->bytes_written,
        .shapes_known = c->shapes_known,
        .supported = c->supported,
    };
    return ONNXCOST_OK;
}

size_t onnxcost_analysis_n_warnings(const onnxcost_analysis *a)
{
    return oc_analysis_n_warnings(a->a);
}

const char *onnxcost_analysis_warning(const onnxcost_analysis *a, size_t i, const char **node)
{
    if (i >= oc_analysis_n_warnings(a->a))
        return NULL;
    const oc_warning *w = oc_analysis_warning(a->a, i);
    if (node)
        *node = w->node;
    return w->msg;
}

/* ---- predictors ---- */

onnxcost_status onnxcost_predictor_open(const char *target, onnxcost_mode mode, int threads,
                                        onnxcost_predictor **out)
{
    if (!out)
        return fail_with(ONNXCOST_ERR_USAGE, "onnxcost_predictor_open: out is NULL");
    *out = NULL;
    oc_optimizer opt;
    switch (mode) {
    case ONNXCOST_INFERENCE: opt = OC_OPT_NONE; break;
    case ONNXCOST_TRAINING_SGD: opt = OC_OPT_SGD; break;
    case ONNXCOST_TRAINING_ADAM: opt = OC_OPT_ADAM; break;
    default:
        snprintf(last_error, sizeof last_error, "onnxcost_predictor_open: mode %d is not one "
                 "of ONNXCOST_INFERENCE, ONNXCOST_TRAINING_SGD, ONNXCOST_TRAINING_ADAM",
                 (int)mode);
        return ONNXCOST_ERR_USAGE;
    }
    if (threads < 0 || threads > 256) {
        snprintf(last_error, sizeof last_error,
                 "threads %d: not in [1, 256] (0: the timing model's own)", threads);
        return ONNXCOST_ERR_USAGE;
    }
    onnxcost_predictor *p = calloc(1, sizeof *p);
    if (!p)
        return NOMEM();
    oc_error err;
    oc_error_clear(&err);
    p->ov.kernel_scale = 1;
    if (oc_target_select(target, threads, opt, &p->tm, &p->ov, &p->sel, &err) != OC_OK) {
        free(p);
        return fail(&err);
    }
    snprintf(p->mode, sizeof p->mode, "%s", opt == OC_OPT_NONE ? "inference" : "training");
    snprintf(p->optimizer, sizeof p->optimizer, "%s", oc_optimizer_name(opt));
    *out = p;
    return ONNXCOST_OK;
}

void onnxcost_predictor_free(onnxcost_predictor *p)
{
    if (!p)
        return;
    oc_tmodel_free(p->tm);
    free(p);
}

void onnxcost_predictor_target(const onnxcost_predictor *p, onnxcost_target *out)
{
    const oc_tmodel_info *info = oc_tmodel_get_info(p->tm);
    *out = (onnxcost_target){
        .name = info->target,
        .runtime = info->runtime,
        .cpu = info->cpu,
        .mode = p->mode,
        .optimizer = info->optimizer == OC_OPT_NONE ? NULL : p->optimizer,
        .machine = p->sel.machine,
        .model_machine = info->machine,
        .calibration = p->sel.source[0] ? p->sel.source : NULL,
        .label = p->sel.label,
        .threads = info->threads,
        .calibrated = p->sel.calibrated,
        .this_machine = p->sel.this_machine,
        .in_graph_fit = oc_tmodel_fit_source(p->tm),
        .threads_measured = oc_tmodel_has_threads(p->tm, info->threads),
        .nearest = p->sel.nearest,
    };
}

size_t onnxcost_predictor_n_warnings(const onnxcost_predictor *p) { return p->sel.n_warnings; }

const char *onnxcost_predictor_warning(const onnxcost_predictor *p, size_t i)
{
    return i < p->sel.n_warnings ? p->sel.warnings[i] : NULL;
}

/* ---- predictions ---- */

/* Kernels that run in e, an inlined If's branch counted in its place. */
/* One kernel that runs, appended to the prediction (oc_estimate_each_kernel);
 * false when out of memory. */
static bool add_kernel(const oc_estimate *e, size_t q, const char *name, const char *from,
                       void *ud)
{
    onnxcost_prediction *r = ud;
    (void)from;
    if (r->n_run >= r->cap_run || !(r->kname[r->n_run] = oc_arena_strdup(r->ar, name)))
        return false;
    r->run_e[r->n_run] = e;
    r->run[r->n_run++] = q;
    return true;
}

onnxcost_status onnxcost_predict(const onnxcost_predictor *p, const onnxcost_analysis *a,
                                 onnxcost_prediction **out)
{
    if (!out)
        return fail_with(ONNXCOST_ERR_USAGE, "onnxcost_predict: out is NULL");
    *out = NULL;
    if (!p || !a)
        return fail_with(ONNXCOST_ERR_USAGE, "onnxcost_predict: the predictor or the analysis "
                                             "is NULL");
    onnxcost_prediction *r = calloc(1, sizeof *r);
    if (!r || !(r->ar = oc_arena_new())) {
        free(r);
        return NOMEM();
    }
    oc_error err;
    oc_error_clear(&err);
    if (oc_estimate_run(a->a, p->tm, &p->ov, &r->e, r->ar, &err) != OC_OK) {
        onnxcost_prediction_free(r);
        return fail(&err);
    }
    r->an = a;
    r->optimizer = oc_tmodel_get_info(p->tm)->optimizer;
    r->cap_run = oc_estimate_n_kernels(&r->e);
    r->run = oc_arena_calloc(r->ar, r->cap_run + 1, sizeof *r->run);
    r->run_e = oc_arena_calloc(r->ar, r->cap_run + 1, sizeof *r->run_e);
    r->kname = oc_arena_calloc(r->ar, r->cap_run + 1, sizeof *r->kname);
    if (!r->run || !r->run_e || !r->kname || !oc_estimate_each_kernel(&r->e, add_kernel, r)) {
        onnxcost_prediction_free(r);
        return NOMEM();
    }
    *out = r;
    return ONNXCOST_OK;
}

void onnxcost_prediction_free(onnxcost_prediction *r)
{
    if (!r)
        return;
    oc_arena_free(r->ar);
    free(r);
}

void onnxcost_prediction_summary(const onnxcost_prediction *r, onnxcost_summary *out)
{
    const oc_estimate *e = &r->e;
    const oc_analysis *a = r->an->a;
    int64_t batch = oc_analysis_batch(a);
    memset(out, 0, sizeof *out);
    out->batch = batch;
    out->time_ms = e->total_us / 1e3;
    out->time_ms_low = e->total_low_us / 1e3;
    out->time_ms_high = e->total_high_us / 1e3;
    out->throughput_per_s = e->total_us > 0 ? batch * 1e6 / e->total_us : 0;
    out->overhead_ms = e->overhead_us / 1e3;
    out->profiler_ms = e->profiler_us / 1e3;
    out->output_ms = e->output_us / 1e3;
    out->fault_ms = e->fault_us / 1e3;
    out->kernels_raw_ms = e->kernels_raw_us / 1e3;
    out->linear_ms = (e->linear_us + e->overhead_us) / 1e3;
    out->roofline_ms = (e->roofline_us + e->overhead_us) / 1e3;
    out->output_bytes = e->output_bytes;
    out->memory_bytes = oc_step_memory(a, &e->plan, r->optimizer);
    if (r->optimizer != OC_OPT_NONE) {
        oc_train_memory mem;
        oc_training_memory(a, &e->plan, r->optimizer, &mem);
        out->weights_bytes = mem.weights;
        out->gradients_bytes = mem.gradients;
        out->optimizer_state_bytes = mem.optimizer_state;
        out->activations_bytes = mem.activations;
        out->fresh_bytes = mem.fresh;
        out->fresh_large_bytes = mem.fresh_large;
        out->heap_churn_bytes = mem.heap_churn;
    }
    out->kernels = e->plan.n_run + e->n_inner_run;
    out->uncounted_nodes = e->n_uncounted_nodes;
    out->extrapolated_kernels = e->n_outside;
    out->extrapolated_ms = e->outside_us / 1e3;
}

onnxcost_status onnxcost_prediction_node(const onnxcost_prediction *r, size_t i,
                                         onnxcost_node_time *out)
{
    NEED(r && out);
    const oc_graph *g = oc_model_graph(r->an->model->m);
    size_t n = topo_node(g, i, "onnxcost_prediction_node");
    if (n == SIZE_MAX)
        return ONNXCOST_ERR_USAGE;
    const oc_estimate *e = &r->e;
    const char *note = oc_node_kernel_note(g, e, n);
    bool gone = note && (!strcmp(note, "folded") || !strcmp(note, "removed"));
    const oc_kernel *k = &e->plan.kernels[e->plan.kernel_of[n]];
    *out = (onnxcost_node_time){
        .name = g->nodes[n].name,
        .op = g->nodes[n].op,
        .time_us = e->node_us[n],
        .time_us_low = e->node_low_us[n],
        .time_us_high = e->node_high_us[n],
        .kernel = gone ? note : NULL,
        .fused_into = note && !gone ? note : NULL,
        .runs_as = k->main == n ? k->as_op : NULL,
        .unknown = e->node_unknown[n],
        .extrapolated = e->node_outside[n],
    };
    return ONNXCOST_OK;
}

size_t onnxcost_prediction_n_kernels(const onnxcost_prediction *r) { return r->n_run; }

onnxcost_status onnxcost_prediction_kernel(const onnxcost_prediction *r, size_t i,
                                           onnxcost_kernel_time *out)
{
    NEED(r && out);
    if (i >= r->n_run) {
        snprintf(last_error, sizeof last_error, "onnxcost_prediction_kernel: kernel %zu of %zu",
                 i, r->n_run);
        return ONNXCOST_ERR_USAGE;
    }
    const oc_estimate *e = r->run_e[i];
    const oc_kernel *k = &e->plan.kernels[r->run[i]];
    bool ins = k->main == OC_PLAN_INSERTED;
    *out = (onnxcost_kernel_time){
        .name = r->kname[i],
        .op = k->op,
        .n_nodes = ins ? 0 : 1 + k->n_fused,
        .time_us = e->kernel_us[r->run[i]],
        .time_us_low = e->kernel_low_us[r->run[i]],
        .time_us_high = e->kernel_high_us[r->run[i]],
        .extrapolated = ins ? NULL : e->node_outside[k->main],
    };
    return ONNXCOST_OK;
}

const char *onnxcost_prediction_kernel_node(const onnxcost_prediction *r, size_t i, size_t j)
{
    if (i >= r->n_run)
        return NULL;
    const oc_kernel *k = &r->run_e[i]->plan.kernels[r->run[i]];
    if (k->main == OC_PLAN_INSERTED || j > k->n_fused)
        return NULL;
    const oc_graph *g = oc_analysis_graph(r->run_e[i]->analysis);
    return g->nodes[j == 0 ? k->main : k->fused[j - 1]].name;
}

/* ---- sweeps ---- */

onnxcost_status onnxcost_sweep(const onnxcost_predictor *p, const onnxcost_model *m,
                               const onnxcost_bindings *b, const int64_t *batches, size_t n,
                               uint64_t memory_limit, onnxcost_step *steps,
                               size_t *largest_fit, size_t *best)
{
    if (!p || !m || (n && (!batches || !steps)))
        return fail_with(ONNXCOST_ERR_USAGE, "onnxcost_sweep: a NULL argument");
    oc_analyze_opts o;
    oc_sweep *s = malloc(sizeof *s);
    if (!s)
        return NOMEM();
    if (!make_opts(b, &o)) {
        free(s);
        return NOMEM();
    }
    oc_error err;
    oc_error_clear(&err);
    oc_status st = oc_sweep_run(m->m, &o, p->tm, &p->ov, batches, n, memory_limit, s, &err);
    free_opts(&o);
    if (st == OC_OK) {
        for (size_t k = 0; k < n; k++) {
            const oc_sweep_step *t = &s->steps[k];
            steps[k] = (onnxcost_step){
                .batch = t->batch,
                .time_ms = t->time_ms,
                .time_ms_low = t->low_ms,
                .time_ms_high = t->high_ms,
                .throughput_per_s = t->throughput,
                .memory_bytes = t->memory,
                .macs = t->macs,
                .fits = t->fits,
                .uncounted_nodes = t->uncounted,
            };
        }
        if (largest_fit)
            *largest_fit = s->fit;
        if (best)
            *best = s->best;
    }
    oc_sweep_free(s);
    free(s);
    return st == OC_OK ? ONNXCOST_OK : fail(&err);
}

/* ---- annotation ---- */

onnxcost_status onnxcost_annotate(const onnxcost_predictor *p, const onnxcost_analysis *a,
                                  const char *path)
{
    if (!p || !a || !path)
        return fail_with(ONNXCOST_ERR_USAGE, "onnxcost_annotate: a NULL argument");
    /* The metadata goes into the loaded model: a second prediction would
     * append a second line to every node. */
    onnxcost_model *m = (onnxcost_model *)a->model;
    if (m->annotated)
        return fail_with(ONNXCOST_ERR_USAGE, "onnxcost_annotate: this model carries a "
                                             "prediction already; load it again");
    oc_error err;
    oc_error_clear(&err);
    if (oc_check_output_path(path, &err) != OC_OK)
        return fail(&err);
    if (!oc_external_copy_ok(m->m, oc_model_source(m->m), path)) {
        snprintf(last_error, sizeof last_error,
                 "%s keeps tensors in external data files named relative to its folder; "
                 "%s is in another folder, where they would not be found",
                 oc_model_source(m->m), path);
        return ONNXCOST_ERR_USAGE;
    }
    oc_arena *ar = oc_arena_new();
    if (!ar)
        return NOMEM();
    oc_estimate e;
    char line[512];
    oc_target_line(p->tm, p->sel.label, line, sizeof line);
    oc_status st = oc_estimate_run(a->a, p->tm, &p->ov, &e, ar, &err);
    if (st == OC_OK) {
        m->annotated = true;
        st = oc_annotate_model(m->m, a->a, &e, line, &err);
    }
    if (st == OC_OK)
        st = oc_model_save(m->m, path, &err);
    oc_arena_free(ar);
    return st == OC_OK ? ONNXCOST_OK : fail(&err);
}
