/* cmd_sweep.c - onnxcost sweep MODEL --batch 1,2,4,... */
#include "cli/cli.h"
#include "predictor/estimate.h"

#include <getopt.h>
#include <inttypes.h>
#include <string.h>

static const char sweep_help[] =
    "usage: onnxcost sweep [options] MODEL\n"
    "\n"
    "Predict time, throughput and memory at several batch sizes (one model\n"
    "load for the whole sweep), and mark the largest batch that fits the\n"
    "memory limit and the batch with the best throughput.\n"
    "\n"
    "  -b, --batch LIST         batch sizes (default 1,2,4,8,16,32,64,128,256)\n"
    "  -M, --memory-limit SIZE  e.g. 8GiB, 512MB, 1e9 (bytes)\n"
    "  -i, --input NAME=DIMS    other inputs' shapes (the batch dim is set per\n"
    "                           step); repeatable\n"
    "      --dim NAME=VALUE     bind the symbolic dim NAME (not the batch dim,\n"
    "                           which each step sets); repeatable\n"
    "      --assume NAME=VALUE  the size of a dim that depends on the data\n"
    "                           (NonZero's count), named OUTPUT:DIM as the\n"
    "                           not-counted warning lists them\n"
    CLI_STRICT_HELP
    "  -T, --threads N          intra-op threads (default: the model's)\n"
    "  -m, --target SPEC        ort-cpu or torch-cpu (built-in), NAME@MACHINE\n"
    "                           ('onnxcost targets'), or a file: a calibration\n"
    "                           or a timing model ('--timing-model' too)\n"
    "      --mode MODE          inference (default; ONNX Runtime, ort-cpu) or\n"
    "                           training (one PyTorch training step, torch-cpu)\n"
    "      --optimizer NAME     training: sgd (default) or adam\n"
    "  -f, --format FMT         table (default), json or csv\n"
    "  -h, --help               this text\n"
    "\n"
    "memory_bytes: inference, the weights and the activation peak (the\n"
    "analyzer's liveness over the topological order); training, the weights,\n"
    "their gradients, the optimizer's state and the activations kept for the\n"
    "backward pass.\n";

