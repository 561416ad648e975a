/*
 * ir.c - build the graph IR from the unpacked ModelProto, and validate it:
 * every consumed name resolves, nothing is produced twice, no cycles.
 */
#include "onnx/model-impl.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a name index: open addressing over value indices ---- */

typedef struct name_index {
    size_t cap;  /* power of two */
    int *slots;  /* value index + 1; 0 = empty */
} name_index;

/* Builder state for one graph. */
typedef struct gbuild {
    oc_model *m;
    oc_graph *g;
    size_t cap_values;
    name_index *idx;
    oc_error *err;
    int depth;
    /* extra (implicit) dependencies of each node on values of this graph */
    int **deps;
    size_t *n_deps;
} gbuild;

static oc_status nomem(gbuild *b)
{
    return oc_error_set(b->err, OC_ERR_NOMEM, NULL, "%s: out of memory",
                        b->m->source);
}

static int index_find(const oc_graph *g, const name_index *ix, const char *name)
{
    if (!ix->cap)
        return -1;
    size_t mask = ix->cap - 1;
    for (size_t i = oc_hash_str(name) & mask;; i = (i + 1) & mask) {
        int s = ix->slots[i];
        if (!s)
            return -1;
        if (strcmp(g->values[s - 1].name, name) == 0)
            return s - 1;
    }
}

static bool index_grow(gbuild *b)
{
    size_t cap = b->idx->cap ? b->idx->cap * 2 : 64;
    int *slots = oc_arena_calloc(b->m->arena, cap, sizeof(int));
    if (!slots)
        return false;
    for (size_t v = 0; v < b->g->n_values; v++) {
        size_t i = oc_hash_str(b->g->values[v].name) & (cap - 1);
        while (slots[i])
            i = (i + 1) & (cap - 1);
        slots[i] = (int)v + 1;
    }
    b->idx->cap = cap;
    b->idx->slots = slots;
    return true;
}

/* Room for n values and their index at once: a graph knows how many it
 * declares, and growing by doubling in an arena leaves every smaller copy
 * behind (twice the final size). */
static bool reserve_values(gbuild *b, size_t n)
{
    oc_value *nv = oc_arena_calloc(b->m->arena, n + 1, sizeof *nv);
    if (!nv)
        return false;
    b->g->values = nv;
    b->cap_values = n + 1;
    size_t cap = 64;
    while (cap < (n + 2) * 2)
        cap *= 2;
    b->idx->slots = oc_arena_calloc(b->m->arena, cap, sizeof(int));
    if (!b->idx->slots)
        return false;
    b->idx->cap = cap;
    return true;
}

/* Append a value named `name`; returns its index or -1 on OOM. */
static int add_value(gbuild *b, const char *name)
{
    oc_graph *g = b->g;
    if (g->n_values == b->cap_values) {
        size_t cap = b->cap_values ? b->cap_values * 2 : 32;
        oc_value *nv = oc_arena_calloc(b->m->arena, cap, sizeof *nv);
        if (!nv)
            return -1;
        if (g->n_values)
            memcpy(nv, g->values, g->n_values * sizeof *nv);
        g->values = nv;
        b->cap_values = cap;
    }
    if ((g->n_values + 1) * 2 > b->idx->cap && !index_grow(b))
        return -1;
    oc_value *v = &g->values[g->n_values];
    memset(v, 0, sizeof *v);
    v->name = name;
    v->rank = -1;
    v->producer = -1;
    v->kind = OC_KIND_NONE;
    size_t mask = b->idx->cap - 1;
    size_t i = oc_hash_str(name) & mask;
    while (b->idx->slots[i])
        i = (i + 1) & mask;
    b->idx->slots[i] = (int)g->n_values + 1;
    return (int)g->n_values++;
}

int oc_graph_find(const oc_graph *g, const char *name)
{
    if (!g || !name)
        return -1;
    return index_find(g, (const name_index *)g->index_, name);
}

