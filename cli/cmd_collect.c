/* cmd_collect.c - onnxcost collect: measured single-operator times.
 *
 * Per family and chunk: draw samples (training/sampler.h), write each as
 * a model, analyse it, list it in a manifest; run the timing driver
 * (collector/ort_bench.js) over the manifest; check every result, merge it
 * with the sample's description and append the chunk whole to the dataset
 * (predictor/dataset.h, docs/dataset.md).
 */
#include "cli/cli.h"
#include "predictor/hw.h"
#include "predictor/machine.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "predictor/estimate.h"
#include "training/collect.h"
#include "training/ingraph.h"

#ifndef OC_SOURCE_DIR
#define OC_SOURCE_DIR "."
#endif

static const char collect_help[] =
    "usage: onnxcost collect --family F[,F...] --count N --dataset FILE [options]\n"
    "       onnxcost collect --from-runs RUNS.jsonl --models DIR --dataset FILE\n"
    "                        [--machine FINGERPRINT]\n"
    "\n"
    "Measure single-operator run times for the timing model. For each family,\n"
    "draws N realistic configurations (deterministic in --seed and the sample\n"
    "index), writes each as a one-node (or small fused pattern) ONNX model,\n"
    "times it with the target's driver and appends one line per sample to a\n"
    "gzip JSON Lines dataset (format: docs/dataset.md).\n"
    "\n"
    "  -m, --target NAME      ort-cpu (default; ONNX Runtime through Node.js) or\n"
    "                         torch-cpu (PyTorch training steps: forward, backward,\n"
    "                         optimizer step)\n"
    "      --optimizer NAME   torch-cpu: sgd (default; momentum 0.9) or adam; Adam\n"
    "                         sample ids carry an /adam segment\n"
    "  -T, --threads N        intra-op threads of the runtime (default 1)\n"
    "  -F, --family LIST      comma-separated families, or 'all':\n"
    "                         conv, convtranspose, gemm, matmul, pool, batchnorm,\n"
    "                         layernorm, softmax, elementwise, activation, reduce,\n"
    "                         concat, split, slice, transpose, reshape, resize,\n"
    "                         pad, gather, swish (x * Sigmoid(x)), conv1d\n"
    "                         ([N,C,L]: dilated, text, pointwise, depthwise),\n"
    "                         conv3d ([N,C,T,H,W]), unary (Elu, Selu, Softplus,\n"
    "                         Softsign, Sin, Cos, Log, Celu, ThresholdedRelu,\n"
    "                         HardSigmoid, Mish, Sign, Ceil, Round), depthtospace\n"
    "                         (DepthToSpace DCR/CRD, SpaceToDepth), instancenorm\n"
    "                         (InstanceNormalization), gconv (grouped, not\n"
    "                         depthwise), axis_softmax (Softmax, LogSoftmax on\n"
    "                         any axis), broadcast (outer, pairwise, middle-axis\n"
    "                         broadcasts; comparisons), reduce_axes (seven\n"
    "                         reductions over any axes, ReduceLogSumExp too),\n"
    "                         longconv (1-D kernels of 32 up to the sequence),\n"
    "                         permute (Transpose, any permutation), gather_axis\n"
    "                         (Gather on an inner axis), gather_elements, einsum\n"
    "                         (five layouts), small (kernels of 1..4096\n"
    "                         elements: arithmetic, Pow, unary ops, Softmax,\n"
    "                         reductions, Transpose, Concat, Slice,\n"
    "                         LayerNormalization, MatMul), upconv (ConvTranspose\n"
    "                         of 1, 2 and 3 spatial axes: upsamplers of\n"
    "                         decoders), prelu (PRelu, a slope per channel or\n"
    "                         one), logic (And, Or, Xor, Not on bool; Tile;\n"
    "                         Mod; int64 arithmetic, comparisons, ReduceSum,\n"
    "                         ReduceProd), thinconv (Conv of 1, 2 or 4 input\n"
    "                         channels: waveform, series and spectrogram front\n"
    "                         ends), rnn (LSTM, GRU, RNN: one step or a\n"
    "                         sequence), select (TopK, ArgMax, ArgMin, CumSum,\n"
    "                         ScatterElements, ScatterND, Where, Expand, Cast,\n"
    "                         Concat of 8..512 pieces), framebank (STFT and\n"
    "                         inverse STFT as Conv1d / ConvTranspose1d: frame\n"
    "                         16..2048, stride the hop), bandconv (2-D Conv of\n"
    "                         non-square kernels: sentence, timbral, temporal,\n"
    "                         factorised); ONNX Runtime's\n"
    "                         quantized kernels (ort-cpu only): qconv\n"
    "                         (QLinearConv), qmatmul (QLinearMatMul,\n"
    "                         MatMulIntegerToFloat, DynamicQuantizeMatMul,\n"
    "                         MatMulNBits),\n"
    "                         qelementwise (QLinearAdd/Mul/Sigmoid/LeakyRelu/\n"
    "                         AveragePool/GlobalAveragePool)\n"
    "  -n, --count N          samples per family (indices 0..N-1)\n"
    "  -d, --dataset FILE     dataset to append to (e.g. data/ort-cpu.jsonl.gz);\n"
    "                         samples already in it are skipped (resume)\n"
    "  -c, --chunk N          samples per driver run and per append (default 64)\n"
    "      --seed S           sample stream (default 0)\n"
    "  -w, --workdir DIR      models, manifests and results (default: a temporary\n"
    "                         directory, removed at the end)\n"
    "      --keep             keep the models of finished chunks in the workdir\n"
    "      --dry-run          write models, manifests and the dataset lines without\n"
    "                         times (pending.jsonl) to the workdir; time nothing,\n"
    "                         append nothing; the workdir is kept\n"
    "      --driver-args STR  extra driver options, e.g. \"--repeats 5 --passes 2\"\n"
    "                         (split on spaces; repeatable; recorded in the dataset)\n"
    "      --max-drift X      calibration drift (relative) that makes a chunk be\n"
    "                         measured again (default 0.1)\n"
    "      --quiet            no progress lines (warnings and errors still)\n"
    "  -h, --help             this text\n"
    "\n"
    "In-graph samples (times nothing): --from-runs FILE (repeatable) names\n"
    "whole-model runs as scripts/measure_zoo.py and measure_models.py write\n"
    "them, with ONNX Runtime's profiled kernels; each kernel the ort-cpu plan\n"
    "predicts and the run lists becomes one line, described as predict\n"
    "describes it and timed as it ran inside the graph (id\n"
    "ort-cpu/tT/InGraph/MODEL/bB/K). --models DIR holds MODEL.onnx; --machine\n"
    "names the machine that ran them (default this one), whose NCHWc block\n"
    "the plan takes. Lines already in the dataset are skipped.\n"
    "\n"
    "The driver is $ONNXCOST_COLLECTOR or " OC_SOURCE_DIR "/collector/ort_bench.js,\n"
    "run with $ONNXCOST_NODE or 'node' from PATH. A chunk whose calibration kernel\n"
    "drifts by more than --max-drift between its start and end is measured again (twice at\n"
    "most); a sample whose spread exceeds 0.5 is measured once more and dropped if\n"
    "it still does. Ctrl-C finishes the current chunk and stops; a second Ctrl-C\n"
    "abandons it. The dataset never holds part of a chunk.\n"
    "\n"
    "Exit status: 0 done, 1 usage error, 3 I/O, driver or internal error,\n"
    "130 interrupted (the dataset holds every chunk finished before).\n";

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted += sig == SIGTERM ? 2 : 1;
}

