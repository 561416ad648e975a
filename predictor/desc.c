/*
 * desc.c - node descriptions: from an analysis, to and from JSON.
 */
#include "predictor/desc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static oc_status nomem(oc_error *err)
{
    return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
}

/* ---- from an analysis ---- */

static oc_status value_from(const oc_analysis *a, const oc_graph *g, int v,
                            oc_desc_value *out, oc_arena *arena)
{
    memset(out, 0, sizeof *out);
    out->rank = -1;
    if (v < 0)
        return OC_OK;
    out->present = true;
    const oc_tinfo *t = oc_analysis_value(a, v);
    out->weight = g->values[v].constant != NULL;
    if (!t)
        return OC_OK;
    out->dtype = t->dtype;
    out->rank = t->rank;
    if (t->rank > 0) {
        int64_t *d = oc_arena_alloc(arena, (size_t)t->rank * sizeof *d);
        if (!d)
            return OC_ERR_NOMEM;
        for (int i = 0; i < t->rank; i++) {
            oc_dim x = t->dims[i];
            d[i] = oc_dim_is_unknown(x) ? -1 : x.v; /* v*sym costed as v */
        }
        out->dims = d;
    }
    return OC_OK;
}

static oc_status attr_from(const oc_attr *s, oc_desc_attr *d, oc_arena *arena)
{
    memset(d, 0, sizeof *d);
    d->name = oc_arena_strdup(arena, s->name);
    if (!d->name)
        return OC_ERR_NOMEM;
    d->type = s->type;
    switch (s->type) {
    case OC_ATTR_INT:
        d->i = s->i;
        return OC_OK;
    case OC_ATTR_FLOAT:
        d->f = s->f;
        return OC_OK;
    case OC_ATTR_STRING:
        d->s = oc_arena_strndup(arena, s->s ? s->s : "", s->s ? s->s_len : 0);
        return d->s ? OC_OK : OC_ERR_NOMEM;
    case OC_ATTR_INTS: {
        int64_t *v = oc_arena_alloc(arena, (s->n ? s->n : 1) * sizeof *v);
        if (!v)
            return OC_ERR_NOMEM;
        if (s->n)
            memcpy(v, s->ints, s->n * sizeof *v);
        d->n = s->n;
        d->ints = v;
        return OC_OK;
    }
    case OC_ATTR_FLOATS: {
        double *v = oc_arena_alloc(arena, (s->n ? s->n : 1) * sizeof *v);
        if (!v)
            return OC_ERR_NOMEM;
        if (s->n)
            memcpy(v, s->floats, s->n * sizeof *v);
        d->n = s->n;
        d->floats = v;
        return OC_OK;
    }
    case OC_ATTR_STRINGS: {
        const char **v = oc_arena_alloc(arena, (s->n ? s->n : 1) * sizeof *v);
        if (!v)
            return OC_ERR_NOMEM;
        for (size_t i = 0; i < s->n; i++)
            if (!(v[i] = oc_arena_strdup(arena, s->strings[i])))
                return OC_ERR_NOMEM;
        d->n = s->n;
        d->strings = v;
        return OC_OK;
    }
    default:
        return OC_ERR_INPUT; /* not kept */
    }
}

static bool attr_kept(oc_attr_type t)
{
    return t == OC_ATTR_INT || t == OC_ATTR_FLOAT || t == OC_ATTR_STRING ||
           t == OC_ATTR_INTS || t == OC_ATTR_FLOATS || t == OC_ATTR_STRINGS;
}

/* The ONNX activation a fused kernel's `activation` attribute names (as
 * the operator table spells it), or NULL: none, or not an activation. */
static const char *activation_of(const oc_node_desc *d)
{
    const oc_desc_attr *at = oc_node_desc_attr(d, "activation");
    if (!at || at->type != OC_ATTR_STRING || !at->s)
        return NULL;
    oc_op_id id = oc_op_id_of("", at->s);
    return id != OC_OPID_UNKNOWN && oc_op_id_family(id) == OC_OPF_ACTIVATION
               ? oc_op_id_name(id)
               : NULL;
}

static uint64_t value_bytes(const oc_desc_value *v);

/* One more op fused after the main one, as a sample of that pattern counts
 * it: it reads the output so far (and writes one like it). */
static void fuse_after(oc_node_desc *d, const char *op)
{
    uint64_t y = d->n_outputs ? value_bytes(&d->outputs[0]) : 0;
    if (op)
        d->fused[d->n_fused++] = op;
    d->cost.bytes_read += y;
    d->cost.bytes_written += y;
}

