/*
 * values.h - what the operator rules know about their inputs' contents
 * and shapes: known element counts, small tensors' known values
 * (propagated shape arithmetic or the constant behind an input), scalars
 * and flags.  One place for the helpers every analyzer/ops/ file needs.
 *
 * Integer contents are oc_dim: sym == NULL is the literal number v
 * (negative ones included), otherwise the non-negative v * sym.  Pointers
 * returned point into analysis memory (oc_ctx_alloc) or into the input's
 * info; they live as long as the analysis.
 */
#ifndef OC_VALUES_H
#define OC_VALUES_H

#include "analyzer/op.h"

/* Both dims known numbers and different (a certain mismatch). */
bool oc_dims_differ(oc_dim a, oc_dim b);

/* Element count of a shape whose dims are all known numbers (no symbol);
 * false for rank < 0, a symbolic or unknown dim, or an overflow. */
bool oc_known_numel(int rank, const oc_dim *dims, int64_t *out);
/* Same for an info; false for NULL. */
bool oc_tinfo_known_numel(const oc_tinfo *t, int64_t *out);

/* Row-major strides of a shape of known numbers (rank entries in st). */
void oc_strides_of(int rank, const oc_dim *dims, int64_t *st);

/* t is a tensor whose contents are known (nvals >= 0, with values unless
 * it is empty). */
bool oc_has_vals(const oc_tinfo *t);
/* oc_has_vals, and the contents hold exactly the elements its known
 * shape has (safe to index by position). */
bool oc_vals_usable(const oc_tinfo *t);

/* Integer contents of input i: its propagated values, else the constant
 * behind it when it has at most OC_SMALL_TENSOR integer elements. */
bool oc_in_dimvals(oc_op_ctx *c, size_t i, const oc_dim **vals, int64_t *n);
/* Integer contents of input i from propagated values only. */
bool oc_in_dimvals_propagated(const oc_op_ctx *c, size_t i,
                              const oc_dim **vals, int64_t *n);
/* An integer list attribute as contents; false when absent. */
bool oc_attr_dimvals(oc_op_ctx *c, const char *name, const oc_dim **vals,
                     int64_t *n);

/* Integer values of a tensor known by content (constant or propagated),
 * all of them known numbers (not symbolic).  Returns false otherwise. */
bool oc_in_ints(const oc_op_ctx *c, size_t i, const int64_t **vals,
                int64_t *n);
/* Same for a float tensor (Resize scales, ConstantOfShape value...);
 * integer contents are converted. */
bool oc_in_floats(const oc_op_ctx *c, size_t i, const double **vals,
                  int64_t *n);
/* Input i's element type; OC_DT_UNDEFINED when it is omitted or unknown. */
oc_dtype oc_in_dtype(const oc_op_ctx *c, size_t i);
/* Input i holds one known number (oc_in_ints with one element). */
bool oc_in_scalar(const oc_op_ctx *c, size_t i, int64_t *v);
/* Input i holds one element: an integer (possibly symbolic) dim, or a
 * float that is a whole number in [0, 9e15). */
bool oc_in_scalar_dim(const oc_op_ctx *c, size_t i, oc_dim *d);
/* A known boolean/integer/float scalar as 1 or 0; -1 when not known
 * (a symbolic integer is not known). */
int oc_known_flag(const oc_tinfo *t);

/* Output o gets src's contents when they are known. */
oc_status oc_out_copy_vals(oc_op_ctx *c, size_t o, const oc_tinfo *src);
/* Output o gets n of src's contents: element k is src's map[k] (src's
 * contents known; indices in range). */
oc_status oc_out_map_vals(oc_op_ctx *c, size_t o, const oc_tinfo *src,
                          const int64_t *map, int64_t n);

#endif