static int io_error(const char *what, const char *path)
{
    cli_error("%s %s: %s", what, path, strerror(errno));
    return EXIT_IO;
}

/* ---- in-graph samples ---- */

/* The lines of every run in file `path` into `lines`. */
static int runs_file_lines(const char *path, const char *models, oc_tmodel *tm,
                           const oc_ingraph_opts *o, json_t *lines, oc_ingraph_counts *n,
                           size_t *n_runs)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return io_error("cannot open", path);
    char *buf = NULL;
    size_t cap = 0, lineno = 0;
    int rc = EXIT_OK;
    while (!rc && getline(&buf, &cap, f) > 0) {
        lineno++;
        json_error_t je;
        json_t *run = json_loads(buf, 0, &je);
        const char *model = json_string_value(json_object_get(run, "model"));
        char mpath[PATH_MAX];
        oc_error err;
        oc_error_clear(&err);
        if (!run || !model || strchr(model, '/')) {
            cli_error("%s:%zu: not a run line (%s)", path, lineno,
                      run ? "no \"model\" name" : je.text);
            rc = EXIT_INPUT;
        } else if (snprintf(mpath, sizeof mpath, "%s/%s.onnx", models, model) >=
                   (int)sizeof mpath) {
            cli_error("%s:%zu: path too long", path, lineno);
            rc = EXIT_USAGE;
        } else if (oc_ingraph_lines(mpath, run, tm, o, lines, n, &err)) {
            cli_error("%s:%zu: %s: %s", path, lineno, model, err.msg);
            rc = err.status == OC_ERR_INPUT ? EXIT_INPUT : EXIT_IO;
        } else {
            (*n_runs)++;
        }
        json_decref(run);
    }
    free(buf);
    fclose(f);
    return rc;
}

