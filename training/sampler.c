/*
 * sampler.c - realistic random configurations per operator family.
 *
 * Each family has one generator that both draws its configuration from a
 * random stream and emits the model into a builder.  Replaying the
 * generator from the state the kept draw started at rebuilds the identical
 * model, so oc_sample_build() needs nothing but the sample.
 */
#include "training/sampler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyzer/analyzer.h"

static const char *const fam_names[] = {
#define XX(e, name, label) [OC_FAM_##e] = name,
    OC_FAMILY_MAP(XX)
#undef XX
};
static const char *const fam_labels[] = {
#define XX(e, name, label) [OC_FAM_##e] = label,
    OC_FAMILY_MAP(XX)
#undef XX
};

const char *oc_family_name(oc_family f)
{
    return (unsigned)f < OC_FAM_COUNT_ ? fam_names[f] : "?";
}

const char *oc_family_label(oc_family f)
{
    return (unsigned)f < OC_FAM_COUNT_ ? fam_labels[f] : "?";
}

int oc_family_from_name(const char *s)
{
    for (int f = 0; f < OC_FAM_COUNT_; f++)
        if (!strcasecmp(s, fam_names[f]))
            return f;
    return -1;
}

/* ---- random stream (splitmix64) ---- */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double unif(rng *r)
{
    return (double)(next(r) >> 11) * 0x1p-53;
}
static bool chance(rng *r, double p)
{
    return unif(r) < p;
}

static int64_t irange(rng *r, int64_t lo, int64_t hi) /* inclusive */
{
    return lo + (int64_t)(next(r) % (uint64_t)(hi - lo + 1));
}

/* Log-uniform integer in [lo, hi]. */
static int64_t logu(rng *r, int64_t lo, int64_t hi)
{
    double l = log((double)lo), h = log((double)hi + 1.0);
    int64_t v = (int64_t)floor(exp(l + (h - l) * unif(r)));
    return v < lo ? lo : v > hi ? hi : v;
}

#define PICK(r, arr) ((arr)[next(r) % (sizeof(arr) / sizeof((arr)[0]))])

/* Index drawn with the given weights (need not sum to 1). */
static size_t wpick(rng *r, const double *w, size_t n)
{
    double t = 0;
    for (size_t i = 0; i < n; i++)
        t += w[i];
    double u = unif(r) * t;
    for (size_t i = 0; i < n; i++) {
        if (u < w[i])
            return i;
        u -= w[i];
    }
    return n - 1;
}
#define WPICK(r, w) wpick(r, w, sizeof(w) / sizeof((w)[0]))

/* ---- realistic sizes ---- */

static const int64_t channel_set[] = {3,   8,   16,  24,   32,   48,   64,  96,
                                      128, 160, 192, 256,  320,  384,  512, 576,
                                      640, 768, 960, 1024, 1280, 1536, 2048};
enum { N_CHANNELS = sizeof channel_set / sizeof channel_set[0] };

/* The channel_set entry nearest (in log) to v within [lo, hi]. */
static int64_t snap_channels(double v, int64_t lo, int64_t hi)
{
    int64_t best = -1;
    double bd = 1e300;
    for (int i = 0; i < N_CHANNELS; i++) {
        int64_t c = channel_set[i];
        if (c < lo || c > hi)
            continue;
        double d = fabs(log((double)c) - log(v));
        if (d < bd) {
            bd = d;
            best = c;
        }
    }
    return best > 0 ? best : lo;
}

/* Channels log-uniform in [lo, hi], snapped to the usual widths. */
static int64_t channels(rng *r, int64_t lo, int64_t hi)
{
    double l = log((double)lo), h = log((double)hi);
    return snap_channels(exp(l + (h - l) * unif(r)), lo, hi);
}

/* Spatial size for a tensor with c channels: 7..224 log-uniform, the upper
 * end shrinking as channels grow (256 ch -> <= 79, 2048 ch -> <= 28), half
 * of the draws on the standard pyramid sizes. */
static int64_t spatial_max(int64_t c)
{
    double m = 224.0 * sqrt(32.0 / (double)c);
    return m > 224 ? 224 : m < 7 ? 7 : (int64_t)m;
}

static int64_t spatial(rng *r, int64_t c, int64_t cap)
{
    static const int64_t std_sizes[] = {7, 14, 28, 56, 112, 224};
    int64_t hi = spatial_max(c);
    if (cap > 0 && hi > cap)
        hi = cap;
    if (chance(r, 0.5)) {
        int64_t ok[6];
        int n = 0;
        for (int i = 0; i < 6; i++)
            if (std_sizes[i] <= hi)
                ok[n++] = std_sizes[i];
        if (n)
            return ok[next(r) % (uint64_t)n];
    }
    return logu(r, 7, hi);
}

static void spatial_hw(rng *r, int64_t c, int64_t cap, int64_t *h, int64_t *w)
{
    *h = spatial(r, c, cap);
    *w = chance(r, 0.85) ? *h : spatial(r, c, cap);
}

static int64_t batch(rng *r)
{
    return logu(r, 1, 64);
}

static int64_t seq_len(rng *r)
{
    static const int64_t common[] = {16, 32, 64, 77, 128, 196, 197, 256, 384, 512};
    return chance(r, 0.5) ? PICK(r, common) : logu(r, 16, 512);
}

static int64_t hidden(rng *r, int64_t lo, int64_t hi)
{
    static const int64_t common[] = {64,   128,  256,  384,  512,  768, 1024,
                                     1280, 1536, 2048, 2560, 3072, 4096};
    if (chance(r, 0.6)) {
        int64_t ok[13];
        int n = 0;
        for (int i = 0; i < 13; i++)
            if (common[i] >= lo && common[i] <= hi)
                ok[n++] = common[i];
        if (n)
            return ok[next(r) % (uint64_t)n];
    }
    int64_t v = logu(r, lo, hi) / 16 * 16;
    return v < lo ? lo : v;
}

static int64_t heads(rng *r)
{
    static const int64_t h[] = {2, 4, 8, 8, 12, 12, 16, 32};
    return PICK(r, h);
}

static int64_t head_dim(rng *r)
{
    static const int64_t d[] = {32, 64, 64, 64, 80, 96, 128};
    return PICK(r, d);
}

/* ---- the generator context ---- */

typedef struct gen {
    rng r;
    oc_builder *b;
    oc_sample *s;
    uint64_t wseed;
    bool reject; /* the draw is impossible (output dim < 1, ...): redraw */
    int nodes;
} gen;

static void cfg_i(gen *g, const char *k, int64_t v)
{
    json_object_set_new(g->s->config, k, json_integer((json_int_t)v));
}
static void cfg_f(gen *g, const char *k, double v)
{
    json_object_set_new(g->s->config, k, json_real(v));
}
static void cfg_s(gen *g, const char *k, const char *v)
{
    json_object_set_new(g->s->config, k, json_string(v));
}
static void cfg_b(gen *g, const char *k, bool v)
{
    json_object_set_new(g->s->config, k, json_boolean(v));
}
static void cfg_shape(gen *g, const char *k, int rank, const int64_t *d)
{
    json_t *a = json_array();
    for (int i = 0; i < rank; i++)
        json_array_append_new(a, json_integer((json_int_t)d[i]));
    json_object_set_new(g->s->config, k, a);
}

static void input(gen *g, const char *name, oc_dtype dt, int rank, const int64_t *d,
                  int64_t bound)
{
    oc_sample *s = g->s;
    if (s->n_inputs >= OC_SAMPLE_MAX_INPUTS || rank > OC_SAMPLE_MAX_RANK) {
        g->reject = true;
        return;
    }
    oc_sample_input *in = &s->inputs[s->n_inputs++];
    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "%s", name);
    in->dtype = dt;
    in->rank = rank;
    memcpy(in->dims, d, (size_t)rank * sizeof *d);
    in->bound = bound;
    oc_builder_input(g->b, name, dt, rank, d);
}

static void in_f(gen *g, const char *name, int rank, const int64_t *d)
{
    input(g, name, OC_DT_FLOAT, rank, d, 0);
}

static void weight(gen *g, const char *name, int rank, const int64_t *d, double lo,
                   double hi)
{
    oc_builder_random(g->b, name, OC_DT_FLOAT, rank, d, lo, hi, g->wseed);
}

static void out_f(gen *g, const char *name)
{
    oc_builder_output(g->b, name, OC_DT_FLOAT, -1, NULL);
}

static size_t node(gen *g, const char *op, const char *in, const char *out)
{
    char name[48];
    snprintf(name, sizeof name, "%s_%d", op, g->nodes++);
    return oc_builder_node(g->b, op, name, in, out);
}

static void main_node(gen *g, size_t n, const char *op)
{
    g->s->main_node = n;
    snprintf(g->s->op, sizeof g->s->op, "%s", op);
    snprintf(g->s->pattern, sizeof g->s->pattern, "%s", op);
}

static void fused(gen *g, size_t n, const char *op)
{
    oc_sample *s = g->s;
    if (s->n_fused < OC_SAMPLE_MAX_FUSED)
        s->fused_nodes[s->n_fused++] = n;
    size_t l = strlen(s->pattern);
    snprintf(s->pattern + l, sizeof s->pattern - l, "+%s", op);
}

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define NDIM(...) ((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define SHAPE(...) NDIM(__VA_ARGS__), D(__VA_ARGS__)

static int64_t conv_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d)
{
    int64_t span = d * (k - 1) + 1;
    int64_t num = in + 2 * p - span;
    return num < 0 ? 0 : num / s + 1;
}

/* ---- families ---- */

enum { MAX_SP = 3 };

/* A convolution X [N, C, D1..Dn] -> Y with n = nsp spatial axes: the conv
 * family's 2-D ones and the conv1d and conv3d families' (below). */
typedef struct conv_nd {
    int nsp;
    int64_t n, cin, cout, group;
    int64_t in[MAX_SP], k[MAX_SP], s[MAX_SP], d[MAX_SP], pb[MAX_SP], pe[MAX_SP];
    bool bias;
} conv_nd;

/* The Conv node Y = Conv(X, W[, B]) with every attribute written. */
static void conv_nd_emit(gen *g, const conv_nd *c)
{
    int r = 2 + c->nsp;
    int64_t xd[2 + MAX_SP] = {c->n, c->cin}, wd[2 + MAX_SP] = {c->cout, c->cin / c->group};
    int64_t pads[2 * MAX_SP];
    for (int i = 0; i < c->nsp; i++) {
        xd[2 + i] = c->in[i], wd[2 + i] = c->k[i];
        pads[i] = c->pb[i], pads[c->nsp + i] = c->pe[i];
    }
    in_f(g, "X", r, xd);
    weight(g, "W", r, wd, -1, 1);
    if (c->bias)
        weight(g, "B", SHAPE(c->cout), -1, 1);
    size_t nd = node(g, "Conv", c->bias ? "X,W,B" : "X,W", "Y");
    oc_builder_attr_ints(g->b, nd, "dilations", (size_t)c->nsp, c->d);
    oc_builder_attr_int(g->b, nd, "group", c->group);
    oc_builder_attr_ints(g->b, nd, "kernel_shape", (size_t)c->nsp, c->k);
    oc_builder_attr_ints(g->b, nd, "pads", (size_t)(2 * c->nsp), pads);
    oc_builder_attr_ints(g->b, nd, "strides", (size_t)c->nsp, c->s);
    main_node(g, nd, "Conv");
}

static void gen_conv(gen *g)
{
    rng *r = &g->r;
    bool stem = chance(r, 0.1);
    int64_t cin = stem ? 3 : channels(r, 8, 2048);
    static const double kw[] = {0.4, 0.42, 0.1, 0.08};
    static const int64_t ks[] = {1, 3, 5, 7};
    int64_t k = stem ? (chance(r, 0.6) ? 3 : 7) : ks[WPICK(r, kw)];
    int64_t group = 1, cout;
    bool depthwise = false;
    double u = unif(r);
    if (!stem && k > 1 && u < 0.2) {
        depthwise = true;
        group = cin;
        cout = chance(r, 0.9) ? cin : cin * 2;
    } else {
        static const double mult[] = {0.25, 0.5, 1, 1, 1, 2, 2, 4, 6};
        cout = stem ? PICK(r, ((const int64_t[]){16, 24, 32, 48, 64}))
                    : snap_channels((double)cin * PICK(r, mult), 8, 2048);
        if (!stem && u >= 0.2 && u < 0.3) {
            static const int64_t gs[] = {2, 4, 8, 16, 32, 64};
            int64_t gg = PICK(r, gs);
            if (cin % gg == 0 && cout % gg == 0 && cin / gg >= 4)
                group = gg;
        }
    }
    int64_t stride = stem ? 2 : chance(r, 0.25) ? 2 : 1;
    int64_t dil = 1;
    if (k == 3 && stride == 1 && !stem && chance(r, 0.1))
        dil = PICK(r, ((const int64_t[]){2, 2, 4, 6}));
    int64_t pad = chance(r, 0.85) ? dil * (k - 1) / 2 : 0;
    bool bias = chance(r, 0.75);
    int64_t n = batch(r), h, w;
    if (stem) {
        static const int64_t stem_sizes[] = {224, 224, 192, 256, 128, 160, 320};
        h = PICK(r, stem_sizes);
        w = chance(r, 0.85) ? h : PICK(r, stem_sizes);
    } else {
        spatial_hw(r, cin, 0, &h, &w);
    }
    static const double pw[] = {0.45, 0.35, 0.2};
    size_t pat = WPICK(r, pw);
    int64_t ho = conv_out(h, k, stride, pad, dil), wo = conv_out(w, k, stride, pad, dil);
    if (ho < 1 || wo < 1) {
        g->reject = true;
        return;
    }
    cfg_i(g, "batch", n);
    cfg_i(g, "cin", cin);
    cfg_i(g, "cout", cout);
    cfg_i(g, "h", h);
    cfg_i(g, "w", w);
    cfg_i(g, "kernel", k);
    cfg_i(g, "stride", stride);
    cfg_i(g, "pad", pad);
    cfg_i(g, "dilation", dil);
    cfg_i(g, "group", group);
    cfg_b(g, "depthwise", depthwise);
    cfg_b(g, "bias", bias);

    conv_nd_emit(g, &(conv_nd){.nsp = 2, .n = n, .cin = cin, .cout = cout, .group = group,
                               .in = {h, w}, .k = {k, k}, .s = {stride, stride},
                               .d = {dil, dil}, .pb = {pad, pad}, .pe = {pad, pad},
                               .bias = bias});
    if (pat == 0) {
        out_f(g, "Y");
    } else if (pat == 1) {
        fused(g, node(g, "Relu", "Y", "Z"), "Relu");
        out_f(g, "Z");
    } else {
        in_f(g, "R", SHAPE(n, cout, ho, wo));
        fused(g, node(g, "Add", "Y,R", "A"), "Add");
        fused(g, node(g, "Relu", "A", "Z"), "Relu");
        out_f(g, "Z");
    }
}

static void gen_convtranspose(gen *g)
{
    rng *r = &g->r;
    static const int64_t variants[][4] = {/* k, stride, pad, output_padding */
                                          {2, 2, 0, 0},
                                          {4, 2, 1, 0},
                                          {3, 2, 1, 1},
                                          {3, 1, 1, 0}};
    static const double vw[] = {0.4, 0.25, 0.2, 0.15};
    const int64_t *v = variants[WPICK(r, vw)];
    int64_t k = v[0], s = v[1], p = v[2], op = v[3];
    int64_t cin = channels(r, 16, 1024);
    int64_t cout = chance(r, 0.6)   ? snap_channels((double)cin / 2, 8, 1024)
                   : chance(r, 0.5) ? cin
                                    : channels(r, 8, 512);
    int64_t n = batch(r), h, w;
    spatial_hw(r, cin, 112, &h, &w);
    bool bias = chance(r, 0.7);
    cfg_i(g, "batch", n);
    cfg_i(g, "cin", cin);
    cfg_i(g, "cout", cout);
    cfg_i(g, "h", h);
    cfg_i(g, "w", w);
    cfg_i(g, "kernel", k);
    cfg_i(g, "stride", s);
    cfg_i(g, "pad", p);
    cfg_i(g, "output_padding", op);
    cfg_b(g, "bias", bias);
    in_f(g, "X", SHAPE(n, cin, h, w));
    weight(g, "W", SHAPE(cin, cout, k, k), -1, 1);
    if (bias)
        weight(g, "B", SHAPE(cout), -1, 1);
    size_t c = node(g, "ConvTranspose", bias ? "X,W,B" : "X,W", "Y");
    oc_builder_attr_ints(g->b, c, "dilations", 2, D(1, 1));
    oc_builder_attr_int(g->b, c, "group", 1);
    oc_builder_attr_ints(g->b, c, "kernel_shape", 2, D(k, k));
    if (op)
        oc_builder_attr_ints(g->b, c, "output_padding", 2, D(op, op));
    oc_builder_attr_ints(g->b, c, "pads", 4, D(p, p, p, p));
    oc_builder_attr_ints(g->b, c, "strides", 2, D(s, s));
    main_node(g, c, "ConvTranspose");
    out_f(g, "Y");
}

static void gen_gemm(gen *g)
{
    rng *r = &g->r;
    int64_t m = logu(r, 1, 512);
    int64_t k = hidden(r, 64, 4096);
    int64_t nn;
    double u = unif(r);
    if (u < 0.12)
        nn = PICK(r, ((const int64_t[]){10, 100, 1000, 1000, 1001}));
    else if (u < 0.4)
        nn = k * PICK(r, ((const int64_t[]){4, 3, 2}));
    else
        nn = hidden(r, 64, 4096);
    bool trans_b = chance(r, 0.7), trans_a = chance(r, 0.05);
    bool bias = chance(r, 0.85), attrs = chance(r, 0.5), relu = chance(r, 0.3);
    cfg_i(g, "m", m);
    cfg_i(g, "k", k);
    cfg_i(g, "n", nn);
    cfg_b(g, "trans_a", trans_a);
    cfg_b(g, "trans_b", trans_b);
    cfg_b(g, "bias", bias);
    if (trans_a)
        in_f(g, "A", SHAPE(k, m));
    else
        in_f(g, "A", SHAPE(m, k));
    if (trans_b)
        weight(g, "B", SHAPE(nn, k), -1, 1);
    else
        weight(g, "B", SHAPE(k, nn), -1, 1);
    if (bias)
        weight(g, "C", SHAPE(nn), -1, 1);
    size_t c = node(g, "Gemm", bias ? "A,B,C" : "A,B", "Y");
    if (attrs) {
        oc_builder_attr_float(g->b, c, "alpha", 1.0f);
        oc_builder_attr_float(g->b, c, "beta", 1.0f);
    }
    if (trans_a)
        oc_builder_attr_int(g->b, c, "transA", 1);
    if (trans_b)
        oc_builder_attr_int(g->b, c, "transB", 1);
    main_node(g, c, "Gemm");
    if (relu) {
        fused(g, node(g, "Relu", "Y", "Z"), "Relu");
        out_f(g, "Z");
    } else {
        out_f(g, "Y");
    }
}

static void gen_matmul(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.45, 0.2, 0.2, 0.15};
    static const char *const kinds[] = {"linear", "attn_qk", "attn_av", "2d"};
    size_t kind = WPICK(r, kw);
    cfg_s(g, "kind", kinds[kind]);
    if (kind == 0 || kind == 3) {
        int64_t b = kind == 0 ? logu(r, 1, 64) : 1,
                l = kind == 0 ? seq_len(r) : logu(r, 1, 512);
        int64_t d = hidden(r, 64, 4096), f;
        double u = unif(r);
        if (u < 0.25)
            f = d;
        else if (u < 0.45)
            f = d * 4;
        else if (u < 0.55)
            f = d * 3;
        else if (u < 0.7)
            f = d / 4 < 64 ? 64 : d / 4;
        else
            f = hidden(r, 64, 4096);
        if (kind == 0) {
            cfg_i(g, "batch", b);
            cfg_i(g, "seq", l);
            in_f(g, "A", SHAPE(b, l, d));
        } else {
            in_f(g, "A", SHAPE(l, d));
        }
        cfg_i(g, "m", kind == 0 ? b * l : l);
        cfg_i(g, "k", d);
        cfg_i(g, "n", f);
        weight(g, "B", SHAPE(d, f), -1, 1);
    } else {
        int64_t b = logu(r, 1, 32), h = heads(r), l = seq_len(r), d = head_dim(r);
        cfg_i(g, "batch", b);
        cfg_i(g, "heads", h);
        cfg_i(g, "seq", l);
        cfg_i(g, "head_dim", d);
        if (kind == 1) {
            in_f(g, "A", SHAPE(b, h, l, d));
            in_f(g, "B", SHAPE(b, h, d, l));
        } else {
            in_f(g, "A", SHAPE(b, h, l, l));
            in_f(g, "B", SHAPE(b, h, l, d));
        }
    }
    main_node(g, node(g, "MatMul", "A,B", "Y"), "MatMul");
    out_f(g, "Y");
}

