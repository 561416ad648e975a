/* cmd_report.c - onnxcost report MODEL -o report.html */
#include "cli/cli.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char report_help[] =
    "usage: onnxcost report [options] MODEL -o REPORT.html\n"
    "\n"
    "Write one self-contained HTML page (no scripts, no network) with the\n"
    "prediction of 'onnxcost predict' and the sweep of 'onnxcost sweep' drawn\n"
    "as SVG charts: the slowest kernels, time and MACs by operator, the\n"
    "prediction next to the linear-FLOPs and roofline baselines, and time,\n"
    "throughput and memory over batch sizes; then a table of every node.\n"
    "The file is written to a temporary file beside it and renamed.\n"
    "\n"
    "  -o, --output FILE        where to write (required; never MODEL)\n"
    "  -b, --batch N            the batch of the prediction (default 1)\n"
    "  -i, --input NAME=DIMS    give an input a shape (repeatable)\n"
    CLI_DIM_HELP
    CLI_STRICT_HELP
    "  -T, --threads N          intra-op threads (default: the model's)\n"
    "  -m, --target SPEC        ort-cpu or torch-cpu (built-in), NAME@MACHINE\n"
    "                           ('onnxcost targets'), or a file: a calibration\n"
    "                           or a timing model ('--timing-model' too)\n"
    "  -t, --top N              kernels in the slowest-kernels chart (default 20)\n"
    "  -s, --sweep LIST         batch sizes of the sweep (default 1,2,4,8,16,32,64)\n"
    "  -M, --memory-limit SIZE  mark it in the sweep, e.g. 8GiB, 512MB\n"
    "      --mode MODE          inference (default) or training (training steps\n"
    "                           on the torch-cpu model, as predict)\n"
    "      --optimizer NAME     training: sgd (default) or adam\n"
    "  -h, --help               this text\n";

typedef struct ropts {
    analyze_args aa;
    int64_t threads, top;
    int64_t batches[CLI_MAX_STEPS];
    size_t n_batches;
    uint64_t limit;
    const char *tmodel, *out;
    cli_mode mode;
} ropts;

static int parse(int argc, char **argv, ropts *p)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},  {"batch", required_argument, NULL, 'b'},
        {"input", required_argument, NULL, 'i'},   {"threads", required_argument, NULL, 'T'},
        {"timing-model", required_argument, NULL, 'm'},
        {"target", required_argument, NULL, 'm'}, {"top", required_argument, NULL, 't'},
        {"sweep", required_argument, NULL, 's'},   {"memory-limit", required_argument, NULL, 'M'},
        {"mode", required_argument, NULL, 'D'},    {"optimizer", required_argument, NULL, 'O'},
        {"help", no_argument, NULL, 'h'},          CLI_DIM_OPTIONS,
        {NULL, 0, NULL, 0}};
    static const int64_t default_sweep[] = {1, 2, 4, 8, 16, 32, 64};
    memset(p, 0, sizeof *p);
    p->aa.opts.batch = 1;
    p->top = 20;
    p->n_batches = sizeof default_sweep / sizeof default_sweep[0];
    memcpy(p->batches, default_sweep, sizeof default_sweep);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:b:i:T:m:t:s:M:h", opts, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'o': p->out = optarg; break;
        case 'b': rc = cli_parse_i64("--batch", optarg, 1, (int64_t)1 << 32, &p->aa.opts.batch); break;
        case 'i': rc = cli_parse_input(&p->aa, optarg); break;
        case CLI_OPT_DIM: rc = cli_parse_dim(&p->aa, optarg); break;
        case CLI_OPT_ASSUME: rc = cli_parse_assume(&p->aa, optarg); break;
        case CLI_OPT_STRICT: p->aa.strict = true; break;
        case 'T': rc = cli_parse_i64("--threads", optarg, 1, 256, &p->threads); break;
        case 'm': p->tmodel = optarg; break;
        case 't': rc = cli_parse_i64("--top", optarg, 1, 1000, &p->top); break;
        case 's': rc = cli_parse_list("--sweep", optarg, p->batches, &p->n_batches); break;
        case 'M': rc = cli_parse_size("--memory-limit", optarg, &p->limit); break;
        case 'D': rc = cli_parse_mode(optarg, &p->mode); break;
        case 'O': rc = cli_parse_optimizer(optarg, &p->mode); break;
        case 'h': fputs(report_help, stdout); return -1;
        default: return cli_bad_option("report", argv, "o:b:i:T:m:t:s:M:h");
        }
        if (rc)
            return EXIT_USAGE;
    }
    if (optind != argc - 1) {
        cli_error("report: expected exactly one MODEL (see 'onnxcost report --help')");
        return EXIT_USAGE;
    }
    if (cli_mode_resolve(&p->mode))
        return EXIT_USAGE;
    if (!p->out) {
        cli_error("report: -o REPORT.html is required");
        return EXIT_USAGE;
    }
    if (cli_same_file(argv[optind], p->out)) {
        cli_error("report: %s is the input model; refusing to write the report over it",
                  p->out);
        return EXIT_USAGE;
    }
    return 0;
}

