/*
 * matmul.c - Gemm, MatMul, MatMulInteger, QLinearMatMul, Einsum.
 *
 * Shapes:
 *   Gemm    A is M x K (K x M with transA), B is K x N (N x K with transB),
 *           C broadcasts unidirectionally to M x N; Y is M x N.
 *   MatMul  numpy matmul: a 1-D A is a row vector and a 1-D B a column
 *           vector (their unit dim is dropped from the result), batch dims
 *           broadcast.  MatMulInteger gives int32, QLinearMatMul gives
 *           y_zero_point's type.
 *   FusedMatMul (com.microsoft, what ONNX Runtime writes for MatMul with a
 *           transposed input or a scale): MatMul of A and B with their last
 *           two dims swapped under transA / transB, times alpha.
 *   Einsum  numpy einsum: "ij,jk->ik" explicit; without "->" the output is
 *           the broadcast ellipsis dims, then the letters that occur once,
 *           in ASCII order.  A letter's extents must agree (1 broadcasts);
 *           ellipsis dims broadcast right-aligned.
 *
 * Costs:
 *   Gemm    MACs = M x N x K; FLOPs = 2 x MACs + M x N when C is given.
 *   MatMul, MatMulInteger, QLinearMatMul
 *           MACs = batch x M x N x K (= output elements x K); FLOPs =
 *           2 x MACs, QLinearMatMul + 2 per output element (requantise).
 *   Einsum  MACs = product of the extents of every distinct letter and of
 *           the broadcast ellipsis dims (the full iteration space), when
 *           some letter (or ellipsis dim) is summed away or there are at
 *           least two operands; otherwise (a transpose or diagonal of one
 *           operand) 0.  FLOPs = 2 x MACs, plus (operands - 2) x the
 *           iteration space for the extra multiplies of 3+ operands.
 */
#include <string.h>

#include "analyzer/values.h"

/* a, or b when a tells nothing. */
static oc_dim dim_pick(oc_dim a, oc_dim b)
{
    return oc_dim_is_unknown(a) ? b : a;
}

static const char *op_name(oc_op_ctx *c)
{
    return oc_ctx_node(c)->op;
}

/* ---- MatMul family ---- */

/* Broadcast two lists of batch dims with the core's rule. */
static oc_status broadcast2(oc_op_ctx *c, const oc_dim *a, int na,
                            const oc_dim *b, int nb, int *rank, oc_dim *out)
{
    oc_tinfo ta = {.kind = OC_KIND_TENSOR, .rank = na, .dims = (oc_dim *)a,
                   .nvals = -1};
    oc_tinfo tb = {.kind = OC_KIND_TENSOR, .rank = nb, .dims = (oc_dim *)b,
                   .nvals = -1};
    const oc_tinfo *ins[2] = {&ta, &tb};
    return oc_broadcast(c, ins, 2, rank, out);
}

static oc_status matmul_shape_of(oc_op_ctx *c, const oc_tinfo *a, const oc_tinfo *b,
                                 oc_dtype dt)
{
    if ((a && a->rank == 0) || (b && b->rank == 0))
        return oc_fail(c, "%s: a scalar operand", op_name(c));
    if (!a || !b || a->rank < 0 || b->rank < 0)
        return oc_out_set(c, 0, dt, -1, NULL);
    bool a1 = a->rank == 1, b1 = b->rank == 1;
    oc_dim ka = a->dims[a->rank - 1];
    oc_dim kb = b1 ? b->dims[0] : b->dims[b->rank - 2];
    if (oc_dims_differ(ka, kb))
        return oc_fail(c, "%s: inner dims differ (%lld vs %lld)", op_name(c),
                       (long long)ka.v, (long long)kb.v);
    oc_dim dims[OC_MAX_RANK];
    int rank;
    int na = a1 ? 0 : a->rank - 2, nb = b1 ? 0 : b->rank - 2;
    oc_status st = broadcast2(c, a->dims, na, b->dims, nb, &rank, dims);
    if (st)
        return st;
    if (rank < 0)
        return oc_out_set(c, 0, dt, -1, NULL);
    if (!a1)
        dims[rank++] = a->dims[a->rank - 2];
    if (!b1)
        dims[rank++] = b->dims[b->rank - 1];
    return oc_out_set(c, 0, dt, rank, dims);
}

