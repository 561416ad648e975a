/*
 * test_build.c - the model builder, the collector's sampler and the node
 * description: models built here load back, analyse to the expected shapes
 * and MACs, samples are deterministic, and descriptions survive JSON.
 */
#include "analyzer/analyzer.h"
#include "harness.h"
#include "onnx/build.h"
#include "predictor/dataset.h"
#include "predictor/desc.h"
#include "training/sampler.h"

#include <stdlib.h>
#include <unistd.h>

static char tmpdir[256];

static bool shape_is(const oc_tinfo *t, int rank, const int64_t *d)
{
    if (!t || t->rank != rank)
        return false;
    for (int i = 0; i < rank; i++)
        if (!oc_dim_is_known(t->dims[i]) || t->dims[i].v != d[i])
            return false;
    return true;
}

/* Load a packed builder's model from memory (or from a file when path). */
static oc_model *load(oc_builder *b, const char *path)
{
    oc_error err;
    oc_model *m = NULL;
    if (path) {
        CHECK_EQ_INT(oc_builder_save(b, path, &err), OC_OK);
        if (oc_model_load_file(path, &m, &err))
            fprintf(stderr, "load %s: %s\n", path, err.msg);
    } else {
        void *buf;
        size_t n;
        CHECK_EQ_INT(oc_builder_pack(b, &buf, &n, &err), OC_OK);
        if (oc_model_load_buffer(buf, n, "built", &m, &err))
            fprintf(stderr, "load: %s\n", err.msg);
        free(buf);
    }
    CHECK(m != NULL);
    return m;
}

static void test_conv_model(void)
{
    oc_builder *b = oc_builder_new(17);
    CHECK(b != NULL);
    oc_builder_input(b, "X", OC_DT_FLOAT, 4, (int64_t[]){1, 64, 56, 56});
    oc_builder_random(b, "W", OC_DT_FLOAT, 4, (int64_t[]){128, 64, 3, 3}, -1, 1, 7);
    oc_builder_random(b, "B", OC_DT_FLOAT, 1, (int64_t[]){128}, -1, 1, 7);
    size_t n = oc_builder_node(b, "Conv", "conv0", "X,W,B", "Y");
    CHECK_EQ_INT(n, 0);
    oc_builder_attr_ints(b, n, "kernel_shape", 2, (int64_t[]){3, 3});
    oc_builder_attr_ints(b, n, "pads", 4, (int64_t[]){1, 1, 1, 1});
    oc_builder_attr_ints(b, n, "strides", 2, (int64_t[]){2, 2});
    oc_builder_attr_int(b, n, "group", 1);
    oc_builder_attr_string(b, n, "auto_pad", "NOTSET");
    size_t r = oc_builder_node(b, "LeakyRelu", "act", "Y", "Z");
    CHECK_EQ_INT(r, 1);
    oc_builder_attr_float(b, r, "alpha", 0.1f);
    oc_builder_output(b, "Z", OC_DT_FLOAT, -1, NULL);
    char path[300];
    snprintf(path, sizeof path, "%s/conv.onnx", tmpdir);
    oc_model *m = load(b, path);
    oc_builder_free(b);
    if (!m)
        return;
    CHECK_EQ_INT(oc_model_opset(m, ""), 17);
    CHECK_EQ_INT(oc_model_param_count(m), 128 * 64 * 9 + 128);
    const oc_graph *g = oc_model_graph(m);
    CHECK_EQ_INT(g->n_nodes, 2);
    CHECK_EQ_STR(g->nodes[0].name, "conv0");
    const oc_attr *a = oc_node_attr(&g->nodes[0], "strides");
    CHECK(a && a->type == OC_ATTR_INTS && a->n == 2 && a->ints[1] == 2);
    a = oc_node_attr(&g->nodes[0], "auto_pad");
    CHECK(a && a->type == OC_ATTR_STRING && !strcmp(a->s, "NOTSET"));
    a = oc_node_attr(&g->nodes[1], "alpha");
    CHECK(a && a->type == OC_ATTR_FLOAT && (float)a->f == 0.1f);
    oc_analysis *an;
    oc_error err;
    CHECK_EQ_INT(oc_analyze(m, NULL, &an, &err), OC_OK);
    if (an) {
        int y = oc_graph_find(g, "Y");
        CHECK(shape_is(oc_analysis_value(an, y), 4, (int64_t[]){1, 128, 28, 28}));
        CHECK_EQ_INT(oc_analysis_node_cost(an, 0)->macs, 128ull * 28 * 28 * 64 * 9);

        /* The description of the Conv with the activation fused. */
        oc_arena *ar = oc_arena_new();
        oc_node_desc d;
        CHECK_EQ_INT(oc_node_desc_from_analysis(an, 0, &d, ar, &err), OC_OK);
        CHECK_EQ_STR(d.op, "Conv");
        CHECK_EQ_INT(d.n_inputs, 3);
        CHECK(!d.inputs[0].weight && d.inputs[1].weight && d.inputs[2].weight);
        CHECK_EQ_INT(d.outputs[0].rank, 4);
        CHECK_EQ_INT(d.outputs[0].dims[1], 128);
        CHECK_EQ_INT(oc_node_desc_attr_int(&d, "group", -1), 1);
        size_t k;
        const int64_t *ks = oc_node_desc_attr_ints(&d, "kernel_shape", &k);
        CHECK(ks && k == 2 && ks[0] == 3);
        uint64_t macs = d.cost.macs;
        CHECK_EQ_INT(oc_node_desc_add_fused(&d, an, 1, ar, &err), OC_OK);
        CHECK_EQ_INT(d.cost.macs, macs);
        CHECK(d.cost.flops > 2 * macs);
        char pat[64];
        CHECK_EQ_STR(oc_node_desc_pattern(&d, pat, sizeof pat), "Conv+LeakyRelu");
        json_t *j = oc_node_desc_to_json(&d);
        char *s = json_dumps(j, JSON_COMPACT);
        CHECK_CONTAINS(s, "\"kernel_shape\":[3,3]");
        CHECK_CONTAINS(s, "\"auto_pad\":\"NOTSET\"");
        CHECK_CONTAINS(s,
                       "{\"dtype\":\"float32\",\"shape\":[128,64,3,3],\"weight\":true}");
        free(s);
        json_decref(j);
        /* The float attribute prints as the float32 it is (with the
         * dataset's 9 significant digits). */
        oc_node_desc dl;
        CHECK_EQ_INT(oc_node_desc_from_analysis(an, 1, &dl, ar, &err), OC_OK);
        j = oc_node_desc_to_json(&dl);
        s = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(9));
        CHECK_CONTAINS(s, "\"alpha\":0.1");
        CHECK(!strstr(s, "0.100000"));
        free(s);
        json_decref(j);
        oc_arena_free(ar);
        oc_analysis_free(an);
    }
    oc_model_free(m);
}

