/*
 * model.h - load an ONNX model into a small graph IR.
 *
 * Walk-through:
 *
 *     oc_error err;
 *     oc_model *m;
 *     if (oc_model_load_file("net.onnx", &m, &err) != OC_OK) {
 *         fprintf(stderr, "%s\n", err.msg);
 *         return 2;
 *     }
 *     const oc_graph *g = oc_model_graph(m);
 *     for (size_t i = 0; i < g->n_nodes; i++) {
 *         const oc_node *n = &g->nodes[g->topo[i]];   // topological order
 *         ...
 *     }
 *     oc_model_free(m);
 *
 * Everything reachable from an oc_model (graph, nodes, strings, constant
 * values) lives in the model's arena and is freed by oc_model_free().  The
 * IR never exposes protobuf types.  Weight payloads are not copied: large
 * raw initializer bytes stay in the mapped file and are read only when a
 * model is saved.
 */
#ifndef OC_MODEL_H
#define OC_MODEL_H

#include "onnx/common.h"

/* A dimension of a declared shape or of an inferred one.
 *   known:    sym == NULL, v >= 0
 *   symbolic: sym != NULL, the dim equals v * sym (v >= 1); sym is a name
 *             such as "N", a product "L*N", or an opaque "(L+1)"
 *   unknown:  sym == NULL, v < 0 */
typedef struct oc_dim {
    int64_t v;
    const char *sym;
} oc_dim;

static inline bool oc_dim_is_known(oc_dim d) { return !d.sym && d.v >= 0; }
static inline bool oc_dim_is_sym(oc_dim d) { return d.sym != NULL; }
static inline bool oc_dim_is_unknown(oc_dim d) { return !d.sym && d.v < 0; }
static inline oc_dim oc_dim_of(int64_t v) { return (oc_dim){v, NULL}; }
#define OC_DIM_UNKNOWN ((oc_dim){-1, NULL})

typedef enum oc_value_kind {
    OC_KIND_TENSOR = 0,
    OC_KIND_SEQUENCE,
    OC_KIND_MAP,
    OC_KIND_OPTIONAL,
    OC_KIND_SPARSE,
    OC_KIND_NONE /* no type information at all */
} oc_value_kind;

/* Content of a constant (initializer, Constant node, tensor attribute). */
typedef struct oc_tensor {
    const char *name;
    oc_dtype dtype;
    int rank;
    const int64_t *dims;
    uint64_t numel;
    bool external;     /* data in an external file (not needed to analyse) */
    const char *location; /* external: its file, relative to the model's folder
                             (checked: inside it); NULL when not given */
    uint64_t ext_offset, ext_length; /* external: its "offset" and "length"
                                        keys (0 when absent or not a number) */
    bool has_data;     /* numel elements are available in the file */
    /* Decoded values for small tensors (numel <= OC_SMALL_TENSOR), else NULL.
     * Integer and bool dtypes fill ivals; float dtypes fill fvals. */
    const int64_t *ivals;
    const double *fvals;
} oc_tensor;

enum { OC_SMALL_TENSOR = 4096 };

typedef enum oc_attr_type {
    OC_ATTR_UNDEFINED = 0,
    OC_ATTR_FLOAT = 1,
    OC_ATTR_INT = 2,
    OC_ATTR_STRING = 3,
    OC_ATTR_TENSOR = 4,
    OC_ATTR_GRAPH = 5,
    OC_ATTR_FLOATS = 6,
    OC_ATTR_INTS = 7,
    OC_ATTR_STRINGS = 8,
    OC_ATTR_TENSORS = 9,
    OC_ATTR_GRAPHS = 10,
    OC_ATTR_SPARSE_TENSOR = 11,
    OC_ATTR_SPARSE_TENSORS = 12,
    OC_ATTR_TYPE_PROTO = 13,
    OC_ATTR_TYPE_PROTOS = 14
} oc_attr_type;

struct oc_graph;

typedef struct oc_attr {
    const char *name;
    oc_attr_type type;
    int64_t i;
    double f;
    const char *s; /* NUL-terminated copy; s_len excludes the NUL */
    size_t s_len;
    size_t n; /* element count of the list fields below */
    const int64_t *ints;
    const double *floats;
    const char *const *strings;
    const oc_tensor *t;             /* OC_ATTR_TENSOR */
    const oc_tensor *const *tensors;
    struct oc_graph *g;             /* OC_ATTR_GRAPH */
    struct oc_graph *const *graphs; /* OC_ATTR_GRAPHS */
} oc_attr;

