/*
 * slice.c - cutting and joining tensors: Slice, Split, Concat, Pad,
 * ReverseSequence, and the sequence operators (SplitToSequence,
 * SequenceAt, SequenceConstruct, SequenceEmpty, SequenceInsert,
 * SequenceErase, SequenceLength, ConcatFromSequence).
 *
 * Costs: data movement only, no cost rules (0 MACs, 0 FLOPs); the core
 * counts the bytes.
 *
 * Slice, Split and Concat carry known contents (see shape.c), so that
 * Shape -> Slice -> Concat -> Reshape chains keep their symbolic dims.
 */
#include <string.h>

#include "analyzer/values.h"

/* An end at or past this is "to the end" of a dim whose size is unknown
 * (exporters write INT64_MAX or INT32_MAX there). */
#define SLICE_TO_END INT64_C(2147483647)

/* dst[0..n) = src[0..n); src may be NULL when n is 0. */
static void dims_copy(oc_dim *dst, const oc_dim *src, int n)
{
    for (int i = 0; i < n; i++)
        dst[i] = src[i];
}

/* Output o (shape odims, known) takes input element
 * base + sum(idx[k] * in_step[k]) at output multi-index idx. */
static oc_status strided_vals(oc_op_ctx *c, size_t o, const oc_tinfo *src,
                              int rank, const oc_dim *odims, int64_t base,
                              const int64_t *in_step)
{
    int64_t total, idx[OC_MAX_RANK] = {0};
    if (!oc_known_numel(rank, odims, &total) || total > OC_SMALL_TENSOR)
        return OC_OK;
    int64_t *m = oc_ctx_alloc(c, (size_t)(total + 1) * sizeof *m);
    if (!m)
        return OC_ERR_NOMEM;
    for (int64_t k = 0; k < total; k++) {
        int64_t f = base;
        for (int a = 0; a < rank; a++)
            f += idx[a] * in_step[a];
        if (f < 0 || f >= src->nvals)
            return OC_OK; /* cannot happen for a consistent slice */
        m[k] = f;
        for (int a = rank - 1; a >= 0; a--) {
            if (++idx[a] < odims[a].v)
                break;
            idx[a] = 0;
        }
    }
    return oc_out_map_vals(c, o, src, m, total);
}

static bool is_num(oc_dim d) { return d.sym == NULL && d.v >= 0; }
/* A literal integer content element (any sign). */
static bool is_lit(oc_dim d) { return d.sym == NULL; }

/* d + k for a literal k of either sign. */
static oc_dim dim_add_int(oc_op_ctx *c, oc_dim d, int64_t k)
{
    if (k >= 0)
        return oc_dim_add(c, d, oc_dim_of(k));
    if (k == INT64_MIN)
        return OC_DIM_UNKNOWN;
    return oc_dim_sub(c, d, oc_dim_of(-k));
}

static oc_status out_rank_only(oc_op_ctx *c, size_t o, oc_dtype dt, int r)
{
    oc_dim d[OC_MAX_RANK];
    for (int i = 0; i < r && i < OC_MAX_RANK; i++)
        d[i] = OC_DIM_UNKNOWN;
    return oc_out_set(c, o, dt, r <= OC_MAX_RANK ? r : -1, d);
}

/* ---- Slice ---- */

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* Slice of a known dim: the length, and the first index in *first. */
static int64_t slice_known(int64_t d, int64_t s, int64_t e, int64_t step,
                           int64_t *first)
{
    *first = 0;
    if (d == 0)
        return 0;
    if (s < 0)
        s = s < -d ? -1 - d : s + d;
    if (e < 0)
        e = e < -d ? -1 - d : e + d;
    if (step > 0) {
        s = clamp64(s, 0, d);
        e = clamp64(e, 0, d);
        *first = s;
        return e > s ? (e - s - 1) / step + 1 : 0;
    }
    s = clamp64(s, 0, d - 1);
    e = clamp64(e, -1, d - 1);
    *first = s;
    return s > e ? (s - e - 1) / -step + 1 : 0;
}