/* ---- tensors ---- */

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 0x1f, f = h & 0x3ff;
    double v;
    if (e == 0)
        v = ldexp(f, -24);
    else if (e == 31)
        v = f ? NAN : INFINITY;
    else
        v = ldexp(f + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static double bf16_to_double(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Number of elements a TensorProto actually carries in the file. */
static uint64_t held_elements(const Onnx__TensorProto *t, oc_dtype dt)
{
    if (t->has_raw_data) {
        size_t es = oc_dtype_size(dt);
        return es ? t->raw_data.len / es : 0;
    }
    switch (dt) {
    case OC_DT_FLOAT: return t->n_float_data;
    case OC_DT_COMPLEX64: return t->n_float_data / 2;
    case OC_DT_DOUBLE: return t->n_double_data;
    case OC_DT_COMPLEX128: return t->n_double_data / 2;
    case OC_DT_INT64: return t->n_int64_data;
    case OC_DT_UINT32: case OC_DT_UINT64: return t->n_uint64_data;
    case OC_DT_STRING: return t->n_string_data;
    default: return t->n_int32_data;
    }
}

static bool raw_size_ok(const Onnx__TensorProto *t, oc_dtype dt, uint64_t numel)
{
    if (!t->has_raw_data || dt == OC_DT_STRING)
        return true;
    uint64_t bytes;
    return oc_mul_u64(numel, oc_dtype_size(dt), &bytes) && bytes == t->raw_data.len;
}

static int64_t raw_int(const uint8_t *p, oc_dtype dt, uint64_t i)
{
    switch (dt) {
    case OC_DT_UINT8: case OC_DT_BOOL: return p[i];
    case OC_DT_INT8: return (int8_t)p[i];
    case OC_DT_UINT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case OC_DT_INT16: { int16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case OC_DT_INT32: { int32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case OC_DT_UINT32: { uint32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case OC_DT_INT64: { int64_t v; memcpy(&v, p + 8 * i, 8); return v; }
    case OC_DT_UINT64: { uint64_t v; memcpy(&v, p + 8 * i, 8); return (int64_t)v; }
    default: return 0;
    }
}

static double raw_float(const uint8_t *p, oc_dtype dt, uint64_t i)
{
    switch (dt) {
    case OC_DT_FLOAT: { float v; memcpy(&v, p + 4 * i, 4); return v; }
    case OC_DT_DOUBLE: { double v; memcpy(&v, p + 8 * i, 8); return v; }
    case OC_DT_FLOAT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return half_to_double(v); }
    case OC_DT_BFLOAT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return bf16_to_double(v); }
    default: return 0;
    }
}

static oc_status decode_values(gbuild *b, const Onnx__TensorProto *t, oc_tensor *o)
{
    oc_dtype dt = o->dtype;
    uint64_t n = o->numel;
    if (oc_dtype_is_int(dt)) {
        int64_t *v = oc_arena_alloc(b->m->arena, (n ? n : 1) * sizeof *v);
        if (!v)
            return nomem(b);
        for (uint64_t i = 0; i < n; i++) {
            if (t->has_raw_data)
                v[i] = raw_int(t->raw_data.data, dt, i);
            else if (dt == OC_DT_INT64)
                v[i] = t->int64_data[i];
            else if (dt == OC_DT_UINT32 || dt == OC_DT_UINT64)
                v[i] = (int64_t)t->uint64_data[i];
            else
                v[i] = t->int32_data[i];
        }
        o->ivals = v;
    } else if (oc_dtype_is_float(dt)) {
        double *v = oc_arena_alloc(b->m->arena, (n ? n : 1) * sizeof *v);
        if (!v)
            return nomem(b);
        for (uint64_t i = 0; i < n; i++) {
            if (t->has_raw_data)
                v[i] = raw_float(t->raw_data.data, dt, i);
            else if (dt == OC_DT_FLOAT)
                v[i] = t->float_data[i];
            else if (dt == OC_DT_DOUBLE)
                v[i] = t->double_data[i];
            else if (dt == OC_DT_FLOAT16)
                v[i] = half_to_double((uint16_t)t->int32_data[i]);
            else
                v[i] = bf16_to_double((uint16_t)t->int32_data[i]);
        }
        o->fvals = v;
    }
    return OC_OK;
}

static oc_status decode_tensor(gbuild *b, const Onnx__TensorProto *t,
                               const char *fallback_name, const oc_tensor **out)
{
    const char *src = b->m->source;
    oc_tensor *o = oc_arena_calloc(b->m->arena, 1, sizeof *o);
    if (!o)
        return nomem(b);
    o->name = t->name ? t->name : fallback_name;
    if (!t->has_data_type || !oc_dtype_valid(t->data_type))
        return oc_error_set(b->err, OC_ERR_INPUT, o->name,
                            "%s: tensor '%s' has unknown data type %d", src,
                            o->name, t->has_data_type ? (int)t->data_type : 0);
    o->dtype = (oc_dtype)t->data_type;
    if (t->n_dims > 64)
        return oc_error_set(b->err, OC_ERR_INPUT, o->name,
                            "%s: tensor '%s' has rank %zu (more than 64)", src,
                            o->name, t->n_dims);
    o->rank = (int)t->n_dims;
    o->dims = t->dims;
    uint64_t numel = 1;
    for (size_t i = 0; i < t->n_dims; i++) {
        if (t->dims[i] < 0)
            return oc_error_set(b->err, OC_ERR_INPUT, o->name,
                                "%s: tensor '%s' has negative dimension %lld",
                                src, o->name, (long long)t->dims[i]);
        if (!oc_mul_u64(numel, (uint64_t)t->dims[i], &numel))
            return oc_error_set(b->err, OC_ERR_INPUT, o->name,
                                "%s: tensor '%s': element count overflows 64 bits",
                                src, o->name);
    }
    o->numel = numel;
    if (t->has_data_location &&
        t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) {
        o->external = true;
        oc_status st = oc__check_external(b->m, t, o, b->err);
        if (st)
            return st;
        *out = o;
        return OC_OK;
    }
    uint64_t held = held_elements(t, o->dtype);
    if (held != numel || !raw_size_ok(t, o->dtype, numel))
        return oc_error_set(b->err, OC_ERR_INPUT, o->name,
                            "%s: tensor '%s' declares %llu elements but holds %llu",
                            src, o->name, (unsigned long long)numel,
                            (unsigned long long)held);
    o->has_data = true;
    if (numel <= OC_SMALL_TENSOR) {
        oc_status st = decode_values(b, t, o);
        if (st)
            return st;
    }
    *out = o;
    return OC_OK;
}

/* ---- types ---- */

static oc_status decode_type(gbuild *b, const Onnx__TypeProto *tp, oc_value *v)
{
    if (!tp)
        return OC_OK;
    const Onnx__TensorShapeProto *shape = NULL;
    int32_t elem = 0;
    switch (tp->value_case) {
    case ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE:
        v->kind = OC_KIND_TENSOR;
        if (tp->tensor_type) {
            elem = tp->tensor_type->elem_type;
            shape = tp->tensor_type->shape;
        }
        break;
    case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE:
        v->kind = OC_KIND_SPARSE;
        if (tp->sparse_tensor_type) {
            elem = tp->sparse_tensor_type->elem_type;
            shape = tp->sparse_tensor_type->shape;
        }
        break;
    case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE:
    case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE: {
        /* The value's dtype and shape are its element's, when that is a
         * tensor (sequence<tensor>, optional<tensor>). */
        const Onnx__TypeProto *et =
            tp->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE
                ? (tp->sequence_type ? tp->sequence_type->elem_type : NULL)
                : (tp->optional_type ? tp->optional_type->elem_type : NULL);
        oc_value_kind kind = tp->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE
                                 ? OC_KIND_SEQUENCE
                                 : OC_KIND_OPTIONAL;
        if (et && et->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE) {
            oc_status st = decode_type(b, et, v);
            if (st)
                return st;
        }
        v->kind = kind;
        return OC_OK;
    }
    case ONNX__TYPE_PROTO__VALUE_MAP_TYPE:
        v->kind = OC_KIND_MAP;
        return OC_OK;
    default:
        return OC_OK;
    }
    if (elem && !oc_dtype_valid(elem))
        return oc_error_set(b->err, OC_ERR_INPUT, v->name,
                            "%s: value '%s' has unknown element type %d",
                            b->m->source, v->name, (int)elem);
    v->dtype = (oc_dtype)elem;
    if (!shape)
        return OC_OK;
    if (shape->n_dim > 64)
        return oc_error_set(b->err, OC_ERR_INPUT, v->name,
                            "%s: value '%s' has rank %zu (more than 64)",
                            b->m->source, v->name, shape->n_dim);
    oc_dim *dims = oc_arena_calloc(b->m->arena, shape->n_dim + 1, sizeof *dims);
    if (!dims)
        return nomem(b);
    for (size_t i = 0; i < shape->n_dim; i++) {
        const Onnx__TensorShapeProto__Dimension *d = shape->dim[i];
        dims[i] = OC_DIM_UNKNOWN;
        if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
            if (d->dim_value < 0)
                return oc_error_set(b->err, OC_ERR_INPUT, v->name,
                                    "%s: value '%s' has negative dimension %lld",
                                    b->m->source, v->name,
                                    (long long)d->dim_value);
            dims[i] = oc_dim_of(d->dim_value);
        } else if (d->value_case ==
                       ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
                   d->dim_param && d->dim_param[0]) {
            dims[i] = (oc_dim){1, d->dim_param};
        }
    }
    v->rank = (int)shape->n_dim;
    v->dims = dims;
    return OC_OK;
}

/* ---- attributes ---- */

static oc_status build_graph(oc_model *m, const Onnx__GraphProto *gp,
                             const oc_graph *parent, int depth, oc_graph **out,
                             oc_error *err);

static oc_status decode_attr(gbuild *b, const Onnx__AttributeProto *a,
                             oc_attr *o, const char *node)
{
    oc_arena *ar = b->m->arena;
    o->name = a->name ? a->name : "";
    oc_attr_type ty = a->has_type ? (oc_attr_type)a->type : OC_ATTR_UNDEFINED;
    if (ty == OC_ATTR_UNDEFINED) {
        /* IR < 2 models leave the type out: take the field that is set. */
        if (a->n_ints) ty = OC_ATTR_INTS;
        else if (a->n_floats) ty = OC_ATTR_FLOATS;
        else if (a->n_strings) ty = OC_ATTR_STRINGS;
        else if (a->t) ty = OC_ATTR_TENSOR;
        else if (a->g) ty = OC_ATTR_GRAPH;
        else if (a->has_s) ty = OC_ATTR_STRING;
        else if (a->has_f) ty = OC_ATTR_FLOAT;
        else if (a->has_i) ty = OC_ATTR_INT;
    }
    o->type = ty;
    o->i = a->i;
    o->f = a->f;
    if (a->has_s) {
        o->s = oc_arena_strndup(ar, (const char *)a->s.data, a->s.len);
        o->s_len = a->s.len;
        if (!o->s)
            return nomem(b);
    }
    switch (ty) {
    case OC_ATTR_INTS:
        o->n = a->n_ints;
        o->ints = a->ints;
        break;
    case OC_ATTR_FLOATS: {
        double *f = oc_arena_alloc(ar, (a->n_floats + 1) * sizeof *f);
        if (!f)
            return nomem(b);
        for (size_t i = 0; i < a->n_floats; i++)
            f[i] = a->floats[i];
        o->n = a->n_floats;
        o->floats = f;
        break;
    }
    case OC_ATTR_STRINGS: {
        char **s = oc_arena_alloc(ar, (a->n_strings + 1) * sizeof *s);
        if (!s)
            return nomem(b);
        for (size_t i = 0; i < a->n_strings; i++)
            if (!(s[i] = oc_arena_strndup(ar, (const char *)a->strings[i].data,
                                          a->strings[i].len)))
                return nomem(b);
        o->n = a->n_strings;
        o->strings = (const char *const *)s;
        break;
    }
    case OC_ATTR_TENSOR:
        if (!a->t)
            return oc_error_set(b->err, OC_ERR_INPUT, node,
                                "%s: node '%s': tensor attribute '%s' is empty",
                                b->m->source, node, o->name);
        return decode_tensor(b, a->t, o->name, &o->t);
    case OC_ATTR_TENSORS: {
        const oc_tensor **ts = oc_arena_alloc(ar, (a->n_tensors + 1) * sizeof *ts);
        if (!ts)
            return nomem(b);
        for (size_t i = 0; i < a->n_tensors; i++) {
            oc_status st = decode_tensor(b, a->tensors[i], o->name, &ts[i]);
            if (st)
                return st;
        }
        o->n = a->n_tensors;
        o->tensors = (const oc_tensor *const *)ts;
        break;
    }
    case OC_ATTR_GRAPH:
        if (!a->g)
            return oc_error_set(b->err, OC_ERR_INPUT, node,
                                "%s: node '%s': graph attribute '%s' is empty",
                                b->m->source, node, o->name);
        return build_graph(b->m, a->g, b->g, b->depth + 1, &o->g, b->err);
    case OC_ATTR_GRAPHS: {
        oc_graph **gs = oc_arena_alloc(ar, (a->n_graphs + 1) * sizeof *gs);
        if (!gs)
            return nomem(b);
        for (size_t i = 0; i < a->n_graphs; i++) {
            oc_status st = build_graph(b->m, a->graphs[i], b->g, b->depth + 1,
                                       &gs[i], b->err);
            if (st)
                return st;
        }
        o->n = a->n_graphs;
        o->graphs = (oc_graph *const *)gs;
        break;
    }
    default:
        break;
    }
    return OC_OK;
}

const oc_attr *oc_node_attr(const oc_node *n, const char *name)
{
    for (size_t i = 0; i < n->n_attrs; i++)
        if (strcmp(n->attrs[i].name, name) == 0)
            return &n->attrs[i];
    return NULL;
}

/* A name given twice is refused, as ONNX's checker does: which one a
 * runtime takes is not defined.  Hashed, so that a node with 10^6
 * attributes costs 10^6 steps, not 10^12. */
static oc_status check_attr_names(gbuild *b, const oc_node *n)
{
    if (n->n_attrs < 2)
        return OC_OK;
    const char *dup = NULL;
    if (n->n_attrs <= 8) {
        for (size_t i = 0; i < n->n_attrs && !dup; i++)
            for (size_t j = i + 1; j < n->n_attrs && !dup; j++)
                if (strcmp(n->attrs[i].name, n->attrs[j].name) == 0)
                    dup = n->attrs[i].name;
    } else {
        size_t cap = 16;
        while (cap < n->n_attrs * 2)
            cap *= 2;
        size_t *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return nomem(b);
        for (size_t i = 0; i < n->n_attrs && !dup; i++) {
            size_t k = oc_hash_str(n->attrs[i].name) & (cap - 1);
            for (; slots[k]; k = (k + 1) & (cap - 1))
                if (strcmp(n->attrs[slots[k] - 1].name, n->attrs[i].name) == 0) {
                    dup = n->attrs[i].name;
                    break;
                }
            slots[k] = i + 1;
        }
        free(slots);
    }
    if (!dup)
        return OC_OK;
    return oc_error_set(b->err, OC_ERR_INPUT, n->name,
                        "%s: node '%s' (%s): attribute '%s' is given more than once",
                        b->m->source, n->name, n->op, dup);
}

/* ---- graphs ---- */

/* Find `name` in g or, for a subgraph, in its ancestors; in the latter case
 * an outer-scope value is added to g (and to the graphs in between). */
static int resolve(gbuild *b, const char *name);

static int resolve_in(const oc_graph *g, const char *name, const oc_value **found)
{
    for (; g; g = g->parent) {
        int i = oc_graph_find(g, name);
        if (i >= 0) {
            *found = &g->values[i];
            return i;
        }
    }
    return -1;
}

static int resolve(gbuild *b, const char *name)
{
    int i = index_find(b->g, b->idx, name);
    if (i >= 0)
        return i;
    const oc_value *outer = NULL;
    if (!b->g->parent || resolve_in(b->g->parent, name, &outer) < 0)
        return -1;
    i = add_value(b, name);
    if (i < 0)
        return -2;
    oc_value *v = &b->g->values[i];
    v->kind = outer->kind;
    v->dtype = outer->dtype;
    v->rank = outer->rank;
    v->dims = outer->dims;
    v->constant = outer->constant;
    v->is_outer = true;
    return i;
}

static const char *node_name(gbuild *b, const Onnx__NodeProto *np, size_t i)
{
    if (np->name && np->name[0])
        return np->name;
    return oc_arena_printf(b->m->arena, "%s#%zu",
                           np->op_type && np->op_type[0] ? np->op_type : "node", i);
}

static int node_opset(const oc_model *m, const char *domain)
{
    int64_t v = oc_model_opset(m, domain);
    return v > 0 && v < 100000 ? (int)v : 0;
}

/* Implicit dependencies of node i (only nodes with subgraphs have any:
 * the arrays are made when the first such node is met). */
static size_t n_deps_of(const gbuild *b, size_t i)
{
    return b->n_deps ? b->n_deps[i] : 0;
}

static oc_status topo_sort(gbuild *b)
{
    oc_graph *g = b->g;
    size_t n = g->n_nodes;
    int *indeg = calloc(n + 1, sizeof *indeg);
    int *order = oc_arena_alloc(b->m->arena, (n + 1) * sizeof *order);
    /* consumers: CSR over edges producer -> consumer */
    size_t n_edges = 0;
    for (size_t i = 0; i < n; i++)
        n_edges += g->nodes[i].n_inputs + n_deps_of(b, i);
    int *start = calloc(n + 2, sizeof *start);
    int *edges = malloc((n_edges + 1) * sizeof *edges);
    int *queue = malloc((n + 1) * sizeof *queue);
    oc_status st = OC_OK;
    if (!indeg || !order || !start || !edges || !queue) {
        st = nomem(b);
        goto done;
    }
#define FOR_DEPS(i, body)                                                     \
    for (size_t k_ = 0; k_ < g->nodes[i].n_inputs + n_deps_of(b, i); k_++) {   \
        int v_ = k_ < g->nodes[i].n_inputs ? g->nodes[i].inputs[k_]            \
                                           : b->deps[i][k_ - g->nodes[i].n_inputs]; \
        int p = v_ >= 0 ? g->values[v_].producer : -1;                         \
        if (p >= 0) { body; }                                                  \
    }
    for (size_t i = 0; i < n; i++)
        FOR_DEPS(i, start[p + 1]++; indeg[i]++)
    for (size_t i = 0; i < n; i++)
        start[i + 1] += start[i];
    {
        int *fill = calloc(n + 1, sizeof *fill);
        if (!fill) {
            st = nomem(b);
            goto done;
        }
        for (size_t i = 0; i < n; i++)
            FOR_DEPS(i, edges[start[p] + fill[p]++] = (int)i)
        free(fill);
    }
#undef FOR_DEPS
    size_t head = 0, tail = 0, done_n = 0;
    for (size_t i = 0; i < n; i++)
        if (!indeg[i])
            queue[tail++] = (int)i;
    while (head < tail) {
        int u = queue[head++];
        order[done_n++] = u;
        for (int e = start[u]; e < start[u + 1]; e++)
            if (--indeg[edges[e]] == 0)
                queue[tail++] = edges[e];
    }
    if (done_n != n) {
        char names[256] = "";
        size_t shown = 0, left = 0;
        for (size_t i = 0; i < n; i++) {
            if (!indeg[i])
                continue;
            if (shown < 4) {
                size_t l = strlen(names);
                snprintf(names + l, sizeof names - l, "%s'%s'", shown ? ", " : "",
                         g->nodes[i].name);
                shown++;
            } else {
                left++;
            }
        }
        st = oc_error_set(b->err, OC_ERR_INPUT, g->nodes[0].name,
                          "%s: the graph has a cycle through nodes %s%s",
                          b->m->source, names, left ? " and others" : "");
        goto done;
    }
    g->topo = order;
done:
    free(indeg);
    free(start);
    free(edges);
    free(queue);
    return st;
}

static oc_status set_declared(gbuild *b, const Onnx__ValueInfoProto *vi, int idx)
{
    oc_value *v = &b->g->values[idx];
    if (v->constant)
        return OC_OK; /* an initializer's own dims are authoritative */
    return decode_type(b, vi->type, v);
}

static oc_status build_graph(oc_model *m, const Onnx__GraphProto *gp,
                             const oc_graph *parent, int depth, oc_graph **out,
                             oc_error *err)
{
    oc_arena *ar = m->arena;
    if (depth > OC_WIRE_MAX_DEPTH)
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "%s: graphs nested more than %d deep", m->source,
                            OC_WIRE_MAX_DEPTH);
    oc_graph *g = oc_arena_calloc(ar, 1, sizeof *g);
    name_index *ix = oc_arena_calloc(ar, 1, sizeof *ix);
    if (!g || !ix)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    g->name = gp->name ? gp->name : "";
    g->parent = parent;
    g->proto_ = gp;
    gbuild b = {.m = m, .g = g, .idx = ix, .err = err, .depth = depth};
    g->index_ = ix;
    oc_status st = OC_OK;
    const char *src = m->source;

    size_t declared = gp->n_initializer + gp->n_input;
    for (size_t i = 0; i < gp->n_node; i++)
        declared += gp->node[i]->n_output;
    if (!reserve_values(&b, declared))
        return nomem(&b);

    /* Initializers. */
    for (size_t i = 0; i < gp->n_initializer; i++) {
        const Onnx__TensorProto *t = gp->initializer[i];
        const char *name = t->name ? t->name : "";
        if (!name[0])
            return oc_error_set(err, OC_ERR_INPUT, NULL,
                                "%s: initializer %zu has no name", src, i);
        if (index_find(g, b.idx, name) >= 0)
            return oc_error_set(err, OC_ERR_INPUT, name,
                                "%s: initializer '%s' is defined twice", src, name);
        const oc_tensor *ct;
        if ((st = decode_tensor(&b, t, name, &ct)))
            return st;
        int vi = add_value(&b, name);
        if (vi < 0)
            return nomem(&b);
        oc_value *v = &g->values[vi];
        v->kind = OC_KIND_TENSOR;
        v->constant = ct;
        v->is_initializer = true;
        v->dtype = ct->dtype;
        v->rank = ct->rank;
        oc_dim *dims = oc_arena_calloc(ar, (size_t)ct->rank + 1, sizeof *dims);
        if (!dims)
            return nomem(&b);
        for (int d = 0; d < ct->rank; d++)
            dims[d] = oc_dim_of(ct->dims[d]);
        v->dims = dims;
    }
    g->n_initializers = gp->n_initializer;

    /* Graph inputs (those that are initializers stay initializers). */
    int *inputs = oc_arena_alloc(ar, (gp->n_input + 1) * sizeof *inputs);
    if (!inputs)
        return nomem(&b);
    for (size_t i = 0; i < gp->n_input; i++) {
        const char *name = gp->input[i]->name ? gp->input[i]->name : "";
        int vi = index_find(g, b.idx, name);
        if (vi >= 0 && g->values[vi].is_initializer)
            continue;
        if (vi >= 0)
            return oc_error_set(err, OC_ERR_INPUT, name,
                                "%s: graph input '%s' is declared twice", src, name);
        if ((vi = add_value(&b, name)) < 0)
            return nomem(&b);
        g->values[vi].is_input = true;
        if ((st = set_declared(&b, gp->input[i], vi)))
            return st;
        inputs[g->n_inputs++] = vi;
    }
    g->inputs = inputs;

    /* Pass 1: node outputs. */
    size_t nn = gp->n_node;
    g->n_nodes = nn;
    g->nodes = oc_arena_calloc(ar, nn + 1, sizeof *g->nodes);
    if (!g->nodes)
        return nomem(&b);
    for (size_t i = 0; i < nn; i++) {
        const Onnx__NodeProto *np = gp->node[i];
        oc_node *n = &g->nodes[i];
        if (!(n->name = node_name(&b, np, i)))
            return nomem(&b);
        n->op = np->op_type ? np->op_type : "";
        if (!n->op[0])
            return oc_error_set(err, OC_ERR_INPUT, n->name,
                                "%s: node '%s' has no op_type", src, n->name);
        n->domain = np->domain ? np->domain : "";
        if (strcmp(n->domain, "ai.onnx") == 0)
            n->domain = "";
        n->opset = node_opset(m, n->domain);
        n->doc = np->doc_string;
        int *outs = oc_arena_alloc(ar, (np->n_output + 1) * sizeof *outs);
        if (!outs)
            return nomem(&b);
        for (size_t j = 0; j < np->n_output; j++) {
            const char *name = np->output[j];
            outs[j] = -1;
            if (!name || !name[0])
                continue;
            int vi = index_find(g, b.idx, name);
            if (vi >= 0) {
                const oc_value *v = &g->values[vi];
                return oc_error_set(
                    err, OC_ERR_INPUT, n->name,
                    "%s: node '%s' (%s) writes '%s', which %s", src, n->name,
                    n->op, name,
                    v->producer >= 0 ? "another node already produces"
                    : v->is_initializer ? "is an initializer"
                                        : "is a graph input");
            }
            if ((vi = add_value(&b, name)) < 0)
                return nomem(&b);
            g->values[vi].producer = (int)i;
            outs[j] = vi;
        }
        n->outputs = outs;
        n->n_outputs = np->n_output;
    }

    /* Pass 2: attributes (subgraphs see every name of this graph) and
     * inputs. */
    for (size_t i = 0; i < nn; i++) {
        const Onnx__NodeProto *np = gp->node[i];
        oc_node *n = &g->nodes[i];
        /* Most nodes have no attributes: they share one empty array (an
         * oc_attr each would be a third of the IR of a large graph). */
        static const oc_attr no_attrs[1];
        oc_attr *attrs = np->n_attribute
                             ? oc_arena_calloc(ar, np->n_attribute, sizeof *attrs)
                             : NULL;
        if (np->n_attribute && !attrs)
            return nomem(&b);
        size_t before = g->n_values;
        for (size_t j = 0; j < np->n_attribute; j++)
            if ((st = decode_attr(&b, np->attribute[j], &attrs[j], n->name)))
                return st;
        n->attrs = attrs ? attrs : no_attrs;
        n->n_attrs = np->n_attribute;
        if ((st = check_attr_names(&b, n)))
            return st;
        /* Outer-scope names used by the subgraphs are implicit inputs. */
        size_t n_outer = 0;
        for (size_t j = 0; j < n->n_attrs; j++) {
            const oc_attr *a = &attrs[j];
            size_t ng = a->type == OC_ATTR_GRAPH ? 1 : a->type == OC_ATTR_GRAPHS ? a->n : 0;
            for (size_t k = 0; k < ng; k++) {
                const oc_graph *sg = a->type == OC_ATTR_GRAPH ? a->g : a->graphs[k];
                for (size_t v = 0; v < sg->n_values; v++)
                    n_outer += sg->values[v].is_outer;
            }
        }
        (void)before;
        if (n_outer) {
            int *deps = oc_arena_alloc(ar, n_outer * sizeof *deps);
            if (!deps)
                return nomem(&b);
            size_t nd = 0;
            for (size_t j = 0; j < n->n_attrs; j++) {
                const oc_attr *a = &attrs[j];
                size_t ng = a->type == OC_ATTR_GRAPH ? 1 : a->type == OC_ATTR_GRAPHS ? a->n : 0;
                for (size_t k = 0; k < ng; k++) {
                    const oc_graph *sg = a->type == OC_ATTR_GRAPH ? a->g : a->graphs[k];
                    for (size_t v = 0; v < sg->n_values; v++) {
                        if (!sg->values[v].is_outer)
                            continue;
                        int r = resolve(&b, sg->values[v].name);
                        if (r == -2)
                            return nomem(&b);
                        if (r >= 0)
                            deps[nd++] = r;
                    }
                }
            }
            if (!b.deps) {
                b.deps = oc_arena_calloc(ar, nn + 1, sizeof *b.deps);
                b.n_deps = oc_arena_calloc(ar, nn + 1, sizeof *b.n_deps);
                if (!b.deps || !b.n_deps)
                    return nomem(&b);
            }
            b.deps[i] = deps;
            b.n_deps[i] = nd;
        }
        int *ins = oc_arena_alloc(ar, (np->n_input + 1) * sizeof *ins);
        if (!ins)
            return nomem(&b);
        for (size_t j = 0; j < np->n_input; j++) {
            const char *name = np->input[j];
            ins[j] = -1;
            if (!name || !name[0])
                continue;
            int r = resolve(&b, name);
            if (r == -2)
                return nomem(&b);
            if (r < 0)
                return oc_error_set(err, OC_ERR_INPUT, n->name,
                                    "%s: node '%s' (%s) reads '%s', which no node "
                                    "produces and which is not a graph input or "
                                    "initializer",
                                    src, n->name, n->op, name);
            ins[j] = r;
        }
        n->inputs = ins;
        n->n_inputs = np->n_input;
        /* Constant nodes: record their value as a constant. */
        if (!n->domain[0] && strcmp(n->op, "Constant") == 0 && n->n_outputs == 1 &&
            n->outputs[0] >= 0) {
            const oc_attr *va = oc_node_attr(n, "value");
            if (va && va->type == OC_ATTR_TENSOR && va->t) {
                oc_value *v = &g->values[n->outputs[0]];
                v->constant = va->t;
            }
        }
    }

    /* Declared types of the rest. */
    for (size_t i = 0; i < gp->n_value_info; i++) {
        const char *name = gp->value_info[i]->name ? gp->value_info[i]->name : "";
        int vi = index_find(g, b.idx, name);
        if (vi >= 0 && (st = set_declared(&b, gp->value_info[i], vi)))
            return st;
    }
    int *outputs = oc_arena_alloc(ar, (gp->n_output + 1) * sizeof *outputs);
    if (!outputs)
        return nomem(&b);
    for (size_t i = 0; i < gp->n_output; i++) {
        const char *name = gp->output[i]->name ? gp->output[i]->name : "";
        int vi = resolve(&b, name);
        if (vi == -2)
            return nomem(&b);
        if (vi < 0)
            return oc_error_set(err, OC_ERR_INPUT, NULL,
                                "%s: graph output '%s' is not produced by any "
                                "node, input or initializer",
                                src, name);
        oc_value *v = &g->values[vi];
        v->is_output = true;
        if ((st = set_declared(&b, gp->output[i], vi)))
            return st;
        outputs[i] = vi;
    }
    g->outputs = outputs;
    g->n_outputs = gp->n_output;

    if ((st = topo_sort(&b)))
        return st;
    *out = g;
    return OC_OK;
}

oc_status oc__model_build_ir(oc_model *m, oc_error *err)
{
    const Onnx__ModelProto *p = m->proto;
    m->opsets = oc_arena_calloc(m->arena, p->n_opset_import + 1, sizeof *m->opsets);
    if (!m->opsets)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    for (size_t i = 0; i < p->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *o = p->opset_import[i];
        const char *d = o->domain ? o->domain : "";
        if (strcmp(d, "ai.onnx") == 0)
            d = "";
        m->opsets[m->n_opsets++] = (oc_opset){d, o->has_version ? o->version : 0};
    }
    if (!m->n_opsets && oc_model_ir_version(m) < 3) {
        /* IR 1-2 predate opset_import: they mean opset 1. */
        m->opsets[m->n_opsets++] = (oc_opset){"", 1};
    }
    /* Every node asks for its domain's version: one table, built once (a
     * scan of the imports per node is quadratic in a hostile file). */
    if (m->n_opsets > (size_t)INT32_MAX / 4)
        return oc_error_set(err, OC_ERR_INPUT, NULL, "%s: %zu opset imports", m->source,
                            m->n_opsets);
    size_t cap = 8;
    while (cap < m->n_opsets * 2)
        cap *= 2;
    m->opset_slots = oc_arena_calloc(m->arena, cap, sizeof *m->opset_slots);
    if (!m->opset_slots)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "%s: out of memory", m->source);
    m->opset_cap = cap;
    for (size_t i = 0; i < m->n_opsets; i++) {
        size_t k = oc_hash_str(m->opsets[i].domain) & (cap - 1);
        while (m->opset_slots[k] &&
               strcmp(m->opsets[m->opset_slots[k] - 1].domain, m->opsets[i].domain) != 0)
            k = (k + 1) & (cap - 1);
        m->opset_slots[k] = (int)i + 1; /* a repeated domain: the last import wins */
    }
    return build_graph(m, p->graph, NULL, 0, &m->graph, err);
}