/* A pool's window drawn from u (uniform in [0, 1)): for a MaxPool (spp)
 * 5x5 stride 1 pad 2 below 0.1 (SPP), else 3x3 stride 2 pad 1 below 0.55,
 * 2x2 stride 2 below 0.85, 3x3 stride 1 pad 1 above. */
static void pool_window(double u, bool spp, int64_t *k, int64_t *s, int64_t *pad)
{
    if (spp && u < 0.1)
        *k = 5, *s = 1, *pad = 2;
    else if (u < 0.55)
        *k = 3, *s = 2, *pad = 1;
    else if (u < 0.85)
        *k = 2, *s = 2, *pad = 0;
    else
        *k = 3, *s = 1, *pad = 1;
}

/* Pool node p of an [N, C, h, w] input gets window k, stride s, pads pad
 * (and its config says so); false, the draw rejected, when the output
 * would be empty. */
static bool pool_attrs(gen *g, size_t p, int64_t h, int64_t w, int64_t k, int64_t s,
                       int64_t pad)
{
    if (conv_out(h, k, s, pad, 1) < 1 || conv_out(w, k, s, pad, 1) < 1) {
        g->reject = true;
        return false;
    }
    cfg_i(g, "kernel", k);
    cfg_i(g, "stride", s);
    cfg_i(g, "pad", pad);
    oc_builder_attr_ints(g->b, p, "kernel_shape", 2, D(k, k));
    oc_builder_attr_ints(g->b, p, "pads", 4, D(pad, pad, pad, pad));
    oc_builder_attr_ints(g->b, p, "strides", 2, D(s, s));
    return true;
}

static void gen_pool(gen *g)
{
    rng *r = &g->r;
    static const double ow[] = {0.4, 0.25, 0.35};
    static const char *const ops[] = {"MaxPool", "AveragePool", "GlobalAveragePool"};
    size_t o = WPICK(r, ow);
    int64_t c = channels(r, 16, 2048), n = batch(r), h, w;
    spatial_hw(r, c, 0, &h, &w);
    cfg_i(g, "batch", n);
    cfg_i(g, "c", c);
    cfg_i(g, "h", h);
    cfg_i(g, "w", w);
    in_f(g, "X", SHAPE(n, c, h, w));
    size_t p = node(g, ops[o], "X", "Y");
    if (o < 2) {
        int64_t k, s, pad;
        pool_window(unif(r), o == 0, &k, &s, &pad);
        if (!pool_attrs(g, p, h, w, k, s, pad))
            return;
        if (o == 0)
            oc_builder_attr_int(g->b, p, "ceil_mode", 0);
        else
            oc_builder_attr_int(g->b, p, "count_include_pad", 0);
    }
    main_node(g, p, ops[o]);
    out_f(g, "Y");
}

static void gen_batchnorm(gen *g)
{
    rng *r = &g->r;
    int64_t c = channels(r, 8, 2048), n = batch(r);
    bool flat = chance(r, 0.1);
    cfg_i(g, "batch", n);
    cfg_i(g, "c", c);
    if (flat) {
        in_f(g, "X", SHAPE(n, c));
    } else {
        int64_t h, w;
        spatial_hw(r, c, 0, &h, &w);
        cfg_i(g, "h", h);
        cfg_i(g, "w", w);
        in_f(g, "X", SHAPE(n, c, h, w));
    }
    weight(g, "scale", SHAPE(c), 0.5, 1.5);
    weight(g, "B", SHAPE(c), -1, 1);
    weight(g, "mean", SHAPE(c), -1, 1);
    weight(g, "var", SHAPE(c), 0.5, 1.5);
    float eps = chance(r, 0.8) ? 1e-5f : 1e-3f;
    bool mom = chance(r, 0.5);
    cfg_f(g, "epsilon", eps);
    size_t b = node(g, "BatchNormalization", "X,scale,B,mean,var", "Y");
    oc_builder_attr_float(g->b, b, "epsilon", eps);
    if (mom)
        oc_builder_attr_float(g->b, b, "momentum", 0.9f);
    main_node(g, b, "BatchNormalization");
    out_f(g, "Y");
}

static void gen_layernorm(gen *g)
{
    rng *r = &g->r;
    int64_t d = hidden(r, 64, 4096);
    bool flat = chance(r, 0.2);
    cfg_i(g, "hidden", d);
    if (flat) {
        int64_t m = logu(r, 1, 8192);
        cfg_i(g, "m", m);
        in_f(g, "X", SHAPE(m, d));
    } else {
        int64_t b = batch(r), l = seq_len(r);
        cfg_i(g, "batch", b);
        cfg_i(g, "seq", l);
        in_f(g, "X", SHAPE(b, l, d));
    }
    static const float eps_set[] = {1e-5f, 1e-5f, 1e-6f, 1e-12f};
    float eps = PICK(r, eps_set);
    bool bias = chance(r, 0.9);
    cfg_f(g, "epsilon", eps);
    cfg_b(g, "bias", bias);
    weight(g, "scale", SHAPE(d), 0.5, 1.5);
    if (bias)
        weight(g, "B", SHAPE(d), -1, 1);
    size_t n = node(g, "LayerNormalization", bias ? "X,scale,B" : "X,scale", "Y");
    oc_builder_attr_int(g->b, n, "axis", -1);
    oc_builder_attr_float(g->b, n, "epsilon", eps);
    main_node(g, n, "LayerNormalization");
    out_f(g, "Y");
}

static void gen_softmax(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.5, 0.25, 0.25};
    static const char *const kinds[] = {"attention", "classifier", "vocab"};
    size_t kind = WPICK(r, kw);
    cfg_s(g, "kind", kinds[kind]);
    if (kind == 0) {
        int64_t b = logu(r, 1, 32), h = heads(r), l = seq_len(r);
        cfg_i(g, "batch", b);
        cfg_i(g, "heads", h);
        cfg_i(g, "seq", l);
        in_f(g, "X", SHAPE(b, h, l, l));
    } else if (kind == 1) {
        int64_t n = batch(r);
        int64_t c = chance(r, 0.5)
                        ? PICK(r, ((const int64_t[]){2, 10, 100, 1000, 1000, 21843}))
                        : logu(r, 2, 30000);
        cfg_i(g, "batch", n);
        cfg_i(g, "classes", c);
        in_f(g, "X", SHAPE(n, c));
    } else {
        int64_t b = logu(r, 1, 16), l = seq_len(r);
        int64_t v = chance(r, 0.6)
                        ? PICK(r, ((const int64_t[]){30522, 32000, 50257, 49408, 250}))
                        : logu(r, 1000, 60000);
        cfg_i(g, "batch", b);
        cfg_i(g, "seq", l);
        cfg_i(g, "vocab", v);
        in_f(g, "X", SHAPE(b, l, v));
    }
    size_t n = node(g, "Softmax", "X", "Y");
    oc_builder_attr_int(g->b, n, "axis", -1);
    main_node(g, n, "Softmax");
    out_f(g, "Y");
}

/* An activation-shaped tensor: [N,C,H,W] (60%) or [B,L,D]; its shape in
 * d (returns the rank) and the channel-like axis' size in *ch. */
static int act_shape(gen *g, int64_t *d, int64_t *ch)
{
    rng *r = &g->r;
    if (chance(r, 0.6)) {
        int64_t c = channels(r, 8, 2048), n = batch(r), h, w;
        spatial_hw(r, c, 0, &h, &w);
        d[0] = n, d[1] = c, d[2] = h, d[3] = w;
        *ch = c;
        cfg_shape(g, "shape", 4, d);
        cfg_s(g, "layout", "nchw");
        return 4;
    }
    int64_t b = batch(r), l = seq_len(r), hd = hidden(r, 64, 4096);
    if (chance(r, 0.3))
        hd *= 4; /* MLP inner width */
    d[0] = b, d[1] = l, d[2] = hd;
    *ch = hd;
    cfg_shape(g, "shape", 3, d);
    cfg_s(g, "layout", "bld");
    return 3;
}

static void gen_elementwise(gen *g)
{
    rng *r = &g->r;
    static const double ow[] = {0.35, 0.3, 0.1, 0.1, 0.15};
    static const char *const binops[] = {"Add", "Mul", "Sub", "Div"};
    static const char *const unops[] = {"Exp",        "Abs",  "Neg",
                                        "Reciprocal", "Sqrt", "Floor"};
    size_t o = WPICK(r, ow);
    int64_t d[4], ch;
    int rank = act_shape(g, d, &ch);
    const char *op = o < 4 ? binops[o] : PICK(r, unops);
    cfg_s(g, "op", op);
    in_f(g, "X", rank, d);
    size_t n;
    if (o == 4) {
        n = node(g, op, "X", "Y");
        cfg_s(g, "broadcast", "none");
    } else {
        static const double bw[] = {0.45, 0.3, 0.25};
        static const char *const bnames[] = {"same", "channel", "scalar"};
        size_t bc = WPICK(r, bw);
        cfg_s(g, "broadcast", bnames[bc]);
        bool swap = bc != 0 && chance(r, 0.15);
        cfg_b(g, "swapped", swap);
        if (bc == 0) {
            in_f(g, "B", rank, d);
        } else if (bc == 1) {
            if (rank == 4)
                weight(g, "B", SHAPE(ch, 1, 1), 0.5, 1.5);
            else
                weight(g, "B", SHAPE(ch), 0.5, 1.5);
        } else {
            weight(g, "B", SHAPE(1), 0.5, 1.5);
        }
        n = node(g, op, swap ? "B,X" : "X,B", "Y");
    }
    main_node(g, n, op);
    out_f(g, "Y");
}

static void gen_activation(gen *g)
{
    rng *r = &g->r;
    static const double ow[] = {0.2, 0.15, 0.1, 0.08, 0.12, 0.1, 0.1, 0.1};
    static const char *const ops[] = {"Relu", "Sigmoid",   "Tanh", "Erf",
                                      "Gelu", "HardSwish", "Clip", "LeakyRelu"};
    size_t o = WPICK(r, ow);
    int64_t d[4], ch;
    int rank = act_shape(g, d, &ch);
    const char *op = ops[o];
    cfg_s(g, "op", op);
    in_f(g, "X", rank, d);
    size_t n;
    if (!strcmp(op, "Clip")) {
        float lo = 0.0f, hi = 6.0f;
        oc_builder_floats(g->b, "min", 0, NULL, &lo);
        oc_builder_floats(g->b, "max", 0, NULL, &hi);
        n = node(g, op, "X,min,max", "Y");
    } else {
        n = node(g, op, "X", "Y");
    }
    if (!strcmp(op, "LeakyRelu")) {
        float a = PICK(r, ((const float[]){0.01f, 0.01f, 0.1f, 0.2f}));
        cfg_f(g, "alpha", a);
        oc_builder_attr_float(g->b, n, "alpha", a);
    } else if (!strcmp(op, "Gelu")) {
        /* Gelu is an ONNX op from opset 20. */
        bool tanh_ = chance(r, 0.3);
        cfg_s(g, "approximate", tanh_ ? "tanh" : "none");
        if (tanh_)
            oc_builder_attr_string(g->b, n, "approximate", "tanh");
        g->s->opset = 20;
        oc_builder_opset(g->b, "", 20);
    }
    main_node(g, n, op);
    out_f(g, "Y");
}

/* Swish / SiLU, x * Sigmoid(x), as exporters write it (EfficientNet,
 * YOLO, LLaMA's MLP): ONNX Runtime runs the pair as one QuickGelu kernel. */
static void gen_swish(gen *g)
{
    rng *r = &g->r;
    int64_t d[4], ch;
    int rank = act_shape(g, d, &ch);
    cfg_s(g, "op", "Swish");
    in_f(g, "X", rank, d);
    bool swap = chance(r, 0.5);
    cfg_b(g, "swapped", swap);
    size_t sg = node(g, "Sigmoid", "X", "S");
    main_node(g, sg, "Sigmoid");
    fused(g, node(g, "Mul", swap ? "S,X" : "X,S", "Y"), "Mul");
    out_f(g, "Y");
}

/* A reduction of X over na axes into Y: ReduceSum takes its axes as an
 * input from opset 13, the others as an attribute until opset 18. */
static size_t reduce_node(gen *g, const char *op, size_t na, const int64_t *axes, int64_t keep)
{
    size_t n;
    if (!strcmp(op, "ReduceSum")) {
        oc_builder_ints(g->b, "axes", 1, D((int64_t)na), axes);
        n = node(g, op, "X,axes", "Y");
    } else {
        n = node(g, op, "X", "Y");
        oc_builder_attr_ints(g->b, n, "axes", na, axes);
    }
    oc_builder_attr_int(g->b, n, "keepdims", keep);
    return n;
}

static void gen_reduce(gen *g)
{
    rng *r = &g->r;
    static const double ow[] = {0.5, 0.3, 0.2};
    static const char *const ops[] = {"ReduceMean", "ReduceSum", "ReduceMax"};
    size_t o = WPICK(r, ow);
    static const double kw[] = {0.4, 0.35, 0.25};
    size_t kind = WPICK(r, kw);
    int64_t axes[2];
    size_t na;
    int64_t keep;
    if (kind == 0) {
        int64_t c = channels(r, 8, 2048), n = batch(r), h, w;
        spatial_hw(r, c, 0, &h, &w);
        in_f(g, "X", SHAPE(n, c, h, w));
        cfg_shape(g, "shape", SHAPE(n, c, h, w));
        axes[0] = 2, axes[1] = 3, na = 2, keep = 1;
    } else {
        int64_t b = batch(r), l = seq_len(r), d = hidden(r, 64, 4096);
        in_f(g, "X", SHAPE(b, l, d));
        cfg_shape(g, "shape", SHAPE(b, l, d));
        axes[0] = kind == 1 ? -1 : 1, na = 1, keep = kind == 1 ? 1 : 0;
    }
    cfg_s(g, "op", ops[o]);
    cfg_shape(g, "axes", (int)na, axes);
    cfg_i(g, "keepdims", keep);
    main_node(g, reduce_node(g, ops[o], na, axes, keep), ops[o]);
    out_f(g, "Y");
}

static void gen_concat(gen *g)
{
    rng *r = &g->r;
    static const double cw[] = {0.6, 0.2, 0.2};
    int k = 2 + (int)WPICK(r, cw);
    char names[64] = "";
    int64_t axis;
    json_t *parts = json_array();
    if (chance(r, 0.7)) {
        int64_t n = batch(r), h, w, c0 = channels(r, 16, 512);
        spatial_hw(r, c0, 0, &h, &w);
        cfg_i(g, "batch", n);
        cfg_i(g, "h", h);
        cfg_i(g, "w", w);
        bool same = chance(r, 0.5);
        for (int i = 0; i < k; i++) {
            int64_t c = same ? c0 : channels(r, 16, 512);
            char nm[16];
            snprintf(nm, sizeof nm, "X%d", i);
            in_f(g, nm, SHAPE(n, c, h, w));
            json_array_append_new(parts, json_integer((json_int_t)c));
        }
        axis = 1;
    } else {
        int64_t b = batch(r), d = hidden(r, 64, 2048);
        bool tokens = chance(r, 0.5);
        int64_t l0 = seq_len(r);
        cfg_i(g, "batch", b);
        cfg_i(g, tokens ? "hidden" : "seq", tokens ? d : l0);
        for (int i = 0; i < k; i++) {
            int64_t part = tokens ? (i == 0 && chance(r, 0.5) ? 1 : seq_len(r))
                                  : hidden(r, 64, 2048);
            char nm[16];
            snprintf(nm, sizeof nm, "X%d", i);
            if (tokens)
                in_f(g, nm, SHAPE(b, part, d));
            else
                in_f(g, nm, SHAPE(b, l0, part));
            json_array_append_new(parts, json_integer((json_int_t)part));
        }
        axis = tokens ? 1 : -1;
    }
    for (int i = 0; i < k; i++) {
        size_t l = strlen(names);
        snprintf(names + l, sizeof names - l, "%sX%d", i ? "," : "", i);
    }
    json_object_set_new(g->s->config, "parts", parts);
    cfg_i(g, "inputs", k);
    cfg_i(g, "axis", axis);
    size_t n = node(g, "Concat", names, "Y");
    oc_builder_attr_int(g->b, n, "axis", axis);
    main_node(g, n, "Concat");
    out_f(g, "Y");
}

static void gen_split(gen *g)
{
    rng *r = &g->r;
    int k;
    int64_t axis, total, part;
    if (chance(r, 0.5)) {
        k = (int)PICK(r, ((const int64_t[]){2, 2, 3, 4}));
        part = channels(r, 8, 512);
        int64_t n = batch(r), h, w;
        spatial_hw(r, part * k, 0, &h, &w);
        total = part * k;
        in_f(g, "X", SHAPE(n, total, h, w));
        cfg_shape(g, "shape", SHAPE(n, total, h, w));
        axis = 1;
    } else {
        k = chance(r, 0.6) ? 3 : 2; /* QKV, or GLU halves */
        int64_t b = batch(r), l = seq_len(r);
        part = hidden(r, 64, 2048);
        total = part * k;
        in_f(g, "X", SHAPE(b, l, total));
        cfg_shape(g, "shape", SHAPE(b, l, total));
        axis = -1;
    }
    bool sizes = chance(r, 0.6), uneven = sizes && k == 2 && chance(r, 0.2);
    int64_t sz[4];
    for (int i = 0; i < k; i++)
        sz[i] = part;
    if (uneven) {
        sz[0] = total / 4;
        sz[1] = total - sz[0];
    }
    cfg_i(g, "outputs", k);
    cfg_i(g, "axis", axis);
    cfg_shape(g, "split", k, sz);
    cfg_b(g, "split_input", sizes);
    char outs[32] = "";
    for (int i = 0; i < k; i++) {
        size_t l = strlen(outs);
        snprintf(outs + l, sizeof outs - l, "%sY%d", i ? "," : "", i);
    }
    size_t n;
    if (sizes) {
        oc_builder_ints(g->b, "split", 1, D((int64_t)k), sz);
        n = node(g, "Split", "X,split", outs);
    } else {
        n = node(g, "Split", "X", outs);
    }
    oc_builder_attr_int(g->b, n, "axis", axis);
    main_node(g, n, "Split");
    for (int i = 0; i < k; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "Y%d", i);
        out_f(g, nm);
    }
}

