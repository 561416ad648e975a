/*
 * shape.c - operators that create or rearrange a tensor without arithmetic:
 * Constant, Shape, Size, Reshape, Flatten, Squeeze, Unsqueeze, Transpose,
 * Expand, Tile.
 *
 * Costs: all of them move data only, so they have no cost rule (0 MACs and
 * 0 FLOPs); the bytes they read and write are counted by the core.
 *
 * Value propagation: exporters compute Reshape targets from Shape(x), so
 * every operator here also carries the known contents of small tensors
 * (integer contents as oc_dim, which may be symbolic: Shape of [N,128,768]
 * holds {N,128,768}).  A content element with sym == NULL is the literal
 * number v, negative ones included (a Reshape target's -1).
 */
#include <string.h>

#include "analyzer/values.h"

/*
 * Map for an output of known shape odims whose element at multi-index idx
 * comes from input flat index sum(idx[k] * in_step[k]) (in_step 0 on a
 * broadcast axis).  Returns false when the output is too big to carry.
 */
static bool strided_map(oc_op_ctx *c, int rank, const oc_dim *odims,
                        const int64_t *in_step, int64_t **map, int64_t *n)
{
    int64_t total, idx[OC_MAX_RANK] = {0};
    if (!oc_known_numel(rank, odims, &total) || total > OC_SMALL_TENSOR)
        return false;
    int64_t *m = oc_ctx_alloc(c, (size_t)(total + 1) * sizeof *m);
    if (!m)
        return false;
    for (int64_t k = 0; k < total; k++) {
        int64_t f = 0;
        for (int a = 0; a < rank; a++)
            f += idx[a] * in_step[a];
        m[k] = f;
        for (int a = rank - 1; a >= 0; a--) {
            if (++idx[a] < odims[a].v)
                break;
            idx[a] = 0;
        }
    }
    *map = m;
    *n = total;
    return true;
}

/* Length of a 1-D input whose contents are unknown, or -1. */
static int64_t in_len(const oc_op_ctx *c, size_t i)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    if (t && t->rank == 1 && oc_dim_is_known(t->dims[0]))
        return t->dims[0].v;
    if (t && t->rank == 0)
        return 1;
    return -1;
}

/* Output 0 with the dtype of input 0, rank r and all dims unknown. */
static oc_status out_unknown_dims(oc_op_ctx *c, int r)
{
    oc_dim d[OC_MAX_RANK];
    if (r > OC_MAX_RANK)
        r = -1;
    for (int i = 0; i < r; i++)
        d[i] = OC_DIM_UNKNOWN;
    return oc_out_set(c, 0, oc_in_dtype(c, 0), r, d);
}

/* ---- Constant ---- */

static oc_status constant_tensor(oc_op_ctx *c, const oc_tensor *t)
{
    oc_dim d[OC_MAX_RANK];
    if (!t)
        return oc_fail(c, "Constant: 'value' is not a tensor");
    if (t->rank < 0 || t->rank > OC_MAX_RANK)
        return oc_fail(c, "Constant: tensor value has rank %d", t->rank);
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return oc_fail(c, "Constant: tensor has negative dim %lld",
                           (long long)t->dims[i]);
        d[i] = oc_dim_of(t->dims[i]);
    }
    oc_status s = oc_out_set(c, 0, t->dtype, t->rank, d);
    if (s != OC_OK || t->numel > OC_SMALL_TENSOR)
        return s;
    int64_t n = (int64_t)t->numel;
    if (t->ivals) {
        oc_dim *v = oc_ctx_alloc(c, (size_t)(n + 1) * sizeof *v);
        if (!v)
            return OC_ERR_NOMEM;
        for (int64_t k = 0; k < n; k++)
            v[k] = oc_dim_of(t->ivals[k]);
        return oc_out_ivals(c, 0, n, v);
    }
    if (t->fvals)
        return oc_out_fvals(c, 0, n, t->fvals);
    return OC_OK;
}