/* Render into memory, then write atomically: a failed run leaves any
 * earlier report as it was. */
static int write_report(const oc_report *r, const char *path)
{
    char *buf = NULL;
    size_t size = 0;
    oc_error err;
    oc_error_clear(&err);
    if (oc_report_render(r, &buf, &size, &err) != OC_OK)
        return cli_fail(&err, 0);
    int rc = oc_write_file_atomic(path, buf, size, &err) == OC_OK ? 0 : cli_fail(&err, 0);
    if (!rc)
        fprintf(stderr, "onnxcost: wrote %s (%zu KB): %.3f ms at batch %" PRId64 "\n", path,
                (size + 1023) / 1024, r->e->total_us / 1e3, r->batch);
    free(buf);
    return rc;
}

int cmd_report(int argc, char **argv)
{
    ropts p;
    int rc = parse(argc, argv, &p);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    oc_tmodel *tm = NULL;
    oc_overhead ov = {.kernel_scale = 1};
    cli_target tgt;
    if ((rc = cli_load_tmodel(p.tmodel, p.threads, &p.mode, &tm, &ov, &tgt)))
        return rc;
    oc_model *m;
    if ((rc = cli_load(argv[optind], &m))) {
        oc_tmodel_free(tm);
        return rc;
    }
    /* The sweep rebinds the overrides' batch dim: keep the report's own. */
    analyze_args sweep_aa = p.aa;
    sweep_aa.opts.overrides = sweep_aa.overrides;
    /* and sets the batch dim per step: a --dim of it is the report's only */
    sweep_aa.opts.n_dims = 0;
    for (size_t k = 0; k < p.aa.opts.n_dims; k++)
        if (!oc_dim_binds_batch(m, p.aa.dims[k].name))
            sweep_aa.dims[sweep_aa.opts.n_dims++] = p.aa.dims[k];
    sweep_aa.opts.dims = sweep_aa.dims;
    oc_report_step steps[CLI_MAX_STEPS];
    oc_report r = {.m = m, .target = oc_tmodel_get_info(tm), .target_label = tgt.label, .batch = p.aa.opts.batch,
                .top = (size_t)p.top, .steps = steps, .n_steps = p.n_batches,
                .memory_limit = p.limit};
    oc_error err;
    oc_error_clear(&err);
    oc_analysis *a = NULL;
    oc_arena *ar = oc_arena_new();
    oc_estimate e;
    if (!ar) {
        cli_error("out of memory");
        rc = EXIT_IO;
    } else if (oc_analyze(m, &p.aa.opts, &a, &err) != OC_OK ||
               oc_estimate_run(a, tm, &ov, &e, ar, &err) != OC_OK) {
        rc = cli_fail(&err, 1);
    } else {
        r.a = a;
        r.e = &e;
        r.batch = oc_analysis_batch(a);
        for (size_t i = 0; i < oc_analysis_n_warnings(a) && i < 20; i++) {
            const oc_warning *w = oc_analysis_warning(a, i);
            fprintf(stderr, "onnxcost: warning: node '%s': %s\n", w->node, w->msg);
        }
        if (!(rc = cli_check_bound(&p.aa, a)) && !(rc = cli_check_uncounted(&p.aa, a, &e)))
            rc = cli_sweep_steps(m, &sweep_aa, tm, &ov, p.batches, p.n_batches, p.limit, steps,
                                 &r.fit, &r.best, false);
        if (!rc && oc_report_group_ops(&r, ar, &err) != OC_OK)
            rc = cli_fail(&err, 0);
        if (!rc)
            rc = write_report(&r, p.out);
    }
    oc_arena_free(ar);
    oc_analysis_free(a);
    oc_model_free(m);
    oc_tmodel_free(tm);
    return rc;
}
