/*
 * elementwise.c - elementwise operators of the default ONNX domain: unary
 * math, activations, broadcasting binary and variadic operators, Where,
 * Cast/CastLike/Identity, Dropout, the random *Like operators, Trilu and
 * CumSum.
 *
 * Shapes: unary operators keep their input's shape; binary and variadic
 * operators and Where broadcast all their inputs (numpy rules); PRelu
 * broadcasts its slope to X (unidirectional), so Y has X's shape.
 *
 * Values: exporters compute Reshape targets with Shape -> Gather -> ... ->
 * Concat and arithmetic.  When every input's contents are known, Add Sub
 * Mul Div Mod Pow Min Max Sum Mean, the comparisons, Not And Or Xor
 * BitwiseAnd/Or/Xor, Abs Neg Sign Floor Ceil Round Sqrt Reciprocal Relu,
 * Where, Clip, Cast, CastLike, Identity and Dropout (inference) compute
 * their output's contents, up to OC_SMALL_TENSOR elements.  Integer
 * contents may hold symbolic dims (non-negative by nature): N+1, 2*N, N/2
 * stay symbolic; anything whose result cannot be told exactly (-N, N mod
 * 2, N == 4, a symbol cast to float) leaves the output's contents unknown
 * rather than guessed.  Float results are rounded to the output's element
 * type (float32, float16, bfloat16) so that Floor(Cast(H) * 0.5) comes out
 * as the runtime computes it.
 *
 * Costs: MACs are 0 for every operator here.  FLOPs per output element
 * count each arithmetic operation, comparison/select and library math call
 * (exp, log, tanh, erf, sqrt, sin, ...) of the ONNX formula as 1:
 *   1  Add Sub Mul Div Mod Pow, Neg Abs Sign Reciprocal Floor Ceil Round,
 *      Sqrt Exp Log Erf Sin Cos Tan Asin Acos Atan Sinh Cosh Tanh Asinh
 *      Acosh Atanh, Relu, ThresholdedRelu, the comparisons, Not And Or
 *      Xor, Bitwise*, BitShift, IsInf IsNaN, Where (a select), CumSum (an
 *      add), Bernoulli RandomUniformLike RandomNormalLike (one draw each)
 *   2  LeakyRelu PRelu (compare, multiply), Clip (max, min)
 *   3  Softplus log(exp(x)+1), Softsign x/(1+|x|), Shrink (2 compares, add)
 *   4  Sigmoid 1/(1+exp(-x)), HardSigmoid max(0,min(1,a*x+b)),
 *      Elu (compare, exp, subtract, multiply)
 *   5  Selu g*(a*exp(x)-a), HardSwish x*HardSigmoid(x),
 *      Mish x*tanh(log(1+exp(x))), Gelu 0.5*x*(1+erf(x/sqrt(2)))
 *   7  Celu max(0,x)+min(0,a*(exp(x/a)-1))
 *   9  Gelu approximate="tanh" 0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3)))
 *   n-1  Sum Max Min of n inputs; n for Mean (n-1 adds and a divide)
 *   0  Cast CastLike Identity Trilu and Dropout in inference (data
 *      movement: only their bytes count); Dropout whose training_mode is a
 *      constant true: 2 (compare with a random draw, scale)
 */
#include "analyzer/values.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ---- small helpers ---- */

static const char *op_name(const oc_op_ctx *c) { return oc_ctx_node(c)->op; }

static bool op_is(const oc_op_ctx *c, const char *name)
{
    return strcmp(op_name(c), name) == 0;
}

/* Input i, which the operator requires. */
static oc_status need_in(oc_op_ctx *c, size_t i, const oc_tinfo **t)
{
    *t = oc_ctx_in(c, i);
    if (!*t)
        return oc_fail(c, "%s: required input %zu is missing", op_name(c), i);
    return OC_OK;
}

/* Warn when two inputs that share a type constraint disagree.  Only a
 * warning: a wrongly declared value_info should not stop the analysis. */
static void check_same_dtype(oc_op_ctx *c, const oc_tinfo *a, size_t ia,
                             const oc_tinfo *b, size_t ib)
{
    if (a->dtype != OC_DT_UNDEFINED && b->dtype != OC_DT_UNDEFINED &&
        a->dtype != b->dtype)
        oc_warn(c, "%s: input %zu is %s but input %zu is %s", op_name(c), ia,
                oc_dtype_name(a->dtype), ib, oc_dtype_name(b->dtype));
}

/* ---- known contents ---- */

/* In integer contents an element with sym == NULL is the number v (which
 * may be negative); one with a sym is the non-negative dim v * sym. */
static bool is_num(oc_dim d) { return d.sym == NULL; }

typedef struct vals {
    int64_t n;
    bool is_f; /* floats in fv, else integers (or bools) in iv */
    const oc_dim *iv;
    const double *fv;
} vals;

/* Contents of input i, from propagated values or from the constant
 * behind it.  False when unknown, too big or of a type without contents
 * (string, complex). */
static bool in_vals(oc_op_ctx *c, size_t i, vals *v)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    int64_t n;
    if (!t || t->kind != OC_KIND_TENSOR || !oc_tinfo_known_numel(t, &n) ||
        n > OC_SMALL_TENSOR)
        return false;
    bool f = oc_dtype_is_float(t->dtype);
    if (!f && !oc_dtype_is_int(t->dtype))
        return false;
    *v = (vals){.n = n, .is_f = f};
    if (t->nvals >= 0) {
        if (t->nvals != n || (n > 0 && (f ? !t->fvals : !t->ivals)))
            return false;
        v->iv = t->ivals;
        v->fv = t->fvals;
        return true;
    }
    const oc_tensor *k = oc_ctx_in_const(c, i);
    if (!k || !k->has_data || k->numel != (uint64_t)n)
        return false;
    if (f) {
        v->fv = k->fvals;
        return n == 0 || k->fvals;
    }
    if (n > 0 && !k->ivals)
        return false;
    oc_dim *iv = oc_ctx_alloc(c, sizeof *iv * (size_t)(n ? n : 1));
    if (!iv)
        return false;
    for (int64_t e = 0; e < n; e++)
        iv[e] = oc_dim_of(k->ivals[e]);
    v->iv = iv;
    return true;
}

