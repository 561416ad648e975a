/* cmd_analyze.c - onnxcost analyze MODEL */
#include "cli/cli.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char analyze_help[] =
    "usage: onnxcost analyze [options] MODEL\n"
    "\n"
    "Infer every tensor's shape and count each node's work.\n"
    "\n"
    "  -b, --batch N          bind the leading symbolic dim of the inputs to N\n"
    "  -i, --input NAME=DIMS  give an input a shape, e.g. input=1x3x224x224\n"
    "                         (repeatable; a symbol it replaces is bound\n"
    "                         everywhere)\n"
    "      --dim NAME=VALUE   bind the symbolic dim NAME wherever the model\n"
    "                         declares it (repeatable)\n"
    "      --assume NAME=VALUE  the size of a dim that depends on the data\n"
    "                         (NonZero's count), named OUTPUT:DIM as the\n"
    "                         table's note lists them (repeatable)\n"
    "  -f, --format FMT       table (default), json or csv\n"
    "  -t, --top N            table: only the N nodes with the most FLOPs\n"
    "  -h, --help             this text\n"
    "\n"
    "MACs count multiply-accumulates (Conv, Gemm, MatMul, ...); FLOPs are 2 per\n"
    "MAC plus each operator's own elementwise work. Symbolic dims left unbound\n"
    "are costed as 1 (listed as 'assumed'; JSON unbound_dims).\n";