/* ONNX Runtime's own operators (analyzer/ops/contrib.def), described as
 * the ONNX operators they fuse, the way the timing model's samples of them
 * look: a FusedConv with a Sum input and a Relu is Conv with Add and Relu
 * fused, a SkipLayerNormalization is LayerNormalization.  Any other
 * operator's description is left as it is. */
static oc_status as_onnx_op(const oc_analysis *a, size_t node, oc_node_desc *d,
                            oc_arena *arena, oc_error *err)
{
    const oc_node *n = &oc_analysis_graph(a)->nodes[node];
    oc_op_id id = oc_analysis_node_cost(a, node)->op;
    const char *as = NULL;
    bool sum = false, act = false; /* a Sum input, an activation attribute */
    switch (id) {
    case OC_OPID_MS_FusedConv:
    case OC_OPID_NCHWC_Conv:
        as = "Conv", sum = act = true;
        break;
    case OC_OPID_MS_FusedGemm:
        /* as the plan describes its own FusedGemm: a Gemm (the timing
         * model's Gemm+Relu samples are of other sizes), with the
         * activation's bytes */
        d->op = "Gemm";
        d->domain = "";
        if (activation_of(d))
            fuse_after(d, NULL);
        return OC_OK;
    case OC_OPID_MS_FusedMatMul:
        as = "MatMul";
        break;
    case OC_OPID_NCHWC_MaxPool:
    case OC_OPID_NCHWC_AveragePool:
    case OC_OPID_NCHWC_GlobalAveragePool:
    case OC_OPID_NCHWC_GlobalMaxPool:
        as = n->op;
        break;
    case OC_OPID_NCHWC_Upsample:
        as = "Resize"; /* the samples' op; Upsample is its older name */
        break;
    case OC_OPID_MS_QuickGelu:
        /* Sigmoid(x) then Mul(x, that): the Mul reads x too */
        d->op = "Sigmoid";
        d->domain = "";
        fuse_after(d, "Mul");
        d->cost.bytes_read += d->inputs[0].present ? value_bytes(&d->inputs[0]) : 0;
        return OC_OK;
    case OC_OPID_MS_Gelu:
    case OC_OPID_MS_BiasGelu:
    case OC_OPID_MS_FastGelu:
    case OC_OPID_MS_SkipLayerNormalization:
    case OC_OPID_MS_SkipSimplifiedLayerNormalization:
    case OC_OPID_SimplifiedLayerNormalization: {
        bool gelu = id == OC_OPID_MS_Gelu || id == OC_OPID_MS_BiasGelu ||
                    id == OC_OPID_MS_FastGelu;
        oc_desc_cost c = d->cost;
        oc_status st = oc_node_desc_fused_op(a, gelu ? "Gelu" : "LayerNormalization",
                                             n->inputs[0], n->outputs[0], c.flops, d, arena,
                                             err);
        d->cost.macs = c.macs;
        return st;
    }
    default:
        return OC_OK;
    }
    d->op = as;
    d->domain = "";
    if (sum && d->n_inputs > 3) {
        if (d->inputs[3].present)
            fuse_after(d, "Add"); /* Z was counted as an input */
        d->n_inputs = 3;
    }
    const char *f = act ? activation_of(d) : NULL;
    if (f)
        fuse_after(d, f);
    return OC_OK;
}

