/* main.c - onnxcost <command> [options] MODEL */
#include "cli/cli.h"

#include <getopt.h>
#include <string.h>

#ifndef OC_VERSION
#define OC_VERSION "dev"
#endif

static const cmd commands[] = {
    {"info", "model summary: inputs, outputs, opsets, operators, weights", cmd_info},
    {"analyze", "shapes and per-node MACs, FLOPs, bytes, memory", cmd_analyze},
    {"collect", "measure single-operator times into a dataset", cmd_collect},
    {"hw", "this machine: fingerprint, ISA, peak sgemm and bandwidth", cmd_hw},
    {"calibrate", "fit the timing model to this machine from a measured probe", cmd_calibrate},
    {"targets", "the runtimes and machines predictions can be made for", cmd_targets},
    {"train", "fit the neural timing model on measured datasets", cmd_train},
    {"predict", "predicted inference time per node, batch and epoch", cmd_predict},
    {"sweep", "time, throughput and memory over batch sizes", cmd_sweep},
    {"report", "an HTML page of SVG charts: prediction, baselines, sweep", cmd_report},
    {"compare", "predicted vs measured time per kernel, from an ORT profile", cmd_compare},
    {"annotate", "write a copy of the model with per-node predictions", cmd_annotate},
    {"eval", "timing-model error on the held-out test split vs baselines", cmd_eval},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: onnxcost <command> [options] MODEL\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nMODEL is an .onnx file, gzip'd or not, or - for standard input.\n"
               "Every command that reads a model also takes\n"
               "  --max-model-size SIZE  refuse a larger model (file, decompressed or\n"
               "                         streamed; 100M, 2G, 512MB; default 4G, or\n"
               "                         $ONNXCOST_MAX_MODEL_SIZE)\n");
    fprintf(f, "\n'onnxcost <command> --help' describes a command's options.\n"
               "Exit status: 0 ok, 1 usage error, 2 bad or unsupported input, "
               "3 I/O or internal error.\n");
}

/* Options every command takes, wherever they stand before a "--": taken
 * out of argv here, so that each command's own parser never sees them.
 * Returns 0 or EXIT_USAGE. */
static int global_options(int *argc, char **argv)
{
    static const char opt[] = "--max-model-size";
    int out = 1;
    bool rest = false;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        size_t ol = sizeof opt - 1;
        if (rest || strncmp(a, opt, ol) != 0 || (a[ol] && a[ol] != '=')) {
            rest = rest || strcmp(a, "--") == 0;
            argv[out++] = argv[i];
            continue;
        }
        const char *v = a[ol] == '=' ? a + ol + 1 : NULL;
        if (!v && i + 1 >= *argc) {
            cli_error("%s needs a size (e.g. %s 2G)", opt, opt);
            return EXIT_USAGE;
        }
        if (!v)
            v = argv[++i];
        if (cli_set_max_model_size(opt, v))
            return EXIT_USAGE;
    }
    argv[out] = NULL;
    *argc = out;
    return 0;
}

int main(int argc, char **argv)
{
    opterr = 0; /* each command says what was wrong with an option, in one line */
    if (global_options(&argc, argv))
        return EXIT_USAGE;
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *c = argv[1];
    if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(c, "--version") || !strcmp(c, "-V")) {
        printf("onnxcost %s\n", OC_VERSION);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(c, commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    cli_error("unknown command '%s' (try 'onnxcost --help')", c);
    return EXIT_USAGE;
}
