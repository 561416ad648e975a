/* features.c - node description -> feature vector; dataset -> samples. */
#include "predictor/features.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "predictor/dataset.h"
#include "predictor/mlp.h"
#include "predictor/targets.h"

/* ---- families ---- */

oc_op_family oc_op_family_of(const char *op, const char *domain)
{
    return oc_op_id_family(oc_op_id_of(domain, op));
}

/* ---- elementwise kernel traits ---- */

/* The string attribute `name`, or "" when absent. */
static const char *attr_str(const oc_node_desc *d, const char *name)
{
    const oc_desc_attr *a = oc_node_desc_attr(d, name);
    return a && a->type == OC_ATTR_STRING && a->s ? a->s : "";
}

unsigned oc_ew_traits(const oc_node_desc *d)
{
    oc_op_id id = oc_op_id_of(d->domain, d->op);
    oc_op_family f = oc_op_id_family(id);
    if (f != OC_OPF_ELEMENTWISE && f != OC_OPF_ACTIVATION && f != OC_OPF_REDUCE)
        return 0;
    if (id == OC_OPID_Gelu)
        return (strcmp(attr_str(d, "approximate"), "tanh") ? OC_EW_ERF : OC_EW_EXP) |
               OC_EW_GATED;
    return oc_op_id_traits(id);
}

/* ---- schema ---- */

static const char *const feature_names[OC_N_FEATURES] = {
#define XX(id, name) [OC_F_##id] = name,
    OC_FEATURE_LIST(XX)
#undef XX
};

const char *oc_feature_name(int i)
{
    return (i >= 0 && i < OC_N_FEATURES) ? feature_names[i] : NULL;
}

/* The family columns are laid out in family order. */
_Static_assert(OC_F_FAM_OTHER - OC_F_FAM_CONV == OC_OPF_OTHER - OC_OPF_CONV,
               "family one-hot columns follow OC_OP_FAMILY_LIST");

double oc_roofline_time_us(const oc_target *t, double flops, double bytes)
{
    /* 1 GFLOP/s = 1e3 FLOP per microsecond; 1 GB/s = 1e3 bytes per us. */
    double tc = t->gflops > 0 ? flops / (t->gflops * 1e3) : 0;
    double tm = t->gbps > 0 ? bytes / (t->gbps * 1e3) : 0;
    return tc > tm ? tc : tm;
}

/* ---- features ---- */

static float lg(double v) { return (float)log1p(v > 0 ? v : 0); }
/* log2 of a size or step of at least 1 (0 for 1) */
static float lg2(double v) { return (float)log2(v > 1 ? v : 1); }

/* Dilations above this count as this (ORT's im2col costs the same). */
#define OC_DILATION_CAP 8.0

/* Elements of a value, or -1 when its shape is unknown. */
static double numel(const oc_desc_value *v)
{
    if (v->rank < 0)
        return -1;
    double n = 1;
    for (int i = 0; i < v->rank; i++) {
        if (v->dims[i] < 0)
            return -1;
        n *= (double)v->dims[i];
    }
    return n;
}

static double dim(const oc_desc_value *v, int i)
{
    if (!v || i < 0 || i >= v->rank)
        return 1;
    return (double)v->dims[i];
}

static double prod_from(const oc_desc_value *v, int from)
{
    double n = 1;
    if (!v)
        return 1;
    for (int i = from < 0 ? 0 : from; i < v->rank; i++)
        n *= (double)v->dims[i];
    return n;
}

/* A permutation of v's axes that moves more than one of them, once the
 * axes of size 1 are left out (the identity and one axis moving to
 * another place are not: ONNX Runtime copies blocks for those, and walks
 * the others element by element). */
static bool generic_move(const oc_desc_value *v, const int64_t *perm, size_t np)
{
    if (!v || v->rank < 0 || (size_t)v->rank != np || np > 16)
        return false;
    int64_t kept[16];
    size_t n = 0;
    for (size_t i = 0; i < np; i++) {
        if (perm[i] < 0 || perm[i] >= v->rank)
            return false;
        if (v->dims[perm[i]] != 1)
            kept[n++] = perm[i];
    }
    /* one axis moving: some element whose removal leaves the rest in order */
    for (size_t skip = 0; skip < n; skip++) {
        bool ordered = true;
        int64_t last = -1;
        for (size_t i = 0; i < n && ordered; i++) {
            if (i == skip)
                continue;
            ordered = kept[i] > last;
            last = kept[i];
        }
        if (ordered)
            return false;
    }
    return n > 0;
}

static double prod_to(const oc_desc_value *v, int to)
{
    double n = 1;
    if (!v)
        return 1;
    for (int i = 0; i < to && i < v->rank; i++)
        n *= (double)v->dims[i];
    return n;
}