oc_status oc_node_desc_from_analysis(const oc_analysis *a, size_t node, oc_node_desc *out,
                                     oc_arena *arena, oc_error *err)
{
    memset(out, 0, sizeof *out);
    const oc_graph *g = oc_analysis_graph(a);
    if (node >= g->n_nodes)
        return oc_error_set(err, OC_ERR_USAGE, NULL, "node %zu out of range (%zu nodes)",
                            node, g->n_nodes);
    const oc_node *n = &g->nodes[node];
    out->op = oc_arena_strdup(arena, n->op);
    out->domain = oc_arena_strdup(arena, n->domain ? n->domain : "");
    out->opset = n->opset;
    if (!out->op || !out->domain)
        return nomem(err);

    size_t na = 0;
    for (size_t i = 0; i < n->n_attrs; i++)
        na += attr_kept(n->attrs[i].type);
    oc_desc_attr *attrs = oc_arena_calloc(arena, na ? na : 1, sizeof *attrs);
    oc_desc_value *in = oc_arena_calloc(arena, n->n_inputs ? n->n_inputs : 1, sizeof *in);
    oc_desc_value *outs =
        oc_arena_calloc(arena, n->n_outputs ? n->n_outputs : 1, sizeof *outs);
    if (!attrs || !in || !outs)
        return nomem(err);
    for (size_t i = 0, k = 0; i < n->n_attrs; i++)
        if (attr_kept(n->attrs[i].type) && attr_from(&n->attrs[i], &attrs[k++], arena))
            return nomem(err);
    for (size_t i = 0; i < n->n_inputs; i++)
        if (value_from(a, g, n->inputs[i], &in[i], arena))
            return nomem(err);
    for (size_t i = 0; i < n->n_outputs; i++)
        if (value_from(a, g, n->outputs[i], &outs[i], arena))
            return nomem(err);
    out->n_attrs = na;
    out->attrs = attrs;
    out->n_inputs = n->n_inputs;
    out->inputs = in;
    out->n_outputs = n->n_outputs;
    out->outputs = outs;

    const oc_node_cost *c = oc_analysis_node_cost(a, node);
    out->cost =
        (oc_desc_cost){c->macs, c->flops, c->params, c->bytes_read, c->bytes_written};
    /* Shape and Size read no data (the analyzer counts 0 bytes), but the
     * timing model's samples of them (in-graph runs) were described with
     * their input's bytes as read: the features keep that convention. */
    if ((c->op == OC_OPID_Shape || c->op == OC_OPID_Size) && n->n_inputs && in[0].present)
        out->cost.bytes_read = value_bytes(&in[0]);
    return as_onnx_op(a, node, out, arena, err);
}

static uint64_t value_bytes(const oc_desc_value *v)
{
    uint64_t n = 1;
    if (!v->present || v->rank < 0)
        return 0;
    for (int i = 0; i < v->rank; i++)
        n *= v->dims[i] > 0 ? (uint64_t)v->dims[i] : 1;
    return n * oc_dtype_size(v->dtype);
}

oc_status oc_node_desc_fused_op(const oc_analysis *a, const char *op, int x, int y,
                                uint64_t flops, oc_node_desc *out, oc_arena *arena,
                                oc_error *err)
{
    memset(out, 0, sizeof *out);
    const oc_graph *g = oc_analysis_graph(a);
    bool ln = strcmp(op, "LayerNormalization") == 0;
    size_t n_in = ln ? 3 : 1;
    oc_desc_value *in = oc_arena_calloc(arena, n_in, sizeof *in);
    oc_desc_value *outs = oc_arena_calloc(arena, 1, sizeof *outs);
    out->op = oc_arena_strdup(arena, op);
    out->domain = "";
    if (!in || !outs || !out->op || value_from(a, g, x, &in[0], arena) ||
        value_from(a, g, y, &outs[0], arena))
        return nomem(err);
    out->opset = ln ? 17 : 20;
    in[0].weight = false;
    uint64_t params = 0;
    if (ln && in[0].rank > 0) {
        int64_t *c = oc_arena_alloc(arena, sizeof *c);
        if (!c)
            return nomem(err);
        *c = in[0].dims[in[0].rank - 1];
        for (size_t k = 1; k < 3; k++)
            in[k] = (oc_desc_value){.present = true, .dtype = in[0].dtype, .rank = 1,
                                    .dims = c, .weight = true};
        params = 2 * (uint64_t)(*c > 0 ? *c : 1);
    } else if (ln) {
        n_in = 1;
    }
    out->n_inputs = n_in;
    out->inputs = in;
    out->n_outputs = 1;
    out->outputs = outs;
    uint64_t read = 0;
    for (size_t k = 0; k < n_in; k++)
        read += value_bytes(&in[k]);
    out->cost = (oc_desc_cost){0, flops, params, read, value_bytes(&outs[0])};
    return OC_OK;
}

