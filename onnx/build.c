/*
 * build.c - write small ONNX models with protobuf-c.
 *
 * Every message, string and payload lives in the builder's arena; the
 * ModelProto is only ever packed, never freed with free_unpacked.
 */
#include "onnx/build.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"
#include "onnx/model.h"

/* A growable array of pointers in the arena. */
typedef struct ptrvec {
    void **v;
    size_t n, cap;
} ptrvec;

struct oc_builder {
    oc_arena *arena;
    Onnx__ModelProto model;
    Onnx__GraphProto graph;
    ptrvec opsets, inputs, outputs, inits, nodes;
    ptrvec *attrs; /* per node */
    size_t attrs_cap;
    bool elide;
    oc_error err; /* first failure; err.status == OC_OK while none */
};

static oc_status fail(oc_builder *b, oc_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static oc_status fail(oc_builder *b, oc_status st, const char *fmt, ...)
{
    if (b->err.status == OC_OK) {
        va_list ap;
        va_start(ap, fmt);
        oc_error_setv(&b->err, st, NULL, fmt, ap);
        va_end(ap);
    }
    return b->err.status;
}

static oc_status nomem(oc_builder *b)
{
    return fail(b, OC_ERR_NOMEM, "out of memory building a model");
}

static oc_status push(oc_builder *b, ptrvec *pv, void *p)
{
    if (!p)
        return nomem(b);
    if (pv->n == pv->cap) {
        size_t cap = pv->cap ? pv->cap * 2 : 8;
        void **nv = oc_arena_alloc(b->arena, cap * sizeof *nv);
        if (!nv)
            return nomem(b);
        if (pv->n)
            memcpy(nv, pv->v, pv->n * sizeof *nv);
        pv->v = nv;
        pv->cap = cap;
    }
    pv->v[pv->n++] = p;
    return OC_OK;
}

static char *dup(oc_builder *b, const char *s)
{
    return oc_arena_strdup(b->arena, s ? s : "");
}

oc_builder *oc_builder_new(int64_t opset)
{
    oc_builder *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->arena = oc_arena_new();
    if (!b->arena) {
        free(b);
        return NULL;
    }
    Onnx__ModelProto m = ONNX__MODEL_PROTO__INIT;
    Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
    b->model = m;
    b->graph = g;
    b->model.has_ir_version = 1;
    b->model.ir_version = 8;
    b->model.producer_name = "onnxcost";
    b->model.producer_version = "builder";
    b->graph.name = "g";
    b->model.graph = &b->graph;
    if (oc_builder_opset(b, "", opset) != OC_OK) {
        oc_builder_free(b);
        return NULL;
    }
    return b;
}

void oc_builder_free(oc_builder *b)
{
    if (!b)
        return;
    oc_arena_free(b->arena);
    free(b);
}

void oc_builder_elide_random(oc_builder *b, bool elide)
{
    b->elide = elide;
}

oc_status oc_builder_status(const oc_builder *b, oc_error *err)
{
    if (err)
        *err = b->err;
    return b->err.status;
}

oc_status oc_builder_opset(oc_builder *b, const char *domain, int64_t version)
{
    if (b->err.status)
        return b->err.status;
    for (size_t i = 0; i < b->opsets.n; i++) {
        Onnx__OperatorSetIdProto *o = b->opsets.v[i];
        if (!strcmp(o->domain, domain)) {
            o->version = version;
            return OC_OK;
        }
    }
    Onnx__OperatorSetIdProto *o = oc_arena_alloc(b->arena, sizeof *o);
    if (!o)
        return nomem(b);
    Onnx__OperatorSetIdProto init = ONNX__OPERATOR_SET_ID_PROTO__INIT;
    *o = init;
    o->domain = dup(b, domain);
    o->has_version = 1;
    o->version = version;
    return push(b, &b->opsets, o->domain ? o : NULL);
}

static Onnx__ValueInfoProto *value_info(oc_builder *b, const char *name, oc_dtype dtype,
                                        int rank, const int64_t *dims,
                                        const char *const *syms)
{
    oc_arena *a = b->arena;
    Onnx__ValueInfoProto *vi = oc_arena_alloc(a, sizeof *vi);
    Onnx__TypeProto *tp = oc_arena_alloc(a, sizeof *tp);
    Onnx__TypeProto__Tensor *tt = oc_arena_alloc(a, sizeof *tt);
    if (!vi || !tp || !tt)
        return NULL;
    Onnx__ValueInfoProto vi0 = ONNX__VALUE_INFO_PROTO__INIT;
    Onnx__TypeProto tp0 = ONNX__TYPE_PROTO__INIT;
    Onnx__TypeProto__Tensor tt0 = ONNX__TYPE_PROTO__TENSOR__INIT;
    *vi = vi0;
    *tp = tp0;
    *tt = tt0;
    vi->name = dup(b, name);
    vi->type = tp;
    tp->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    tp->tensor_type = tt;
    tt->has_elem_type = 1;
    tt->elem_type = (int32_t)dtype;
    if (rank >= 0) {
        Onnx__TensorShapeProto *sh = oc_arena_alloc(a, sizeof *sh);
        if (!sh)
            return NULL;
        Onnx__TensorShapeProto sh0 = ONNX__TENSOR_SHAPE_PROTO__INIT;
        *sh = sh0;
        sh->n_dim = (size_t)rank;
        sh->dim = oc_arena_calloc(a, rank ? (size_t)rank : 1, sizeof *sh->dim);
        if (!sh->dim)
            return NULL;
        for (int i = 0; i < rank; i++) {
            Onnx__TensorShapeProto__Dimension *d = oc_arena_alloc(a, sizeof *d);
            if (!d)
                return NULL;
            Onnx__TensorShapeProto__Dimension d0 =
                ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
            *d = d0;
            if (dims[i] >= 0) {
                d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
                d->dim_value = dims[i];
            } else if (syms && syms[i]) {
                d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
                d->dim_param = dup(b, syms[i]);
                if (!d->dim_param)
                    return NULL;
            }
            sh->dim[i] = d;
        }
        tt->shape = sh;
    }
    return vi->name ? vi : NULL;
}

oc_status oc_builder_input(oc_builder *b, const char *name, oc_dtype dtype, int rank,
                           const int64_t *dims)
{
    if (b->err.status)
        return b->err.status;
    return push(b, &b->inputs, value_info(b, name, dtype, rank, dims, NULL));
}

oc_status oc_builder_input_sym(oc_builder *b, const char *name, oc_dtype dtype, int rank,
                               const int64_t *dims, const char *const *syms)
{
    if (b->err.status)
        return b->err.status;
    return push(b, &b->inputs, value_info(b, name, dtype, rank, dims, syms));
}

oc_status oc_builder_output(oc_builder *b, const char *name, oc_dtype dtype, int rank,
                            const int64_t *dims)
{
    if (b->err.status)
        return b->err.status;
    return push(b, &b->outputs, value_info(b, name, dtype, rank, dims, NULL));
}

/* A TensorProto header: name, dtype, dims; *numel gets the element count. */
static Onnx__TensorProto *tensor(oc_builder *b, const char *name, oc_dtype dtype,
                                 int rank, const int64_t *dims, uint64_t *numel)
{
    if (rank < 0 || rank > 64) {
        fail(b, OC_ERR_USAGE, "initializer '%s': bad rank", name);
        return NULL;
    }
    uint64_t n = 1;
    for (int i = 0; i < rank; i++)
        if (dims[i] < 0 || !oc_mul_u64(n, (uint64_t)dims[i], &n)) {
            fail(b, OC_ERR_USAGE, "initializer '%s': bad dims", name);
            return NULL;
        }
    uint64_t bytes;
    if (!oc_mul_u64(n, oc_dtype_size(dtype), &bytes) || bytes > SIZE_MAX / 2) {
        fail(b, OC_ERR_OVERFLOW, "initializer '%s': too large", name);
        return NULL;
    }
    Onnx__TensorProto *t = oc_arena_alloc(b->arena, sizeof *t);
    int64_t *d = oc_arena_alloc(b->arena, (rank ? (size_t)rank : 1) * sizeof *d);
    if (!t || !d) {
        nomem(b);
        return NULL;
    }
    Onnx__TensorProto t0 = ONNX__TENSOR_PROTO__INIT;
    *t = t0;
    if (rank)
        memcpy(d, dims, (size_t)rank * sizeof *d);
    t->n_dims = (size_t)rank;
    t->dims = d;
    t->has_data_type = 1;
    t->data_type = (int32_t)dtype;
    t->name = dup(b, name);
    *numel = n;
    return t->name ? t : NULL;
}

static inline uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t oc_hash_seed(uint64_t seed, const char *s)
{
    /* FNV-1a over the string, mixed with the seed through splitmix64. */
    uint64_t h = 0xcbf29ce484222325ull;
    for (; s && *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    uint64_t st = seed ^ h;
    splitmix64(&st);
    return splitmix64(&st);
}

oc_status oc_builder_random(oc_builder *b, const char *name, oc_dtype dtype, int rank,
                            const int64_t *dims, double lo, double hi, uint64_t seed)
{
    if (b->err.status)
        return b->err.status;
    if (dtype != OC_DT_FLOAT && dtype != OC_DT_DOUBLE && dtype != OC_DT_INT64 &&
        dtype != OC_DT_INT32 && dtype != OC_DT_INT8 && dtype != OC_DT_UINT8)
        return fail(b, OC_ERR_USAGE,
                    "initializer '%s': random data is float32, "
                    "float64, int64, int32, int8 or uint8 only",
                    name);
    if (!(hi > lo))
        return fail(b, OC_ERR_USAGE, "initializer '%s': empty range", name);
    uint64_t n;
    Onnx__TensorProto *t = tensor(b, name, dtype, rank, dims, &n);
    if (!t)
        return b->err.status ? b->err.status : nomem(b);
    if (b->elide) {
        Onnx__StringStringEntryProto *e = oc_arena_alloc(b->arena, sizeof *e);
        Onnx__StringStringEntryProto **ev = oc_arena_alloc(b->arena, sizeof *ev);
        if (!e || !ev)
            return nomem(b);
        Onnx__StringStringEntryProto e0 = ONNX__STRING_STRING_ENTRY_PROTO__INIT;
        *e = e0;
        e->key = "location";
        e->value = "elided";
        ev[0] = e;
        t->n_external_data = 1;
        t->external_data = ev;
        t->has_data_location = 1;
        t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
        return push(b, &b->inits, t);
    }
    size_t es = oc_dtype_size(dtype);
    uint8_t *data = oc_arena_alloc(b->arena, n ? (size_t)n * es : 1);
    if (!data)
        return nomem(b);
    uint64_t st = oc_hash_seed(seed, name);
    double span = hi - lo;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = splitmix64(&st);
        if (dtype == OC_DT_FLOAT) {
            float v = (float)(lo + span * ((double)(r >> 40) * 0x1p-24));
            if (v >= (float)hi)
                v = (float)lo;
            memcpy(data + i * 4, &v, 4);
        } else if (dtype == OC_DT_DOUBLE) {
            double v = lo + span * ((double)(r >> 11) * 0x1p-53);
            memcpy(data + i * 8, &v, 8);
        } else {
            int64_t l = (int64_t)lo, h = (int64_t)hi;
            uint64_t range = (uint64_t)(h - l);
            int64_t v = l + (int64_t)(range ? r % range : 0);
            if (dtype == OC_DT_INT64) {
                memcpy(data + i * 8, &v, 8);
            } else if (dtype == OC_DT_INT32) {
                int32_t v32 = (int32_t)v;
                memcpy(data + i * 4, &v32, 4);
            } else if (dtype == OC_DT_INT8) {
                int8_t v8 = (int8_t)v;
                memcpy(data + i, &v8, 1);
            } else {
                data[i] = (uint8_t)v;
            }
        }
    }
    t->has_raw_data = 1;
    t->raw_data.len = (size_t)n * es;
    t->raw_data.data = data;
    return push(b, &b->inits, t);
}

oc_status oc_builder_ints(oc_builder *b, const char *name, int rank, const int64_t *dims,
                          const int64_t *vals)
{
    if (b->err.status)
        return b->err.status;
    uint64_t n;
    Onnx__TensorProto *t = tensor(b, name, OC_DT_INT64, rank, dims, &n);
    if (!t)
        return b->err.status ? b->err.status : nomem(b);
    uint8_t *data = oc_arena_alloc(b->arena, n ? (size_t)n * 8 : 1);
    if (!data)
        return nomem(b);
    if (n)
        memcpy(data, vals, (size_t)n * 8);
    t->has_raw_data = 1;
    t->raw_data.len = (size_t)n * 8;
    t->raw_data.data = data;
    return push(b, &b->inits, t);
}

oc_status oc_builder_floats(oc_builder *b, const char *name, int rank,
                            const int64_t *dims, const float *vals)
{
    if (b->err.status)
        return b->err.status;
    uint64_t n;
    Onnx__TensorProto *t = tensor(b, name, OC_DT_FLOAT, rank, dims, &n);
    if (!t)
        return b->err.status ? b->err.status : nomem(b);
    uint8_t *data = oc_arena_alloc(b->arena, n ? (size_t)n * 4 : 1);
    if (!data)
        return nomem(b);
    if (n)
        memcpy(data, vals, (size_t)n * 4);
    t->has_raw_data = 1;
    t->raw_data.len = (size_t)n * 4;
    t->raw_data.data = data;
    return push(b, &b->inits, t);
}

/* Split "a,b,,c" into arena strings. */
static char **split_names(oc_builder *b, const char *list, size_t *n)
{
    *n = 0;
    if (!list || !*list)
        return oc_arena_alloc(b->arena, sizeof(char *));
    size_t cnt = 1;
    for (const char *p = list; *p; p++)
        cnt += *p == ',';
    char **v = oc_arena_alloc(b->arena, cnt * sizeof *v);
    if (!v)
        return NULL;
    const char *s = list;
    for (size_t i = 0; i < cnt; i++) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        v[i] = oc_arena_strndup(b->arena, s, len);
        if (!v[i])
            return NULL;
        s = e ? e + 1 : s + len;
    }
    *n = cnt;
    return v;
}