int cmd_sweep(int argc, char **argv)
{
    static const struct option opts[] = {
        {"batch", required_argument, NULL, 'b'},  {"memory-limit", required_argument, NULL, 'M'},
        {"input", required_argument, NULL, 'i'},  {"threads", required_argument, NULL, 'T'},
        {"timing-model", required_argument, NULL, 'm'}, {"target", required_argument, NULL, 'm'},
        {"mode", required_argument, NULL, 'o'},
        {"optimizer", required_argument, NULL, 'O'},
        {"format", required_argument, NULL, 'f'}, {"help", no_argument, NULL, 'h'},
        CLI_DIM_OPTIONS,                          {NULL, 0, NULL, 0}};
    int64_t batches[CLI_MAX_STEPS] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    size_t nb = 9;
    uint64_t limit = 0;
    const char *limit_given = NULL; /* echoed as the user wrote it */
    analyze_args aa;
    memset(&aa, 0, sizeof aa);
    int64_t threads = 0;
    const char *tmodel = NULL;
    out_format fmt = FMT_TABLE;
    cli_mode mode = {0};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:M:i:T:m:f:h", opts, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'b': rc = cli_parse_list("--batch", optarg, batches, &nb); break;
        case 'M':
            rc = cli_parse_size("--memory-limit", optarg, &limit);
            limit_given = optarg;
            break;
        case 'i': rc = cli_parse_input(&aa, optarg); break;
        case CLI_OPT_DIM: rc = cli_parse_dim(&aa, optarg); break;
        case CLI_OPT_ASSUME: rc = cli_parse_assume(&aa, optarg); break;
        case CLI_OPT_STRICT: aa.strict = true; break;
        case 'T': rc = cli_parse_i64("--threads", optarg, 1, 256, &threads); break;
        case 'm': tmodel = optarg; break;
        case 'o': rc = cli_parse_mode(optarg, &mode); break;
        case 'O': rc = cli_parse_optimizer(optarg, &mode); break;
        case 'f': rc = cli_parse_format(optarg, &fmt, 1); break;
        case 'h': fputs(sweep_help, stdout); return EXIT_OK;
        default: return cli_bad_option("sweep", argv, "b:M:i:T:m:f:h");
        }
        if (rc)
            return EXIT_USAGE;
    }
    if (optind != argc - 1) {
        cli_error("sweep: expected exactly one MODEL (see 'onnxcost sweep --help')");
        return EXIT_USAGE;
    }
    if (cli_mode_resolve(&mode))
        return EXIT_USAGE;
    oc_tmodel *tm = NULL;
    oc_overhead ov = {.kernel_scale = 1};
    cli_target tgt;
    int rc = cli_load_tmodel(tmodel, threads, &mode, &tm, &ov, &tgt);
    if (rc)
        return rc;
    oc_model *m;
    rc = cli_load(argv[optind], &m);
    if (rc) {
        oc_tmodel_free(tm);
        return rc;
    }
    oc_report_step steps[CLI_MAX_STEPS];
    size_t fit, best;
    rc = cli_sweep_steps(m, &aa, tm, &ov, batches, nb, limit, steps, &fit, &best, true);
    if (!rc) {
        if (fmt == FMT_JSON) {
            json_t *j = json_object(), *arr = json_array();
            for (size_t k = 0; k < nb; k++) {
                const oc_report_step *s = &steps[k];
                json_t *o = json_object();
                json_object_set_new(o, "batch", json_integer(s->batch));
                json_object_set_new(o, "time_ms", json_real(s->time_ms));
                json_object_set_new(o, "time_ms_low", json_real(s->low_ms));
                json_object_set_new(o, "time_ms_high", json_real(s->high_ms));
                json_object_set_new(o, "throughput_per_s", json_real(s->throughput));
                json_object_set_new(o, "memory_bytes", json_integer((json_int_t)s->memory));
                json_object_set_new(o, "macs", json_integer((json_int_t)s->macs));
                json_object_set_new(o, "fits", json_boolean(s->fits));
                json_object_set_new(o, "uncounted_nodes", json_integer((json_int_t)s->uncounted));
                json_array_append_new(arr, o);
            }
            json_object_set_new(j, "model", oc_json_model(m));
            json_object_set_new(j, "mode", json_string(cli_mode_name(&mode)));
            json_object_set_new(j, "unbound_dims", oc_json_list(steps[0].unbound));
            json_object_set_new(j, "data_dims", oc_json_list(steps[0].data_dims));
            json_object_set_new(j, "target", oc_json_target(tm, &tgt, mode.optimizer));
            if (mode.training)
                json_object_set_new(j, "optimizer",
                                    json_string(oc_optimizer_name(mode.optimizer)));
            json_object_set_new(j, "memory_limit_bytes",
                                limit ? json_integer((json_int_t)limit) : json_null());
            json_object_set_new(j, "memory_limit",
                                limit_given ? json_string(limit_given) : json_null());
            json_object_set_new(j, "sweep", arr);
            json_object_set_new(j, "largest_fitting_batch",
                                fit == SIZE_MAX ? json_null() : json_integer(steps[fit].batch));
            json_object_set_new(j, "best_throughput_batch",
                                fit == SIZE_MAX ? json_null() : json_integer(steps[best].batch));
            rc = cli_json_print(j);
        } else {
            if (fmt == FMT_TABLE) {
                cli_print_target(tm, &tgt, &mode);
                if (limit_given)
                    printf("memory limit: %s (%" PRIu64 " bytes)\n", limit_given, limit);
            }
            if (fmt == FMT_CSV)
                printf("batch,time_ms,time_ms_low,time_ms_high,throughput_per_s,memory_bytes,fits\n");
            else
                printf("%8s %12s %22s %14s %12s  %s\n", "batch", "time", "range", "samples/s",
                       "memory", "");
            for (size_t k = 0; k < nb; k++) {
                const oc_report_step *s = &steps[k];
                char mem[32];
                if (fmt == FMT_CSV) {
                    printf("%" PRId64 ",%.4f,%.4f,%.4f,%.2f,%" PRIu64 ",%s\n", s->batch,
                           s->time_ms, s->low_ms, s->high_ms, s->throughput, s->memory,
                           s->fits ? "true" : "false");
                    continue;
                }
                char range[80];
                snprintf(range, sizeof range, "%.2f-%.2f ms", s->low_ms, s->high_ms);
                printf("%8" PRId64 " %9.2f ms %22s %14.1f %12s  %s%s%s\n", s->batch,
                       s->time_ms, range, s->throughput,
                       oc_fmt_bytes((double)s->memory, mem, sizeof mem),
                       s->fits ? "" : "over the limit ",
                       k == fit ? "<- largest that fits " : "",
                       k == best && fit != SIZE_MAX ? "<- best throughput" : "");
            }
            if (fit == SIZE_MAX)
                printf("no batch size fits the memory limit (%s)\n", limit_given);
            rc = fflush(stdout) == 0 ? EXIT_OK : EXIT_IO;
        }
    }
    oc_model_free(m);
    oc_tmodel_free(tm);
    return rc;
}