/*
 * Slice of a dim that is symbolic or has symbolic bounds.  Endpoints are
 * seen as counted from the start or from the end; slices are assumed to lie
 * inside the dim (x[:, -1:] on a dim L gives 1), as the exporter meant.
 */
static oc_dim slice_sym(oc_op_ctx *c, oc_dim d, oc_dim s, oc_dim e,
                        int64_t step)
{
    if (step < 0) {
        /* Only the whole reversal x[::-k] is understood. */
        bool from_last = is_lit(s) && (s.v == -1 || s.v >= SLICE_TO_END);
        bool to_first = is_lit(e) && e.v <= -SLICE_TO_END;
        if (from_last && to_first)
            return oc_dim_ceildiv(c, d, oc_dim_of(-step));
        return OC_DIM_UNKNOWN;
    }
    if ((is_lit(e) && e.v <= -SLICE_TO_END) ||
        (is_lit(s) && s.v >= SLICE_TO_END))
        return oc_dim_of(0); /* ends before the start, starts past the end */
    if (is_lit(s) && s.v <= -SLICE_TO_END)
        s = oc_dim_of(0); /* starts before the first element: at it */
    bool s_end = is_lit(s) && s.v < 0; /* counted from the end */
    bool e_end = is_lit(e) && (e.v < 0 || e.v >= SLICE_TO_END);
    bool s_zero = is_lit(s) && s.v == 0;
    int64_t e_off = is_lit(e) && e.v < 0 ? e.v : 0;
    oc_dim len;
    if (s_end && e_end) {
        len = oc_dim_of(e_off > s.v ? e_off - s.v : 0);
    } else if (s_end) {
        return OC_DIM_UNKNOWN;
    } else if (e_end && is_lit(s)) {
        /* |s|, |e_off| < 2^31 here: no overflow */
        len = dim_add_int(c, d, e_off - s.v);
    } else if (e_end) {
        len = oc_dim_sub(c, e_off == 0 ? d : dim_add_int(c, d, e_off), s);
    } else if (is_num(e) && is_num(s)) {
        len = oc_dim_of(e.v > s.v ? e.v - s.v : 0);
    } else {
        len = s_zero ? e : oc_dim_sub(c, e, s);
    }
    if (step == 1)
        return len;
    return oc_dim_ceildiv(c, len, oc_dim_of(step));
}

typedef struct slice_args {
    const oc_dim *starts, *ends;
    const int64_t *axes, *steps;
    int64_t n;          /* entries in starts/ends */
    bool known;         /* starts/ends (and axes, steps) known */
    bool axes_known;    /* which axes are sliced is known */
} slice_args;

static oc_status slice_args_get(oc_op_ctx *c, slice_args *a)
{
    int64_t ne = -1, na = -1, ns = -1;
    memset(a, 0, sizeof *a);
    if (oc_ctx_opset(c) < 10) {
        size_t k;
        if (!oc_attr_dimvals(c, "starts", &a->starts, &a->n) ||
            !oc_attr_dimvals(c, "ends", &a->ends, &ne))
            return oc_fail(c, "Slice: starts and ends are required");
        a->axes = oc_attr_ints(c, "axes", &k);
        na = oc_ctx_attr(c, "axes") ? (int64_t)k : -1;
        a->known = a->axes_known = true;
    } else {
        bool ok = oc_in_dimvals(c, 1, &a->starts, &a->n) &&
                  oc_in_dimvals(c, 2, &a->ends, &ne);
        a->axes_known = true;
        if (oc_ctx_in(c, 3) || oc_ctx_in_const(c, 3))
            a->axes_known = oc_in_ints(c, 3, &a->axes, &na);
        if (oc_ctx_in(c, 4) || oc_ctx_in_const(c, 4))
            ok = ok && oc_in_ints(c, 4, &a->steps, &ns);
        a->known = ok && a->axes_known;
        if (!a->known)
            return OC_OK;
    }
    if (ne != a->n || (na >= 0 && na != a->n) || (ns >= 0 && ns != a->n))
        return oc_fail(c, "Slice: starts, ends, axes and steps differ in "
                          "length");
    return OC_OK;
}