static oc_status matmul_shape(oc_op_ctx *c, size_t ia, size_t ib, oc_dtype dt)
{
    return matmul_shape_of(c, oc_ctx_in(c, ia), oc_ctx_in(c, ib), dt);
}

oc_status oc_matmul_infer(oc_op_ctx *c)
{
    return matmul_shape(c, 0, 1, oc_in_dtype(c, 0));
}

oc_status oc_matmulinteger_infer(oc_op_ctx *c)
{
    return matmul_shape(c, 0, 1, OC_DT_INT32);
}

oc_status oc_qlinearmatmul_infer(oc_op_ctx *c)
{
    oc_dtype dt = oc_in_dtype(c, 7);
    return matmul_shape(c, 0, 3, dt != OC_DT_UNDEFINED ? dt : oc_in_dtype(c, 0));
}

/* MACs = output elements x K. */
static oc_status matmul_macs(oc_op_ctx *c, size_t ia, size_t ib, oc_cost *out)
{
    const oc_tinfo *a = oc_ctx_in(c, ia);
    const oc_tinfo *b = oc_ctx_in(c, ib);
    const oc_tinfo *y = oc_ctx_out(c, 0);
    uint64_t n;
    if (!a || !b || !y || a->rank < 1 || b->rank < 1 || !oc_numel(y, &n))
        return OC_OK;
    int64_t k = oc_dim_cost(a->dims[a->rank - 1]);
    if (k < 0)
        k = oc_dim_cost(b->rank == 1 ? b->dims[0] : b->dims[b->rank - 2]);
    if (k < 0)
        return OC_OK;
    oc_status st = oc_cmul(c, n, (uint64_t)k, &out->macs);
    return st ? st : oc_cmul(c, out->macs, 2, &out->flops);
}

oc_status oc_matmul_cost(oc_op_ctx *c, oc_cost *out)
{
    return matmul_macs(c, 0, 1, out);
}

oc_status oc_qlinearmatmul_cost(oc_op_ctx *c, oc_cost *out)
{
    oc_status st = matmul_macs(c, 0, 3, out);
    const oc_tinfo *y = oc_ctx_out(c, 0);
    uint64_t n;
    if (st || !y || !oc_numel(y, &n))
        return st;
    if ((st = oc_cmul(c, n, 2, &n)))
        return st;
    return oc_cadd(c, out->flops, n, &out->flops);
}

/* ---- ORT's dynamic-quantization kernels (com.microsoft) ----
 * MatMulIntegerToFloat (A, B, a_scale, b_scale, a_zp, b_zp, bias): the
 * integer product scaled to float (1 FLOP per output, 1 more with the
 * bias).  DynamicQuantizeMatMul (A float, B, b_scale, b_zp, bias): the
 * same after quantizing A itself (3 FLOPs per element of A: min, max,
 * quantize). */

oc_status oc_matmulintegertofloat_infer(oc_op_ctx *c)
{
    oc_dtype dt = oc_in_dtype(c, 2);
    return matmul_shape(c, 0, 1, dt != OC_DT_UNDEFINED ? dt : OC_DT_FLOAT);
}

oc_status oc_dynamicquantizematmul_infer(oc_op_ctx *c)
{
    oc_dtype dt = oc_in_dtype(c, 0);
    return matmul_shape(c, 0, 1, dt != OC_DT_UNDEFINED ? dt : OC_DT_FLOAT);
}

static oc_status scaled_matmul_cost(oc_op_ctx *c, oc_cost *out, size_t bias, bool quant_a)
{
    oc_status st = matmul_macs(c, 0, 1, out);
    const oc_tinfo *y = oc_ctx_out(c, 0), *a = oc_ctx_in(c, 0);
    uint64_t n, na;
    if (st || !y || !oc_numel(y, &n))
        return st;
    if (oc_ctx_in(c, bias) && (st = oc_cmul(c, n, 2, &n)))
        return st;
    if ((st = oc_cadd(c, out->flops, n, &out->flops)))
        return st;
    if (!quant_a || !a || !oc_numel(a, &na) || (st = oc_cmul(c, na, 3, &na)))
        return st;
    return oc_cadd(c, out->flops, na, &out->flops);
}