static void gen_slice(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.3, 0.2, 0.15, 0.15, 0.2};
    static const char *const kinds[] = {"channels", "crop", "subsample", "first_token",
                                        "last_axis"};
    size_t kind = WPICK(r, kw);
    cfg_s(g, "kind", kinds[kind]);
    int64_t starts[2], ends[2], axes[2], steps[2] = {1, 1};
    size_t na = 1;
    if (kind <= 2) {
        int64_t c = channels(r, 8, 2048), n = batch(r), h, w;
        spatial_hw(r, c, 0, &h, &w);
        if (kind == 1 && (h < 3 || w < 3)) {
            g->reject = true;
            return;
        }
        in_f(g, "X", SHAPE(n, c, h, w));
        cfg_shape(g, "shape", SHAPE(n, c, h, w));
        if (kind == 0) {
            bool hi = chance(r, 0.5);
            starts[0] = hi ? c / 2 : 0, ends[0] = hi ? c : c / 2, axes[0] = 1;
            if (ends[0] <= starts[0])
                ends[0] = starts[0] + 1;
        } else if (kind == 1) {
            na = 2;
            starts[0] = starts[1] = 1, ends[0] = ends[1] = -1;
            axes[0] = 2, axes[1] = 3;
        } else {
            na = 2;
            starts[0] = starts[1] = chance(r, 0.5) ? 0 : 1;
            ends[0] = ends[1] = INT64_MAX;
            axes[0] = 2, axes[1] = 3;
            steps[0] = steps[1] = 2;
        }
    } else {
        int64_t b = batch(r), l = seq_len(r), d = hidden(r, 64, 4096);
        in_f(g, "X", SHAPE(b, l, d));
        cfg_shape(g, "shape", SHAPE(b, l, d));
        if (kind == 3)
            starts[0] = 0, ends[0] = 1, axes[0] = 1;
        else
            starts[0] = chance(r, 0.5) ? 0 : d / 2, ends[0] = starts[0] + d / 2,
            axes[0] = -1;
    }
    bool with_steps = kind == 2 || chance(r, 0.6);
    cfg_shape(g, "starts", (int)na, starts);
    cfg_shape(g, "ends", (int)na, ends);
    cfg_shape(g, "axes", (int)na, axes);
    cfg_shape(g, "steps", (int)na, steps);
    oc_builder_ints(g->b, "starts", 1, D((int64_t)na), starts);
    oc_builder_ints(g->b, "ends", 1, D((int64_t)na), ends);
    oc_builder_ints(g->b, "axes", 1, D((int64_t)na), axes);
    if (with_steps)
        oc_builder_ints(g->b, "steps", 1, D((int64_t)na), steps);
    size_t n = node(g, "Slice",
                    with_steps ? "X,starts,ends,axes,steps" : "X,starts,ends,axes", "Y");
    main_node(g, n, "Slice");
    out_f(g, "Y");
}

static void gen_transpose(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.25, 0.15, 0.35, 0.15, 0.1};
    size_t kind = WPICK(r, kw);
    int64_t perm[4];
    int rank;
    if (kind <= 1) {
        int64_t c = channels(r, 8, 2048), n = batch(r), h, w;
        spatial_hw(r, c, 0, &h, &w);
        in_f(g, "X", SHAPE(n, c, h, w));
        cfg_shape(g, "shape", SHAPE(n, c, h, w));
        rank = 4;
        if (kind == 0)
            perm[0] = 0, perm[1] = 2, perm[2] = 3, perm[3] = 1;
        else
            perm[0] = 0, perm[1] = 3, perm[2] = 1, perm[3] = 2;
    } else if (kind == 2) {
        int64_t b = logu(r, 1, 32), l = seq_len(r), h = heads(r), d = head_dim(r);
        in_f(g, "X", SHAPE(b, l, h, d));
        cfg_shape(g, "shape", SHAPE(b, l, h, d));
        rank = 4;
        perm[0] = 0, perm[1] = 2, perm[2] = 1, perm[3] = 3;
    } else if (kind == 3) {
        int64_t b = batch(r), l = seq_len(r), d = hidden(r, 64, 4096);
        in_f(g, "X", SHAPE(b, l, d));
        cfg_shape(g, "shape", SHAPE(b, l, d));
        rank = 3;
        perm[0] = 0, perm[1] = 2, perm[2] = 1;
    } else {
        int64_t m = hidden(r, 64, 4096), k = hidden(r, 64, 4096);
        in_f(g, "X", SHAPE(m, k));
        cfg_shape(g, "shape", SHAPE(m, k));
        rank = 2;
        perm[0] = 1, perm[1] = 0;
    }
    cfg_shape(g, "perm", rank, perm);
    size_t n = node(g, "Transpose", "X", "Y");
    oc_builder_attr_ints(g->b, n, "perm", (size_t)rank, perm);
    main_node(g, n, "Transpose");
    out_f(g, "Y");
}

static void gen_reshape(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.35, 0.25, 0.2, 0.2};
    static const char *const kinds[] = {"split_heads", "merge_heads", "flatten",
                                        "flatten_spatial"};
    size_t kind = WPICK(r, kw);
    cfg_s(g, "kind", kinds[kind]);
    bool wild = chance(r, 0.3); /* a -1 in the target shape */
    int64_t to[4];
    int rank;
    if (kind <= 1) {
        int64_t b = logu(r, 1, 32), l = seq_len(r), h = heads(r), d = head_dim(r);
        if (kind == 0) {
            in_f(g, "X", SHAPE(b, l, h * d));
            cfg_shape(g, "shape", SHAPE(b, l, h * d));
            to[0] = b, to[1] = wild ? -1 : l, to[2] = h, to[3] = d, rank = 4;
        } else {
            in_f(g, "X", SHAPE(b, l, h, d));
            cfg_shape(g, "shape", SHAPE(b, l, h, d));
            to[0] = b, to[1] = wild ? -1 : l, to[2] = h * d, rank = 3;
        }
    } else {
        int64_t c = channels(r, 8, 2048), n = batch(r), h, w;
        spatial_hw(r, c, 0, &h, &w);
        in_f(g, "X", SHAPE(n, c, h, w));
        cfg_shape(g, "shape", SHAPE(n, c, h, w));
        if (kind == 2)
            to[0] = n, to[1] = wild ? -1 : c * h * w, rank = 2;
        else
            to[0] = n, to[1] = c, to[2] = wild ? -1 : h * w, rank = 3;
    }
    cfg_shape(g, "target", rank, to);
    oc_builder_ints(g->b, "shape", 1, D((int64_t)rank), to);
    size_t n = node(g, "Reshape", "X,shape", "Y");
    main_node(g, n, "Reshape");
    out_f(g, "Y");
}

static void gen_resize(gen *g)
{
    rng *r = &g->r;
    int64_t c = channels(r, 8, 512), n = batch(r), h, w;
    spatial_hw(r, c, 112, &h, &w);
    bool linear = chance(r, 0.4);
    const char *ctm;
    if (!linear)
        ctm = "asymmetric";
    else
        ctm = PICK(r, ((const char *const[]){"half_pixel", "half_pixel", "half_pixel",
                                             "align_corners", "pytorch_half_pixel"}));
    cfg_shape(g, "shape", SHAPE(n, c, h, w));
    cfg_s(g, "mode", linear ? "linear" : "nearest");
    cfg_s(g, "coordinate_transformation_mode", ctm);
    cfg_f(g, "scale", 2.0);
    in_f(g, "X", SHAPE(n, c, h, w));
    oc_builder_floats(g->b, "scales", 1, D(4), (const float[]){1, 1, 2, 2});
    size_t nd = node(g, "Resize", "X,,scales", "Y");
    oc_builder_attr_string(g->b, nd, "coordinate_transformation_mode", ctm);
    oc_builder_attr_string(g->b, nd, "mode", linear ? "linear" : "nearest");
    if (!linear)
        oc_builder_attr_string(g->b, nd, "nearest_mode", "floor");
    main_node(g, nd, "Resize");
    out_f(g, "Y");
}

static void gen_pad(gen *g)
{
    rng *r = &g->r;
    int64_t c = channels(r, 8, 1024), n = batch(r), h, w;
    spatial_hw(r, c, 0, &h, &w);
    static const double mw[] = {0.6, 0.25, 0.15};
    static const char *const modes[] = {"constant", "reflect", "edge"};
    size_t m = WPICK(r, mw);
    int64_t p = irange(r, 1, 3);
    int64_t pads[8] = {0, 0, p, p, 0, 0, p, p};
    if (chance(r, 0.2)) /* "same" padding for an even kernel: bottom/right only */
        pads[2] = pads[3] = 0, pads[6] = pads[7] = 1;
    if (m == 1 && (h <= p || w <= p)) {
        g->reject = true;
        return;
    }
    cfg_shape(g, "shape", SHAPE(n, c, h, w));
    cfg_s(g, "mode", modes[m]);
    cfg_shape(g, "pads", 8, pads);
    in_f(g, "X", SHAPE(n, c, h, w));
    oc_builder_ints(g->b, "pads", 1, D(8), pads);
    size_t nd = node(g, "Pad", "X,pads", "Y");
    oc_builder_attr_string(g->b, nd, "mode", modes[m]);
    main_node(g, nd, "Pad");
    out_f(g, "Y");
}

static void gen_gather(gen *g)
{
    rng *r = &g->r;
    bool pos = chance(r, 0.2);
    int64_t v, d, b, l;
    if (pos) {
        v = PICK(r, ((const int64_t[]){512, 1024, 2048}));
        b = 1;
    } else {
        v = chance(r, 0.5)
                ? PICK(r, ((const int64_t[]){30522, 32000, 50257, 49408, 21128}))
                : logu(r, 100, 50000);
        b = batch(r);
    }
    d = hidden(r, 64, 4096);
    l = seq_len(r);
    if (l > v)
        l = v;
    cfg_s(g, "kind", pos ? "position" : "token");
    cfg_i(g, "vocab", v);
    cfg_i(g, "hidden", d);
    cfg_i(g, "batch", b);
    cfg_i(g, "seq", l);
    weight(g, "E", SHAPE(v, d), -1, 1);
    input(g, "I", OC_DT_INT64, SHAPE(b, l), v);
    size_t n = node(g, "Gather", "E,I", "Y");
    if (chance(r, 0.5))
        oc_builder_attr_int(g->b, n, "axis", 0);
    main_node(g, n, "Gather");
    out_f(g, "Y");
}

/* ---- quantized kernels (ONNX Runtime's integer kernels) ----
 * Each sample is the kernel as ORT runs it, so that its time is that
 * kernel's: QOperator nodes on uint8 graph inputs (values in [0, 256)),
 * int8 weights, scales and zero points as a quantizer writes them.  ORT
 * runs a 2-D QLinearConv channels last between two Transposes; the
 * timing model leaves those out of the sample's time (features.c,
 * in_graph_share), as the plan predicts them as Transpose kernels. */

static void in_u8(gen *g, const char *name, int rank, const int64_t *d)
{
    input(g, name, OC_DT_UINT8, rank, d, 256);
}

/* Scale and zero point initializers "<p>_s", "<p>_z" (zero point of type
 * dt: 128 for uint8, 0 for int8). */
static void qparam(gen *g, const char *p, double scale, oc_dtype dt)
{
    char s[32], z[32];
    snprintf(s, sizeof s, "%s_s", p);
    snprintf(z, sizeof z, "%s_z", p);
    oc_builder_floats(g->b, s, 0, NULL, (const float[]){(float)scale});
    double zp = dt == OC_DT_UINT8 ? 128 : 0;
    oc_builder_random(g->b, z, dt, 0, NULL, zp, zp + 1, g->wseed);
}

static void ms_domain(gen *g, size_t n)
{
    oc_builder_opset(g->b, "com.microsoft", 1);
    oc_builder_node_domain(g->b, n, "com.microsoft");
}

/* QLinearConv: the conv family's configurations (no fused ops), uint8
 * activations, int8 weights per tensor, an int32 bias. */
static void gen_qconv(gen *g)
{
    rng *r = &g->r;
    int64_t cin = channels(r, 8, 1024);
    static const double kw[] = {0.4, 0.42, 0.1, 0.08};
    static const int64_t ks[] = {1, 3, 5, 7};
    int64_t k = ks[WPICK(r, kw)], group = 1, cout;
    bool depthwise = k > 1 && chance(r, 0.2);
    if (depthwise) {
        group = cin;
        cout = cin;
    } else {
        static const double mult[] = {0.25, 0.5, 1, 1, 1, 2, 2, 4};
        cout = snap_channels((double)cin * PICK(r, mult), 8, 1024);
    }
    int64_t stride = chance(r, 0.25) ? 2 : 1, pad = (k - 1) / 2;
    bool bias = chance(r, 0.8);
    int64_t n = logu(r, 1, 16), h, w;
    spatial_hw(r, cin, 112, &h, &w);
    int64_t ho = conv_out(h, k, stride, pad, 1), wo = conv_out(w, k, stride, pad, 1);
    if (ho < 1 || wo < 1) {
        g->reject = true;
        return;
    }
    cfg_i(g, "batch", n);
    cfg_i(g, "cin", cin);
    cfg_i(g, "cout", cout);
    cfg_i(g, "h", h);
    cfg_i(g, "w", w);
    cfg_i(g, "kernel", k);
    cfg_i(g, "stride", stride);
    cfg_i(g, "group", group);
    cfg_b(g, "depthwise", depthwise);
    cfg_b(g, "bias", bias);
    in_u8(g, "X", SHAPE(n, cin, h, w));
    qparam(g, "x", 0.05, OC_DT_UINT8);
    oc_builder_random(g->b, "W", OC_DT_INT8, SHAPE(cout, cin / group, k, k), -127, 128,
                      g->wseed);
    qparam(g, "w", 0.004, OC_DT_INT8);
    qparam(g, "y", 0.1, OC_DT_UINT8);
    if (bias)
        oc_builder_random(g->b, "B", OC_DT_INT32, SHAPE(cout), -1000, 1000, g->wseed);
    size_t c = node(g, "QLinearConv", bias ? "X,x_s,x_z,W,w_s,w_z,y_s,y_z,B"
                                            : "X,x_s,x_z,W,w_s,w_z,y_s,y_z", "Y");
    oc_builder_attr_int(g->b, c, "group", group);
    oc_builder_attr_ints(g->b, c, "kernel_shape", 2, D(k, k));
    oc_builder_attr_ints(g->b, c, "pads", 4, D(pad, pad, pad, pad));
    oc_builder_attr_ints(g->b, c, "strides", 2, D(stride, stride));
    main_node(g, c, "QLinearConv");
    oc_builder_output(g->b, "Y", OC_DT_UINT8, -1, NULL);
}

/* The quantized products: QLinearMatMul (QDQ and QOperator MatMuls),
 * MatMulIntegerToFloat (a QDQ MatMul with a float output, or dynamic
 * quantization with a shared quantizer), DynamicQuantizeMatMul (ORT's
 * fusion of a dynamically quantized MatMul) and MatMulNBits (4-bit
 * weights in blocks of 32 or 128, float activations, as LLM exports have
 * them): [batch, seq, K] x [K, N]. */
static void gen_qmatmul(gen *g)
{
    rng *r = &g->r;
    static const double ow[] = {0.3, 0.2, 0.3, 0.2};
    static const char *const ops[] = {"QLinearMatMul", "MatMulIntegerToFloat",
                                      "DynamicQuantizeMatMul", "MatMulNBits"};
    size_t o = WPICK(r, ow);
    int64_t b = logu(r, 1, 16), l = seq_len(r), d = hidden(r, 64, 4096), f;
    double u = unif(r);
    f = u < 0.3 ? d : u < 0.5 ? d * 4 : u < 0.6 ? d * 3 : hidden(r, 64, 4096);
    bool bias = o > 0 && o < 3 && chance(r, 0.7);
    int64_t bs = o == 3 ? (chance(r, 0.7) ? 32 : 128) : 0;
    if (bs && d % bs) {
        g->reject = true;
        return;
    }
    cfg_s(g, "op", ops[o]);
    cfg_i(g, "batch", b);
    cfg_i(g, "seq", l);
    cfg_i(g, "k", d);
    cfg_i(g, "n", f);
    cfg_b(g, "bias", bias);
    if (o >= 2)
        in_f(g, "A", SHAPE(b, l, d));
    else
        in_u8(g, "A", SHAPE(b, l, d));
    if (o == 3) {
        cfg_i(g, "block_size", bs);
        oc_builder_random(g->b, "B", OC_DT_UINT8, SHAPE(f, d / bs, bs / 2), 0, 256, g->wseed);
        weight(g, "scales", SHAPE(f * (d / bs)), 0.001, 0.01);
        size_t n = node(g, ops[o], "A,B,scales", "Y");
        oc_builder_attr_int(g->b, n, "K", d);
        oc_builder_attr_int(g->b, n, "N", f);
        oc_builder_attr_int(g->b, n, "bits", 4);
        oc_builder_attr_int(g->b, n, "block_size", bs);
        ms_domain(g, n);
        main_node(g, n, ops[o]);
        out_f(g, "Y");
        return;
    }
    oc_builder_random(g->b, "B", OC_DT_INT8, SHAPE(d, f), -127, 128, g->wseed);
    if (bias)
        weight(g, "bias", SHAPE(f), -1, 1);
    size_t n;
    if (o == 0) {
        qparam(g, "a", 0.05, OC_DT_UINT8);
        qparam(g, "b", 0.004, OC_DT_INT8);
        qparam(g, "y", 0.2, OC_DT_UINT8);
        n = node(g, ops[o], "A,a_s,a_z,B,b_s,b_z,y_s,y_z", "Y");
        oc_builder_output(g->b, "Y", OC_DT_UINT8, -1, NULL);
    } else if (o == 1) {
        qparam(g, "a", 0.05, OC_DT_UINT8);
        qparam(g, "b", 0.004, OC_DT_INT8);
        n = node(g, ops[o], bias ? "A,B,a_s,b_s,a_z,b_z,bias" : "A,B,a_s,b_s,a_z,b_z", "Y");
        out_f(g, "Y");
    } else {
        qparam(g, "b", 0.004, OC_DT_INT8);
        n = node(g, ops[o], bias ? "A,B,b_s,b_z,bias" : "A,B,b_s,b_z", "Y");
        out_f(g, "Y");
    }
    if (o > 0)
        ms_domain(g, n);
    main_node(g, n, ops[o]);
}