static oc_status slice_axis(oc_op_ctx *c, const slice_args *a, int64_t k,
                            int rank, int *axis, int64_t *step)
{
    oc_status s = oc_axis(c, a->axes ? a->axes[k] : k, rank, 0, axis);
    if (s != OC_OK)
        return s;
    *step = a->steps ? a->steps[k] : 1;
    if (*step == INT64_MIN)
        *step = -INT64_MAX; /* same slice, and -step stays representable */
    if (*step == 0)
        return oc_fail(c, "Slice: step is 0");
    return OC_OK;
}

oc_status oc_slice_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    slice_args a;
    oc_status s = slice_args_get(c, &a);
    if (s != OC_OK)
        return s;
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    if (!a.known)
        return out_rank_only(c, 0, x->dtype, x->rank);

    int r = x->rank;
    oc_dim out[OC_MAX_RANK];
    int64_t first[OC_MAX_RANK] = {0}, stepv[OC_MAX_RANK];
    bool seen[OC_MAX_RANK] = {false};
    for (int i = 0; i < r; i++) {
        out[i] = x->dims[i];
        stepv[i] = 1;
    }
    for (int64_t k = 0; k < a.n; k++) {
        int ax;
        int64_t step;
        if ((s = slice_axis(c, &a, k, r, &ax, &step)) != OC_OK)
            return s;
        if (seen[ax])
            return oc_fail(c, "Slice: axis %d given twice", ax);
        seen[ax] = true;
        stepv[ax] = step;
        oc_dim d = x->dims[ax], st = a.starts[k], en = a.ends[k];
        if (oc_dim_is_known(d) && is_lit(st) && is_lit(en))
            out[ax] = oc_dim_of(slice_known(d.v, st.v, en.v, step,
                                            &first[ax]));
        else if (oc_ctx_session_view(c))
            /* ONNX's Slice inference leaves a sliced axis whose input dim
             * has no value unknown (even x[-7:-3], even a symbol) */
            out[ax] = OC_DIM_UNKNOWN;
        else
            out[ax] = slice_sym(c, d, st, en, step);
    }
    s = oc_out_set(c, 0, x->dtype, r, out);
    if (s != OC_OK || !oc_vals_usable(x))
        return s;
    int64_t ist[OC_MAX_RANK], base = 0, step[OC_MAX_RANK];
    oc_strides_of(r, x->dims, ist);
    for (int i = 0; i < r; i++) {
        base += first[i] * ist[i];
        step[i] = stepv[i] * ist[i];
    }
    return strided_vals(c, 0, x, r, out, base, step);
}

/* ---- Split ---- */

/* The split sizes: an attribute before 13, an input from 13.  Returns 1
 * when given and known, 0 when absent, -1 when given but unknown. */
static int split_sizes(oc_op_ctx *c, const int64_t **sp, int64_t *n)
{
    if (oc_ctx_opset(c) < 13) {
        size_t k;
        *sp = oc_attr_ints(c, "split", &k);
        *n = (int64_t)k;
        return oc_ctx_attr(c, "split") && k > 0 ? 1 : 0;
    }
    if (!oc_ctx_in(c, 1) && !oc_ctx_in_const(c, 1))
        return 0;
    return oc_in_ints(c, 1, sp, n) ? 1 : -1;
}

