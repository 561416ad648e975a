/*
 * build.h - write small ONNX models: graph inputs and outputs, initializers,
 * nodes with attributes, opset imports.  The collector builds one model per
 * timed sample with it; tests build models to check the analyzer.
 *
 *     oc_builder *b = oc_builder_new(17);
 *     int64_t x[] = {1, 64, 56, 56}, w[] = {64, 64, 3, 3};
 *     oc_builder_input(b, "X", OC_DT_FLOAT, 4, x);
 *     oc_builder_random(b, "W", OC_DT_FLOAT, 4, w, -1.0, 1.0, seed);
 *     size_t n = oc_builder_node(b, "Conv", "conv0", "X,W", "Y");
 *     oc_builder_attr_ints(b, n, "kernel_shape", 2, (int64_t[]){3, 3});
 *     oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
 *     if (oc_builder_save(b, "m.onnx", &err) != OC_OK) ...
 *     oc_builder_free(b);
 *
 * Errors are sticky: a failing call returns its status and is remembered,
 * later calls do nothing, and oc_builder_save()/oc_builder_pack() report
 * the first failure.  So a sequence of calls needs one check at the end.
 *
 * Names given to the builder are copied.  Nothing is validated beyond what
 * the encoding needs: load the result (oc_model_load_buffer) to check it.
 */
#ifndef OC_BUILD_H
#define OC_BUILD_H

#include "onnx/common.h"

typedef struct oc_builder oc_builder;

/* A builder for a model importing the default domain at `opset`
 * (ir_version 8).  NULL when out of memory. */
oc_builder *oc_builder_new(int64_t opset);
void oc_builder_free(oc_builder *b); /* NULL is accepted */

/* Import another domain, or change the version of one already imported
 * ("" is the default domain). */
oc_status oc_builder_opset(oc_builder *b, const char *domain, int64_t version);

/* Leave out the payload of random initializers and mark them external:
 * the packed model still analyses (shapes and costs need no weights) but
 * cannot run.  For cheap size checks before building the real model. */
void oc_builder_elide_random(oc_builder *b, bool elide);

/* A graph input.  rank -1 declares no shape; a dim < 0 is left symbolic
 * with no name (unknown). */
oc_status oc_builder_input(oc_builder *b, const char *name, oc_dtype dtype,
                           int rank, const int64_t *dims);
/* A graph input whose dims < 0 are named by syms[i] (dim_param) where
 * syms[i] is not NULL. */
oc_status oc_builder_input_sym(oc_builder *b, const char *name, oc_dtype dtype,
                               int rank, const int64_t *dims, const char *const *syms);
/* A graph output; as for inputs. */
oc_status oc_builder_output(oc_builder *b, const char *name, oc_dtype dtype,
                            int rank, const int64_t *dims);

/* An initializer of uniform random values in [lo, hi), a pure function of
 * (seed, name): float32, float64, or int64, int32, int8, uint8 (integers in
 * [lo, hi), within the type's range: a quantized weight, a zero point). */
oc_status oc_builder_random(oc_builder *b, const char *name, oc_dtype dtype,
                            int rank, const int64_t *dims, double lo, double hi,
                            uint64_t seed);
/* Initializers with given values (numel = product of dims entries). */
oc_status oc_builder_ints(oc_builder *b, const char *name, int rank,
                          const int64_t *dims, const int64_t *vals);
oc_status oc_builder_floats(oc_builder *b, const char *name, int rank,
                            const int64_t *dims, const float *vals);

/* A node.  inputs and outputs are comma-separated value names; an empty
 * item ("X,,scales") is an omitted optional input.  Returns the node's
 * index (in insertion order), or (size_t)-1 after an error. */
size_t oc_builder_node(oc_builder *b, const char *op, const char *name,
                       const char *inputs, const char *outputs);
/* Set the node's domain (default ""). */
oc_status oc_builder_node_domain(oc_builder *b, size_t node, const char *domain);

/* Attributes of node `node` (an index oc_builder_node returned). */
oc_status oc_builder_attr_int(oc_builder *b, size_t node, const char *name,
                              int64_t v);
oc_status oc_builder_attr_float(oc_builder *b, size_t node, const char *name,
                                float v);
oc_status oc_builder_attr_string(oc_builder *b, size_t node, const char *name,
                                 const char *v);
oc_status oc_builder_attr_ints(oc_builder *b, size_t node, const char *name,
                               size_t n, const int64_t *v);
oc_status oc_builder_attr_floats(oc_builder *b, size_t node, const char *name,
                                 size_t n, const float *v);
/* A TENSOR attribute of int64 values (numel = product of dims entries),
 * e.g. ConstantOfShape's value. */
oc_status oc_builder_attr_tensor_ints(oc_builder *b, size_t node, const char *name,
                                      int rank, const int64_t *dims, const int64_t *vals);

/* A GRAPH attribute (If's branches, Loop's and Scan's body): the graph
 * built in `body` (its inputs, outputs, initializers and nodes; names it
 * does not define are the enclosing graph's).  body is not copied: keep
 * it, unchanged, until b is packed or saved, then free it. */
oc_status oc_builder_attr_graph(oc_builder *b, size_t node, const char *name,
                                oc_builder *body);

/* The first error so far (OC_OK if none), its record copied to err. */
oc_status oc_builder_status(const oc_builder *b, oc_error *err);

/* Serialize.  *data is malloc'd (free() it) and *size its length. */
oc_status oc_builder_pack(oc_builder *b, void **data, size_t *size,
                          oc_error *err);
/* Serialize and write atomically (oc_write_file_atomic). */
oc_status oc_builder_save(oc_builder *b, const char *path, oc_error *err);

/* The deterministic generator behind oc_builder_random (splitmix64), for
 * callers that need the same stream: a 64-bit hash of (seed, s). */
uint64_t oc_hash_seed(uint64_t seed, const char *s);

#endif