/* Contents being built for output 0. */
typedef struct obuf {
    int64_t n;
    bool is_f;
    oc_dim *iv;
    double *fv;
} obuf;

static bool obuf_init(oc_op_ctx *c, obuf *b, int64_t n, bool is_f)
{
    size_t m = (size_t)(n ? n : 1);
    b->n = n;
    b->is_f = is_f;
    b->iv = is_f ? NULL : oc_ctx_alloc(c, m * sizeof *b->iv);
    b->fv = is_f ? oc_ctx_alloc(c, m * sizeof *b->fv) : NULL;
    return is_f ? b->fv != NULL : b->iv != NULL;
}

static oc_status obuf_emit(oc_op_ctx *c, size_t out, const obuf *b)
{
    return b->is_f ? oc_out_fvals(c, out, b->n, b->fv)
                   : oc_out_ivals(c, out, b->n, b->iv);
}

/* Does the number v fit the integer type dt?  (Contents are int64, so
 * uint64 values above INT64_MAX are never propagated.) */
static bool int_fits(oc_dtype dt, int64_t v)
{
    switch (dt) {
    case OC_DT_BOOL: return v == 0 || v == 1;
    case OC_DT_INT8: return v >= INT8_MIN && v <= INT8_MAX;
    case OC_DT_UINT8: return v >= 0 && v <= UINT8_MAX;
    case OC_DT_INT16: return v >= INT16_MIN && v <= INT16_MAX;
    case OC_DT_UINT16: return v >= 0 && v <= UINT16_MAX;
    case OC_DT_INT32: return v >= INT32_MIN && v <= INT32_MAX;
    case OC_DT_UINT32: return v >= 0 && v <= (int64_t)UINT32_MAX;
    case OC_DT_UINT64: return v >= 0;
    default: return true;
    }
}

/* Round v to a binary format with p significant bits, smallest normal
 * exponent emin (subnormals below) and largest finite value vmax, to
 * nearest even as the hardware does. */
static double round_bits(double v, int p, int emin, double vmax)
{
    if (!isfinite(v) || v == 0)
        return v;
    int e;
    frexp(v, &e); /* |v| in [2^(e-1), 2^e) */
    int lead = e - 1 < emin ? emin : e - 1;
    int ulp = lead - (p - 1);
    double r = ldexp(rint(ldexp(v, -ulp)), ulp);
    return fabs(r) > vmax ? copysign(INFINITY, v) : r;
}

/* The value a float of type dt actually holds for v. */
static double round_to(oc_dtype dt, double v)
{
    switch (dt) {
    case OC_DT_FLOAT: return round_bits(v, 24, -126, FLT_MAX);
    case OC_DT_FLOAT16: return round_bits(v, 11, -14, 65504.0);
    case OC_DT_BFLOAT16: return round_bits(v, 8, -126, 0x1.fep127);
    default: return v;
    }
}

/* Float to integer as Cast does it: truncation toward zero; false when the
 * result does not fit dt (or is not a number). */
static bool float_to_int(oc_dtype dt, double x, int64_t *r)
{
    if (dt == OC_DT_BOOL) {
        *r = x != 0; /* NaN is true */
        return true;
    }
    if (!isfinite(x))
        return false;
    double t = trunc(x);
    if (!(t >= -0x1p63 && t < 0x1p63))
        return false;
    *r = (int64_t)t;
    return int_fits(dt, *r);
}

/*
 * Broadcast offsets: for every element e of output `o` (row-major) and
 * every input k, offs[k * numel + e] is the element of input k it reads.
 * NULL when a shape is not made of known numbers, the shapes do not
 * broadcast or the output has more than OC_SMALL_TENSOR elements.
 */
static int64_t *bcast_offsets(oc_op_ctx *c, const oc_tinfo *const *ins,
                              size_t n, const oc_tinfo *o, int64_t *numel)
{
    int64_t total;
    if (!oc_tinfo_known_numel(o, &total) || total > OC_SMALL_TENSOR)
        return NULL;
    int r = o->rank;
    int64_t *strides = oc_ctx_alloc(c, sizeof *strides * n * (size_t)(r + 1));
    int64_t *offs = oc_ctx_alloc(c, sizeof *offs * n * (size_t)(total + 1));
    if (!strides || !offs)
        return NULL;
    for (size_t k = 0; k < n; k++) {
        const oc_tinfo *t = ins[k];
        int64_t dummy;
        if (!oc_tinfo_known_numel(t, &dummy) || t->rank > r)
            return NULL;
        int64_t *st = strides + k * (size_t)r;
        int64_t s = 1;
        for (int d = r - 1; d >= 0; d--) {
            int id = d - (r - t->rank);
            int64_t len = id >= 0 ? t->dims[id].v : 1;
            if (len != 1 && len != o->dims[d].v)
                return NULL;
            st[d] = len == 1 ? 0 : s;
            s *= len;
        }
    }
    int64_t idx[OC_MAX_RANK] = {0};
    for (int64_t e = 0; e < total; e++) {
        for (size_t k = 0; k < n; k++) {
            const int64_t *st = strides + k * (size_t)r;
            int64_t off = 0;
            for (int d = 0; d < r; d++)
                off += idx[d] * st[d];
            offs[k * (size_t)total + (size_t)e] = off;
        }
        for (int d = r - 1; d >= 0; d--) {
            if (++idx[d] < o->dims[d].v)
                break;
            idx[d] = 0;
        }
    }
    *numel = total;
    return offs;
}

/* ---- integer arithmetic on numbers and symbolic dims ----
 * Each returns false when the result cannot be told exactly.  Results of
 * the oc_dim_* helpers are checked: an unknown dim there would read as the
 * number -1 in contents. */

static bool dim_ok(oc_dim d, oc_dim *r)
{
    if (oc_dim_is_unknown(d))
        return false;
    *r = d;
    return true;
}

static bool isub(oc_op_ctx *c, oc_dim a, oc_dim b, oc_dim *r);

static bool iadd(oc_op_ctx *c, oc_dim a, oc_dim b, oc_dim *r)
{
    if (is_num(a) && is_num(b)) {
        int64_t s;
        if (!oc_add_i64(a.v, b.v, &s))
            return false;
        *r = oc_dim_of(s);
        return true;
    }
    if (is_num(a) && a.v < 0 && a.v != INT64_MIN)
        return isub(c, b, oc_dim_of(-a.v), r);
    if (is_num(b) && b.v < 0 && b.v != INT64_MIN)
        return isub(c, a, oc_dim_of(-b.v), r);
    if ((is_num(a) && a.v < 0) || (is_num(b) && b.v < 0))
        return false;
    return dim_ok(oc_dim_add(c, a, b), r);
}

