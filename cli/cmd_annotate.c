/* cmd_annotate.c - onnxcost annotate MODEL -o OUT.onnx */
#include "cli/cli.h"
#include "predictor/estimate.h"
#include "predictor/result.h"

#include <getopt.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

static const char annotate_help[] =
    "usage: onnxcost annotate [options] MODEL -o OUT.onnx\n"
    "       onnxcost annotate [options] --in-place MODEL\n"
    "\n"
    "Write a copy of MODEL whose every node carries its predicted time and\n"
    "costs: a line 'onnxcost: time_us=... macs=... bytes=...' appended to the\n"
    "node's doc_string (Netron shows it), the same values as node\n"
    "metadata_props 'onnxcost.*' (ONNX 1.16's NodeProto field 9), and the\n"
    "model's totals in its metadata_props ('onnxcost.time_ms', ...). Nothing\n"
    "else changes. The output is written to a temporary file and renamed, so\n"
    "an interrupted run leaves any existing file as it was; a symbolic link is\n"
    "followed (the file it points to is written), a file with other hard links\n"
    "is rewritten in place, and anything but a regular file is refused. A\n"
    "model whose weights are in external files can only be written into its\n"
    "own folder (their locations are relative to it). MODEL - reads standard\n"
    "input (with -o).\n"
    "\n"
    "  -o, --output FILE        where to write (never MODEL itself)\n"
    "      --in-place           replace MODEL (atomically)\n"
    "  -b, --batch N            bind the leading symbolic dim (default 1)\n"
    "  -i, --input NAME=DIMS    give an input a shape (repeatable)\n"
    CLI_DIM_HELP
    CLI_STRICT_HELP
    "  -T, --threads N          intra-op threads (default: the model's)\n"
    "  -m, --target SPEC        ort-cpu or torch-cpu (built-in), NAME@MACHINE\n"
    "                           ('onnxcost targets'), or a file: a calibration\n"
    "                           or a timing model ('--timing-model' too)\n"
    "      --mode MODE          inference (default) or training (one training\n"
    "                           step on the torch-cpu model, as predict)\n"
    "      --optimizer NAME     training: sgd (default) or adam\n"
    "  -h, --help               this text\n"
    "\n"
    "A node whose shapes stay unknown (data-dependent sizes) is not counted:\n"
    "its line reads 'onnxcost: not counted: REASON' and its metadata\n"
    "'onnxcost.unknown' = REASON; the model's 'onnxcost.uncounted_nodes' says\n"
    "how many there are.\n";

/* Returns 0 or EXIT_USAGE (message printed). */
static int check_external(const oc_model *m, const char *in, const char *out)
{
    const char *loc;
    size_t n = oc_model_external_count(m, &loc);
    if (oc_external_copy_ok(m, in, out))
        return 0;
    cli_error("annotate: %s keeps %zu tensor%s in external data files named relative to "
              "its folder ('%s'); %s is in another folder, where they would not be "
              "found: write into %s's folder, or use --in-place",
              in, n, n == 1 ? "" : "s", loc, out, in);
    return EXIT_USAGE;
}