/* ORT's quantized elementwise and pooling kernels on uint8 tensors (the
 * activation shapes of the elementwise family): QLinearAdd, QLinearMul
 * (same shape or a per-channel operand), QLinearSigmoid, QLinearLeakyRelu,
 * QLinearGlobalAveragePool (NCHW), QLinearAveragePool (2x2 or 3x3). */
static void gen_qelementwise(gen *g)
{
    rng *r = &g->r;
    static const double ow[] = {0.3, 0.15, 0.15, 0.1, 0.15, 0.15};
    static const char *const ops[] = {"QLinearAdd", "QLinearMul", "QLinearSigmoid",
                                      "QLinearLeakyRelu", "QLinearGlobalAveragePool",
                                      "QLinearAveragePool"};
    size_t o = WPICK(r, ow);
    int64_t d[4], ch;
    int rank = act_shape(g, d, &ch);
    if (o >= 4 && rank != 4) {
        g->reject = true;
        return;
    }
    cfg_s(g, "op", ops[o]);
    in_u8(g, "X", rank, d);
    qparam(g, "x", 0.05, OC_DT_UINT8);
    qparam(g, "y", 0.1, OC_DT_UINT8);
    size_t n;
    if (o < 2) {
        bool channel = chance(r, 0.3);
        cfg_s(g, "broadcast", channel ? "channel" : "same");
        if (channel) {
            if (rank == 4)
                oc_builder_random(g->b, "B", OC_DT_UINT8, SHAPE(ch, 1, 1), 0, 256, g->wseed);
            else
                oc_builder_random(g->b, "B", OC_DT_UINT8, SHAPE(ch), 0, 256, g->wseed);
        } else {
            in_u8(g, "B", rank, d);
        }
        qparam(g, "b", 0.04, OC_DT_UINT8);
        n = node(g, ops[o], "X,x_s,x_z,B,b_s,b_z,y_s,y_z", "Y");
    } else if (o < 4) {
        n = node(g, ops[o], "X,x_s,x_z,y_s,y_z", "Y");
        if (o == 3)
            oc_builder_attr_float(g->b, n, "alpha", 0.1f);
    } else if (o == 4) {
        n = node(g, ops[o], "X,x_s,x_z,y_s,y_z", "Y");
        oc_builder_attr_int(g->b, n, "channels_last", 0);
    } else {
        int64_t k = chance(r, 0.6) ? 2 : 3, s = k == 2 ? 2 : (chance(r, 0.5) ? 1 : 2);
        if (d[2] < k || d[3] < k) {
            g->reject = true;
            return;
        }
        cfg_i(g, "kernel", k);
        cfg_i(g, "stride", s);
        n = node(g, ops[o], "X,x_s,x_z,y_s,y_z", "Y");
        oc_builder_attr_ints(g->b, n, "kernel_shape", 2, D(k, k));
        oc_builder_attr_ints(g->b, n, "strides", 2, D(s, s));
        if (k == 3)
            oc_builder_attr_ints(g->b, n, "pads", 4, D(1, 1, 1, 1));
    }
    ms_domain(g, n);
    main_node(g, n, ops[o]);
    oc_builder_output(g->b, "Y", OC_DT_UINT8, -1, NULL);
}

/* MaxPool on 8-bit tensors, as ORT runs a QDQ model's pools (its QDQ
 * transformer drops the DequantizeLinear and QuantizeLinear around a
 * MaxPool, which then pools the quantized values): uint8 80%, int8 20%;
 * the shapes and windows of the pool family's MaxPools. */
static void gen_qmaxpool(gen *g)
{
    rng *r = &g->r;
    bool u8 = chance(r, 0.8);
    int64_t c = channels(r, 16, 2048), n = batch(r), h, w, k, s, pad;
    spatial_hw(r, c, 0, &h, &w);
    cfg_s(g, "dtype", u8 ? "uint8" : "int8");
    cfg_i(g, "batch", n);
    cfg_i(g, "c", c);
    cfg_i(g, "h", h);
    cfg_i(g, "w", w);
    input(g, "X", u8 ? OC_DT_UINT8 : OC_DT_INT8, SHAPE(n, c, h, w), u8 ? 256 : 128);
    size_t p = node(g, "MaxPool", "X", "Y");
    pool_window(unif(r), true, &k, &s, &pad);
    if (!pool_attrs(g, p, h, w, k, s, pad))
        return;
    main_node(g, p, "MaxPool");
    oc_builder_output(g->b, "Y", u8 ? OC_DT_UINT8 : OC_DT_INT8, -1, NULL);
}

/* ---- convolutions of rank 3 and 5 ----
 * ORT runs them unblocked (no NCHWc: that is for 2-D convolutions only),
 * as Conv, or FusedConv with the activation after it. */

/* Pads on axis i: "same" (the output keeps the length at stride 1; the odd
 * one at the end), "causal" (all at the start, as WaveNet and TCNs pad) or
 * "valid" (none). */
static void conv_nd_pad(conv_nd *c, int i, const char *mode)
{
    int64_t total = c->d[i] * (c->k[i] - 1);
    if (!strcmp(mode, "same"))
        c->pb[i] = total / 2, c->pe[i] = total - total / 2;
    else if (!strcmp(mode, "causal"))
        c->pb[i] = total, c->pe[i] = 0;
    else
        c->pb[i] = c->pe[i] = 0;
}

/* False when an output size would be < 1. */
static bool conv_nd_fits(const conv_nd *c)
{
    for (int i = 0; i < c->nsp; i++)
        if (c->in[i] + c->pb[i] + c->pe[i] < c->d[i] * (c->k[i] - 1) + 1)
            return false;
    return true;
}

static void conv_nd_config(gen *g, const conv_nd *c)
{
    int64_t pads[2 * MAX_SP];
    for (int i = 0; i < c->nsp; i++)
        pads[i] = c->pb[i], pads[c->nsp + i] = c->pe[i];
    cfg_i(g, "batch", c->n);
    cfg_i(g, "cin", c->cin);
    cfg_i(g, "cout", c->cout);
    cfg_shape(g, "spatial", c->nsp, c->in);
    cfg_shape(g, "kernel", c->nsp, c->k);
    cfg_shape(g, "stride", c->nsp, c->s);
    cfg_shape(g, "dilation", c->nsp, c->d);
    cfg_shape(g, "pads", 2 * c->nsp, pads);
    cfg_i(g, "group", c->group);
    cfg_b(g, "depthwise", c->group > 1 && c->group == c->cin);
    cfg_b(g, "bias", c->bias);
}

/* The output: Y, or Y through an activation (NULL: none) that ORT fuses
 * into the Conv. */
static void conv_nd_act(gen *g, const char *act)
{
    cfg_s(g, "activation", act ? act : "none");
    if (!act) {
        out_f(g, "Y");
        return;
    }
    size_t a = node(g, act, "Y", "Z");
    if (!strcmp(act, "LeakyRelu"))
        oc_builder_attr_float(g->b, a, "alpha", 0.2f);
    fused(g, a, act);
    out_f(g, "Z");
}

/* The drawn convolution c and activation act (NULL: none) into the model,
 * its kind and padding in the config; a draw whose output would be empty
 * is rejected. */
static void conv_nd_finish(gen *g, const conv_nd *c, const char *kind, const char *pad,
                           const char *act)
{
    if (!conv_nd_fits(c)) {
        g->reject = true;
        return;
    }
    cfg_s(g, "kind", kind);
    cfg_s(g, "padding", pad);
    conv_nd_config(g, c);
    conv_nd_emit(g, c);
    conv_nd_act(g, act);
}

/* WaveNet / TCN: kernel 2 or 3, dilation 1..512 (powers of 2), long
 * sequences (audio samples). */
static const char *c1_dilated(rng *r, conv_nd *c)
{
    c->k[0] = chance(r, 0.6) ? 2 : 3;
    c->d[0] = (int64_t)1 << irange(r, 0, 9);
    c->cin = channels(r, 16, 512);
    c->cout = chance(r, 0.6) ? c->cin : chance(r, 0.5) ? 2 * c->cin : channels(r, 16, 512);
    c->in[0] = logu(r, 1000, 16000);
    double u = unif(r);
    return u < 0.6 ? "causal" : u < 0.85 ? "same" : "valid";
}

/* TextCNN: kernels 2..7 over word embeddings (C 64..768), L 16..512. */
static const char *c1_text(rng *r, conv_nd *c)
{
    c->k[0] = PICK(r, ((const int64_t[]){2, 3, 3, 4, 5, 5, 7}));
    c->cin = PICK(r, ((const int64_t[]){64, 100, 128, 128, 256, 300, 512, 768}));
    c->cout = PICK(r, ((const int64_t[]){64, 100, 100, 128, 256}));
    c->in[0] = chance(r, 0.5) ? seq_len(r) : logu(r, 16, 512);
    return chance(r, 0.6) ? "valid" : "same";
}

/* PointNet: 1x1 convolutions over points (3 -> 64 -> 128 -> 1024). */
static const char *c1_pointwise(rng *r, conv_nd *c)
{
    c->k[0] = 1;
    c->cin = chance(r, 0.15) ? 3 : channels(r, 8, 1024);
    if (c->cin == 3)
        c->cout = PICK(r, ((const int64_t[]){64, 64, 128}));
    else
        c->cout = snap_channels((double)c->cin * PICK(r, ((const double[]){0.5, 1, 2, 2, 4, 8})),
                                8, 1024);
    c->in[0] = chance(r, 0.5) ? PICK(r, ((const int64_t[]){512, 1024, 1024, 2048, 4096}))
                              : logu(r, 16, 16000);
    return "valid";
}

/* Conformer / ConvNeXt-1D depthwise convolutions: kernels 3..31. */
static const char *c1_depthwise(rng *r, conv_nd *c)
{
    c->k[0] = PICK(r, ((const int64_t[]){3, 5, 7, 9, 15, 15, 17, 21, 25, 31, 31}));
    c->cin = chance(r, 0.3) ? PICK(r, ((const int64_t[]){144, 176, 256, 512}))
                            : channels(r, 32, 1024);
    c->cout = c->cin;
    c->group = c->cin;
    c->in[0] = logu(r, 16, 4000);
    return "same";
}

/* Anything else: kernels 1..31, stride 2 for 20%, dilation 2..16 for
 * 15%, grouped for 10%. */
static const char *c1_general(rng *r, conv_nd *c)
{
    c->k[0] = PICK(r, ((const int64_t[]){1, 3, 3, 5, 7, 9, 11, 15, 31}));
    if (c->k[0] > 1 && chance(r, 0.15))
        c->d[0] = (int64_t)1 << irange(r, 1, 4);
    c->s[0] = chance(r, 0.2) ? 2 : 1;
    c->cin = channels(r, 8, 1024);
    c->cout = snap_channels(
        (double)c->cin * PICK(r, ((const double[]){0.25, 0.5, 1, 1, 2, 2, 4})), 8, 1024);
    if (chance(r, 0.1)) {
        int64_t gg = PICK(r, ((const int64_t[]){2, 4, 8, 16, 32}));
        if (c->cin % gg == 0 && c->cout % gg == 0 && c->cin / gg >= 4)
            c->group = gg;
    }
    c->in[0] = logu(r, 16, 16000);
    double u = unif(r);
    return u < 0.7 ? "same" : u < 0.85 ? "valid" : "causal";
}

/* 1-D convolutions [N, C, L]: WaveNet-style dilated 25%, TextCNN 20%,
 * PointNet pointwise 20%, depthwise 15%, others 20%; Conv 45%, Conv+Relu
 * 30%, Conv+Tanh 10%, Conv+Sigmoid 10%, Conv+LeakyRelu 5%. */
static void gen_conv1d(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.25, 0.2, 0.2, 0.15, 0.2};
    static const char *const kinds[] = {"dilated", "text", "pointwise", "depthwise", "general"};
    static const char *(*const draw[])(rng *, conv_nd *) = {c1_dilated, c1_text, c1_pointwise,
                                                            c1_depthwise, c1_general};
    size_t kind = WPICK(r, kw);
    conv_nd c = {.nsp = 1, .group = 1, .s = {1}, .d = {1}};
    const char *pad = draw[kind](r, &c);
    conv_nd_pad(&c, 0, pad);
    c.n = logu(r, 1, 32);
    c.bias = chance(r, 0.75);
    static const double aw[] = {0.45, 0.3, 0.1, 0.1, 0.05};
    static const char *const acts[] = {NULL, "Relu", "Tanh", "Sigmoid", "LeakyRelu"};
    const char *act = acts[WPICK(r, aw)];
    conv_nd_finish(g, &c, kinds[kind], pad, act);
}

/* 3-D convolutions [N, C, T, H, W] as video networks have them (C3D, I3D,
 * R(2+1)D, X3D): kernels 3x3x3 45%, 1x3x3 20%, 3x1x1 15%, 1x1x1 20%;
 * stems (3 channels, 3x7x7 or 1x7x7, stride 1x2x2) 10%; depthwise 3x3x3
 * 10%; stride 1x2x2 20%, 2x2x2 10%; T 4..16, H and W 7..112; "same" pads;
 * Conv or Conv+Relu. */
static void gen_conv3d(gen *g)
{
    rng *r = &g->r;
    static const int64_t kv[][3] = {{3, 3, 3}, {1, 3, 3}, {3, 1, 1}, {1, 1, 1}};
    static const double kw[] = {0.45, 0.2, 0.15, 0.2};
    conv_nd c = {.nsp = 3, .group = 1, .s = {1, 1, 1}, .d = {1, 1, 1}};
    bool stem = chance(r, 0.1);
    if (stem) {
        int64_t kt = chance(r, 0.5) ? 3 : 1;
        c.k[0] = kt, c.k[1] = c.k[2] = 7;
        c.s[1] = c.s[2] = 2;
        c.cin = 3;
        c.cout = PICK(r, ((const int64_t[]){24, 32, 64}));
        c.in[1] = c.in[2] = PICK(r, ((const int64_t[]){112, 112, 128, 160}));
    } else {
        memcpy(c.k, kv[WPICK(r, kw)], sizeof c.k);
        c.cin = channels(r, 8, 512);
        if (c.k[0] == 3 && c.k[1] == 3 && chance(r, 0.1)) {
            c.group = c.cout = c.cin;
        } else {
            c.cout = snap_channels(
                (double)c.cin * PICK(r, ((const double[]){0.5, 1, 1, 2, 2, 4})), 8, 512);
        }
        double u = unif(r);
        if (u < 0.3)
            c.s[1] = c.s[2] = 2;
        if (u < 0.1)
            c.s[0] = 2;
        spatial_hw(r, c.cin, 112, &c.in[1], &c.in[2]);
    }
    c.in[0] = chance(r, 0.6) ? PICK(r, ((const int64_t[]){4, 8, 8, 16})) : irange(r, 4, 16);
    for (int i = 0; i < 3; i++)
        conv_nd_pad(&c, i, "same");
    c.n = logu(r, 1, 8);
    c.bias = chance(r, 0.6);
    bool relu = chance(r, 0.5);
    if (!conv_nd_fits(&c)) {
        g->reject = true;
        return;
    }
    cfg_b(g, "stem", stem);
    conv_nd_config(g, &c);
    conv_nd_emit(g, &c);
    conv_nd_act(g, relu ? "Relu" : NULL);
}

/* ---- unary operators the elementwise and activation families do not
 * draw ---- */

/* Elu, Selu, Softplus, Softsign, Sin, Cos, Log, Celu, ThresholdedRelu,
 * HardSigmoid, Mish (opset 18), Sign, Ceil, Round, on the elementwise
 * family's shapes.  The op goes round by sample index, so that a short
 * collect has every op as often as the others (100 samples: 7 or 8 each). */
static void gen_unary(gen *g)
{
    rng *r = &g->r;
    static const char *const ops[] = {"Elu",  "Selu", "Softplus", "Softsign",
                                      "Sin",  "Cos",  "Log",      "Celu",
                                      "ThresholdedRelu", "HardSigmoid", "Mish",
                                      "Sign", "Ceil", "Round"};
    const char *op = ops[g->s->index % (sizeof ops / sizeof ops[0])];
    int64_t d[4], ch;
    int rank = act_shape(g, d, &ch);
    cfg_s(g, "op", op);
    in_f(g, "X", rank, d);
    size_t n = node(g, op, "X", "Y");
    if (!strcmp(op, "Elu") || !strcmp(op, "Celu") || !strcmp(op, "ThresholdedRelu")) {
        float a = PICK(r, ((const float[]){1.0f, 1.0f, 0.5f, 0.1f}));
        cfg_f(g, "alpha", a);
        oc_builder_attr_float(g->b, n, "alpha", a);
    } else if (!strcmp(op, "HardSigmoid")) {
        /* PyTorch's Hardsigmoid exports alpha 1/6; ONNX's default is 0.2 */
        float a = chance(r, 0.6) ? 1.0f / 6 : 0.2f;
        cfg_f(g, "alpha", a);
        oc_builder_attr_float(g->b, n, "alpha", a);
        oc_builder_attr_float(g->b, n, "beta", 0.5f);
    } else if (!strcmp(op, "Mish")) {
        g->s->opset = 18;
        oc_builder_opset(g->b, "", 18);
    }
    main_node(g, n, op);
    out_f(g, "Y");
}

/* ---- DepthToSpace, SpaceToDepth ----
 * DepthToSpace DCR 35% (TensorFlow's order), CRD 35% (PyTorch's
 * PixelShuffle), SpaceToDepth 30% (YOLOv5's Focus, PixelUnshuffle);
 * blocksize 2 (60%), 3 or 4; the rearranged side has 1..256 channels
 * (super-resolution's 1 or 3 for 30%). */
static void gen_depthtospace(gen *g)
{
    rng *r = &g->r;
    static const double ow[] = {0.35, 0.35, 0.3};
    static const char *const modes[] = {"DCR", "CRD", NULL};
    size_t o = WPICK(r, ow);
    int64_t b = PICK(r, ((const int64_t[]){2, 2, 2, 3, 4}));
    int64_t c = chance(r, 0.3) ? PICK(r, ((const int64_t[]){1, 3, 3})) : channels(r, 8, 256);
    int64_t n = batch(r), h, w;
    const char *op = modes[o] ? "DepthToSpace" : "SpaceToDepth";
    if (modes[o]) { /* [N, c*b*b, h, w] -> [N, c, h*b, w*b] */
        spatial_hw(r, c * b * b, 112, &h, &w);
        c *= b * b;
    } else {          /* [N, c, h, w] -> [N, c*b*b, h/b, w/b] */
        spatial_hw(r, c, 0, &h, &w);
        h = h / b * b, w = w / b * b;
    }
    if (h < 1 || w < 1) {
        g->reject = true;
        return;
    }
    cfg_s(g, "op", op);
    if (modes[o])
        cfg_s(g, "mode", modes[o]);
    cfg_i(g, "blocksize", b);
    cfg_shape(g, "shape", SHAPE(n, c, h, w));
    in_f(g, "X", SHAPE(n, c, h, w));
    size_t nd = node(g, op, "X", "Y");
    oc_builder_attr_int(g->b, nd, "blocksize", b);
    if (modes[o])
        oc_builder_attr_string(g->b, nd, "mode", modes[o]);
    main_node(g, nd, op);
    out_f(g, "Y");
}