/* A symbol minus a number stays symbolic, "(N-1)": a dim minus a small
 * count, as exporters slice.  A number minus a symbol, or two different
 * symbols, could be negative and is not propagated. */
static bool isub(oc_op_ctx *c, oc_dim a, oc_dim b, oc_dim *r)
{
    if (is_num(a) && is_num(b)) {
        int64_t s;
        if (__builtin_sub_overflow(a.v, b.v, &s))
            return false;
        *r = oc_dim_of(s);
        return true;
    }
    if (is_num(b) && b.v < 0)
        return b.v != INT64_MIN && iadd(c, a, oc_dim_of(-b.v), r);
    if (is_num(b))
        return dim_ok(oc_dim_sub(c, a, b), r);
    if (!is_num(a) && strcmp(a.sym, b.sym) == 0 && a.v >= b.v) {
        *r = a.v == b.v ? oc_dim_of(0) : (oc_dim){a.v - b.v, a.sym};
        return true;
    }
    return false;
}

static bool imul(oc_op_ctx *c, oc_dim a, oc_dim b, oc_dim *r)
{
    if (is_num(a) && is_num(b)) {
        int64_t p;
        if (!oc_mul_i64(a.v, b.v, &p))
            return false;
        *r = oc_dim_of(p);
        return true;
    }
    if ((is_num(a) && a.v == 0) || (is_num(b) && b.v == 0)) {
        *r = oc_dim_of(0);
        return true;
    }
    if ((is_num(a) && a.v < 0) || (is_num(b) && b.v < 0))
        return false;
    return dim_ok(oc_dim_mul(c, a, b), r);
}

/* ONNX integer Div truncates toward zero; on non-negative dims that is
 * the floor division oc_dim_div does. */
static bool idiv(oc_op_ctx *c, oc_dim a, oc_dim b, oc_dim *r)
{
    if (is_num(b) && b.v == 0)
        return false;
    if (is_num(a) && is_num(b)) {
        if (a.v == INT64_MIN && b.v == -1)
            return false;
        *r = oc_dim_of(a.v / b.v);
        return true;
    }
    if ((is_num(a) && a.v < 0) || (is_num(b) && b.v < 0))
        return false;
    return dim_ok(oc_dim_div(c, a, b), r);
}

/* Mod: fmod=0 takes the divisor's sign (Python), fmod=1 the dividend's
 * (C). */
static bool imod(oc_dim a, oc_dim b, int fmod_, oc_dim *r)
{
    if (!is_num(a) || !is_num(b) || b.v == 0)
        return false;
    int64_t m = b.v == -1 ? 0 : a.v % b.v;
    if (!fmod_ && m != 0 && (m < 0) != (b.v < 0))
        m += b.v;
    *r = oc_dim_of(m);
    return true;
}

static bool ipow(oc_dim a, oc_dim b, oc_dim *r)
{
    if (!is_num(a) || !is_num(b) || b.v < 0)
        return false;
    int64_t p = 1;
    if (a.v == 0 || a.v == 1)
        p = b.v == 0 ? 1 : a.v;
    else if (a.v == -1)
        p = b.v % 2 ? -1 : 1;
    else /* |a| >= 2 overflows within 63 steps */
        for (int64_t k = 0; k < b.v; k++)
            if (!oc_mul_i64(p, a.v, &p))
                return false;
    *r = oc_dim_of(p);
    return true;
}

/* What is known of the order of a and b.  Symbols are >= 0. */
enum ord { O_UNK, O_LT, O_EQ, O_GT, O_LE, O_GE, O_NE };

static enum ord ord_flip(enum ord o)
{
    switch (o) {
    case O_LT: return O_GT;
    case O_GT: return O_LT;
    case O_LE: return O_GE;
    case O_GE: return O_LE;
    default: return o;
    }
}

static enum ord icompare(oc_dim a, oc_dim b)
{
    if (is_num(a) && is_num(b))
        return a.v < b.v ? O_LT : a.v > b.v ? O_GT : O_EQ;
    if (is_num(a))
        return ord_flip(icompare(b, a));
    if (is_num(b))
        return b.v < 0 ? O_GT : b.v == 0 ? O_GE : O_UNK;
    if (strcmp(a.sym, b.sym) == 0)
        return a.v == b.v ? O_EQ : a.v > b.v ? O_GE : O_LE;
    switch (oc_dim_eq(a, b)) {
    case 1: return O_EQ;
    case 0: return O_NE;
    default: return O_UNK;
    }
}

/* ---- the binary kernels ---- */

enum bop {
    B_NONE, B_ADD, B_SUB, B_MUL, B_DIV, B_MOD, B_POW, B_MIN, B_MAX,
    B_AND, B_OR, B_XOR, B_BAND, B_BOR, B_BXOR,
    B_EQ, B_LT, B_LE, B_GT, B_GE
};

static bool bop_is_cmp(enum bop b) { return b >= B_EQ; }

/* 1 / 0 for a decided comparison, -1 when it cannot be told. */
static int ord_test(enum bop op, enum ord o)
{
    switch (op) {
    case B_EQ:
        return o == O_EQ ? 1 : (o == O_LT || o == O_GT || o == O_NE) ? 0 : -1;
    case B_LT:
        return o == O_LT ? 1 : (o == O_EQ || o == O_GT || o == O_GE) ? 0 : -1;
    case B_LE:
        return (o == O_LT || o == O_EQ || o == O_LE) ? 1 : o == O_GT ? 0 : -1;
    case B_GT:
        return o == O_GT ? 1 : (o == O_EQ || o == O_LT || o == O_LE) ? 0 : -1;
    case B_GE:
        return (o == O_GT || o == O_EQ || o == O_GE) ? 1 : o == O_LT ? 0 : -1;
    default:
        return -1;
    }
}

static bool iminmax(enum bop op, oc_dim a, oc_dim b, oc_dim *r)
{
    enum ord o = icompare(a, b);
    bool a_le_b = o == O_LT || o == O_EQ || o == O_LE;
    bool b_le_a = o == O_GT || o == O_EQ || o == O_GE;
    if (!a_le_b && !b_le_a)
        return false;
    *r = (op == B_MIN) == a_le_b ? a : b;
    return true;
}