const oc_opset *oc__model_find_opset(const oc_model *m, const char *domain)
{
    if (!domain || strcmp(domain, "ai.onnx") == 0)
        domain = "";
    if (!m->opset_cap)
        return NULL;
    size_t mask = m->opset_cap - 1;
    for (size_t k = oc_hash_str(domain) & mask; m->opset_slots[k]; k = (k + 1) & mask) {
        const oc_opset *o = &m->opsets[m->opset_slots[k] - 1];
        if (strcmp(o->domain, domain) == 0)
            return o;
    }
    return NULL;
}

bool oc_value_numel(const oc_value *v, uint64_t *out)
{
    if (v->rank < 0)
        return false;
    uint64_t n = 1;
    for (int i = 0; i < v->rank; i++)
        if (!oc_dim_is_known(v->dims[i]) || !oc_mul_u64(n, (uint64_t)v->dims[i].v, &n))
            return false;
    *out = n;
    return true;
}

bool oc_node_constant_size(const oc_node *n, uint64_t *numel, oc_dtype *dtype)
{
    if (n->domain[0] || strcmp(n->op, "Constant") != 0)
        return false;
    for (size_t i = 0; i < n->n_attrs; i++) {
        const oc_attr *a = &n->attrs[i];
        if (!strcmp(a->name, "value") && a->type == OC_ATTR_TENSOR && a->t &&
            a->t->dtype != OC_DT_STRING) {
            *numel = a->t->numel;
            *dtype = a->t->dtype;
            return true;
        }
        if (!strcmp(a->name, "value_float") && a->type == OC_ATTR_FLOAT) {
            *numel = 1;
            *dtype = OC_DT_FLOAT;
            return true;
        }
        if (!strcmp(a->name, "value_floats") && a->type == OC_ATTR_FLOATS) {
            *numel = a->n;
            *dtype = OC_DT_FLOAT;
            return true;
        }
        if (!strcmp(a->name, "value_int") && a->type == OC_ATTR_INT) {
            *numel = 1;
            *dtype = OC_DT_INT64;
            return true;
        }
        if (!strcmp(a->name, "value_ints") && a->type == OC_ATTR_INTS) {
            *numel = a->n;
            *dtype = OC_DT_INT64;
            return true;
        }
    }
    return false;
}