size_t oc_builder_node(oc_builder *b, const char *op, const char *name,
                       const char *inputs, const char *outputs)
{
    if (b->err.status)
        return (size_t)-1;
    Onnx__NodeProto *n = oc_arena_alloc(b->arena, sizeof *n);
    if (!n) {
        nomem(b);
        return (size_t)-1;
    }
    Onnx__NodeProto n0 = ONNX__NODE_PROTO__INIT;
    *n = n0;
    n->op_type = dup(b, op);
    n->name = dup(b, name);
    n->domain = dup(b, "");
    n->input = split_names(b, inputs, &n->n_input);
    n->output = split_names(b, outputs, &n->n_output);
    if (!n->op_type || !n->name || !n->domain || !n->input || !n->output) {
        nomem(b);
        return (size_t)-1;
    }
    if (b->nodes.n == b->attrs_cap) {
        size_t cap = b->attrs_cap ? b->attrs_cap * 2 : 8;
        ptrvec *na = oc_arena_calloc(b->arena, cap, sizeof *na);
        if (!na) {
            nomem(b);
            return (size_t)-1;
        }
        if (b->attrs_cap)
            memcpy(na, b->attrs, b->attrs_cap * sizeof *na);
        b->attrs = na;
        b->attrs_cap = cap;
    }
    if (push(b, &b->nodes, n))
        return (size_t)-1;
    return b->nodes.n - 1;
}