static int collect_from_runs(const char *const *runs, size_t n_files, const char *models,
                             const char *machine, const char *dataset, bool quiet)
{
    oc_error err;
    oc_error_clear(&err);
    oc_tmodel *tm = NULL;
    oc_overhead ov;
    if (oc_default_tmodel("ort-cpu", &tm, &ov, &err))
        return cli_fail(&err, 0);
    oc_machine here;
    oc_this_machine(&here);
    oc_ingraph_opts o = {.machine = machine ? machine : here.id};
    if (!oc_tmodel_trained_on(tm, o.machine)) {
        cli_error("--machine: the ort-cpu timing model has no profile of %s (it learned "
                  "the machines 'onnxcost targets' lists)", o.machine);
        oc_tmodel_free(tm);
        return EXIT_USAGE;
    }
    oc_tmodel_speak_for(tm, o.machine);
    const oc_hw *hw = oc_tmodel_hw_for(tm, o.machine);
    o.machine = hw->machine[0] ? hw->machine : NULL; /* as its samples record it */
    o.nchwc_block = hw->nchwc_block ? hw->nchwc_block : OC_NCHWC_NONE;
    json_t *lines = json_array();
    oc_ingraph_counts n = {0};
    size_t n_runs = 0;
    int rc = lines ? EXIT_OK : EXIT_IO;
    for (size_t i = 0; i < n_files && !rc; i++)
        rc = runs_file_lines(runs[i], models, tm, &o, lines, &n, &n_runs);
    oc_tmodel_free(tm);
    /* the lines the dataset lacks, appended as one chunk, under the
     * dataset's lock as collect's chunks are */
    int lock_fd = -1;
    if (!rc && oc_dataset_lock(dataset, &lock_fd, &err))
        rc = cli_fail(&err, 0);
    oc_idset have;
    uint64_t good;
    bool cut;
    const char **text = rc ? NULL : calloc(json_array_size(lines) + 1, sizeof *text);
    size_t n_new = 0;
    if (!rc && !text)
        rc = EXIT_IO;
    if (!rc && oc_dataset_ids(dataset, &have, &good, &cut, &err))
        rc = cli_fail(&err, 1);
    else if (!rc) {
        size_t i;
        json_t *line;
        json_array_foreach(lines, i, line) {
            if (oc_idset_has(&have, json_string_value(json_object_get(line, "id"))))
                continue;
            if (!(text[n_new] = json_dumps(line, JSON_COMPACT | JSON_REAL_PRECISION(9)))) {
                rc = EXIT_IO;
                break;
            }
            n_new++;
        }
        oc_idset_free(&have);
        if (cut && !rc) {
            cli_error("%s ends with an incomplete chunk: run 'onnxcost collect' on it "
                      "first", dataset);
            rc = EXIT_INPUT;
        }
        if (!rc && n_new && oc_dataset_append(dataset, text, n_new, &err))
            rc = cli_fail(&err, 0);
    }
    if (!rc && n.foreign)
        fprintf(stderr,
                "onnxcost: warning: %zu runs whose kernel lists the plan does not match "
                "were left out (the first: %s)\n", n.foreign, n.first_foreign);
    if (!rc && !quiet)
        fprintf(stderr,
                "onnxcost: %zu runs: %zu kernels, %zu new in %s; %zu predicted kernels not "
                "in their profiles%s\n",
                n_runs, n.lines, n_new, dataset, n.unmatched,
                n.unfaithful ? " (and some whose description does not survive a dataset "
                               "line: left out)" : "");
    if (lock_fd >= 0)
        close(lock_fd);
    for (size_t i = 0; text && i < n_new; i++)
        free((void *)text[i]);
    free(text);
    json_decref(lines);
    return rc;
}