static void test_gemm_and_ints(void)
{
    oc_builder *b = oc_builder_new(17);
    oc_builder_input(b, "A", OC_DT_FLOAT, 2, (int64_t[]){8, 256});
    oc_builder_random(b, "B", OC_DT_FLOAT, 2, (int64_t[]){512, 256}, -1, 1, 1);
    size_t n = oc_builder_node(b, "Gemm", "fc", "A,B", "Y");
    oc_builder_attr_int(b, n, "transB", 1);
    oc_builder_attr_floats(b, n, "unused_floats", 2, (float[]){0.5f, 2.0f});
    oc_builder_ints(b, "shape", 1, (int64_t[]){3}, (int64_t[]){2, 4, 512});
    oc_builder_node(b, "Reshape", "rs", "Y,shape", "Z");
    oc_builder_output(b, "Z", OC_DT_FLOAT, 3, (int64_t[]){2, 4, 512});
    oc_model *m = load(b, NULL);
    oc_builder_free(b);
    if (!m)
        return;
    oc_analysis *an;
    oc_error err;
    CHECK_EQ_INT(oc_analyze(m, NULL, &an, &err), OC_OK);
    if (an) {
        const oc_graph *g = oc_model_graph(m);
        CHECK(shape_is(oc_analysis_value(an, oc_graph_find(g, "Y")), 2,
                       (int64_t[]){8, 512}));
        CHECK(shape_is(oc_analysis_value(an, oc_graph_find(g, "Z")), 3,
                       (int64_t[]){2, 4, 512}));
        CHECK_EQ_INT(oc_analysis_node_cost(an, 0)->macs, 8 * 256 * 512);
        oc_analysis_free(an);
    }
    oc_model_free(m);
}

/* A graph attribute: a Loop's body, built with a builder of its own (with
 * an initializer of its own), loads back as the node's subgraph, its trip
 * count folded. */
static void test_loop_body(void)
{
    int64_t d[2] = {2, 3};
    oc_builder *b = oc_builder_new(13), *body = oc_builder_new(13);
    oc_builder_input(body, "iter", OC_DT_INT64, 0, NULL);
    oc_builder_input(body, "keep", OC_DT_BOOL, 0, NULL);
    oc_builder_input(body, "h", OC_DT_FLOAT, 2, d);
    oc_builder_floats(body, "half", 0, NULL, (const float[]){0.5f});
    oc_builder_node(body, "Mul", "scale", "h,half", "h_next");
    oc_builder_node(body, "Identity", "go_on", "keep", "keep_next");
    oc_builder_output(body, "keep_next", OC_DT_BOOL, 0, NULL);
    oc_builder_output(body, "h_next", OC_DT_FLOAT, 2, d);
    oc_builder_input(b, "x", OC_DT_FLOAT, 2, d);
    oc_builder_ints(b, "trips", 0, NULL, (int64_t[]){7});
    size_t n = oc_builder_node(b, "Loop", "loop", "trips,,x", "y");
    CHECK_EQ_INT(oc_builder_attr_graph(b, n, "body", body), OC_OK);
    oc_builder_output(b, "y", OC_DT_FLOAT, 2, d);
    oc_model *m = load(b, NULL);
    oc_builder_free(b);
    oc_builder_free(body);
    oc_analysis *an = NULL;
    oc_error err;
    if (m && oc_analyze(m, NULL, &an, &err) == OC_OK) {
        int64_t times = 0;
        const oc_analysis *sub = oc_analysis_sub(an, 0, &times);
        CHECK(sub && times == 7);
        CHECK(sub && oc_analysis_graph(sub)->n_nodes == 2);
        CHECK(shape_is(oc_analysis_value(an, oc_graph_find(oc_model_graph(m), "y")), 2, d));
    }
    oc_analysis_free(an);
    oc_model_free(m);
    /* a body that failed to build fails the node that takes it */
    b = oc_builder_new(13);
    body = oc_builder_new(13);
    oc_builder_attr_int(body, 5, "no_such_node", 1);
    n = oc_builder_node(b, "Loop", "loop", "M,,x", "y");
    CHECK(oc_builder_attr_graph(b, n, "body", body) == OC_ERR_USAGE);
    CHECK(oc_builder_status(b, &err) == OC_ERR_USAGE && strstr(err.msg, "body"));
    oc_builder_free(b);
    oc_builder_free(body);
}