/* An axis attribute normalised to [0, rank), or -1 when out of range. */
static int norm_axis(int64_t ax, int rank)
{
    if (ax < 0)
        ax += rank;
    return ax >= 0 && ax < rank ? (int)ax : -1;
}

/* The last axis on which two values of equal rank differ in size, or -1. */
static int last_changed_axis(const oc_desc_value *a, const oc_desc_value *b)
{
    if (!a || !b || a->rank != b->rank)
        return -1;
    for (int i = a->rank - 1; i >= 0; i--)
        if (a->dims[i] != b->dims[i])
            return i;
    return -1;
}

/* Which axes of `in` a reduction to `out` folds (red[rank]): the axes
 * attribute when there is one, else read off the shapes (kept dims keep
 * their size; with keepdims=1 a folded one becomes 1).  False when the
 * shapes do not tell. */
static bool reduced_axes(const oc_node_desc *d, const oc_desc_value *in,
                         const oc_desc_value *out, bool *red)
{
    int r = in->rank;
    size_t na;
    const int64_t *ax = oc_node_desc_attr_ints(d, "axes", &na);
    int64_t one = oc_node_desc_attr_int(d, "axis", INT64_MIN);
    if (!ax && one != INT64_MIN) /* ArgMax, ArgMin */
        ax = &one, na = 1;
    for (int i = 0; i < r; i++)
        red[i] = false;
    if (ax && na > 0) {
        for (size_t k = 0; k < na; k++) {
            int a = norm_axis(ax[k], r);
            if (a < 0)
                return false;
            red[a] = true;
        }
        return true;
    }
    if (out->rank == r) {
        for (int i = 0; i < r; i++)
            red[i] = out->dims[i] == 1 && in->dims[i] != 1;
        return true;
    }
    int j = out->rank - 1;
    for (int i = r - 1; i >= 0; i--) {
        if (j >= 0 && in->dims[i] == out->dims[j])
            j--;
        else
            red[i] = true;
    }
    return j < 0;
}

/* The output's innermost span over which every operand either runs
 * along with the output or stays constant (its dims there all the
 * output's or all 1): the stretch a broadcasting loop does in one go.  An
 * outer product [.., D, 1] op [K] goes K elements at a time, a bias [D] on
 * [.., D] D at a time, a per-channel [C, 1, 1] H * W; measured alone, the
 * first ran at 0.4-4.4 ns an element, pairwise and same-shape ones at
 * 0.2-0.3.  0 when no input is smaller than the output. */
static double broadcast_run(const oc_node_desc *d, const oc_desc_value *out)
{
    double on = numel(out);
    bool smaller = false;
    for (size_t i = 0; i < d->n_inputs; i++)
        smaller |= d->inputs[i].present && numel(&d->inputs[i]) < on;
    if (!smaller)
        return 0;
    enum { MAX_IN = 16 };
    signed char bc[MAX_IN];
    memset(bc, -1, sizeof bc);
    double run = 1;
    for (int k = 1; k <= out->rank; k++) {
        int64_t od = out->dims[out->rank - k];
        if (od == 1)
            continue;
        for (size_t i = 0; i < d->n_inputs && i < MAX_IN; i++) {
            const oc_desc_value *v = &d->inputs[i];
            if (!v->present)
                continue;
            int vi = v->rank - k;
            signed char b = vi < 0 || v->dims[vi] == 1;
            if (bc[i] >= 0 && bc[i] != b)
                return run;
            bc[i] = b;
        }
        run *= (double)od;
    }
    return run;
}

static bool is_fused(const oc_node_desc *d, const char *op)
{
    for (size_t i = 0; i < d->n_fused; i++)
        if (d->fused[i] && !strcmp(d->fused[i], op))
            return true;
    return false;
}

/* The value of list attribute `name` at index i, or dflt. */
static double attr_at(const oc_node_desc *d, const char *name, size_t i, double dflt)
{
    size_t n;
    const int64_t *v = oc_node_desc_attr_ints(d, name, &n);
    return v && i < n ? (double)v[i] : dflt;
}

/* ONNX Runtime runs a 2-D fp32 Conv in its blocked NCHWc layout (plan.c's
 * nchwc_conv: one group, input channels fewer than a block or a multiple
 * of 4) with the output channels padded to whole blocks: a 3-channel
 * output costs what a block's channels cost (a style-transfer net's last
 * 9x9 Conv ran 4x its prediction on a 16-channel-block CPU).  The factor
 * of work that padding adds, for the target's block (1: none). */