static void add_weight(uint64_t n, oc_dtype dt, uint64_t *e, uint64_t *b)
{
    uint64_t nb;
    if (!oc_add_u64(*e, n, e))
        *e = UINT64_MAX;
    if (!oc_mul_u64(n, oc_dtype_size(dt), &nb) || !oc_add_u64(*b, nb, b))
        *b = UINT64_MAX;
}

/* The weights packed into input `slot` of node n, when n packs several
 * into one stored element: MatMulNBits' B holds K x N weights of `bits`
 * bits in bytes (ORT's contrib op).  -1: as stored. */
int64_t oc_node_packed_weights(const oc_node *n, size_t slot)
{
    if (slot != 1 || strcmp(n->op, "MatMulNBits") || strcmp(n->domain, "com.microsoft"))
        return -1;
    const oc_attr *k = oc_node_attr(n, "K"), *nn = oc_node_attr(n, "N");
    int64_t r;
    if (!k || !nn || k->i < 1 || nn->i < 1 || !oc_mul_i64(k->i, nn->i, &r))
        return -1;
    return r;
}

/* Add the elements and bytes of g's stored weights and those of its
 * subgraphs (an If's branches, a Loop's body), saturating: a hostile count
 * never wraps.  The nesting is bounded by the loader (OC_WIRE_MAX_DEPTH). */