static oc_status constant_ints(oc_op_ctx *c, const oc_attr *a, bool scalar)
{
    int64_t n = scalar ? 1 : (int64_t)a->n;
    oc_dim len = oc_dim_of(n);
    oc_status s = oc_out_set(c, 0, OC_DT_INT64, scalar ? 0 : 1, &len);
    if (s != OC_OK || n > OC_SMALL_TENSOR)
        return s;
    oc_dim *v = oc_ctx_alloc(c, (size_t)(n + 1) * sizeof *v);
    if (!v)
        return OC_ERR_NOMEM;
    for (int64_t k = 0; k < n; k++)
        v[k] = oc_dim_of(scalar ? a->i : a->ints[k]);
    return oc_out_ivals(c, 0, n, v);
}

static oc_status constant_floats(oc_op_ctx *c, const oc_attr *a, bool scalar)
{
    int64_t n = scalar ? 1 : (int64_t)a->n;
    oc_dim len = oc_dim_of(n);
    oc_status s = oc_out_set(c, 0, OC_DT_FLOAT, scalar ? 0 : 1, &len);
    if (s != OC_OK || n > OC_SMALL_TENSOR)
        return s;
    return oc_out_fvals(c, 0, n, scalar ? &a->f : a->floats);
}

oc_status oc_constant_infer(oc_op_ctx *c)
{
    const oc_attr *a;
    if ((a = oc_ctx_attr(c, "value")) != NULL)
        return constant_tensor(c, a->t);
    if ((a = oc_ctx_attr(c, "sparse_value")) != NULL) {
        /* The output is dense with the sparse tensor's dense shape; the
         * values are not worth decoding. */
        if (!a->t)
            return oc_out_set(c, 0, OC_DT_UNDEFINED, -1, NULL);
        oc_tensor t = *a->t;
        t.ivals = NULL;
        t.fvals = NULL;
        return constant_tensor(c, &t);
    }
    if ((a = oc_ctx_attr(c, "value_int")) != NULL)
        return constant_ints(c, a, true);
    if ((a = oc_ctx_attr(c, "value_ints")) != NULL)
        return constant_ints(c, a, false);
    if ((a = oc_ctx_attr(c, "value_float")) != NULL)
        return constant_floats(c, a, true);
    if ((a = oc_ctx_attr(c, "value_floats")) != NULL)
        return constant_floats(c, a, false);
    if ((a = oc_ctx_attr(c, "value_string")) != NULL)
        return oc_out_set(c, 0, OC_DT_STRING, 0, NULL);
    if ((a = oc_ctx_attr(c, "value_strings")) != NULL) {
        oc_dim len = oc_dim_of((int64_t)a->n);
        return oc_out_set(c, 0, OC_DT_STRING, 1, &len);
    }
    return oc_fail(c, "Constant: no value attribute");
}

/* ---- Shape, Size ---- */

static int64_t clamp_rank_index(int64_t i, int rank)
{
    if (i < 0)
        i += rank;
    if (i < 0)
        return 0;
    return i > rank ? rank : i;
}

oc_status oc_shape_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dim len = OC_DIM_UNKNOWN;
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, OC_DT_INT64, 1, &len);
    int64_t start = 0, end = x->rank;
    if (oc_ctx_opset(c) >= 15) {
        start = clamp_rank_index(oc_attr_int(c, "start", 0), x->rank);
        end = clamp_rank_index(oc_attr_int(c, "end", x->rank), x->rank);
    }
    int64_t n = end > start ? end - start : 0;
    len = oc_dim_of(n);
    oc_status s = oc_out_set(c, 0, OC_DT_INT64, 1, &len);
    if (s != OC_OK)
        return s;
    /* At load time a runtime knows a Shape's values only when the whole
     * shape is concrete (that is when it folds the node). */
    for (int64_t i = oc_ctx_session_view(c) ? 0 : start; i < (oc_ctx_session_view(c) ? x->rank : end); i++)
        if (oc_ctx_session_view(c) ? !oc_dim_is_known(x->dims[i]) : oc_dim_is_unknown(x->dims[i]))
            return OC_OK;
    return oc_out_ivals(c, 0, n, x->dims + start);
}

