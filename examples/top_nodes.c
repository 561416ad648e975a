/* top_nodes.c - analyze a model and list its nodes with the most MACs.
 *
 *   cc top_nodes.c $(pkg-config --cflags --libs onnxcost) -o top_nodes
 *   ./top_nodes MODEL [N [DIM=VALUE...]]
 */
#include <onnxcost.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const onnxcost_analysis *sorted;

static int by_macs(const void *x, const void *y)
{
    onnxcost_node a, b;
    onnxcost_analysis_node(sorted, *(const size_t *)x, &a);
    onnxcost_analysis_node(sorted, *(const size_t *)y, &b);
    return a.macs < b.macs ? 1 : a.macs > b.macs ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODEL [N [DIM=VALUE...]]\n", argv[0]);
        return 1;
    }
    size_t top = argc > 2 ? strtoul(argv[2], NULL, 10) : 5;
    onnxcost_model *m = NULL;
    onnxcost_bindings *b = onnxcost_bindings_new();
    onnxcost_analysis *a = NULL;
    size_t *order = NULL;
    int rc = 1;
    if (!b)
        return 1;
    for (int i = 3; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq) {
            fprintf(stderr, "top_nodes: '%s' is not DIM=VALUE\n", argv[i]);
            goto done;
        }
        *eq = '\0';
        if (onnxcost_bindings_set_dim(b, argv[i], atoll(eq + 1)) != ONNXCOST_OK) {
            fprintf(stderr, "top_nodes: %s\n", onnxcost_last_error());
            goto done;
        }
    }
    if (onnxcost_model_load(argv[1], &m) != ONNXCOST_OK ||
        onnxcost_analyze(m, b, &a) != ONNXCOST_OK) {
        fprintf(stderr, "top_nodes: %s\n", onnxcost_last_error());
        goto done;
    }
    size_t n = onnxcost_model_n_nodes(m);
    order = malloc((n + 1) * sizeof *order);
    if (!order)
        goto done;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    sorted = a;
    qsort(order, n, sizeof *order, by_macs);
    onnxcost_totals t;
    onnxcost_analysis_totals(a, &t);
    printf("%s: %llu nodes, %llu MACs, %llu parameters\n", onnxcost_model_source(m),
           (unsigned long long)t.nodes, (unsigned long long)t.macs,
           (unsigned long long)t.params);
    for (size_t i = 0; i < onnxcost_analysis_n_unbound(a); i++)
        printf("unbound: %s\n", onnxcost_analysis_unbound(a, i));
    for (size_t k = 0; k < n && k < top; k++) {
        onnxcost_node nd;
        onnxcost_analysis_node(a, order[k], &nd);
        printf("%-40s %-12s %-20s %14llu\n", nd.name, nd.op, nd.output_shape,
               (unsigned long long)nd.macs);
    }
    rc = 0;
done:
    free(order);
    onnxcost_analysis_free(a);
    onnxcost_bindings_free(b);
    onnxcost_model_free(m);
    return rc;
}