oc_status oc_node_desc_split(const oc_analysis *a, int x, int axis, const int *ys, size_t n,
                             oc_node_desc *out, oc_arena *arena, oc_error *err)
{
    memset(out, 0, sizeof *out);
    const oc_graph *g = oc_analysis_graph(a);
    oc_desc_value *in = oc_arena_calloc(arena, 2, sizeof *in);
    oc_desc_value *outs = oc_arena_calloc(arena, n ? n : 1, sizeof *outs);
    oc_desc_attr *at = oc_arena_calloc(arena, 1, sizeof *at);
    int64_t *parts = oc_arena_alloc(arena, sizeof *parts);
    if (!in || !outs || !at || !parts || value_from(a, g, x, &in[0], arena))
        return nomem(err);
    in[0].weight = false;
    *parts = (int64_t)n;
    in[1] = (oc_desc_value){.present = true, .dtype = OC_DT_INT64, .rank = 1, .dims = parts,
                            .weight = true};
    uint64_t written = 0;
    for (size_t i = 0; i < n; i++) {
        if (value_from(a, g, ys[i], &outs[i], arena))
            return nomem(err);
        oc_desc_value *o = &outs[i];
        if (o->rank >= 0 && o->rank == in[0].rank - 1 && axis >= 0 && axis < in[0].rank) {
            /* a Gather's part, before the Squeeze that drops its axis */
            int64_t *d = oc_arena_alloc(arena, (size_t)in[0].rank * sizeof *d);
            if (!d)
                return nomem(err);
            for (int k = 0, j = 0; k < in[0].rank; k++)
                d[k] = k == axis ? 1 : o->dims[j++];
            o->dims = d;
            o->rank = in[0].rank;
        }
        written += value_bytes(o);
    }
    *at = (oc_desc_attr){.name = "axis", .type = OC_ATTR_INT, .i = axis};
    out->op = "Split";
    out->domain = "";
    out->opset = 13;
    out->n_attrs = 1;
    out->attrs = at;
    out->n_inputs = 2;
    out->inputs = in;
    out->n_outputs = n;
    out->outputs = outs;
    out->cost = (oc_desc_cost){0, 0, (uint64_t)n, value_bytes(&in[0]) + value_bytes(&in[1]),
                               written};
    return OC_OK;
}

oc_status oc_node_desc_add_fused(oc_node_desc *d, const oc_analysis *a, size_t node,
                                 oc_arena *arena, oc_error *err)
{
    const oc_graph *g = oc_analysis_graph(a);
    if (node >= g->n_nodes)
        return oc_error_set(err, OC_ERR_USAGE, NULL, "node %zu out of range (%zu nodes)",
                            node, g->n_nodes);
    if (d->n_fused >= OC_DESC_MAX_FUSED)
        return oc_error_set(err, OC_ERR_USAGE, d->op, "more than %d fused ops",
                            OC_DESC_MAX_FUSED);
    const char *op = oc_arena_strdup(arena, g->nodes[node].op);
    if (!op)
        return nomem(err);
    const oc_node_cost *c = oc_analysis_node_cost(a, node);
    oc_desc_cost s = d->cost;
    if (!oc_add_u64(s.macs, c->macs, &s.macs) ||
        !oc_add_u64(s.flops, c->flops, &s.flops) ||
        !oc_add_u64(s.params, c->params, &s.params) ||
        !oc_add_u64(s.bytes_read, c->bytes_read, &s.bytes_read) ||
        !oc_add_u64(s.bytes_written, c->bytes_written, &s.bytes_written))
        return oc_error_set(err, OC_ERR_OVERFLOW, d->op, "fused cost overflows");
    d->cost = s;
    d->fused[d->n_fused++] = op;
    return OC_OK;
}

/* ---- to JSON ---- */

static json_t *value_json(const oc_desc_value *v, bool is_input)
{
    if (!v->present)
        return json_null();
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(
        o, "dtype",
        v->dtype == OC_DT_UNDEFINED ? json_null() : json_string(oc_dtype_name(v->dtype)));
    if (v->rank < 0) {
        json_object_set_new(o, "shape", json_null());
    } else {
        json_t *s = json_array();
        for (int i = 0; i < v->rank; i++)
            json_array_append_new(s, json_integer((json_int_t)v->dims[i]));
        json_object_set_new(o, "shape", s);
    }
    if (is_input)
        json_object_set_new(o, "weight", json_boolean(v->weight));
    return o;
}

/* A float attribute as JSON: the float32 value printed with the fewest
 * digits that read back to it, so 0.1f is 0.1 rather than 0.100000001. */
static json_t *real_json(double f)
{
    if (!isfinite(f))
        return json_null();
    char buf[40];
    for (int p = 6; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, f);
        double r = strtod(buf, NULL);
        if ((float)r == (float)f)
            return json_real(r);
    }
    return json_real(f);
}