oc_status oc_matmulintegertofloat_cost(oc_op_ctx *c, oc_cost *out)
{
    return scaled_matmul_cost(c, out, 6, false);
}

oc_status oc_dynamicquantizematmul_cost(oc_op_ctx *c, oc_cost *out)
{
    return scaled_matmul_cost(c, out, 4, true);
}

/* ---- FusedMatMul (com.microsoft) ---- */

/* Input i as FusedMatMul reads it: its last two dims swapped when the
 * attribute `trans` is set (a rank-1 input is never transposed). */
static const oc_tinfo *fused_operand(oc_op_ctx *c, size_t i, const char *trans,
                                     oc_tinfo *buf)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    if (!t || t->rank < 2 || !oc_attr_int(c, trans, 0))
        return t;
    oc_dim *d = oc_ctx_alloc(c, (size_t)t->rank * sizeof *d);
    if (!d)
        return NULL;
    memcpy(d, t->dims, (size_t)t->rank * sizeof *d);
    oc_dim last = d[t->rank - 1];
    d[t->rank - 1] = d[t->rank - 2];
    d[t->rank - 2] = last;
    *buf = *t;
    buf->dims = d;
    buf->nvals = -1;
    return buf;
}

oc_status oc_fusedmatmul_infer(oc_op_ctx *c)
{
    if (oc_attr_int(c, "transBatchA", 0) || oc_attr_int(c, "transBatchB", 0)) {
        oc_warn(c, "FusedMatMul: transBatchA/transBatchB not supported; shape unknown");
        return oc_out_set(c, 0, oc_in_dtype(c, 0), -1, NULL);
    }
    oc_tinfo ta, tb;
    return matmul_shape_of(c, fused_operand(c, 0, "transA", &ta),
                           fused_operand(c, 1, "transB", &tb), oc_in_dtype(c, 0));
}

/* MACs = output elements x K (K from A as read); FLOPs = 2 x MACs, + one
 * multiply per output for an alpha other than 1. */
oc_status oc_fusedmatmul_cost(oc_op_ctx *c, oc_cost *out)
{
    oc_tinfo ta;
    const oc_tinfo *a = fused_operand(c, 0, "transA", &ta);
    const oc_tinfo *y = oc_ctx_out(c, 0);
    uint64_t n;
    if (!a || !y || a->rank < 1 || !oc_numel(y, &n))
        return OC_OK;
    int64_t k = oc_dim_cost(a->dims[a->rank - 1]);
    if (k < 0)
        return OC_OK;
    oc_status st = oc_cmul(c, n, (uint64_t)k, &out->macs);
    if (!st)
        st = oc_cmul(c, out->macs, 2, &out->flops);
    if (!st && oc_attr_float(c, "alpha", 1.0) != 1.0)
        st = oc_cadd(c, out->flops, n, &out->flops);
    return st;
}

/* ---- Gemm ---- */

/* C must broadcast to M x N; a non-1 dim of C also tells M or N. */
static oc_status gemm_check_c(oc_op_ctx *c, oc_dim *mn)
{
    const oc_tinfo *t = oc_ctx_in(c, 2);
    if (!t || t->rank < 0)
        return OC_OK;
    if (t->rank > 2)
        return oc_fail(c, "Gemm: C has rank %d (at most 2)", t->rank);
    for (int j = 0; j < t->rank; j++) {
        oc_dim cd = t->dims[t->rank - 1 - j];
        oc_dim *yd = &mn[1 - j];
        if (oc_dim_is_known(cd) && cd.v == 1)
            continue;
        if (oc_dims_differ(cd, *yd))
            return oc_fail(c, "Gemm: C dim %lld does not broadcast to %lld",
                           (long long)cd.v, (long long)yd->v);
        *yd = dim_pick(*yd, cd);
    }
    return OC_OK;
}