static void test_errors_and_determinism(void)
{
    oc_error err;
    /* Sticky errors: the first failure is reported at the end. */
    oc_builder *b = oc_builder_new(17);
    oc_builder_random(b, "W", OC_DT_STRING, 1, (int64_t[]){4}, 0, 1, 0);
    oc_builder_input(b, "X", OC_DT_FLOAT, 1, (int64_t[]){4});
    CHECK_EQ_INT(oc_builder_node(b, "Relu", "r", "X", "Y"), (size_t)-1);
    void *buf;
    size_t len;
    CHECK_EQ_INT(oc_builder_pack(b, &buf, &len, &err), OC_ERR_USAGE);
    CHECK_CONTAINS(err.msg, "'W'");
    CHECK(buf == NULL);
    oc_builder_free(b);
    b = oc_builder_new(17);
    oc_builder_node(b, "Relu", "r", "X", "Y");
    CHECK_EQ_INT(oc_builder_attr_int(b, 5, "x", 1), OC_ERR_USAGE);
    oc_builder_free(b);

    /* Random payloads depend on (seed, name) only. */
    void *p[3];
    size_t l[3];
    for (int i = 0; i < 3; i++) {
        b = oc_builder_new(17);
        oc_builder_random(b, "W", OC_DT_FLOAT, 2, (int64_t[]){16, 16}, -1, 1,
                          i == 2 ? 43 : 42);
        oc_builder_random(b, "I", OC_DT_INT64, 1, (int64_t[]){64}, 0, 10, 42);
        oc_builder_output(b, "W", OC_DT_FLOAT, -1, NULL);
        CHECK_EQ_INT(oc_builder_pack(b, &p[i], &l[i], &err), OC_OK);
        oc_builder_free(b);
    }
    CHECK(l[0] == l[1] && !memcmp(p[0], p[1], l[0]));
    CHECK(l[0] == l[2] && memcmp(p[0], p[2], l[0]) != 0);
    oc_model *m;
    CHECK_EQ_INT(oc_model_load_buffer(p[0], l[0], "r", &m, &err), OC_OK);
    if (m) {
        const oc_graph *g = oc_model_graph(m);
        const oc_tensor *w = g->values[oc_graph_find(g, "W")].constant;
        const oc_tensor *ix = g->values[oc_graph_find(g, "I")].constant;
        bool in_range = w && w->fvals && ix && ix->ivals;
        for (int i = 0; in_range && i < 256; i++)
            in_range = w->fvals[i] >= -1 && w->fvals[i] < 1;
        for (int i = 0; in_range && i < 64; i++)
            in_range = ix->ivals[i] >= 0 && ix->ivals[i] < 10;
        CHECK(in_range);
        oc_model_free(m);
    }
    for (int i = 0; i < 3; i++)
        free(p[i]);

    /* Elided weights still analyse. */
    b = oc_builder_new(17);
    oc_builder_elide_random(b, true);
    oc_builder_input(b, "A", OC_DT_FLOAT, 2, (int64_t[]){4, 1024});
    oc_builder_random(b, "B", OC_DT_FLOAT, 2, (int64_t[]){1024, 4096}, -1, 1, 0);
    oc_builder_node(b, "MatMul", "mm", "A,B", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    CHECK_EQ_INT(oc_builder_pack(b, &buf, &len, &err), OC_OK);
    CHECK(len < 4096);
    oc_builder_free(b);
    CHECK_EQ_INT(oc_model_load_buffer(buf, len, "elided", &m, &err), OC_OK);
    free(buf);
    if (m) {
        CHECK_EQ_INT(oc_model_param_count(m), 1024 * 4096);
        oc_model_free(m);
    }
}

static void test_families(void)
{
    CHECK_EQ_INT(oc_family_from_name("conv"), OC_FAM_CONV);
    CHECK_EQ_INT(oc_family_from_name("LayerNorm"), OC_FAM_LAYERNORM);
    CHECK_EQ_INT(oc_family_from_name("nope"), -1);
    CHECK_EQ_STR(oc_family_label(OC_FAM_BATCHNORM), "BatchNormalization");
    for (int f = 0; f < OC_FAM_COUNT_; f++) {
        int fused_seen = 0;
        for (uint64_t seed = 0; seed < 3; seed++) {
            for (uint64_t idx = 0; idx < 4; idx++) {
                oc_sample s, s2;
                oc_error err;
                if (oc_sample_draw((oc_family)f, seed, idx, NULL, &s, &err)) {
                    fprintf(stderr, "%s s%llu #%llu: %s\n", oc_family_name(f),
                            (unsigned long long)seed, (unsigned long long)idx, err.msg);
                    CHECK(0);
                    continue;
                }
                CHECK(s.flops <= 2000000000ull && s.tensor_bytes <= 200000000ull);
                CHECK(s.n_inputs >= 1 && s.op[0] && s.pattern[0]);
                fused_seen += s.n_fused > 0;
                /* Deterministic in (seed, index). */
                CHECK_EQ_INT(oc_sample_draw((oc_family)f, seed, idx, NULL, &s2, &err),
                             OC_OK);
                CHECK(json_equal(s.config, s2.config));
                CHECK_EQ_STR(s.pattern, s2.pattern);
                oc_sample_free(&s2);

                oc_builder *b;
                oc_model *m = NULL;
                char path[300];
                bool on_disk = seed == 0 && idx == 0;
                snprintf(path, sizeof path, "%s/%s.onnx", tmpdir, oc_family_name(f));
                CHECK_EQ_INT(oc_sample_build(&s, on_disk, &b, &err), OC_OK);
                if (b) {
                    m = load(b, on_disk ? path : NULL);
                    oc_builder_free(b);
                }
                oc_analysis *an = NULL;
                if (m && oc_analyze(m, NULL, &an, &err)) {
                    fprintf(stderr, "%s: analyze: %s\n", s.pattern, err.msg);
                    CHECK(0);
                }
                if (an) {
                    const oc_totals *t = oc_analysis_totals(an);
                    CHECK_EQ_INT(t->unknown_shape_nodes, 0);
                    CHECK_EQ_INT(t->unsupported_nodes, 0);
                    CHECK_EQ_INT(t->flops, s.flops);
                    const oc_graph *g = oc_model_graph(m);
                    CHECK_EQ_INT(g->n_inputs, s.n_inputs);
                    CHECK_EQ_INT(oc_model_opset(m, ""), s.opset);
                    for (size_t i = 0; i < g->n_nodes; i++)
                        CHECK(oc_analysis_node_cost(an, i)->shapes_known);
                    CHECK_EQ_STR(g->nodes[s.main_node].op, s.op);

                    oc_arena *ar = oc_arena_new();
                    oc_node_desc d, d2;
                    CHECK_EQ_INT(
                        oc_node_desc_from_analysis(an, s.main_node, &d, ar, &err), OC_OK);
                    for (size_t i = 0; i < s.n_fused; i++)
                        CHECK_EQ_INT(
                            oc_node_desc_add_fused(&d, an, s.fused_nodes[i], ar, &err),
                            OC_OK);
                    char pat[64];
                    CHECK_EQ_STR(oc_node_desc_pattern(&d, pat, sizeof pat), s.pattern);
                    for (size_t i = 0; i < d.n_outputs; i++) {
                        CHECK(d.outputs[i].rank >= 0);
                        for (int k = 0; k < d.outputs[i].rank; k++)
                            CHECK(d.outputs[i].dims[k] >= 1);
                    }
                    json_t *nj = oc_node_desc_to_json(&d),
                           *fj = oc_node_desc_fused_to_json(&d),
                           *cj = oc_node_desc_cost_to_json(&d);
                    /* Through text, as a dataset line goes. */
                    char *txt = json_dumps(nj, JSON_COMPACT);
                    json_t *back = json_loads(txt, 0, NULL);
                    CHECK_EQ_INT(oc_node_desc_from_json(back, fj, cj, &d2, ar, &err),
                                 OC_OK);
                    json_t *nj2 = oc_node_desc_to_json(&d2),
                           *fj2 = oc_node_desc_fused_to_json(&d2),
                           *cj2 = oc_node_desc_cost_to_json(&d2);
                    if (!json_equal(nj, nj2)) {
                        char *t2 = json_dumps(nj2, JSON_COMPACT);
                        fprintf(stderr, "round trip:\n %s\n %s\n", txt, t2);
                        free(t2);
                        CHECK(0);
                    }
                    CHECK(json_equal(fj, fj2));
                    CHECK(json_equal(cj, cj2));
                    CHECK_EQ_INT(d2.cost.flops, d.cost.flops);
                    free(txt);
                    json_decref(nj), json_decref(fj), json_decref(cj), json_decref(back);
                    json_decref(nj2), json_decref(fj2), json_decref(cj2);
                    oc_arena_free(ar);
                    oc_analysis_free(an);
                }
                oc_model_free(m);
                oc_sample_free(&s);
            }
        }
        if (f == OC_FAM_CONV)
            CHECK(fused_seen > 0);
    }
}

/* ---- the kernels the first families never drew ----
 * conv1d, conv3d, unary, depthtospace and instancenorm: over a few hundred
 * draws of seed 0 each family covers what it is for.  A draw that comes
 * back OK has been shaped and costed by the analyzer (oc_sample_draw
 * fails otherwise), within the default limits. */

static int64_t cfg_int(const oc_sample *s, const char *k, size_t i)
{
    json_t *v = json_object_get(s->config, k);
    if (json_is_array(v))
        v = json_array_get(v, i);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

static const char *cfg_str(const oc_sample *s, const char *k)
{
    const char *v = json_string_value(json_object_get(s->config, k));
    return v ? v : "";
}

/* Draw sample idx of f; false (and a failed check) when it does not draw. */
static bool draw_ok(oc_family f, uint64_t idx, oc_sample *s)
{
    oc_error err;
    if (oc_sample_draw(f, 0, idx, NULL, s, &err) == OC_OK) {
        CHECK(s->flops <= 2000000000ull && s->tensor_bytes <= 200000000ull);
        return true;
    }
    fprintf(stderr, "%s #%llu: %s\n", oc_family_name(f), (unsigned long long)idx, err.msg);
    CHECK(0);
    return false;
}

/* The Conv node of s carries its config's kernel, dilations and pads, one
 * per spatial axis (the timing model's features read them). */
static void check_conv_attrs(const oc_sample *s, int nsp)
{
    oc_builder *b = NULL;
    oc_error err;
    CHECK_EQ_INT(oc_sample_build(s, false, &b, &err), OC_OK);
    oc_model *m = b ? load(b, NULL) : NULL;
    oc_builder_free(b);
    if (!m)
        return;
    const oc_node *n = &oc_model_graph(m)->nodes[s->main_node];
    const oc_attr *d = oc_node_attr(n, "dilations"), *k = oc_node_attr(n, "kernel_shape"),
                  *p = oc_node_attr(n, "pads");
    CHECK(d && d->n == (size_t)nsp && k && k->n == (size_t)nsp && p && p->n == 2u * nsp);
    for (int i = 0; d && k && p && i < nsp && i < (int)d->n && i < (int)k->n; i++) {
        CHECK_EQ_INT(d->ints[i], cfg_int(s, "dilation", (size_t)i));
        CHECK_EQ_INT(k->ints[i], cfg_int(s, "kernel", (size_t)i));
    }
    oc_model_free(m);
}

static void test_conv1d_draws(void)
{
    int dilated = 0, dil512 = 0, depthwise = 0, long_k = 0, causal = 0, pointwise = 0;
    int acts[5] = {0}, bias = 0, built = 0;
    static const char *const pats[] = {"Conv", "Conv+Relu", "Conv+Tanh", "Conv+Sigmoid",
                                       "Conv+LeakyRelu"};
    for (uint64_t i = 0; i < 400; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_CONV1D, i, &s))
            continue;
        CHECK_EQ_STR(s.op, "Conv");
        CHECK_EQ_INT(s.inputs[0].rank, 3);
        int64_t dil = cfg_int(&s, "dilation", 0), k = cfg_int(&s, "kernel", 0);
        dilated += dil > 1;
        dil512 += dil == 512;
        depthwise += json_is_true(json_object_get(s.config, "depthwise"));
        long_k += k >= 15;
        pointwise += k == 1;
        causal += !strcmp(cfg_str(&s, "padding"), "causal");
        bias += json_is_true(json_object_get(s.config, "bias"));
        for (int a = 0; a < 5; a++)
            acts[a] += !strcmp(s.pattern, pats[a]);
        if (dil > 1 && built < 20) {
            check_conv_attrs(&s, 1);
            built++;
        }
        oc_sample_free(&s);
    }
    CHECK(dilated >= 60);
    CHECK(dil512 >= 2);
    CHECK(depthwise >= 30);
    CHECK(long_k >= 20);
    CHECK(pointwise >= 40);
    CHECK(causal >= 20);
    CHECK(bias >= 200 && bias <= 380);
    for (int a = 0; a < 5; a++)
        CHECK(acts[a] >= 8);
    CHECK_EQ_INT(built, 20);
}

