/* cmd_info.c - onnxcost info MODEL */
#include "cli/cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char info_help[] =
    "usage: onnxcost info [--format table|json] MODEL\n"
    "\n"
    "Summarise a model without analysing it: IR version, producer, opsets,\n"
    "inputs and outputs with dtype and shape (symbolic dims by name), node\n"
    "count, operator histogram, parameter count and weight bytes.\n"
    "\n"
    "  -f, --format FMT   table (default) or json\n"
    "  -h, --help         this text\n";

typedef struct op_count {
    const char *name;
    size_t n;
} op_count;

static int by_count(const void *a, const void *b)
{
    const op_count *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* Operator histogram of the main graph, sorted by count. */
static op_count *histogram(const oc_graph *g, size_t *n_out)
{
    op_count *h = calloc(g->n_nodes + 1, sizeof *h);
    size_t n = 0;
    if (!h)
        return NULL;
    for (size_t i = 0; i < g->n_nodes; i++) {
        const oc_node *nd = &g->nodes[i];
        size_t k;
        for (k = 0; k < n; k++)
            if (!strcmp(h[k].name, nd->op))
                break;
        if (k == n)
            h[n++].name = nd->op;
        h[k].n++;
    }
    qsort(h, n, sizeof *h, by_count);
    *n_out = n;
    return h;
}

static size_t count_external(const oc_graph *g)
{
    size_t n = 0;
    for (size_t i = 0; i < g->n_values; i++)
        n += g->values[i].is_initializer && g->values[i].constant->external;
    return n;
}

static json_t *io_json(const oc_graph *g, const int *ids, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        const oc_value *v = &g->values[ids[i]];
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(v->name));
        json_object_set_new(o, "dtype", json_string(oc_dtype_name(v->dtype)));
        json_object_set_new(o, "shape", oc_json_decl_shape(v));
        json_array_append_new(a, o);
    }
    return a;
}

static int info_json(const oc_model *m)
{
    const oc_graph *g = oc_model_graph(m);
    json_t *j = json_object();
    json_object_set_new(j, "file", json_string(oc_model_source(m)));
    json_object_set_new(j, "file_bytes", json_integer((json_int_t)oc_model_file_size(m)));
    json_object_set_new(j, "compression",
                        json_string(oc_model_compression(m) == OC_GZIP ? "gzip" : "none"));
    json_object_set_new(j, "ir_version", json_integer(oc_model_ir_version(m)));
    json_object_set_new(j, "producer", json_string(oc_model_producer(m)));
    json_object_set_new(j, "producer_version", json_string(oc_model_producer_version(m)));
    json_t *ops = json_array();
    for (size_t i = 0; i < oc_model_n_opsets(m); i++) {
        json_t *o = json_object();
        json_object_set_new(o, "domain", json_string(oc_model_opsets(m)[i].domain));
        json_object_set_new(o, "version", json_integer(oc_model_opsets(m)[i].version));
        json_array_append_new(ops, o);
    }
    json_object_set_new(j, "opsets", ops);
    json_object_set_new(j, "inputs", io_json(g, g->inputs, g->n_inputs));
    json_object_set_new(j, "outputs", io_json(g, g->outputs, g->n_outputs));
    json_object_set_new(j, "nodes", json_integer((json_int_t)g->n_nodes));
    size_t nh;
    op_count *h = histogram(g, &nh);
    json_t *hist = json_object();
    for (size_t i = 0; h && i < nh; i++)
        json_object_set_new(hist, h[i].name, json_integer((json_int_t)h[i].n));
    free(h);
    json_object_set_new(j, "operators", hist);
    json_object_set_new(j, "initializers", json_integer((json_int_t)g->n_initializers));
    json_object_set_new(j, "external_initializers", json_integer((json_int_t)count_external(g)));
    json_object_set_new(j, "params", json_integer((json_int_t)oc_model_param_count(m)));
    json_object_set_new(j, "weight_bytes", json_integer((json_int_t)oc_model_weight_bytes(m)));
    return cli_json_print(j);
}

static void print_io(const char *title, const oc_graph *g, const int *ids, size_t n)
{
    printf("%s:\n", title);
    for (size_t i = 0; i < n; i++) {
        const oc_value *v = &g->values[ids[i]];
        char s[512];
        printf("  %-24s %-8s %s\n", v->name, oc_dtype_name(v->dtype),
               oc_fmt_decl_shape(v, s, sizeof s));
    }
}

static int info_table(const oc_model *m)
{
    const oc_graph *g = oc_model_graph(m);
    char b1[32], b2[32];
    printf("file:        %s (%s%s)\n", oc_model_source(m),
           oc_fmt_bytes((double)oc_model_file_size(m), b1, sizeof b1),
           oc_model_compression(m) == OC_GZIP ? ", gzip" : "");
    printf("ir_version:  %lld\n", (long long)oc_model_ir_version(m));
    printf("producer:    %s %s\n", oc_model_producer(m), oc_model_producer_version(m));
    printf("opsets:     ");
    for (size_t i = 0; i < oc_model_n_opsets(m); i++) {
        const oc_opset *o = &oc_model_opsets(m)[i];
        printf(" %s:%lld", o->domain[0] ? o->domain : "ai.onnx", (long long)o->version);
    }
    printf("\n");
    print_io("inputs", g, g->inputs, g->n_inputs);
    print_io("outputs", g, g->outputs, g->n_outputs);
    size_t ext = count_external(g);
    printf("nodes:       %zu\n", g->n_nodes);
    printf("params:      %llu (%s)\n", (unsigned long long)oc_model_param_count(m),
           oc_fmt_si((double)oc_model_param_count(m), "", b1, sizeof b1));
    printf("weights:     %s in %zu initializers%s\n",
           oc_fmt_bytes((double)oc_model_weight_bytes(m), b2, sizeof b2), g->n_initializers,
           ext ? " (some stored as external data)" : "");
    size_t nh;
    op_count *h = histogram(g, &nh);
    printf("operators:\n");
    for (size_t i = 0; h && i < nh; i++)
        printf("  %-24s %zu\n", h[i].name, h[i].n);
    free(h);
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_IO;
}

int cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    out_format fmt = FMT_TABLE;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (cli_parse_format(optarg, &fmt, 0))
                return EXIT_USAGE;
            break;
        case 'h':
            fputs(info_help, stdout);
            return EXIT_OK;
        default:
            return cli_bad_option("info", argv, "f:h");
        }
    }
    if (optind != argc - 1) {
        cli_error("info: expected exactly one MODEL (see 'onnxcost info --help')");
        return EXIT_USAGE;
    }
    oc_model *m;
    int rc = cli_load(argv[optind], &m);
    if (rc)
        return rc;
    rc = fmt == FMT_JSON ? info_json(m) : info_table(m);
    oc_model_free(m);
    return rc;
}