/* ---- InstanceNormalization ----
 * [N, C, H, W] 70% (style transfer, GAN generators: C 8..512) or [N, C, L]
 * 30% (C 8..1024, L 16..4000); epsilon 1e-5 80%, else 1e-3. */
static void gen_instancenorm(gen *g)
{
    rng *r = &g->r;
    int64_t n = logu(r, 1, 32), c;
    if (chance(r, 0.7)) {
        int64_t h, w;
        c = channels(r, 8, 512);
        spatial_hw(r, c, 0, &h, &w);
        cfg_shape(g, "shape", SHAPE(n, c, h, w));
        in_f(g, "X", SHAPE(n, c, h, w));
    } else {
        c = channels(r, 8, 1024);
        int64_t l = logu(r, 16, 4000);
        cfg_shape(g, "shape", SHAPE(n, c, l));
        in_f(g, "X", SHAPE(n, c, l));
    }
    float eps = chance(r, 0.8) ? 1e-5f : 1e-3f;
    cfg_f(g, "epsilon", eps);
    weight(g, "scale", SHAPE(c), 0.5, 1.5);
    weight(g, "B", SHAPE(c), -1, 1);
    size_t nd = node(g, "InstanceNormalization", "X,scale,B", "Y");
    oc_builder_attr_float(g->b, nd, "epsilon", eps);
    main_node(g, nd, "InstanceNormalization");
    out_f(g, "Y");
}

/* ---- grouped convolutions (not depthwise) ----
 * ORT runs them without the NCHWc layout, group by group.  ResNeXt-style
 * cardinality (32 or 64 groups, 4..16 channels a group) 35%, RegNet-style
 * group width (8, 16, 24, 32, 48 or 64 channels a group) 35%, a few groups
 * (2, 3, 4 or 8: AlexNet, Res2Net, ShuffleNet v1) 30%; 3x3 (1x1 in half
 * of the few-groups draws); cout = cin 80%, else 2x; stride 2 25%;
 * "same" pads; Conv 40%, Conv+Relu 60%. */
static void gen_gconv(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.35, 0.35, 0.3};
    static const char *const kinds[] = {"cardinality", "group_width", "few"};
    size_t kind = WPICK(r, kw);
    conv_nd c = {.nsp = 2, .s = {1, 1}, .d = {1, 1}};
    int64_t per;
    if (kind == 0) {
        c.group = chance(r, 0.7) ? 32 : 64;
        per = PICK(r, ((const int64_t[]){4, 4, 8, 8, 16}));
    } else if (kind == 1) {
        per = PICK(r, ((const int64_t[]){8, 16, 24, 32, 48, 64}));
        c.group = logu(r, 2, 56);
    } else {
        c.group = PICK(r, ((const int64_t[]){2, 2, 3, 4, 4, 8}));
        per = channels(r, 8, 512) / c.group;
    }
    c.cin = c.group * (per < 1 ? 1 : per);
    if (c.cin < 16 || c.cin > 4096) {
        g->reject = true;
        return;
    }
    c.cout = chance(r, 0.8) ? c.cin : 2 * c.cin;
    int64_t k = kind == 2 && chance(r, 0.5) ? 1 : 3;
    c.k[0] = c.k[1] = k;
    if (chance(r, 0.25))
        c.s[0] = c.s[1] = 2;
    conv_nd_pad(&c, 0, "same");
    conv_nd_pad(&c, 1, "same");
    spatial_hw(r, c.cin, 112, &c.in[0], &c.in[1]);
    c.n = logu(r, 1, 32);
    c.bias = chance(r, 0.6);
    bool relu = chance(r, 0.6);
    if (!conv_nd_fits(&c)) {
        g->reject = true;
        return;
    }
    cfg_s(g, "kind", kinds[kind]);
    conv_nd_config(g, &c);
    conv_nd_emit(g, &c);
    conv_nd_act(g, relu ? "Relu" : NULL);
}

/* An output of type dt (a comparison's bool). */
static void out_t(gen *g, const char *name, oc_dtype dt)
{
    oc_builder_output(g->b, name, dt, -1, NULL);
}

/* The elements of a shape of rank dims d. */
static double elems(int rank, const int64_t *d)
{
    double n = 1;
    for (int i = 0; i < rank; i++)
        n *= (double)d[i];
    return n;
}

/* Rank 3..5 shapes of 2^11..2^22 elements in d (returns the rank, 0 to
 * reject): a leading batch of 1..16, then sizes capped so that a rank-5
 * shape still reaches 256 on one axis. */
static int any_shape(rng *r, int64_t *d)
{
    static const int64_t cap[] = {0, 0, 0, 4096, 512, 256};
    int rank = (int)irange(r, 3, 5);
    double n = (double)(d[0] = logu(r, 1, 16));
    for (int i = 1; i < rank; i++)
        n *= (double)(d[i] = logu(r, 2, cap[rank]));
    return n < 2048 || n > 4194304 ? 0 : rank;
}

/* ---- Softmax and LogSoftmax on any axis ----
 * The softmax family normalises the last axis only.  From opset 13 ONNX
 * Runtime moves any other axis last and back inside the kernel: these
 * samples ran a median 6.1 ns an element over another axis, 0.57 over the
 * last, and a PixelCNN's 256-way LogSoftmax over channels 12 (f26, 1
 * thread).  Rank 3..5, the axis uniform over all but the batch (so the
 * last one too), Softmax or LogSoftmax. */
static void gen_axis_softmax(gen *g)
{
    rng *r = &g->r;
    int64_t d[5];
    int rank = any_shape(r, d);
    if (!rank) {
        g->reject = true;
        return;
    }
    int64_t axis = irange(r, 1, rank - 1);
    const char *op = chance(r, 0.5) ? "Softmax" : "LogSoftmax";
    cfg_s(g, "op", op);
    cfg_shape(g, "shape", rank, d);
    cfg_i(g, "axis", axis);
    in_f(g, "X", rank, d);
    size_t n = node(g, op, "X", "Y");
    oc_builder_attr_int(g->b, n, "axis", axis);
    main_node(g, n, op);
    out_f(g, "Y");
}

/* ---- Broadcasting binary ops ----
 * The elementwise family broadcasts a per-channel or scalar operand only.
 * Model code broadcasts more ways: an outer product of a tensor with a
 * short vector ([.., D, 1] op [K]: B-spline bases, bins; 30%), pairwise
 * ([N, L, 1] op [N, 1, M]: distances, masks; 20%), a size-1 middle axis
 * ([N, C, 1, W]; 20%), a row per leading index ([.., 1] op [..]; 15%) and
 * equal shapes (15%).  Arithmetic (Add, Sub, Mul, Div, Max, Min) 60%,
 * comparisons (Less, Greater, GreaterOrEqual, Equal; bool out) 40%; the
 * operands in either order. */
static void gen_broadcast(gen *g)
{
    rng *r = &g->r;
    static const char *const arith[] = {"Add", "Sub", "Mul", "Div", "Max", "Min"};
    static const char *const cmp[] = {"Less", "Greater", "GreaterOrEqual", "Equal"};
    static const double kw[] = {0.3, 0.2, 0.2, 0.15, 0.15};
    static const char *const kinds[] = {"outer", "pairwise", "middle", "rows", "same"};
    size_t kind = WPICK(r, kw);
    bool is_cmp = chance(r, 0.4);
    const char *op = is_cmp ? PICK(r, cmp) : PICK(r, arith);
    int64_t a[5], b[5], o[5];
    int rank;
    if (kind == 1) {
        rank = 3;
        o[0] = logu(r, 1, 32), o[1] = logu(r, 4, 2048), o[2] = logu(r, 4, 2048);
    } else if (!(rank = any_shape(r, o))) {
        g->reject = true;
        return;
    }
    if (kind == 0 && chance(r, 0.7))
        o[rank - 1] = logu(r, 2, 32); /* a short vector: grid points, bins */
    double n = elems(rank, o);
    if (n < 2048 || n > 8388608) {
        g->reject = true;
        return;
    }
    memcpy(a, o, sizeof a);
    memcpy(b, o, sizeof b);
    int rb = rank;
    switch (kind) {
    case 0: /* [.., D, 1] op [K] */
        a[rank - 1] = 1;
        b[0] = o[rank - 1];
        rb = 1;
        break;
    case 1: /* [N, L, 1] op [N, 1, M] */
        a[2] = 1;
        b[1] = 1;
        break;
    case 2: { /* a size-1 middle axis */
        int ax = (int)irange(r, 1, rank - 2);
        b[ax] = 1;
        break;
    }
    case 3: /* [.., 1]: one value per row */
        b[rank - 1] = 1;
        break;
    default:
        break;
    }
    bool swap = chance(r, 0.5);
    cfg_s(g, "kind", kinds[kind]);
    cfg_s(g, "op", op);
    cfg_b(g, "swapped", swap);
    cfg_shape(g, "a", rank, a);
    cfg_shape(g, "b", rb, b);
    in_f(g, "A", rank, a);
    in_f(g, "B", rb, b);
    size_t nd = node(g, op, swap ? "B,A" : "A,B", "Y");
    main_node(g, nd, op);
    out_t(g, "Y", is_cmp ? OC_DT_BOOL : OC_DT_FLOAT);
}

/* A rank 2..4 shape of 2^11..2^23 elements in d and a non-empty set of
 * its axes (each 40%) in axes[*na], keepdims either way: a reduction over
 * any axes.  Returns the rank, 0 to reject. */
static int reduce_draw(rng *r, int64_t *d, int64_t *axes, size_t *na, int64_t *keep)
{
    static const int64_t cap[] = {0, 0, 8192, 2048, 256};
    int rank = (int)irange(r, 2, 4);
    for (int i = 0; i < rank; i++)
        d[i] = logu(r, i ? 2 : 1, cap[rank]);
    double n = elems(rank, d);
    if (n < 2048 || n > 8388608)
        return 0;
    *na = 0;
    for (int i = 0; i < rank; i++)
        if (chance(r, 0.4))
            axes[(*na)++] = i;
    if (!*na)
        axes[(*na)++] = irange(r, 0, rank - 1);
    *keep = chance(r, 0.5);
    return rank;
}

/* ---- Reductions over any axes ----
 * The reduce family folds spatial axes, the last axis or the sequence
 * axis with ReduceMean, ReduceSum or ReduceMax.  Here seven reductions
 * (LogSumExp 30%: Sinkhorn iterations, log-likelihoods) over a random
 * non-empty set of axes of a rank 2..4 tensor, keepdims either way
 * (not ReduceProd: products of many random values go subnormal, which
 * would time the CPU's slow path, not the kernel). */
static void gen_reduce_axes(gen *g)
{
    rng *r = &g->r;
    static const char *const ops[] = {"ReduceLogSumExp", "ReduceSum", "ReduceMean",
                                      "ReduceMax",       "ReduceMin", "ReduceL2",
                                      "ReduceSumSquare"};
    static const double ow[] = {0.3, 0.15, 0.15, 0.1, 0.1, 0.1, 0.1};
    const char *op = ops[WPICK(r, ow)];
    int64_t d[4], axes[4], keep;
    size_t na;
    int rank = reduce_draw(r, d, axes, &na, &keep);
    if (!rank) {
        g->reject = true;
        return;
    }
    cfg_s(g, "op", op);
    cfg_shape(g, "shape", rank, d);
    cfg_shape(g, "axes", (int)na, axes);
    cfg_i(g, "keepdims", keep);
    in_f(g, "X", rank, d);
    main_node(g, reduce_node(g, op, na, axes, keep), op);
    out_f(g, "Y");
}

/* ---- Transposes of any permutation ----
 * The transpose family draws the permutations of NCHW <-> NHWC, head
 * splits and 2-D transposes: one axis moving, which ONNX Runtime runs with
 * its block copies.  A model may permute any way (a full reversal in
 * structured-matrix layers, axes swapped around a batched MatMul), which
 * it runs element by element with a multi-index walk: rank 3..5, 2^12..
 * 2^24 elements, a uniform permutation (not the identity), a reversal
 * 30%. */
static void gen_permute(gen *g)
{
    rng *r = &g->r;
    static const int64_t cap[] = {0, 0, 0, 8192, 1024, 256};
    int64_t d[5], perm[5];
    int rank = (int)irange(r, 3, 5);
    double n = (double)(d[0] = logu(r, 1, 16));
    for (int i = 1; i < rank; i++)
        n *= (double)(d[i] = logu(r, 2, cap[rank]));
    if (n < 4096 || n > 16777216) {
        g->reject = true;
        return;
    }
    bool reverse = chance(r, 0.3);
    for (int i = 0; i < rank; i++)
        perm[i] = reverse ? rank - 1 - i : i;
    for (int i = rank - 1; !reverse && i > 0; i--) { /* Fisher-Yates */
        int j = (int)irange(r, 0, i);
        int64_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    bool identity = true;
    for (int i = 0; i < rank; i++)
        identity = identity && perm[i] == i;
    if (identity) {
        g->reject = true;
        return;
    }
    cfg_shape(g, "shape", rank, d);
    cfg_shape(g, "perm", rank, perm);
    in_f(g, "X", rank, d);
    size_t nd = node(g, "Transpose", "X", "Y");
    oc_builder_attr_ints(g->b, nd, "perm", (size_t)rank, perm);
    main_node(g, nd, "Transpose");
    out_f(g, "Y");
}

/* ---- Gather along an inner axis ----
 * The gather family looks up rows (axis 0 of an embedding table).  Along
 * an inner axis each index selects a short run or a single element:
 * Toeplitz and shift matrices built by indexing ([A, V] by [M, N] on axis
 * 1, 35%), a subset of channels or positions ([B, V, D] by [K] on axis 1,
 * 35%), a permutation of the last axis ([B, L, V] by [K] on axis 2, 30%);
 * the data an input or a weight, 2^12..2^24 elements out. */
static void gen_gather_axis(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.35, 0.35, 0.3};
    static const char *const kinds[] = {"toeplitz", "select", "last"};
    size_t kind = WPICK(r, kw);
    int64_t x[3], ix[2], axis, bound, out;
    int xr, ir;
    if (kind == 0) {
        x[0] = logu(r, 1, 1024), x[1] = logu(r, 16, 4096);
        ix[0] = logu(r, 16, 1024), ix[1] = logu(r, 16, 1024);
        xr = 2, ir = 2, axis = 1, bound = x[1];
        out = x[0] * ix[0] * ix[1];
    } else if (kind == 1) {
        x[0] = logu(r, 1, 16), x[1] = logu(r, 16, 4096), x[2] = logu(r, 1, 1024);
        ix[0] = logu(r, 1, x[1]);
        xr = 3, ir = 1, axis = 1, bound = x[1];
        out = x[0] * ix[0] * x[2];
    } else {
        x[0] = logu(r, 1, 16), x[1] = logu(r, 16, 4096), x[2] = logu(r, 4, 1024);
        ix[0] = x[2];
        xr = 3, ir = 1, axis = 2, bound = x[2];
        out = x[0] * x[1] * ix[0];
    }
    if (out < 4096 || out > 16777216) {
        g->reject = true;
        return;
    }
    bool w = chance(r, 0.5);
    cfg_s(g, "kind", kinds[kind]);
    cfg_shape(g, "shape", xr, x);
    cfg_shape(g, "indices", ir, ix);
    cfg_i(g, "axis", axis);
    cfg_i(g, "weight", w);
    if (w)
        weight(g, "X", xr, x, -1, 1);
    else
        in_f(g, "X", xr, x);
    input(g, "I", OC_DT_INT64, ir, ix, bound);
    size_t nd = node(g, "Gather", "X,I", "Y");
    oc_builder_attr_int(g->b, nd, "axis", axis);
    main_node(g, nd, "Gather");
    out_f(g, "Y");
}

/* ---- GatherElements ----
 * A gather per output element, along any axis: deformable sampling
 * (corners of [N, C, H*W] picked at K*H*W positions, 40%), selecting top-k
 * entries of the last axis ([B, L, V] by [B, L, K], 30%), rows along axis 1
 * ([B, L, D] by [B, K, D], 30%); 2^12..2^23 elements out; the data an
 * input. */
static void gen_gather_elements(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.4, 0.3, 0.3};
    static const char *const kinds[] = {"deformable", "topk", "rows"};
    size_t kind = WPICK(r, kw);
    int64_t x[3], ix[3], axis;
    x[0] = ix[0] = logu(r, 1, 16);
    if (kind == 0) {
        int64_t hw = logu(r, 16, 16384);
        x[1] = ix[1] = logu(r, 4, 512), x[2] = hw, ix[2] = hw * irange(r, 1, 9);
        axis = 2;
    } else if (kind == 1) {
        x[1] = ix[1] = logu(r, 1, 1024), x[2] = logu(r, 16, 8192);
        ix[2] = logu(r, 1, x[2]);
        axis = 2;
    } else {
        x[1] = logu(r, 16, 4096), x[2] = ix[2] = logu(r, 1, 1024);
        ix[1] = logu(r, 1, x[1]);
        axis = 1;
    }
    double out = (double)ix[0] * (double)ix[1] * (double)ix[2];
    if (out < 4096 || out > 8388608) {
        g->reject = true;
        return;
    }
    cfg_s(g, "kind", kinds[kind]);
    cfg_shape(g, "shape", 3, x);
    cfg_shape(g, "indices", 3, ix);
    cfg_i(g, "axis", axis);
    in_f(g, "X", 3, x);
    input(g, "I", OC_DT_INT64, 3, ix, x[axis]);
    size_t nd = node(g, "GatherElements", "X,I", "Y");
    oc_builder_attr_int(g->b, nd, "axis", axis);
    main_node(g, nd, "GatherElements");
    out_f(g, "Y");
}

/* ---- Einsum ----
 * Contractions as model code writes them, which ORT turns into
 * transposes, reshapes and batched MatMuls: a batched product
 * (bij,bjk->bik), attention scores (bhqd,bhkd->bhqk), a contraction with
 * the batch-like axis last (bhkn,bkvn->bhvn: lambda layers), a projection
 * (bnd,de->bne), a weighted sum over channels (bchw,bc->bhw); 20% each,
 * 10^5..10^9 multiply-adds. */