static json_t *attr_json(const oc_desc_attr *a)
{
    json_t *l;
    switch (a->type) {
    case OC_ATTR_INT:
        return json_integer((json_int_t)a->i);
    case OC_ATTR_FLOAT:
        return real_json(a->f);
    case OC_ATTR_STRING:
        return json_string(a->s ? a->s : "");
    case OC_ATTR_INTS:
        l = json_array();
        for (size_t i = 0; i < a->n; i++)
            json_array_append_new(l, json_integer((json_int_t)a->ints[i]));
        return l;
    case OC_ATTR_FLOATS:
        l = json_array();
        for (size_t i = 0; i < a->n; i++)
            json_array_append_new(l, real_json(a->floats[i]));
        return l;
    case OC_ATTR_STRINGS:
        l = json_array();
        for (size_t i = 0; i < a->n; i++)
            json_array_append_new(l, json_string(a->strings[i]));
        return l;
    default:
        return json_null();
    }
}

json_t *oc_node_desc_to_json(const oc_node_desc *d)
{
    json_t *o = json_object(), *attrs = json_object(), *in = json_array(),
           *out = json_array();
    if (!o || !attrs || !in || !out) {
        json_decref(o);
        json_decref(attrs);
        json_decref(in);
        json_decref(out);
        return NULL;
    }
    json_object_set_new(o, "op", json_string(d->op ? d->op : ""));
    json_object_set_new(o, "domain", json_string(d->domain ? d->domain : ""));
    json_object_set_new(o, "opset", json_integer(d->opset));
    for (size_t i = 0; i < d->n_attrs; i++)
        json_object_set_new(attrs, d->attrs[i].name, attr_json(&d->attrs[i]));
    json_object_set_new(o, "attrs", attrs);
    for (size_t i = 0; i < d->n_inputs; i++)
        json_array_append_new(in, value_json(&d->inputs[i], true));
    for (size_t i = 0; i < d->n_outputs; i++)
        json_array_append_new(out, value_json(&d->outputs[i], false));
    json_object_set_new(o, "inputs", in);
    json_object_set_new(o, "outputs", out);
    return o;
}

json_t *oc_node_desc_fused_to_json(const oc_node_desc *d)
{
    json_t *l = json_array();
    for (size_t i = 0; l && i < d->n_fused; i++)
        json_array_append_new(l, json_string(d->fused[i]));
    return l;
}

json_t *oc_node_desc_cost_to_json(const oc_node_desc *d)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "macs", json_integer((json_int_t)d->cost.macs));
    json_object_set_new(o, "flops", json_integer((json_int_t)d->cost.flops));
    json_object_set_new(o, "params", json_integer((json_int_t)d->cost.params));
    json_object_set_new(o, "bytes_read", json_integer((json_int_t)d->cost.bytes_read));
    json_object_set_new(o, "bytes_written",
                        json_integer((json_int_t)d->cost.bytes_written));
    return o;
}

/* ---- from JSON ---- */

static oc_dtype dtype_from_name(const char *s)
{
    for (int t = 1; t < OC_DT_COUNT_; t++)
        if (!strcmp(oc_dtype_name((oc_dtype)t), s))
            return (oc_dtype)t;
    return OC_DT_UNDEFINED;
}

static oc_status bad(oc_error *err, const char *what)
{
    return oc_error_set(err, OC_ERR_INPUT, NULL, "node description: %s", what);
}

static oc_status value_from_json(const json_t *j, oc_desc_value *v, oc_arena *arena,
                                 oc_error *err)
{
    memset(v, 0, sizeof *v);
    v->rank = -1;
    if (json_is_null(j))
        return OC_OK;
    if (!json_is_object(j))
        return bad(err, "an input/output is not an object or null");
    v->present = true;
    const json_t *dt = json_object_get(j, "dtype");
    if (json_is_string(dt)) {
        v->dtype = dtype_from_name(json_string_value(dt));
        if (v->dtype == OC_DT_UNDEFINED)
            return bad(err, "unknown dtype");
    } else if (dt && !json_is_null(dt)) {
        return bad(err, "dtype is not a string");
    }
    const json_t *sh = json_object_get(j, "shape");
    if (json_is_array(sh)) {
        size_t r = json_array_size(sh);
        if (r > OC_MAX_RANK)
            return bad(err, "rank over 64");
        v->rank = (int)r;
        if (r) {
            int64_t *d = oc_arena_alloc(arena, r * sizeof *d);
            if (!d)
                return nomem(err);
            for (size_t i = 0; i < r; i++) {
                const json_t *x = json_array_get(sh, i);
                if (!json_is_integer(x) || json_integer_value(x) < -1)
                    return bad(err, "a dim is not an integer >= -1");
                d[i] = json_integer_value(x);
            }
            v->dims = d;
        }
    } else if (sh && !json_is_null(sh)) {
        return bad(err, "shape is not a list or null");
    }
    const json_t *w = json_object_get(j, "weight");
    if (w && !json_is_boolean(w))
        return bad(err, "weight is not a boolean");
    v->weight = json_is_true(w);
    return OC_OK;
}