static bool ibin(oc_op_ctx *c, enum bop op, int fmod_, oc_dim a, oc_dim b,
                 oc_dim *r)
{
    if (bop_is_cmp(op)) {
        int t = ord_test(op, icompare(a, b));
        *r = oc_dim_of(t);
        return t >= 0;
    }
    switch (op) {
    case B_ADD: return iadd(c, a, b, r);
    case B_SUB: return isub(c, a, b, r);
    case B_MUL: return imul(c, a, b, r);
    case B_DIV: return idiv(c, a, b, r);
    case B_MOD: return imod(a, b, fmod_, r);
    case B_POW: return ipow(a, b, r);
    case B_MIN: case B_MAX: return iminmax(op, a, b, r);
    default: break;
    }
    if (!is_num(a) || !is_num(b))
        return false;
    switch (op) {
    case B_AND: *r = oc_dim_of(a.v && b.v); return true;
    case B_OR: *r = oc_dim_of(a.v || b.v); return true;
    case B_XOR: *r = oc_dim_of(!a.v != !b.v); return true;
    case B_BAND: *r = oc_dim_of(a.v & b.v); return true;
    case B_BOR: *r = oc_dim_of(a.v | b.v); return true;
    case B_BXOR: *r = oc_dim_of(a.v ^ b.v); return true;
    default: return false;
    }
}

/* Float kernel; comparisons give 0/1. */
static bool fbin(enum bop op, int fmod_, double a, double b, double *r)
{
    switch (op) {
    case B_ADD: *r = a + b; return true;
    case B_SUB: *r = a - b; return true;
    case B_MUL: *r = a * b; return true;
    case B_DIV: *r = a / b; return true;
    case B_POW: *r = pow(a, b); return true;
    case B_MOD:
        if (!fmod_)
            return false; /* not defined for floats */
        *r = fmod(a, b);
        return true;
    case B_MIN: *r = isnan(a) || a < b ? a : b; return true;
    case B_MAX: *r = isnan(a) || a > b ? a : b; return true;
    case B_EQ: *r = a == b; return true;
    case B_LT: *r = a < b; return true;
    case B_LE: *r = a <= b; return true;
    case B_GT: *r = a > b; return true;
    case B_GE: *r = a >= b; return true;
    default: return false;
    }
}

typedef struct bspec {
    const char *op;
    enum bop b;
    bool same_t; /* the inputs share one type constraint */
} bspec;

static const bspec bspecs[] = {
    {"Add", B_ADD, true},          {"Sub", B_SUB, true},
    {"Mul", B_MUL, true},          {"Div", B_DIV, true},
    {"Mod", B_MOD, true},          {"Pow", B_POW, false},
    {"BitShift", B_NONE, true},    {"And", B_AND, true},
    {"Or", B_OR, true},            {"Xor", B_XOR, true},
    {"BitwiseAnd", B_BAND, true},  {"BitwiseOr", B_BOR, true},
    {"BitwiseXor", B_BXOR, true},  {"Equal", B_EQ, true},
    {"Less", B_LT, true},          {"LessOrEqual", B_LE, true},
    {"Greater", B_GT, true},       {"GreaterOrEqual", B_GE, true},
    {"Sum", B_ADD, true},          {"Mean", B_ADD, true},
    {"Max", B_MAX, true},          {"Min", B_MIN, true},
};

static const bspec *find_bspec(const char *op)
{
    for (size_t i = 0; i < sizeof bspecs / sizeof bspecs[0]; i++)
        if (strcmp(bspecs[i].op, op) == 0)
            return &bspecs[i];
    return NULL;
}

/* Pow with a float base and an integer exponent: the exponent as floats. */
static bool ints_as_floats(oc_op_ctx *c, vals *v)
{
    double *f = oc_ctx_alloc(c, sizeof *f * (size_t)(v->n ? v->n : 1));
    if (!f)
        return false;
    for (int64_t e = 0; e < v->n; e++) {
        if (!is_num(v->iv[e]))
            return false;
        f[e] = (double)v->iv[e].v;
    }
    v->fv = f;
    v->is_f = true;
    return true;
}

/* Load the contents of inputs 0..n-1, all of one kind (ints or floats). */
static bool load_all(oc_op_ctx *c, const bspec *sp, size_t n, vals *v)
{
    for (size_t k = 0; k < n; k++)
        if (!in_vals(c, k, &v[k]))
            return false;
    for (size_t k = 1; k < n; k++) {
        if (v[k].is_f == v[0].is_f)
            continue;
        if (sp->b == B_POW && v[0].is_f && ints_as_floats(c, &v[k]))
            continue;
        return false;
    }
    return true;
}

/* One output element: fold op over the inputs' elements at e. */
static bool fold_elem(oc_op_ctx *c, const bspec *sp, int fmod_, size_t n,
                      const vals *v, const int64_t *offs, int64_t total,
                      int64_t e, oc_dtype dt, obuf *out)
{
    size_t t = (size_t)total;
    if (!v[0].is_f) {
        oc_dim r = v[0].iv[offs[e]];
        for (size_t k = 1; k < n; k++)
            if (!ibin(c, sp->b, fmod_, r, v[k].iv[offs[k * t + e]], &r))
                return false;
        if (is_num(r) && !int_fits(dt, r.v))
            return false;
        out->iv[e] = r;
        return true;
    }
    double r = v[0].fv[offs[e]];
    for (size_t k = 1; k < n; k++) {
        if (!fbin(sp->b, fmod_, r, v[k].fv[offs[k * t + e]], &r))
            return false;
        if (!bop_is_cmp(sp->b))
            r = round_to(dt, r);
    }
    if (op_is(c, "Mean"))
        r = round_to(dt, r / (double)n);
    if (bop_is_cmp(sp->b))
        out->iv[e] = oc_dim_of(r != 0);
    else
        out->fv[e] = r;
    return true;
}