/* Equal chunks of d for n outputs (the last smaller from opset 18). */
static oc_status split_equal(oc_op_ctx *c, oc_dim d, size_t n, bool uneven,
                             oc_dim *parts)
{
    if (n == 0)
        return oc_fail(c, "Split: no outputs");
    oc_dim chunk = uneven ? oc_dim_ceildiv(c, d, oc_dim_of((int64_t)n))
                          : oc_dim_div(c, d, oc_dim_of((int64_t)n));
    if (oc_dim_is_known(d) && !uneven && d.v % (int64_t)n != 0)
        return oc_fail(c, "Split: dim %lld does not split into %zu equal "
                          "parts", (long long)d.v, n);
    for (size_t i = 0; i < n; i++)
        parts[i] = chunk;
    if (uneven && oc_dim_is_known(d) && n > 1) {
        int64_t last = d.v - chunk.v * (int64_t)(n - 1);
        if (last < 0)
            return oc_fail(c, "Split: dim %lld is too small for %zu "
                              "outputs", (long long)d.v, n);
        parts[n - 1] = oc_dim_of(last);
    } else if (uneven && oc_dim_eq(oc_dim_mul(c, chunk,
                                              oc_dim_of((int64_t)n)),
                                   d) != 1) {
        parts[n - 1] = OC_DIM_UNKNOWN;
    }
    return OC_OK;
}

static oc_status split_parts(oc_op_ctx *c, oc_dim d, size_t nout,
                             oc_dim *parts)
{
    const int64_t *sp;
    int64_t ns;
    int have = split_sizes(c, &sp, &ns);
    if (have > 0) {
        int64_t sum = 0;
        if ((size_t)ns != nout)
            return oc_fail(c, "Split: %lld sizes for %zu outputs",
                           (long long)ns, nout);
        for (int64_t i = 0; i < ns; i++) {
            if (sp[i] < 0 || !oc_add_i64(sum, sp[i], &sum))
                return oc_fail(c, "Split: invalid size %lld",
                               (long long)sp[i]);
            parts[i] = oc_dim_of(sp[i]);
        }
        if (oc_dim_is_known(d) && sum != d.v)
            return oc_fail(c, "Split: sizes add up to %lld, dim is %lld",
                           (long long)sum, (long long)d.v);
        return OC_OK;
    }
    if (have < 0) {
        for (size_t i = 0; i < nout; i++)
            parts[i] = OC_DIM_UNKNOWN;
        return OC_OK;
    }
    bool v18 = oc_ctx_opset(c) >= 18 && oc_ctx_attr(c, "num_outputs");
    if (v18 && oc_attr_int(c, "num_outputs", 0) != (int64_t)nout)
        return oc_fail(c, "Split: num_outputs is %lld but the node has %zu "
                          "outputs",
                       (long long)oc_attr_int(c, "num_outputs", 0), nout);
    return split_equal(c, d, nout, v18, parts);
}

oc_status oc_split_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    size_t nout = oc_ctx_n_out(c);
    oc_status s;
    if (!x || x->rank < 0) {
        for (size_t i = 0; i < nout; i++)
            if ((s = oc_out_set(c, i, oc_in_dtype(c, 0), -1, NULL)) != OC_OK)
                return s;
        return OC_OK;
    }
    int ax;
    if ((s = oc_axis(c, oc_attr_int(c, "axis", 0), x->rank, 0, &ax)) !=
        OC_OK)
        return s;
    oc_dim *parts = oc_ctx_alloc(c, (nout + 1) * sizeof *parts);
    if (!parts)
        return OC_ERR_NOMEM;
    if ((s = split_parts(c, x->dims[ax], nout, parts)) != OC_OK)
        return s;
    oc_dim out[OC_MAX_RANK];
    dims_copy(out, x->dims, x->rank);
    int64_t ist[OC_MAX_RANK], base = 0;
    bool vals = oc_vals_usable(x);
    if (vals)
        oc_strides_of(x->rank, x->dims, ist);
    for (size_t i = 0; i < nout; i++) {
        out[ax] = parts[i];
        if ((s = oc_out_set(c, i, x->dtype, x->rank, out)) != OC_OK)
            return s;
        if (vals && oc_dim_is_known(parts[i])) {
            if ((s = strided_vals(c, i, x, x->rank, out, base, ist)) != OC_OK)
                return s;
            base += parts[i].v * ist[ax];
        }
    }
    return OC_OK;
}