oc_status oc_size_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_status s = oc_out_set(c, 0, OC_DT_INT64, 0, NULL);
    if (s != OC_OK || !x || x->rank < 0)
        return s;
    oc_dim n = oc_dim_of(1);
    for (int i = 0; i < x->rank; i++)
        n = oc_dim_mul(c, n, x->dims[i]);
    if (oc_dim_is_unknown(n) || (oc_ctx_session_view(c) && !oc_dim_is_known(n)))
        return OC_OK;
    return oc_out_ivals(c, 0, 1, &n);
}

/* ---- Reshape ---- */

static oc_dim dims_product(oc_op_ctx *c, int rank, const oc_dim *d, int skip)
{
    oc_dim p = oc_dim_of(1);
    for (int i = 0; i < rank; i++)
        if (i != skip)
            p = oc_dim_mul(c, p, d[i]);
    return p;
}

/* The dim a -1 entry stands for: all elements over the other dims. */
static oc_status reshape_infer_dim(oc_op_ctx *c, const oc_tinfo *x,
                                   oc_dim *out, int rank, int neg)
{
    out[neg] = OC_DIM_UNKNOWN;
    if (!x || x->rank < 0)
        return OC_OK;
    oc_dim total = dims_product(c, x->rank, x->dims, -1);
    oc_dim rest = dims_product(c, rank, out, neg);
    if (oc_dim_is_known(rest) && rest.v == 0)
        return OC_OK; /* any size fits: the model leaves it open */
    if (oc_dim_is_known(total) && oc_dim_is_known(rest)) {
        if (total.v % rest.v != 0)
            return oc_fail(c, "Reshape: %lld elements cannot be split into "
                              "dims of product %lld",
                           (long long)total.v, (long long)rest.v);
        out[neg] = oc_dim_of(total.v / rest.v);
        return OC_OK;
    }
    out[neg] = oc_dim_div(c, total, rest);
    return OC_OK;
}

oc_status oc_reshape_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const oc_dim *tv = NULL;
    int64_t n = -1;
    oc_dim *attr_dims = NULL;
    bool allowzero = oc_ctx_opset(c) >= 14 && oc_attr_int(c, "allowzero", 0);

    if (oc_ctx_opset(c) < 5) {
        size_t na;
        const int64_t *sh = oc_attr_ints(c, "shape", &na);
        attr_dims = oc_ctx_alloc(c, (na + 1) * sizeof *attr_dims);
        if (!attr_dims)
            return OC_ERR_NOMEM;
        for (size_t i = 0; i < na; i++)
            attr_dims[i] = oc_dim_of(sh[i]);
        tv = attr_dims;
        n = (int64_t)na;
    } else if (!oc_in_dimvals(c, 1, &tv, &n)) {
        return out_unknown_dims(c, (int)(in_len(c, 1) <= OC_MAX_RANK
                                             ? in_len(c, 1) : -1));
    }
    if (n > OC_MAX_RANK)
        return oc_fail(c, "Reshape: target rank %lld is too large",
                       (long long)n);

    oc_dim out[OC_MAX_RANK];
    int neg = -1;
    bool has_zero = false;
    for (int i = 0; i < (int)n; i++) {
        oc_dim t = tv[i];
        if (t.sym || t.v > 0 || (t.v == 0 && allowzero)) {
            out[i] = t;
            has_zero |= !t.sym && t.v == 0;
        } else if (t.v == 0) {
            if (x && x->rank >= 0 && i >= x->rank)
                return oc_fail(c, "Reshape: target dim %d is 0 (copy) but "
                                  "the input has rank %d", i, x->rank);
            out[i] = (x && x->rank >= 0) ? x->dims[i] : OC_DIM_UNKNOWN;
        } else if (t.v == -1) {
            if (neg >= 0)
                return oc_fail(c, "Reshape: more than one -1 in the target "
                                  "shape");
            neg = i;
        } else {
            return oc_fail(c, "Reshape: invalid target dim %lld",
                           (long long)t.v);
        }
    }
    if (neg >= 0 && has_zero)
        return oc_fail(c, "Reshape: -1 together with 0 and allowzero=1");
    if (neg >= 0) {
        oc_status s = reshape_infer_dim(c, x, out, (int)n, neg);
        if (s != OC_OK)
            return s;
    } else if (x && x->rank >= 0) {
        int64_t a, b;
        if (oc_known_numel(x->rank, x->dims, &a) &&
            oc_known_numel((int)n, out, &b) && a != b)
            return oc_fail(c, "Reshape: input has %lld elements but the "
                              "target shape %lld", (long long)a, (long long)b);
    }
    oc_status s = oc_out_set(c, 0, oc_in_dtype(c, 0), (int)n, out);
    if (s != OC_OK)
        return s;
    int64_t numel;
    if (oc_known_numel((int)n, out, &numel) && oc_has_vals(x) && x->nvals == numel)
        return oc_out_copy_vals(c, 0, x);
    return OC_OK;
}