static void gen_einsum(gen *g)
{
    rng *r = &g->r;
    static const char *const eqs[] = {"bij,bjk->bik", "bhqd,bhkd->bhqk", "bhkn,bkvn->bhvn",
                                      "bnd,de->bne", "bchw,bc->bhw"};
    size_t kind = (size_t)irange(r, 0, 4);
    int64_t a[4], b[4], b0 = logu(r, 1, 16);
    int ra, rb;
    double macs;
    if (kind == 0) {
        int64_t i = logu(r, 4, 1024), j = logu(r, 4, 1024), k = logu(r, 4, 1024);
        a[0] = b0, a[1] = i, a[2] = j, b[0] = b0, b[1] = j, b[2] = k, ra = rb = 3;
        macs = (double)b0 * (double)i * (double)j * (double)k;
    } else if (kind == 1) {
        int64_t h = heads(r), q = seq_len(r), d = head_dim(r), k = seq_len(r);
        a[0] = b0, a[1] = h, a[2] = q, a[3] = d, b[0] = b0, b[1] = h, b[2] = k, b[3] = d;
        ra = rb = 4;
        macs = (double)b0 * (double)h * (double)q * (double)k * (double)d;
    } else if (kind == 2) {
        int64_t h = logu(r, 1, 8), k = logu(r, 4, 64), v = logu(r, 4, 128),
                n = logu(r, 16, 4096);
        a[0] = b0, a[1] = h, a[2] = k, a[3] = n, b[0] = b0, b[1] = k, b[2] = v, b[3] = n;
        ra = rb = 4;
        macs = (double)b0 * (double)h * (double)k * (double)v * (double)n;
    } else if (kind == 3) {
        int64_t n = seq_len(r), d = hidden(r, 64, 2048), e = hidden(r, 64, 2048);
        a[0] = b0, a[1] = n, a[2] = d, b[0] = d, b[1] = e, ra = 3, rb = 2;
        macs = (double)b0 * (double)n * (double)d * (double)e;
    } else {
        int64_t c = logu(r, 4, 1024), h = logu(r, 4, 128), w = logu(r, 4, 128);
        a[0] = b0, a[1] = c, a[2] = h, a[3] = w, b[0] = b0, b[1] = c, ra = 4, rb = 2;
        macs = (double)b0 * (double)c * (double)h * (double)w;
    }
    if (macs < 1e5 || macs > 1e9) {
        g->reject = true;
        return;
    }
    cfg_s(g, "equation", eqs[kind]);
    cfg_shape(g, "a", ra, a);
    cfg_shape(g, "b", rb, b);
    in_f(g, "A", ra, a);
    in_f(g, "B", rb, b);
    size_t nd = node(g, "Einsum", "A,B", "Y");
    oc_builder_attr_string(g->b, nd, "equation", eqs[kind]);
    main_node(g, nd, "Einsum");
    out_f(g, "Y");
}

/* ---- Long 1-D convolutions ----
 * Convolutions whose kernel spans much of the sequence (S4, S4D, Hyena
 * and other long-convolution models; conv1d's kernels stop at 31):
 * [N, C, L] with L 64..4096, the kernel 32..L; depthwise 80%, else a few
 * dense channels; padded as PyTorch's full convolution then cut (k - 1
 * both sides, 40%), causal (30%) or same (30%). */
static void gen_longconv(gen *g)
{
    rng *r = &g->r;
    static const double pw[] = {0.4, 0.3, 0.3};
    static const char *const pads[] = {"full", "causal", "same"};
    conv_nd c = {.nsp = 1, .group = 1, .s = {1}, .d = {1}};
    c.in[0] = logu(r, 64, 4096);
    c.k[0] = logu(r, 32, c.in[0]);
    bool dw = chance(r, 0.8);
    c.cin = dw ? channels(r, 16, 1024) : channels(r, 8, 64);
    c.cout = dw ? c.cin : channels(r, 8, 64);
    c.group = dw ? c.cin : 1;
    c.n = logu(r, 1, 16);
    c.bias = chance(r, 0.5);
    const char *pad = pads[WPICK(r, pw)];
    if (!strcmp(pad, "full"))
        c.pb[0] = c.pe[0] = c.k[0] - 1;
    else
        conv_nd_pad(&c, 0, pad);
    cfg_s(g, "padding", pad);
    conv_nd_config(g, &c);
    conv_nd_emit(g, &c);
    conv_nd_act(g, NULL);
}

/* The node Y = ConvTranspose(X, W[, B]) of nsp spatial axes, every
 * attribute written (dilations 1, group 1), X of dims xd and W of wd
 * ([C_in, C_out, k...]); B has C_out elements. */
static void convt_emit(gen *g, int nsp, const int64_t *xd, const int64_t *wd,
                       const int64_t *k, const int64_t *s, const int64_t *pads, bool bias)
{
    int64_t dd[MAX_SP];
    for (int i = 0; i < nsp; i++)
        dd[i] = 1;
    in_f(g, "X", 2 + nsp, xd);
    weight(g, "W", 2 + nsp, wd, -1, 1);
    if (bias)
        weight(g, "B", SHAPE(wd[1]), -1, 1);
    size_t c = node(g, "ConvTranspose", bias ? "X,W,B" : "X,W", "Y");
    oc_builder_attr_ints(g->b, c, "dilations", (size_t)nsp, dd);
    oc_builder_attr_int(g->b, c, "group", 1);
    oc_builder_attr_ints(g->b, c, "kernel_shape", (size_t)nsp, k);
    oc_builder_attr_ints(g->b, c, "pads", (size_t)(2 * nsp), pads);
    oc_builder_attr_ints(g->b, c, "strides", (size_t)nsp, s);
    main_node(g, c, "ConvTranspose");
    out_f(g, "Y");
}

/* ---- transposed convolutions of every rank ----
 * The convtranspose family draws 2-D ones of four shapes.  Decoders of
 * audio (vocoders, waveform U-Nets) upsample [N, C, L] by 2..8 with a
 * kernel of the stride or twice it, and the last layer of an image or
 * volume decoder maps to a few channels: 1-D 55%, 2-D 30%, 3-D 15%.
 * Kernel = stride 30%, 2 x stride 45% (pad stride / 2: the output is the
 * input times the stride), stride + 1 or 3 15%, stride 1 10%; the output
 * channels half the input's 55%, the same 20%, 1..32 25% (a last layer). */
static void gen_upconv(gen *g)
{
    rng *r = &g->r;
    static const double rw[] = {0.55, 0.3, 0.15};
    int nsp = 1 + (int)WPICK(r, rw);
    static const int64_t s1[] = {2, 2, 4, 4, 5, 8}, s23[] = {2, 2, 2, 4};
    int64_t s = nsp == 1 ? PICK(r, s1) : PICK(r, s23);
    static const double kw[] = {0.3, 0.45, 0.15, 0.1};
    size_t kind = WPICK(r, kw);
    int64_t k = kind == 0 ? s : kind == 1 ? 2 * s : kind == 2 ? (chance(r, 0.5) ? s + 1 : 3) : 3;
    if (kind == 3)
        s = 1;
    int64_t pad = k > s ? (k - s) / 2 : 0, extra = k > s ? (k - s) % 2 : 0;
    int64_t cin = nsp == 1 ? channels(r, 16, 1024) : nsp == 2 ? channels(r, 8, 512)
                                                              : channels(r, 8, 256);
    double u = unif(r);
    int64_t cout = u < 0.55   ? snap_channels((double)cin / 2, 8, 1024)
                   : u < 0.75 ? cin
                              : logu(r, 1, 32);
    int64_t in[MAX_SP], kk[MAX_SP], ss[MAX_SP], pads[2 * MAX_SP];
    if (nsp == 1)
        in[0] = logu(r, 16, 8192);
    else if (nsp == 2)
        spatial_hw(r, cin, 128, &in[0], &in[1]);
    else
        in[0] = logu(r, 2, 16), in[1] = in[2] = logu(r, 2, 32);
    for (int i = 0; i < nsp; i++) {
        kk[i] = k, ss[i] = s;
        pads[i] = pad, pads[nsp + i] = pad + extra;
    }
    int64_t n = nsp == 1 ? logu(r, 1, 16) : logu(r, 1, 32);
    bool bias = chance(r, 0.7);
    cfg_i(g, "batch", n);
    cfg_i(g, "cin", cin);
    cfg_i(g, "cout", cout);
    cfg_shape(g, "spatial", nsp, in);
    cfg_shape(g, "kernel", nsp, kk);
    cfg_shape(g, "stride", nsp, ss);
    cfg_shape(g, "pads", 2 * nsp, pads);
    cfg_b(g, "bias", bias);
    int64_t xd[2 + MAX_SP] = {n, cin}, wd[2 + MAX_SP] = {cin, cout};
    for (int i = 0; i < nsp; i++)
        xd[2 + i] = in[i], wd[2 + i] = k;
    convt_emit(g, nsp, xd, wd, kk, ss, pads, bias);
}

/* ---- framed filter banks ----
 * STFT and inverse STFT written as convolutions, as exportable audio code
 * has them (torch.stft does not export: nnAudio, asteroid's filter banks,
 * Conv-TasNet's and DCCRN's encoders and decoders, iSTFTNet, Griffin-Lim):
 * the kernel is the frame, the stride the hop.  A Fourier bank 65% (frame
 * 128..2048, two channels per bin: n_fft + 2), a real bank of one channel
 * per sample of the frame 10% (DCT-like), a learned bank 25% (frame
 * 16..64, 64..512 channels); hop a quarter of the frame 50%, a half 20%,
 * an eighth 10%, 160 or 256 as speech front ends use 20% (a learned
 * bank: half 80%, a quarter); T 4..1024 frames, 1 or 2 signal channels
 * (80% one), N 1..16.  Synthesis 60%: ConvTranspose of the bank into the
 * signal, uncut or cut by half a frame each side (30%, as a centred STFT
 * is inverted); analysis 40%: Conv of the signal into the bank, over
 * (T - 1) * hop + frame samples or, centred (40%), over (T - 1) * hop
 * padded by half a frame each side.  The upconv family's kernels stop at
 * 16 and the thinconv family's banks at 512 channels over long signals. */
static void gen_framebank(gen *g)
{
    rng *r = &g->r;
    static const double bw[] = {0.65, 0.1, 0.25};
    static const char *const banks[] = {"fourier", "real", "learned"};
    size_t bank = WPICK(r, bw);
    int64_t k, f;
    if (bank == 2) {
        k = PICK(r, ((const int64_t[]){16, 20, 32, 40, 64}));
        f = channels(r, 64, 512);
    } else {
        k = PICK(r, ((const int64_t[]){128, 256, 256, 400, 512, 512, 1024, 2048}));
        f = bank == 0 ? k + 2 : k;
    }
    int64_t hop;
    if (bank == 2) {
        hop = chance(r, 0.8) ? k / 2 : k / 4;
    } else {
        static const double hw[] = {0.5, 0.2, 0.1, 0.2};
        size_t h = WPICK(r, hw);
        hop = h == 0 ? k / 4 : h == 1 ? k / 2 : h == 2 ? k / 8 : chance(r, 0.5) ? 160 : 256;
        if (hop >= k)
            hop = k / 4;
    }
    int64_t t = logu(r, 4, 1024), sig = chance(r, 0.8) ? 1 : 2, n = logu(r, 1, 16);
    bool synth = chance(r, 0.6), centred = chance(r, synth ? 0.3 : 0.4);
    bool bias = chance(r, synth ? 0.1 : 0.2);
    int64_t p = centred ? k / 2 : 0;
    int64_t len = (t - 1) * hop + (centred ? 0 : k);
    if (len < 1 || (synth && (t - 1) * hop + k - 2 * p < 1)) {
        g->reject = true;
        return;
    }
    cfg_s(g, "bank", banks[bank]);
    cfg_s(g, "direction", synth ? "synthesis" : "analysis");
    cfg_i(g, "batch", n);
    cfg_i(g, "frame", k);
    cfg_i(g, "hop", hop);
    cfg_i(g, "bins", f);
    cfg_i(g, "frames", t);
    cfg_i(g, "signal_channels", sig);
    cfg_b(g, "centred", centred);
    if (!synth) {
        conv_nd c = {.nsp = 1, .n = n, .cin = sig, .cout = f, .group = 1,
                     .in = {len}, .k = {k}, .s = {hop}, .d = {1}, .pb = {p}, .pe = {p},
                     .bias = bias};
        conv_nd_config(g, &c);
        conv_nd_emit(g, &c);
        out_f(g, "Y");
        return;
    }
    int64_t xd[3] = {n, f, t}, wd[3] = {f, sig, k}, pads[2] = {p, p};
    cfg_b(g, "bias", bias);
    convt_emit(g, 1, xd, wd, &k, &hop, pads, bias);
}

/* ---- 2-D convolutions of non-square kernels ----
 * Every other 2-D family draws square kernels.  A sentence CNN over
 * [N, 1, L, D] word vectors (Kim's: the kernel h x D spans the embedding,
 * h 2..7, L 16..512, D 50..768, C_out 32..512) 30%; timbral filters on a
 * spectrogram (musically motivated CNNs: a kernel spanning 20..100% of
 * the F 40..128 frequency bins by 1..7 frames, T 32..1000, 1, 2 or 4
 * channels in, 8..256 out, the frequency axis first or second) 25%;
 * temporal filters (1 x k or k x 1, k 16..256 along T, 1..4 channels in,
 * 8..128 out) 20%; factorised convolutions of a deep layer (Inception v3's
 * 1 x k then k x 1, k 3, 5 or 7, 32..768 channels on 8..64 square maps,
 * "same" padding) 25%.  Timbral filters are padded "same" on the short
 * axis and not across the band; sentence and temporal kernels are not
 * padded; Conv 60%, Conv+Relu 40%. */
static void gen_bandconv(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.3, 0.25, 0.2, 0.25};
    static const char *const kinds[] = {"sentence", "timbral", "temporal", "factorised"};
    size_t kind = WPICK(r, kw);
    conv_nd c = {.nsp = 2, .group = 1, .s = {1, 1}, .d = {1, 1}};
    int band = chance(r, 0.5) ? 0 : 1; /* the axis the long kernel spans */
    int other = 1 - band;
    const char *pad = "valid";
    if (kind == 0) {
        band = 1, other = 0;
        c.cin = 1;
        c.in[0] = logu(r, 16, 512);
        c.in[1] = PICK(r, ((const int64_t[]){50, 100, 128, 200, 256, 300, 512, 768}));
        c.k[0] = PICK(r, ((const int64_t[]){2, 3, 3, 4, 5, 5, 7}));
        c.k[1] = c.in[1];
        c.cout = channels(r, 32, 512);
        c.n = logu(r, 1, 64);
    } else if (kind == 1) {
        c.cin = PICK(r, ((const int64_t[]){1, 1, 1, 2, 4}));
        c.in[band] = PICK(r, ((const int64_t[]){40, 64, 80, 96, 128}));
        c.in[other] = logu(r, 32, 1000);
        c.k[band] = (int64_t)(c.in[band] * (0.2 + 0.8 * unif(r)));
        if (c.k[band] < 2)
            c.k[band] = 2;
        c.k[other] = PICK(r, ((const int64_t[]){1, 3, 5, 7}));
        c.cout = channels(r, 8, 256);
        pad = "same";
        c.n = logu(r, 1, 32);
    } else if (kind == 2) {
        c.cin = PICK(r, ((const int64_t[]){1, 1, 2, 4}));
        c.in[band] = logu(r, 64, 2000);
        c.in[other] = chance(r, 0.5) ? 1 : PICK(r, ((const int64_t[]){8, 16, 40, 64, 96}));
        c.k[band] = logu(r, 16, 256);
        c.k[other] = 1;
        c.cout = channels(r, 8, 128);
        c.n = logu(r, 1, 32);
    } else {
        c.cin = channels(r, 32, 768);
        c.in[0] = c.in[1] = logu(r, 8, 64);
        c.k[band] = PICK(r, ((const int64_t[]){3, 5, 7, 7}));
        c.k[other] = 1;
        c.cout = chance(r, 0.5) ? c.cin : channels(r, 32, 768);
        pad = "same";
        c.n = logu(r, 1, 32);
    }
    if (!strcmp(pad, "same")) {
        /* same on the short axis (factorised: both), none on the band */
        conv_nd_pad(&c, other, "same");
        conv_nd_pad(&c, band, kind == 3 ? "same" : "valid");
    } else {
        conv_nd_pad(&c, 0, "valid");
        conv_nd_pad(&c, 1, "valid");
    }
    c.bias = chance(r, 0.8);
    conv_nd_finish(g, &c, kinds[kind], pad, chance(r, 0.4) ? "Relu" : NULL);
}

/* ---- Small kernels ----
 * Every other family draws kernels of thousands of elements and more: its
 * quickest samples take 3 us.  A decoder step at batch 1, a small MLP or
 * an LSTM cell runs hundreds of kernels of 1..4096 elements, where what a
 * kernel costs is ONNX Runtime's dispatch and a loop's start, not its
 * bytes.  Rank 1..4 shapes (the last axis 1..256, the one before 1..64,
 * others 1..16) of at most 4096 elements: binary arithmetic with a same,
 * scalar or last-axis operand (30%), Pow (10%: a scalar 0.5, -0.5 or
 * 1.5, or a tensor of exponents; not 2 or 3, see pow_as_products), 10 unary
 * ops (20%), Softmax over the last axis, ReduceMean or ReduceSum over it
 * (keepdims, as norms take them), the last two axes or the middle two of
 * four swapped, Concat of two along the last axis, a half of the last
 * axis sliced, LayerNormalization over it (opset 17), and a MatMul:
 * [m, k] by a weight (a decoder's GEMV) or batched [b, m, k] by [b, k, n]
 * (attention at one token). */
static int small_shape(rng *r, int64_t *d)
{
    static const double rw[] = {0.1, 0.3, 0.35, 0.25};
    int rank = (int)WPICK(r, rw) + 1;
    double n = 1;
    for (int i = 0; i < rank; i++) {
        int from_last = rank - 1 - i;
        n *= (double)(d[i] = logu(r, 1, from_last == 0 ? 256 : from_last == 1 ? 64 : 16));
    }
    return n > 4096 ? 0 : rank;
}