static double nchwc_pad(const oc_node_desc *d, const oc_target *t, const oc_desc_value *in0,
                        const oc_desc_value *out0)
{
    double bl = t->nchwc_block;
    if (!(bl > 0) || strcmp(d->op ? d->op : "", "Conv") || (d->domain && d->domain[0]) ||
        !in0 || in0->rank != 4 || out0->rank != 4 || in0->dtype != OC_DT_FLOAT ||
        oc_node_desc_attr_int(d, "group", 1) != 1)
        return 1;
    double ci = dim(in0, 1), co = dim(out0, 1);
    if (!(ci >= 1 && co >= 1) || (ci >= bl && fmod(ci, 4) != 0))
        return 1;
    return ceil(co / bl) * bl / co;
}

oc_status oc_features_from_desc(const oc_node_desc *d, const oc_target *t, float *x,
                                oc_error *err)
{
    memset(x, 0, OC_N_FEATURES * sizeof *x);
    const char *op = d->op ? d->op : "";
    const oc_desc_value *in0 = NULL, *out0 = NULL;
    double in_elems = 0, out_elems = 0;
    int n_act = 0;
    for (size_t i = 0; i < d->n_inputs; i++) {
        const oc_desc_value *v = &d->inputs[i];
        if (!v->present)
            continue;
        double e = numel(v);
        if (e < 0)
            return oc_error_set(err, OC_ERR_INPUT, op,
                                "%s: input %zu has an unknown shape (bind symbolic "
                                "dims to predict its time)", op, i);
        if (!in0)
            in0 = v;
        in_elems += e;
        n_act += !v->weight;
    }
    for (size_t i = 0; i < d->n_outputs; i++) {
        const oc_desc_value *v = &d->outputs[i];
        if (!v->present)
            continue;
        double e = numel(v);
        if (e < 0)
            return oc_error_set(err, OC_ERR_INPUT, op,
                                "%s: output %zu has an unknown shape (bind symbolic "
                                "dims to predict its time)", op, i);
        if (!out0)
            out0 = v;
        out_elems += e;
    }
    if (!out0)
        return oc_error_set(err, OC_ERR_INPUT, op, "%s: node has no output", op);

    const oc_desc_cost *c = &d->cost;
    double pad = nchwc_pad(d, t, in0, out0);
    double flops = (double)c->flops * pad,
           bytes = (double)c->bytes_read + (double)c->bytes_written;
    x[OC_F_LOG_MACS] = lg((double)c->macs * pad);
    x[OC_F_LOG_FLOPS] = lg(flops);
    x[OC_F_LOG_BYTES_READ] = lg((double)c->bytes_read);
    x[OC_F_LOG_BYTES_WRITTEN] = lg((double)c->bytes_written);
    x[OC_F_LOG_PARAMS] = lg((double)c->params);
    x[OC_F_LOG_IN_ELEMS] = lg(in_elems);
    x[OC_F_LOG_OUT_ELEMS] = lg(out_elems);
    x[OC_F_LOG_INTENSITY] = lg(bytes > 0 ? flops / bytes : 0);
    x[OC_F_LOG_ROOFLINE_US] = lg(oc_roofline_time_us(t, flops, bytes));

    oc_op_family fam = oc_op_family_of(op, d->domain);
    x[OC_F_FAM_CONV + (int)fam] = 1;

    /* Shape-derived sizes; the generic reading is channels-first. */
    double c_in = in0 ? (in0->rank >= 2 ? dim(in0, 1) : dim(in0, 0)) : 1;
    double c_out = out0->rank >= 2 ? dim(out0, 1) : dim(out0, 0);
    double sp_in = in0 ? prod_from(in0, 2) : 1, sp_out = prod_from(out0, 2);
    double batch = in0 && in0->rank >= 1 ? dim(in0, 0) : 1;
    double reduce_len = 0;

    switch (fam) {
    case OC_OPF_CONV:
    case OC_OPF_CONV_TRANSPOSE:
    case OC_OPF_POOL: {
        size_t nk;
        const int64_t *k = oc_node_desc_attr_ints(d, "kernel_shape", &nk);
        /* the weight: QLinearConv's fourth input (after x, its scale and
         * zero point), ConvInteger's and every other's second */
        size_t wi = op && !strcmp(op, "QLinearConv") ? 3 : 1;
        double kh = 1, kw = 1, kel = 1;
        if (k && nk > 0) {
            kh = (double)k[0];
            kw = nk > 1 ? (double)k[1] : 1;
            for (size_t i = 0; i < nk; i++)
                kel *= (double)k[i];
        } else if (fam != OC_OPF_POOL && d->n_inputs > wi && d->inputs[wi].present &&
                   d->inputs[wi].rank >= 3) {
            /* Conv without kernel_shape: the weight's trailing dims. */
            const oc_desc_value *w = &d->inputs[wi];
            kh = dim(w, 2);
            kw = w->rank > 3 ? dim(w, 3) : 1;
            kel = prod_from(w, 2);
        }
        /* Sizes on a log scale, dilations capped: a network extrapolates
         * linear inputs far beyond its samples (a 16x16 patch kernel, an
         * ASPP dilation of 36 or a WaveNet's 512 took predictions 10x and
         * more off), and im2col's cost does not grow with the dilation. */
        x[OC_F_KERNEL_H] = lg2(kh);
        x[OC_F_KERNEL_W] = lg2(kw);
        x[OC_F_LOG_KERNEL_ELEMS] = lg(kel);
        x[OC_F_STRIDE_H] = lg2((double)attr_at(d, "strides", 0, 1));
        x[OC_F_STRIDE_W] = lg2((double)attr_at(d, "strides", 1, 1));
        x[OC_F_DILATION_H] = lg2(fmin((double)attr_at(d, "dilations", 0, 1), OC_DILATION_CAP));
        x[OC_F_DILATION_W] = lg2(fmin((double)attr_at(d, "dilations", 1, 1), OC_DILATION_CAP));
        double group = (double)oc_node_desc_attr_int(d, "group", 1);
        if (fam != OC_OPF_POOL) {
            x[OC_F_LOG_GROUP] = lg(group);
            x[OC_F_DEPTHWISE] = group > 1 && group == c_in;
        }
        break;
    }
    case OC_OPF_GEMM: {
        int ta = (int)oc_node_desc_attr_int(d, "transA", 0);
        int tb = (int)oc_node_desc_attr_int(d, "transB", 0);
        x[OC_F_TRANS_A] = ta != 0;
        x[OC_F_TRANS_B] = tb != 0;
        c_in = in0 ? dim(in0, ta ? 0 : 1) : 1;  /* K */
        c_out = dim(out0, 1);                   /* N */
        sp_in = sp_out = dim(out0, 0);          /* M */
        break;
    }
    case OC_OPF_MATMUL:
        if (in0 && in0->rank >= 1) {
            c_in = dim(in0, in0->rank - 1);                       /* K */
            sp_in = in0->rank >= 2 ? dim(in0, in0->rank - 2) : 1; /* M */
        }
        c_out = out0->rank >= 1 ? dim(out0, out0->rank - 1) : 1;  /* N */
        sp_out = out0->rank >= 2 ? dim(out0, out0->rank - 2) : 1;
        break;
    case OC_OPF_GLOBAL_POOL:
        reduce_len = sp_in;
        break;
    case OC_OPF_SOFTMAX: {
        int r = in0 ? in0->rank : 0;
        int64_t ax = oc_node_desc_attr_int(d, "axis", d->opset && d->opset < 13 ? 1 : -1);
        if (ax < 0)
            ax += r;
        if (d->opset && d->opset < 13)
            reduce_len = prod_from(in0, (int)ax); /* coerced to 2-D */
        else
            reduce_len = dim(in0, (int)ax);
        break;
    }
    case OC_OPF_NORM:
        if (!strcmp(op, "LayerNormalization")) {
            int r = in0 ? in0->rank : 0;
            int64_t ax = oc_node_desc_attr_int(d, "axis", -1);
            if (ax < 0)
                ax += r;
            reduce_len = prod_from(in0, (int)ax);
            c_in = c_out = reduce_len;
            sp_in = sp_out = prod_to(in0, (int)ax) / (batch > 0 ? batch : 1);
        } else if (!strcmp(op, "BatchNormalization")) {
            reduce_len = 0; /* inference: a per-channel affine map */
        } else {
            reduce_len = sp_in;
        }
        break;
    case OC_OPF_REDUCE: {
        /* Axes may be an input (opset 18) whose values a description does
         * not carry; the element ratio is the same either way. */
        double o = numel(out0);
        reduce_len = o > 0 && in0 ? numel(in0) / o : 0;
        break;
    }
    default:
        break;
    }
    x[OC_F_LOG_C_IN] = lg(c_in);
    x[OC_F_LOG_C_OUT] = lg(c_out * pad);
    x[OC_F_LOG_SPATIAL_IN] = lg(sp_in);
    x[OC_F_LOG_SPATIAL_OUT] = lg(sp_out);
    x[OC_F_LOG_BATCH] = lg(batch);
    x[OC_F_LOG_REDUCE_LEN] = lg(reduce_len);
    x[OC_F_RANK_OUT] = (float)(out0->rank > 0 ? out0->rank : 0);
    x[OC_F_N_ACT_INPUTS] = (float)n_act;
    {
        /* Broadcasting: an input of an n-ary elementwise op smaller than
         * the output.  (Not activations: Clip's min/max and PRelu's slope
         * are parameters, not a broadcast operand.) */
        bool bc = false;
        if (fam == OC_OPF_ELEMENTWISE) {
            double oe = numel(out0);
            int present = 0;
            for (size_t i = 0; i < d->n_inputs; i++)
                if (d->inputs[i].present) {
                    present++;
                    if (numel(&d->inputs[i]) < oe)
                        bc = true;
                }
            if (present < 2)
                bc = false;
        }
        x[OC_F_BROADCAST] = bc;
    }
    /* The element size the kernel computes in: its first input's, but
     * DynamicQuantizeMatMul quantizes its float input and multiplies 8-bit
     * integers, as its weight is (described as a float MatMul of the same
     * shapes, its in-graph samples taught it fp32 MatMul times). */
    const oc_desc_value *dt = in0;
    if (!strcmp(op, "DynamicQuantizeMatMul") && d->n_inputs > 1 && d->inputs[1].present)
        dt = &d->inputs[1];
    x[OC_F_DTYPE_BYTES] = (float)oc_dtype_size(dt ? dt->dtype : out0->dtype);

    if (!strcmp(op, "Pad") && fam == OC_OPF_DATA_MOVEMENT) {
        const char *mode = attr_str(d, "mode");
        x[OC_F_PAD_REFLECT] = !strcmp(mode, "reflect") || !strcmp(mode, "wrap");
        x[OC_F_PAD_EDGE] = !strcmp(mode, "edge");
    } else if ((!strcmp(op, "Resize") || !strcmp(op, "Upsample")) &&
               fam == OC_OPF_DATA_MOVEMENT) {
        const char *mode = attr_str(d, "mode");
        x[OC_F_RESIZE_INTERP] = !strcmp(mode, "cubic")                              ? 2
                                : !strcmp(mode, "linear") || !strcmp(mode, "bilinear") ? 1
                                                                                       : 0;
    }

    double run = 0;
    if (fam == OC_OPF_DATA_MOVEMENT && in0) {
        int r = in0->rank;
        if (!strcmp(op, "Transpose")) {
            /* Trailing axes left in place: [k, r).  Without perm the
             * axes reverse, which moves the last one when r > 1. */
            size_t np;
            const int64_t *perm = oc_node_desc_attr_ints(d, "perm", &np);
            int k = r <= 1 ? 0 : r;
            if (perm && np == (size_t)r)
                while (k > 0 && perm[k - 1] == k - 1)
                    k--;
            run = k == r ? 1 : prod_from(in0, k);
            int64_t rev[16];
            if (!perm && r > 0 && r <= 16) {
                for (int i = 0; i < r; i++)
                    rev[i] = r - 1 - i;
                perm = rev, np = (size_t)r;
            }
            x[OC_F_GENERIC_MOVE] = perm && generic_move(in0, perm, np);
        } else if (!strcmp(op, "Concat")) {
            int a = norm_axis(oc_node_desc_attr_int(d, "axis", 0), out0->rank);
            size_t parts = oc_desc_count_present(d->inputs, d->n_inputs);
            run = a < 0 ? 0 : prod_from(out0, a) / (double)(parts ? parts : 1);
        } else if (!strcmp(op, "Split")) {
            int a = norm_axis(oc_node_desc_attr_int(d, "axis", 0), r);
            size_t parts = oc_desc_count_present(d->outputs, d->n_outputs);
            run = a < 0 ? 0 : prod_from(in0, a) / (double)(parts ? parts : 1);
        } else if (!strcmp(op, "Slice")) {
            int a = last_changed_axis(in0, out0);
            run = a < 0 ? numel(out0) : prod_from(out0, a);
        } else if (!strcmp(op, "Pad")) {
            int a = last_changed_axis(in0, out0);
            run = a < 0 ? numel(in0) : prod_from(in0, a);
        } else if (!strcmp(op, "Gather")) {
            int a = norm_axis(oc_node_desc_attr_int(d, "axis", 0), r);
            run = a < 0 ? 0 : prod_from(in0, a + 1);
        }
    } else if (fam == OC_OPF_REDUCE && in0 && in0->rank > 0 && in0->rank <= 16) {
        bool red[16];
        if (reduced_axes(d, in0, out0, red)) {
            int r = in0->rank, k = r - 1;
            while (k > 0 && red[k - 1] == red[r - 1])
                k--;
            run = prod_from(in0, k);
            x[OC_F_INNER_REDUCED] = red[r - 1];
        }
    } else if (fam == OC_OPF_ELEMENTWISE) {
        run = broadcast_run(d, out0);
    } else if (fam == OC_OPF_SOFTMAX && in0 && in0->rank > 0) {
        int a = norm_axis(oc_node_desc_attr_int(d, "axis", -1), in0->rank);
        x[OC_F_LOG_AXIS_INNER] =
            lg(d->opset && d->opset < 13 ? 1 : a < 0 ? 0 : prod_from(in0, a + 1));
    }
    x[OC_F_LOG_INNER_RUN] = lg(run);

    unsigned tr = oc_ew_traits(d);
    x[OC_F_K_BINARY] = (tr & OC_EW_BINARY) != 0;
    x[OC_F_K_SELECT] = (tr & OC_EW_SELECT) != 0;
    x[OC_F_K_DIVIDE] = (tr & OC_EW_DIVIDE) != 0;
    x[OC_F_K_EXP] = (tr & OC_EW_EXP) != 0;
    x[OC_F_K_ERF] = (tr & OC_EW_ERF) != 0;
    x[OC_F_K_GATED] = (tr & OC_EW_GATED) != 0;

    bool relu = is_fused(d, "Relu");
    x[OC_F_FUSED_RELU] = relu;
    x[OC_F_FUSED_ADD_RELU] = relu && is_fused(d, "Add");
    x[OC_F_N_FUSED] = (float)d->n_fused;

    x[OC_F_THREADS] = (float)t->threads;
    x[OC_F_LOG_GFLOPS] = lg(t->gflops);
    x[OC_F_LOG_GBPS] = lg(t->gbps);
    x[OC_F_OPT_ADAM] = t->optimizer == OC_OPT_ADAM;
    return OC_OK;
}