/* ---- Flatten ---- */

oc_status oc_flatten_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dim out[2] = {OC_DIM_UNKNOWN, OC_DIM_UNKNOWN};
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), 2, out);
    /* axis in [-r, r]; a negative one counts from r (not r + 1). */
    int64_t a = oc_attr_int(c, "axis", 1);
    if (a < -x->rank || a > x->rank)
        return oc_fail(c, "Flatten: axis %lld is out of range for rank %d",
                       (long long)a, x->rank);
    int axis = (int)(a < 0 ? a + x->rank : a);
    oc_status s;
    out[0] = dims_product(c, axis, x->dims, -1);
    out[1] = dims_product(c, x->rank - axis, x->dims + axis, -1);
    s = oc_out_set(c, 0, x->dtype, 2, out);
    if (s == OC_OK && oc_vals_usable(x))
        s = oc_out_copy_vals(c, 0, x);
    return s;
}

/* ---- Squeeze, Unsqueeze ---- */

/*
 * The axes of Squeeze/Unsqueeze: an attribute before opset 13, an input
 * from 13.  Returns 1 with the list, 0 when absent, -1 when given but not
 * known (then *n is its length or -1).
 */
static int get_axes(oc_op_ctx *c, const int64_t **axes, int64_t *n)
{
    if (oc_ctx_opset(c) < 13) {
        size_t na;
        *axes = oc_attr_ints(c, "axes", &na);
        *n = (int64_t)na;
        return oc_ctx_attr(c, "axes") ? 1 : 0;
    }
    if (!oc_ctx_in(c, 1) && !oc_ctx_in_const(c, 1))
        return 0;
    if (oc_in_ints(c, 1, axes, n))
        return 1;
    *n = in_len(c, 1);
    return -1;
}

oc_status oc_squeeze_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const int64_t *axes = NULL;
    int64_t na = 0;
    int have = get_axes(c, &axes, &na);
    if (!x || x->rank < 0)
        return out_unknown_dims(c, -1);
    if (have < 0)
        return out_unknown_dims(c, na >= 0 && na <= x->rank
                                       ? x->rank - (int)na : -1);
    bool drop[OC_MAX_RANK] = {false};
    if (have == 0) {
        /* Without axes every 1 goes; an unknown dim might be one. */
        for (int i = 0; i < x->rank; i++) {
            if (oc_dim_is_unknown(x->dims[i]))
                return out_unknown_dims(c, -1);
            drop[i] = oc_dim_is_known(x->dims[i]) && x->dims[i].v == 1;
        }
    }
    for (int64_t k = 0; k < (have ? na : 0); k++) {
        int a;
        oc_status s = oc_axis(c, axes[k], x->rank, 0, &a);
        if (s != OC_OK)
            return s;
        if (drop[a])
            return oc_fail(c, "Squeeze: axis %d given twice", a);
        if (oc_dim_is_known(x->dims[a]) && x->dims[a].v != 1)
            return oc_fail(c, "Squeeze: dim %d is %lld, not 1", a,
                           (long long)x->dims[a].v);
        drop[a] = true;
    }
    oc_dim out[OC_MAX_RANK];
    int r = 0;
    for (int i = 0; i < x->rank; i++)
        if (!drop[i])
            out[r++] = x->dims[i];
    oc_status s = oc_out_set(c, 0, x->dtype, r, out);
    if (s == OC_OK && oc_vals_usable(x))
        s = oc_out_copy_vals(c, 0, x);
    return s;
}