/* ---- Concat ---- */

/* Merge the non-axis dim j of all inputs into *d; fail on a clash. */
static oc_status concat_dim(oc_op_ctx *c, int j, oc_dim *d)
{
    *d = OC_DIM_UNKNOWN;
    for (size_t i = 0; i < oc_ctx_n_in(c); i++) {
        const oc_tinfo *t = oc_ctx_in(c, i);
        if (!t || t->rank < 0)
            continue;
        oc_dim e = t->dims[j];
        if (oc_dim_eq(*d, e) == 0 && !oc_dim_is_unknown(*d) &&
            !oc_dim_is_unknown(e)) {
            char a[64], b[64];
            return oc_fail(c, "Concat: input %zu has dim %d = %s, others %s",
                           i, j, oc_dim_str(e, a, sizeof a),
                           oc_dim_str(*d, b, sizeof b));
        }
        if (oc_dim_is_unknown(*d) || (oc_dim_is_sym(*d) && is_num(e)))
            *d = e;
    }
    return OC_OK;
}

/* Contents of the concatenation, when every input's are known. */
static oc_status concat_vals(oc_op_ctx *c, int ax, const oc_dim *out, int r)
{
    int64_t total;
    bool ints = false, floats = false;
    if (!oc_known_numel(r, out, &total) || total > OC_SMALL_TENSOR)
        return OC_OK;
    for (size_t i = 0; i < oc_ctx_n_in(c); i++) {
        const oc_tinfo *t = oc_ctx_in(c, i);
        if (!oc_vals_usable(t))
            return OC_OK;
        ints |= t->ivals != NULL;
        floats |= t->fvals != NULL;
    }
    if (ints && floats)
        return OC_OK;
    oc_dim *iv = oc_ctx_alloc(c, (size_t)(total + 1) * sizeof *iv);
    double *fv = oc_ctx_alloc(c, (size_t)(total + 1) * sizeof *fv);
    if (!iv || !fv)
        return OC_ERR_NOMEM;
    int64_t outer = 1, inner = 1, k = 0;
    for (int j = 0; j < ax; j++)
        outer *= out[j].v;
    for (int j = ax + 1; j < r; j++)
        inner *= out[j].v;
    for (int64_t o = 0; o < outer; o++) {
        for (size_t i = 0; i < oc_ctx_n_in(c); i++) {
            const oc_tinfo *t = oc_ctx_in(c, i);
            int64_t blk = t->dims[ax].v * inner;
            for (int64_t e = 0; e < blk && k < total; e++, k++) {
                if (t->ivals)
                    iv[k] = t->ivals[o * blk + e];
                else if (t->fvals)
                    fv[k] = t->fvals[o * blk + e];
            }
        }
    }
    if (k != total)
        return OC_OK;
    return floats ? oc_out_fvals(c, 0, total, fv)
                  : oc_out_ivals(c, 0, total, iv);
}

