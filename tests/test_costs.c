/*
 * test_costs.c - per-node MACs, FLOPs and output shapes on small models,
 * against figures worked out by hand (tests/data/costs-*.tsv):
 *   model.onnx <TAB> node name <TAB> macs <TAB> flops <TAB> output-0 shape
 * Also checks the core's own accounting (bytes, params, peak memory).
 */
#include "analyzer/analyzer.h"
#include "harness.h"

#include <glob.h>
#include <jansson.h>
#include <stdlib.h>

static bool shape_eq(const oc_tinfo *t, json_t *want)
{
    if (!t || t->rank < 0 || !json_is_array(want) ||
        (size_t)t->rank != json_array_size(want))
        return false;
    for (int i = 0; i < t->rank; i++) {
        json_t *w = json_array_get(want, (size_t)i);
        char d[64];
        if (json_is_integer(w)) {
            if (!oc_dim_is_known(t->dims[i]) || t->dims[i].v != json_integer_value(w))
                return false;
        } else if (json_is_string(w)) {
            if (strcmp(oc_dim_str(t->dims[i], d, sizeof d), json_string_value(w)))
                return false;
        } else {
            return false;
        }
    }
    return true;
}

static void run_file(const char *tsv)
{
    FILE *f = fopen(tsv, "r");
    if (!f)
        return;
    char line[4096];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\r\n")] = '\0';
        char *fields[5];
        int nf = 0;
        for (char *p = line; nf < 5; nf++) {
            fields[nf] = p;
            char *t = strchr(p, '\t');
            if (!t) {
                nf++;
                break;
            }
            *t = '\0';
            p = t + 1;
        }
        if (nf < 5) {
            fprintf(stderr, "%s:%d: expected 5 fields\n", tsv, lineno);
            t_failed++;
            continue;
        }
        char path[8192];
        snprintf(path, sizeof path, "%s/data/%s", OC_TESTS_DIR, fields[0]);
        oc_model *m = NULL;
        oc_analysis *a = NULL;
        oc_error e;
        oc_error_clear(&e);
        if (oc_model_load_file(path, &m, &e) || oc_analyze(m, NULL, &a, &e)) {
            fprintf(stderr, "%s:%d: %s\n", tsv, lineno, e.msg);
            t_failed++;
            oc_model_free(m);
            continue;
        }
        const oc_graph *g = oc_model_graph(m);
        size_t ni = g->n_nodes;
        for (size_t i = 0; i < g->n_nodes; i++)
            if (!strcmp(g->nodes[i].name, fields[1]))
                ni = i;
        if (ni == g->n_nodes) {
            fprintf(stderr, "%s:%d: no node '%s'\n", tsv, lineno, fields[1]);
            t_failed++;
        } else {
            const oc_node_cost *c = oc_analysis_node_cost(a, ni);
            unsigned long long macs = strtoull(fields[2], NULL, 10);
            unsigned long long flops = strtoull(fields[3], NULL, 10);
            json_t *want = json_loads(fields[4], 0, NULL);
            const oc_tinfo *t = g->nodes[ni].n_outputs && g->nodes[ni].outputs[0] >= 0
                                    ? oc_analysis_value(a, g->nodes[ni].outputs[0])
                                    : NULL;
            bool ok = c->macs == macs && c->flops == flops && shape_eq(t, want);
            if (ok) {
                t_passed++;
            } else {
                char got[256] = "?";
                if (t && t->rank >= 0) {
                    size_t pos = (size_t)snprintf(got, sizeof got, "[");
                    for (int k = 0; k < t->rank && pos < sizeof got; k++) {
                        char d[64];
                        pos += (size_t)snprintf(got + pos, sizeof got - pos, "%s%s",
                                                k ? "," : "",
                                                oc_dim_str(t->dims[k], d, sizeof d));
                    }
                    if (pos < sizeof got)
                        snprintf(got + pos, sizeof got - pos, "]");
                }
                fprintf(stderr,
                        "%s:%d: %s %s: got macs %llu flops %llu shape %s, expected "
                        "macs %llu flops %llu shape %s\n",
                        tsv, lineno, fields[0], fields[1],
                        (unsigned long long)c->macs, (unsigned long long)c->flops, got,
                        macs, flops, fields[4]);
                t_failed++;
            }
            json_decref(want);
        }
        oc_analysis_free(a);
        oc_model_free(m);
    }
    fclose(f);
}