oc_status oc_unsqueeze_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const int64_t *axes = NULL;
    int64_t na = 0;
    int have = get_axes(c, &axes, &na);
    if (have == 0)
        return oc_fail(c, "Unsqueeze: axes are required");
    if (!x || x->rank < 0 || have < 0 || x->rank + na > OC_MAX_RANK)
        return out_unknown_dims(c, (x && x->rank >= 0 && na >= 0 &&
                                    x->rank + na <= OC_MAX_RANK)
                                       ? x->rank + (int)na : -1);
    int r = x->rank + (int)na;
    bool ins[OC_MAX_RANK] = {false};
    for (int64_t k = 0; k < na; k++) {
        int a;
        oc_status s = oc_axis(c, axes[k], r, 0, &a);
        if (s != OC_OK)
            return s;
        if (ins[a])
            return oc_fail(c, "Unsqueeze: axis %d given twice", a);
        ins[a] = true;
    }
    oc_dim out[OC_MAX_RANK];
    for (int i = 0, j = 0; i < r; i++)
        out[i] = ins[i] ? oc_dim_of(1) : x->dims[j++];
    oc_status s = oc_out_set(c, 0, x->dtype, r, out);
    if (s == OC_OK && oc_vals_usable(x))
        s = oc_out_copy_vals(c, 0, x);
    return s;
}

/* ---- Transpose ---- */

oc_status oc_transpose_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    size_t np;
    const int64_t *perm = oc_attr_ints(c, "perm", &np);
    if (!x || x->rank < 0)
        return out_unknown_dims(c, oc_ctx_attr(c, "perm") &&
                                           np <= OC_MAX_RANK
                                       ? (int)np : -1);
    int r = x->rank, p[OC_MAX_RANK];
    bool seen[OC_MAX_RANK] = {false};
    if (oc_ctx_attr(c, "perm") && np != (size_t)r)
        return oc_fail(c, "Transpose: perm has %zu entries for rank %d", np,
                       r);
    for (int i = 0; i < r; i++) {
        int64_t v = oc_ctx_attr(c, "perm") ? perm[i] : r - 1 - i;
        if (v < 0 || v >= r || seen[v])
            return oc_fail(c, "Transpose: perm is not a permutation of 0..%d",
                           r - 1);
        seen[v] = true;
        p[i] = (int)v;
    }
    oc_dim out[OC_MAX_RANK];
    for (int i = 0; i < r; i++)
        out[i] = x->dims[p[i]];
    oc_status s = oc_out_set(c, 0, x->dtype, r, out);
    if (s != OC_OK || !oc_vals_usable(x))
        return s;
    int64_t ist[OC_MAX_RANK], step[OC_MAX_RANK], *map, n;
    oc_strides_of(r, x->dims, ist);
    for (int i = 0; i < r; i++)
        step[i] = ist[p[i]];
    if (strided_map(c, r, out, step, &map, &n))
        return oc_out_map_vals(c, 0, x, map, n);
    return OC_OK;
}

/* ---- Expand, Tile ---- */