/* ---- splits ---- */

oc_split oc_split_of(const char *id, double val_frac, double test_frac)
{
    return oc_split_of_shifted(id, val_frac, test_frac, 0);
}

oc_split oc_split_of_shifted(const char *id, double val_frac, double test_frac, double shift)
{
    /* FNV-1a over the id without its "/t<digits>" and "/adam" or "/sgd"
     * segments. */
    uint64_t h = 0xcbf29ce484222325ull;
    const char *p = id;
    while (*p) {
        if (strncmp(p, "/adam/", 6) == 0 || strncmp(p, "/sgd/", 5) == 0) {
            p += p[1] == 'a' ? 5 : 4;
            continue;
        }
        if (p[0] == '/' && p[1] == 't' && p[2] >= '0' && p[2] <= '9') {
            const char *q = p + 2;
            while (*q >= '0' && *q <= '9')
                q++;
            if (*q == '/' || *q == '\0') {
                p = q;
                continue;
            }
        }
        h ^= (unsigned char)*p++;
        h *= 0x100000001b3ull;
    }
    uint64_t st = h ^ 0x6f6e6e78636f7374ull; /* "onnxcost" */
    double u = (double)(oc_splitmix64(&st) >> 11) * 0x1.0p-53 - shift;
    u -= floor(u);
    if (u < test_frac)
        return OC_SPLIT_TEST;
    if (u < test_frac + val_frac)
        return OC_SPLIT_VAL;
    return OC_SPLIT_TRAIN;
}