static void gen_small(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.3, 0.1, 0.2, 0.06, 0.06, 0.06, 0.04, 0.04, 0.04, 0.1};
    static const char *const kinds[] = {"binary", "pow",   "unary", "softmax", "reduce",
                                        "transpose", "concat", "slice", "layernorm",
                                        "matmul"};
    static const char *const binops[] = {"Add", "Sub", "Mul", "Div"};
    static const char *const unops[] = {"Sqrt", "Reciprocal", "Exp",  "Neg",  "Tanh",
                                        "Sigmoid", "Relu",    "Erf", "Abs", "Log"};
    size_t kind = WPICK(r, kw);
    int64_t d[4], e[4];
    int rank = 0;
    cfg_s(g, "kind", kinds[kind]);
    if (kind == 9) {
        bool gemv = chance(r, 0.5);
        int64_t m = gemv ? logu(r, 1, 8) : logu(r, 1, 32), k = logu(r, 4, gemv ? 512 : 64),
                n = logu(r, 4, gemv ? 512 : 64), b = gemv ? 1 : logu(r, 1, 32);
        cfg_b(g, "weight", gemv);
        if (gemv) {
            cfg_shape(g, "a", SHAPE(m, k));
            cfg_shape(g, "b", SHAPE(k, n));
            in_f(g, "A", SHAPE(m, k));
            weight(g, "B", SHAPE(k, n), -0.1, 0.1);
        } else {
            cfg_shape(g, "a", SHAPE(b, m, k));
            cfg_shape(g, "b", SHAPE(b, k, n));
            in_f(g, "A", SHAPE(b, m, k));
            in_f(g, "B", SHAPE(b, k, n));
        }
        main_node(g, node(g, "MatMul", "A,B", "Y"), "MatMul");
        out_f(g, "Y");
        return;
    }
    if (!(rank = small_shape(r, d)) || (kind == 5 && rank < 2)) {
        g->reject = true;
        return;
    }
    cfg_shape(g, "shape", rank, d);
    in_f(g, "X", rank, d);
    const char *op;
    size_t n;
    int64_t last = d[rank - 1];
    switch (kind) {
    case 0: {
        static const double bw[] = {0.4, 0.3, 0.3};
        static const char *const bnames[] = {"same", "scalar", "last_axis"};
        size_t bc = WPICK(r, bw);
        op = PICK(r, binops);
        cfg_s(g, "broadcast", bnames[bc]);
        if (bc == 0)
            in_f(g, "B", rank, d);
        else
            weight(g, "B", SHAPE(bc == 1 ? 1 : last), 0.5, 1.5);
        n = node(g, op, "X,B", "Y");
        break;
    }
    case 1: {
        /* exponents ORT runs with pow(); a scalar 2 or 3 it runs as
         * products, which the plan costs as the Mul by a scalar it is */
        static const double ew[] = {0.4, 0.2, 0.1, 0.3};
        static const float ex[] = {0.5f, -0.5f, 1.5f};
        size_t k = WPICK(r, ew);
        op = "Pow";
        if (k < 3) {
            cfg_f(g, "exponent", ex[k]);
            oc_builder_floats(g->b, "E", 0, NULL, &ex[k]);
        } else {
            cfg_s(g, "exponent", "tensor");
            weight(g, "E", rank, d, 0.5, 2.0);
        }
        n = node(g, op, "X,E", "Y");
        break;
    }
    case 2:
        op = PICK(r, unops);
        n = node(g, op, "X", "Y");
        break;
    case 3:
        op = "Softmax";
        n = node(g, op, "X", "Y");
        oc_builder_attr_int(g->b, n, "axis", -1);
        break;
    case 4:
        op = chance(r, 0.6) ? "ReduceMean" : "ReduceSum";
        n = reduce_node(g, op, 1, D(-1), 1);
        break;
    case 5: {
        int64_t perm[4] = {0, 1, 2, 3};
        int a = rank == 4 && chance(r, 0.5) ? 1 : rank - 2;
        perm[a] = a + 1, perm[a + 1] = a;
        op = "Transpose";
        cfg_shape(g, "perm", rank, perm);
        n = node(g, op, "X", "Y");
        oc_builder_attr_ints(g->b, n, "perm", (size_t)rank, perm);
        break;
    }
    case 6:
        memcpy(e, d, sizeof e);
        e[rank - 1] = logu(r, 1, 256);
        cfg_shape(g, "b", rank, e);
        in_f(g, "B", rank, e);
        op = "Concat";
        n = node(g, op, "X,B", "Y");
        oc_builder_attr_int(g->b, n, "axis", -1);
        break;
    case 7: {
        int64_t st = chance(r, 0.5) ? 0 : last / 2, en = st + (last + 1) / 2;
        oc_builder_ints(g->b, "starts", 1, D(1), &st);
        oc_builder_ints(g->b, "ends", 1, D(1), &en);
        oc_builder_ints(g->b, "axes", 1, D(1), D(-1));
        op = "Slice";
        n = node(g, op, "X,starts,ends,axes", "Y");
        break;
    }
    default:
        weight(g, "S", SHAPE(last), 0.5, 1.5);
        weight(g, "Bi", SHAPE(last), -0.5, 0.5);
        op = "LayerNormalization";
        n = node(g, op, "X,S,Bi", "Y");
        oc_builder_attr_int(g->b, n, "axis", -1);
        break;
    }
    cfg_s(g, "op", op);
    main_node(g, n, op);
    out_f(g, "Y");
}

/* ---- PRelu ----
 * A learned negative slope per channel (ENet, Conv-TasNet, DPRNN, DIEN)
 * or one for the whole tensor (torch.nn.PReLU()'s default).  ONNX Runtime
 * runs it as a broadcasting binary kernel, not as the activations' loop:
 * on f26 at 1 thread Conv-TasNet's [16,128,999] PRelus were profiled at
 * 9.7 ms each where the model, with no sample of it, predicted 0.3 ms.
 * Layouts [N,C,H,W] 40% (slope [C,1,1]), [N,C,L] 30% ([C,1]) and
 * [B,L,D] 30% ([D]); the slope per channel 65%, else one value ([1]). */
static void gen_prelu(gen *g)
{
    rng *r = &g->r;
    int64_t d[4], c;
    int rank;
    double u = unif(r);
    if (u < 0.4) {
        c = channels(r, 8, 512);
        int64_t h, w;
        spatial_hw(r, c, 0, &h, &w);
        d[0] = batch(r), d[1] = c, d[2] = h, d[3] = w;
        rank = 4;
        cfg_s(g, "layout", "nchw");
    } else if (u < 0.7) {
        c = channels(r, 8, 512);
        d[0] = batch(r), d[1] = c, d[2] = logu(r, 16, 16384);
        rank = 3;
        cfg_s(g, "layout", "ncl");
    } else {
        c = hidden(r, 16, 1024);
        d[0] = batch(r), d[1] = seq_len(r), d[2] = c;
        rank = 3;
        cfg_s(g, "layout", "bld");
    }
    double n = elems(rank, d);
    if (n < 2048 || n > 8388608) {
        g->reject = true;
        return;
    }
    bool per_channel = chance(r, 0.65);
    cfg_shape(g, "shape", rank, d);
    cfg_s(g, "slope", per_channel ? "channel" : "scalar");
    in_f(g, "X", rank, d);
    if (!per_channel)
        weight(g, "S", SHAPE(1), 0.05, 0.3);
    else if (rank == 4)
        weight(g, "S", SHAPE(c, 1, 1), 0.05, 0.3);
    else if (u < 0.7) /* [N,C,L] */
        weight(g, "S", SHAPE(c, 1), 0.05, 0.3);
    else
        weight(g, "S", SHAPE(c), 0.05, 0.3);
    main_node(g, node(g, "PRelu", "X,S", "Y"), "PRelu");
    out_f(g, "Y");
}

/* ---- Bool logic, integer arithmetic, Tile ----
 * Algorithmic graphs (rasterisers, thinning, simplex pivots, dynamic
 * programmes, hash grids) run kernels no other family measures: And, Or,
 * Xor on bool (30%: equal shapes, or a mask of one row or one column
 * broadcast), Not (10%), Tile of a float tensor (20%), Mod (10%: int64
 * by a positive constant, or float with fmod), int64 Add, Sub, Mul, Div,
 * Less, Equal (15%) and int64 ReduceSum or ReduceProd (15%; ReduceProd of
 * 0/1 values, so no product overflows). */
static void gen_logic(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.3, 0.1, 0.2, 0.1, 0.15, 0.15};
    static const char *const kinds[] = {"logic", "not", "tile", "mod", "int", "int_reduce"};
    size_t kind = WPICK(r, kw);
    cfg_s(g, "kind", kinds[kind]);
    int64_t d[5], b[5];
    int rank;
    if (kind == 2) { /* Tile: the input 2^8..2^20, the output at most 2^22 */
        rank = (int)irange(r, 2, 4);
        int64_t rep[4];
        for (int i = 0; i < rank; i++) {
            d[i] = logu(r, i ? 2 : 1, rank == 2 ? 2048 : 256);
            rep[i] = chance(r, 0.4) ? logu(r, 2, 16) : 1;
        }
        double n = elems(rank, d), m = elems(rank, rep);
        if (n < 256 || n > 1048576 || m < 2 || n * m > 4194304) {
            g->reject = true;
            return;
        }
        cfg_shape(g, "shape", rank, d);
        cfg_shape(g, "repeats", rank, rep);
        in_f(g, "X", rank, d);
        oc_builder_ints(g->b, "R", 1, D((int64_t)rank), rep);
        main_node(g, node(g, "Tile", "X,R", "Y"), "Tile");
        out_f(g, "Y");
        return;
    }
    if (kind == 5) { /* as the reduce_axes family's shapes */
        int64_t axes[4], keep;
        size_t na;
        if (!(rank = reduce_draw(r, d, axes, &na, &keep))) {
            g->reject = true;
            return;
        }
        const char *op = chance(r, 0.6) ? "ReduceSum" : "ReduceProd";
        cfg_s(g, "op", op);
        cfg_shape(g, "shape", rank, d);
        cfg_shape(g, "axes", (int)na, axes);
        cfg_i(g, "keepdims", keep);
        input(g, "X", OC_DT_INT64, rank, d, strcmp(op, "ReduceProd") ? 1000 : 2);
        main_node(g, reduce_node(g, op, na, axes, keep), op);
        out_t(g, "Y", OC_DT_INT64);
        return;
    }
    if (!(rank = any_shape(r, d))) {
        g->reject = true;
        return;
    }
    cfg_shape(g, "shape", rank, d);
    if (kind == 0) {
        static const char *const ops[] = {"And", "Or", "Xor"};
        static const char *const bnames[] = {"same", "row", "column"};
        const char *op = PICK(r, ops);
        size_t bc = WPICK(r, ((const double[]){0.6, 0.2, 0.2}));
        memcpy(b, d, sizeof b);
        if (bc == 1)
            b[rank - 1] = 1; /* one value per row */
        else if (bc == 2)
            b[0] = 1, b[rank - 2] = 1; /* one row for every matrix */
        cfg_s(g, "op", op);
        cfg_s(g, "broadcast", bnames[bc]);
        input(g, "A", OC_DT_BOOL, rank, d, 0);
        input(g, "B", OC_DT_BOOL, rank, b, 0);
        main_node(g, node(g, op, "A,B", "Y"), op);
        out_t(g, "Y", OC_DT_BOOL);
    } else if (kind == 1) {
        cfg_s(g, "op", "Not");
        input(g, "A", OC_DT_BOOL, rank, d, 0);
        main_node(g, node(g, "Not", "A", "Y"), "Not");
        out_t(g, "Y", OC_DT_BOOL);
    } else if (kind == 3) {
        bool fl = chance(r, 0.4);
        cfg_s(g, "op", "Mod");
        cfg_s(g, "dtype", fl ? "float32" : "int64");
        if (fl) {
            in_f(g, "A", rank, d);
            weight(g, "B", SHAPE(1), 0.25, 0.75);
        } else {
            input(g, "A", OC_DT_INT64, rank, d, 100000);
            oc_builder_random(g->b, "B", OC_DT_INT64, 1, D(1), 2, 1024, g->wseed);
        }
        size_t nd = node(g, "Mod", "A,B", "Y");
        oc_builder_attr_int(g->b, nd, "fmod", fl);
        main_node(g, nd, "Mod");
        out_t(g, "Y", fl ? OC_DT_FLOAT : OC_DT_INT64);
    } else {
        static const char *const ops[] = {"Add", "Sub", "Mul", "Div", "Less", "Equal"};
        const char *op = PICK(r, ops);
        bool scalar = chance(r, 0.5);
        cfg_s(g, "op", op);
        cfg_s(g, "broadcast", scalar ? "scalar" : "same");
        input(g, "A", OC_DT_INT64, rank, d, 1000);
        if (scalar)
            oc_builder_random(g->b, "B", OC_DT_INT64, 1, D(1), 1, 64, g->wseed);
        else if (!strcmp(op, "Div"))
            oc_builder_random(g->b, "B", OC_DT_INT64, rank, d, 1, 64, g->wseed);
        else
            input(g, "B", OC_DT_INT64, rank, d, 1000);
        main_node(g, node(g, op, "A,B", "Y"), op);
        bool cmp = !strcmp(op, "Less") || !strcmp(op, "Equal");
        out_t(g, "Y", cmp ? OC_DT_BOOL : OC_DT_INT64);
    }
}

/* ---- convolutions of 1 to 4 input channels ----
 * The first layer of a network on raw signals: waveform encoders (wav2vec,
 * Conv-TasNet, Demucs, SincNet, LEAF: kernels 10..401, strides 1..10),
 * random or learned filter banks on a series (ROCKET, InceptionTime: short
 * kernels dilated 1..32), and 2-D front ends on a spectrogram or a
 * one-channel image.  The conv families draw 3 (stems) or >= 8 input
 * channels only.  C_in 1 (60%), 2 or 4; 1-D 65% (waveform 35%, filter
 * bank 35%, a short first layer 30%), 2-D 35% (spectrogram 60%, image
 * 40%); Conv 60%, Conv+Relu 40%. */
static void gen_thinconv(gen *g)
{
    rng *r = &g->r;
    static const double cw[] = {0.6, 0.2, 0.2};
    static const int64_t cins[] = {1, 2, 4};
    static const char *const pads[] = {"valid", "same"};
    conv_nd c = {.group = 1, .s = {1, 1}, .d = {1, 1}};
    c.cin = cins[WPICK(r, cw)];
    const char *kind, *pad;
    if (chance(r, 0.65)) {
        c.nsp = 1;
        static const double kw[] = {0.35, 0.35, 0.3};
        size_t kk = WPICK(r, kw);
        if (kk == 0) {
            kind = "waveform";
            c.k[0] = PICK(r, ((const int64_t[]){10, 16, 20, 32, 64, 80, 160, 251, 400, 401}));
            c.s[0] = c.k[0] >= 251 ? PICK(r, ((const int64_t[]){1, 1, 10, 160}))
                                   : PICK(r, ((const int64_t[]){c.k[0] / 2, c.k[0] / 2, 5, 8}));
            c.cout = channels(r, 16, 512);
            c.in[0] = logu(r, 4000, 64000);
            pad = pads[chance(r, 0.4)];
        } else if (kk == 1) {
            kind = "filterbank";
            c.k[0] = PICK(r, ((const int64_t[]){3, 5, 7, 9, 9, 11, 19, 39}));
            c.d[0] = (int64_t)1 << irange(r, 0, 5);
            c.cout = logu(r, 4, 128);
            c.in[0] = logu(r, 64, 4096);
            pad = pads[chance(r, 0.5)];
        } else {
            kind = "first";
            c.k[0] = PICK(r, ((const int64_t[]){3, 3, 5, 7}));
            c.s[0] = chance(r, 0.3) ? 2 : 1;
            c.cout = channels(r, 16, 256);
            c.in[0] = logu(r, 128, 16000);
            pad = pads[1];
        }
        conv_nd_pad(&c, 0, pad);
        c.n = logu(r, 1, 32);
    } else {
        c.nsp = 2;
        if (chance(r, 0.6)) {
            kind = "spectrogram";
            c.in[0] = PICK(r, ((const int64_t[]){40, 64, 80, 96, 128}));
            c.in[1] = logu(r, 32, 1000);
        } else {
            kind = "image";
            c.in[0] = c.in[1] = PICK(r, ((const int64_t[]){28, 32, 48, 64, 96, 128, 256}));
        }
        c.k[0] = c.k[1] = PICK(r, ((const int64_t[]){3, 3, 3, 5, 7}));
        if (chance(r, 0.3))
            c.s[0] = c.s[1] = 2;
        c.cout = channels(r, 8, 128);
        pad = pads[chance(r, 0.8)];
        conv_nd_pad(&c, 0, pad);
        conv_nd_pad(&c, 1, pad);
        c.n = logu(r, 1, 64);
    }
    c.bias = chance(r, 0.8);
    bool relu = chance(r, 0.4);
    conv_nd_finish(g, &c, kind, pad, relu ? "Relu" : NULL);
}

/* ---- recurrent layers ----
 * LSTM 45%, GRU 40%, RNN (tanh) 15%, as PyTorch exports them: one step
 * (a cell unrolled by hand or an autoregressive decoder: seq 1) 30%, else
 * a sequence of 8..512 steps, bidirectional for 30% of those; hidden
 * 32..1024 (the usual sizes 60%), the input the hidden size 40%, else
 * 16..1024; batch 1..64; bias 85%; an initial state 50%; GRU with
 * linear_before_reset 1 (PyTorch's) 80%.  Y and Y_h are outputs. */
static void gen_rnn(gen *g)
{
    rng *r = &g->r;
    static const double ow[] = {0.45, 0.4, 0.15};
    static const char *const ops[] = {"LSTM", "GRU", "RNN"};
    static const int64_t gates[] = {4, 3, 1};
    size_t o = WPICK(r, ow);
    const char *op = ops[o];
    bool step = chance(r, 0.3);
    int64_t seq = step ? 1 : logu(r, 8, 512);
    int64_t dirs = !step && chance(r, 0.3) ? 2 : 1;
    int64_t hid = chance(r, 0.6) ? PICK(r, ((const int64_t[]){32, 64, 128, 128, 256, 256, 512,
                                                                 768, 1024}))
                                 : logu(r, 32, 1024);
    int64_t inp = chance(r, 0.4) ? hid : logu(r, 16, 1024);
    int64_t n = logu(r, 1, 64);
    bool bias = chance(r, 0.85), init = chance(r, 0.5);
    bool lbr = o == 1 && chance(r, 0.8);
    int64_t gh = gates[o] * hid;
    cfg_s(g, "op", op);
    cfg_s(g, "kind", step ? "step" : "sequence");
    cfg_i(g, "seq", seq);
    cfg_i(g, "batch", n);
    cfg_i(g, "input", inp);
    cfg_i(g, "hidden", hid);
    cfg_b(g, "bidirectional", dirs == 2);
    cfg_b(g, "bias", bias);
    cfg_b(g, "initial_state", init);
    in_f(g, "X", SHAPE(seq, n, inp));
    double a = 1.0 / sqrt((double)hid); /* PyTorch's initialisation range */
    weight(g, "W", SHAPE(dirs, gh, inp), -a, a);
    weight(g, "R", SHAPE(dirs, gh, hid), -a, a);
    if (bias)
        weight(g, "B", SHAPE(dirs, 2 * gh), -a, a);
    if (init) {
        weight(g, "H0", SHAPE(dirs, n, hid), -1, 1);
        if (o == 0)
            weight(g, "C0", SHAPE(dirs, n, hid), -1, 1);
    }
    char in[40];
    snprintf(in, sizeof in, "X,W,R%s%s", bias ? ",B" : init ? "," : "",
             !init ? "" : o == 0 ? ",,H0,C0" : ",,H0");
    size_t nd = node(g, op, in, "Y,Y_h");
    oc_builder_attr_int(g->b, nd, "hidden_size", hid);
    oc_builder_attr_string(g->b, nd, "direction", dirs == 2 ? "bidirectional" : "forward");
    if (o == 1)
        oc_builder_attr_int(g->b, nd, "linear_before_reset", lbr);
    main_node(g, nd, op);
    out_f(g, "Y");
    out_f(g, "Y_h");
}

/* ---- selection and indexing between layers ----
 * The kernels model code and unrolled algorithms run around their layers,
 * which no other family drew: TopK (15%: beam search, top-k routing, the
 * k nearest of 16..16384 points, PointRend's uncertain points; tiny 40%,
 * else 1..16384 rows of 16..16384, at most 2^24 elements, over the last
 * axis; K 1..32 half the time, else up to 512), ArgMax or
 * ArgMin (10%), CumSum (10%: exclusive or reversed 20% each), a
 * ScatterElements (15%) or ScatterND of rows (10%) writing into a tensor,
 * reduction none or add, Where on a mask (10%: the other operand a scalar
 * as masked_fill has it 40%), Expand of a size-1 axis (7%), Cast between
 * float, int64, int32 and bool (10%) and a Concat of 8..512 small pieces
 * (13%: the stacked steps of an unrolled loop; at most four distinct
 * inputs, repeated).  Shapes are tiny (1..4096 elements, as an unrolled
 * algorithm's steps are) 45% of the time, else 2^11..2^22 elements. */