typedef struct oc_value {
    const char *name;
    oc_value_kind kind;
    oc_dtype dtype;  /* element type; OC_DT_UNDEFINED when not declared */
    int rank;        /* -1 when the shape is not declared */
    const oc_dim *dims;
    int producer;    /* index of producing node in this graph, or -1 */
    bool is_input;   /* graph input (not an initializer) */
    bool is_output;
    bool is_outer;   /* defined in an enclosing graph (subgraphs only) */
    const oc_tensor *constant; /* initializer or Constant output, or NULL */
    bool is_initializer;
} oc_value;

typedef struct oc_node {
    const char *name; /* never NULL; a generated "op_type#index" if unnamed */
    const char *op;
    const char *domain; /* "" for the default ONNX domain */
    int opset;          /* opset version of the node's domain, 0 if absent */
    size_t n_inputs, n_outputs;
    const int *inputs;  /* value indices; -1 for an omitted optional input */
    const int *outputs; /* value indices; -1 for an omitted optional output */
    size_t n_attrs;
    const oc_attr *attrs;
    const char *doc;
} oc_node;

typedef struct oc_graph {
    const char *name;
    const struct oc_graph *parent; /* NULL for the main graph */
    size_t n_values;
    oc_value *values;
    size_t n_nodes;
    oc_node *nodes;
    size_t n_inputs, n_outputs, n_initializers;
    const int *inputs;  /* graph inputs in declaration order (non-initializer) */
    const int *outputs; /* graph outputs in declaration order */
    const int *topo;    /* node indices in a topological order */
    /* A hash index of value names; use oc_graph_find(). */
    void *index_;
    /* The graph's message in the model, for annotations (save.c). */
    const void *proto_;
} oc_graph;

typedef struct oc_opset {
    const char *domain; /* "" for ai.onnx */
    int64_t version;
} oc_opset;

typedef struct oc_model oc_model;

typedef enum oc_compression { OC_PLAIN = 0, OC_GZIP = 1 } oc_compression;

/* The largest model accepted by default: 4 GiB (file size, size after
 * gzip decompression, or bytes read from standard input). */
#define OC_DEFAULT_MAX_MODEL_BYTES ((uint64_t)4 << 30)

/* Options of oc_model_load; a zeroed struct (or NULL) means the defaults. */
typedef struct oc_load_opts {
    /* The largest model accepted, in bytes (0: OC_DEFAULT_MAX_MODEL_BYTES):
     * a regular file's size, a gzip stream's decompressed size, and what is
     * read from standard input, each checked as the bytes arrive: a gzip
     * bomb or an endless stream is refused at the limit without holding
     * it in memory.  The CLI's --max-model-size. */
    uint64_t max_bytes;
} oc_load_opts;

/* Load from a file (plain or gzip, detected by magic bytes).  `path` must
 * name a regular file (it is mapped, not read: a weight never costs
 * memory unless the file is gzip'd); "-" or "/dev/stdin" reads standard
 * input as a stream.  A FIFO, device, socket or directory is refused at
 * once (a FIFO without a writer does not block).  On success *out owns
 * everything; on failure *out is NULL and err says why (naming the file).
 * Errors: OC_ERR_IO (missing, not a regular file, unreadable),
 * OC_ERR_INPUT (larger than the limit, not an ONNX model, truncated,
 * invalid graph, an external data location outside the model's folder). */
oc_status oc_model_load(const char *path, const oc_load_opts *opts, oc_model **out,
                        oc_error *err);
/* oc_model_load with the default options. */
oc_status oc_model_load_file(const char *path, oc_model **out, oc_error *err);

/* Load from memory.  The buffer is copied only where needed; it need not
 * outlive the call.  `label` names the source in error messages. */
oc_status oc_model_load_buffer(const void *data, size_t size, const char *label,
                               oc_model **out, oc_error *err);

void oc_model_free(oc_model *m); /* NULL is accepted */