oc_status oc_gemm_infer(oc_op_ctx *c)
{
    const oc_tinfo *a = oc_ctx_in(c, 0);
    const oc_tinfo *b = oc_ctx_in(c, 1);
    bool ta = oc_attr_int(c, "transA", 0) != 0;
    bool tb = oc_attr_int(c, "transB", 0) != 0;
    oc_dim m = OC_DIM_UNKNOWN, n = OC_DIM_UNKNOWN;
    oc_dim ka = OC_DIM_UNKNOWN, kb = OC_DIM_UNKNOWN;
    if (a && a->rank >= 0) {
        if (a->rank != 2)
            return oc_fail(c, "Gemm: A has rank %d (expected 2)", a->rank);
        m = a->dims[ta ? 1 : 0];
        ka = a->dims[ta ? 0 : 1];
    }
    if (b && b->rank >= 0) {
        if (b->rank != 2)
            return oc_fail(c, "Gemm: B has rank %d (expected 2)", b->rank);
        kb = b->dims[tb ? 1 : 0];
        n = b->dims[tb ? 0 : 1];
    }
    if (oc_dims_differ(ka, kb))
        return oc_fail(c, "Gemm: A gives K = %lld but B gives K = %lld",
                       (long long)ka.v, (long long)kb.v);
    oc_dim mn[2] = {m, n};
    oc_status st = gemm_check_c(c, mn);
    if (st)
        return st;
    return oc_out_set(c, 0, oc_in_dtype(c, 0), 2, mn);
}

oc_status oc_gemm_macs(oc_op_ctx *c, oc_cost *out, uint64_t *mn)
{
    const oc_tinfo *a = oc_ctx_in(c, 0);
    const oc_tinfo *y = oc_ctx_out(c, 0);
    uint64_t n;
    *mn = 0;
    if (!a || !y || a->rank != 2 || !oc_numel(y, &n))
        return OC_OK;
    int64_t k = oc_dim_cost(a->dims[oc_attr_int(c, "transA", 0) ? 0 : 1]);
    if (k < 0)
        return OC_OK;
    *mn = n;
    oc_status st = oc_cmul(c, n, (uint64_t)k, &out->macs);
    if (!st)
        st = oc_cmul(c, out->macs, 2, &out->flops);
    return st;
}

oc_status oc_gemm_cost(oc_op_ctx *c, oc_cost *out)
{
    uint64_t mn;
    oc_status st = oc_gemm_macs(c, out, &mn);
    if (!st && mn && oc_ctx_in(c, 2))
        st = oc_cadd(c, out->flops, mn, &out->flops);
    return st;
}

/* ---- Einsum ---- */

enum { EIN_ELL = '.' }; /* the ellipsis, stored as one symbol in a term */

typedef struct ein_term {
    int n;                  /* symbols (letters and at most one EIN_ELL) */
    char sym[OC_MAX_RANK + 1];
    bool ell;
} ein_term;

typedef struct einsum {
    size_t n_in;
    ein_term in[OC_MAX_RANK];
    ein_term out;
    bool explicit_out;
    /* Per letter: its extent and how often it occurs in the inputs. */
    oc_dim ext[128];
    int count[128];
    bool ell_any;           /* some input has an ellipsis */
    int erank;              /* broadcast ellipsis rank (-1: unknown) */
    oc_dim ell[OC_MAX_RANK];
} einsum;

static bool is_letter(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* One term from s[0..len); spaces are ignored. */
static oc_status parse_term(oc_op_ctx *c, const char *s, size_t len,
                            ein_term *t)
{
    t->n = 0;
    t->ell = false;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch == ' ')
            continue;
        if (t->n >= OC_MAX_RANK)
            return oc_fail(c, "Einsum: a term has more than %d axes",
                           OC_MAX_RANK);
        if (ch == '.') {
            if (t->ell || i + 2 >= len || s[i + 1] != '.' ||
                s[i + 2] != '.')
                return oc_fail(c, "Einsum: a misplaced '.' in the equation");
            t->ell = true;
            t->sym[t->n++] = EIN_ELL;
            i += 2;
        } else if (is_letter(ch)) {
            t->sym[t->n++] = ch;
        } else {
            return oc_fail(c, "Einsum: character 0x%02x in the equation",
                           (unsigned)(unsigned char)ch);
        }
    }
    return OC_OK;
}