static void csv_field(const char *s)
{
    bool q = strpbrk(s, ",\"\n") != NULL;
    if (!q) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static int analyze_csv(const oc_model *m, const oc_analysis *a)
{
    const oc_graph *g = oc_model_graph(m);
    printf("name,op,domain,output_shape,macs,flops,params,bytes_read,bytes_written\n");
    for (size_t k = 0; k < g->n_nodes; k++) {
        size_t i = (size_t)g->topo[k];
        const oc_node *n = &g->nodes[i];
        const oc_node_cost *c = oc_analysis_node_cost(a, i);
        char s[512] = "";
        if (n->n_outputs && n->outputs[0] >= 0)
            oc_fmt_shape(oc_analysis_value(a, n->outputs[0]), s, sizeof s);
        csv_field(n->name);
        putchar(',');
        csv_field(n->op);
        putchar(',');
        csv_field(n->domain);
        putchar(',');
        csv_field(s);
        printf(",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", c->macs,
               c->flops, c->params, c->bytes_read, c->bytes_written);
    }
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_IO;
}

typedef struct op_sum {
    const char *op;
    uint64_t n, macs, flops, bytes;
} op_sum;

static int by_flops(const void *x, const void *y)
{
    const op_sum *a = x, *b = y;
    if (a->flops != b->flops)
        return a->flops < b->flops ? 1 : -1;
    return strcmp(a->op, b->op);
}

static const oc_analysis *sort_a;
static int node_by_flops(const void *x, const void *y)
{
    uint64_t a = oc_analysis_node_cost(sort_a, *(const size_t *)x)->flops;
    uint64_t b = oc_analysis_node_cost(sort_a, *(const size_t *)y)->flops;
    return a < b ? 1 : a > b ? -1 : 0;
}

static int analyze_table(const oc_model *m, const oc_analysis *a, int64_t top)
{
    const oc_graph *g = oc_model_graph(m);
    const oc_totals *t = oc_analysis_totals(a);
    char b1[32], b2[32], b3[32], b4[32], s[256];
    size_t *order = malloc((g->n_nodes + 1) * sizeof *order);
    op_sum *ops = calloc(g->n_nodes + 1, sizeof *ops);
    if (!order || !ops) {
        free(order);
        free(ops);
        cli_error("out of memory");
        return EXIT_IO;
    }
    for (size_t k = 0; k < g->n_nodes; k++)
        order[k] = (size_t)g->topo[k];
    size_t shown = g->n_nodes;
    if (top > 0 && (uint64_t)top < g->n_nodes) {
        sort_a = a;
        qsort(order, g->n_nodes, sizeof *order, node_by_flops);
        shown = (size_t)top;
    }
    printf("%-36s %-18s %-22s %10s %10s %9s %9s\n", "node", "op", "output", "MACs",
           "FLOPs", "params", "bytes");
    for (size_t k = 0; k < shown; k++) {
        size_t i = order[k];
        const oc_node *n = &g->nodes[i];
        const oc_node_cost *c = oc_analysis_node_cost(a, i);
        s[0] = '\0';
        if (n->n_outputs && n->outputs[0] >= 0)
            oc_fmt_shape(oc_analysis_value(a, n->outputs[0]), s, sizeof s);
        printf("%-36.36s %-18.18s %-22.22s %10s %10s %9s %9s\n", oc_fmt_tail(n->name, 36), n->op, s,
               oc_fmt_si((double)c->macs, "", b1, sizeof b1),
               oc_fmt_si((double)c->flops, "", b2, sizeof b2),
               oc_fmt_si((double)c->params, "", b3, sizeof b3),
               oc_fmt_bytes((double)(c->bytes_read + c->bytes_written), b4, sizeof b4));
    }
    size_t n_ops = 0;
    for (size_t i = 0; i < g->n_nodes; i++) {
        const oc_node *n = &g->nodes[i];
        const oc_node_cost *c = oc_analysis_node_cost(a, i);
        size_t k;
        for (k = 0; k < n_ops; k++)
            if (!strcmp(ops[k].op, n->op))
                break;
        if (k == n_ops)
            ops[n_ops++].op = n->op;
        ops[k].n++;
        ops[k].macs += c->macs;
        ops[k].flops += c->flops;
        ops[k].bytes += c->bytes_read + c->bytes_written;
    }
    qsort(ops, n_ops, sizeof *ops, by_flops);
    printf("\nby operator type:\n%-24s %6s %10s %10s %7s %10s\n", "op", "nodes", "MACs",
           "FLOPs", "FLOPs%", "bytes");
    for (size_t k = 0; k < n_ops; k++)
        printf("%-24s %6llu %10s %10s %6.1f%% %10s\n", ops[k].op,
               (unsigned long long)ops[k].n, oc_fmt_si((double)ops[k].macs, "", b1, sizeof b1),
               oc_fmt_si((double)ops[k].flops, "", b2, sizeof b2),
               t->flops ? 100.0 * (double)ops[k].flops / (double)t->flops : 0.0,
               oc_fmt_bytes((double)ops[k].bytes, b3, sizeof b3));
    printf("\ntotals: %llu nodes, %s, %s, %s params\n", (unsigned long long)t->nodes,
           oc_fmt_si((double)t->macs, "MAC", b1, sizeof b1),
           oc_fmt_si((double)t->flops, "FLOP", b2, sizeof b2),
           oc_fmt_si((double)t->params, "", b3, sizeof b3));
    printf("memory: weights %s, peak activations %s, moved %s\n",
           oc_fmt_bytes((double)t->weight_bytes, b1, sizeof b1),
           oc_fmt_bytes((double)t->peak_activation_bytes, b2, sizeof b2),
           oc_fmt_bytes((double)(t->bytes_read + t->bytes_written), b3, sizeof b3));
    if (oc_analysis_assumed(a)[0])
        printf("assumed: symbolic dims %s costed as 1 (bind them with --dim NAME=VALUE, "
               "--batch or --input)\n", oc_analysis_assumed(a));
    if (t->unknown_shape_nodes)
        printf("note: %llu nodes have outputs of unknown shape; their costs are "
               "incomplete\n", (unsigned long long)t->unknown_shape_nodes);
    if (oc_analysis_unknown_dims(a)[0])
        printf("note: sizes that depend on the data: %s (give them with --assume "
               "NAME=VALUE)\n", oc_analysis_unknown_dims(a));
    free(order);
    free(ops);
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_IO;
}

int cmd_analyze(int argc, char **argv)
{
    static const struct option opts[] = {{"batch", required_argument, NULL, 'b'},
                                         {"input", required_argument, NULL, 'i'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"top", required_argument, NULL, 't'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"dim", required_argument, NULL, CLI_OPT_DIM},
                                         {"assume", required_argument, NULL, CLI_OPT_ASSUME},
                                         {NULL, 0, NULL, 0}};
    analyze_args aa;
    memset(&aa, 0, sizeof aa);
    out_format fmt = FMT_TABLE;
    int64_t top = 0;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:i:f:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 'b':
            if (cli_parse_i64("--batch", optarg, 1, (int64_t)1 << 32, &aa.opts.batch))
                return EXIT_USAGE;
            break;
        case 'i':
            if (cli_parse_input(&aa, optarg))
                return EXIT_USAGE;
            break;
        case CLI_OPT_DIM:
            if (cli_parse_dim(&aa, optarg))
                return EXIT_USAGE;
            break;
        case CLI_OPT_ASSUME:
            if (cli_parse_assume(&aa, optarg))
                return EXIT_USAGE;
            break;
        case 'f':
            if (cli_parse_format(optarg, &fmt, 1))
                return EXIT_USAGE;
            break;
        case 't':
            if (cli_parse_i64("--top", optarg, 1, INT32_MAX, &top))
                return EXIT_USAGE;
            break;
        case 'h':
            fputs(analyze_help, stdout);
            return EXIT_OK;
        default:
            return cli_bad_option("analyze", argv, "b:i:f:t:h");
        }
    }
    if (optind != argc - 1) {
        cli_error("analyze: expected exactly one MODEL (see 'onnxcost analyze --help')");
        return EXIT_USAGE;
    }
    oc_model *m;
    int rc = cli_load(argv[optind], &m);
    if (rc)
        return rc;
    oc_analysis *a;
    oc_error err;
    oc_error_clear(&err);
    if (oc_analyze(m, &aa.opts, &a, &err) != OC_OK) {
        rc = cli_fail(&err, 1);
        oc_model_free(m);
        return rc;
    }
    for (size_t i = 0; i < oc_analysis_n_warnings(a) && i < 20; i++) {
        const oc_warning *w = oc_analysis_warning(a, i);
        fprintf(stderr, "onnxcost: warning: node '%s': %s\n", w->node, w->msg);
    }
    if (oc_analysis_n_warnings(a) > 20)
        fprintf(stderr, "onnxcost: warning: %zu more warnings\n",
                oc_analysis_n_warnings(a) - 20);
    rc = fmt == FMT_JSON ? cli_json_print(oc_json_analysis(m, a))
         : fmt == FMT_CSV ? analyze_csv(m, a)
                          : analyze_table(m, a, top);
    oc_analysis_free(a);
    oc_model_free(m);
    return rc;
}
