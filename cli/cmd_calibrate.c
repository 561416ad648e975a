/* cmd_calibrate.c - onnxcost calibrate: fit the shipped timing model to
 * this machine from a probe of kernels measured here (predictor/calib.h).
 *
 * The probe is a fixed set: the first N samples of each sampler family
 * drawn with PROBE_SEED, N set by the time budget, measured through
 * `onnxcost collect` (the same drivers, drift checks and spread rules as
 * the training data) into a probe dataset.  Each probe kernel is
 * predicted by the base model and the calibration is fitted on the
 * ratios.  Nothing is written until every thread count is fitted, and
 * then atomically. */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "predictor/estimate.h"
#include "training/calibrate.h"
#include "training/sampler.h"

/* The probe's sample stream: apart from every training seed (0, 1, ...). */
#define PROBE_SEED 90001

static const char calibrate_help[] =
    "usage: onnxcost calibrate [options]\n"
    "\n"
    "Fit the built-in timing model to this machine: measure a fixed probe of\n"
    "kernels with the real runtime here (ONNX Runtime for inference, PyTorch\n"
    "training steps with --mode training), compare them with the model's\n"
    "predictions, and save the correction.  predict, sweep, annotate and\n"
    "report then use it on this machine and say so.  Run it on a quiet\n"
    "machine: a chunk whose check kernel drifts is measured again.\n"
    "\n"
    "      --mode MODE        inference (default) or training\n"
    "      --optimizer NAME   training: the probe's update rule (sgd, default;\n"
    "                         adam)\n"
    "  -T, --threads LIST     thread counts to calibrate (default: 1 and the\n"
    "                         online CPUs)\n"
    "      --budget SECONDS   measuring time for all thread counts together\n"
    "                         (default 180; the probe grows with it)\n"
    "  -o, --output FILE      write the calibration here instead of the cache\n"
    "                         ($XDG_CACHE_HOME/onnxcost/, by fingerprint,\n"
    "                         target, runtime and mode)\n"
    "  -p, --probe FILE       keep the probe's samples in this dataset (measured\n"
    "                         ones are not measured again: resume, or reuse)\n"
    "      --no-measure       fit from --probe FILE alone, measuring nothing\n"
    "      --anchors FILE     keep the whole networks' runs in this file (JSON\n"
    "                         Lines; runs in it are not measured again; with\n"
    "                         --no-measure, the runs to fit the in-graph scale on);\n"
    "                         again: more runs to fit on, read only (say, the\n"
    "                         reference networks' runs of scripts/measure_models.py)\n"
    "                         --mode training: whole training steps of\n"
    "                         scripts/measure_training.py --malloc retain, the\n"
    "                         runs to fit the in-graph scale on (read only)\n"
    "      --runs FILE        whole-network runs to fit on as well, read only\n"
    "                         (repeatable; --anchors given again): say, your own\n"
    "                         networks timed here by scripts/measure_zoo.py --onnx\n"
    "      --models DIR       the graphs (NAME.onnx) of the networks those runs\n"
    "                         name that are not reference networks; runs of a\n"
    "                         network found nowhere are left out, saying so\n"
    "      --no-anchors       time no whole network: keep the timing model's\n"
    "                         in-graph scale\n"
    "      --no-curve         take no kernel curve: by default calibrate fits\n"
    "                         this machine's on the curve networks it times\n"
    "                         (small-kernel networks beside the anchors) or, where\n"
    "                         they were not timed, takes the nearest measured\n"
    "                         machine's (a shipped calibration's), saying so; with\n"
    "                         --no-curve the chains alone take the profiler's cost\n"
    "                         out (what scripts/fit_kernel_curve.py fits one on)\n"
    "      --hw FILE          the machine's profile from 'onnxcost hw -o FILE'\n"
    "                         (made there): its copy bandwidth, the rate at which\n"
    "                         a graph's weights stream, and (training) what a\n"
    "                         fresh page costs; without it, measured here when the\n"
    "                         calibration is of this machine (not with\n"
    "                         --no-measure)\n"
    "      --profile MODEL=PROFILE.json\n"
    "                         also fit on the kernels of an ONNX Runtime profile\n"
    "                         of MODEL (enableProfiling; run at batch 1, symbolic\n"
    "                         dims 1) made on this machine: ground truth in\n"
    "                         graph context (repeatable; inference only)\n"
    "      --profile-threads N  the intra-op threads the profiles ran with\n"
    "                         (default 1)\n"
    "      --timing-model FILE  the base model (default: the built-in one)\n"
    "      --check            measure nothing else: time the probe's check kernel\n"
    "                         here (a few seconds) against the one the calibration\n"
    "                         in use recorded: has this machine moved since it\n"
    "                         was calibrated?  Takes --mode, --optimizer,\n"
    "                         --threads, --target, --format and --save\n"
    "      --save             --check, inference: keep what it found: the calibration\n"
    "                         in use, its times scaled by this machine's speed now\n"
    "                         ((check now / at calibration) ^ 0.6, the 1-thread\n"
    "                         check), in the cache (or -o FILE), where predict\n"
    "                         takes it\n"
    "      --target SPEC      --check: the calibration to check (a file or\n"
    "                         NAME@FINGERPRINT; default: the one predict uses)\n"
    "  -f, --format FMT       --check: table (default) or json\n"
    "  -h, --help             this text\n"
    "\n"
    "Exit status: 0 done, 1 usage error, 2 bad probe data, 3 I/O, driver or\n"
    "internal error, 130 interrupted (nothing written).\n";