static oc_status values_from_json(const json_t *l, size_t *n, const oc_desc_value **out,
                                  oc_arena *arena, oc_error *err)
{
    if (!json_is_array(l))
        return bad(err, "inputs/outputs is not a list");
    size_t k = json_array_size(l);
    oc_desc_value *v = oc_arena_calloc(arena, k ? k : 1, sizeof *v);
    if (!v)
        return nomem(err);
    for (size_t i = 0; i < k; i++) {
        oc_status st = value_from_json(json_array_get(l, i), &v[i], arena, err);
        if (st)
            return st;
    }
    *n = k;
    *out = v;
    return OC_OK;
}

static oc_status attr_from_json(const char *name, const json_t *j, oc_desc_attr *a,
                                oc_arena *arena, oc_error *err)
{
    memset(a, 0, sizeof *a);
    if (!(a->name = oc_arena_strdup(arena, name)))
        return nomem(err);
    if (json_is_integer(j)) {
        a->type = OC_ATTR_INT;
        a->i = json_integer_value(j);
    } else if (json_is_real(j)) {
        a->type = OC_ATTR_FLOAT;
        a->f = json_real_value(j);
    } else if (json_is_string(j)) {
        a->type = OC_ATTR_STRING;
        if (!(a->s = oc_arena_strdup(arena, json_string_value(j))))
            return nomem(err);
    } else if (json_is_array(j)) {
        size_t n = json_array_size(j);
        const json_t *x0 = json_array_get(j, 0);
        a->n = n;
        if (n == 0 || json_is_integer(x0)) {
            int64_t *v = oc_arena_alloc(arena, (n ? n : 1) * sizeof *v);
            if (!v)
                return nomem(err);
            for (size_t i = 0; i < n; i++) {
                const json_t *x = json_array_get(j, i);
                if (!json_is_integer(x))
                    return bad(err, "mixed types in an ints attribute");
                v[i] = json_integer_value(x);
            }
            a->type = OC_ATTR_INTS;
            a->ints = v;
        } else if (json_is_real(x0)) {
            double *v = oc_arena_alloc(arena, n * sizeof *v);
            if (!v)
                return nomem(err);
            for (size_t i = 0; i < n; i++) {
                const json_t *x = json_array_get(j, i);
                if (!json_is_number(x))
                    return bad(err, "mixed types in a floats attribute");
                v[i] = json_number_value(x);
            }
            a->type = OC_ATTR_FLOATS;
            a->floats = v;
        } else if (json_is_string(x0)) {
            const char **v = oc_arena_alloc(arena, n * sizeof *v);
            if (!v)
                return nomem(err);
            for (size_t i = 0; i < n; i++) {
                const json_t *x = json_array_get(j, i);
                if (!json_is_string(x))
                    return bad(err, "mixed types in a strings attribute");
                if (!(v[i] = oc_arena_strdup(arena, json_string_value(x))))
                    return nomem(err);
            }
            a->type = OC_ATTR_STRINGS;
            a->strings = v;
        } else {
            return bad(err, "a list attribute of unknown element type");
        }
    } else {
        return bad(err, "an attribute is not a number, string or list");
    }
    return OC_OK;
}

static oc_status u64_field(const json_t *o, const char *k, uint64_t *out, oc_error *err)
{
    const json_t *x = json_object_get(o, k);
    *out = 0;
    if (!x)
        return OC_OK;
    if (!json_is_integer(x) || json_integer_value(x) < 0)
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "node description: features.%s is not an integer >= 0", k);
    *out = (uint64_t)json_integer_value(x);
    return OC_OK;
}