oc_status oc_concat_infer(oc_op_ctx *c)
{
    int r = -1;
    oc_dtype dt = OC_DT_UNDEFINED;
    oc_status s;
    for (size_t i = 0; i < oc_ctx_n_in(c); i++) {
        const oc_tinfo *t = oc_ctx_in(c, i);
        if (!t)
            continue;
        if (dt == OC_DT_UNDEFINED)
            dt = t->dtype;
        if (t->rank < 0)
            continue;
        if (r >= 0 && t->rank != r)
            return oc_fail(c, "Concat: input %zu has rank %d, others %d", i,
                           t->rank, r);
        r = t->rank;
    }
    if (r < 0)
        return oc_out_set(c, 0, dt, -1, NULL);
    int ax;
    if (!oc_ctx_attr(c, "axis"))
        return oc_fail(c, "Concat: axis is required");
    if ((s = oc_axis(c, oc_attr_int(c, "axis", 0), r, 0, &ax)) != OC_OK)
        return s;
    oc_dim out[OC_MAX_RANK];
    for (int j = 0; j < r; j++)
        if (j != ax && (s = concat_dim(c, j, &out[j])) != OC_OK)
            return s;
    out[ax] = oc_dim_of(0);
    for (size_t i = 0; i < oc_ctx_n_in(c); i++) {
        const oc_tinfo *t = oc_ctx_in(c, i);
        out[ax] = (t && t->rank >= 0) ? oc_dim_add(c, out[ax], t->dims[ax])
                                      : OC_DIM_UNKNOWN;
    }
    if ((s = oc_out_set(c, 0, dt, r, out)) != OC_OK)
        return s;
    return concat_vals(c, ax, out, r);
}

/* ---- Pad ---- */

oc_status oc_pad_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const oc_dim *pads;
    const int64_t *axes = NULL;
    int64_t np, na = -1;
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    int r = x->rank;
    bool known = oc_ctx_opset(c) < 11 ? oc_attr_dimvals(c, "pads", &pads, &np)
                                      : oc_in_dimvals(c, 1, &pads, &np);
    if (oc_ctx_opset(c) >= 18 && (oc_ctx_in(c, 3) || oc_ctx_in_const(c, 3)))
        known = known && oc_in_ints(c, 3, &axes, &na);
    if (!known)
        return out_rank_only(c, 0, x->dtype, r);
    if (na < 0)
        na = r;
    if (np != 2 * na)
        return oc_fail(c, "Pad: %lld pads for %lld axes", (long long)np,
                       (long long)na);
    oc_dim out[OC_MAX_RANK];
    dims_copy(out, x->dims, r);
    for (int64_t k = 0; k < na; k++) {
        int ax;
        oc_status s = oc_axis(c, axes ? axes[k] : k, r, 0, &ax);
        if (s != OC_OK)
            return s;
        oc_dim d = out[ax], pb = pads[k], pe = pads[k + na];
        int64_t both;
        if (is_lit(pb) && is_lit(pe) && oc_add_i64(pb.v, pe.v, &both)) {
            int64_t v = 0;
            if (oc_dim_is_known(d) && (!oc_add_i64(d.v, both, &v) || v < 0))
                return oc_fail(c, "Pad: pads %lld+%lld crop axis %d of size "
                                  "%lld below zero", (long long)pb.v,
                               (long long)pe.v, ax, (long long)d.v);
            if (oc_dim_is_known(d))
                d = oc_dim_of(v);
            else if (both != 0)
                d = dim_add_int(c, d, both);
        } else {
            d = is_lit(pb) ? dim_add_int(c, d, pb.v) : oc_dim_add(c, d, pb);
            d = is_lit(pe) ? dim_add_int(c, d, pe.v) : oc_dim_add(c, d, pe);
        }
        out[ax] = d;
    }
    return oc_out_set(c, 0, x->dtype, r, out);
}

/* ---- ReverseSequence ---- */

oc_status oc_reversesequence_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!x)
        return oc_out_set(c, 0, OC_DT_UNDEFINED, -1, NULL);
    if (x->rank >= 0 && x->rank < 2)
        return oc_fail(c, "ReverseSequence: input rank %d < 2", x->rank);
    return oc_out_like(c, 0, x);
}

/* ---- sequences ---- */

