/*
 * node_shapes.c - our inferred graph-output shapes against the ONNX backend
 * node tests whose outputs a static inference can reproduce.
 *
 * usage: node_shapes [SUBSTRING]   (only tests whose name contains it)
 * Passes when at least 95% of the selected tests match (all, with a filter).
 */
#include "analyzer/analyzer.h"
#include "harness.h"

#include <jansson.h>
#include <stdlib.h>

static bool shape_matches(const oc_tinfo *t, json_t *want, char *got, size_t n)
{
    snprintf(got, n, "?");
    if (!t || t->rank < 0)
        return false;
    size_t pos = (size_t)snprintf(got, n, "[");
    bool ok = (size_t)t->rank == json_array_size(want);
    for (int i = 0; i < t->rank && pos < n; i++) {
        char d[64];
        pos += (size_t)snprintf(got + pos, n - pos, "%s%s", i ? "," : "",
                                oc_dim_str(t->dims[i], d, sizeof d));
        json_t *w = json_array_get(want, (size_t)i);
        if (!w || !oc_dim_is_known(t->dims[i]) || json_integer_value(w) != t->dims[i].v)
            ok = false;
    }
    if (pos < n)
        snprintf(got + pos, n - pos, "]");
    return ok;
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    FILE *f = fopen(OC_STATIC_SHAPES, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", OC_STATIC_SHAPES);
        return 1;
    }
    char line[65536];
    int total = 0, pass = 0;
    while (fgets(line, sizeof line, f)) {
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        const char *name = line;
        if (filter && !strstr(name, filter))
            continue;
        total++;
        json_error_t je;
        json_t *want = json_loads(tab + 1, 0, &je);
        char path[1024];
        snprintf(path, sizeof path, "%s/%.200s/model.onnx", OC_NODE_TESTS, name);
        oc_model *m = NULL;
        oc_analysis *a = NULL;
        oc_error err;
        oc_error_clear(&err);
        bool ok = want && json_is_array(want);
        char why[sizeof err.msg + 16] = "";
        if (ok && oc_model_load_file(path, &m, &err) != OC_OK) {
            ok = false;
            snprintf(why, sizeof why, "load: %s", err.msg);
        }
        if (ok && oc_analyze(m, NULL, &a, &err) != OC_OK) {
            ok = false;
            snprintf(why, sizeof why, "analyze: %s", err.msg);
        }
        if (ok) {
            const oc_graph *g = oc_model_graph(m);
            if (g->n_outputs != json_array_size(want)) {
                ok = false;
                snprintf(why, sizeof why, "%zu outputs, expected %zu", g->n_outputs,
                         json_array_size(want));
            }
            for (size_t i = 0; ok && i < g->n_outputs; i++) {
                char got[512];
                json_t *w = json_array_get(want, i);
                if (!shape_matches(oc_analysis_value(a, g->outputs[i]), w, got,
                                   sizeof got)) {
                    char *ws = json_dumps(w, JSON_COMPACT);
                    snprintf(why, sizeof why, "output %zu: got %s, expected %s", i, got,
                             ws ? ws : "?");
                    free(ws);
                    ok = false;
                }
            }
            if (ok && oc_analysis_n_warnings(a)) {
                /* right by luck is not right: an unsupported op in the graph */
                const oc_warning *w = oc_analysis_warning(a, 0);
                if (strstr(w->msg, "unsupported")) {
                    ok = false;
                    snprintf(why, sizeof why, "%s", w->msg);
                }
            }
        }
        if (ok)
            pass++;
        else
            printf("MISMATCH %s: %s\n", name, why);
        oc_analysis_free(a);
        oc_model_free(m);
        json_decref(want);
    }
    fclose(f);
    double share = total ? 100.0 * pass / total : 0;
    printf("node_shapes: %d of %d node tests match (%.1f%%)\n", pass, total, share);
    bool good = total > 0 && (filter ? pass == total : share >= 95.0);
    printf("node_shapes: %d passed, %d failed\n", good ? 1 : 0, good ? 0 : 1);
    return good ? 0 : 1;
}