static oc_status parse_equation(oc_op_ctx *c, einsum *e)
{
    const char *eq = oc_attr_str(c, "equation", NULL);
    if (!eq)
        return oc_fail(c, "Einsum: the equation attribute is required");
    const char *arrow = strstr(eq, "->");
    size_t lhs_len = arrow ? (size_t)(arrow - eq) : strlen(eq);
    oc_status st;
    e->n_in = 0;
    for (size_t pos = 0;;) {
        const char *comma = memchr(eq + pos, ',', lhs_len - pos);
        size_t end = comma ? (size_t)(comma - eq) : lhs_len;
        if (e->n_in >= OC_MAX_RANK)
            return oc_fail(c, "Einsum: too many operands");
        if ((st = parse_term(c, eq + pos, end - pos, &e->in[e->n_in++])))
            return st;
        if (!comma)
            break;
        pos = end + 1;
    }
    e->explicit_out = arrow != NULL;
    if (arrow && (st = parse_term(c, arrow + 2, strlen(arrow + 2), &e->out)))
        return st;
    if (e->n_in != oc_ctx_n_in(c))
        return oc_fail(c, "Einsum: the equation has %zu operands, the node "
                          "%zu inputs", e->n_in, oc_ctx_n_in(c));
    return OC_OK;
}

/* Merge one occurrence of a letter's extent. */
static oc_status merge_letter(oc_op_ctx *c, einsum *e, char l, oc_dim d)
{
    oc_dim *x = &e->ext[(unsigned char)l];
    e->count[(unsigned char)l]++;
    if (oc_dim_is_known(d) && d.v == 1 && !oc_dim_is_unknown(*x))
        return OC_OK;
    if (oc_dim_is_known(*x) && x->v == 1) {
        *x = d;
        return OC_OK;
    }
    if (oc_dims_differ(*x, d))
        return oc_fail(c, "Einsum: letter '%c' has extents %lld and %lld", l,
                       (long long)x->v, (long long)d.v);
    *x = dim_pick(*x, d);
    return OC_OK;
}

/* Right-aligned broadcast of one operand's ellipsis dims into e->ell. */
static oc_status merge_ellipsis(oc_op_ctx *c, einsum *e, const oc_dim *d,
                                int n)
{
    if (e->erank < 0)
        return OC_OK;
    oc_dim tmp[OC_MAX_RANK];
    int rank;
    oc_status st = broadcast2(c, e->ell, e->erank, d, n, &rank, tmp);
    if (st)
        return st;
    e->erank = rank;
    memcpy(e->ell, tmp, sizeof(oc_dim) * (rank > 0 ? (size_t)rank : 0));
    return OC_OK;
}

/* Bind the input terms to the operands' shapes. */
static oc_status bind_inputs(oc_op_ctx *c, einsum *e)
{
    for (int i = 0; i < 128; i++) {
        e->ext[i] = OC_DIM_UNKNOWN;
        e->count[i] = 0;
    }
    e->ell_any = false;
    e->erank = 0;
    for (size_t k = 0; k < e->n_in; k++) {
        const ein_term *t = &e->in[k];
        const oc_tinfo *x = oc_ctx_in(c, k);
        int rank = x ? x->rank : -1;
        int letters = t->n - (t->ell ? 1 : 0);
        e->ell_any |= t->ell;
        if (rank >= 0 && (t->ell ? rank < letters : rank != letters))
            return oc_fail(c, "Einsum: operand %zu has rank %d for %d "
                              "subscripts", k, rank, letters);
        int er = rank >= 0 ? rank - letters : -1;
        int pos = 0;
        oc_status st;
        for (int j = 0; j < t->n; j++) {
            if (t->sym[j] == EIN_ELL) {
                if (er < 0)
                    e->erank = -1;
                else if ((st = merge_ellipsis(c, e, x->dims + pos, er)))
                    return st;
                pos += er > 0 ? er : 0;
                continue;
            }
            oc_dim d = rank >= 0 ? x->dims[pos++] : OC_DIM_UNKNOWN;
            if ((st = merge_letter(c, e, t->sym[j], d)))
                return st;
        }
    }
    return OC_OK;
}