static int select_shape(rng *r, int64_t *d)
{
    return chance(r, 0.45) ? small_shape(r, d) : any_shape(r, d);
}

static void select_concat(gen *g)
{
    rng *r = &g->r;
    int64_t pieces = logu(r, 8, 512), d[3];
    int rank = (int)irange(r, 2, 3);
    d[0] = logu(r, 1, 16);
    for (int i = 1; i < rank; i++)
        d[i] = logu(r, 1, 64);
    int64_t axis = chance(r, 0.6) ? rank - 1 : 1;
    if (elems(rank, d) * (double)pieces > 4194304) {
        g->reject = true;
        return;
    }
    enum { DISTINCT = 4 }; /* a sample has at most 8 inputs */
    cfg_shape(g, "piece", rank, d);
    cfg_i(g, "inputs", pieces);
    cfg_i(g, "axis", axis);
    char names[4 * 512 + 1] = "";
    for (int i = 0; i < DISTINCT; i++) {
        char nm[4];
        snprintf(nm, sizeof nm, "X%d", i);
        in_f(g, nm, rank, d);
    }
    for (int64_t i = 0; i < pieces; i++) {
        size_t l = strlen(names);
        snprintf(names + l, sizeof names - l, "%sX%d", i ? "," : "", (int)(i % DISTINCT));
    }
    size_t n = node(g, "Concat", names, "Y");
    oc_builder_attr_int(g->b, n, "axis", axis);
    main_node(g, n, "Concat");
    out_f(g, "Y");
}

static void select_scatter(gen *g, bool rows)
{
    rng *r = &g->r;
    int64_t x[3], ix[3];
    int rank = (int)irange(r, 2, 3);
    bool tiny = chance(r, 0.45);
    x[0] = logu(r, 1, 16);
    for (int i = 1; i < rank; i++)
        x[i] = logu(r, tiny ? 1 : 16, tiny ? 64 : 2048);
    double e = elems(rank, x);
    if (e > 4194304 || (!tiny && e < 2048)) {
        g->reject = true;
        return;
    }
    const char *op = rows ? "ScatterND" : "ScatterElements";
    bool add = chance(r, 0.4);
    int64_t axis = 0;
    cfg_s(g, "op", op);
    cfg_shape(g, "shape", rank, x);
    cfg_s(g, "reduction", add ? "add" : "none");
    if (rows) { /* rows of the first axis: indices [K, 1], updates [K, ...] */
        int64_t k = logu(r, 1, x[0]);
        ix[0] = k, ix[1] = 1;
        cfg_i(g, "rows", k);
        in_f(g, "X", rank, x);
        input(g, "I", OC_DT_INT64, 2, ix, x[0]);
        int64_t u[3] = {k, x[1], rank == 3 ? x[2] : 0};
        in_f(g, "U", rank, u);
    } else { /* the indices' shape the data's, one axis cut to K */
        axis = chance(r, 0.6) ? rank - 1 : 1;
        memcpy(ix, x, sizeof ix);
        ix[axis] = logu(r, 1, x[axis]);
        cfg_i(g, "axis", axis);
        cfg_shape(g, "indices", rank, ix);
        in_f(g, "X", rank, x);
        input(g, "I", OC_DT_INT64, rank, ix, x[axis]);
        in_f(g, "U", rank, ix);
    }
    size_t n = node(g, op, "X,I,U", "Y");
    if (!rows)
        oc_builder_attr_int(g->b, n, "axis", axis);
    oc_builder_attr_string(g->b, n, "reduction", add ? "add" : "none");
    main_node(g, n, op);
    out_f(g, "Y");
}

static void select_topk(gen *g)
{
    rng *r = &g->r;
    int64_t d[4];
    int rank;
    if (chance(r, 0.4)) {
        rank = small_shape(r, d);
    } else { /* rows of a long axis */
        rank = 2;
        d[0] = logu(r, 1, 16384), d[1] = logu(r, 16, 16384);
        if (elems(rank, d) > 16777216)
            rank = 0;
    }
    if (!rank) {
        g->reject = true;
        return;
    }
    int64_t axis = rank - 1, k = chance(r, 0.5) ? logu(r, 1, 32) : logu(r, 1, 512);
    if (k > d[axis])
        k = d[axis];
    bool largest = chance(r, 0.8);
    cfg_shape(g, "shape", rank, d);
    cfg_i(g, "axis", axis);
    cfg_i(g, "k", k);
    cfg_b(g, "largest", largest);
    in_f(g, "X", rank, d);
    oc_builder_ints(g->b, "K", 1, D(1), &k);
    size_t n = node(g, "TopK", "X,K", "Y,Yi");
    oc_builder_attr_int(g->b, n, "axis", axis);
    oc_builder_attr_int(g->b, n, "largest", largest);
    main_node(g, n, "TopK");
    out_f(g, "Y");
    out_t(g, "Yi", OC_DT_INT64);
}

static void gen_select(gen *g)
{
    rng *r = &g->r;
    static const double kw[] = {0.15, 0.1, 0.1, 0.15, 0.1, 0.1, 0.07, 0.1, 0.13};
    static const char *const kinds[] = {"topk",  "arg",    "cumsum", "scatter", "scatter_nd",
                                        "where", "expand", "cast",   "concat"};
    size_t kind = WPICK(r, kw);
    cfg_s(g, "kind", kinds[kind]);
    if (kind == 0) {
        select_topk(g);
        return;
    }
    if (kind == 3 || kind == 4) {
        select_scatter(g, kind == 4);
        return;
    }
    if (kind == 8) {
        select_concat(g);
        return;
    }
    int64_t d[5];
    int rank = select_shape(r, d);
    if (!rank) {
        g->reject = true;
        return;
    }
    int64_t axis = chance(r, 0.7) ? rank - 1 : irange(r, 0, rank - 1);
    size_t n;
    cfg_shape(g, "shape", rank, d);
    switch (kind) {
    case 1: { /* ArgMax, ArgMin */
        const char *op = chance(r, 0.7) ? "ArgMax" : "ArgMin";
        bool keep = chance(r, 0.5);
        cfg_s(g, "op", op);
        cfg_i(g, "axis", axis);
        cfg_b(g, "keepdims", keep);
        in_f(g, "X", rank, d);
        n = node(g, op, "X", "Y");
        oc_builder_attr_int(g->b, n, "axis", axis);
        oc_builder_attr_int(g->b, n, "keepdims", keep);
        main_node(g, n, op);
        out_t(g, "Y", OC_DT_INT64);
        return;
    }
    case 2: { /* CumSum */
        bool excl = chance(r, 0.2), rev = chance(r, 0.2);
        cfg_i(g, "axis", axis);
        cfg_b(g, "exclusive", excl);
        cfg_b(g, "reverse", rev);
        in_f(g, "X", rank, d);
        oc_builder_ints(g->b, "A", 0, NULL, &axis);
        n = node(g, "CumSum", "X,A", "Y");
        oc_builder_attr_int(g->b, n, "exclusive", excl);
        oc_builder_attr_int(g->b, n, "reverse", rev);
        main_node(g, n, "CumSum");
        out_f(g, "Y");
        return;
    }
    case 5: { /* Where */
        static const char *const bnames[] = {"same", "row", "scalar"};
        size_t bc = WPICK(r, ((const double[]){0.4, 0.2, 0.4}));
        int64_t c[5];
        memcpy(c, d, sizeof c);
        if (bc == 1)
            c[rank - 1] = 1; /* one flag per row */
        cfg_s(g, "operands", bnames[bc]);
        input(g, "C", OC_DT_BOOL, rank, c, 0);
        in_f(g, "X", rank, d);
        if (bc == 2) /* masked_fill: a scalar on one side */
            oc_builder_floats(g->b, "B", 0, NULL, (const float[]){-1e4f});
        else
            in_f(g, "B", rank, d);
        n = node(g, "Where", "C,X,B", "Y");
        main_node(g, n, "Where");
        out_f(g, "Y");
        return;
    }
    case 6: { /* Expand: a size-1 axis to its full size */
        int64_t s[5];
        memcpy(s, d, sizeof s);
        s[axis] = 1;
        if (d[axis] < 2) {
            g->reject = true;
            return;
        }
        cfg_i(g, "axis", axis);
        in_f(g, "X", rank, s);
        oc_builder_ints(g->b, "S", 1, D((int64_t)rank), d);
        n = node(g, "Expand", "X,S", "Y");
        main_node(g, n, "Expand");
        out_f(g, "Y");
        return;
    }
    default: { /* Cast */
        static const oc_dtype from[] = {OC_DT_FLOAT, OC_DT_INT64, OC_DT_BOOL, OC_DT_FLOAT,
                                        OC_DT_INT32, OC_DT_INT64};
        static const oc_dtype to[] = {OC_DT_INT64, OC_DT_FLOAT, OC_DT_FLOAT, OC_DT_INT32,
                                      OC_DT_FLOAT, OC_DT_INT32};
        size_t p = next(r) % (sizeof from / sizeof from[0]);
        cfg_s(g, "from", oc_dtype_name(from[p]));
        cfg_s(g, "to", oc_dtype_name(to[p]));
        input(g, "X", from[p], rank, d, from[p] == OC_DT_FLOAT || from[p] == OC_DT_BOOL ? 0 : 1000);
        n = node(g, "Cast", "X", "Y");
        oc_builder_attr_int(g->b, n, "to", to[p]);
        main_node(g, n, "Cast");
        out_t(g, "Y", to[p]);
        return;
    }
    }
}

static void (*const generators[OC_FAM_COUNT_])(gen *) = {
    [OC_FAM_CONV] = gen_conv,
    [OC_FAM_CONVTRANSPOSE] = gen_convtranspose,
    [OC_FAM_GEMM] = gen_gemm,
    [OC_FAM_MATMUL] = gen_matmul,
    [OC_FAM_POOL] = gen_pool,
    [OC_FAM_BATCHNORM] = gen_batchnorm,
    [OC_FAM_LAYERNORM] = gen_layernorm,
    [OC_FAM_SOFTMAX] = gen_softmax,
    [OC_FAM_ELEMENTWISE] = gen_elementwise,
    [OC_FAM_ACTIVATION] = gen_activation,
    [OC_FAM_SWISH] = gen_swish,
    [OC_FAM_REDUCE] = gen_reduce,
    [OC_FAM_CONCAT] = gen_concat,
    [OC_FAM_SPLIT] = gen_split,
    [OC_FAM_SLICE] = gen_slice,
    [OC_FAM_TRANSPOSE] = gen_transpose,
    [OC_FAM_RESHAPE] = gen_reshape,
    [OC_FAM_RESIZE] = gen_resize,
    [OC_FAM_PAD] = gen_pad,
    [OC_FAM_GATHER] = gen_gather,
    [OC_FAM_QCONV] = gen_qconv,
    [OC_FAM_QMATMUL] = gen_qmatmul,
    [OC_FAM_QELEMENTWISE] = gen_qelementwise,
    [OC_FAM_CONV1D] = gen_conv1d,
    [OC_FAM_CONV3D] = gen_conv3d,
    [OC_FAM_UNARY] = gen_unary,
    [OC_FAM_DEPTHTOSPACE] = gen_depthtospace,
    [OC_FAM_INSTANCENORM] = gen_instancenorm,
    [OC_FAM_GCONV] = gen_gconv,
    [OC_FAM_AXIS_SOFTMAX] = gen_axis_softmax,
    [OC_FAM_BROADCAST] = gen_broadcast,
    [OC_FAM_REDUCE_AXES] = gen_reduce_axes,
    [OC_FAM_LONGCONV] = gen_longconv,
    [OC_FAM_PERMUTE] = gen_permute,
    [OC_FAM_GATHER_AXIS] = gen_gather_axis,
    [OC_FAM_GATHER_ELEMENTS] = gen_gather_elements,
    [OC_FAM_EINSUM] = gen_einsum,
    [OC_FAM_SMALL] = gen_small,
    [OC_FAM_UPCONV] = gen_upconv,
    [OC_FAM_QMAXPOOL] = gen_qmaxpool,
    [OC_FAM_PRELU] = gen_prelu,
    [OC_FAM_LOGIC] = gen_logic,
    [OC_FAM_THINCONV] = gen_thinconv,
    [OC_FAM_RNN] = gen_rnn,
    [OC_FAM_SELECT] = gen_select,
    [OC_FAM_FRAMEBANK] = gen_framebank,
    [OC_FAM_BANDCONV] = gen_bandconv,
};

/* ---- drawing ---- */

enum { OC_SAMPLE_DEFAULT_OPSET = 17, MAX_DRAWS = 1000 };

static uint64_t weight_seed(const oc_sample *s)
{
    char key[64];
    snprintf(key, sizeof key, "%s/%llu", oc_family_label(s->family),
             (unsigned long long)s->index);
    return oc_hash_seed(s->seed, key);
}

/* Run the family's generator from stream state `state` into a fresh
 * builder; s gets the config, inputs and nodes.  *next_state is where the
 * stream stood after the draw. */
static oc_status run_gen(oc_sample *s, uint64_t state, bool with_data, oc_builder **out,
                         bool *reject, uint64_t *next_state, oc_error *err)
{
    *out = NULL;
    json_decref(s->config);
    s->config = json_object();
    s->n_inputs = 0;
    s->n_fused = 0;
    s->main_node = 0;
    s->op[0] = s->pattern[0] = '\0';
    s->opset = OC_SAMPLE_DEFAULT_OPSET;
    oc_builder *b = oc_builder_new(OC_SAMPLE_DEFAULT_OPSET);
    if (!b || !s->config) {
        oc_builder_free(b);
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    }
    oc_builder_elide_random(b, !with_data);
    gen g = {.r = {state}, .b = b, .s = s, .wseed = weight_seed(s)};
    generators[s->family](&g);
    *reject = g.reject;
    if (next_state)
        *next_state = g.r.s;
    oc_status st = oc_builder_status(b, err);
    if (st) {
        oc_builder_free(b);
        return st;
    }
    *out = b;
    return OC_OK;
}

/* Analyse a packed model: FLOPs and tensor bytes, and check that every
 * shape is known. */
static oc_status measure(const oc_sample *s, oc_builder *b, uint64_t *flops,
                         uint64_t *bytes, oc_error *err)
{
    void *buf;
    size_t len;
    oc_status st = oc_builder_pack(b, &buf, &len, err);
    if (st)
        return st;
    oc_model *m;
    st = oc_model_load_buffer(buf, len, s->pattern, &m, err);
    free(buf);
    if (st)
        return st;
    oc_analysis *a;
    st = oc_analyze(m, NULL, &a, err);
    if (st) {
        oc_model_free(m);
        return st;
    }
    const oc_graph *g = oc_model_graph(m);
    const oc_totals *t = oc_analysis_totals(a);
    uint64_t total = t->weight_bytes;
    bool ok = t->unsupported_nodes == 0 && t->unknown_shape_nodes == 0;
    for (size_t i = 0; ok && i < g->n_nodes; i++) {
        const oc_node_cost *c = oc_analysis_node_cost(a, i);
        ok = c->shapes_known && c->supported;
        const oc_node *n = &g->nodes[i];
        for (size_t k = 0; ok && k < n->n_outputs; k++) {
            uint64_t e;
            const oc_tinfo *ti = oc_analysis_value(a, n->outputs[k]);
            ok = oc_tinfo_numel(ti, &e) &&
                 oc_add_u64(total, e * oc_dtype_size(ti->dtype), &total);
        }
    }
    for (size_t i = 0; ok && i < g->n_inputs; i++) {
        uint64_t e;
        const oc_tinfo *ti = oc_analysis_value(a, g->inputs[i]);
        ok = oc_tinfo_numel(ti, &e) &&
             oc_add_u64(total, e * oc_dtype_size(ti->dtype), &total);
    }
    *flops = t->flops;
    *bytes = total;
    oc_analysis_free(a);
    oc_model_free(m);
    if (!ok)
        return oc_error_set(err, OC_ERR_INTERNAL, s->pattern,
                            "sampler: %s sample %llu has a node the analyzer "
                            "cannot shape or cost",
                            oc_family_label(s->family), (unsigned long long)s->index);
    return OC_OK;
}

oc_status oc_sample_draw(oc_family f, uint64_t seed, uint64_t index,
                         const oc_sample_limits *lim, oc_sample *out, oc_error *err)
{
    memset(out, 0, sizeof *out);
    if ((unsigned)f >= OC_FAM_COUNT_)
        return oc_error_set(err, OC_ERR_USAGE, NULL, "family %d out of range", (int)f);
    oc_sample_limits l = lim ? *lim : OC_SAMPLE_LIMITS_DEFAULT;
    out->family = f;
    out->seed = seed;
    out->index = index;
    char key[64];
    snprintf(key, sizeof key, "sampler/%s/%llu", oc_family_label(f),
             (unsigned long long)index);
    uint64_t state = oc_hash_seed(seed, key);
    for (unsigned draw = 0; draw < MAX_DRAWS; draw++) {
        oc_builder *b;
        bool reject = false;
        uint64_t after = 0;
        oc_status st = run_gen(out, state, false, &b, &reject, &after, err);
        if (st) {
            oc_sample_free(out);
            return st;
        }
        uint64_t flops = 0, bytes = 0;
        if (!reject) {
            st = measure(out, b, &flops, &bytes, err);
            if (st) {
                oc_builder_free(b);
                oc_sample_free(out);
                return st;
            }
        }
        oc_builder_free(b);
        if (!reject && flops <= l.max_flops && bytes <= l.max_tensor_bytes) {
            out->redraws = draw;
            out->flops = flops;
            out->tensor_bytes = bytes;
            out->stream_ = state;
            return OC_OK;
        }
        state = after;
    }
    oc_sample_free(out);
    return oc_error_set(err, OC_ERR_INTERNAL, NULL,
                        "sampler: no %s draw within the limits after %d tries",
                        oc_family_label(f), MAX_DRAWS);
}

oc_status oc_sample_build(const oc_sample *s, bool with_data, oc_builder **out,
                          oc_error *err)
{
    oc_sample tmp = *s;
    tmp.config = NULL;
    bool reject = false;
    oc_status st = run_gen(&tmp, s->stream_, with_data, out, &reject, NULL, err);
    json_decref(tmp.config);
    if (!st && (reject || tmp.n_inputs != s->n_inputs || tmp.main_node != s->main_node)) {
        oc_builder_free(*out);
        *out = NULL;
        return oc_error_set(err, OC_ERR_INTERNAL, NULL,
                            "sampler: replaying %s sample %llu gave another model",
                            oc_family_label(s->family), (unsigned long long)s->index);
    }
    return st;
}

oc_status oc_sample_save(const oc_sample *s, const char *path, oc_error *err)
{
    oc_builder *b;
    oc_status st = oc_sample_build(s, true, &b, err);
    if (st)
        return st;
    st = oc_builder_save(b, path, err);
    oc_builder_free(b);
    return st;
}

void oc_sample_free(oc_sample *s)
{
    if (!s)
        return;
    json_decref(s->config);
    s->config = NULL;
}