static void test_conv3d_draws(void)
{
    int k333 = 0, k133 = 0, k311 = 0, strided = 0, relu = 0;
    for (uint64_t i = 0; i < 150; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_CONV3D, i, &s))
            continue;
        CHECK_EQ_INT(s.inputs[0].rank, 5);
        int64_t k0 = cfg_int(&s, "kernel", 0), k1 = cfg_int(&s, "kernel", 1);
        k333 += k0 == 3 && k1 == 3;
        k133 += k0 == 1 && k1 == 3;
        k311 += k0 == 3 && k1 == 1;
        strided += cfg_int(&s, "stride", 1) == 2;
        relu += s.n_fused == 1;
        if (i == 0)
            check_conv_attrs(&s, 3);
        oc_sample_free(&s);
    }
    CHECK(k333 >= 20 && k133 >= 10 && k311 >= 10 && strided >= 20 && relu >= 30);
}

static void test_unary_draws(void)
{
    static const char *const ops[] = {"Elu", "Selu", "Softplus", "Softsign", "Sin",
                                      "Cos", "Log", "Celu", "ThresholdedRelu",
                                      "HardSigmoid", "Mish", "Sign", "Ceil", "Round"};
    enum { N_OPS = sizeof ops / sizeof ops[0] };
    int seen[N_OPS] = {0}, rank3 = 0;
    for (uint64_t i = 0; i < 600; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_UNARY, i, &s))
            continue;
        int hit = -1;
        for (int o = 0; o < N_OPS; o++)
            if (!strcmp(s.op, ops[o]))
                hit = o;
        CHECK(hit >= 0);
        if (hit >= 0)
            seen[hit]++;
        CHECK_EQ_INT(s.opset, !strcmp(s.op, "Mish") ? 18 : 17);
        rank3 += s.inputs[0].rank == 3;
        oc_sample_free(&s);
    }
    for (int o = 0; o < N_OPS; o++)
        if (seen[o] < 600 / N_OPS) {
            fprintf(stderr, "unary: %s drawn %d times in 600\n", ops[o], seen[o]);
            CHECK(0);
        }
    CHECK(rank3 >= 150);
}

static void test_depthtospace_draws(void)
{
    int dcr = 0, crd = 0, s2d = 0, bs[5] = {0};
    for (uint64_t i = 0; i < 200; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_DEPTHTOSPACE, i, &s))
            continue;
        CHECK_EQ_INT(s.inputs[0].rank, 4);
        bool d2s = !strcmp(s.op, "DepthToSpace");
        dcr += d2s && !strcmp(cfg_str(&s, "mode"), "DCR");
        crd += d2s && !strcmp(cfg_str(&s, "mode"), "CRD");
        s2d += !strcmp(s.op, "SpaceToDepth");
        int64_t b = cfg_int(&s, "blocksize", 0);
        CHECK(b >= 2 && b <= 4);
        if (b >= 2 && b <= 4)
            bs[b]++;
        oc_sample_free(&s);
    }
    CHECK(dcr >= 40 && crd >= 40 && s2d >= 40);
    CHECK(bs[2] >= 60 && bs[3] >= 15 && bs[4] >= 15);
}

static void test_instancenorm_draws(void)
{
    int ranks[6] = {0};
    for (uint64_t i = 0; i < 100; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_INSTANCENORM, i, &s))
            continue;
        CHECK_EQ_STR(s.op, "InstanceNormalization");
        if (s.inputs[0].rank >= 0 && s.inputs[0].rank < 6)
            ranks[s.inputs[0].rank]++;
        oc_sample_free(&s);
    }
    CHECK(ranks[3] >= 15 && ranks[4] >= 50);
}

/* gconv: grouped, never depthwise, every kind drawn, groups from 2 to 64. */
static void test_gconv_draws(void)
{
    int kinds[3] = {0}, two = 0, many = 0;
    for (uint64_t i = 0; i < 150; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_GCONV, i, &s))
            continue;
        CHECK_EQ_STR(s.op, "Conv");
        int64_t grp = cfg_int(&s, "group", 0), cin = cfg_int(&s, "cin", 0);
        CHECK(grp >= 2 && grp <= 64 && grp < cin && cin % grp == 0);
        const char *k = cfg_str(&s, "kind");
        kinds[0] += !strcmp(k, "cardinality");
        kinds[1] += !strcmp(k, "group_width");
        kinds[2] += !strcmp(k, "few");
        two += grp == 2;
        many += grp >= 32;
        oc_sample_free(&s);
    }
    CHECK(kinds[0] >= 30 && kinds[1] >= 30 && kinds[2] >= 30);
    CHECK(two >= 10 && many >= 30);
}

/* The families beside the common ones: a softmax axis that is not the
 * last, comparisons out as bool, every broadcast kind, ReduceLogSumExp
 * over several axes, kernels far past conv1d's 31. */