/* Contents of output 0 of a binary or variadic operator. */
static oc_status fold_vals(oc_op_ctx *c, const bspec *sp, int fmod_,
                           const oc_tinfo *const *ins, size_t n)
{
    oc_tinfo *o = oc_ctx_out(c, 0);
    /* Shape arithmetic folds a handful of inputs; a Sum of hundreds is
     * data, not worth n * OC_SMALL_TENSOR offsets. */
    if (!o || n > 16 || sp->b == B_NONE)
        return OC_OK;
    vals v[16]; /* on the stack: most nodes have no known contents, and an
                 * arena allocation per node would stay for the analysis */
    if (!load_all(c, sp, n, v))
        return OC_OK;
    if (op_is(c, "Mean") && !v[0].is_f)
        return OC_OK; /* Mean is defined on floats only */
    int64_t total;
    int64_t *offs = bcast_offsets(c, ins, n, o, &total);
    obuf out;
    bool out_f = v[0].is_f && !bop_is_cmp(sp->b);
    if (!offs || !obuf_init(c, &out, total, out_f))
        return OC_OK;
    for (int64_t e = 0; e < total; e++)
        if (!fold_elem(c, sp, fmod_, n, v, offs, total, e, o->dtype, &out))
            return OC_OK;
    return obuf_emit(c, 0, &out);
}

/* ---- unary operators ---- */

enum uop {
    U_NONE, U_ABS, U_NEG, U_FLOOR, U_CEIL, U_ROUND, U_SQRT, U_RECIP,
    U_SIGN, U_RELU, U_NOT, U_EXP
};

static const struct {
    const char *op;
    enum uop u;
} uops[] = {
    {"Abs", U_ABS},         {"Neg", U_NEG},     {"Floor", U_FLOOR},
    {"Ceil", U_CEIL},       {"Round", U_ROUND}, {"Sqrt", U_SQRT},
    {"Reciprocal", U_RECIP}, {"Sign", U_SIGN},  {"Relu", U_RELU},
    {"Not", U_NOT},         {"Exp", U_EXP},
};

static enum uop find_uop(const char *op)
{
    for (size_t i = 0; i < sizeof uops / sizeof uops[0]; i++)
        if (strcmp(uops[i].op, op) == 0)
            return uops[i].u;
    return U_NONE;
}

static bool iun(enum uop op, oc_dim a, oc_dim *r)
{
    if (!is_num(a)) {
        /* a dim is >= 0: these leave it as it is */
        *r = a;
        return op == U_ABS || op == U_FLOOR || op == U_CEIL ||
               op == U_ROUND || op == U_RELU;
    }
    int64_t x = a.v;
    switch (op) {
    case U_ABS:
    case U_NEG:
        if (x == INT64_MIN)
            return false;
        x = (op == U_NEG || x < 0) ? -x : x;
        break;
    case U_FLOOR: case U_CEIL: case U_ROUND: break;
    case U_SIGN: x = (x > 0) - (x < 0); break;
    case U_RELU: x = x < 0 ? 0 : x; break;
    case U_NOT: x = !x; break;
    default: return false;
    }
    *r = oc_dim_of(x);
    return true;
}

static bool fun(enum uop op, double x, double *r)
{
    switch (op) {
    case U_ABS: *r = fabs(x); return true;
    case U_NEG: *r = -x; return true;
    case U_FLOOR: *r = floor(x); return true;
    case U_CEIL: *r = ceil(x); return true;
    case U_ROUND: *r = rint(x); return true; /* half to even */
    case U_SQRT: *r = sqrt(x); return true;
    case U_RECIP: *r = 1.0 / x; return true;
    case U_SIGN: *r = x > 0 ? 1.0 : x < 0 ? -1.0 : x; return true;
    case U_RELU: *r = x < 0 ? 0.0 : x; return true;
    case U_EXP: *r = exp(x); return true;
    default: return false;
    }
}

static oc_status unary_vals(oc_op_ctx *c, enum uop op)
{
    oc_tinfo *o = oc_ctx_out(c, 0);
    vals v;
    obuf out;
    if (op == U_NONE || !o || !in_vals(c, 0, &v) ||
        !obuf_init(c, &out, v.n, v.is_f))
        return OC_OK;
    for (int64_t e = 0; e < v.n; e++) {
        if (v.is_f) {
            if (!fun(op, v.fv[e], &out.fv[e]))
                return OC_OK;
            out.fv[e] = round_to(o->dtype, out.fv[e]);
        } else if (!iun(op, v.iv[e], &out.iv[e]) ||
                   (is_num(out.iv[e]) && !int_fits(o->dtype, out.iv[e].v))) {
            return OC_OK;
        }
    }
    return obuf_emit(c, 0, &out);
}

/* Same dtype and shape as the input (math functions, activations). */
oc_status oc_unary_infer(oc_op_ctx *c)
{
    const oc_tinfo *x;
    oc_status s = need_in(c, 0, &x);
    if (s == OC_OK)
        s = oc_out_like(c, 0, x);
    if (s == OC_OK)
        s = unary_vals(c, find_uop(op_name(c)));
    return s;
}

/* IsInf, IsNaN: a bool of the input's shape. */
oc_status oc_unary_bool_infer(oc_op_ctx *c)
{
    const oc_tinfo *x;
    oc_status s = need_in(c, 0, &x);
    if (s != OC_OK)
        return s;
    return oc_out_set(c, 0, OC_DT_BOOL, x->rank, x->dims);
}

oc_status oc_gelu_infer(oc_op_ctx *c)
{
    const char *a = oc_attr_str(c, "approximate", "none");
    if (strcmp(a, "none") != 0 && strcmp(a, "tanh") != 0)
        oc_warn(c, "Gelu: approximate '%s' not understood, costed as 'none'",
                a);
    return oc_unary_infer(c);
}

/* The slope broadcasts to X (unidirectionally, opset >= 7); Y is X's
 * shape. */
oc_status oc_prelu_infer(oc_op_ctx *c)
{
    const oc_tinfo *x, *sl;
    oc_status s = need_in(c, 0, &x);
    if (s == OC_OK)
        s = need_in(c, 1, &sl);
    if (s != OC_OK)
        return s;
    check_same_dtype(c, x, 0, sl, 1);
    if (x->rank >= 0 && sl->rank > x->rank)
        return oc_fail(c, "PRelu: slope has rank %d, more than X's %d",
                       sl->rank, x->rank);
    for (int d = 0; x->rank >= 0 && d < sl->rank; d++) {
        oc_dim sd = sl->dims[d], xd = x->dims[x->rank - sl->rank + d];
        if (oc_dim_is_known(sd) && sd.v == 1)
            continue;
        if (!oc_dim_is_unknown(sd) && !oc_dim_is_unknown(xd) &&
            oc_dim_eq(sd, xd) == 0) {
            char b1[64], b2[64];
            return oc_fail(c, "PRelu: slope dim %d is %s, X's is %s", d,
                           oc_dim_str(sd, b1, sizeof b1),
                           oc_dim_str(xd, b2, sizeof b2));
        }
    }
    return oc_out_like(c, 0, x);
}