/* Without "->": ellipsis first, then letters seen once, ASCII order. */
static void implicit_output(einsum *e)
{
    e->out.n = 0;
    e->out.ell = e->ell_any;
    if (e->ell_any)
        e->out.sym[e->out.n++] = EIN_ELL;
    for (int l = 0; l < 128; l++)
        if (e->count[l] == 1 && e->out.n < OC_MAX_RANK)
            e->out.sym[e->out.n++] = (char)l;
}

static oc_status check_output(oc_op_ctx *c, const einsum *e)
{
    for (int j = 0; j < e->out.n; j++) {
        char l = e->out.sym[j];
        if (l != EIN_ELL && !e->count[(unsigned char)l])
            return oc_fail(c, "Einsum: output letter '%c' is not in any "
                              "input", l);
        for (int i = 0; i < j; i++)
            if (e->out.sym[i] == l)
                return oc_fail(c, "Einsum: output letter '%c' repeats", l);
    }
    if (e->out.ell && !e->ell_any)
        return oc_fail(c, "Einsum: '...' in the output only");
    if (!e->out.ell && e->ell_any && e->erank > 0)
        return oc_fail(c, "Einsum: the output drops %d broadcast dims without "
                          "'...'", e->erank);
    return OC_OK;
}

static oc_status einsum_build(oc_op_ctx *c, einsum *e)
{
    oc_status st;
    if ((st = parse_equation(c, e)) || (st = bind_inputs(c, e)))
        return st;
    if (!e->explicit_out)
        implicit_output(e);
    return check_output(c, e);
}

oc_status oc_einsum_infer(oc_op_ctx *c)
{
    einsum *e = oc_ctx_alloc(c, sizeof *e);
    if (!e)
        return oc_fail(c, "Einsum: out of memory");
    oc_status st = einsum_build(c, e);
    if (st)
        return st;
    oc_dtype dt = oc_in_dtype(c, 0);
    if (e->out.ell && e->erank < 0)
        return oc_out_set(c, 0, dt, -1, NULL);
    oc_dim dims[OC_MAX_RANK];
    int rank = 0;
    for (int j = 0; j < e->out.n; j++) {
        if (e->out.sym[j] != EIN_ELL) {
            dims[rank++] = e->ext[(unsigned char)e->out.sym[j]];
            continue;
        }
        if (rank + e->erank > OC_MAX_RANK)
            return oc_fail(c, "Einsum: output rank exceeds %d", OC_MAX_RANK);
        for (int i = 0; i < e->erank; i++)
            dims[rank++] = e->ell[i];
    }
    return oc_out_set(c, 0, dt, rank, dims);
}

/* Some letter (or ellipsis dim) of the inputs is absent from the output. */
static bool einsum_sums(const einsum *e)
{
    if (e->ell_any && !e->out.ell && e->erank > 0)
        return true;
    for (int l = 0; l < 128; l++)
        if (e->count[l] && !memchr(e->out.sym, l, (size_t)e->out.n))
            return true;
    return false;
}

oc_status oc_einsum_cost(oc_op_ctx *c, oc_cost *out)
{
    einsum *e = oc_ctx_alloc(c, sizeof *e);
    if (!e)
        return oc_fail(c, "Einsum: out of memory");
    oc_status st = einsum_build(c, e);
    if (st || e->erank < 0 || (e->n_in < 2 && !einsum_sums(e)))
        return st;
    uint64_t space = 1, t;
    for (int l = 0; l < 128; l++) {
        int64_t v = e->count[l] ? oc_dim_cost(e->ext[l]) : 1;
        if (v < 0 || (st = oc_cmul(c, space, (uint64_t)v, &space)))
            return st;
    }
    for (int i = 0; i < e->erank; i++) {
        int64_t v = oc_dim_cost(e->ell[i]);
        if (v < 0 || (st = oc_cmul(c, space, (uint64_t)v, &space)))
            return st;
    }
    out->macs = space;
    if ((st = oc_cmul(c, space, 2, &out->flops)))
        return st;
    if (e->n_in <= 2)
        return OC_OK;
    if ((st = oc_cmul(c, space, e->n_in - 2, &t)))
        return st;
    return oc_cadd(c, out->flops, t, &out->flops);
}