/* ---- samples ---- */

void oc_train_set_init(oc_train_set *s) { memset(s, 0, sizeof *s); }

void oc_train_set_free(oc_train_set *s)
{
    if (!s)
        return;
    free(s->s);
    free(s->X);
    free(s->ids_);
    oc_arena_free(s->arena_);
    memset(s, 0, sizeof *s);
}

static uint64_t str_hash(const char *p)
{
    uint64_t h = 0xcbf29ce484222325ull;
    while (*p) {
        h ^= (unsigned char)*p++;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* An open-addressing set of sample indices keyed by id. */
static bool ids_grow(oc_train_set *s)
{
    size_t cap = s->ids_cap_ ? s->ids_cap_ * 2 : 1024;
    size_t *t = malloc(cap * sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < cap; i++)
        t[i] = SIZE_MAX;
    for (size_t k = 0; k < s->n; k++) {
        size_t j = str_hash(s->s[k].id) & (cap - 1);
        while (t[j] != SIZE_MAX)
            j = (j + 1) & (cap - 1);
        t[j] = k;
    }
    free(s->ids_);
    s->ids_ = t;
    s->ids_cap_ = cap;
    return true;
}

static bool ids_contains(const oc_train_set *s, const char *id, const char *machine)
{
    if (!s->ids_cap_)
        return false;
    const size_t *t = s->ids_;
    size_t j = str_hash(id) & (s->ids_cap_ - 1);
    while (t[j] != SIZE_MAX) {
        if (!strcmp(s->s[t[j]].id, id) && !strcmp(s->s[t[j]].machine, machine))
            return true;
        j = (j + 1) & (s->ids_cap_ - 1);
    }
    return false;
}

/* Index the newest sample (s->n - 1). */
static bool ids_add(oc_train_set *s)
{
    if ((s->n + 1) * 2 > s->ids_cap_)
        return ids_grow(s); /* rebuilds with every sample, the new one too */
    size_t *t = s->ids_;
    size_t j = str_hash(s->s[s->n - 1].id) & (s->ids_cap_ - 1);
    while (t[j] != SIZE_MAX)
        j = (j + 1) & (s->ids_cap_ - 1);
    t[j] = s->n - 1;
    return true;
}

static const char *jstr(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static bool in_list(const json_t *arr, const char *s)
{
    size_t i;
    const json_t *v;
    json_array_foreach(arr, i, v) {
        if (json_is_string(v) && strcmp(json_string_value(v), s) == 0)
            return true;
    }
    return false;
}

/* The share of a sample's measured time that the node costs inside a
 * graph.  ONNX Runtime runs a lone Conv or pool in its blocked NCHWc
 * layout between a ReorderInput and a ReorderOutput kernel, and cannot
 * fuse an Add whose other operand arrives in plain NCHW, so it runs that
 * Add (and the Relu after it) as kernels of their own; it runs a lone
 * QLinearConv channels last between two Transposes.  In a graph the
 * reorders happen once at the edges of an NCHWc region (the Transposes at
 * the edges of a channels-last one, planned as kernels of their own) and
 * the Add + Relu run inside the Conv, so those kernels are left out: the
 * share is the kernels' medians without them over all the kernels' medians
 * (1 when the line lists no kernels). */
static double in_graph_share(const json_t *line)
{
    const json_t *ks = json_object_get(line, "kernels");
    const json_t *fused = json_object_get(line, "fused");
    const char *op = jstr(json_object_get(line, "node"), "op");
    double all = 0, kept = 0;
    size_t i;
    const json_t *k;
    json_array_foreach(ks, i, k) {
        const json_t *m = json_object_get(k, "median_us");
        const char *kop = jstr(k, "op");
        double us = json_is_number(m) ? json_number_value(m) : 0;
        if (!(us > 0) || !kop)
            continue;
        all += us;
        /* reorders, and the Transposes ORT puts around a channels-last
         * QLinearConv (the plan predicts those as Transpose kernels) */
        bool layout = strncmp(kop, "Reorder", 7) == 0 ||
                      (op && strncmp(op, "QLinear", 7) == 0 && strcmp(kop, "Transpose") == 0);
        bool unfused = op && strcmp(kop, op) != 0 && in_list(fused, kop);
        if (!layout && !unfused)
            kept += us;
    }
    return all > 0 && kept > 0 ? kept / all : 1.0;
}

typedef struct hw_choice {
    const oc_hw *hws;
    size_t n;
    const oc_hw *fallback;
} hw_choice;

/* The profile of the machine that measured a line (fingerprint fp, NULL
 * when unrecorded). */
static const oc_hw *hw_of(const hw_choice *c, const char *fp)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->hws[i].machine, fp ? fp : ""))
            return &c->hws[i];
    return c->fallback;
}