static oc_tinfo *new_info(oc_op_ctx *c, oc_value_kind kind, oc_dtype dt,
                          int rank, const oc_dim *dims)
{
    oc_tinfo *t = oc_ctx_alloc(c, sizeof *t);
    if (!t)
        return NULL;
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->dtype = dt;
    t->rank = rank <= OC_MAX_RANK ? rank : -1;
    t->nvals = -1;
    if (t->rank > 0) {
        t->dims = oc_ctx_alloc(c, (size_t)t->rank * sizeof *t->dims);
        if (!t->dims)
            return NULL;
        for (int i = 0; i < t->rank; i++)
            t->dims[i] = dims ? dims[i] : OC_DIM_UNKNOWN;
    }
    return t;
}

/* The element info of a sequence, NULL if unknown.  An element of kind
 * NONE means the sequence is known to be empty so far (SequenceEmpty). */
static const oc_tinfo *seq_elem(const oc_tinfo *s)
{
    return s && s->kind == OC_KIND_SEQUENCE ? s->elem : NULL;
}

/* What two elements have in common (dtype, rank, equal dims). */
static oc_tinfo *merge_elem(oc_op_ctx *c, const oc_tinfo *a,
                            const oc_tinfo *b)
{
    if (a && a->kind == OC_KIND_NONE && b)
        a = b;
    else if (b && b->kind == OC_KIND_NONE && a)
        b = a;
    if (!a || !b)
        return NULL;
    oc_dtype dt = a->dtype == b->dtype ? a->dtype : OC_DT_UNDEFINED;
    oc_value_kind kind = a->kind == b->kind ? a->kind : OC_KIND_TENSOR;
    if (a->rank < 0 || a->rank != b->rank)
        return new_info(c, kind, dt, -1, NULL);
    oc_tinfo *t = new_info(c, kind, dt, a->rank, a->dims);
    if (!t)
        return NULL;
    for (int i = 0; i < a->rank; i++)
        if (oc_dim_eq(a->dims[i], b->dims[i]) != 1)
            t->dims[i] = OC_DIM_UNKNOWN;
    return t;
}

static oc_status out_seq(oc_op_ctx *c, size_t o, oc_tinfo *elem)
{
    oc_status s = oc_out_set(c, o, elem ? elem->dtype : OC_DT_UNDEFINED, -1,
                             NULL);
    oc_tinfo *t = oc_ctx_out(c, o);
    if (s != OC_OK || !t)
        return s;
    t->kind = OC_KIND_SEQUENCE;
    t->elem = elem;
    return OC_OK;
}

/* A tensor's info as a sequence element (shape only). */
static oc_tinfo *as_elem(oc_op_ctx *c, const oc_tinfo *x)
{
    if (!x)
        return NULL;
    return new_info(c, x->kind, x->dtype, x->rank, x->dims);
}

oc_status oc_sequenceempty_infer(oc_op_ctx *c)
{
    int64_t dt = oc_attr_int(c, "dtype", OC_DT_FLOAT);
    if (!oc_dtype_valid(dt))
        return oc_fail(c, "SequenceEmpty: invalid dtype %lld", (long long)dt);
    return out_seq(c, 0, new_info(c, OC_KIND_NONE, (oc_dtype)dt, -1, NULL));
}

oc_status oc_sequenceconstruct_infer(oc_op_ctx *c)
{
    oc_tinfo *e = NULL;
    for (size_t i = 0; i < oc_ctx_n_in(c); i++) {
        const oc_tinfo *x = oc_ctx_in(c, i);
        if (!x)
            return out_seq(c, 0, NULL);
        e = i == 0 ? as_elem(c, x) : merge_elem(c, e, x);
    }
    return out_seq(c, 0, e);
}

oc_status oc_sequenceinsert_infer(oc_op_ctx *c)
{
    return out_seq(c, 0, merge_elem(c, seq_elem(oc_ctx_in(c, 0)),
                                    oc_ctx_in(c, 1)));
}

oc_status oc_sequenceerase_infer(oc_op_ctx *c)
{
    return out_seq(c, 0, (oc_tinfo *)seq_elem(oc_ctx_in(c, 0)));
}