static void test_context_family_draws(void)
{
    int inner = 0, logsm = 0, boolean = 0, kinds[5] = {0}, lse = 0, multi = 0, long_k = 0;
    static const char *const bk[] = {"outer", "pairwise", "middle", "rows", "same"};
    for (uint64_t i = 0; i < 100; i++) {
        oc_sample s;
        if (draw_ok(OC_FAM_AXIS_SOFTMAX, i, &s)) {
            int64_t ax = cfg_int(&s, "axis", 0);
            CHECK(ax >= 1 && ax < s.inputs[0].rank);
            inner += ax < s.inputs[0].rank - 1;
            logsm += !strcmp(s.op, "LogSoftmax");
            oc_sample_free(&s);
        }
        if (draw_ok(OC_FAM_BROADCAST, i, &s)) {
            CHECK_EQ_INT((int)s.n_inputs, 2);
            for (int k = 0; k < 5; k++)
                kinds[k] += !strcmp(cfg_str(&s, "kind"), bk[k]);
            boolean += !strcmp(s.op, "Less") || !strcmp(s.op, "Equal") ||
                       !strcmp(s.op, "Greater") || !strcmp(s.op, "GreaterOrEqual");
            oc_sample_free(&s);
        }
        if (draw_ok(OC_FAM_REDUCE_AXES, i, &s)) {
            lse += !strcmp(s.op, "ReduceLogSumExp");
            multi += cfg_int(&s, "axes", 1) >= 0;
            oc_sample_free(&s);
        }
        if (draw_ok(OC_FAM_LONGCONV, i, &s)) {
            int64_t k = cfg_int(&s, "kernel", 0);
            CHECK(k >= 32 && k <= cfg_int(&s, "spatial", 0));
            long_k += k >= 256;
            oc_sample_free(&s);
        }
    }
    CHECK(inner >= 40 && logsm >= 30 && logsm <= 70);
    CHECK(boolean >= 25);
    for (int k = 0; k < 5; k++)
        CHECK(kinds[k] >= 8);
    CHECK(lse >= 20 && multi >= 20);
    CHECK(long_k >= 10);
}

/* Transposes of any permutation (never the identity; reversals), Gathers
 * along an inner axis (every kind, indices within the axis), GatherElements
 * and Einsum. */
static void test_layout_family_draws(void)
{
    int reversed = 0, kinds[3] = {0}, weights = 0;
    static const char *const gk[] = {"toeplitz", "select", "last"};
    for (uint64_t i = 0; i < 100; i++) {
        oc_sample s;
        if (draw_ok(OC_FAM_PERMUTE, i, &s)) {
            int r = s.inputs[0].rank;
            bool identity = true, reverse = true;
            for (int k = 0; k < r; k++) {
                identity = identity && cfg_int(&s, "perm", (size_t)k) == k;
                reverse = reverse && cfg_int(&s, "perm", (size_t)k) == r - 1 - k;
            }
            CHECK(r >= 3 && r <= 5 && !identity && !strcmp(s.op, "Transpose"));
            reversed += reverse;
            oc_sample_free(&s);
        }
        if (draw_ok(OC_FAM_GATHER_AXIS, i, &s)) {
            int64_t ax = cfg_int(&s, "axis", 0);
            CHECK(ax >= 1 && !strcmp(s.op, "Gather"));
            CHECK(s.inputs[s.n_inputs - 1].bound == cfg_int(&s, "shape", (size_t)ax));
            for (int k = 0; k < 3; k++)
                kinds[k] += !strcmp(cfg_str(&s, "kind"), gk[k]);
            weights += cfg_int(&s, "weight", 0) == 1;
            oc_sample_free(&s);
        }
    }
    CHECK(reversed >= 15);
    for (int k = 0; k < 3; k++)
        CHECK(kinds[k] >= 15);
    CHECK(weights >= 25 && weights <= 75);
    /* GatherElements along its axis (indices within it), Einsum of every
     * equation */
    int ge = 0, eq[5] = {0};
    static const char *const eqs[] = {"bij,bjk->bik", "bhqd,bhkd->bhqk", "bhkn,bkvn->bhvn",
                                      "bnd,de->bne", "bchw,bc->bhw"};
    for (uint64_t i = 0; i < 100; i++) {
        oc_sample s;
        if (draw_ok(OC_FAM_GATHER_ELEMENTS, i, &s)) {
            int64_t ax = cfg_int(&s, "axis", 0);
            CHECK(!strcmp(s.op, "GatherElements") && (ax == 1 || ax == 2));
            CHECK(s.inputs[1].bound == s.inputs[0].dims[ax]);
            ge++;
            oc_sample_free(&s);
        }
        if (draw_ok(OC_FAM_EINSUM, i, &s)) {
            CHECK(!strcmp(s.op, "Einsum") && s.flops > 0);
            for (int k = 0; k < 5; k++)
                eq[k] += !strcmp(cfg_str(&s, "equation"), eqs[k]);
            oc_sample_free(&s);
        }
    }
    CHECK_EQ_INT(ge, 100);
    for (int k = 0; k < 5; k++)
        CHECK(eq[k] >= 8);
}

/* upconv: ConvTranspose of 1, 2 and 3 spatial axes, every kernel shape
 * drawn; with a kernel of twice the stride the output is the input times
 * the stride, as a decoder's upsampler has it. */
static void test_upconv_family_draws(void)
{
    int ranks[4] = {0}, k_is_s = 0, k_is_2s = 0, stride1 = 0, few_out = 0;
    for (uint64_t i = 0; i < 200; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_UPCONV, i, &s))
            continue;
        CHECK(!strcmp(s.op, "ConvTranspose") && s.n_inputs == 1);
        int nsp = s.inputs[0].rank - 2;
        CHECK(nsp >= 1 && nsp <= 3);
        ranks[nsp]++;
        int64_t k = cfg_int(&s, "kernel", 0), st = cfg_int(&s, "stride", 0);
        k_is_s += k == st && st > 1;
        k_is_2s += k == 2 * st;
        stride1 += st == 1;
        few_out += cfg_int(&s, "cout", 0) <= 32;
        if (k == 2 * st)
            CHECK(cfg_int(&s, "pads", 0) == st / 2);
        oc_sample_free(&s);
    }
    CHECK(ranks[1] >= 80 && ranks[2] >= 30 && ranks[3] >= 10);
    CHECK(k_is_s >= 30 && k_is_2s >= 60 && stride1 >= 5 && few_out >= 30);
}

/* qmaxpool: MaxPool on uint8 and int8 inputs (the dtype in the config and
 * the input), each window of the pool family's MaxPools drawn. */
static void test_qmaxpool_family_draws(void)
{
    int u8 = 0, i8 = 0, spp = 0, k2 = 0, k3s2 = 0, k3s1 = 0;
    for (uint64_t i = 0; i < 200; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_QMAXPOOL, i, &s))
            continue;
        CHECK(!strcmp(s.op, "MaxPool") && s.n_inputs == 1 && s.inputs[0].rank == 4);
        bool is_u8 = !strcmp(cfg_str(&s, "dtype"), "uint8");
        CHECK(s.inputs[0].dtype == (is_u8 ? OC_DT_UINT8 : OC_DT_INT8));
        u8 += is_u8;
        i8 += !is_u8;
        int64_t k = cfg_int(&s, "kernel", 0), st = cfg_int(&s, "stride", 0);
        spp += k == 5 && st == 1;
        k2 += k == 2 && st == 2;
        k3s2 += k == 3 && st == 2;
        k3s1 += k == 3 && st == 1;
        oc_sample_free(&s);
    }
    CHECK(u8 >= 130 && i8 >= 20);
    CHECK(spp >= 8 && k2 >= 30 && k3s2 >= 60 && k3s1 >= 15);
}