oc_status oc_expand_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const oc_dim *tv;
    int64_t n;
    if (!oc_in_dimvals(c, 1, &tv, &n)) {
        int64_t len = in_len(c, 1);
        int r = -1;
        if (x && x->rank >= 0 && len >= 0 && len <= OC_MAX_RANK)
            r = x->rank > len ? x->rank : (int)len;
        return out_unknown_dims(c, r);
    }
    if (n > OC_MAX_RANK)
        return oc_fail(c, "Expand: target rank %lld is too large",
                       (long long)n);
    for (int64_t i = 0; i < n; i++)
        if (!tv[i].sym && tv[i].v < 0)
            return oc_fail(c, "Expand: negative target dim %lld",
                           (long long)tv[i].v);
    oc_tinfo target = {.kind = OC_KIND_TENSOR,
                       .dtype = x ? x->dtype : OC_DT_UNDEFINED,
                       .rank = (int)n,
                       .dims = (oc_dim *)tv,
                       .nvals = -1};
    const oc_tinfo *both[2] = {x, &target};
    oc_dim out[OC_MAX_RANK];
    int r;
    oc_tinfo unknown = {.kind = OC_KIND_TENSOR, .rank = -1, .nvals = -1};
    if (!x)
        both[0] = &unknown;
    oc_status s = oc_broadcast(c, both, 2, &r, out);
    if (s != OC_OK)
        return s;
    s = oc_out_set(c, 0, oc_in_dtype(c, 0), r, out);
    if (s != OC_OK || !oc_vals_usable(x))
        return s;
    /* Input axis i lines up with output axis i + (r - rank). */
    int64_t ist[OC_MAX_RANK], step[OC_MAX_RANK] = {0}, *map, cnt;
    oc_strides_of(x->rank, x->dims, ist);
    for (int i = 0; i < x->rank; i++)
        step[i + r - x->rank] = x->dims[i].v == 1 ? 0 : ist[i];
    if (strided_map(c, r, out, step, &map, &cnt))
        return oc_out_map_vals(c, 0, x, map, cnt);
    return OC_OK;
}

static oc_status tile_vals(oc_op_ctx *c, const oc_tinfo *x, const oc_dim *out)
{
    int r = x->rank;
    int64_t total, idx[OC_MAX_RANK] = {0}, ist[OC_MAX_RANK];
    if (!oc_known_numel(r, out, &total) || total > OC_SMALL_TENSOR)
        return OC_OK;
    int64_t *map = oc_ctx_alloc(c, (size_t)(total + 1) * sizeof *map);
    if (!map)
        return OC_ERR_NOMEM;
    oc_strides_of(r, x->dims, ist);
    for (int64_t k = 0; k < total; k++) {
        int64_t f = 0;
        for (int a = 0; a < r; a++)
            f += (idx[a] % x->dims[a].v) * ist[a];
        map[k] = f;
        for (int a = r - 1; a >= 0; a--) {
            if (++idx[a] < out[a].v)
                break;
            idx[a] = 0;
        }
    }
    return oc_out_map_vals(c, 0, x, map, total);
}

oc_status oc_tile_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const oc_dim *rep;
    int64_t n;
    if (!x || x->rank < 0)
        return out_unknown_dims(c, (int)(in_len(c, 1) <= OC_MAX_RANK
                                             ? in_len(c, 1) : -1));
    if (!oc_in_dimvals(c, 1, &rep, &n))
        return out_unknown_dims(c, x->rank);
    if (n != x->rank)
        return oc_fail(c, "Tile: %lld repeats for rank %d", (long long)n,
                       x->rank);
    oc_dim out[OC_MAX_RANK];
    for (int i = 0; i < x->rank; i++) {
        if (!rep[i].sym && rep[i].v < 0)
            return oc_fail(c, "Tile: negative repeat %lld",
                           (long long)rep[i].v);
        out[i] = oc_dim_mul(c, x->dims[i], rep[i]);
    }
    oc_status s = oc_out_set(c, 0, x->dtype, x->rank, out);
    if (s == OC_OK && oc_vals_usable(x))
        s = tile_vals(c, x, out);
    return s;
}