const oc_graph *oc_model_graph(const oc_model *m);
int64_t oc_model_ir_version(const oc_model *m);
const char *oc_model_producer(const oc_model *m);         /* "" if unset */
const char *oc_model_producer_version(const oc_model *m); /* "" if unset */
size_t oc_model_n_opsets(const oc_model *m);
const oc_opset *oc_model_opsets(const oc_model *m);
/* The opset version for a domain ("" or "ai.onnx" for the default), or 0. */
int64_t oc_model_opset(const oc_model *m, const char *domain);
const char *oc_model_source(const oc_model *m); /* path or label */
/* The folder of the model's file, against which external data locations
 * are resolved; NULL for a buffer or standard input. */
const char *oc_model_dir(const oc_model *m);
/* How many tensors (anywhere in the model) keep their data in external
 * files; *example (may be NULL) the first one's location, or NULL. */
size_t oc_model_external_count(const oc_model *m, const char **example);
oc_compression oc_model_compression(const oc_model *m);
size_t oc_model_file_size(const oc_model *m);

/* Index of the value named `name` in g or -1.  Does not search parents. */
int oc_graph_find(const oc_graph *g, const char *name);
/* Number of elements; false if unknown, symbolic or overflowing. */
bool oc_value_numel(const oc_value *v, uint64_t *out);
const oc_attr *oc_node_attr(const oc_node *n, const char *name);
/* The weights packed into input `slot` of n when one stored element holds
 * several (MatMulNBits' B: K x N), else -1. */
int64_t oc_node_packed_weights(const oc_node *n, size_t slot);

/* The tensor a Constant node (default domain) holds, whichever attribute
 * stores it (value, value_float(s), value_int(s)): its element count and
 * dtype.  False for any other node, and for a string or sparse value. */
bool oc_node_constant_size(const oc_node *n, uint64_t *numel, oc_dtype *dtype);

/* Totals over the weights the model stores: the initializers and the values
 * of the Constant nodes of the main graph and of every subgraph (exporters
 * such as paddle2onnx keep every weight in a Constant node, and a Loop's
 * body may hold its own). */
uint64_t oc_model_param_count(const oc_model *m);
uint64_t oc_model_weight_bytes(const oc_model *m);

/* ---- annotation and saving ---- */

/* Append a line to a node's doc_string (main graph, node index i). */
oc_status oc_model_node_append_doc(oc_model *m, size_t node, const char *line,
                                   oc_error *err);
/* Set a key/value in a node's metadata_props (ONNX >= 1.16 field 9,
 * encoded even though the proto the code is generated from predates it). */
oc_status oc_model_node_set_meta(oc_model *m, size_t node, const char *key,
                                 const char *value, oc_error *err);
/* The same two for node `node` of g, m's main graph or one of its
 * subgraphs (an If's branch, a Loop's body). */
oc_status oc_model_graph_node_append_doc(oc_model *m, const oc_graph *g, size_t node,
                                         const char *line, oc_error *err);
oc_status oc_model_graph_node_set_meta(oc_model *m, const oc_graph *g, size_t node,
                                       const char *key, const char *value, oc_error *err);
/* Set a key/value in ModelProto.metadata_props (replaces an equal key). */
oc_status oc_model_set_meta(oc_model *m, const char *key, const char *value,
                            oc_error *err);

/* Write the model to `path` (gzip'd when it ends in ".gz") with
 * oc_write_file_atomic. */
oc_status oc_model_save(const oc_model *m, const char *path, oc_error *err);

/* Write any buffer to path atomically: a temporary file ".oc-XXXXXX" in
 * the target's folder (a short name: whatever name fits the folder, the
 * temporary does), fsync, then a rename over the target; the old file is
 * untouched on any failure.  A symbolic link is followed (the file it
 * points to is written, or created when it is missing, as a shell's >
 * does; the link stays a link).  A target with other hard links is overwritten in place once
 * the temporary is whole (room reserved first; the links, owner and
 * permissions stay), else renamed over with the old file's permissions
 * (a new one: 0666 less the umask).  A target that exists and is not a
 * regular file (device, FIFO, directory, socket) is refused: OC_ERR_IO,
 * nothing written. */
oc_status oc_write_file_atomic(const char *path, const void *data, size_t size,
                               oc_error *err);
/* The refusals of oc_write_file_atomic alone, for writers that append:
 * OC_OK when `path` is missing or (through its link) a regular file. */
oc_status oc_check_output_path(const char *path, oc_error *err);

#endif