static volatile sig_atomic_t stop;
static void on_signal(int sig)
{
    (void)sig;
    if (stop < 2)
        stop = stop + 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct copts {
    bool training, no_measure, no_anchors, no_curve, check, save;
    const char *check_target; /* --check --target */
    out_format format;
    oc_optimizer optimizer;
    int64_t threads[16];
    size_t n_threads;
    double budget;
    const char *output, *probe, *base, *anchors, *hw, *models;
    bool runs; /* --runs given */
    const char *more_anchors[32]; /* --anchors given again: read, not written */
    const char *steps;           /* --mode training --anchors: whole steps */
    size_t n_more_anchors;
    const char *profiles[16]; /* MODEL=PROFILE */
    size_t n_profiles;
    int64_t profile_threads;
} copts;

static int parse(int argc, char **argv, copts *o)
{
    enum { O_MODE = 256, O_OPT, O_NO_MEASURE, O_PROFILE, O_PROFILE_THREADS, O_ANCHORS,
           O_NO_ANCHORS, O_NO_CURVE, O_HW, O_CHECK, O_TARGET, O_SAVE, O_MODELS, O_RUNS };
    static const struct option opts[] = {
        {"mode", required_argument, NULL, O_MODE},
        {"optimizer", required_argument, NULL, O_OPT},
        {"threads", required_argument, NULL, 'T'},
        {"budget", required_argument, NULL, 'B'},
        {"output", required_argument, NULL, 'o'},
        {"probe", required_argument, NULL, 'p'},
        {"no-measure", no_argument, NULL, O_NO_MEASURE},
        {"anchors", required_argument, NULL, O_ANCHORS},
        {"no-anchors", no_argument, NULL, O_NO_ANCHORS},
        {"no-curve", no_argument, NULL, O_NO_CURVE},
        {"hw", required_argument, NULL, O_HW},
        {"models", required_argument, NULL, O_MODELS},
        {"runs", required_argument, NULL, O_RUNS},
        {"profile", required_argument, NULL, O_PROFILE},
        {"profile-threads", required_argument, NULL, O_PROFILE_THREADS},
        {"timing-model", required_argument, NULL, 'm'},
        {"check", no_argument, NULL, O_CHECK},
        {"save", no_argument, NULL, O_SAVE},
        {"target", required_argument, NULL, O_TARGET},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->budget = 180;
    o->profile_threads = 1;
    cli_mode mode = {0};
    int c;
    optind = 1;
    bool other = false; /* an option of a measuring calibrate */
    while ((c = getopt_long(argc, argv, "T:o:p:f:h", opts, NULL)) != -1) {
        other = other || !(c == O_MODE || c == O_OPT || c == 'T' || c == O_CHECK ||
                           c == O_TARGET || c == 'f' || c == 'h' || c == O_SAVE || c == 'o');
        int rc = 0;
        int64_t b;
        switch (c) {
        case O_MODE: rc = cli_parse_mode(optarg, &mode); break;
        case O_OPT: rc = cli_parse_optimizer(optarg, &mode); break;
        case 'T': rc = cli_parse_list("--threads", optarg, o->threads, &o->n_threads); break;
        case 'B':
            rc = cli_parse_i64("--budget", optarg, 10, 24 * 3600, &b);
            o->budget = (double)b;
            break;
        case 'o': o->output = optarg; break;
        case 'p': o->probe = optarg; break;
        case O_NO_MEASURE: o->no_measure = true; break;
        case O_ANCHORS:
        case O_RUNS:
            if (c == O_ANCHORS && !o->anchors) {
                o->anchors = optarg;
            } else if (o->n_more_anchors < sizeof o->more_anchors / sizeof *o->more_anchors) {
                o->runs |= c == O_RUNS;
                o->more_anchors[o->n_more_anchors++] = optarg;
            } else {
                cli_error("calibrate: too many --anchors and --runs files");
                return EXIT_USAGE;
            }
            break;
        case O_NO_ANCHORS: o->no_anchors = true; break;
        case O_NO_CURVE: o->no_curve = true; break;
        case O_HW: o->hw = optarg; break;
        case O_MODELS: o->models = optarg; break;
        case O_PROFILE:
            if (!strchr(optarg, '=') || optarg[0] == '=' || !strchr(optarg, '=')[1]) {
                cli_error("--profile: '%s' is not MODEL=PROFILE.json", optarg);
                rc = EXIT_USAGE;
            } else if (o->n_profiles == sizeof o->profiles / sizeof o->profiles[0]) {
                cli_error("--profile: at most %zu profiles", o->n_profiles);
                rc = EXIT_USAGE;
            } else {
                o->profiles[o->n_profiles++] = optarg;
            }
            break;
        case O_PROFILE_THREADS:
            rc = cli_parse_i64("--profile-threads", optarg, 1, 256, &o->profile_threads);
            break;
        case 'm': o->base = optarg; break;
        case O_CHECK: o->check = true; break;
        case O_SAVE: o->save = true; break;
        case O_TARGET: o->check_target = optarg; break;
        case 'f': rc = cli_parse_format(optarg, &o->format, 0); break;
        case 'h': fputs(calibrate_help, stdout); return -1;
        default: return cli_bad_option("calibrate", argv, "T:o:p:f:h");
        }
        if (rc)
            return EXIT_USAGE;
    }
    if (optind != argc) {
        cli_error("calibrate takes no operands (try 'onnxcost calibrate --help')");
        return EXIT_USAGE;
    }
    if (cli_mode_resolve(&mode))
        return EXIT_USAGE;
    o->training = mode.training;
    o->optimizer = mode.optimizer;
    if (o->check && (other || (o->output && !o->save))) {
        cli_error("calibrate --check times the check kernel alone: it takes --mode, "
                  "--optimizer, --threads, --target, --format and --save [-o FILE]");
        return EXIT_USAGE;
    }
    if (!o->check && (o->check_target || o->format != FMT_TABLE || o->save)) {
        cli_error("calibrate: --target, --format and --save go with --check");
        return EXIT_USAGE;
    }
    if (o->save && o->training) {
        cli_error("calibrate --check --save: no speed factor is known for PyTorch training "
                  "steps (in the one pair of sessions measured they moved 1.9x their check "
                  "kernel's move, ONNX Runtime's runs 0.6x theirs); run 'onnxcost calibrate "
                  "--mode training'");
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < o->n_threads; i++)
        if (o->threads[i] > 256) {
            cli_error("--threads: %lld is more than 256", (long long)o->threads[i]);
            return EXIT_USAGE;
        }
    if (o->n_profiles && mode.training) {
        cli_error("calibrate: --profile takes ONNX Runtime profiles (inference)");
        return EXIT_USAGE;
    }
    if (o->anchors && o->no_anchors) {
        cli_error("calibrate: --anchors and --no-anchors contradict each other");
        return EXIT_USAGE;
    }
    if ((o->models || o->runs) && (o->training || o->no_anchors)) {
        cli_error("calibrate: --runs and --models are whole networks' runs to fit on "
                  "(inference, not with --no-anchors)");
        return EXIT_USAGE;
    }
    if (o->training && o->n_more_anchors) {
        cli_error("calibrate: --mode training takes one --anchors file (training steps)");
        return EXIT_USAGE;
    }
    /* calibrate times whole networks with ONNX Runtime only: a training
     * calibration's anchors are steps timed by scripts/measure_training.py */
    if (o->training && o->anchors) {
        o->steps = o->anchors;
        o->anchors = NULL;
    }
    if (o->training)
        o->no_anchors = true;
    if (o->no_measure && !o->probe) {
        cli_error("calibrate: --no-measure needs --probe FILE");
        return EXIT_USAGE;
    }
    if (!o->n_threads) {
        int n = oc_hw_online_cpus();
        o->threads[o->n_threads++] = 1;
        if (n > 1)
            o->threads[o->n_threads++] = n;
    }
    return 0;
}

/* Measure the probe at `threads` into `probe` (resuming what is there). */
static int measure(const copts *o, int64_t threads, int units, const char *probe, double t0,
                   double total_est, double *done_est)
{
    char th[16], count[16], seed[24];
    snprintf(th, sizeof th, "%lld", (long long)threads);
    snprintf(seed, sizeof seed, "%d", PROBE_SEED);
    bool training = o->training;
    const char *dargs = cli_calibrate_driver_args(training, threads);
    /* the check kernel reads slower after a multi-threaded chunk of ORT's:
     * only a larger drift re-measures */
    const char *drift = !training && threads > 1 ? "1.0" : "0.1";
    for (int f = 0; f < OC_CALIB_N_PROBE_FAMILIES && !stop; f++) {
        const oc_calib_probe_family *pf = &oc_calib_probe_families[f];
        if (training && pf->ort_only)
            continue;
        int n = units * pf->weight;
        snprintf(count, sizeof count, "%d", n);
        char eta[16], el[16];
        double elapsed = now_s() - t0;
        fprintf(stderr, "calibrate: %lld thread%s: %-13s %2d kernels   %s elapsed, eta %s\n",
                (long long)threads, threads == 1 ? "" : "s", pf->name, n,
                oc_fmt_seconds(elapsed, el, sizeof el),
                oc_fmt_seconds(total_est - *done_est, eta, sizeof eta));
        char *argv[32];
        int argc = 0;
        argv[argc++] = "collect";
        argv[argc++] = "--quiet";
        argv[argc++] = "--target";
        argv[argc++] = (char *)oc_target_of_mode(training ? OC_TARGET_TRAINING
                                                          : OC_TARGET_INFERENCE)->name;
        argv[argc++] = "--threads";
        argv[argc++] = th;
        argv[argc++] = "--family";
        argv[argc++] = (char *)pf->name;
        argv[argc++] = "--count";
        argv[argc++] = count;
        argv[argc++] = "--seed";
        argv[argc++] = seed;
        argv[argc++] = "--dataset";
        argv[argc++] = (char *)probe;
        argv[argc++] = "--driver-args";
        argv[argc++] = (char *)dargs;
        argv[argc++] = "--max-drift";
        argv[argc++] = (char *)drift;
        if (training) {
            argv[argc++] = "--optimizer";
            argv[argc++] = (char *)oc_optimizer_name(o->optimizer);
        }
        argv[argc] = NULL;
        int rc = cmd_collect(argc, argv);
        *done_est += oc_calib_family_seconds(training, n);
        if (rc)
            return rc;
    }
    return stop ? 130 : 0;
}

/* ---- anchors: whole networks, for the in-graph scale (cli/anchors.c) ---- */

/* Every --anchors file's runs into s (the first is the one measured runs
 * go to); 0 or an exit status (one line printed). */
static int load_anchor_files(const copts *o, const char *machine, oc_anchor_set *s)
{
    oc_error err;
    oc_error_clear(&err);
    s->models_dir = o->models;
    if (o->anchors && oc_anchors_load(o->anchors, machine, s, &err))
        return cli_fail(&err, 0);
    for (size_t i = 0; i < o->n_more_anchors; i++)
        if (oc_anchors_load(o->more_anchors[i], machine, s, &err))
            return cli_fail(&err, 0);
    return 0;
}

/* Time the anchors at `threads` unless --anchors FILE has them; what is
 * measured goes to the file, or to `mem` without one. */
static int measure_anchors(const copts *o, int64_t threads, const char *workdir,
                           const char *machine, oc_anchor_set *mem, double t0, double total_est,
                           double *done_est)
{
    enum { ALL = OC_N_ANCHOR_RUNS };
    oc_anchor_set *have = calloc(1, sizeof *have);
    if (!have) {
        cli_error("out of memory");
        return EXIT_IO;
    }
    oc_error err;
    oc_error_clear(&err);
    int rc = load_anchor_files(o, machine, have);
    bool done = !rc && oc_anchors_complete(o->anchors ? have : mem, threads);
    if (rc || done) {
        oc_anchors_free(have);
        free(have);
        return rc;
    }
    char eta[16], el[16];
    fprintf(stderr, "calibrate: %lld thread%s: %-13s %2d runs      %s elapsed, eta %s\n",
            (long long)threads, threads == 1 ? "" : "s", "whole nets", ALL,
            oc_fmt_seconds(now_s() - t0, el, sizeof el), oc_fmt_seconds(total_est - *done_est, eta, sizeof eta));
    /* A busy machine shows as spread between the interleaved passes: such
     * runs are measured again (once), and the steadier of the two kept. */
    oc_anchor_run runs[ALL];
    size_t n = 0;
    bool abandoned = false;
    if (oc_anchors_measure_steady(threads, workdir, &stop, &cli_log, &abandoned, runs, &n, &err))
        rc = cli_fail_run(&err, abandoned);
    *done_est += OC_CALIB_ANCHOR_SECONDS;
    if (!rc && o->anchors) {
        /* only what the files lack (one of an older calibrate has no curve
         * networks' runs): each run once in the fit */
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (oc_anchors_has(have, &runs[i]))
                oc_anchor_runs_free(&runs[i], 1);
            else
                runs[k++] = runs[i];
        }
        n = k;
        rc = oc_anchors_append(o->anchors, machine, runs, n, &err) ? cli_fail(&err, 0) : 0;
        oc_anchor_runs_free(runs, n); /* read back from the file */
    }
    oc_anchors_free(have);
    free(have);
    if (rc || o->anchors)
        return rc;
    size_t i = 0;
    for (; i < n && mem->n < OC_MAX_ANCHOR_RUNS; i++)
        mem->r[mem->n++] = runs[i]; /* the kernel lists go with them */
    oc_anchor_runs_free(runs + i, n - i);
    return 0;
}

/* This host's check kernel against the one of the calibration the project
 * ships for a machine of this kind: another host of the same kind, or a
 * busy one, shows here. */
static void compare_check(const oc_calib *cal)
{
    oc_calib_check c[4 * OC_CALIB_MAX_THREADS];
    size_t n = oc_calib_compare_shipped(cal, c, sizeof c / sizeof *c);
    for (size_t i = 0; i < n; i++) {
        double d = c[i].here_us / c[i].ref_us - 1;
        printf("check kernel at %d thread%s: %.0f us here, %.0f us on the host the project "
               "measured (%s): %+.0f%%\n",
               c[i].threads, c[i].threads == 1 ? "" : "s", c[i].here_us, c[i].ref_us,
               c[i].ref_path, 100 * d);
        if (fabs(d) > 0.2)
            fprintf(stderr,
                    "onnxcost: warning: this host ran the check kernel %.0f%% %s at %d "
                    "thread%s than the project's host of this kind: another host, or a busy "
                    "one (calibrate again when it is quiet to tell)\n",
                    100 * fabs(d), d > 0 ? "slower" : "faster", c[i].threads,
                    c[i].threads == 1 ? "" : "s");
    }
}

int cmd_calibrate(int argc, char **argv)
{
    copts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (o.check)
        return cli_calibrate_check(&(cli_check_opts){o.training, o.optimizer, o.threads,
                                                     o.n_threads, o.check_target, o.format,
                                                     o.save, o.output});
    oc_error err;
    oc_error_clear(&err);
    if (!o.no_measure && oc_calib_check_runtime(o.training, &err))
        return cli_fail(&err, 0);
    oc_machine here;
    oc_this_machine(&here);
    const char *mode_name = o.training ? "training" : "inference";

    /* The base model, without any calibration. */
    oc_tmodel *base = NULL;
    const oc_target_entry *builtin =
        oc_target_of_mode(o.training ? OC_TARGET_TRAINING : OC_TARGET_INFERENCE);
    oc_status st = oc_calib_load_base(o.base, builtin->name, &base, &err);
    if (st)
        return cli_fail(&err, o.base != NULL);
    const oc_tmodel_info *info = oc_tmodel_get_info(base);
    bool base_training = (info->optimizers & ~(1u << OC_OPT_NONE)) != 0;
    if (base_training != o.training) {
        cli_error("calibrate: the %s timing model predicts %s; %s", info->target,
                  base_training ? "training steps" : "inference",
                  base_training ? "add --mode training" : "drop --mode training");
        oc_tmodel_free(base);
        return EXIT_USAGE;
    }
    if (o.training && oc_tmodel_set_optimizer(base, o.optimizer, &err) != OC_OK) {
        oc_tmodel_free(base);
        return cli_fail(&err, 0);
    }

    /* A work folder for what is measured (the probe unless --probe, the
     * anchor networks), removed at the end. */
    char tmpdir[PATH_MAX] = "", probe[PATH_MAX];
    if (!o.no_measure || !o.probe) {
        if (!cli_mkdtemp("calibrate", tmpdir, sizeof tmpdir)) {
            cli_error("cannot create a directory like %s: %s", tmpdir, strerror(errno));
            oc_tmodel_free(base);
            return EXIT_IO;
        }
    }
    int plen = o.probe ? snprintf(probe, sizeof probe, "%s", o.probe)
                       : snprintf(probe, sizeof probe, "%s/probe.jsonl.gz", tmpdir);
    if (plen < 0 || (size_t)plen >= sizeof probe) {
        cli_error("calibrate: %s: path too long", o.probe ? o.probe : tmpdir);
        if (tmpdir[0])
            oc_rm_tree(tmpdir);
        oc_tmodel_free(base);
        return EXIT_IO;
    }
    oc_anchor_set *anchors = calloc(1, sizeof *anchors);
    if (!anchors) {
        cli_error("out of memory");
        oc_tmodel_free(base);
        return EXIT_IO;
    }

    struct sigaction old_sig[2];
    cli_signals_catch(on_signal, old_sig);
    double t0 = now_s();
    if (!o.no_measure) {
        /* Units of probe per thread count from the budget. */
        int units, weights;
        double total = oc_calib_probe_plan(o.budget, o.n_threads, o.training, !o.no_anchors,
                                           &units, &weights);
        char eb[16];
        fprintf(stderr, "calibrate: %s on %s (%s), %s: %d probe kernels per thread count, "
                        "about %s\n", info->target, here.id,
                here.model_name[0] ? here.model_name : "?", mode_name, units * weights,
                oc_fmt_seconds(total, eb, sizeof eb));
        double done = 0;
        for (size_t i = 0; i < o.n_threads && !rc; i++) {
            rc = measure(&o, o.threads[i], units, probe, t0, total, &done);
            if (!rc && !stop && !o.no_anchors)
                rc = measure_anchors(&o, o.threads[i], tmpdir, here.id, anchors, t0, total,
                                     &done);
        }
        if (rc == 130 || stop) {
            if (o.probe)
                cli_error("calibrate: interrupted; nothing written (the probe so far is in %s)",
                          o.probe);
            else
                cli_error("calibrate: interrupted; nothing written");
            rc = 130;
        }
    }
    cli_signals_restore(old_sig);

    oc_calib *cal = calloc(1, sizeof *cal);
    oc_train_set s;
    oc_train_set_init(&s);
    if (!rc && !cal) {
        cli_error("out of memory");
        rc = EXIT_IO;
    }
    /* each probe line's features from its machine's profile when the
     * model was trained on that machine too (as predictions then use it) */
    if (!rc && oc_train_set_load_machines(&s, probe, info->machines, (size_t)info->n_machines,
                                          &info->hw, &err) != OC_OK)
        rc = cli_fail(&err, 1);
    if (!rc && s.target[0] && strcmp(s.target, info->target)) {
        cli_error("calibrate: %s holds %s samples, the timing model is of %s", probe, s.target,
                  info->target);
        rc = EXIT_INPUT;
    }
    /* A probe measured elsewhere calibrates for that machine, never this one. */
    oc_machine mach = here;
    if (!rc && s.machine[0] && strcmp(s.machine, here.id)) {
        if (s.mixed_machine) {
            cli_error("calibrate: %s mixes samples of several machines", probe);
            rc = EXIT_INPUT;
        } else {
            memset(&mach, 0, sizeof mach);
            snprintf(mach.id, sizeof mach.id, "%s", s.machine);
            snprintf(mach.model_name, sizeof mach.model_name, "%s", s.cpu);
            mach.cores = 1;
            fprintf(stderr, "onnxcost: note: the probe was measured on %s, not this machine "
                            "(%s): the calibration is for %s\n", s.machine, here.id, s.machine);
        }
    } else if (!rc && s.n == 0 && o.no_measure) {
        cli_error("calibrate: %s: no probe samples%s", probe,
                  s.n_cut_off ? " (a cut-off or corrupt chunk)" : "");
        rc = EXIT_INPUT;
    } else if (!rc && !s.machine[0] && o.no_measure) {
        fprintf(stderr, "onnxcost: note: %s records no machine; taken as this one (%s)\n",
                probe, here.id);
    }
    if (!rc)
        oc_calib_init(cal, &mach, info->target, s.runtime[0] ? s.runtime : info->runtime,
                      mode_name, info->machine, info->created);
    if (cal)
        cal->probe_seconds = now_s() - t0;
    /* A calibration of a timing-model file names it: --target CAL then
     * loads that file as its base. */
    char real[PATH_MAX];
    if (!rc && o.base) {
        if (oc_path_absolute(o.base, real, sizeof real) || strlen(real) >= sizeof cal->base_path) {
            cli_error("calibrate: %s: path too long", o.base);
            rc = EXIT_IO;
        } else {
            memcpy(cal->base_path, real, strlen(real) + 1); /* fits: checked above */
        }
    }
    oc_load_opts lo = {0};
    if (!rc && o.n_profiles)
        rc = cli_load_opts(&lo);
    oc_calib_probe_opts po = {o.training, o.optimizer, o.profiles, o.n_profiles,
                              o.profile_threads, &lo};
    for (size_t i = 0; i < o.n_threads && !rc; i++)
        if (oc_calib_fit_probe(cal, base, &s, o.threads[i], &po, &cli_log, &err))
            rc = cli_fail(&err, 0);
    if (!rc)
        oc_calib_probe_check(probe, cal);
    bool no_stream = false;
    if (!rc && oc_calib_set_hw(cal, o.hw, !o.no_measure, here.id, &no_stream, &err))
        rc = cli_fail(&err, 0);
    if (!rc && no_stream && !o.no_measure)
        fprintf(stderr, "onnxcost: note: %s %s (--hw FILE): %s\n",
                o.training ? "no cost of fresh pages on" : "no copy bandwidth of", cal->machine.id,
                o.training ? "a step's page faults are not charged"
                           : "weights are taken to stay in cache");
    if (!rc)
        rc = load_anchor_files(&o, mach.id, anchors);
    if (!rc && anchors->n_unknown)
        fprintf(stderr,
                "onnxcost: note: %zu run%s of networks whose graphs are in neither %s nor %s "
                "(the first: %s) left out\n",
                anchors->n_unknown, anchors->n_unknown == 1 ? "" : "s", oc_anchor_dir(),
                o.models ? o.models : "--models DIR", anchors->unknown);
    if (!rc && anchors->n_unbound)
        fprintf(stderr,
                "onnxcost: note: %zu run%s left out: their inputs cannot be bound (more than "
                "%d, or not [{\"name\", \"shape\"}])\n",
                anchors->n_unbound, anchors->n_unbound == 1 ? "" : "s", OC_ANCHOR_MAX_INPUTS);
    for (size_t i = 0; i < o.n_threads && !rc && o.steps; i++) {
        size_t n = 0;
        if (oc_calib_fit_step_anchors(o.base, cal, info->target, o.threads[i], o.steps, &n, &err))
            rc = cli_fail(&err, 0);
        else if (!n)
            fprintf(stderr,
                    "onnxcost: note: %s has no step at %lld thread%s timed with freed memory "
                    "kept (measure_training.py --malloc retain) of a network in "
                    "tests/reference/train: the timing model's in-graph scale is kept\n",
                    o.steps, (long long)o.threads[i], o.threads[i] == 1 ? "" : "s");
    }
    for (size_t i = 0; i < o.n_threads && !rc && !o.no_anchors; i++)
        rc = oc_calib_fit_anchors(o.base, cal, info->target, o.threads[i], anchors, &err)
                 ? cli_fail(&err, 0)
                 : 0;
    /* The kernel curve: fitted with the anchors where the curve networks
     * were timed; else the measured machine nearest this one lends its
     * own. */
    oc_calib near;
    for (int i = 0; !rc && o.no_curve && i < cal->n_fits; i++)
        cal->fits[i].n_curve = 0;
    if (!rc && !o.no_curve &&
        !oc_calib_nearest_builtin(&cal->machine, cal->target, cal->mode, &near))
        oc_calib_adopt_curve(cal, &near);

    char path[4096];
    if (!rc) {
        if (o.output) {
            snprintf(path, sizeof path, "%s", o.output);
        } else {
            rc = cli_calib_cache_file(mach.id, info->target, info->runtime, mode_name, path,
                                      sizeof path);
        }
    }
    if (!rc && oc_calib_save(cal, path, &err) != OC_OK)
        rc = cli_fail(&err, 0);
    if (!rc) {
        printf("calibration of %s (%s) for %s (%s), %s; probe %.0f s\n", info->target,
               cal->runtime, mach.id, mach.model_name[0] ? mach.model_name : "?", mode_name,
               cal->probe_seconds);
        printf("%8s %8s %22s %22s\n", "threads", "kernels", "median error before",
               "after (leave-one-out)");
        static const char *const form_what[OC_CALIB_FORMS] = {
            [OC_CALIB_SIZE] = "per op family, by size and intensity",
            [OC_CALIB_SCALE] = "one factor per op family",
            [OC_CALIB_NONE] = "none",
        };
        for (int k = 0; k < cal->n_fits; k++) {
            const oc_calib_fit *f = &cal->fits[k];
            printf("%8d %8d %21.1f%% %21.1f%%  correction %s", f->threads, f->n,
                   100 * f->err_before, 100 * f->err_after, form_what[f->form]);
            int judged = 0;
            for (int m = 0; f->n_anchors && m < OC_CALIB_FORMS; m++)
                judged += f->form_anchor_err[m] > 0;
            if (judged > 1) {
                printf(", chosen on whole networks:");
                for (int m = 0, shown = 0; m < OC_CALIB_FORMS; m++)
                    if (f->form_anchor_err[m] > 0)
                        printf("%s %s %.1f%%", shown++ ? "," : "", oc_calib_form_name(m),
                               100 * f->form_anchor_err[m]);
            } else if (f->form == OC_CALIB_NONE) {
                printf(": it did not beat the model's own predictions");
            }
            printf("\n");
        }
        printf("machine-wide factor%s:", cal->n_fits == 1 ? "" : "s");
        for (int k = 0; k < cal->n_fits; k++)
            printf("%s %.2fx at %d thread%s", k ? "," : "", exp(cal->fits[k].global[0]),
                   cal->fits[k].threads, cal->fits[k].threads == 1 ? "" : "s");
        printf("\n");
        for (int k = 0; k < cal->n_fits; k++) {
            const oc_calib_fit *f = &cal->fits[k];
            if (f->n_anchors)
                printf("in-graph scale at %d thread%s: %.2f (the timing model's %.2f), fitted "
                       "on %d whole-network runs: mean error %.1f%% -> %.1f%% "
                       "(leave-one-network-out)\n",
                       f->threads, f->threads == 1 ? "" : "s", f->kernel_scale,
                       f->base_kernel_scale, f->n_anchors, 100 * f->anchor_err_before,
                       100 * f->anchor_err_after);
            else
                printf("in-graph scale at %d thread%s: %.2f, the timing model's (no whole "
                       "network timed)\n",
                       f->threads, f->threads == 1 ? "" : "s", f->kernel_scale);
            int shown = 0;
            for (int g = 0; g < OC_CALIB_GROUPS; g++)
                if (f->in_graph[g] > 0)
                    printf("%s %s %.2fx",
                           shown++ ? "," : "in whole networks (the runs' kernel lists), kernels of",
                           oc_calib_group_name(g), f->in_graph[g]);
            if (shown)
                printf(" at %d thread%s\n", f->threads, f->threads == 1 ? "" : "s");
            if (f->steps_ran)
                printf("the step chains at %d thread%s ran %zu kernels where the plan has %zu "
                       "(another ONNX Runtime than 1.30?): left out, the chains of tiny kernels "
                       "set the profiler's cost\n",
                       f->threads, f->threads == 1 ? "" : "s", f->steps_ran, f->steps_planned);
            if (f->n_chains)
                printf("a kernel at %d thread%s: %.2f us in a run, %.2f us as profiled, %.2f us "
                       "as predicted (chains of tiny kernels)%s",
                       f->threads, f->threads == 1 ? "" : "s", f->kernel_floor_us,
                       f->profiled_kernel_us, f->predicted_kernel_us, f->n_steps ? "\n" : ": ");
            if (f->n_steps)
                printf("a recurrent step's kernel at %d thread%s: %.2f us in a run, %.2f us as "
                       "profiled, %.2f us as predicted (chains of steps): ",
                       f->threads, f->threads == 1 ? "" : "s", f->step_wall_us,
                       f->step_profiled_us, f->step_predicted_us);
            if (f->n_chains || f->n_steps)
                printf("%s %.2f us per kernel",
                       f->per_kernel_us < 0 ? "predicted kernels less" : "predicted kernels plus",
                       fabs(f->per_kernel_us));
            if (f->n_chains)
                printf(", each at least %.2f us", f->kernel_floor_us);
            if (f->n_chains || f->n_steps)
                printf("\n");
            if (f->n_loops)
                printf("a Loop trip at %d thread%s: %.2f us in a run, %.2f us its body as "
                       "predicted: %.2f us per trip beyond its body, and %.2f us a Loop "
                       "(chains of trips)\n",
                       f->threads, f->threads == 1 ? "" : "s", f->loop_wall_us,
                       f->loop_predicted_us, f->loop_trip_us, f->loop_run_us);
            if (f->stream_gbps > 0)
                printf("weights stream at %d thread%s: %.1f GB/s\n", f->threads,
                       f->threads == 1 ? "" : "s", f->stream_gbps);
            if (f->fault_us_per_mb > 0 && !strcmp(cal->mode, "training"))
                printf("fresh pages at %d thread%s: %.2f ms per MB\n", f->threads,
                       f->threads == 1 ? "" : "s", f->fault_us_per_mb / 1e3);
            if (f->output_us_per_mb > 0)
                printf("handing outputs back at %d thread%s: %.2f ms per MB\n", f->threads,
                       f->threads == 1 ? "" : "s", f->output_us_per_mb / 1e3);
            if (f->curve_from[0])
                printf("kernel curve at %d thread%s: %s's (fitted on %d of its whole-model "
                       "runs; the measured machine nearest this one)\n",
                       f->threads, f->threads == 1 ? "" : "s", f->curve_from, f->curve_runs);
            else if (f->n_curve && f->curve_nets)
                printf("kernel curve at %d thread%s, fitted on %d whole-network runs of %d "
                       "networks: their mean error %.1f%% -> %.1f%% (leave-one-network-out); "
                       "a kernel predicted at 2, 8, 32 us adds %.2f, %.2f, %.2f us to a run\n",
                       f->threads, f->threads == 1 ? "" : "s", f->curve_runs, f->curve_nets,
                       100 * f->curve_err_before, 100 * f->curve_err_after, f->curve_w[1],
                       f->curve_w[3], f->curve_w[5]);
        }
        compare_check(cal);
        printf("wrote %s\n", path);
        if (!o.output)
            printf("predict, sweep, annotate and report use it on this machine from now on\n");
    }
    oc_train_set_free(&s);
    if (anchors)
        oc_anchors_free(anchors);
    free(anchors);
    free(cal);
    oc_tmodel_free(base);
    if (tmpdir[0]) /* the temporary probe and its lock, the anchors */
        oc_rm_tree(tmpdir);
    return rc;
}