static oc_status add_sample(oc_train_set *s, const json_t *line, const hw_choice *hc,
                            const char *path, size_t lineno, oc_error *err)
{
    const char *id = jstr(line, "id");
    const json_t *node = json_object_get(line, "node");
    if (!id || !json_is_object(node))
        return oc_error_set(err, OC_ERR_INPUT, "", "%s:%zu: a dataset line needs \"id\" and \"node\"",
                            path, lineno);
    const json_t *tj = json_object_get(line, "time_us");
    double time_us = json_is_number(tj) ? json_number_value(tj) : 0;
    time_us *= in_graph_share(line);
    if (!(time_us > 0) || !isfinite(time_us)) {
        s->n_skipped++;
        return OC_OK;
    }
    const json_t *target = json_object_get(line, "target");
    const char *tname = jstr(target, "name"), *cpu = jstr(target, "cpu");
    const char *fp = jstr(target, "machine");
    const oc_hw *hw = hw_of(hc, fp);
    if (!hw)
        return oc_error_set(err, OC_ERR_INPUT, "",
                            "%s:%zu: no hardware profile of machine '%s' (give its hw.json)",
                            path, lineno, fp ? fp : "unrecorded");
    if (ids_contains(s, id, hw->machine)) {
        s->n_duplicates++;
        return OC_OK;
    }
    const json_t *th = json_object_get(target, "threads");
    int threads = json_is_integer(th) ? (int)json_integer_value(th) : 1;
    if (threads < 1 || threads > 4096)
        return oc_error_set(err, OC_ERR_INPUT, "", "%s:%zu: bad target.threads", path, lineno);
    const char *opt_name = jstr(target, "optimizer");
    const oc_target_entry *te = oc_target_entry_of(oc_target_lookup(tname));
    oc_optimizer opt = te && te->mode == OC_TARGET_TRAINING ? OC_OPT_SGD : OC_OPT_NONE;
    if (opt_name && !oc_optimizer_parse(opt_name, &opt))
        return oc_error_set(err, OC_ERR_INPUT, "", "%s:%zu: bad target.optimizer '%s'", path,
                            lineno, opt_name);

    oc_arena *scratch = oc_arena_new();
    if (!scratch)
        return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
    oc_node_desc d;
    oc_error e;
    oc_error_clear(&e);
    oc_status st = oc_node_desc_from_json(node, json_object_get(line, "fused"),
                                          json_object_get(line, "features"), &d, scratch, &e);
    if (st != OC_OK) {
        oc_arena_free(scratch);
        return oc_error_set(err, st, "", "%s:%zu: %s", path, lineno, e.msg);
    }
    float xrow[OC_N_FEATURES];
    oc_target t;
    oc_hw_target(hw, tname, threads, &t);
    t.optimizer = opt;
    if (oc_features_from_desc(&d, &t, xrow, &e) != OC_OK) {
        oc_arena_free(scratch);
        s->n_unfeaturised++;
        return OC_OK;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        oc_train_sample *ns = realloc(s->s, cap * sizeof *ns);
        if (ns)
            s->s = ns;
        float *nx = ns ? realloc(s->X, cap * OC_N_FEATURES * sizeof *nx) : NULL;
        if (!ns || !nx) {
            oc_arena_free(scratch);
            return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
        }
        s->X = nx;
        s->cap = cap;
    }
    if (!s->arena_ && !(s->arena_ = oc_arena_new())) {
        oc_arena_free(scratch);
        return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
    }
    char pat[256];
    oc_node_desc_pattern(&d, pat, sizeof pat);
    const char *fam = jstr(line, "family");
    oc_train_sample *sm = &s->s[s->n];
    sm->id = oc_arena_strdup(s->arena_, id);
    sm->machine = oc_arena_strdup(s->arena_, hw->machine);
    sm->family = oc_arena_strdup(s->arena_, fam ? fam : oc_op_family_name(
                                                          oc_op_family_of(d.op, d.domain)));
    sm->pattern = oc_arena_strdup(s->arena_, pat);
    sm->threads = threads;
    sm->optimizer = opt;
    sm->time_us = time_us;
    sm->flops = (double)d.cost.flops;
    sm->bytes = (double)d.cost.bytes_read + (double)d.cost.bytes_written;
    oc_arena_free(scratch);
    if (!sm->id || !sm->machine || !sm->family || !sm->pattern)
        return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
    memcpy(s->X + s->n * OC_N_FEATURES, xrow, sizeof xrow);
    s->n++;
    if (!ids_add(s))
        return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");

    if (s->n == 1) {
        snprintf(s->target, sizeof s->target, "%s", tname ? tname : "");
        snprintf(s->cpu, sizeof s->cpu, "%s", cpu ? cpu : "");
        snprintf(s->machine, sizeof s->machine, "%s", fp ? fp : "");
        const char *rt = jstr(target, "runtime"), *ver = jstr(target, "version");
        snprintf(s->runtime, sizeof s->runtime, "%s%s%s", rt ? rt : "", rt && ver ? " " : "",
                 ver ? ver : "");
    } else {
        if (strcmp(s->target, tname ? tname : ""))
            s->mixed_target = true;
        if (strcmp(s->cpu, cpu ? cpu : ""))
            s->mixed_cpu = true;
        if (strcmp(s->machine, fp ? fp : ""))
            s->mixed_machine = true;
    }
    return OC_OK;
}

