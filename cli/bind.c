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

/* Kernels predicted outside the timing model's data, said once: the
 * operators it has no sample of, then the first kernels far beyond its
 * largest samples (a few of each; linear in the nodes). */
static void note_outside(const oc_analysis *a, const oc_estimate *e)
{
    enum { MAX_OPS = 8, MAX_BIG = 2 };
    static const char none[] = "no sample of ";
    if (!e->n_outside)
        return;
    size_t nn = oc_model_graph(oc_analysis_model(a))->n_nodes;
    const char *ops[MAX_OPS + 1], *big[MAX_BIG + 1];
    size_t ops_len[MAX_OPS + 1], n_ops = 0, n_big = 0;
    bool more_ops = false, more_big = false;
    for (size_t i = 0; i < nn; i++) {
        const char *w = e->node_outside[i];
        if (!w)
            continue;
        if (!strncmp(w, none, sizeof none - 1)) {
            const char *op = w + sizeof none - 1;
            size_t l = strcspn(op, " "), j = 0;
            while (j < n_ops && (ops_len[j] != l || strncmp(ops[j], op, l)))
                j++;
            if (j == n_ops && n_ops < MAX_OPS) {
                ops[n_ops] = op;
                ops_len[n_ops++] = l;
            } else if (j == n_ops) {
                more_ops = true;
            }
        } else if (n_big < MAX_BIG) {
            big[n_big++] = w;
        } else {
            more_big = true;
        }
    }
    char list[768];
    size_t len = 0;
    for (size_t j = 0; j < n_ops && len < sizeof list; j++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%.*s",
                                j ? ", " : "no samples of ", (int)ops_len[j], ops[j]);
    if (more_ops && len < sizeof list)
        len += (size_t)snprintf(list + len, sizeof list - len, ", ...");
    for (size_t j = 0; j < n_big && len < sizeof list; j++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? "; " : "", big[j]);
    if (more_big && len < sizeof list)
        snprintf(list + len, sizeof list - len, "; ...");
    double total = e->kernels_us > 0 ? e->kernels_us : 1;
    fprintf(stderr,
            "onnxcost: warning: %zu kernel%s (%.0f%% of the predicted kernel time) %s "
            "extrapolated beyond the timing model's data: %s\n",
            e->n_outside, e->n_outside == 1 ? "" : "s", 100 * e->outside_us / total,
            e->n_outside == 1 ? "is" : "are", list);
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