/* ---- the command ---- */

int cmd_collect(int argc, char **argv)
{
    oc_error err;
    oc_error_clear(&err);
    enum { OPT_KEEP = 1000, OPT_DRY, OPT_DRIVER_ARGS, OPT_MAX_DRIFT, OPT_OPTIMIZER, OPT_QUIET,
           OPT_FROM_RUNS, OPT_MODELS, OPT_MACHINE };
    static const struct option opts[] = {
        {"target", required_argument, NULL, 'm'},
        {"threads", required_argument, NULL, 'T'},
        {"family", required_argument, NULL, 'F'},
        {"count", required_argument, NULL, 'n'},
        {"dataset", required_argument, NULL, 'd'},
        {"chunk", required_argument, NULL, 'c'},
        {"seed", required_argument, NULL, 's'},
        {"workdir", required_argument, NULL, 'w'},
        {"keep", no_argument, NULL, OPT_KEEP},
        {"dry-run", no_argument, NULL, OPT_DRY},
        {"driver-args", required_argument, NULL, OPT_DRIVER_ARGS},
        {"max-drift", required_argument, NULL, OPT_MAX_DRIFT},
        {"optimizer", required_argument, NULL, OPT_OPTIMIZER},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"from-runs", required_argument, NULL, OPT_FROM_RUNS},
        {"models", required_argument, NULL, OPT_MODELS},
        {"machine", required_argument, NULL, OPT_MACHINE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    static oc_collect c;
    memset(&c, 0, sizeof c);
    c.target = oc_target_of_mode(OC_TARGET_INFERENCE)->name;
    c.threads = 1;
    c.chunk = 64;
    c.max_drift = 0.10;
    const char *families = NULL, *workdir = NULL;
    const char *runs[64], *models = NULL, *machine = NULL;
    size_t n_runs = 0;
    int64_t seed = 0;
    int opt, rc;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "m:T:F:n:d:c:w:h", opts, NULL)) != -1) {
        switch (opt) {
        case 'm':
            c.target = optarg;
            break;
        case 'T':
            if (cli_parse_i64("--threads", optarg, 1, 256, &c.threads))
                return EXIT_USAGE;
            break;
        case 'F':
            families = optarg;
            break;
        case 'n':
            if (cli_parse_i64("--count", optarg, 1, 999999, &c.count))
                return EXIT_USAGE;
            break;
        case 'd':
            c.dataset = optarg;
            break;
        case 'c':
            if (cli_parse_i64("--chunk", optarg, 1, 4096, &c.chunk))
                return EXIT_USAGE;
            break;
        case 's':
            if (cli_parse_i64("--seed", optarg, 0, INT64_MAX, &seed))
                return EXIT_USAGE;
            break;
        case 'w':
            workdir = optarg;
            break;
        case OPT_KEEP:
            c.keep = true;
            break;
        case OPT_DRY:
            c.dry_run = true;
            break;
        case OPT_DRIVER_ARGS:
            if ((rc = oc_collect_add_driver_args(&c, optarg, &err) ? cli_fail(&err, 0) : 0))
                return rc;
            break;
        case OPT_MAX_DRIFT: {
            char *end;
            c.max_drift = strtod(optarg, &end);
            if (end == optarg || *end || !(c.max_drift > 0) || c.max_drift > 10) {
                cli_error("--max-drift: '%s' is not a fraction like 0.1", optarg);
                return EXIT_USAGE;
            }
            break;
        }
        case OPT_QUIET:
            c.quiet = true;
            break;
        case OPT_OPTIMIZER: {
            cli_mode mode = {0};
            int rc = cli_parse_optimizer(optarg, &mode);
            if (rc)
                return rc;
            c.optimizer = oc_optimizer_name(mode.optimizer);
            break;
        }
        case OPT_FROM_RUNS:
            if (n_runs == sizeof runs / sizeof runs[0]) {
                cli_error("--from-runs: at most %zu files", n_runs);
                return EXIT_USAGE;
            }
            runs[n_runs++] = optarg;
            break;
        case OPT_MODELS:
            models = optarg;
            break;
        case OPT_MACHINE:
            machine = optarg;
            break;
        case 'h':
            fputs(collect_help, stdout);
            return EXIT_OK;
        default:
            return cli_bad_option("collect", argv, "m:T:F:n:d:c:w:h");
        }
    }
    c.seed = (uint64_t)seed;
    if (optind != argc) {
        cli_error("collect: unexpected argument '%s'", argv[optind]);
        return EXIT_USAGE;
    }
    if (n_runs || models || machine) {
        if (!n_runs || !models || !c.dataset || families) {
            cli_error("collect: --from-runs, --models and --dataset go together, "
                      "without --family (see 'onnxcost collect --help')");
            return EXIT_USAGE;
        }
        return collect_from_runs(runs, n_runs, models, machine, c.dataset, c.quiet);
    }
    if (!(c.entry = oc_target_entry_of(oc_target_lookup(c.target)))) {
        cli_error("--target: '%s' is not one of %s", c.target, oc_target_names());
        return EXIT_USAGE;
    }
    if (c.optimizer && !oc_collect_is_training(&c)) {
        cli_error("--optimizer: only the torch-cpu target runs training steps");
        return EXIT_USAGE;
    }
    if (oc_collect_is_training(&c) && !c.optimizer)
        c.optimizer = "sgd";
    if (!families || !c.count || (!c.dataset && !c.dry_run)) {
        cli_error("collect: --family, --count and --dataset are required "
                  "(see 'onnxcost collect --help')");
        return EXIT_USAGE;
    }
    if ((rc = oc_collect_add_families(&c, families, &err) ? cli_fail(&err, 0) : 0))
        return rc;

    oc_collect_use_driver(&c);
    /* libgomp's default spin-wait made 2 threads up to 4x slower than 1 on
     * these machines: the torch-cpu target always runs with it passive. */
    if (oc_collect_is_training(&c))
        setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    if (!c.dry_run && access(c.driver, R_OK) != 0) {
        cli_error("the timing driver %s is missing (set ONNXCOST_COLLECTOR)", c.driver);
        return EXIT_IO;
    }
    oc_hw_cpu_name(c.cpu, sizeof c.cpu);
    if (!c.cpu[0])
        snprintf(c.cpu, sizeof c.cpu, "unknown");
    c.cores = sysconf(_SC_NPROCESSORS_ONLN);
    oc_machine mach;
    oc_machine_detect(&mach);
    snprintf(c.machine, sizeof c.machine, "%s", mach.id);

    int lock_fd = -1;
    if (c.dataset) {
        if (!c.dry_run && oc_dataset_lock(c.dataset, &lock_fd, &err)) {
            rc = cli_fail(&err, 0);
            goto done;
        }
        uint64_t good;
        bool cut;
        if (oc_dataset_ids(c.dataset, &c.done, &good, &cut, &err)) {
            rc = cli_fail(&err, 1);
            goto done;
        }
        if (cut) {
            if (c.dry_run) {
                fprintf(stderr, "onnxcost: %s ends with an incomplete chunk (ignored)\n",
                        c.dataset);
            } else {
                fprintf(stderr,
                        "onnxcost: %s ends with an incomplete chunk (an interrupted "
                        "append); cutting it back to %" PRIu64 " bytes\n",
                        c.dataset, good);
                if (oc_dataset_truncate(c.dataset, good, &err)) {
                    rc = cli_fail(&err, 0);
                    goto done;
                }
            }
        }
    }
    /* The workdir, absolute: the manifest names models by full path. */
    if (workdir) {
        if (oc_mkdir_p(workdir) != 0) {
            rc = io_error("cannot create", workdir);
            goto done;
        }
        if (oc_path_absolute(workdir, c.workdir, sizeof c.workdir) != 0) {
            rc = io_error("cannot resolve", workdir);
            goto done;
        }
    } else {
        char tmpl[PATH_MAX];
        if (!cli_mkdtemp("collect", tmpl, sizeof tmpl)) {
            rc = io_error("cannot create a directory like", tmpl);
            goto done;
        }
        if (oc_path_absolute(tmpl, c.workdir, sizeof c.workdir) != 0) {
            rc = io_error("cannot resolve", tmpl);
            goto done;
        }
        c.own_workdir = !c.dry_run;
    }

    c.log = &cli_log;
    c.stop = &interrupted;
    if (oc_collect_calibration_model(&c, &err)) {
        rc = cli_fail(&err, 0);
        goto done;
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    struct sigaction old_int, old_term;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    if (!c.quiet)
        fprintf(stderr,
            "onnxcost collect: %s, %" PRId64 " thread%s, %zu famil%s x %" PRId64
            " samples, seed %" PRIu64 ", chunks of %" PRId64 "%s\n",
            c.target, c.threads, c.threads == 1 ? "" : "s", c.n_families,
            c.n_families == 1 ? "y" : "ies", c.count, c.seed, c.chunk,
            c.dry_run ? " (dry run)" : "");
    if (!c.quiet)
        fprintf(stderr, "  cpu: %s (%ld cores); workdir: %s\n", c.cpu, c.cores, c.workdir);
    for (size_t i = 0; i < c.n_families && !rc && !interrupted; i++)
        if (oc_collect_family(&c, (oc_family)c.families[i], &err))
            rc = cli_fail_run(&err, c.abandoned);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);

    if (!rc && interrupted)
        rc = EXIT_INTERRUPTED;
    if (c.quiet)
        ;
    else if (c.dry_run)
        fprintf(stderr,
                "onnxcost collect: dry run: %" PRIu64 " samples written to %s "
                "(%" PRIu64 " already in the dataset)\n",
                c.kept, c.workdir, c.skipped);
    else
        fprintf(stderr,
                "onnxcost collect: %s: %" PRIu64 " samples appended, %" PRIu64
                " dropped, %" PRIu64 " already there%s%s%s\n",
                c.dataset, c.kept, c.dropped, c.skipped,
                c.ort_version[0] ? "; runtime " : "", c.ort_version,
                rc == EXIT_INTERRUPTED ? " (interrupted)" : "");

done:
    if (c.own_workdir && (rc == 0 || rc == EXIT_INTERRUPTED))
        oc_rm_tree(c.workdir);
    else if (c.own_workdir)
        fprintf(stderr, "onnxcost: the workdir %s is kept for inspection\n", c.workdir);
    if (lock_fd >= 0)
        close(lock_fd);
    oc_idset_free(&c.done);
    for (size_t i = 0; i < c.n_driver_args; i++)
        free(c.driver_argv[i]);
    return rc;
}