/* ---- Clip ---- */

/* One bound from an optional input (opset >= 11): *present is false when
 * the input is omitted; false when its contents are unknown. */
static bool clip_bound(oc_op_ctx *c, size_t i, bool is_f, bool *present,
                       oc_dim *ib, double *fb)
{
    vals v;
    *present = oc_ctx_in(c, i) != NULL;
    if (!*present)
        return true;
    if (!in_vals(c, i, &v) || v.n != 1 || v.is_f != is_f)
        return false;
    if (is_f)
        *fb = v.fv[0];
    else
        *ib = v.iv[0];
    return is_f || is_num(*ib);
}

static bool clip_int(oc_dim x, bool has_lo, int64_t lo, bool has_hi,
                     int64_t hi, oc_dim *r)
{
    if (!is_num(x)) {
        /* a dim is >= 0, so only a non-positive floor leaves it be */
        *r = x;
        return !has_hi && (!has_lo || lo <= 0);
    }
    int64_t v = x.v;
    if (has_lo && v < lo)
        v = lo;
    if (has_hi && v > hi)
        v = hi;
    *r = oc_dim_of(v);
    return true;
}

static oc_status clip_vals(oc_op_ctx *c)
{
    oc_tinfo *o = oc_ctx_out(c, 0);
    vals v;
    obuf out;
    if (!o || !in_vals(c, 0, &v))
        return OC_OK;
    bool has_lo = true, has_hi = true;
    oc_dim ilo = oc_dim_of(0), ihi = oc_dim_of(0);
    double flo = -FLT_MAX, fhi = FLT_MAX;
    if (oc_ctx_opset(c) < 11) {
        if (!v.is_f)
            return OC_OK;
        flo = oc_attr_float(c, "min", -FLT_MAX);
        fhi = oc_attr_float(c, "max", FLT_MAX);
    } else if (!clip_bound(c, 1, v.is_f, &has_lo, &ilo, &flo) ||
               !clip_bound(c, 2, v.is_f, &has_hi, &ihi, &fhi)) {
        return OC_OK;
    }
    if (!obuf_init(c, &out, v.n, v.is_f))
        return OC_OK;
    for (int64_t e = 0; e < v.n; e++) {
        if (!v.is_f) {
            if (!clip_int(v.iv[e], has_lo, ilo.v, has_hi, ihi.v, &out.iv[e]))
                return OC_OK;
            continue;
        }
        double r = v.fv[e]; /* NaN stays NaN */
        if (has_lo && r < flo)
            r = flo;
        if (has_hi && r > fhi)
            r = fhi;
        out.fv[e] = round_to(o->dtype, r);
    }
    return obuf_emit(c, 0, &out);
}

/* min and max are attributes before opset 11, optional inputs after. */
oc_status oc_clip_infer(oc_op_ctx *c)
{
    const oc_tinfo *x;
    oc_status s = need_in(c, 0, &x);
    if (s != OC_OK)
        return s;
    for (size_t i = 1; oc_ctx_opset(c) >= 11 && i <= 2; i++) {
        const oc_tinfo *b = oc_ctx_in(c, i);
        int64_t n;
        if (!b)
            continue;
        check_same_dtype(c, x, 0, b, i);
        if (oc_tinfo_known_numel(b, &n) && n != 1)
            return oc_fail(c, "Clip: %s must be a scalar, got %lld elements",
                           i == 1 ? "min" : "max", (long long)n);
    }
    s = oc_out_like(c, 0, x);
    return s == OC_OK ? clip_vals(c) : s;
}

/* ---- binary and variadic ---- */

static oc_status binary_attrs(oc_op_ctx *c, const oc_tinfo *a, int *fmod_)
{
    *fmod_ = 0;
    if (op_is(c, "Mod")) {
        int64_t f = oc_attr_int(c, "fmod", 0);
        if (f != 0 && f != 1)
            return oc_fail(c, "Mod: fmod must be 0 or 1, got %lld",
                           (long long)f);
        if (f == 0 && oc_dtype_is_float(a->dtype))
            return oc_fail(c, "Mod: fmod must be 1 for %s inputs",
                           oc_dtype_name(a->dtype));
        *fmod_ = (int)f;
    } else if (op_is(c, "BitShift")) {
        const char *d = oc_attr_str(c, "direction", "");
        if (strcmp(d, "LEFT") != 0 && strcmp(d, "RIGHT") != 0)
            return oc_fail(c, "BitShift: direction must be LEFT or RIGHT, "
                              "got '%s'", d);
    }
    return OC_OK;
}

/* Two inputs broadcast; comparisons give bool, the rest the first input's
 * type (Pow: the base's). */
oc_status oc_binary_infer(oc_op_ctx *c)
{
    const oc_tinfo *ab[2];
    const bspec *sp = find_bspec(op_name(c));
    oc_status s = need_in(c, 0, &ab[0]);
    if (s == OC_OK)
        s = need_in(c, 1, &ab[1]);
    if (s != OC_OK)
        return s;
    if (!sp)
        return oc_fail(c, "%s: not a binary operator", op_name(c));
    int fmod_, rank;
    oc_dim dims[OC_MAX_RANK];
    s = binary_attrs(c, ab[0], &fmod_);
    if (s == OC_OK)
        s = oc_broadcast(c, ab, 2, &rank, dims);
    if (s != OC_OK)
        return s;
    if (sp->same_t)
        check_same_dtype(c, ab[0], 0, ab[1], 1);
    oc_dtype dt = ab[0]->dtype;
    if (dt == OC_DT_UNDEFINED && sp->same_t)
        dt = ab[1]->dtype;
    if (bop_is_cmp(sp->b))
        dt = OC_DT_BOOL;
    s = oc_out_set(c, 0, dt, rank, dims);
    return s == OC_OK ? fold_vals(c, sp, fmod_, ab, 2) : s;
}

