/* bind.c - what a prediction leaves out, said once: symbolic dims still
 * unbound (costed as 1), a --batch that bound nothing, nodes whose shapes
 * stay unknown (not counted).  Warnings, or errors with --strict. */
#include "cli/cli.h"
#include "predictor/estimate.h"
#include "predictor/result.h"

#include <string.h>

/* "H,W" -> "H, W"; "--dim H=... --dim W=..." as the hint, a name a shell
 * would split or expand in single quotes ("--dim 'past + seq=...'"). */
static void unbound_lists(const char *assumed, char *names, size_t nn, char *hint, size_t nh)
{
    size_t pn = 0, ph = 0;
    names[0] = hint[0] = '\0';
    for (const char *p = assumed; *p;) {
        size_t l = strcspn(p, ",");
        bool quote = strcspn(p, " \t*?[]$&;|<>()'\"\\`!{}~#,") < l;
        if (pn < nn)
            pn += (size_t)snprintf(names + pn, nn - pn, "%s%.*s", pn ? ", " : "", (int)l, p);
        if (ph < nh)
            ph += (size_t)snprintf(hint + ph, nh - ph, "%s--dim %s%.*s=...%s", ph ? " " : "",
                                   quote ? "'" : "", (int)l, p, quote ? "'" : "");
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

int cli_check_uncounted(const analyze_args *aa, const oc_analysis *a, const oc_estimate *e)
{
    char outside[1024];
    if (oc_estimate_outside_note(a, e, outside, sizeof outside))
        fprintf(stderr, "onnxcost: warning: %s\n", outside);
    if (!e->n_uncounted)
        return 0;
    const oc_model *m = oc_analysis_model(a);
    const oc_graph *g = oc_model_graph(m);
    const oc_node *n = &g->nodes[e->first_uncounted];
    char msg[1024];
    snprintf(msg, sizeof msg,
             "%zu of %zu nodes %s not counted in the time (first: node '%s' (%s): %s)",
             e->n_uncounted_nodes, g->n_nodes, e->n_uncounted_nodes == 1 ? "is" : "are", n->name,
             n->op,
             e->node_unknown[e->first_uncounted]);
    const char *dd = oc_analysis_unknown_dims(a);
    size_t l = strlen(msg);
    if (dd[0] && l < sizeof msg)
        snprintf(msg + l, sizeof msg - l,
                 "; give the sizes that depend on the data with --assume NAME=VALUE (%s)", dd);
    if (aa->strict) {
        cli_error("%s: %s (--strict)", oc_model_source(m), msg);
        return EXIT_INPUT;
    }
    fprintf(stderr, "onnxcost: warning: %s\n", msg);
    return 0;
}