oc_status oc_node_desc_from_json(const json_t *node_obj, const json_t *fused,
                                 const json_t *features, oc_node_desc *out,
                                 oc_arena *arena, oc_error *err)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(node_obj))
        return bad(err, "\"node\" is not an object");
    const json_t *op = json_object_get(node_obj, "op");
    if (!json_is_string(op))
        return bad(err, "op is missing");
    const json_t *dom = json_object_get(node_obj, "domain");
    if (dom && !json_is_string(dom))
        return bad(err, "domain is not a string");
    out->op = oc_arena_strdup(arena, json_string_value(op));
    out->domain = oc_arena_strdup(arena, dom ? json_string_value(dom) : "");
    if (!out->op || !out->domain)
        return nomem(err);
    const json_t *os = json_object_get(node_obj, "opset");
    if (os && !json_is_integer(os))
        return bad(err, "opset is not an integer");
    out->opset = os ? (int)json_integer_value(os) : 0;

    const json_t *attrs = json_object_get(node_obj, "attrs");
    if (attrs && !json_is_object(attrs))
        return bad(err, "attrs is not an object");
    size_t na = attrs ? json_object_size(attrs) : 0;
    oc_desc_attr *av = oc_arena_calloc(arena, na ? na : 1, sizeof *av);
    if (!av)
        return nomem(err);
    size_t k = 0;
    const char *key;
    json_t *val;
    if (attrs)
        json_object_foreach((json_t *)attrs, key, val)
        {
            oc_status st = attr_from_json(key, val, &av[k++], arena, err);
            if (st)
                return st;
        }
    out->n_attrs = k;
    out->attrs = av;

    oc_status st = values_from_json(json_object_get(node_obj, "inputs"), &out->n_inputs,
                                    &out->inputs, arena, err);
    if (!st)
        st = values_from_json(json_object_get(node_obj, "outputs"), &out->n_outputs,
                              &out->outputs, arena, err);
    if (st)
        return st;

    if (fused && !json_is_null(fused)) {
        if (!json_is_array(fused))
            return bad(err, "\"fused\" is not a list");
        if (json_array_size(fused) > OC_DESC_MAX_FUSED)
            return bad(err, "too many fused ops");
        for (size_t i = 0; i < json_array_size(fused); i++) {
            const json_t *f = json_array_get(fused, i);
            if (!json_is_string(f))
                return bad(err, "a fused op is not a string");
            if (!(out->fused[i] = oc_arena_strdup(arena, json_string_value(f))))
                return nomem(err);
            out->n_fused = i + 1;
        }
    }
    if (features && !json_is_null(features)) {
        if (!json_is_object(features))
            return bad(err, "\"features\" is not an object");
        if ((st = u64_field(features, "macs", &out->cost.macs, err)) ||
            (st = u64_field(features, "flops", &out->cost.flops, err)) ||
            (st = u64_field(features, "params", &out->cost.params, err)) ||
            (st = u64_field(features, "bytes_read", &out->cost.bytes_read, err)) ||
            (st = u64_field(features, "bytes_written", &out->cost.bytes_written, err)))
            return st;
    }
    return OC_OK;
}

/* ---- lookups ---- */

size_t oc_desc_count_present(const oc_desc_value *v, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += v[i].present;
    return k;
}

const oc_desc_attr *oc_node_desc_attr(const oc_node_desc *d, const char *name)
{
    for (size_t i = 0; i < d->n_attrs; i++)
        if (!strcmp(d->attrs[i].name, name))
            return &d->attrs[i];
    return NULL;
}

int64_t oc_node_desc_attr_int(const oc_node_desc *d, const char *name, int64_t dflt)
{
    const oc_desc_attr *a = oc_node_desc_attr(d, name);
    return a && a->type == OC_ATTR_INT ? a->i : dflt;
}

const int64_t *oc_node_desc_attr_ints(const oc_node_desc *d, const char *name, size_t *n)
{
    const oc_desc_attr *a = oc_node_desc_attr(d, name);
    if (!a || a->type != OC_ATTR_INTS) {
        *n = 0;
        return NULL;
    }
    *n = a->n;
    return a->ints;
}

const char *oc_node_desc_pattern(const oc_node_desc *d, char *buf, size_t size)
{
    if (!size)
        return buf;
    int w = snprintf(buf, size, "%s", d->op ? d->op : "");
    for (size_t i = 0; i < d->n_fused && w >= 0 && (size_t)w < size; i++)
        w += snprintf(buf + w, size - (size_t)w, "+%s", d->fused[i]);
    return buf;
}