/* Sum Mean Max Min: one or more inputs, all broadcast together. */
oc_status oc_variadic_infer(oc_op_ctx *c)
{
    size_t n = oc_ctx_n_in(c);
    const bspec *sp = find_bspec(op_name(c));
    if (n == 0)
        return oc_fail(c, "%s: needs at least one input", op_name(c));
    if (!sp)
        return oc_fail(c, "%s: not a variadic operator", op_name(c));
    const oc_tinfo **ins = oc_ctx_alloc(c, sizeof *ins * n);
    if (!ins)
        return oc_fail(c, "%s: out of memory", op_name(c));
    oc_dtype dt = OC_DT_UNDEFINED;
    for (size_t i = 0; i < n; i++) {
        oc_status s = need_in(c, i, &ins[i]);
        if (s != OC_OK)
            return s;
        if (i > 0)
            check_same_dtype(c, ins[0], 0, ins[i], i);
        if (dt == OC_DT_UNDEFINED)
            dt = ins[i]->dtype;
    }
    int rank;
    oc_dim dims[OC_MAX_RANK];
    oc_status s = oc_broadcast(c, ins, n, &rank, dims);
    if (s == OC_OK)
        s = oc_out_set(c, 0, dt, rank, dims);
    return s == OC_OK ? fold_vals(c, sp, 0, ins, n) : s;
}

/* ---- Where ---- */

static oc_status where_vals(oc_op_ctx *c, const oc_tinfo *const *ins)
{
    oc_tinfo *o = oc_ctx_out(c, 0);
    vals v[3];
    if (!o)
        return OC_OK;
    for (size_t k = 0; k < 3; k++)
        if (!in_vals(c, k, &v[k]))
            return OC_OK;
    if (v[0].is_f || v[1].is_f != v[2].is_f)
        return OC_OK;
    int64_t total;
    int64_t *offs = bcast_offsets(c, ins, 3, o, &total);
    obuf out;
    if (!offs || !obuf_init(c, &out, total, v[1].is_f))
        return OC_OK;
    size_t t = (size_t)total;
    for (int64_t e = 0; e < total; e++) {
        oc_dim cond = v[0].iv[offs[e]];
        if (!is_num(cond))
            return OC_OK;
        const vals *pick = cond.v ? &v[1] : &v[2];
        int64_t at = offs[(cond.v ? 1 : 2) * t + (size_t)e];
        if (out.is_f)
            out.fv[e] = pick->fv[at];
        else
            out.iv[e] = pick->iv[at];
    }
    return obuf_emit(c, 0, &out);
}

oc_status oc_where_infer(oc_op_ctx *c)
{
    const oc_tinfo *ins[3];
    for (size_t i = 0; i < 3; i++) {
        oc_status s = need_in(c, i, &ins[i]);
        if (s != OC_OK)
            return s;
    }
    if (ins[0]->dtype != OC_DT_UNDEFINED && ins[0]->dtype != OC_DT_BOOL)
        oc_warn(c, "Where: condition is %s, not bool",
                oc_dtype_name(ins[0]->dtype));
    check_same_dtype(c, ins[1], 1, ins[2], 2);
    int rank;
    oc_dim dims[OC_MAX_RANK];
    oc_status s = oc_broadcast(c, ins, 3, &rank, dims);
    oc_dtype dt = ins[1]->dtype ? ins[1]->dtype : ins[2]->dtype;
    if (s == OC_OK)
        s = oc_out_set(c, 0, dt, rank, dims);
    return s == OC_OK ? where_vals(c, ins) : s;
}

/* ---- Cast, CastLike, Identity, Dropout ---- */

/* Convert one element of v to dt; false when it cannot be told. */
static bool cast_elem(const vals *v, int64_t e, oc_dtype dt, obuf *out)
{
    if (oc_dtype_is_float(dt)) {
        if (v->is_f) {
            out->fv[e] = round_to(dt, v->fv[e]);
            return true;
        }
        if (!is_num(v->iv[e]))
            return false; /* a symbol's value is not a number yet */
        out->fv[e] = round_to(dt, (double)v->iv[e].v);
        return true;
    }
    int64_t r;
    if (v->is_f) {
        if (!float_to_int(dt, v->fv[e], &r))
            return false;
        out->iv[e] = oc_dim_of(r);
        return true;
    }
    oc_dim x = v->iv[e];
    if (!is_num(x)) {
        out->iv[e] = x; /* a dim fits any integer type but bool */
        return dt != OC_DT_BOOL;
    }
    r = dt == OC_DT_BOOL ? x.v != 0 : x.v;
    out->iv[e] = oc_dim_of(r);
    return int_fits(dt, r);
}

static oc_status cast_vals(oc_op_ctx *c, oc_dtype dt)
{
    vals v;
    obuf out;
    if (!oc_dtype_is_float(dt) && !oc_dtype_is_int(dt))
        return OC_OK;
    if (!in_vals(c, 0, &v) || !obuf_init(c, &out, v.n, oc_dtype_is_float(dt)))
        return OC_OK;
    for (int64_t e = 0; e < v.n; e++)
        if (!cast_elem(&v, e, dt, &out))
            return OC_OK;
    return obuf_emit(c, 0, &out);
}

/* Element type codes newer than this build knows (float8 types, int4 and
 * uint4 of opsets 19-21): the output's type stays undefined. */
enum { OC_DT_NEWEST_ONNX = 22 };

oc_status oc_cast_infer(oc_op_ctx *c)
{
    const oc_tinfo *x;
    oc_status s = need_in(c, 0, &x);
    if (s != OC_OK)
        return s;
    const oc_attr *a = oc_ctx_attr(c, "to");
    if (!a || a->type != OC_ATTR_INT)
        return oc_fail(c, "Cast: integer attribute 'to' is missing");
    oc_dtype dt = OC_DT_UNDEFINED;
    if (oc_dtype_valid(a->i))
        dt = (oc_dtype)a->i;
    else if (a->i >= OC_DT_COUNT_ && a->i <= OC_DT_NEWEST_ONNX)
        oc_warn(c, "Cast: element type %lld is not modelled",
                (long long)a->i);
    else
        return oc_fail(c, "Cast: 'to' = %lld is not an element type",
                       (long long)a->i);
    s = oc_out_set(c, 0, dt, x->rank, x->dims);
    return s == OC_OK ? cast_vals(c, dt) : s;
}