oc_status oc_builder_node_domain(oc_builder *b, size_t node, const char *domain)
{
    if (b->err.status)
        return b->err.status;
    if (node >= b->nodes.n)
        return fail(b, OC_ERR_USAGE, "node_domain: node index %zu out of range", node);
    Onnx__NodeProto *n = b->nodes.v[node];
    n->domain = dup(b, domain);
    return n->domain ? OC_OK : nomem(b);
}

static Onnx__AttributeProto *new_attr(oc_builder *b, size_t node, const char *name,
                                      Onnx__AttributeProto__AttributeType type)
{
    if (b->err.status)
        return NULL;
    if (node >= b->nodes.n) {
        fail(b, OC_ERR_USAGE, "attribute '%s': node index out of range", name);
        return NULL;
    }
    Onnx__AttributeProto *a = oc_arena_alloc(b->arena, sizeof *a);
    if (!a) {
        nomem(b);
        return NULL;
    }
    Onnx__AttributeProto a0 = ONNX__ATTRIBUTE_PROTO__INIT;
    *a = a0;
    a->name = dup(b, name);
    a->has_type = 1;
    a->type = type;
    if (!a->name || push(b, &b->attrs[node], a)) {
        nomem(b);
        return NULL;
    }
    return a;
}

oc_status oc_builder_attr_int(oc_builder *b, size_t node, const char *name, int64_t v)
{
    Onnx__AttributeProto *a =
        new_attr(b, node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
    if (!a)
        return b->err.status;
    a->has_i = 1;
    a->i = v;
    return OC_OK;
}

oc_status oc_builder_attr_float(oc_builder *b, size_t node, const char *name, float v)
{
    Onnx__AttributeProto *a =
        new_attr(b, node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    if (!a)
        return b->err.status;
    a->has_f = 1;
    a->f = v;
    return OC_OK;
}

oc_status oc_builder_attr_string(oc_builder *b, size_t node, const char *name,
                                 const char *v)
{
    Onnx__AttributeProto *a =
        new_attr(b, node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
    if (!a)
        return b->err.status;
    char *s = dup(b, v);
    if (!s)
        return nomem(b);
    a->has_s = 1;
    a->s.data = (uint8_t *)s;
    a->s.len = strlen(s);
    return OC_OK;
}

oc_status oc_builder_attr_ints(oc_builder *b, size_t node, const char *name, size_t n,
                               const int64_t *v)
{
    Onnx__AttributeProto *a =
        new_attr(b, node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
    if (!a)
        return b->err.status;
    int64_t *c = oc_arena_alloc(b->arena, (n ? n : 1) * sizeof *c);
    if (!c)
        return nomem(b);
    if (n)
        memcpy(c, v, n * sizeof *c);
    a->n_ints = n;
    a->ints = c;
    return OC_OK;
}

oc_status oc_builder_attr_floats(oc_builder *b, size_t node, const char *name, size_t n,
                                 const float *v)
{
    Onnx__AttributeProto *a =
        new_attr(b, node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS);
    if (!a)
        return b->err.status;
    float *c = oc_arena_alloc(b->arena, (n ? n : 1) * sizeof *c);
    if (!c)
        return nomem(b);
    if (n)
        memcpy(c, v, n * sizeof *c);
    a->n_floats = n;
    a->floats = c;
    return OC_OK;
}

oc_status oc_builder_attr_tensor_ints(oc_builder *b, size_t node, const char *name, int rank,
                                     const int64_t *dims, const int64_t *vals)
{
    Onnx__AttributeProto *a =
        new_attr(b, node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    if (!a)
        return b->err.status;
    uint64_t n;
    Onnx__TensorProto *t = tensor(b, name, OC_DT_INT64, rank, dims, &n);
    uint8_t *data = t ? oc_arena_alloc(b->arena, n ? (size_t)n * 8 : 1) : NULL;
    if (!data)
        return b->err.status ? b->err.status : nomem(b);
    if (n)
        memcpy(data, vals, (size_t)n * 8);
    t->has_raw_data = 1;
    t->raw_data.len = (size_t)n * 8;
    t->raw_data.data = data;
    a->t = t;
    return OC_OK;
}

/* b's graph message pointed at what was added to b. */
static void finish_graph(oc_builder *b)
{
    Onnx__GraphProto *g = &b->graph;
    g->n_node = b->nodes.n;
    g->node = (Onnx__NodeProto **)b->nodes.v;
    for (size_t i = 0; i < b->nodes.n; i++) {
        Onnx__NodeProto *n = b->nodes.v[i];
        n->n_attribute = b->attrs[i].n;
        n->attribute = (Onnx__AttributeProto **)b->attrs[i].v;
    }
    g->n_input = b->inputs.n;
    g->input = (Onnx__ValueInfoProto **)b->inputs.v;
    g->n_output = b->outputs.n;
    g->output = (Onnx__ValueInfoProto **)b->outputs.v;
    g->n_initializer = b->inits.n;
    g->initializer = (Onnx__TensorProto **)b->inits.v;
}

oc_status oc_builder_attr_graph(oc_builder *b, size_t node, const char *name,
                                oc_builder *body)
{
    if (!b->err.status && body->err.status)
        return fail(b, body->err.status, "attribute '%s': %s", name, body->err.msg);
    Onnx__AttributeProto *a =
        new_attr(b, node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH);
    if (!a)
        return b->err.status;
    body->graph.name = dup(body, name);
    if (!body->graph.name)
        return nomem(b);
    finish_graph(body);
    a->g = &body->graph;
    return OC_OK;
}

oc_status oc_builder_pack(oc_builder *b, void **data, size_t *size, oc_error *err)
{
    *data = NULL;
    *size = 0;
    if (b->err.status)
        return oc_builder_status(b, err);
    finish_graph(b);
    b->model.n_opset_import = b->opsets.n;
    b->model.opset_import = (Onnx__OperatorSetIdProto **)b->opsets.v;
    size_t n = protobuf_c_message_get_packed_size(&b->model.base);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf)
        return oc_error_set(err, OC_ERR_NOMEM, NULL,
                            "out of memory packing a %zu-byte model", n);
    size_t w = protobuf_c_message_pack(&b->model.base, buf);
    if (w != n) {
        free(buf);
        return oc_error_set(err, OC_ERR_INTERNAL, NULL,
                            "protobuf-c packed %zu bytes, expected %zu", w, n);
    }
    *data = buf;
    *size = n;
    return OC_OK;
}

oc_status oc_builder_save(oc_builder *b, const char *path, oc_error *err)
{
    void *data;
    size_t size;
    oc_status st = oc_builder_pack(b, &data, &size, err);
    if (st)
        return st;
    st = oc_write_file_atomic(path, data, size, err);
    free(data);
    return st;
}