/* prelu: every layout drawn with its slope's shape (per channel: [C,1,1],
 * [C,1] or [D]; else one value), the slope a weight, X the only input. */
static void test_prelu_family_draws(void)
{
    int nchw = 0, ncl = 0, bld = 0, scalar = 0;
    for (uint64_t i = 0; i < 200; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_PRELU, i, &s))
            continue;
        CHECK(!strcmp(s.op, "PRelu") && s.n_inputs == 1);
        const char *lay = cfg_str(&s, "layout");
        nchw += !strcmp(lay, "nchw");
        ncl += !strcmp(lay, "ncl");
        bld += !strcmp(lay, "bld");
        scalar += !strcmp(cfg_str(&s, "slope"), "scalar");
        CHECK(s.inputs[0].rank == (!strcmp(lay, "nchw") ? 4 : 3));
        oc_sample_free(&s);
    }
    CHECK(nchw >= 50 && ncl >= 40 && bld >= 40);
    CHECK(scalar >= 40 && scalar <= 100);
}

/* logic: every kind drawn; bool logic on bool inputs, the integer kinds
 * on int64 ones, Tile's output at most 2^22 elements. */
static void test_logic_family_draws(void)
{
    static const char *const kinds[] = {"logic", "not", "tile", "mod", "int", "int_reduce"};
    int n[6] = {0};
    for (uint64_t i = 0; i < 300; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_LOGIC, i, &s))
            continue;
        const char *k = cfg_str(&s, "kind");
        for (int j = 0; j < 6; j++)
            n[j] += !strcmp(k, kinds[j]);
        if (!strcmp(k, "logic") || !strcmp(k, "not"))
            CHECK(s.inputs[0].dtype == OC_DT_BOOL);
        if (!strcmp(k, "int") || !strcmp(k, "int_reduce"))
            CHECK(s.inputs[0].dtype == OC_DT_INT64 && s.inputs[0].bound >= 2);
        if (!strcmp(k, "tile")) {
            double out = 1;
            for (int a = 0; a < s.inputs[0].rank; a++)
                out *= (double)s.inputs[0].dims[a] * (double)cfg_int(&s, "repeats", a);
            CHECK(!strcmp(s.op, "Tile") && out <= 4194304);
        }
        oc_sample_free(&s);
    }
    for (int j = 0; j < 6; j++)
        CHECK(n[j] >= 15);
}

/* thinconv: 1, 2 or 4 input channels, every kind drawn (1-D waveform,
 * filter bank and first layers, 2-D spectrograms and images), the Conv's
 * attributes those of its config; waveform kernels strided, filter banks
 * dilated. */
static void test_thinconv_family_draws(void)
{
    static const char *const kinds[] = {"waveform", "filterbank", "first", "spectrogram",
                                        "image"};
    int n[5] = {0}, strided = 0, dilated = 0, cin1 = 0;
    for (uint64_t i = 0; i < 300; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_THINCONV, i, &s))
            continue;
        CHECK(!strcmp(s.op, "Conv") && s.n_inputs == 1);
        int64_t cin = s.inputs[0].dims[1];
        CHECK((cin == 1 || cin == 2 || cin == 4) && cfg_int(&s, "cin", 0) == cin);
        cin1 += cin == 1;
        const char *k = cfg_str(&s, "kind");
        for (int j = 0; j < 5; j++)
            n[j] += !strcmp(k, kinds[j]);
        int nsp = s.inputs[0].rank - 2;
        CHECK(nsp == (!strcmp(k, "spectrogram") || !strcmp(k, "image") ? 2 : 1));
        strided += !strcmp(k, "waveform") && cfg_int(&s, "stride", 0) > 1;
        dilated += !strcmp(k, "filterbank") && cfg_int(&s, "dilation", 0) > 1;
        if (i < 40)
            check_conv_attrs(&s, nsp);
        oc_sample_free(&s);
    }
    for (int j = 0; j < 5; j++)
        CHECK(n[j] >= 20);
    CHECK(cin1 >= 140 && strided >= 30 && dilated >= 30);
}

/* framebank: every bank and both directions drawn; the kernel is the
 * frame and the stride the hop, a Fourier bank has two channels per bin;
 * synthesis maps the bank to 1 or 2 channels, analysis the reverse; a
 * centred frame is padded (analysis) or cut (synthesis) by half a frame. */
static void test_framebank_family_draws(void)
{
    int fourier = 0, real = 0, learned = 0, synth = 0, analysis = 0, centred = 0, big = 0;
    for (uint64_t i = 0; i < 300; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_FRAMEBANK, i, &s))
            continue;
        CHECK(s.n_inputs == 1 && s.inputs[0].rank == 3);
        const char *bank = cfg_str(&s, "bank");
        int64_t k = cfg_int(&s, "frame", 0), hop = cfg_int(&s, "hop", 0),
                f = cfg_int(&s, "bins", 0), sig = cfg_int(&s, "signal_channels", 0);
        CHECK(hop >= 1 && hop < k && (sig == 1 || sig == 2));
        fourier += !strcmp(bank, "fourier");
        real += !strcmp(bank, "real");
        learned += !strcmp(bank, "learned");
        if (!strcmp(bank, "fourier"))
            CHECK(f == k + 2);
        big += k >= 1024;
        bool is_synth = !strcmp(cfg_str(&s, "direction"), "synthesis");
        synth += is_synth;
        analysis += !is_synth;
        CHECK(!strcmp(s.op, is_synth ? "ConvTranspose" : "Conv"));
        CHECK(s.inputs[0].dims[1] == (is_synth ? f : sig));
        if (is_synth)
            CHECK(s.inputs[0].dims[2] == cfg_int(&s, "frames", 0));
        centred += json_is_true(json_object_get(s.config, "centred"));
        oc_sample_free(&s);
    }
    CHECK(fourier >= 120 && real >= 10 && learned >= 40);
    CHECK(synth >= 120 && analysis >= 80 && centred >= 50 && big >= 20);
}

/* bandconv: every kind drawn, each a 2-D Conv whose kernel is not square;
 * a sentence kernel spans the embedding, a temporal one is 1 wide, a
 * factorised one 1 x k or k x 1 on a square map. */