oc_status oc_castlike_infer(oc_op_ctx *c)
{
    const oc_tinfo *x, *like;
    oc_status s = need_in(c, 0, &x);
    if (s == OC_OK)
        s = need_in(c, 1, &like);
    if (s == OC_OK)
        s = oc_out_set(c, 0, like->dtype, x->rank, x->dims);
    return s == OC_OK ? cast_vals(c, like->dtype) : s;
}

/* Output `out` is a copy of input 0, contents included. */
static oc_status copy_of_input(oc_op_ctx *c, size_t out_i)
{
    const oc_tinfo *x;
    oc_status s = need_in(c, 0, &x);
    if (s == OC_OK)
        s = oc_out_like(c, out_i, x);
    oc_tinfo *o = oc_ctx_out(c, out_i);
    vals v;
    if (s != OC_OK || !o)
        return s;
    o->kind = x->kind; /* Identity passes sequences and optionals too */
    o->elem = x->elem;
    if (!in_vals(c, 0, &v) || (!v.iv && !v.fv))
        return OC_OK;
    return v.is_f ? oc_out_fvals(c, out_i, v.n, v.fv)
                  : oc_out_ivals(c, out_i, v.n, v.iv);
}

oc_status oc_identity_infer(oc_op_ctx *c) { return copy_of_input(c, 0); }

/* Is this Dropout certainly in training mode (opset >= 12 input)? */
static bool dropout_training(const oc_op_ctx *c)
{
    const int64_t *v;
    int64_t n;
    return oc_ctx_opset(c) >= 12 && oc_in_ints(c, 2, &v, &n) && n == 1 &&
           v[0] != 0;
}

/* Output like data (a copy in inference); the mask has data's shape and is
 * bool from opset 10, data's type before. */
oc_status oc_dropout_infer(oc_op_ctx *c)
{
    const oc_tinfo *x;
    oc_status s = need_in(c, 0, &x);
    if (s != OC_OK)
        return s;
    double ratio = 0.5;
    const double *rv;
    int64_t n;
    if (oc_ctx_opset(c) < 12)
        ratio = oc_attr_float(c, "ratio", 0.5);
    else if (oc_in_floats(c, 1, &rv, &n) && n == 1)
        ratio = rv[0];
    if (!(ratio >= 0 && ratio <= 1))
        return oc_fail(c, "Dropout: ratio %g is outside [0, 1]", ratio);
    oc_dtype mask_t = oc_ctx_opset(c) >= 10 ? OC_DT_BOOL : x->dtype;
    s = oc_out_set(c, 1, mask_t, x->rank, x->dims);
    if (s != OC_OK)
        return s;
    if (dropout_training(c))
        return oc_out_like(c, 0, x);
    return copy_of_input(c, 0);
}

oc_status oc_dropout_cost(oc_op_ctx *c, oc_cost *out)
{
    return oc_cost_per_output(c, out, dropout_training(c) ? 2 : 0);
}

/* ---- random, Trilu, CumSum ---- */

/* Bernoulli, RandomUniformLike, RandomNormalLike: the input's shape, the
 * `dtype` attribute's type or else the input's. */
oc_status oc_randomlike_infer(oc_op_ctx *c)
{
    const oc_tinfo *x;
    oc_status s = need_in(c, 0, &x);
    if (s != OC_OK)
        return s;
    oc_dtype dt = x->dtype;
    const oc_attr *a = oc_ctx_attr(c, "dtype");
    if (a) {
        if (!oc_dtype_valid(a->i))
            return oc_fail(c, "%s: dtype %lld is not an element type",
                           op_name(c), (long long)a->i);
        dt = (oc_dtype)a->i;
    }
    return oc_out_set(c, 0, dt, x->rank, x->dims);
}

oc_status oc_trilu_infer(oc_op_ctx *c)
{
    const oc_tinfo *x, *k = oc_ctx_in(c, 1);
    oc_status s = need_in(c, 0, &x);
    if (s != OC_OK)
        return s;
    if (x->rank >= 0 && x->rank < 2)
        return oc_fail(c, "Trilu: input has rank %d, needs at least 2",
                       x->rank);
    int64_t n;
    if (k && oc_tinfo_known_numel(k, &n) && n != 1)
        return oc_fail(c, "Trilu: k must be a scalar, got %lld elements",
                       (long long)n);
    return oc_out_like(c, 0, x);
}

oc_status oc_cumsum_infer(oc_op_ctx *c)
{
    const oc_tinfo *x, *ax;
    oc_status s = need_in(c, 0, &x);
    if (s == OC_OK)
        s = need_in(c, 1, &ax);
    if (s != OC_OK)
        return s;
    const int64_t *av;
    int64_t n;
    if (oc_in_ints(c, 1, &av, &n)) {
        if (n != 1)
            return oc_fail(c, "CumSum: axis must be a scalar, got %lld "
                              "values", (long long)n);
        int axis;
        if (x->rank >= 0 && (s = oc_axis(c, av[0], x->rank, 0, &axis)))
            return s;
    }
    return oc_out_like(c, 0, x);
}

/* ---- costs ---- */

/* oc_ew<k>_cost: k FLOPs per output element (see the table on top). */
#define EW_COST(k)                                                            \
    oc_status oc_ew##k##_cost(oc_op_ctx *c, oc_cost *out)                     \
    {                                                                         \
        return oc_cost_per_output(c, out, k);                                 \
    }
EW_COST(1)
EW_COST(2)
EW_COST(3)
EW_COST(4)
EW_COST(5)
EW_COST(7)
#undef EW_COST

oc_status oc_gelu_cost(oc_op_ctx *c, oc_cost *out)
{
    bool tanh_ = strcmp(oc_attr_str(c, "approximate", "none"), "tanh") == 0;
    return oc_cost_per_output(c, out, tanh_ ? 9 : 5);
}

/* n-1 folds of n inputs; Mean divides once more. */
oc_status oc_variadic_cost(oc_op_ctx *c, oc_cost *out)
{
    uint64_t n = oc_ctx_n_in(c);
    return oc_cost_per_output(c, out, op_is(c, "Mean") ? n : n - 1);
}