/* Model `path` and its analysis with options o, both NULL (and the test
 * failed) when either fails; free both. */
static oc_analysis *load_analyzed(const char *path, const oc_analyze_opts *o, oc_model **m)
{
    oc_analysis *a = NULL;
    oc_error e;
    if (oc_model_load_file(path, m, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        t_failed++;
        *m = NULL;
        return NULL;
    }
    CHECK_EQ_INT(oc_analyze(*m, o, &a, &e), OC_OK);
    if (!a) {
        oc_model_free(*m);
        *m = NULL;
    }
    return a;
}

/* The core's accounting on the committed squeezenet sample. */
static void test_core_accounting(void)
{
    oc_model *m;
    oc_error e;
    oc_analyze_opts o = {.batch = 2};
    oc_analysis *a = load_analyzed(OC_SAMPLES "/squeezenet1_1.onnx", &o, &m);
    if (!a)
        return;
    const oc_graph *g = oc_model_graph(m);
    const oc_totals *t = oc_analysis_totals(a);
    CHECK_EQ_INT(t->nodes, 83);
    CHECK_EQ_INT(t->params, 1233288);
    CHECK_EQ_INT(t->weight_bytes, 1233288 * 4);
    /* input 2x3x224x224 float is read by the first conv */
    const oc_tinfo *in = oc_analysis_value(a, g->inputs[0]);
    CHECK_EQ_INT(in->dims[0].v, 2);
    size_t first = (size_t)g->topo[0];
    const oc_node_cost *c = oc_analysis_node_cost(a, first);
    if (!strcmp(g->nodes[first].op, "Conv")) {
        /* X + W[64,3,3,3] + B[64] */
        CHECK_EQ_INT(c->bytes_read, (2 * 3 * 224 * 224 + 64 * 27 + 64) * 4);
        CHECK_EQ_INT(c->params, 64 * 27 + 64);
    }
    /* peak activations at least the input plus the first conv output */
    CHECK(t->peak_activation_bytes >= (uint64_t)(2 * 3 * 224 * 224) * 4);
    CHECK(t->peak_activation_bytes < (uint64_t)100 << 20);
    CHECK_EQ_STR(oc_analysis_assumed(a), "");
    oc_analysis_free(a);

    /* unbound: N is reported as assumed and costed as 1 */
    CHECK_EQ_INT(oc_analyze(m, NULL, &a, &e), OC_OK);
    if (a) {
        CHECK_EQ_STR(oc_analysis_assumed(a), "N");
        oc_analysis_free(a);
    }
    oc_model_free(m);
}

/* Shape reads its input's dims, not its data: no bytes read (issue 16). */
static void test_shape_reads_no_data(void)
{
    oc_model *m;
    oc_analysis *a = load_analyzed(OC_TESTS_DIR "/data/tensor/chain_heads.onnx", NULL, &m);
    if (!a)
        return;
    const oc_graph *g = oc_model_graph(m);
    size_t shapes = 0;
    for (size_t i = 0; i < g->n_nodes; i++) {
        if (strcmp(g->nodes[i].op, "Shape"))
            continue;
        const oc_node_cost *c = oc_analysis_node_cost(a, i);
        const oc_tinfo *x = oc_analysis_value(a, g->nodes[i].inputs[0]);
        uint64_t ne = 0;
        CHECK(oc_tinfo_numel(x, &ne) && ne > 1);
        CHECK_EQ_INT(c->bytes_read, 0);
        CHECK_EQ_INT(c->bytes_written, (uint64_t)x->rank * 8);
        shapes++;
    }
    CHECK_EQ_INT(shapes, 1);
    oc_analysis_free(a);
    oc_model_free(m);
}

int main(void)
{
    glob_t gl;
    if (glob(OC_TESTS_DIR "/data/costs-*.tsv", 0, NULL, &gl) == 0) {
        for (size_t i = 0; i < gl.gl_pathc; i++)
            run_file(gl.gl_pathv[i]);
        globfree(&gl);
    }
    test_core_accounting();
    test_shape_reads_no_data();
    return t_report("test_costs");
}