static void test_bandconv_family_draws(void)
{
    static const char *const kinds[] = {"sentence", "timbral", "temporal", "factorised"};
    int n[4] = {0}, cin1 = 0;
    for (uint64_t i = 0; i < 300; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_BANDCONV, i, &s))
            continue;
        CHECK(!strcmp(s.op, "Conv") && s.n_inputs == 1 && s.inputs[0].rank == 4);
        int64_t kh = cfg_int(&s, "kernel", 0), kw = cfg_int(&s, "kernel", 1);
        CHECK(kh != kw);
        const char *k = cfg_str(&s, "kind");
        for (int j = 0; j < 4; j++)
            n[j] += !strcmp(k, kinds[j]);
        if (!strcmp(k, "sentence"))
            CHECK(kw == s.inputs[0].dims[3] && s.inputs[0].dims[1] == 1);
        if (!strcmp(k, "temporal") || !strcmp(k, "factorised"))
            CHECK(kh == 1 || kw == 1);
        cin1 += s.inputs[0].dims[1] == 1;
        if (i < 40)
            check_conv_attrs(&s, 2);
        oc_sample_free(&s);
    }
    for (int j = 0; j < 4; j++)
        CHECK(n[j] >= 40);
    CHECK(cin1 >= 100);
}

/* select: every kind drawn, each with its operator; a Concat of 8..512
 * pieces from at most four inputs; scatter indices bounded by the axis
 * they index; TopK's K at most its axis; Cast from the input's type; and
 * tiny shapes (at most 4096 elements) as well as layer-sized ones. */
static void test_select_family_draws(void)
{
    static const char *const kinds[] = {"topk",  "arg",    "cumsum", "scatter", "scatter_nd",
                                        "where", "expand", "cast",   "concat"};
    static const char *const ops[] = {"TopK",  "Arg",    "CumSum", "ScatterElements",
                                      "ScatterND", "Where", "Expand", "Cast", "Concat"};
    int n[9] = {0}, tiny = 0, big = 0, many = 0;
    for (uint64_t i = 0; i < 400; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_SELECT, i, &s))
            continue;
        const char *k = cfg_str(&s, "kind");
        int j = 0;
        while (j < 9 && strcmp(k, kinds[j]))
            j++;
        CHECK(j < 9);
        if (j == 9) {
            oc_sample_free(&s);
            continue;
        }
        CHECK(!strncmp(s.op, ops[j], strlen(ops[j])));
        n[j]++;
        const oc_sample_input *x = &s.inputs[0];
        double e = 1;
        for (int d = 0; d < x->rank; d++)
            e *= (double)x->dims[d];
        tiny += e <= 4096;
        big += e >= 65536;
        if (j == 8) {
            int64_t p = cfg_int(&s, "inputs", 0);
            CHECK(p >= 8 && p <= 512 && s.n_inputs == 4);
            many += p >= 100;
        } else if (j == 3 || j == 4) {
            CHECK(s.n_inputs == 3 && s.inputs[1].dtype == OC_DT_INT64);
            int64_t ax = j == 3 ? cfg_int(&s, "axis", 0) : 0;
            CHECK(s.inputs[1].bound == x->dims[ax] && s.inputs[1].bound >= 1);
        } else if (j == 0) {
            int64_t ax = cfg_int(&s, "axis", 0), kk = cfg_int(&s, "k", 0);
            CHECK(ax >= 0 && ax < x->rank && kk >= 1 && kk <= x->dims[ax]);
        } else if (j == 7) {
            CHECK(!strcmp(oc_dtype_name(x->dtype), cfg_str(&s, "from")));
        }
        oc_sample_free(&s);
    }
    for (int j = 0; j < 9; j++)
        CHECK(n[j] >= 15);
    CHECK(tiny >= 80 && big >= 40 && many >= 10);
}

/* rnn: LSTM, GRU and RNN each drawn, one-step and sequence kinds and
 * both directions; X [seq, batch, input], W [dirs, gates x hidden, input],
 * the node's hidden_size the config's; one-step layers forward only. */
static void test_rnn_family_draws(void)
{
    static const char *const ops[] = {"LSTM", "GRU", "RNN"};
    static const int64_t gates[] = {4, 3, 1};
    int n[3] = {0}, steps = 0, bidi = 0, init = 0;
    for (uint64_t i = 0; i < 300; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_RNN, i, &s))
            continue;
        int o = -1;
        for (int j = 0; j < 3; j++)
            if (!strcmp(s.op, ops[j]))
                o = j;
        CHECK(o >= 0 && s.n_inputs == 1 && s.inputs[0].rank == 3);
        if (o < 0) {
            oc_sample_free(&s);
            continue;
        }
        n[o]++;
        int64_t seq = cfg_int(&s, "seq", 0), hid = cfg_int(&s, "hidden", 0);
        bool bi = json_is_true(json_object_get(s.config, "bidirectional"));
        CHECK(s.inputs[0].dims[0] == seq && s.inputs[0].dims[1] == cfg_int(&s, "batch", 0) &&
              s.inputs[0].dims[2] == cfg_int(&s, "input", 0));
        steps += seq == 1;
        bidi += bi;
        CHECK(!(bi && seq == 1));
        init += json_is_true(json_object_get(s.config, "initial_state"));
        /* the analyzer's FLOPs: 2 x gates x (input + hidden) x hidden per
         * step, sample and direction, and the cell's */
        double macs = (double)(bi ? 2 : 1) * (double)(gates[o] * hid) *
                      (double)(cfg_int(&s, "input", 0) + hid) * (double)seq *
                      (double)cfg_int(&s, "batch", 0);
        CHECK((double)s.flops >= 2 * macs);
        oc_sample_free(&s);
    }
    CHECK(n[0] >= 100 && n[1] >= 90 && n[2] >= 25);
    CHECK(steps >= 60 && bidi >= 40 && init >= 110);
}

/* small: every kind drawn, shapes of at most 4096 elements (the matmuls
 * aside), Pow's exponents those ONNX Runtime runs with pow() (never a
 * scalar 2 or 3, which it runs as products: the plan costs them as a Mul),
 * a tensor of them too, GEMV by a weight and batched products both. */
static void test_small_family_draws(void)
{
    static const char *const kinds[] = {"binary", "pow",   "unary", "softmax", "reduce",
                                        "transpose", "concat", "slice", "layernorm",
                                        "matmul"};
    int n[10] = {0}, roots = 0, tensor_exp = 0, gemv = 0;
    for (uint64_t i = 0; i < 400; i++) {
        oc_sample s;
        if (!draw_ok(OC_FAM_SMALL, i, &s))
            continue;
        const char *k = cfg_str(&s, "kind");
        for (int j = 0; j < 10; j++)
            n[j] += !strcmp(k, kinds[j]);
        if (strcmp(k, "matmul")) {
            int64_t e = 1;
            for (int d = 0; d < s.inputs[0].rank; d++)
                e *= s.inputs[0].dims[d];
            CHECK(e >= 1 && e <= 4096 && s.inputs[0].rank <= 4);
        } else {
            CHECK(!strcmp(s.op, "MatMul"));
            gemv += s.n_inputs == 1; /* B is a weight */
        }
        if (!strcmp(k, "pow")) {
            json_t *x = json_object_get(s.config, "exponent");
            CHECK(json_is_string(x) || (json_is_real(x) && json_real_value(x) != 2.0 &&
                                        json_real_value(x) != 3.0));
            roots += json_is_real(x) && json_real_value(x) == 0.5;
            tensor_exp += json_is_string(x);
            CHECK(!strcmp(s.op, "Pow"));
        }
        oc_sample_free(&s);
    }
    for (int j = 0; j < 10; j++)
        CHECK(n[j] >= 10);
    CHECK(roots >= 5 && tensor_exp >= 5);
    CHECK(gemv >= 10 && gemv < n[9]);
}