static void stored_weights(const oc_graph *g, uint64_t *e, uint64_t *b)
{
    for (size_t i = 0; i < g->n_values; i++)
        if (g->values[i].is_initializer)
            add_weight(g->values[i].constant->numel, g->values[i].constant->dtype, e, b);
    for (size_t i = 0; i < g->n_nodes; i++) {
        const oc_node *n = &g->nodes[i];
        uint64_t numel;
        oc_dtype dt;
        if (oc_node_constant_size(n, &numel, &dt))
            add_weight(numel, dt, e, b);
        /* packed weights count as the weights they hold (their bytes as
         * stored) */
        int64_t packed = oc_node_packed_weights(n, 1);
        int w = n->n_inputs > 1 ? n->inputs[1] : -1;
        if (packed > 0 && w >= 0 && g->values[w].is_initializer &&
            (uint64_t)packed > g->values[w].constant->numel &&
            !oc_add_u64(*e, (uint64_t)packed - g->values[w].constant->numel, e))
            *e = UINT64_MAX;
        for (size_t a = 0; a < n->n_attrs; a++) {
            const oc_attr *at = &n->attrs[a];
            if (at->type == OC_ATTR_GRAPH)
                stored_weights(at->g, e, b);
            else if (at->type == OC_ATTR_GRAPHS)
                for (size_t k = 0; k < at->n; k++)
                    stored_weights(at->graphs[k], e, b);
        }
    }
}

uint64_t oc_model_param_count(const oc_model *m)
{
    uint64_t e = 0, b = 0;
    stored_weights(m->graph, &e, &b);
    return e;
}

uint64_t oc_model_weight_bytes(const oc_model *m)
{
    uint64_t e = 0, b = 0;
    stored_weights(m->graph, &e, &b);
    return b;
}
