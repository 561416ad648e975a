/* bind.c - what a prediction leaves out, said once: symbolic dims still
 * unbound (costed as 1), a --batch that bound nothing, nodes whose shapes
 * stay unknown (not counted).  Warnings, or errors with --strict. */
#include "cli/cli.h"
#include "predictor/estimate.h"

#include <string.h>

/* "H,W" -> "H, W"; "--dim H=... --dim W=..." as the hint. */
static void unbound_lists(const char *assumed, char *names, size_t nn, char *hint, size_t nh)
{
    size_t pn = 0, ph = 0;
    names[0] = hint[0] = '\0';
    for (const char *p = assumed; *p;) {
        size_t l = strcspn(p, ",");
        if (pn < nn)
            pn += (size_t)snprintf(names + pn, nn - pn, "%s%.*s", pn ? ", " : "", (int)l, p);
        if (ph < nh)
            ph += (size_t)snprintf(hint + ph, nh - ph, "%s--dim %.*s=...", ph ? " " : "",
                                   (int)l, p);
        p += l;
        if (*p)
            p++;
    }
}

int cli_check_bound(const analyze_args *aa, const oc_analysis *a)
{
    const char *assumed = oc_analysis_assumed(a);
    const char *src = oc_model_source(oc_analysis_model(a));
    int64_t batch = oc_analysis_batch(a);
    if (aa->opts.batch > 1 && batch != aa->opts.batch)
        fprintf(stderr, "onnxcost: warning: --batch %lld binds no dim of %s (its inputs have "
                        "no symbolic leading dim, or another option bound it): the batch is "
                        "%lld\n",
                (long long)aa->opts.batch, src, (long long)batch);
    if (!assumed[0])
        return 0;
    char names[512], hint[768];
    unbound_lists(assumed, names, sizeof names, hint, sizeof hint);
    bool one = !strchr(assumed, ',');
    if (aa->strict) {
        cli_error("%s: symbolic dim%s %s %s unbound (--strict): bind %s with --dim NAME=VALUE "
                  "(%s)",
                  src, one ? "" : "s", names, one ? "is" : "are", one ? "it" : "them", hint);
        return EXIT_INPUT;
    }
    fprintf(stderr, "onnxcost: warning: symbolic dim%s %s %s unbound and costed as 1: bind %s "
                    "with --dim NAME=VALUE (%s)\n",
            one ? "" : "s", names, one ? "is" : "are", one ? "it" : "them", hint);
    return 0;
}

json_t *cli_unbound_json(const char *assumed)
{
    json_t *arr = json_array();
    for (const char *p = assumed; *p;) {
        size_t l = strcspn(p, ",");
        json_array_append_new(arr, json_stringn(p, l));
        p += l;
        if (*p)
            p++;
    }
    return arr;
}

/* Kernels predicted outside the timing model's data, said once: the
 * operators it has no sample of, then the first kernels far beyond its
 * largest samples. */
static void note_outside(const oc_analysis *a, const oc_estimate *e)
{
    static const char none[] = "no sample of ";
    if (!e->n_outside)
        return;
    size_t nn = oc_model_graph(oc_analysis_model(a))->n_nodes;
    char ops[256] = "", big[256] = "";
    size_t n_ops = 0, n_big = 0;
    for (size_t i = 0; i < nn; i++) {
        const char *w = e->node_outside[i];
        bool seen = false;
        for (size_t j = 0; w && j < i && !seen; j++)
            seen = e->node_outside[j] && !strcmp(e->node_outside[j], w);
        if (!w || seen)
            continue;
        bool is_op = !strncmp(w, none, sizeof none - 1);
        char *dst = is_op ? ops : big;
        size_t *cnt = is_op ? &n_ops : &n_big, len = strlen(dst);
        if (*cnt < (is_op ? 8u : 2u)) {
            const char *what = is_op ? w + sizeof none - 1 : w;
            size_t l = is_op ? strcspn(what, " ") : strlen(what);
            snprintf(dst + len, 256 - len, "%s%.*s", *cnt ? (is_op ? ", " : "; ") : "",
                     (int)l, what);
        } else if (*cnt == (is_op ? 8u : 2u)) {
            snprintf(dst + len, 256 - len, "%s", is_op ? ", ..." : "; ...");
        }
        (*cnt)++;
    }
    double total = e->kernels_us > 0 ? e->kernels_us : 1;
    fprintf(stderr,
            "onnxcost: warning: %zu kernel%s (%.0f%% of the predicted kernel time) %s "
            "extrapolated beyond the timing model's data: %s%s%s%s\n",
            e->n_outside, e->n_outside == 1 ? "" : "s", 100 * e->outside_us / total,
            e->n_outside == 1 ? "is" : "are", n_ops ? "no samples of " : "", ops,
            n_ops && n_big ? "; " : "", big);
}

int cli_check_uncounted(const analyze_args *aa, const oc_analysis *a, const oc_estimate *e)
{
    note_outside(a, e);
    if (!e->n_uncounted)
        return 0;
    const oc_model *m = oc_analysis_model(a);
    const oc_graph *g = oc_model_graph(m);
    const oc_node *n = &g->nodes[e->first_uncounted];
    char msg[1024];
    snprintf(msg, sizeof msg,
             "%zu of %zu nodes %s not counted in the time: %s shapes are unknown (first: "
             "node '%s' (%s): %s)",
             e->n_uncounted_nodes, g->n_nodes, e->n_uncounted_nodes == 1 ? "is" : "are",
             e->n_uncounted_nodes == 1 ? "its" : "their", n->name, n->op,
             e->node_unknown[e->first_uncounted]);
    if (aa->strict) {
        cli_error("%s: %s (--strict)", oc_model_source(m), msg);
        return EXIT_INPUT;
    }
    fprintf(stderr, "onnxcost: warning: %s\n", msg);
    return 0;
}