oc_status oc_sequenceat_infer(oc_op_ctx *c)
{
    const oc_tinfo *e = seq_elem(oc_ctx_in(c, 0));
    if (!e || e->kind == OC_KIND_NONE)
        return oc_out_set(c, 0, e ? e->dtype : OC_DT_UNDEFINED, -1, NULL);
    return oc_out_set(c, 0, e->dtype, e->rank, e->dims);
}

oc_status oc_sequencelength_infer(oc_op_ctx *c)
{
    return oc_out_set(c, 0, OC_DT_INT64, 0, NULL);
}

oc_status oc_splittosequence_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const int64_t *sp;
    int64_t ns = -1;
    if (!x || x->rank < 0)
        return out_seq(c, 0, new_info(c, OC_KIND_TENSOR, oc_in_dtype(c, 0), -1,
                                      NULL));
    int ax;
    oc_status s = oc_axis(c, oc_attr_int(c, "axis", 0), x->rank, 0, &ax);
    if (s != OC_OK)
        return s;
    oc_tinfo *e = new_info(c, OC_KIND_TENSOR, x->dtype, x->rank, x->dims);
    if (!e)
        return OC_ERR_NOMEM;
    bool given = oc_ctx_in(c, 1) || oc_ctx_in_const(c, 1);
    bool known = given && oc_in_ints(c, 1, &sp, &ns);
    const oc_tinfo *st = oc_ctx_in(c, 1);
    if (!given) {
        /* Pieces of size 1, squeezed unless keepdims. */
        if (!oc_attr_int(c, "keepdims", 1)) {
            memmove(e->dims + ax, e->dims + ax + 1,
                    (size_t)(x->rank - ax - 1) * sizeof *e->dims);
            e->rank--;
        } else {
            e->dims[ax] = oc_dim_of(1);
        }
    } else if (known && st && st->rank == 0 && ns == 1) {
        oc_dim d = x->dims[ax];
        if (sp[0] <= 0)
            return oc_fail(c, "SplitToSequence: split %lld", (long long)sp[0]);
        e->dims[ax] = oc_dim_is_known(d) && d.v % sp[0] == 0
                          ? oc_dim_of(sp[0]) : OC_DIM_UNKNOWN;
    } else {
        bool same = known && ns > 0;
        for (int64_t i = 1; same && i < ns; i++)
            same = sp[i] == sp[0];
        e->dims[ax] = same ? oc_dim_of(sp[0]) : OC_DIM_UNKNOWN;
    }
    return out_seq(c, 0, e);
}

oc_status oc_concatfromsequence_infer(oc_op_ctx *c)
{
    const oc_tinfo *e = seq_elem(oc_ctx_in(c, 0));
    bool new_axis = oc_attr_int(c, "new_axis", 0) != 0;
    if (!oc_ctx_attr(c, "axis"))
        return oc_fail(c, "ConcatFromSequence: axis is required");
    if (!e || e->rank < 0 || e->kind == OC_KIND_NONE)
        return oc_out_set(c, 0, e ? e->dtype : OC_DT_UNDEFINED, -1, NULL);
    int r = e->rank + (new_axis ? 1 : 0), ax;
    if (r > OC_MAX_RANK)
        return oc_out_set(c, 0, e->dtype, -1, NULL);
    oc_status s = oc_axis(c, oc_attr_int(c, "axis", 0), e->rank,
                          new_axis ? 1 : 0, &ax);
    if (s != OC_OK)
        return s;
    oc_dim out[OC_MAX_RANK];
    for (int i = 0, j = 0; i < r; i++)
        out[i] = (new_axis && i == ax) ? OC_DIM_UNKNOWN : e->dims[j++];
    out[ax] = OC_DIM_UNKNOWN;
    return oc_out_set(c, 0, e->dtype, r, out);
}