int cmd_annotate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"in-place", no_argument, NULL, 'P'},
        {"batch", required_argument, NULL, 'b'},  {"input", required_argument, NULL, 'i'},
        {"threads", required_argument, NULL, 'T'}, {"timing-model", required_argument, NULL, 'm'},
        {"target", required_argument, NULL, 'm'},
        {"mode", required_argument, NULL, 'M'},   {"optimizer", required_argument, NULL, 'O'},
        {"help", no_argument, NULL, 'h'},         CLI_DIM_OPTIONS,
        {NULL, 0, NULL, 0}};
    cli_mode mode = {0};
    analyze_args aa;
    memset(&aa, 0, sizeof aa);
    aa.opts.batch = 1;
    const char *out = NULL, *tmodel = NULL;
    bool in_place = false;
    int64_t threads = 0;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:b:i:T:m:h", opts, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'o': out = optarg; break;
        case 'P': in_place = true; break;
        case 'b': rc = cli_parse_i64("--batch", optarg, 1, (int64_t)1 << 32, &aa.opts.batch); break;
        case 'i': rc = cli_parse_input(&aa, optarg); break;
        case CLI_OPT_DIM: rc = cli_parse_dim(&aa, optarg); break;
        case CLI_OPT_ASSUME: rc = cli_parse_assume(&aa, optarg); break;
        case CLI_OPT_STRICT: aa.strict = true; break;
        case 'T': rc = cli_parse_i64("--threads", optarg, 1, 256, &threads); break;
        case 'm': tmodel = optarg; break;
        case 'M': rc = cli_parse_mode(optarg, &mode); break;
        case 'O': rc = cli_parse_optimizer(optarg, &mode); break;
        case 'h': fputs(annotate_help, stdout); return EXIT_OK;
        default: return cli_bad_option("annotate", argv, "o:b:i:T:m:h");
        }
        if (rc)
            return EXIT_USAGE;
    }
    if (optind != argc - 1) {
        cli_error("annotate: expected exactly one MODEL (see 'onnxcost annotate --help')");
        return EXIT_USAGE;
    }
    if (cli_mode_resolve(&mode))
        return EXIT_USAGE;
    const char *in = argv[optind];
    if (in_place && out) {
        cli_error("annotate: give -o or --in-place, not both");
        return EXIT_USAGE;
    }
    if (!in_place && !out) {
        cli_error("annotate: -o OUT.onnx is required (or --in-place to replace %s)", in);
        return EXIT_USAGE;
    }
    if (out && cli_same_file(in, out)) {
        cli_error("annotate: %s is the input; refusing to overwrite it without "
                  "--in-place", out);
        return EXIT_USAGE;
    }
    oc_error err;
    oc_error_clear(&err);
    int rc;
    if (in_place && (strcmp(in, "-") == 0 || strcmp(in, "/dev/stdin") == 0)) {
        cli_error("annotate: --in-place needs a model file, not standard input (give -o)");
        return EXIT_USAGE;
    }
    if (out && (rc = oc_check_output_path(out, &err) ? cli_fail(&err, 0) : 0))
        return rc;
    if (in_place)
        out = in;
    oc_tmodel *tm = NULL;
    oc_overhead ov = {.kernel_scale = 1};
    cli_target tgt;
    rc = cli_load_tmodel(tmodel, threads, &mode, &tm, &ov, &tgt);
    if (rc)
        return rc;
    char line[512];
    oc_target_line(tm, tgt.label, line, sizeof line);
    oc_model *m;
    rc = cli_load(in, &m);
    if (rc) {
        oc_tmodel_free(tm);
        return rc;
    }
    if (!in_place && (rc = check_external(m, in, out))) {
        oc_model_free(m);
        oc_tmodel_free(tm);
        return rc;
    }
    oc_analysis *a = NULL;
    oc_arena *ar = oc_arena_new();
    oc_estimate e;
    if (oc_analyze(m, &aa.opts, &a, &err) != OC_OK ||
        oc_estimate_run(a, tm, &ov, &e, ar, &err) != OC_OK)
        rc = cli_fail(&err, 1);
    else if ((rc = cli_check_bound(&aa, a)) || (rc = cli_check_uncounted(&aa, a, &e)))
        ; /* said */
    else if (oc_annotate_model(m, a, &e, line, &err) != OC_OK)
        rc = cli_fail(&err, 1);
    else if (oc_model_save(m, out, &err) != OC_OK)
        rc = cli_fail(&err, 0);
    else
        fprintf(stderr, "onnxcost: wrote %s: %zu nodes annotated, %.3f ms at batch %lld\n",
                out, oc_model_graph(m)->n_nodes, e.total_us / 1e3,
                (long long)oc_analysis_batch(a));
    oc_arena_free(ar);
    oc_analysis_free(a);
    oc_model_free(m);
    oc_tmodel_free(tm);
    return rc;
}