oc_status oc_train_set_load(oc_train_set *s, const char *path, const oc_hw *hw,
                            oc_error *err)
{
    return oc_train_set_load_machines(s, path, NULL, 0, hw, err);
}

oc_status oc_train_set_load_machines(oc_train_set *s, const char *path, const oc_hw *hws,
                                     size_t n_hws, const oc_hw *fallback, oc_error *err)
{
    hw_choice hc = {hws, n_hws, fallback};
    oc_dataset_reader *r;
    oc_status st = oc_dataset_open(path, &r, err);
    if (st != OC_OK)
        return st;
    const char *buf;
    size_t len, lineno = 0;
    while ((st = oc_dataset_next(r, &buf, &len, err)) == OC_OK && buf) {
        lineno++;
        s->n_lines++;
        size_t k = 0;
        while (k < len && (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\r'))
            k++;
        if (k == len)
            continue;
        json_error_t je;
        json_t *line = json_loadb(buf, len, 0, &je);
        if (!line || !json_is_object(line)) {
            json_decref(line);
            st = oc_error_set(err, OC_ERR_INPUT, "", "%s:%zu: not a JSON object%s%s", path,
                              lineno, line ? "" : ": ", line ? "" : je.text);
            break;
        }
        st = add_sample(s, line, &hc, path, lineno, err);
        json_decref(line);
        if (st != OC_OK)
            break;
    }
    if (st == OC_OK && oc_dataset_cut_off(r))
        s->n_cut_off++;
    oc_dataset_close(r);
    return st;
}
