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
    size_t ext = oc_model_n_external(g);
    printf("nodes:       %zu\n", g->n_nodes);
    printf("params:      %llu (%s)\n", (unsigned long long)oc_model_param_count(m),
           oc_fmt_si((double)oc_model_param_count(m), "", b1, sizeof b1));
    printf("weights:     %s in %zu initializers%s\n",
           oc_fmt_bytes((double)oc_model_weight_bytes(m), b2, sizeof b2), g->n_initializers,
           ext ? " (some stored as external data)" : "");
    size_t nh;
    oc_op_count *h = oc_op_histogram(g, &nh);
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
    rc = fmt == FMT_JSON ? cli_json_print(oc_json_info(m)) : info_table(m);
    oc_model_free(m);
    return rc;
}