static void test_desc_json_errors(void)
{
    oc_arena *ar = oc_arena_new();
    oc_node_desc d;
    oc_error err;
    json_t *j = json_loads("{\"op\":\"Relu\",\"inputs\":[{\"dtype\":\"float99\"}],"
                           "\"outputs\":[]}",
                           0, NULL);
    CHECK_EQ_INT(oc_node_desc_from_json(j, NULL, NULL, &d, ar, &err), OC_ERR_INPUT);
    CHECK_CONTAINS(err.msg, "dtype");
    json_decref(j);
    j = json_loads("{\"op\":\"Pad\",\"domain\":\"\",\"attrs\":{\"mode\":\"reflect\","
                   "\"vals\":[0.5,1.5],\"e\":[]},\"inputs\":[null,{\"dtype\":\"int64\","
                   "\"shape\":[8],\"weight\":true}],\"outputs\":[{\"dtype\":null,"
                   "\"shape\":null}]}",
                   0, NULL);
    CHECK_EQ_INT(oc_node_desc_from_json(j, NULL, NULL, &d, ar, &err), OC_OK);
    CHECK(!d.inputs[0].present && d.inputs[1].weight && d.outputs[0].rank == -1);
    const oc_desc_attr *a = oc_node_desc_attr(&d, "vals");
    CHECK(a && a->type == OC_ATTR_FLOATS && a->n == 2 && a->floats[1] == 1.5);
    a = oc_node_desc_attr(&d, "e");
    CHECK(a && a->type == OC_ATTR_INTS && a->n == 0);
    json_decref(j);
    j = json_loads("{\"op\":\"Relu\",\"inputs\":[],\"outputs\":[]}", 0, NULL);
    json_t *bad_feat = json_loads("{\"macs\":-3}", 0, NULL);
    CHECK_EQ_INT(oc_node_desc_from_json(j, NULL, bad_feat, &d, ar, &err), OC_ERR_INPUT);
    json_decref(j);
    json_decref(bad_feat);
    oc_arena_free(ar);
}

static void test_dataset(void)
{
    char path[300], cmd[700];
    snprintf(path, sizeof path, "%s/ds.jsonl.gz", tmpdir);
    oc_error err;
    oc_idset ids;
    uint64_t good;
    bool cut;
    /* A missing dataset is empty. */
    CHECK_EQ_INT(oc_dataset_ids(path, &ids, &good, &cut, &err), OC_OK);
    CHECK_EQ_INT(ids.n, 0);
    const char *c1[] = {"{\"id\":\"b\",\"x\":1}", "{\"id\":\"a\"}"};
    const char *c2[] = {"{\"id\":\"c\"}"};
    const char *nl[] = {"{\"id\":\n\"d\"}"};
    CHECK_EQ_INT(oc_dataset_append(path, c1, 2, &err), OC_OK);
    CHECK_EQ_INT(oc_dataset_append(path, nl, 1, &err), OC_ERR_USAGE);
    CHECK_EQ_INT(oc_dataset_append(path, c2, 1, &err), OC_OK);
    /* Read back line by line, members in order. */
    oc_dataset_reader *r;
    CHECK_EQ_INT(oc_dataset_open(path, &r, &err), OC_OK);
    const char *line;
    size_t len;
    CHECK_EQ_INT(oc_dataset_next(r, &line, &len, &err), OC_OK);
    CHECK_EQ_STR(line, c1[0]);
    CHECK_EQ_INT(len, strlen(c1[0]));
    CHECK_EQ_INT(oc_dataset_next(r, &line, &len, &err), OC_OK);
    CHECK_EQ_STR(line, c1[1]);
    CHECK_EQ_INT(oc_dataset_next(r, &line, &len, &err), OC_OK);
    CHECK_EQ_STR(line, c2[0]);
    CHECK_EQ_INT(oc_dataset_next(r, &line, &len, &err), OC_OK);
    CHECK(line == NULL);
    CHECK(!oc_dataset_cut_off(r));
    CHECK_EQ_INT(oc_dataset_lines(r), 3);
    uint64_t size = oc_dataset_good_size(r);
    oc_dataset_close(r);
    /* gzip itself reads the concatenated members. */
    snprintf(cmd, sizeof cmd, "gzip -dc '%s' | grep -c id | grep -qx 3", path);
    CHECK_EQ_INT(system(cmd), 0);
    /* A member cut off at the end: earlier chunks intact, the cut one ignored. */
    snprintf(cmd, sizeof cmd,
             "printf '%%s\\n' '{\"id\":\"zz\"}' '{\"id\":\"zy\"}' | "
             "gzip -c | head -c 25 >> '%s'",
             path);
    CHECK_EQ_INT(system(cmd), 0);
    CHECK_EQ_INT(oc_dataset_ids(path, &ids, &good, &cut, &err), OC_OK);
    CHECK_EQ_INT(ids.n, 3);
    CHECK(cut);
    CHECK_EQ_INT(good, size);
    CHECK(oc_idset_has(&ids, "a") && oc_idset_has(&ids, "c") &&
          !oc_idset_has(&ids, "zz"));
    oc_idset_free(&ids);
    CHECK_EQ_INT(oc_dataset_truncate(path, good, &err), OC_OK);
    CHECK_EQ_INT(oc_dataset_ids(path, &ids, &good, &cut, &err), OC_OK);
    CHECK(!cut && ids.n == 3);
    oc_idset_free(&ids);
    /* Corruption inside is an error, not a silent stop. */
    snprintf(cmd, sizeof cmd, "printf 'garbage' >> '%s'", path);
    CHECK_EQ_INT(system(cmd), 0);
    CHECK_EQ_INT(oc_dataset_ids(path, &ids, &good, &cut, &err), OC_ERR_INPUT);
    CHECK_CONTAINS(err.msg, "corrupt");
    /* A line without an id. */
    snprintf(path, sizeof path, "%s/noid.jsonl.gz", tmpdir);
    const char *c3[] = {"{\"id\":\"a\"}", "[1]"};
    CHECK_EQ_INT(oc_dataset_append(path, c3, 2, &err), OC_OK);
    CHECK_EQ_INT(oc_dataset_ids(path, &ids, NULL, NULL, &err), OC_ERR_INPUT);
    CHECK_CONTAINS(err.msg, "line 2");
    /* The lock is exclusive per process: a second taker in this process
     * would succeed (fcntl semantics), so only check that it is taken. */
    int fd = -1;
    CHECK_EQ_INT(oc_dataset_lock(path, &fd, &err), OC_OK);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "%s/test_build.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_conv_model();
    test_gemm_and_ints();
    test_loop_body();
    test_errors_and_determinism();
    test_desc_json_errors();
    test_dataset();
    test_families();
    test_conv1d_draws();
    test_conv3d_draws();
    test_unary_draws();
    test_depthtospace_draws();
    test_instancenorm_draws();
    test_gconv_draws();
    test_context_family_draws();
    test_layout_family_draws();
    test_small_family_draws();
    test_upconv_family_draws();
    test_qmaxpool_family_draws();
    test_prelu_family_draws();
    test_thinconv_family_draws();
    test_framebank_family_draws();
    test_bandconv_family_draws();
    test_rnn_family_draws();
    test_select_family_draws();
    test_logic_family_draws();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return t_report("test_build");
}
