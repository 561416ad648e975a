/* test_plan.c - the ort-cpu fusion plan on real exported graphs. */
#include "harness.h"
#include "onnx/build.h"
#include "predictor/memory.h"
#include "predictor/plan.h"
#include "predictor/result.h"

#include <stdlib.h>
#include <string.h>

typedef struct counts {
    size_t run, folded, removed, as_layernorm, as_gelu, conv_with_act, conv_with_add;
    size_t swish, sigmoid_alone; /* Sigmoid kernels with and without a fused Mul */
    size_t inserted;             /* kernels with no node of their own */
} counts;

static counts plan_counts(const char *path, int64_t batch, const char *seq_input)
{
    counts c = {0};
    oc_model *m;
    oc_analysis *a;
    oc_error e;
    if (oc_model_load_file(path, &m, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        t_failed++;
        return c;
    }
    oc_input_override ov = {.name = seq_input, .rank = 2, .dims = {batch, 128}};
    oc_analyze_opts o = {.batch = batch, .overrides = &ov, .n_overrides = seq_input ? 1 : 0};
    if (oc_analyze(m, &o, &a, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        t_failed++;
        oc_model_free(m);
        return c;
    }
    oc_arena *ar = oc_arena_new();
    oc_plan p;
    oc_plan_opts po = {.target = "ort-cpu", .nchwc_block = 0};
    CHECK_EQ_INT(oc_plan_build(a, &po, &p, ar, &e), OC_OK);
    const oc_graph *g = oc_model_graph(m);
    size_t covered = 0;
    for (size_t k = 0; k < p.n_kernels; k++) {
        const oc_kernel *kn = &p.kernels[k];
        if (kn->main == OC_PLAN_INSERTED) {
            c.inserted++;
            continue;
        }
        covered += 1 + kn->n_fused;
        /* a kernel's id names it as its op string does */
        if (kn->kid != OC_OPID_UNKNOWN)
            CHECK_EQ_STR(oc_kernel_id_name(kn->kid), kn->op);
        c.run += kn->kind == OC_KERNEL_RUN;
        c.folded += kn->kind == OC_KERNEL_FOLDED;
        c.removed += kn->kind == OC_KERNEL_REMOVED;
        if (kn->as_op && !strcmp(kn->as_op, "LayerNormalization"))
            c.as_layernorm++;
        if (kn->as_op && !strcmp(kn->as_op, "Gelu"))
            c.as_gelu++;
        if (!strcmp(g->nodes[kn->main].op, "Sigmoid") && kn->kind == OC_KERNEL_RUN) {
            bool mul = kn->n_fused == 1 && !strcmp(g->nodes[kn->fused[0]].op, "Mul");
            c.swish += mul;
            c.sigmoid_alone += kn->n_fused == 0;
        }
        if (!strcmp(g->nodes[kn->main].op, "Conv")) {
            for (size_t f = 0; f < kn->n_fused; f++) {
                const char *op = g->nodes[kn->fused[f]].op;
                c.conv_with_act += !strcmp(op, "Relu") || !strcmp(op, "Clip");
                c.conv_with_add += !strcmp(op, "Add");
            }
        }
    }
    CHECK_EQ_INT(covered, g->n_nodes); /* every node in exactly one kernel */
    for (size_t i = 0; i < g->n_nodes; i++)
        CHECK(p.kernel_of[i] < p.n_kernels);
    oc_arena_free(ar);
    oc_analysis_free(a);
    oc_model_free(m);
    return c;
}

/* Plan a model made with the builder (b is freed): kernels that run,
 * counted per op as the profiler names them. */
typedef struct opcount {
    size_t run, inserted;
    char ops[32][32];
    size_t n_of[32], n_ops;
} opcount;

static size_t count_of(const opcount *c, const char *op)
{
    for (size_t i = 0; i < c->n_ops; i++)
        if (!strcmp(c->ops[i], op))
            return c->n_of[i];
    return 0;
}

static opcount plan_model(oc_model *m, int block, const oc_analyze_opts *bind);

static opcount plan_built(oc_builder *b, int block, const oc_analyze_opts *bind)
{
    opcount c = {0};
    void *buf = NULL;
    size_t size = 0;
    oc_error e;
    oc_model *m = NULL;
    CHECK_EQ_INT(oc_builder_pack(b, &buf, &size, &e), OC_OK);
    oc_builder_free(b);
    if (!buf || oc_model_load_buffer(buf, size, "built", &m, &e)) {
        t_failed++;
        free(buf);
        return c;
    }
    c = plan_model(m, block, bind);
    free(buf);
    return c;
}

/* A model of tests/data (bind: the batch 1), planned as plan_built does. */
static opcount plan_file(const char *file, int block)
{
    char path[512];
    oc_error e;
    oc_model *m = NULL;
    snprintf(path, sizeof path, "%s/data/%s", OC_TESTS_DIR, file);
    if (oc_model_load_file(path, &m, &e)) {
        fprintf(stderr, "%s: %s\n", path, e.msg);
        t_failed++;
        opcount c = {0};
        return c;
    }
    oc_analyze_opts bind = {.batch = 1};
    return plan_model(m, block, &bind);
}

/* Plans m and frees it. */
static opcount plan_model(oc_model *m, int block, const oc_analyze_opts *bind)
{
    opcount c = {0};
    oc_error e;
    oc_analysis *a = NULL, *s = NULL;
    oc_analyze_opts sv = {.session_view = true};
    CHECK_EQ_INT(oc_analyze(m, bind, &a, &e), OC_OK);
    if (!a)
        fprintf(stderr, "%s\n", e.msg);
    CHECK_EQ_INT(oc_analyze(m, &sv, &s, &e), OC_OK);
    oc_arena *ar = oc_arena_new();
    oc_plan p;
    oc_plan_opts po = {.target = "ort-cpu", .nchwc_block = block, .session = s};
    if (a && s && oc_plan_build(a, &po, &p, ar, &e) == OC_OK) {
        for (size_t k = 0; k < p.n_kernels; k++) {
            const oc_kernel *kn = &p.kernels[k];
            if (kn->kind != OC_KERNEL_RUN)
                continue;
            c.run++;
            c.inserted += kn->main == OC_PLAN_INSERTED;
            size_t i = 0;
            while (i < c.n_ops && strcmp(c.ops[i], kn->op))
                i++;
            if (i == c.n_ops && c.n_ops < 32)
                snprintf(c.ops[c.n_ops++], sizeof c.ops[0], "%s", kn->op);
            if (i < 32)
                c.n_of[i]++;
        }
    } else {
        t_failed++;
    }
    oc_arena_free(ar);
    oc_analysis_free(s);
    oc_analysis_free(a);
    oc_model_free(m);
    return c;
}

/* Two identical Shape -> Gather chains of X feeding a Reshape of X. */
static oc_builder *shape_chains(int64_t batch)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {batch, 4, 8}, one[] = {1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_ints(b, "i0", 0, NULL, (int64_t[]){0});
    oc_builder_ints(b, "i0b", 0, NULL, (int64_t[]){0});
    oc_builder_ints(b, "ax", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "m1", 1, one, (int64_t[]){-1});
    oc_builder_node(b, "Shape", "s1", "X", "S1");
    oc_builder_node(b, "Shape", "s2", "X", "S2");
    oc_builder_node(b, "Gather", "g1", "S1,i0", "G1");
    oc_builder_node(b, "Gather", "g2", "S2,i0b", "G2");
    oc_builder_node(b, "Unsqueeze", "u1", "G1,ax", "U1");
    oc_builder_node(b, "Unsqueeze", "u2", "G2,ax", "U2");
    oc_builder_node(b, "Concat", "c", "U1,m1", "C");
    size_t cn = oc_builder_node(b, "Concat", "c2", "U2,m1", "C2");
    oc_builder_attr_int(b, cn, "axis", 0);
    oc_builder_attr_int(b, cn - 1, "axis", 0);
    oc_builder_node(b, "Reshape", "r1", "X,C", "Y1");
    oc_builder_attr_int(b, oc_builder_node(b, "Cast", "cast", "C2", "C3"), "to", 7);
    oc_builder_node(b, "Identity", "id", "C3", "Y2");
    oc_builder_output(b, "Y1", OC_DT_FLOAT, -1, NULL);
    oc_builder_output(b, "Y2", OC_DT_INT64, -1, NULL);
    return b;
}

/* Reshape(X, Concat(piece, [-1])) with X [batch, 4, 8]: piece is
 * Slice(Shape(X), 0, 2) (two elements) when `slice`, else a one-element
 * Unsqueeze(Gather(Shape(X), 2)) at position 0 (not X's own dim 0). */
static oc_builder *reshape_pieces(bool slice)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {-1, 4, 8}, one[] = {1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_ints(b, "st", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "en", 1, one, (int64_t[]){2});
    oc_builder_ints(b, "i2", 0, NULL, (int64_t[]){2});
    oc_builder_ints(b, "ax", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "m1", 1, one, (int64_t[]){-1});
    oc_builder_node(b, "Shape", "s", "X", "S");
    if (slice) {
        oc_builder_node(b, "Slice", "sl", "S,st,en,ax", "P");
    } else {
        oc_builder_node(b, "Gather", "g", "S,i2", "G");
        oc_builder_node(b, "Unsqueeze", "u", "G,ax", "P");
    }
    oc_builder_attr_int(b, oc_builder_node(b, "Concat", "c", "P,m1", "C"), "axis", 0);
    oc_builder_node(b, "Reshape", "r", "X,C", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* The erf Gelu an export spells out (no Gelu op before opset 20):
 * y = x * (1 + erf(x / sqrt 2)) * 0.5, its constants and intermediate
 * values named after y. */
static void add_erf_gelu(oc_builder *b, const char *x, const char *y)
{
    char sqrt2[64], one[64], half[64], d[64], e[64], e1[64], g[64], io[160];
    snprintf(sqrt2, sizeof sqrt2, "%s_sqrt2", y);
    snprintf(one, sizeof one, "%s_one", y);
    snprintf(half, sizeof half, "%s_half", y);
    snprintf(d, sizeof d, "%s_div", y);
    snprintf(e, sizeof e, "%s_erf", y);
    snprintf(e1, sizeof e1, "%s_erf1", y);
    snprintf(g, sizeof g, "%s_xerf1", y);
    oc_builder_floats(b, sqrt2, 0, NULL, (float[]){1.4142135f});
    oc_builder_floats(b, one, 0, NULL, (float[]){1.0f});
    oc_builder_floats(b, half, 0, NULL, (float[]){0.5f});
    snprintf(io, sizeof io, "%s,%s", x, sqrt2);
    oc_builder_node(b, "Div", d, io, d);
    oc_builder_node(b, "Erf", e, d, e);
    snprintf(io, sizeof io, "%s,%s", e, one);
    oc_builder_node(b, "Add", e1, io, e1);
    snprintf(io, sizeof io, "%s,%s", x, e1);
    oc_builder_node(b, "Mul", g, io, g);
    snprintf(io, sizeof io, "%s,%s", g, half);
    oc_builder_node(b, "Mul", y, io, y);
}

/* X [batch, 4, 8] reshaped by a target computed at run time (Slice of
 * its Shape, then -1), MatMul(8 -> 16) + bias, then the erf Gelu. */
static oc_builder *reshaped_gelu(int64_t opset)
{
    oc_builder *b = oc_builder_new(opset);
    int64_t x[] = {-1, 4, 8}, one[] = {1}, w[] = {8, 16}, bias[] = {16};
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_ints(b, "st", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "en", 1, one, (int64_t[]){2});
    oc_builder_ints(b, "ax", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "m1", 1, one, (int64_t[]){-1});
    oc_builder_random(b, "W", OC_DT_FLOAT, 2, w, -1, 1, 1);
    oc_builder_random(b, "B", OC_DT_FLOAT, 1, bias, -1, 1, 2);
    oc_builder_node(b, "Shape", "s", "X", "S");
    oc_builder_node(b, "Slice", "sl", "S,st,en,ax", "P");
    oc_builder_attr_int(b, oc_builder_node(b, "Concat", "c", "P,m1", "C"), "axis", 0);
    oc_builder_node(b, "Reshape", "r", "X,C", "R");
    oc_builder_node(b, "MatMul", "mm", "R,W", "M");
    oc_builder_node(b, "Add", "bias", "B,M", "A");
    add_erf_gelu(b, "A", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* The same computed Reshape of X, scaled by 0.5, then MatMul(8 -> 16). */
static oc_builder *reshaped_scale(int64_t opset)
{
    oc_builder *b = oc_builder_new(opset);
    int64_t x[] = {-1, 4, 8}, one[] = {1}, w[] = {8, 16};
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_ints(b, "st", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "en", 1, one, (int64_t[]){2});
    oc_builder_ints(b, "ax", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "m1", 1, one, (int64_t[]){-1});
    oc_builder_random(b, "W", OC_DT_FLOAT, 2, w, -1, 1, 1);
    oc_builder_floats(b, "half", 0, NULL, (float[]){0.5f});
    oc_builder_node(b, "Shape", "s", "X", "S");
    oc_builder_node(b, "Slice", "sl", "S,st,en,ax", "P");
    oc_builder_attr_int(b, oc_builder_node(b, "Concat", "c", "P,m1", "C"), "axis", 0);
    oc_builder_node(b, "Reshape", "r", "X,C", "R");
    oc_builder_node(b, "Mul", "scale", "R,half", "H");
    oc_builder_node(b, "MatMul", "mm", "H,W", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Conv(3 -> 16) + Relu, then a 1x1 Conv(16 -> 32). */
static oc_builder *two_convs(void)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {1, 3, 32, 32}, w1[] = {16, 3, 3, 3}, w2[] = {32, 16, 1, 1}, b1[] = {16};
    oc_builder_input(b, "X", OC_DT_FLOAT, 4, x);
    oc_builder_random(b, "W1", OC_DT_FLOAT, 4, w1, -1, 1, 1);
    oc_builder_random(b, "B1", OC_DT_FLOAT, 1, b1, -1, 1, 2);
    oc_builder_random(b, "W2", OC_DT_FLOAT, 4, w2, -1, 1, 3);
    size_t c1 = oc_builder_node(b, "Conv", "c1", "X,W1,B1", "A");
    oc_builder_attr_ints(b, c1, "pads", 4, (int64_t[]){1, 1, 1, 1});
    oc_builder_node(b, "Relu", "r", "A", "R");
    oc_builder_node(b, "Conv", "c2", "R,W2", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Conv (16 -> 16, 1x1) of X [1, 16, 8, 8] scaled by a constant S of
 * shape s (rank s_rank) on side `first` (S * C) or second (C * S), then
 * added to X. */
static oc_builder *scaled_conv(int s_rank, const int64_t *s, bool first, const char *op)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {1, 16, 8, 8}, w[] = {16, 16, 1, 1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 4, x);
    oc_builder_random(b, "W", OC_DT_FLOAT, 4, w, -1, 1, 1);
    oc_builder_random(b, "S", OC_DT_FLOAT, s_rank, s, -1, 1, 2);
    oc_builder_node(b, "Conv", "c", "X,W", "C");
    oc_builder_node(b, op, "m", first ? "S,C" : "C,S", "M");
    oc_builder_node(b, "Add", "a", "M,X", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* S = Shape(X) of X [N, 4] (runs: N is symbolic), multiplied twice by -1
 * held in two initializers. */
static oc_builder *negated_shapes(void)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {-1, 4};
    oc_builder_input(b, "X", OC_DT_FLOAT, 2, x);
    oc_builder_ints(b, "m1", 0, NULL, (int64_t[]){-1});
    oc_builder_ints(b, "m1b", 0, NULL, (int64_t[]){-1});
    oc_builder_node(b, "Shape", "s", "X", "S");
    oc_builder_node(b, "Mul", "a", "S,m1", "A");
    oc_builder_node(b, "Mul", "b", "S,m1b", "B");
    oc_builder_node(b, "Add", "y", "A,B", "Y");
    oc_builder_output(b, "Y", OC_DT_INT64, -1, NULL);
    return b;
}

/* torch's Expand shape guard, twice: Where(Equal(S, ConstantOfShape(Shape(S),
 * v) * -1), ConstantOfShape(...), S) with S = Shape(X) of X [N, 4]; the
 * second ConstantOfShape fills with v2. */
static oc_builder *expand_guards(int64_t v2)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {-1, 4}, one[] = {1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 2, x);
    oc_builder_ints(b, "m1", 0, NULL, (int64_t[]){-1});
    oc_builder_node(b, "Shape", "s", "X", "S");
    for (int k = 0; k < 2; k++) {
        char nm[5][16];
        static const char *const what[] = {"t", "c", "m", "e", "w"};
        for (int q = 0; q < 5; q++)
            snprintf(nm[q], sizeof nm[q], "%s%d", what[q], k);
        char io[64];
        snprintf(io, sizeof io, "S");
        oc_builder_node(b, "Shape", nm[0], io, k ? "T1" : "T0");
        size_t c = oc_builder_node(b, "ConstantOfShape", nm[1], k ? "T1" : "T0", k ? "C1" : "C0");
        oc_builder_attr_tensor_ints(b, c, "value", 1, one, (int64_t[]){k ? v2 : 1});
        snprintf(io, sizeof io, "C%d,m1", k);
        oc_builder_node(b, "Mul", nm[2], io, k ? "M1" : "M0");
        snprintf(io, sizeof io, "S,M%d", k);
        oc_builder_node(b, "Equal", nm[3], io, k ? "E1" : "E0");
        snprintf(io, sizeof io, "E%d,C%d,S", k, k);
        oc_builder_node(b, "Where", nm[4], io, k ? "W1" : "W0");
    }
    oc_builder_node(b, "Add", "y", "W0,W1", "Y");
    oc_builder_output(b, "Y", OC_DT_INT64, -1, NULL);
    return b;
}

/* Shape of X[-3:-1] (axis 0 of X [N, 8]) filled with zeros. */
static oc_builder *slice_of_symbolic(void)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {-1, 8}, one[] = {1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 2, x);
    oc_builder_ints(b, "st", 1, one, (int64_t[]){-3});
    oc_builder_ints(b, "en", 1, one, (int64_t[]){-1});
    oc_builder_ints(b, "ax", 1, one, (int64_t[]){0});
    oc_builder_node(b, "Slice", "sl", "X,st,en,ax", "Z");
    oc_builder_node(b, "Shape", "s", "Z", "S");
    oc_builder_node(b, "ConstantOfShape", "c", "S", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Where(Not(Equal(Shape(X), 4)), 1, Shape(X)); with `cast`, the Not is
 * also read by a Cast to int64. */
static oc_builder *not_where_graph(bool cast)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {-1, 4};
    oc_builder_input(b, "X", OC_DT_FLOAT, 2, x);
    oc_builder_ints(b, "four", 0, NULL, (int64_t[]){4});
    oc_builder_ints(b, "one", 0, NULL, (int64_t[]){1});
    oc_builder_node(b, "Shape", "s", "X", "S");
    oc_builder_node(b, "Equal", "e", "S,four", "E");
    oc_builder_node(b, "Not", "n", "E", "N");
    oc_builder_node(b, "Where", "w", "N,one,S", "Y");
    oc_builder_output(b, "Y", OC_DT_INT64, -1, NULL);
    if (cast) {
        oc_builder_attr_int(b, oc_builder_node(b, "Cast", "c", "N", "Z"), "to", 7);
        oc_builder_output(b, "Z", OC_DT_INT64, -1, NULL);
    }
    return b;
}

/* X [1, 16, h, w] (h, w < 0: unknown when the model loads) -> 1x1 Conv
 * (16 -> 16) and what `tail` puts after it:
 * 'g' Gelu (the Erf pattern) then a second Conv;
 * 'p' GlobalAveragePool then a second Conv;
 * 'a' a second Conv of X, and the Add of both. */
static oc_builder *blocked_tail(int64_t h, int64_t w, char tail)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {1, 16, h, w}, wd[] = {16, 16, 1, 1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 4, x);
    oc_builder_random(b, "W1", OC_DT_FLOAT, 4, wd, -1, 1, 1);
    oc_builder_random(b, "W2", OC_DT_FLOAT, 4, wd, -1, 1, 2);
    oc_builder_node(b, "Conv", "c1", "X,W1", "A");
    if (tail == 'g') {
        add_erf_gelu(b, "A", "H");
        oc_builder_node(b, "Conv", "c2", "H,W2", "Y");
    } else if (tail == 'p') {
        oc_builder_node(b, "GlobalAveragePool", "gap", "A", "P");
        oc_builder_node(b, "Conv", "c2", "P,W2", "Y");
    } else {
        oc_builder_node(b, "Conv", "c2", "X,W2", "B");
        oc_builder_node(b, "Add", "add", "A,B", "Y");
    }
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* A LayerNorm over the last axis of value x written out as exports spell
 * it (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div), into value y, with
 * the scale G and bias B (scale_bias) or without; constants "two" and
 * "eps" (and G, B) are the caller's. */
static void layernorm_nodes(oc_builder *b, const char *x, const char *y, bool scale_bias)
{
    char in[64];
    oc_builder_attr_ints(b, oc_builder_node(b, "ReduceMean", "mean", x, "M"), "axes", 1,
                         (int64_t[]){-1});
    snprintf(in, sizeof in, "%s,M", x);
    oc_builder_node(b, "Sub", "sub", in, "D");
    oc_builder_node(b, "Pow", "pow", "D,two", "P");
    oc_builder_attr_ints(b, oc_builder_node(b, "ReduceMean", "var", "P", "V"), "axes", 1,
                         (int64_t[]){-1});
    oc_builder_node(b, "Add", "addeps", "V,eps", "VE");
    oc_builder_node(b, "Sqrt", "sqrt", "VE", "S");
    oc_builder_node(b, "Div", "div", "D,S", scale_bias ? "N" : y);
    if (scale_bias) {
        oc_builder_node(b, "Mul", "mul", "N,G", "NG");
        oc_builder_node(b, "Add", "bias", "NG,B", y);
    }
}

/* NHWC LayerNorm written out (opset 13) on Transpose(X [N,16,8,8],
 * 0,2,3,1); back to NCHW by Transpose(0,3,1,2), or on into a MatMul. */
static oc_builder *nhwc_layernorm(bool back)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {-1, 16, 8, 8}, c[] = {16}, w[] = {16, 32};
    oc_builder_input(b, "X", OC_DT_FLOAT, 4, x);
    oc_builder_floats(b, "two", 0, NULL, (float[]){2});
    oc_builder_floats(b, "eps", 0, NULL, (float[]){1e-6f});
    oc_builder_random(b, "G", OC_DT_FLOAT, 1, c, -1, 1, 1);
    oc_builder_random(b, "B", OC_DT_FLOAT, 1, c, -1, 1, 2);
    oc_builder_random(b, "W", OC_DT_FLOAT, 2, w, -1, 1, 3);
    oc_builder_attr_ints(b, oc_builder_node(b, "Transpose", "t1", "X", "T"), "perm", 4,
                         (int64_t[]){0, 2, 3, 1});
    layernorm_nodes(b, "T", "L", true);
    if (back)
        oc_builder_attr_ints(b, oc_builder_node(b, "Transpose", "t2", "L", "Y"), "perm", 4,
                             (int64_t[]){0, 3, 1, 2});
    else
        oc_builder_node(b, "MatMul", "mm", "L,W", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Conv (16 -> 16) on X [1,16,8,8], Resize by scales [1,1,2,2] (opset 13)
 * with mode `mode` and coordinate_transformation_mode `ctm`
 * (nearest_mode floor), then a second Conv. */
static oc_builder *conv_resize(const char *mode, const char *ctm)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {1, 16, 8, 8}, wd[] = {16, 16, 1, 1}, four[] = {4};
    oc_builder_input(b, "X", OC_DT_FLOAT, 4, x);
    oc_builder_random(b, "W1", OC_DT_FLOAT, 4, wd, -1, 1, 1);
    oc_builder_random(b, "W2", OC_DT_FLOAT, 4, wd, -1, 1, 2);
    oc_builder_floats(b, "scales", 1, four, (float[]){1, 1, 2, 2});
    oc_builder_node(b, "Conv", "c1", "X,W1", "A");
    size_t r = oc_builder_node(b, "Resize", "rs", "A,,scales", "R");
    oc_builder_attr_string(b, r, "mode", mode);
    oc_builder_attr_string(b, r, "coordinate_transformation_mode", ctm);
    oc_builder_attr_string(b, r, "nearest_mode", "floor");
    oc_builder_node(b, "Conv", "c2", "R,W2", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* X [batch, 16, 8, 8] (batch "N" when batch < 0): A = Conv(X), and
 * U = Resize(Conv(MaxPool(X)), x2); then A + U.  Blocked, with a symbolic
 * batch, U's dim 0 is unknown at load time (ONNX's Resize inference scales
 * only known dims) and derived from no value A's is: ORT's NCHWc transformer
 * reshapes both inputs and the sum (three Reshapes), where with a fixed
 * batch the Add joins A's Conv. */
static oc_builder *conv_plus_upsampled(int64_t batch)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {batch, 16, 8, 8}, w3[] = {16, 16, 3, 3}, w1[] = {16, 16, 1, 1}, four[] = {4};
    if (batch < 0)
        oc_builder_input_sym(b, "X", OC_DT_FLOAT, 4, x, (const char *[]){"N", NULL, NULL, NULL});
    else
        oc_builder_input(b, "X", OC_DT_FLOAT, 4, x);
    oc_builder_random(b, "Wa", OC_DT_FLOAT, 4, w3, -1, 1, 1);
    oc_builder_random(b, "Wb", OC_DT_FLOAT, 4, w1, -1, 1, 2);
    oc_builder_floats(b, "scales", 1, four, (float[]){1, 1, 2, 2});
    oc_builder_attr_ints(b, oc_builder_node(b, "Conv", "a", "X,Wa", "A"), "pads", 4,
                         (int64_t[]){1, 1, 1, 1});
    size_t mp = oc_builder_node(b, "MaxPool", "mp", "X", "P");
    oc_builder_attr_ints(b, mp, "kernel_shape", 2, (int64_t[]){2, 2});
    oc_builder_attr_ints(b, mp, "strides", 2, (int64_t[]){2, 2});
    oc_builder_node(b, "Conv", "b", "P,Wb", "B");
    size_t r = oc_builder_node(b, "Resize", "up", "B,,scales", "U");
    oc_builder_attr_string(b, r, "mode", "nearest");
    oc_builder_attr_string(b, r, "coordinate_transformation_mode", "asymmetric");
    oc_builder_attr_string(b, r, "nearest_mode", "floor");
    oc_builder_node(b, "Add", "sum", "A,U", "Y");
    oc_builder_node(b, "Conv", "c", "Y,Wb", "Z");
    oc_builder_output(b, "Z", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* nchwc_transformer.cc's TransformBinary on conv_plus_upsampled. */
static void upsampled_add_rules(void)
{
    opcount sym = plan_built(conv_plus_upsampled(-1), 16, NULL);
    CHECK_EQ_INT(count_of(&sym, "Reshape"), 3);
    CHECK_EQ_INT(count_of(&sym, "Add"), 1);
    CHECK_EQ_INT(count_of(&sym, "Upsample"), 1);
    opcount fixed = plan_built(conv_plus_upsampled(2), 16, NULL);
    CHECK_EQ_INT(count_of(&fixed, "Reshape"), 0);
    CHECK_EQ_INT(count_of(&fixed, "Add"), 0);
    CHECK_EQ_INT(count_of(&fixed, "Upsample"), 1);
}

/* An attention block at opset 17 on X [1,8,16]: L = LayerNormalization(X);
 * q, k, v = MatMul(L) + bias, each Reshaped to [1,8,2,8]; their sum
 * Reshaped back to [1,8,16], projected (MatMul + bias), and added to L
 * (`residual_of_l`) or to X. */
static oc_builder *attention_block(bool residual_of_l)
{
    oc_builder *b = oc_builder_new(17);
    int64_t x[] = {1, 8, 16}, c[] = {16}, w[] = {16, 16}, four[] = {4}, three[] = {3};
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_random(b, "G", OC_DT_FLOAT, 1, c, -1, 1, 1);
    oc_builder_random(b, "B", OC_DT_FLOAT, 1, c, -1, 1, 2);
    oc_builder_ints(b, "s4", 1, four, (int64_t[]){1, 8, 2, 8});
    oc_builder_ints(b, "s3", 1, three, (int64_t[]){1, 8, 16});
    oc_builder_node(b, "LayerNormalization", "ln", "X,G,B", "L");
    static const char *const names[] = {"q", "k", "v", "o"};
    char buf[4][96];
    for (int h = 0; h < 4; h++) {
        snprintf(buf[0], sizeof buf[0], "W%s", names[h]);
        snprintf(buf[1], sizeof buf[1], "b%s", names[h]);
        oc_builder_random(b, buf[0], OC_DT_FLOAT, 2, w, -1, 1, (uint64_t)(3 + h));
        oc_builder_random(b, buf[1], OC_DT_FLOAT, 1, c, -1, 1, (uint64_t)(7 + h));
        snprintf(buf[2], sizeof buf[2], "%s,W%s", h < 3 ? "L" : "S3", names[h]);
        snprintf(buf[3], sizeof buf[3], "M%s", names[h]);
        oc_builder_node(b, "MatMul", buf[3], buf[2], buf[3]);
        snprintf(buf[2], sizeof buf[2], "b%s,M%s", names[h], names[h]);
        snprintf(buf[3], sizeof buf[3], "A%s", names[h]);
        oc_builder_node(b, "Add", buf[3], buf[2], buf[3]);
        if (h < 3) {
            snprintf(buf[2], sizeof buf[2], "A%s,s4", names[h]);
            snprintf(buf[3], sizeof buf[3], "R%s", names[h]);
            oc_builder_node(b, "Reshape", buf[3], buf[2], buf[3]);
        }
        if (h == 2) {
            oc_builder_node(b, "Add", "qk", "Rq,Rk", "QK");
            oc_builder_node(b, "Add", "qkv", "QK,Rv", "S");
            oc_builder_node(b, "Reshape", "back", "S,s3", "S3");
        }
    }
    oc_builder_node(b, "Add", "res", residual_of_l ? "L,Ao" : "X,Ao", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Y = X [4,4] + Cast(LessOrEqual(C1 [1,4], C2 [4,1])), int64 constants. */
static oc_builder *mask_of_constants(int64_t opset)
{
    oc_builder *b = oc_builder_new(opset);
    int64_t x[] = {4, 4}, r[] = {1, 4}, c[] = {4, 1}, v[] = {0, 1, 2, 3};
    oc_builder_input(b, "X", OC_DT_FLOAT, 2, x);
    oc_builder_ints(b, "C1", 2, r, v);
    oc_builder_ints(b, "C2", 2, c, v);
    oc_builder_node(b, "LessOrEqual", "le", "C1,C2", "M");
    oc_builder_attr_int(b, oc_builder_node(b, "Cast", "cast", "M", "F"), "to", OC_DT_FLOAT);
    oc_builder_node(b, "Add", "add", "X,F", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Y = Sigmoid(op(Relu(X [N,8]), K)) with `op` Add or Sub, K one zero of
 * rank `rank` (all dims 1), first when `k_first`. */
static oc_builder *noop_of_symbolic(const char *op, int rank, bool k_first)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {-1, 8}, kd[] = {1, 1, 1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 2, x);
    oc_builder_floats(b, "K", rank, kd, (float[]){0});
    oc_builder_node(b, "Relu", "r", "X", "R");
    oc_builder_node(b, op, "op", k_first ? "K,R" : "R,K", "A");
    oc_builder_node(b, "Sigmoid", "s", "A", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Y = Sigmoid(op(Relu(X [2, 8]), K)) with K n copies of `unit` ([n]). */
static oc_builder *noop_of_n(const char *op, int64_t n, float unit)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {2, 8}, kd[] = {n};
    float k[8] = {unit, unit, unit, unit, unit, unit, unit, unit};
    oc_builder_input(b, "X", OC_DT_FLOAT, 2, x);
    oc_builder_floats(b, "K", 1, kd, k);
    oc_builder_node(b, "Relu", "r", "X", "R");
    oc_builder_node(b, op, "op", "R,K", "A");
    oc_builder_node(b, "Sigmoid", "s", "A", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Y = Sigmoid(Relu(X [2, 8]) * Gather(Exp(P), 1)) with P [3] all `p`: a
 * learnt precision, exp of a log, picked by a constant index (predictive
 * coding's layers); P zeros (as exported untrained) make it a * 1. */
static oc_builder *mul_by_exp(float p)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {2, 8}, pd[] = {3};
    oc_builder_input(b, "X", OC_DT_FLOAT, 2, x);
    oc_builder_floats(b, "P", 1, pd, (float[]){p, p, p});
    oc_builder_ints(b, "one", 0, NULL, (int64_t[]){1});
    oc_builder_node(b, "Exp", "e", "P", "E");
    oc_builder_node(b, "Gather", "g", "E,one", "K");
    oc_builder_node(b, "Relu", "r", "X", "R");
    oc_builder_node(b, "Mul", "op", "R,K", "A");
    oc_builder_node(b, "Sigmoid", "s", "A", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Opset 13: R = Reshape(X [N,16,4,4], Concat(Slice(Shape(X), 0, 2), [-1]))
 * has no load-time shape; T = Transpose(R, 0,2,1); Y = Transpose(Relu(T -
 * ReduceMean(T, -1)), 0,2,1). */
static oc_builder *rankless_mean(void)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {-1, 16, 4, 4}, one[] = {1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 4, x);
    oc_builder_ints(b, "z", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "two", 1, one, (int64_t[]){2});
    oc_builder_ints(b, "m1", 1, one, (int64_t[]){-1});
    oc_builder_node(b, "Shape", "shape", "X", "S");
    oc_builder_node(b, "Slice", "slice", "S,z,two", "S2");
    oc_builder_attr_int(b, oc_builder_node(b, "Concat", "cat", "S2,m1", "SH"), "axis", 0);
    oc_builder_node(b, "Reshape", "rs", "X,SH", "R");
    oc_builder_attr_ints(b, oc_builder_node(b, "Transpose", "t1", "R", "T"), "perm", 3,
                         (int64_t[]){0, 2, 1});
    oc_builder_attr_ints(b, oc_builder_node(b, "ReduceMean", "mean", "T", "M"), "axes", 1,
                         (int64_t[]){-1});
    oc_builder_node(b, "Sub", "sub", "T,M", "D");
    oc_builder_node(b, "Relu", "relu", "D", "E");
    oc_builder_attr_ints(b, oc_builder_node(b, "Transpose", "t2", "E", "Y"), "perm", 3,
                         (int64_t[]){0, 2, 1});
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Level-1 rewrites and the NCHWc rules on blocked tensors. */
static void layout_rules(void)
{
    oc_input_override ov = {.name = "X", .rank = 2, .dims = {2, 4}};
    oc_analyze_opts bind = {.overrides = &ov, .n_overrides = 1};
    /* NotWhereFusion: a Not read only by Wheres (as the condition) goes */
    opcount nw = plan_built(not_where_graph(false), 0, &bind);
    CHECK_EQ_INT(count_of(&nw, "Not"), 0);
    CHECK_EQ_INT(count_of(&nw, "Where"), 1);
    opcount nc = plan_built(not_where_graph(true), 0, &bind);
    CHECK_EQ_INT(count_of(&nc, "Not"), 1);
    oc_input_override o8 = {.name = "X", .rank = 4, .dims = {1, 16, 8, 8}};
    oc_analyze_opts b8 = {.overrides = &o8, .n_overrides = 1};
    /* the fused Gelu runs on the blocked tensor: no reorder around it */
    opcount g = plan_built(blocked_tail(8, 8, 'g'), 16, NULL);
    CHECK_EQ_INT(count_of(&g, "Conv"), 2);
    CHECK_EQ_INT(count_of(&g, "Gelu"), 1);
    CHECK_EQ_INT(count_of(&g, "ReorderInput"), 1);  /* X */
    CHECK_EQ_INT(count_of(&g, "ReorderOutput"), 1); /* Y */
    /* a global pool runs blocked when its input's spatial dims are known
     * at load time, else plain between two reorders */
    opcount pk = plan_built(blocked_tail(8, 8, 'p'), 16, NULL);
    CHECK_EQ_INT(count_of(&pk, "GlobalAveragePool"), 1);
    CHECK_EQ_INT(count_of(&pk, "ReorderInput"), 1);
    CHECK_EQ_INT(count_of(&pk, "ReorderOutput"), 1);
    opcount pu = plan_built(blocked_tail(-1, -1, 'p'), 16, &b8);
    CHECK_EQ_INT(count_of(&pu, "GlobalAveragePool"), 1);
    CHECK_EQ_INT(count_of(&pu, "ReorderInput"), 2);
    CHECK_EQ_INT(count_of(&pu, "ReorderOutput"), 2);
    /* Add of two blocked convs: into the second conv when the shapes are
     * known equal; else blocked through three Reshapes (TransformBinary) */
    opcount ak = plan_built(blocked_tail(8, 8, 'a'), 16, NULL);
    CHECK_EQ_INT(count_of(&ak, "Conv"), 2);
    CHECK_EQ_INT(count_of(&ak, "Add"), 0);
    CHECK_EQ_INT(count_of(&ak, "Reshape"), 0);
    opcount au = plan_built(blocked_tail(-1, -1, 'a'), 16, &b8);
    CHECK_EQ_INT(count_of(&au, "Conv"), 2);
    CHECK_EQ_INT(count_of(&au, "Add"), 1);
    CHECK_EQ_INT(count_of(&au, "Reshape"), 3);
    CHECK_EQ_INT(count_of(&au, "ReorderOutput"), 1);
    /* TransformResize: whole-number spatial scales keep the tensor blocked
     * (NCHWc Upsample) for nearest/asymmetric and linear/half_pixel; nearest
     * with half_pixel stays a plain Resize between reorders */
    opcount un = plan_built(conv_resize("nearest", "asymmetric"), 16, NULL);
    CHECK_EQ_INT(count_of(&un, "Upsample"), 1);
    CHECK_EQ_INT(count_of(&un, "Resize"), 0);
    CHECK_EQ_INT(count_of(&un, "ReorderInput"), 1);
    CHECK_EQ_INT(count_of(&un, "ReorderOutput"), 1);
    opcount ul = plan_built(conv_resize("linear", "half_pixel"), 16, NULL);
    CHECK_EQ_INT(count_of(&ul, "Upsample"), 1);
    CHECK_EQ_INT(count_of(&ul, "ReorderOutput"), 1);
    opcount uh = plan_built(conv_resize("nearest", "half_pixel"), 16, NULL);
    CHECK_EQ_INT(count_of(&uh, "Upsample"), 0);
    CHECK_EQ_INT(count_of(&uh, "Resize"), 1);
    CHECK_EQ_INT(count_of(&uh, "ReorderInput"), 2);
    CHECK_EQ_INT(count_of(&uh, "ReorderOutput"), 2);
    /* MatMulAddFusion keeps an attention block's four MatMul+Add pairs at
     * level 1: their Gemms come after ReshapeFusion, each between two
     * Reshapes of its own (4 Gemms: 8, + the block's own 4) */
    opcount at = plan_built(attention_block(true), 0, NULL);
    CHECK_EQ_INT(count_of(&at, "Gemm"), 4);
    CHECK_EQ_INT(count_of(&at, "Reshape"), 12);
    /* not an attention block (the residual Add does not read L): the
     * Reshapes next to the Gemms absorb theirs (3 outputs, 1 input) */
    opcount an = plan_built(attention_block(false), 0, NULL);
    CHECK_EQ_INT(count_of(&an, "Gemm"), 4);
    CHECK_EQ_INT(count_of(&an, "Reshape"), 8);
    /* LessOrEqual has no shape inference before opset 16: ORT's folding
     * skips it and what is computed from it */
    opcount le13 = plan_built(mask_of_constants(13), 0, NULL);
    CHECK_EQ_INT(count_of(&le13, "LessOrEqual"), 1);
    CHECK_EQ_INT(count_of(&le13, "Cast"), 1);
    opcount le16 = plan_built(mask_of_constants(16), 0, NULL);
    CHECK_EQ_INT(count_of(&le16, "LessOrEqual"), 0);
    CHECK_EQ_INT(count_of(&le16, "Cast"), 0);
    /* NoopElimination: + 0 of one element on a tensor with a load-time
     * shape goes, symbolic dims or not; not 0 - x, nor + a 0 of higher
     * rank (it broadcasts) */
    oc_input_override on = {.name = "X", .rank = 2, .dims = {3, 8}};
    oc_analyze_opts bn = {.overrides = &on, .n_overrides = 1};
    opcount z1 = plan_built(noop_of_symbolic("Add", 0, true), 0, &bn);
    CHECK_EQ_INT(count_of(&z1, "Add"), 0);
    CHECK_EQ_INT(z1.run, 2);
    opcount z2 = plan_built(noop_of_symbolic("Sub", 0, true), 0, &bn);
    CHECK_EQ_INT(count_of(&z2, "Sub"), 1);
    opcount z3 = plan_built(noop_of_symbolic("Add", 3, false), 0, &bn);
    CHECK_EQ_INT(count_of(&z3, "Add"), 1);
    /* ORT 1.30 (checked on onnxruntime-node) removes a + 0 or * 1 only of
     * one element: eight zeros or ones stay, even of a fully known shape */
    opcount z8 = plan_built(noop_of_n("Add", 8, 0.0f), 0, NULL);
    CHECK_EQ_INT(count_of(&z8, "Add"), 1);
    opcount m8 = plan_built(noop_of_n("Mul", 8, 1.0f), 0, NULL);
    CHECK_EQ_INT(count_of(&m8, "Mul"), 1);
    opcount m1n = plan_built(noop_of_n("Mul", 1, 1.0f), 0, NULL);
    CHECK_EQ_INT(count_of(&m1n, "Mul"), 0);
    CHECK_EQ_INT(m1n.run, 2);
    /* constant folding computes exp(0) = 1 (ORT folds it, then removes the
     * * 1: blind13's predictive_coding ran 40 fewer Muls); exp(0.5) stays */
    opcount e0 = plan_built(mul_by_exp(0.0f), 0, NULL);
    CHECK_EQ_INT(count_of(&e0, "Mul"), 0);
    CHECK_EQ_INT(count_of(&e0, "Exp"), 0);
    CHECK_EQ_INT(e0.run, 2);
    opcount e5 = plan_built(mul_by_exp(0.5f), 0, NULL);
    CHECK_EQ_INT(count_of(&e5, "Mul"), 1);
    /* the transpose optimizer takes T through the mean although T has no
     * load-time rank (the reduce handler takes the rank from the perm), not
     * through the Sub (the broadcast handler needs its inputs' ranks): a
     * third Transpose, after the mean */
    opcount rm = plan_built(rankless_mean(), 0, NULL);
    CHECK_EQ_INT(count_of(&rm, "Transpose"), 3);
    CHECK_EQ_INT(count_of(&rm, "ReduceMean"), 1);
    CHECK_EQ_INT(count_of(&rm, "Sub"), 1);
}

/* What ORT's level-1 CSE and constant folding leave of shape arithmetic
 * on a symbolic batch. */
static void shape_rules(void)
{
    oc_input_override ov = {.name = "X", .rank = 2, .dims = {2, 4}};
    oc_analyze_opts bind = {.overrides = &ov, .n_overrides = 1};
    /* ConstantSharing makes the two -1s one initializer (negative values
     * included): the two Muls are one (CSE) */
    opcount n = plan_built(negated_shapes(), 0, &bind);
    CHECK_EQ_INT(count_of(&n, "Shape"), 1);
    CHECK_EQ_INT(count_of(&n, "Mul"), 1);
    /* CSE runs before ConstantFolding and compares ConstantOfShape's
     * one-number value: the two guards fold to one initializer, so one
     * Equal and one Where run */
    opcount g = plan_built(expand_guards(1), 0, &bind);
    CHECK_EQ_INT(count_of(&g, "Shape"), 1);
    CHECK_EQ_INT(count_of(&g, "ConstantOfShape"), 0);
    CHECK_EQ_INT(count_of(&g, "Mul"), 0);
    CHECK_EQ_INT(count_of(&g, "Equal"), 1);
    CHECK_EQ_INT(count_of(&g, "Where"), 1);
    /* different fill values: two guards */
    opcount g2 = plan_built(expand_guards(2), 0, &bind);
    CHECK_EQ_INT(count_of(&g2, "Equal"), 2);
    CHECK_EQ_INT(count_of(&g2, "Where"), 2);
    /* ONNX's Slice inference leaves a sliced axis of unknown length
     * unknown, even X[-3:-1]: the Shape of the slice runs, and so does
     * the ConstantOfShape */
    oc_input_override ov8 = {.name = "X", .rank = 2, .dims = {5, 8}};
    oc_analyze_opts bind8 = {.overrides = &ov8, .n_overrides = 1};
    opcount sl = plan_built(slice_of_symbolic(), 0, &bind8);
    CHECK_EQ_INT(count_of(&sl, "Slice"), 1);
    CHECK_EQ_INT(count_of(&sl, "Shape"), 1);
    CHECK_EQ_INT(count_of(&sl, "ConstantOfShape"), 1);
}

/* NHWC X [N,8,8,16] -> Transpose(0,3,1,2) -> 1x1 Conv(16 -> 16). */
static oc_builder *nhwc_conv(void)
{
    oc_builder *b = oc_builder_new(17);
    int64_t x[] = {-1, 8, 8, 16}, w[] = {16, 16, 1, 1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 4, x);
    oc_builder_random(b, "W", OC_DT_FLOAT, 4, w, -1, 1, 1);
    oc_builder_attr_ints(b, oc_builder_node(b, "Transpose", "t", "X", "T"), "perm", 4,
                         (int64_t[]){0, 3, 1, 2});
    oc_builder_node(b, "Conv", "c", "T,W", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* q/k/v attention heads: X [2,4,3,2,8] -> Transpose(2,0,3,1,4) -> Split
 * on axis 0 -> Squeeze(0) each; k -> Transpose(0,1,3,2); q @ k^T @ v. */
static oc_builder *split_heads(void)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {2, 4, 3, 2, 8}, three[] = {3}, one[] = {1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 5, x);
    oc_builder_ints(b, "sp", 1, three, (int64_t[]){1, 1, 1});
    oc_builder_ints(b, "ax", 1, one, (int64_t[]){0});
    oc_builder_attr_ints(b, oc_builder_node(b, "Transpose", "t", "X", "T"), "perm", 5,
                         (int64_t[]){2, 0, 3, 1, 4});
    oc_builder_attr_int(b, oc_builder_node(b, "Split", "split", "T,sp", "S0,S1,S2"), "axis", 0);
    oc_builder_node(b, "Squeeze", "sq", "S0,ax", "Q");
    oc_builder_node(b, "Squeeze", "sk", "S1,ax", "K");
    oc_builder_node(b, "Squeeze", "sv", "S2,ax", "V");
    oc_builder_attr_ints(b, oc_builder_node(b, "Transpose", "tk", "K", "KT"), "perm", 4,
                         (int64_t[]){0, 1, 3, 2});
    oc_builder_node(b, "MatMul", "qk", "Q,KT", "A");
    oc_builder_node(b, "MatMul", "av", "A,V", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* The same heads taken by Gathers of one index (q = T[0], k = T[1],
 * v = T[2]), as torch exports qkv[0], qkv[1], qkv[2]. */
static oc_builder *gathered_heads(void)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {2, 4, 3, 2, 8};
    oc_builder_input(b, "X", OC_DT_FLOAT, 5, x);
    const char *idx[] = {"i0", "i1", "i2"}, *names[] = {"gq", "gk", "gv"},
               *outs[] = {"Q", "K", "V"};
    oc_builder_attr_ints(b, oc_builder_node(b, "Transpose", "t", "X", "T"), "perm", 5,
                         (int64_t[]){2, 0, 3, 1, 4});
    for (int i = 0; i < 3; i++) {
        char ins[16];
        oc_builder_ints(b, idx[i], 0, NULL, (int64_t[]){i});
        snprintf(ins, sizeof ins, "T,%s", idx[i]);
        oc_builder_attr_int(b, oc_builder_node(b, "Gather", names[i], ins, outs[i]), "axis", 0);
    }
    oc_builder_attr_ints(b, oc_builder_node(b, "Transpose", "tk", "K", "KT"), "perm", 4,
                         (int64_t[]){0, 1, 3, 2});
    oc_builder_node(b, "MatMul", "qk", "Q,KT", "A");
    oc_builder_node(b, "MatMul", "av", "A,V", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Relu(X [2, 4, 8]) reshaped by Concat([0], Unsqueeze(Gather(Shape(Z), 1)),
 * [-1]): Z [unknown, z1] is another tensor, whose dim 1 is X's when z1 is
 * 4. */
static oc_builder *reshape_other_dim(int64_t z1)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {2, 4, 8}, z[] = {-1, z1}, one[] = {1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_input(b, "Z", OC_DT_FLOAT, 2, z);
    oc_builder_ints(b, "i1", 0, NULL, (int64_t[]){1});
    oc_builder_ints(b, "ax", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "c0", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "m1", 1, one, (int64_t[]){-1});
    oc_builder_node(b, "Relu", "relu", "X", "R");
    oc_builder_node(b, "Shape", "s", "Z", "S");
    oc_builder_node(b, "Gather", "g", "S,i1", "G");
    oc_builder_node(b, "Unsqueeze", "u", "G,ax", "P");
    oc_builder_attr_int(b, oc_builder_node(b, "Concat", "c", "c0,P,m1", "C"), "axis", 0);
    oc_builder_node(b, "Reshape", "r", "R,C", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* As torchvision's ViT patch embedding: Relu(X [N, 4, 8]) reshaped by
 * Concat(Unsqueeze(Gather(Shape(Z), 0)), [-1]) where Z [zsym, 5] is
 * another input. */
static oc_builder *reshape_other_batch(const char *zsym)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {-1, 4, 8}, z[] = {-1, 5}, one[] = {1};
    oc_builder_input_sym(b, "X", OC_DT_FLOAT, 3, x, (const char *[]){"N", NULL, NULL});
    oc_builder_input_sym(b, "Z", OC_DT_FLOAT, 2, z, (const char *[]){zsym, NULL});
    oc_builder_ints(b, "i0", 0, NULL, (int64_t[]){0});
    oc_builder_ints(b, "ax", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "m1", 1, one, (int64_t[]){-1});
    oc_builder_node(b, "Relu", "relu", "X", "R");
    oc_builder_node(b, "Shape", "s", "Z", "S");
    oc_builder_node(b, "Gather", "g", "S,i0", "G");
    oc_builder_node(b, "Unsqueeze", "u", "G,ax", "P");
    oc_builder_attr_int(b, oc_builder_node(b, "Concat", "c", "P,m1", "C"), "axis", 0);
    oc_builder_node(b, "Reshape", "r", "R,C", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* X [d0, 4, 8] -> Reshape [d0, 2, 16] -> Reshape [d0, 32] -> Relu, the
 * second Reshape's target a constant [0, 32]; with `shared` the first
 * Reshape's output is a graph output as well. */
static oc_builder *two_reshapes(int64_t d0, bool shared)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {d0, 4, 8}, three[] = {3}, two[] = {2};
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_ints(b, "t1", 1, three, (int64_t[]){0, 2, 16});
    oc_builder_ints(b, "t2", 1, two, (int64_t[]){0, 32});
    oc_builder_node(b, "Reshape", "r1", "X,t1", "R1");
    oc_builder_node(b, "Reshape", "r2", "R1,t2", "R2");
    oc_builder_node(b, "Relu", "relu", "R2", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    if (shared)
        oc_builder_output(b, "R1", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Relu(X [2, 4, 8]) -> first -> second -> Relu, where "r" is a Reshape to
 * [2, 32] (first) or [4, 16] (second) and "u" an Unsqueeze at axis 0. */
static oc_builder *shape_pair(const char *first, const char *second)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {2, 4, 8}, two[] = {2}, one[] = {1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_ints(b, "t1", 1, two, (int64_t[]){2, 32});
    oc_builder_ints(b, "t2", 1, two, (int64_t[]){4, 16});
    oc_builder_ints(b, "ax", 1, one, (int64_t[]){0});
    oc_builder_node(b, "Relu", "relu", "X", "A");
    if (!strcmp(first, "r"))
        oc_builder_node(b, "Reshape", "f", "A,t1", "B");
    else
        oc_builder_node(b, "Unsqueeze", "f", "A,ax", "B");
    if (!strcmp(second, "r"))
        oc_builder_node(b, "Reshape", "s", "B,t2", "C");
    else
        oc_builder_node(b, "Unsqueeze", "s", "B,ax", "C");
    oc_builder_node(b, "Relu", "relu2", "C", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* X [4,2,8] -> Transpose(1,0,2) -> MatMul with Y [2,8,4]. */
static oc_builder *batch_transposed_matmul(void)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {4, 2, 8}, y[] = {2, 8, 4};
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_input(b, "Y", OC_DT_FLOAT, 3, y);
    oc_builder_attr_ints(b, oc_builder_node(b, "Transpose", "t", "X", "T"), "perm", 3,
                         (int64_t[]){1, 0, 2});
    oc_builder_node(b, "MatMul", "mm", "T,Y", "Z");
    oc_builder_output(b, "Z", OC_DT_FLOAT, -1, NULL);
    return b;
}

static void rules(void)
{
    /* unknown batch at load time: nothing folds, the duplicates go (CSE);
     * the Reshape's shape is its own input's dim 0 and a constant: made
     * constant (ReshapeFusion); Identity and Cast to int64 of int64 go */
    oc_input_override ov = {.name = "X", .rank = 3, .dims = {2, 4, 8}};
    oc_analyze_opts bind = {.overrides = &ov, .n_overrides = 1};
    opcount d = plan_built(shape_chains(-1), 0, &bind);
    CHECK_EQ_INT(count_of(&d, "Shape"), 1);
    CHECK_EQ_INT(count_of(&d, "Gather"), 1);
    CHECK_EQ_INT(count_of(&d, "Unsqueeze"), 1);
    CHECK_EQ_INT(count_of(&d, "Concat"), 1); /* c2's; c became a constant */
    CHECK_EQ_INT(count_of(&d, "Reshape"), 1);
    CHECK_EQ_INT(count_of(&d, "Cast"), 0);
    CHECK_EQ_INT(count_of(&d, "Identity"), 0);
    /* every dim known at load time: the whole shape computation folds */
    opcount f = plan_built(shape_chains(2), 0, NULL);
    CHECK_EQ_INT(f.run, 1);
    CHECK_EQ_INT(count_of(&f, "Reshape"), 1);
    /* ReshapeFusion: a piece of two elements computed at run time, or a
     * second -1 (a one-element piece that is not X's own dim beside the
     * constant -1): the shape computation stays */
    oc_input_override ov2 = {.name = "X", .rank = 3, .dims = {1, 4, 8}};
    oc_analyze_opts bind2 = {.overrides = &ov2, .n_overrides = 1};
    opcount sl = plan_built(reshape_pieces(true), 0, &bind2);
    CHECK_EQ_INT(count_of(&sl, "Shape"), 1);
    CHECK_EQ_INT(count_of(&sl, "Slice"), 1);
    CHECK_EQ_INT(count_of(&sl, "Concat"), 1);
    opcount m1 = plan_built(reshape_pieces(false), 0, &bind2);
    CHECK_EQ_INT(count_of(&m1, "Concat"), 1);
    CHECK_EQ_INT(count_of(&m1, "Unsqueeze"), 1);
    /* BiasGeluFusion reads ORT's load-time shapes: Reshape-13 with a
     * computed target leaves its output (and the MatMul after it) without
     * a shape, so the bias Add stays beside a Gelu; Reshape-14 takes the
     * target from data propagation and the Add joins a BiasGelu */
    opcount opset13 = plan_built(reshaped_gelu(13), 0, &bind2);
    CHECK_EQ_INT(count_of(&opset13, "Gelu"), 1);
    CHECK_EQ_INT(count_of(&opset13, "Add"), 1);
    CHECK_EQ_INT(count_of(&opset13, "BiasGelu"), 0);
    opcount opset14 = plan_built(reshaped_gelu(14), 0, &bind2);
    CHECK_EQ_INT(count_of(&opset14, "BiasGelu"), 1);
    CHECK_EQ_INT(count_of(&opset14, "Add"), 0);
    /* MatMulScaleFusion takes a scale before the MatMul only when the
     * scaled input has a load-time shape of rank > 0 */
    opcount sc13 = plan_built(reshaped_scale(13), 0, &bind2);
    CHECK_EQ_INT(count_of(&sc13, "Mul"), 1);
    CHECK_EQ_INT(count_of(&sc13, "MatMul"), 1);
    CHECK_EQ_INT(count_of(&sc13, "FusedMatMul"), 0);
    opcount sc14 = plan_built(reshaped_scale(14), 0, &bind2);
    CHECK_EQ_INT(count_of(&sc14, "FusedMatMul"), 1);
    CHECK_EQ_INT(count_of(&sc14, "Mul"), 0);
    /* ReshapeFusion: a piece Unsqueeze(Gather(Shape(Z), k)) of another
     * tensor Z counts as the Reshape's own dim k (0) when Z's dim k is the
     * same at load time; else it is a second -1 and the computation stays */
    opcount od = plan_built(reshape_other_dim(4), 0, NULL);
    CHECK_EQ_INT(count_of(&od, "Shape"), 0);
    CHECK_EQ_INT(count_of(&od, "Concat"), 0);
    CHECK_EQ_INT(count_of(&od, "Reshape"), 1);
    opcount ox = plan_built(reshape_other_dim(5), 0, NULL);
    CHECK_EQ_INT(count_of(&ox, "Shape"), 1);
    CHECK_EQ_INT(count_of(&ox, "Concat"), 1);
    /* the same for a symbolic batch: Z's dim 0 named N as X's is X's dim
     * 0; named M, it is not */
    oc_dim_binding nm[] = {{.name = "N", .value = 2}, {.name = "M", .value = 2}};
    oc_analyze_opts bind4 = {.dims = nm, .n_dims = 1}, bind5 = {.dims = nm, .n_dims = 2};
    opcount sn = plan_built(reshape_other_batch("N"), 0, &bind4);
    CHECK_EQ_INT(count_of(&sn, "Shape"), 0);
    CHECK_EQ_INT(count_of(&sn, "Gather"), 0);
    CHECK_EQ_INT(count_of(&sn, "Concat"), 0);
    CHECK_EQ_INT(count_of(&sn, "Reshape"), 1);
    opcount sm = plan_built(reshape_other_batch("M"), 0, &bind5);
    CHECK_EQ_INT(count_of(&sm, "Shape"), 1);
    CHECK_EQ_INT(count_of(&sm, "Concat"), 1);
    /* FuseContiguousReshapes: Reshape -> Reshape is one Reshape when the
     * second one's output shape is fully known at load time; not with a
     * symbolic dim, nor when the first one's output is read elsewhere */
    opcount rr = plan_built(two_reshapes(2, false), 0, NULL);
    CHECK_EQ_INT(count_of(&rr, "Reshape"), 1);
    CHECK_EQ_INT(count_of(&rr, "Relu"), 1);
    oc_input_override ov3 = {.name = "X", .rank = 3, .dims = {2, 4, 8}};
    oc_analyze_opts bind3 = {.overrides = &ov3, .n_overrides = 1};
    opcount rs = plan_built(two_reshapes(-1, false), 0, &bind3);
    CHECK_EQ_INT(count_of(&rs, "Reshape"), 2);
    opcount ro = plan_built(two_reshapes(2, true), 0, NULL);
    CHECK_EQ_INT(count_of(&ro, "Reshape"), 2);
    /* a Reshape then an Unsqueeze: one Reshape; an Unsqueeze then a
     * Reshape: both stay (the chain starts at a Reshape) */
    opcount ru = plan_built(shape_pair("r", "u"), 0, NULL);
    CHECK_EQ_INT(count_of(&ru, "Reshape"), 1);
    CHECK_EQ_INT(count_of(&ru, "Unsqueeze"), 0);
    opcount ur = plan_built(shape_pair("u", "r"), 0, NULL);
    CHECK_EQ_INT(count_of(&ur, "Reshape"), 1);
    CHECK_EQ_INT(count_of(&ur, "Unsqueeze"), 1);
    /* NCHWc with 16-channel blocks: both convs blocked (the first reads
     * the 3-channel input directly), the Relu inside the first, one
     * ReorderOutput for the graph output */
    opcount n16 = plan_built(two_convs(), 16, NULL);
    CHECK_EQ_INT(n16.run, 3);
    CHECK_EQ_INT(count_of(&n16, "Conv"), 2);
    CHECK_EQ_INT(count_of(&n16, "ReorderOutput"), 1);
    CHECK_EQ_INT(count_of(&n16, "ReorderInput"), 0);
    CHECK_EQ_INT(n16.inserted, 1);
    /* ConvMulFusion / ConvAddFusion take a constant second input only
     * (conv_mul_fusion.cc, conv_add_fusion.cc; ORT 1.30 runs exactly these
     * kernels for the same one-Conv models): C * S folds into the Conv;
     * S * C with S per channel stays and runs blocked as an NCHWc Conv
     * kernel; S * C with a scalar S, and S + C, run unblocked after the
     * ReorderOutput */
    int64_t c11[] = {16, 1, 1}, c1111[] = {1, 16, 1, 1};
    opcount ms = plan_built(scaled_conv(3, c11, false, "Mul"), 16, NULL);
    CHECK_EQ_INT(count_of(&ms, "Conv"), 1);
    CHECK_EQ_INT(count_of(&ms, "Mul"), 0);
    opcount mf = plan_built(scaled_conv(3, c11, true, "Mul"), 16, NULL);
    CHECK_EQ_INT(count_of(&mf, "Conv"), 2);
    CHECK_EQ_INT(count_of(&mf, "Mul"), 0);
    CHECK_EQ_INT(count_of(&mf, "ReorderOutput"), 1);
    CHECK_EQ_INT(count_of(&mf, "ReorderInput"), 1);
    opcount m4 = plan_built(scaled_conv(4, c1111, true, "Mul"), 16, NULL);
    CHECK_EQ_INT(count_of(&m4, "Conv"), 2);
    opcount m0 = plan_built(scaled_conv(0, NULL, true, "Mul"), 16, NULL);
    CHECK_EQ_INT(count_of(&m0, "Conv"), 1);
    CHECK_EQ_INT(count_of(&m0, "Mul"), 1);
    opcount af = plan_built(scaled_conv(3, c11, true, "Add"), 16, NULL);
    CHECK_EQ_INT(count_of(&af, "Conv"), 1);
    CHECK_EQ_INT(count_of(&af, "Add"), 2);
    /* C * S folds for a scalar S and for [1, 16, 1, 1], not for [1] or
     * [1, 1, 1]; C + S not for a scalar (ORT 1.30's kernels for each
     * one-Conv model: BiFPN's C * w[0], blind22, folds) */
    static const int64_t one[] = {1}, c111[] = {1, 1, 1}, c1x[] = {1, 16, 1, 1};
    static const struct {
        int rank;
        const int64_t *shape;
        const char *op;
        int left; /* kernels of op after folding (the graph adds X last) */
    } folds[] = {{0, NULL, "Mul", 0}, {4, c1x, "Mul", 0}, {1, one, "Mul", 1},
                 {3, c111, "Mul", 1}, {0, NULL, "Add", 2}, {4, c1x, "Add", 1}};
    for (size_t i = 0; i < sizeof folds / sizeof folds[0]; i++) {
        opcount cf = plan_built(scaled_conv(folds[i].rank, folds[i].shape, false, folds[i].op),
                                16, NULL);
        CHECK_EQ_INT(count_of(&cf, "Conv"), 1);
        CHECK_EQ_INT(count_of(&cf, folds[i].op), folds[i].left);
    }
    /* TransposeOptimizer before LayerNormFusion: between two Transposes
     * that cancel, every node of the LayerNorm takes the first one through
     * (their outputs lead to the second), its axes become 1 and nothing
     * fuses; no Transpose runs */
    opcount ln = plan_built(nhwc_layernorm(true), 0, NULL);
    CHECK_EQ_INT(count_of(&ln, "Transpose"), 0);
    CHECK_EQ_INT(count_of(&ln, "LayerNormalization"), 0);
    CHECK_EQ_INT(count_of(&ln, "SimplifiedLayerNormalization"), 0);
    CHECK_EQ_INT(count_of(&ln, "ReduceMean"), 2);
    CHECK_EQ_INT(ln.run, 9);
    /* into a MatMul: the Transpose goes through ReduceMean (input rank 4
     * against output 3) and Sub (4 + 3 against 4), not through Pow (4
     * against 4): one Transpose after Sub, and Pow .. Mul fuse as an RMS
     * norm (SimplifiedLayerNormFusion), the bias Add apart */
    opcount lm = plan_built(nhwc_layernorm(false), 0, NULL);
    CHECK_EQ_INT(count_of(&lm, "Transpose"), 1);
    CHECK_EQ_INT(count_of(&lm, "LayerNormalization"), 0);
    CHECK_EQ_INT(count_of(&lm, "SimplifiedLayerNormalization"), 1);
    CHECK_EQ_INT(count_of(&lm, "ReduceMean"), 1);
    CHECK_EQ_INT(count_of(&lm, "Sub"), 1);
    CHECK_EQ_INT(count_of(&lm, "Add"), 1);
    CHECK_EQ_INT(lm.run, 6);
    /* NCHWc: the ReorderInput reads the NHWC tensor itself (channels
     * last), the Transpose that only fed it goes */
    opcount nc = plan_built(nhwc_conv(), 16, NULL);
    CHECK_EQ_INT(count_of(&nc, "Transpose"), 0);
    CHECK_EQ_INT(count_of(&nc, "ReorderInput"), 1);
    CHECK_EQ_INT(count_of(&nc, "Conv"), 1);
    CHECK_EQ_INT(nc.run, 3);
    /* TransposeOptimizer: the Transpose goes through Split (its axis
     * becomes 2) and through k's Squeeze, whose output leads to k's
     * Transpose; q's and v's Squeezes gain nothing (input rank 4 saved,
     * output rank 4 added) and keep it before them.  k's two Transposes
     * merge into one that is no swap of the last two axes, so the MatMul
     * stays a MatMul (MatmulTransposeFusion): three Transposes.  And the
     * same with Gathers of the heads: GatherSliceToSplitFusion makes them
     * a Split (level 2), and the TransposeOptimizer, run again in the same
     * loop, takes the Transpose through it and the Squeezes: the Split
     * reads X, q and v get a Transpose each after their Squeeze, k's
     * merges into its own, which no MatMul then takes in (as ORT 1.30 ran
     * Transformer-in-Transformer's heads, blind21) */
    for (int h = 0; h < 2; h++) {
        opcount sh = plan_built(h ? gathered_heads() : split_heads(), 0, NULL);
        CHECK_EQ_INT(count_of(&sh, "Transpose"), 3);
        CHECK_EQ_INT(count_of(&sh, "Split"), 1);
        CHECK_EQ_INT(count_of(&sh, "Squeeze"), 3);
        CHECK_EQ_INT(count_of(&sh, "Gather"), 0);
        CHECK_EQ_INT(count_of(&sh, "MatMul"), 2);
        CHECK_EQ_INT(count_of(&sh, "FusedMatMul"), 0);
        CHECK_EQ_INT(sh.run, 9);
    }
    /* MatmulTransposeFusion: a Transpose moving axis 0 behind the batch
     * (transBatchA) fuses when both inputs have one known rank */
    opcount bt = plan_built(batch_transposed_matmul(), 0, NULL);
    CHECK_EQ_INT(count_of(&bt, "Transpose"), 0);
    CHECK_EQ_INT(count_of(&bt, "FusedMatMul"), 1);
    CHECK_EQ_INT(bt.run, 1);
    /* no NCHWc (not x86): FusedConv(Relu) and a plain Conv */
    opcount n0 = plan_built(two_convs(), 0, NULL);
    CHECK_EQ_INT(n0.run, 2);
    CHECK_EQ_INT(count_of(&n0, "FusedConv"), 1);
    CHECK_EQ_INT(count_of(&n0, "Conv"), 1);
}

/* Control flow (tests/data/control, gen_control.py).  ORT's
 * ConstantFolding inlines an If whose condition folds at session creation
 * (onnxruntime/core/optimizer/constant_folding.cc, Graph::InlineIfSubgraph
 * in onnxruntime/core/graph/graph.cc): no If kernel; the branch taken is
 * planned on its own.  An If whose condition is known only once the dims
 * are bound stays a kernel. */
typedef struct ctl_plan {
    size_t run, inlined;  /* kernels of the main graph */
    int64_t times;        /* oc_analysis_sub of the control node */
    size_t sub_run;       /* kernels of its subgraph that run */
    char sub_first[64];   /* the first one's main node */
    char sub_first_op[32];
} ctl_plan;

static ctl_plan plan_control(const char *file, int64_t batch)
{
    ctl_plan c = {0};
    c.times = -2;
    char path[512];
    snprintf(path, sizeof path, "%s/data/control/%s", OC_TESTS_DIR, file);
    oc_model *m = NULL;
    oc_analysis *a = NULL, *s = NULL;
    oc_error e;
    if (oc_model_load_file(path, &m, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        t_failed++;
        return c;
    }
    oc_analyze_opts o = {.batch = batch}, sv = {.session_view = true};
    CHECK_EQ_INT(oc_analyze(m, &o, &a, &e), OC_OK);
    CHECK_EQ_INT(oc_analyze(m, &sv, &s, &e), OC_OK);
    oc_arena *ar = oc_arena_new();
    oc_plan p, sp;
    oc_plan_opts po = {.target = "ort-cpu", .session = s};
    const oc_graph *g = oc_model_graph(m);
    if (a && s && oc_plan_build(a, &po, &p, ar, &e) == OC_OK) {
        c.run = p.n_run;
        for (size_t k = 0; k < p.n_kernels; k++) {
            const oc_kernel *kn = &p.kernels[k];
            c.inlined += kn->inlined;
            if (kn->main == OC_PLAN_INSERTED || kn->kind != OC_KERNEL_RUN ||
                g->nodes[kn->main].n_attrs == 0 || strcmp(g->nodes[kn->main].op, "Shape") == 0)
                continue;
            const oc_analysis *sub = oc_analysis_sub(a, kn->main, &c.times);
            if (!sub)
                continue;
            /* outer-scope values the main plan folds are constants there */
            const oc_graph *sg0 = oc_analysis_graph(sub);
            bool *oconst = oc_arena_calloc(ar, sg0->n_values + 1, sizeof *oconst);
            for (size_t v = 0; oconst && v < sg0->n_values; v++) {
                int pv = sg0->values[v].is_outer ? oc_graph_find(g, sg0->values[v].name) : -1;
                oconst[v] = pv >= 0 && p.constant[pv];
            }
            oc_plan_opts so = {.target = "ort-cpu",
                               .session = oc_analysis_sub_graph(s, kn->main, sg0),
                               .outer_constant = oconst};
            if (oc_plan_build(sub, &so, &sp, ar, &e) != OC_OK)
                continue;
            const oc_graph *sg = oc_analysis_graph(sub);
            CHECK(sg != g && sg->parent == g);
            c.sub_run = sp.n_run;
            for (size_t q = 0; q < sp.n_kernels && !c.sub_first[0]; q++)
                if (sp.kernels[q].kind == OC_KERNEL_RUN) {
                    snprintf(c.sub_first, sizeof c.sub_first, "%s",
                             sg->nodes[sp.kernels[q].main].name);
                    snprintf(c.sub_first_op, sizeof c.sub_first_op, "%s", sp.kernels[q].op);
                }
        }
    } else {
        t_failed++;
    }
    oc_arena_free(ar);
    oc_analysis_free(s);
    oc_analysis_free(a);
    oc_model_free(m);
    return c;
}

/* The names ORT gives an inlined branch (Graph::InlineIfSubgraph,
 * onnxruntime/core/graph/graph.cc): "<If><then_branch>_<name>", the
 * branch's outputs renamed to the If's. */
static void inline_names_rule(void)
{
    char path[512], b1[600], b2[600];
    snprintf(path, sizeof path, "%s/data/control/if_const.onnx", OC_TESTS_DIR);
    oc_model *m = NULL;
    oc_analysis *a = NULL;
    oc_error e;
    CHECK_EQ_INT(oc_model_load_file(path, &m, &e), OC_OK);
    oc_analyze_opts o = {.batch = 1};
    CHECK_EQ_INT(m ? oc_analyze(m, &o, &a, &e) : OC_ERR_INPUT, OC_OK);
    const oc_analysis *sub = a ? oc_analysis_sub(a, 0, NULL) : NULL;
    CHECK(sub != NULL);
    if (sub) {
        const oc_graph *g = oc_model_graph(m), *br = oc_analysis_graph(sub);
        oc_inline_names n;
        oc_inline_names_init(&n, NULL, g, 0, br);
        CHECK_EQ_STR(n.prefix, "ifthen_branch_");
        CHECK_EQ_STR(oc_inline_node_name(&n, br, 0, b1, sizeof b1), "ifthen_branch_then_conv");
        CHECK_EQ_STR(oc_inline_value_name(&n, br, oc_graph_find(br, "then_c"), b1, sizeof b1),
                     "ifthen_branch_then_c");
        CHECK_EQ_STR(oc_inline_value_name(&n, br, oc_graph_find(br, "then_y"), b1, sizeof b1),
                     "Y");
        CHECK_EQ_STR(oc_inline_value_name(&n, br, oc_graph_find(br, "W"), b1, sizeof b1), "W");
        /* prefixes compose: an If at node 0 of the branch (the Conv stands
         * in for one; with no then_branch it is the else branch) starts
         * from its own inlined name */
        oc_inline_names inner;
        oc_inline_names_init(&inner, &n, br, 0, br);
        CHECK_EQ_STR(inner.prefix, "ifthen_branch_then_convelse_branch_");
        CHECK_EQ_STR(oc_inline_node_name(NULL, g, 0, b2, sizeof b2), "if");
    }
    oc_analysis_free(a);
    oc_model_free(m);
}

static void control_rules(void)
{
    inline_names_rule();
    /* constant condition: inlined, the then-branch's Conv+Relu runs as
     * one FusedConv */
    ctl_plan c = plan_control("if_const.onnx", 1);
    CHECK_EQ_INT(c.inlined, 1);
    CHECK_EQ_INT(c.run, 0);
    CHECK_EQ_INT(c.times, 1);
    CHECK_EQ_INT(c.sub_run, 1);
    CHECK_EQ_STR(c.sub_first, "then_conv");
    CHECK_EQ_STR(c.sub_first_op, "FusedConv");
    /* Equal(Size(Shape(X)), 3) with X[N,...]: Shape does not fold at
     * session creation, so the If stays (Shape, Size, Equal, If run); the
     * bound analysis knows the rank, 4: the else branch runs */
    c = plan_control("if_rank.onnx", 2);
    CHECK_EQ_INT(c.inlined, 0);
    CHECK_EQ_INT(c.run, 4);
    CHECK_EQ_INT(c.times, 1);
    CHECK_EQ_STR(c.sub_first, "else_conv");
    /* the branch a kept If runs is planned as ORT optimises it, at
     * session creation: Shape of X[N,...] does not fold there, though the
     * bound analysis knows it (Shape and Cast run) */
    c = plan_control("if_shape.onnx", 2);
    CHECK_EQ_INT(c.inlined, 0);
    CHECK_EQ_INT(c.sub_run, 2);
    CHECK_EQ_STR(c.sub_first, "then_shape");
    /* ORT folds the nodes before an If before it optimises the branch
     * (constant_folding.cc): Mul(c, c) of the folded c folds too */
    c = plan_control("if_outer.onnx", 1);
    CHECK_EQ_INT(c.inlined, 1);
    CHECK_EQ_INT(c.sub_run, 1);
    CHECK_EQ_STR(c.sub_first, "then_add");
    /* a condition from an input: which branch runs is unknown */
    c = plan_control("if_input.onnx", 1);
    CHECK_EQ_INT(c.inlined, 0);
    CHECK_EQ_INT(c.run, 1);
    CHECK_EQ_INT(c.times, -1);
    /* Loop: a constant trip count, 5; from an input: unknown */
    c = plan_control("loop_const.onnx", 1);
    CHECK_EQ_INT(c.times, 5);
    /* MatMul, Relu and the condition's Identity, a body input passed to a
     * body output, which ORT keeps (identity_elimination.cc) */
    CHECK_EQ_INT(c.sub_run, 3);
    CHECK_EQ_STR(c.sub_first, "body_matmul");
    c = plan_control("loop_input.onnx", 1);
    CHECK_EQ_INT(c.times, -1);
    /* Scan: the sequence length, 7 */
    c = plan_control("scan.onnx", 1);
    CHECK_EQ_INT(c.times, 7);
    CHECK_EQ_STR(c.sub_first, "scan_matmul");
}

/* Quantized graphs (tests/data/ort-quant: small models of gen_quant.py and
 * the kernels ONNX Runtime 1.30 ran for them). */
static void quant_rules(void)
{
    /* dynamic quantization: DQL + MatMulInteger + Cast + Mul(scale) + Add
     * of a constant bias -> one DynamicQuantizeMatMul */
    opcount c = plan_file("ort-quant/dq_matmul.onnx.gz", 16);
    CHECK_EQ_INT(c.run, 1);
    CHECK_EQ_INT(count_of(&c, "DynamicQuantizeMatMul"), 1);
    c = plan_file("ort-quant/dq_mlp.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "DynamicQuantizeMatMul"), 2);
    CHECK_EQ_INT(c.run, 3);
    /* the scale Muls of three MatMulIntegers are one after CSE (equal
     * constant scales): with three readers none fuses */
    c = plan_file("ort-quant/dq_shared.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "MatMulInteger"), 3);
    CHECK_EQ_INT(count_of(&c, "DynamicQuantizeLinear"), 1);
    CHECK_EQ_INT(c.run, 14);
    /* ConvInteger: no fusion */
    c = plan_file("ort-quant/dq_conv.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "ConvInteger"), 1);
    CHECK_EQ_INT(c.run, 7);
    /* QDQ Conv + Relu (zero point 0: the Relu goes) -> QLinearConv, run
     * channels last between two Transposes */
    c = plan_file("ort-quant/qdq_conv_relu.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "QLinearConv"), 1);
    CHECK_EQ_INT(count_of(&c, "Transpose"), 2);
    CHECK_EQ_INT(count_of(&c, "Relu"), 0);
    CHECK_EQ_INT(c.run, 5);
    /* Clip(0, 6) before a Q of range [0, 6] goes too */
    c = plan_file("ort-quant/qdq_clip.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "QLinearConv"), 1);
    CHECK_EQ_INT(count_of(&c, "Clip"), 0);
    /* zero point 128: the Relu stays, so the Conv stays float (FusedConv
     * with the Relu), and its weight and bias DQs run (never folded) */
    c = plan_file("ort-quant/qdq_relu_kept.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "FusedConv"), 1);
    CHECK_EQ_INT(count_of(&c, "DequantizeLinear"), 4);
    CHECK_EQ_INT(count_of(&c, "ReorderInput"), 0);
    /* MatMul: QLinearMatMul with a Q after it, MatMulIntegerToFloat without */
    c = plan_file("ort-quant/qdq_matmul.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "QLinearMatMul"), 1);
    CHECK_EQ_INT(c.run, 3);
    c = plan_file("ort-quant/qdq_matmul_float.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "MatMulIntegerToFloat"), 1);
    CHECK_EQ_INT(c.run, 2);
    c = plan_file("ort-quant/qdq_gemm.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "QGemm"), 1);
    c = plan_file("ort-quant/qdq_binary.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "QLinearAdd"), 1);
    CHECK_EQ_INT(count_of(&c, "QLinearMul"), 1);
    CHECK_EQ_INT(count_of(&c, "DequantizeLinear"), 2); /* the outputs' */
    c = plan_file("ort-quant/qdq_pool.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "QLinearAveragePool"), 1);
    CHECK_EQ_INT(count_of(&c, "QLinearGlobalAveragePool"), 1);
    c = plan_file("ort-quant/qdq_unary.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "QLinearSigmoid"), 1);
    CHECK_EQ_INT(count_of(&c, "QLinearLeakyRelu"), 1);
    c = plan_file("ort-quant/qdq_concat.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "QLinearConcat"), 1);
    /* data movement runs on the integers, the QDQ pairs (equal scale and
     * zero point) dropped; no NCHWc for the uint8 MaxPool */
    c = plan_file("ort-quant/qdq_move.onnx.gz", 16);
    CHECK_EQ_INT(c.run, 5);
    CHECK_EQ_INT(count_of(&c, "DequantizeLinear"), 1);
    CHECK_EQ_INT(count_of(&c, "ReorderInput"), 0);
    /* three QLinearConvs and the QLinearAdd of two of them run channels
     * last: one Transpose in, one out */
    c = plan_file("ort-quant/qdq_resnet.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "QLinearConv"), 3);
    CHECK_EQ_INT(count_of(&c, "QLinearAdd"), 1);
    CHECK_EQ_INT(count_of(&c, "Transpose"), 2);
    CHECK_EQ_INT(count_of(&c, "QGemm"), 1);
    CHECK_EQ_INT(c.run, 18);
    /* QOperator: the QLinearConv of a QOperator model runs channels last
     * too; the QLinearAdd of its output with itself follows it there */
    c = plan_file("ort-quant/qop_cnn.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "Transpose"), 2);
    CHECK_EQ_INT(c.run, 8);
    /* resnet18 in QDQ format: 20 QLinearConvs; the residual Adds whose
     * skip input comes plain run plain (a Transpose each side), the rest
     * channels last; a bias DQ shared by several Convs goes */
    c = plan_file("ort-quant/resnet18_qdq.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "QLinearConv"), 20);
    CHECK_EQ_INT(count_of(&c, "QLinearAdd"), 8);
    CHECK_EQ_INT(count_of(&c, "Transpose"), 8);
    CHECK_EQ_INT(count_of(&c, "DequantizeLinear"), 5);
    CHECK_EQ_INT(c.run, 50);
    /* BERT as quantize_dynamic writes it: Q, K, V share a quantizer
     * (MatMulIntegerToFloat each), the others are DynamicQuantizeMatMul;
     * the exporter's Add(bias, y) fuses as Add(y, bias) does */
    c = plan_file("ort-quant/bert_small_dq.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "MatMulIntegerToFloat"), 12);
    CHECK_EQ_INT(count_of(&c, "DynamicQuantizeMatMul"), 12);
    CHECK_EQ_INT(count_of(&c, "DynamicQuantizeLinear"), 4);
    CHECK_EQ_INT(count_of(&c, "Add"), 10);
    CHECK_EQ_INT(count_of(&c, "Gelu"), 4);
    /* float16: the graph runs in float32 (fusions and NCHWc as for a
     * float model) between a Cast of the input and one of the output */
    c = plan_file("ort-quant/fp16_cnn.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "Cast"), 2);
    CHECK_EQ_INT(count_of(&c, "Conv"), 2); /* NCHWc, Relu and Add fused */
    CHECK_EQ_INT(count_of(&c, "ReorderInput"), 1);
    CHECK_EQ_INT(c.run, 10);
    /* LayerNormalization has a float16 kernel: a Cast before it; Softmax
     * has none: its function body's five kernels */
    c = plan_file("ort-quant/fp16_mlp.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "Cast"), 2);
    CHECK_EQ_INT(count_of(&c, "ReduceMax"), 1);
    CHECK_EQ_INT(count_of(&c, "Div"), 1);
    CHECK_EQ_INT(count_of(&c, "Softmax"), 0);
    CHECK_EQ_INT(c.run, 10);
    /* keep_io_types: the input's Cast to float16 and ORT's back cancel; at
     * the output the model's Cast stays */
    c = plan_file("ort-quant/fp16_io.onnx.gz", 16);
    CHECK_EQ_INT(count_of(&c, "Cast"), 1);
    CHECK_EQ_INT(c.run, 4);
}

/* A built model, loaded, analysed and planned as eager PyTorch runs it. */
typedef struct built {
    void *buf;
    oc_model *m;
    oc_analysis *a;
    oc_arena *ar;
    oc_plan plan;
} built;

static void built_free(built *bt)
{
    oc_arena_free(bt->ar);
    oc_analysis_free(bt->a);
    oc_model_free(bt->m);
    free(bt->buf);
}

/* b packed (and freed), loaded, analysed with o and planned for target
 * into *bt; false (a failure counted, its message on stderr) when any
 * step fails.  build_eager: for torch-cpu. */
static bool build_for(oc_builder *b, const oc_analyze_opts *o, const char *target, built *bt)
{
    size_t size = 0;
    oc_error e;
    *bt = (built){0};
    oc_error_clear(&e);
    bool ok = oc_builder_pack(b, &bt->buf, &size, &e) == OC_OK && bt->buf &&
              oc_model_load_buffer(bt->buf, size, "built", &bt->m, &e) == OC_OK &&
              oc_analyze(bt->m, o, &bt->a, &e) == OC_OK && (bt->ar = oc_arena_new()) &&
              oc_plan_build(bt->a, &(oc_plan_opts){.target = target}, &bt->plan, bt->ar, &e) ==
                  OC_OK;
    oc_builder_free(b);
    if (!ok) {
        fprintf(stderr, "build_for %s: %s\n", target, e.msg);
        t_failed++;
        built_free(bt);
    }
    return ok;
}

static bool build_eager(oc_builder *b, const oc_analyze_opts *o, built *bt)
{
    return build_for(b, o, "torch-cpu", bt);
}

/* ONNX Runtime's Pow squares or cubes by products when the exponent is a
 * scalar 2 or 3 (element_wise_ops.cc): those are costed as a Mul, any
 * other exponent (0.5, or 2 in a tensor of two) as the Pow it is. */
static void pow_rules(void)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {4, 8, 2}, two[] = {2};
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_floats(b, "f2", 0, NULL, (float[]){2});
    oc_builder_ints(b, "i3", 1, (int64_t[]){1}, (int64_t[]){3});
    oc_builder_floats(b, "half", 0, NULL, (float[]){0.5f});
    oc_builder_floats(b, "pair", 1, two, (float[]){2, 2});
    oc_builder_node(b, "Pow", "sq", "X,f2", "A");
    oc_builder_node(b, "Pow", "cube", "A,i3", "B");
    oc_builder_node(b, "Pow", "root", "B,half", "C");
    oc_builder_node(b, "Pow", "pairwise", "C,pair", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    built bt;
    if (!build_for(b, &(oc_analyze_opts){0}, "ort-cpu", &bt))
        return;
    const oc_graph *g = oc_model_graph(bt.m);
    int products = 0, pows = 0;
    for (size_t k = 0; k < bt.plan.n_kernels; k++) {
        const oc_kernel *kn = &bt.plan.kernels[k];
        if (kn->kind != OC_KERNEL_RUN)
            continue;
        const char *name = g->nodes[kn->main].name;
        bool mul = kn->as_op && !strcmp(kn->as_op, "Mul");
        CHECK(!strcmp(kn->op, "Pow")); /* as ORT's profiler names it */
        CHECK(mul == (!strcmp(name, "sq") || !strcmp(name, "cube")));
        products += mul;
        pows += !kn->as_op;
    }
    CHECK_EQ_INT(products, 2);
    CHECK_EQ_INT(pows, 2);
    built_free(&bt);
}

/* X [2, 6, 4] read along axis 1 by a Gather of index 0 (a scalar), a
 * Gather of index [1] and a Slice of `lo`..10 (axes [1]), and by a Relu:
 * ORT's GatherSliceToSplitFusion makes the parts one Split, with a
 * Squeeze after the scalar Gather's part, when they cover the axis once
 * (opset 13 and later); other readers do not matter. */
static oc_builder *parts_of(int64_t opset, int64_t lo)
{
    oc_builder *b = oc_builder_new(opset);
    int64_t x[] = {2, 6, 4}, one[] = {1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_ints(b, "i0", 0, NULL, (int64_t[]){0});
    oc_builder_ints(b, "i1", 1, one, (int64_t[]){1});
    oc_builder_ints(b, "st", 1, one, &lo);
    oc_builder_ints(b, "en", 1, one, (int64_t[]){10});
    oc_builder_ints(b, "ax", 1, one, (int64_t[]){1});
    oc_builder_attr_int(b, oc_builder_node(b, "Gather", "g0", "X,i0", "A"), "axis", 1);
    oc_builder_attr_int(b, oc_builder_node(b, "Gather", "g1", "X,i1", "B"), "axis", 1);
    oc_builder_node(b, "Slice", "s", "X,st,en,ax", "C");
    oc_builder_node(b, "Relu", "r", "X", "R");
    const char *outs[] = {"A", "B", "C", "R"};
    for (size_t i = 0; i < 4; i++)
        oc_builder_output(b, outs[i], OC_DT_FLOAT, -1, NULL);
    return b;
}

/* X [4, 16] -> MatMul by W [16, 8] -> BatchNormalization over the 8
 * columns -> Relu.  `stat`: the mean, a weight or a graph input. */
static oc_builder *matmul_bn_relu(bool mean_input)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {4, 16}, w[] = {16, 8}, c[] = {8};
    float wv[128], cv[8];
    for (size_t i = 0; i < 128; i++)
        wv[i] = (float)(i % 7) - 3.0f;
    for (size_t i = 0; i < 8; i++)
        cv[i] = 1.0f + (float)i;
    oc_builder_input(b, "X", OC_DT_FLOAT, 2, x);
    oc_builder_floats(b, "W", 2, w, wv);
    oc_builder_floats(b, "scale", 1, c, cv);
    oc_builder_floats(b, "bias", 1, c, cv);
    oc_builder_floats(b, "var", 1, c, cv);
    if (mean_input)
        oc_builder_input(b, "mean", OC_DT_FLOAT, 1, c);
    else
        oc_builder_floats(b, "mean", 1, c, cv);
    oc_builder_node(b, "MatMul", "mm", "X,W", "M");
    oc_builder_attr_float(b, oc_builder_node(b, "BatchNormalization", "bn",
                                             "M,scale,bias,mean,var", "N"),
                          "epsilon", 1e-5f);
    oc_builder_node(b, "Relu", "act", "N", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* Two rewrites of ORT's level 1 that change how many kernels a graph runs:
 * GatherSliceToSplitFusion and MatmulBNFusion (then GemmActivationFusion). */
static void gather_split_rules(void)
{
    opcount c = plan_built(parts_of(13, 2), 0, NULL);
    CHECK_EQ_INT(count_of(&c, "Split"), 1);
    CHECK_EQ_INT(count_of(&c, "Squeeze"), 1); /* index 0 is a scalar, [1] not */
    CHECK_EQ_INT(count_of(&c, "Gather") + count_of(&c, "Slice"), 0);
    CHECK_EQ_INT(count_of(&c, "Relu"), 1);
    CHECK_EQ_INT(c.run, 3);
    /* index 2 read by none, or read twice; before opset 13 */
    const int64_t los[] = {3, 1, 2}, opsets[] = {13, 13, 12};
    for (size_t t = 0; t < 3; t++) {
        c = plan_built(parts_of(opsets[t], los[t]), 0, NULL);
        CHECK_EQ_INT(count_of(&c, "Split") + count_of(&c, "Squeeze"), 0);
        CHECK_EQ_INT(count_of(&c, "Gather"), 2);
        CHECK_EQ_INT(count_of(&c, "Slice"), 1);
    }
    c = plan_built(matmul_bn_relu(false), 0, NULL);
    CHECK_EQ_INT(count_of(&c, "FusedGemm"), 1);
    CHECK_EQ_INT(c.run, 1);
    c = plan_built(matmul_bn_relu(true), 0, NULL); /* statistics not known */
    CHECK_EQ_INT(count_of(&c, "MatMul"), 1);
    CHECK_EQ_INT(count_of(&c, "BatchNormalization"), 1);
    CHECK_EQ_INT(count_of(&c, "FusedGemm") + count_of(&c, "Gemm"), 0);
}

/* X [4, 16] -> Gemm by a constant -> activation `act` at `opset`. */
static oc_builder *gemm_act(const char *act, int64_t opset)
{
    oc_builder *b = oc_builder_new(opset);
    int64_t x[] = {4, 16}, w[] = {16, 8};
    oc_builder_input(b, "X", OC_DT_FLOAT, 2, x);
    oc_builder_random(b, "W", OC_DT_FLOAT, 2, w, -1, 1, 1);
    oc_builder_node(b, "Gemm", "g", "X,W", "H");
    oc_builder_node(b, act, "act", "H", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* X [2, 8, 16] -> a LayerNorm written out, with its scale and bias
 * (scale_bias) or without. */
static oc_builder *written_layernorm(bool scale_bias)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {2, 8, 16}, c16[] = {16};
    float v16[16];
    for (int k = 0; k < 16; k++)
        v16[k] = 1.0f + 0.01f * (float)k;
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_floats(b, "two", 0, NULL, (const float[]){2});
    oc_builder_floats(b, "eps", 0, NULL, (const float[]){1e-5f});
    oc_builder_floats(b, "G", 1, c16, v16);
    oc_builder_floats(b, "B", 1, c16, v16);
    layernorm_nodes(b, "X", "Y", scale_bias);
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    return b;
}

/* A [2, 8, 16] -> Transpose (perm) read by two MatMuls, T x W (W [2, 8, 4]
 * after [0, 2, 1], [8, 16, 4] after [1, 0, 2]), and by a Relu as well when
 * `relu`. */
static oc_builder *shared_transpose(const int64_t *perm, bool relu)
{
    oc_builder *b = oc_builder_new(13);
    int64_t a[] = {2, 8, 16}, w[] = {2, 8, 4}, wb[] = {8, 16, 4};
    bool batch = perm[0] == 1;
    oc_builder_input(b, "A", OC_DT_FLOAT, 3, a);
    oc_builder_random(b, "W1", OC_DT_FLOAT, 3, batch ? wb : w, -1, 1, 1);
    oc_builder_random(b, "W2", OC_DT_FLOAT, 3, batch ? wb : w, -1, 1, 2);
    oc_builder_attr_ints(b, oc_builder_node(b, "Transpose", "t", "A", "T"), "perm", 3, perm);
    oc_builder_node(b, "MatMul", "mm1", "T,W1", "Y1");
    oc_builder_node(b, "MatMul", "mm2", "T,W2", "Y2");
    oc_builder_output(b, "Y1", OC_DT_FLOAT, -1, NULL);
    oc_builder_output(b, "Y2", OC_DT_FLOAT, -1, NULL);
    if (relu) {
        oc_builder_node(b, "Relu", "r", "T", "Y3");
        oc_builder_output(b, "Y3", OC_DT_FLOAT, -1, NULL);
    }
    return b;
}

/* X [N, T, 32] through k blocks, each: MatMul to 96, Reshape to [N, T, 3,
 * 32] by a target made of Shape(x) -> Gather(0 / 1) -> Unsqueeze and
 * constants, ReduceMean over the 3, Add x.  Each block's Reshape input has
 * a load-time shape only once the block before it is fused. */
static oc_builder *reshape_blocks(int k)
{
    oc_builder *b = oc_builder_new(13);
    const char *syms[] = {"N", "T", NULL};
    oc_builder_input_sym(b, "X", OC_DT_FLOAT, 3, (int64_t[]){-1, -1, 32}, syms);
    oc_builder_ints(b, "i0", 0, NULL, (int64_t[]){0});
    oc_builder_ints(b, "i1", 0, NULL, (int64_t[]){1});
    oc_builder_ints(b, "ax", 1, (int64_t[]){1}, (int64_t[]){0});
    oc_builder_ints(b, "tail", 1, (int64_t[]){2}, (int64_t[]){3, 32});
    oc_builder_random(b, "W", OC_DT_FLOAT, 2, (int64_t[]){32, 96}, -0.1, 0.1, 1);
    char x[24] = "X";
    for (int q = 0; q < k; q++) {
        char n[16][24];
        for (int j = 0; j < 9; j++)
            snprintf(n[j], sizeof n[j], "b%d_%d", q, j);
        char in[80];
        oc_builder_node(b, "Shape", n[0], x, n[0]);
        snprintf(in, sizeof in, "%s,i0", n[0]);
        oc_builder_attr_int(b, oc_builder_node(b, "Gather", n[1], in, n[1]), "axis", 0);
        snprintf(in, sizeof in, "%s,i1", n[0]);
        oc_builder_attr_int(b, oc_builder_node(b, "Gather", n[2], in, n[2]), "axis", 0);
        snprintf(in, sizeof in, "%s,ax", n[1]);
        oc_builder_node(b, "Unsqueeze", n[3], in, n[3]);
        snprintf(in, sizeof in, "%s,ax", n[2]);
        oc_builder_node(b, "Unsqueeze", n[4], in, n[4]);
        snprintf(in, sizeof in, "%s,%s,tail", n[3], n[4]);
        oc_builder_attr_int(b, oc_builder_node(b, "Concat", n[5], in, n[5]), "axis", 0);
        snprintf(in, sizeof in, "%s,W", x);
        oc_builder_node(b, "MatMul", n[6], in, n[6]);
        snprintf(in, sizeof in, "%s,%s", n[6], n[5]);
        oc_builder_node(b, "Reshape", n[7], in, n[7]);
        size_t rm = oc_builder_node(b, "ReduceMean", n[8], n[7], n[8]);
        oc_builder_attr_ints(b, rm, "axes", 1, (int64_t[]){2});
        oc_builder_attr_int(b, rm, "keepdims", 0);
        char out[24];
        snprintf(out, sizeof out, "b%d_out", q);
        snprintf(in, sizeof in, "%s,%s", n[8], x);
        oc_builder_node(b, "Add", out, in, out);
        snprintf(x, sizeof x, "%s", out);
    }
    oc_builder_output(b, x, OC_DT_FLOAT, -1, NULL);
    return b;
}

/* ORT rewrites whose conditions the plan follows from their sources:
 * GemmActivationFusion's activations (Elu too, not Clip, versions it
 * names), LayerNormFusion's and SimplifiedLayerNormFusion's scale and bias,
 * MatmulTransposeFusion into every MatMul reading a Transpose. */
static void fusion_conditions(void)
{
    opcount c = plan_built(gemm_act("Elu", 13), 0, NULL);
    CHECK_EQ_INT(count_of(&c, "FusedGemm"), 1);
    CHECK_EQ_INT(c.run, 1);
    c = plan_built(gemm_act("Clip", 13), 0, NULL);
    CHECK_EQ_INT(count_of(&c, "FusedGemm"), 0);
    c = plan_built(gemm_act("LeakyRelu", 16), 0, NULL); /* LeakyRelu-16: not a version it fuses */
    CHECK_EQ_INT(count_of(&c, "FusedGemm"), 0);
    CHECK_EQ_INT(c.run, 2);
    c = plan_built(gemm_act("Softplus", 13), 0, NULL);
    CHECK_EQ_INT(count_of(&c, "FusedGemm"), 1);

    c = plan_built(written_layernorm(true), 0, NULL);
    CHECK_EQ_INT(count_of(&c, "LayerNormalization"), 1);
    CHECK_EQ_INT(c.run, 1);
    c = plan_built(written_layernorm(false), 0, NULL);
    CHECK_EQ_INT(count_of(&c, "LayerNormalization"), 0);
    CHECK_EQ_INT(count_of(&c, "SimplifiedLayerNormalization"), 0);
    CHECK_EQ_INT(c.run, 7);
    /* eager PyTorch runs nn.LayerNorm as one kernel, affine or not */
    built bt;
    if (build_eager(written_layernorm(false), &(oc_analyze_opts){0}, &bt)) {
        size_t run = 0;
        for (size_t k = 0; k < bt.plan.n_kernels; k++)
            run += bt.plan.kernels[k].kind == OC_KERNEL_RUN;
        CHECK_EQ_INT(run, 1);
        built_free(&bt);
    }

    /* ReshapeFusion in ORT's 10 rounds of level-1 rewrites: a chain of 11
     * such blocks keeps the shape arithmetic of its last (ORT 1.30: 10, 11,
     * 14 and 20 blocks keep that of 0, 1, 4 and 10) */
    const int blocks[] = {10, 11, 14};
    for (int q = 0; q < 3; q++) {
        c = plan_built(reshape_blocks(blocks[q]), 0, NULL);
        CHECK_EQ_INT(count_of(&c, "Shape"), blocks[q] - 10);
        CHECK_EQ_INT(count_of(&c, "Concat"), blocks[q] - 10);
        CHECK_EQ_INT(count_of(&c, "Reshape"), blocks[q]);
    }

    /* [0, 2, 1]: transB-like; [1, 0, 2]: transBatch (operands of one rank) */
    const int64_t perms[2][3] = {{0, 2, 1}, {1, 0, 2}};
    for (int q = 0; q < 2; q++) {
        c = plan_built(shared_transpose(perms[q], false), 0, NULL);
        CHECK_EQ_INT(count_of(&c, "FusedMatMul"), 2);
        CHECK_EQ_INT(count_of(&c, "Transpose"), 0);
        CHECK_EQ_INT(c.run, 2);
        c = plan_built(shared_transpose(perms[q], true), 0, NULL);
        CHECK_EQ_INT(count_of(&c, "FusedMatMul"), 2);
        CHECK_EQ_INT(count_of(&c, "Transpose"), 1); /* the Relu still reads it */
        CHECK_EQ_INT(c.run, 4);
    }
}

/* X [batch, 9216] -> Gemm with W [1024, 9216] (37.7 MB, over glibc's
 * largest mmap threshold) -> Relu: a training step's fresh bytes as the
 * eager plan runs it. */
static oc_train_memory fc_memory(int64_t batch, oc_optimizer o)
{
    oc_train_memory mem = {0};
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {batch, 9216}, w[] = {1024, 9216};
    oc_builder_input(b, "X", OC_DT_FLOAT, 2, x);
    oc_builder_random(b, "W", OC_DT_FLOAT, 2, w, -1, 1, 1);
    size_t gm = oc_builder_node(b, "Gemm", "fc", "X,W", "H");
    oc_builder_attr_int(b, gm, "transB", 1);
    oc_builder_node(b, "Relu", "r", "H", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    built bt;
    if (!build_eager(b, &(oc_analyze_opts){.batch = batch}, &bt))
        return mem;
    oc_training_memory(bt.a, &bt.plan, o, &mem);
    built_free(&bt);
    return mem;
}

/* X [2, 8, 16]: a Reshape whose target the export computes from Shape
 * (Gather, Unsqueeze, Concat), then LayerNorm and GELU spelled out as
 * opset 13 exports them: eager PyTorch runs the Reshape, one layer_norm
 * and one gelu, and no kernel for the sizes (Python ints there). */
static void eager_rules(void)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {2, 8, 16}, one[] = {1}, c16[] = {16};
    float g16[16], b16[16];
    for (int k = 0; k < 16; k++)
        g16[k] = 1.0f + 0.01f * (float)k, b16[k] = 0.01f * (float)k;
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_ints(b, "i0", 0, NULL, (int64_t[]){0});
    oc_builder_ints(b, "ax0", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "minus1", 1, one, (int64_t[]){-1});
    oc_builder_floats(b, "two", 0, NULL, (float[]){2});
    oc_builder_floats(b, "eps", 0, NULL, (float[]){1e-5f});
    oc_builder_floats(b, "gamma", 1, c16, g16);
    oc_builder_floats(b, "beta", 1, c16, b16);
    oc_builder_node(b, "Shape", "shape", "X", "S");
    oc_builder_node(b, "Gather", "n", "S,i0", "N");
    oc_builder_node(b, "Unsqueeze", "n1", "N,ax0", "N1");
    oc_builder_attr_int(b, oc_builder_node(b, "Concat", "cat", "N1,minus1", "T"), "axis", 0);
    oc_builder_attr_int(b, oc_builder_node(b, "Reshape", "flat", "X,T", "F"), "allowzero", 0);
    size_t m0 = oc_builder_node(b, "ReduceMean", "mean", "X", "M");
    oc_builder_attr_ints(b, m0, "axes", 1, (int64_t[]){-1});
    oc_builder_node(b, "Sub", "d", "X,M", "D");
    oc_builder_node(b, "Pow", "sq", "D,two", "P");
    size_t m1 = oc_builder_node(b, "ReduceMean", "var", "P", "V");
    oc_builder_attr_ints(b, m1, "axes", 1, (int64_t[]){-1});
    oc_builder_node(b, "Add", "ve", "V,eps", "VE");
    oc_builder_node(b, "Sqrt", "sd", "VE", "SD");
    oc_builder_node(b, "Div", "norm", "D,SD", "NM");
    oc_builder_node(b, "Mul", "scale", "NM,gamma", "SC");
    oc_builder_node(b, "Add", "shift", "SC,beta", "LN");
    add_erf_gelu(b, "LN", "Y");
    oc_builder_output(b, "F", OC_DT_FLOAT, -1, NULL);
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    built bt;
    if (!build_eager(b, &(oc_analyze_opts){0}, &bt))
        return;
    const oc_plan p = bt.plan;
    size_t run = 0, ln = 0, gelu = 0, reshape = 0;
    for (size_t k = 0; k < p.n_kernels; k++) {
        const oc_kernel *kn = &p.kernels[k];
        if (kn->kind != OC_KERNEL_RUN)
            continue;
        run++;
        if (kn->as_op && !strcmp(kn->as_op, "LayerNormalization") && kn->n_fused == 8)
            ln++;
        if (kn->as_op && !strcmp(kn->as_op, "Gelu") && kn->n_fused == 4)
            gelu++;
        reshape += !strcmp(kn->op, "Reshape");
    }
    CHECK_EQ_INT(run, 3);
    CHECK_EQ_INT(ln, 1);
    CHECK_EQ_INT(gelu, 1);
    CHECK_EQ_INT(reshape, 1);
    const oc_graph *g = oc_model_graph(bt.m);
    for (size_t i = 0; i < g->n_nodes; i++)
        if (!strcmp(g->nodes[i].name, "shape") || !strcmp(g->nodes[i].name, "cat"))
            CHECK(p.kernels[p.kernel_of[i]].kind == OC_KERNEL_FOLDED);
    built_free(&bt);
}

static void fresh_rules(void)
{
    const uint64_t wb = 1024 * 9216 * 4; /* W's gradient: mapped anew */
    oc_train_memory s = fc_memory(1, OC_OPT_SGD), ad = fc_memory(1, OC_OPT_ADAM),
                    inf = fc_memory(1, OC_OPT_NONE);
    /* batch 1: the heap holds the rest (X, H, Y: 45 KB), under twice its
     * largest block's worth of churn but a little */
    CHECK(s.fresh >= wb && s.fresh < wb + 20000);
    /* Adam: two temporaries of W's size in its update */
    CHECK(ad.fresh >= 3 * wb && ad.fresh < 3 * wb + 20000);
    CHECK(inf.fresh == 0);
    /* batch 1024: X is 37.7 MB too, mapped anew, and so is its gradient;
     * H and Y (4 MiB each) stay under the threshold: the heap's share of
     * what lies beyond twice the largest of them is nothing */
    oc_train_memory big = fc_memory(1024, OC_OPT_SGD);
    CHECK_EQ_INT(big.fresh, 3 * wb);
    /* batch 4096: H and Y are 16 MiB each, X 151 MB: X twice, W once */
    oc_train_memory huge = fc_memory(4096, OC_OPT_SGD);
    CHECK_EQ_INT(huge.fresh, 2 * 4 * wb + wb);

    /* X [4, 64, 32] -> Transpose -> Slice -> Relu: the Transpose and the
     * Slice are views in PyTorch, only X and the Relu's output are kept */
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {4, 64, 32}, one[] = {1};
    oc_builder_input(b, "X", OC_DT_FLOAT, 3, x);
    oc_builder_ints(b, "st", 1, one, (int64_t[]){0});
    oc_builder_ints(b, "en", 1, one, (int64_t[]){16});
    oc_builder_ints(b, "ax", 1, one, (int64_t[]){1});
    oc_builder_attr_ints(b, oc_builder_node(b, "Transpose", "t", "X", "T"), "perm", 3,
                         (int64_t[]){0, 2, 1});
    oc_builder_node(b, "Slice", "s", "T,st,en,ax", "S");
    oc_builder_node(b, "Relu", "r", "S", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    built bt;
    if (!build_eager(b, &(oc_analyze_opts){0}, &bt))
        return;
    oc_train_memory vm;
    oc_training_memory(bt.a, &bt.plan, OC_OPT_SGD, &vm);
    CHECK_EQ_INT(vm.activations, 4 * 64 * 32 * 4 + 4 * 16 * 64 * 4);
    built_free(&bt);
}

int main(void)
{
    fresh_rules();
    eager_rules();
    quant_rules();
    rules();
    control_rules();
    shape_rules();
    layout_rules();
    pow_rules();
    gather_split_rules();
    fusion_conditions();
    upsampled_add_rules();
    /* resnet50: 53 convs, 49 followed by Relu (the rest feed the residual
     * Add), 16 residual Adds each followed by Relu. */
    /* kernel ids: ONNX operators' names, then ONNX Runtime's own kernels */
    CHECK_EQ_STR(oc_kernel_id_name(OC_OPID_Conv), "Conv");
    CHECK_EQ_STR(oc_kernel_id_name(OC_KID_FusedConv), "FusedConv");
    CHECK_EQ_STR(oc_kernel_id_name(OC_KID_ReorderOutput), "ReorderOutput");
    CHECK(oc_kernel_id_name(OC_OPID_UNKNOWN) == NULL && oc_kernel_id_name(OC_KID_COUNT) == NULL);
    for (int k = OC_KID_BEFORE_ + 1; k < OC_KID_COUNT; k++)
        CHECK(oc_op_id_of("", oc_kernel_id_name(k)) == OC_OPID_UNKNOWN); /* no ONNX op's */
    counts r = plan_counts(OC_TESTS_DIR "/reference/models/resnet50.onnx", 1, NULL);
    CHECK_EQ_INT(r.conv_with_add, 16);
    CHECK(r.conv_with_act >= 49);
    CHECK(r.run < 80);
    /* mobilenet_v2: Clip (ReLU6) fused into its convs */
    counts mb = plan_counts(OC_SAMPLES "/mobilenet_v2.onnx", 1, NULL);
    CHECK_EQ_INT(mb.conv_with_act, 35);
    /* efficientnet_b0: ONNX Runtime's profile shows 49 QuickGelu kernels
     * (x * Sigmoid(x)) and 16 Muls (the squeeze-excitation scale, whose
     * Sigmoid runs inside the Conv before it) */
    counts ef = plan_counts(OC_TESTS_DIR "/reference/models/efficientnet_b0.onnx", 1, NULL);
    CHECK_EQ_INT(ef.swish, 49);
    CHECK_EQ_INT(ef.sigmoid_alone, 0);
    /* bert_base: 25 LayerNorms (embeddings + 2 per layer), 12 Gelus */
    counts b = plan_counts(OC_TESTS_DIR "/reference/models/bert_base.onnx", 1, "input_ids");
    CHECK_EQ_INT(b.as_layernorm, 25);
    CHECK_EQ_INT(b.as_gelu, 12);
    CHECK(b.folded > 0);
    return t_report("test_plan");
}
