/* cmd_train.c - onnxcost train DATASET... -o FILE: fit the timing model. */
#include "cli/cli.h"

#include <cblas.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "training/score.h"
#include "predictor/tmodel.h"

static const char train_help[] =
    "usage: onnxcost train [options] -o FILE DATASET...\n"
    "       onnxcost train [options] --cv K DATASET...\n"
    "       onnxcost train --overhead FIT.json --embed MODEL [-o FILE]\n"
    "       onnxcost train --merge -o FILE MODEL MODEL...\n"
    "\n"
    "Fit the neural timing model on measured datasets (onnxcost collect):\n"
    "an ensemble of dense ReLU MLPs predicting ln(kernel time), Huber loss,\n"
    "Adam, early stopping on a validation split.  A test split is held out\n"
    "by a hash of each sample id (thread count ignored); 'onnxcost eval'\n"
    "scores it.  Progress and validation error per epoch go to stderr.\n"
    "\n"
    "  -o, --output FILE     the timing-model file to write (required)\n"
    "      --hw FILE         hardware profile from 'onnxcost hw -o FILE'; without\n"
    "                        it this machine is measured now.  Repeat it for data\n"
    "                        of several machines: each sample takes the profile\n"
    "                        of its machine's fingerprint (target.machine; the\n"
    "                        profile's \"machine\": {\"id\"}, none for unrecorded\n"
    "                        data); the first is the model's own\n"
    "      --hidden LIST     hidden layer widths (default 32,64,128,128,128,128)\n"
    "      --epochs N        maximum epochs per member (default 300)\n"
    "      --patience N      stop after N epochs without a better validation\n"
    "                        loss; 0 never stops early (default 30)\n"
    "      --lr X            Adam learning rate (default 1e-3)\n"
    "      --batch N         mini-batch size (default 128)\n"
    "      --l2 X            weight penalty (default 1e-5)\n"
    "      --dropout X       hidden-unit dropout probability (default 0)\n"
    "      --huber X         Huber loss on ln(t): squared within X, linear\n"
    "                        beyond (0: squared error; default 0.1)\n"
    "      --ensemble K      members with different seeds; their spread is the\n"
    "                        low/high range (default 5)\n"
    "      --seed S          base seed (default 1)\n"
    "      --val-frac X      validation fraction (default 0.1)\n"
    "      --test-frac X     held-out test fraction (default 0.1)\n"
    "      --no-roofline-base  fit ln(t) itself, not ln(t / roofline time)\n"
    "      --cv K            cross-validate instead of writing a model: K folds,\n"
    "                        each holding out 1/K of the samples (by the same\n"
    "                        hash; with K = 10 fold 0 holds out the default\n"
    "                        test split), and print every sample's held-out\n"
    "                        error as 'onnxcost eval' does\n"
    "      --by KEY          with --cv: group by family (default), op or pattern\n"
    "  -f, --format FMT      with --cv: table (default) or json\n"
    "      --samples         with --cv --format json: add \"predictions\", every\n"
    "                        sample with its held-out prediction\n"
    "      --overhead FIT.json  store this in-graph fit and coverage in the model\n"
    "                        (bench/eval_models.py --fit-overhead, scripts/\n"
    "                        coverage.py: data/ort-cpu-overhead.json); predict\n"
    "                        then uses the model's own fit\n"
    "      --embed MODEL     train nothing: store the --overhead fit in the\n"
    "                        existing MODEL, rewritten in place (temp file and\n"
    "                        rename) or written to -o FILE; the networks are\n"
    "                        kept bit for bit\n"
    "      --merge           train nothing: one ensemble of the members of the\n"
    "                        MODELs (trained on the same data with the same\n"
    "                        options, each with another --seed), in order,\n"
    "                        written to -o FILE; the first model's in-graph fit\n"
    "                        and coverage are kept\n"
    "  -q, --quiet           one progress line per member, not per epoch\n"
    "  -h, --help            this text\n";

static int parse_double(const char *opt, const char *s, double min, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= min && v <= max)) {
        cli_error("%s: '%s' is not a number in [%g, %g]", opt, s, min, max);
        return EXIT_USAGE;
    }
    *out = v;
    return 0;
}

static int parse_hidden(const char *s, int *hidden, int *n)
{
    *n = 0;
    if (!strcmp(s, "none") || !*s)
        return 0;
    const char *p = s;
    while (*p) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (errno || end == p || v < 1 || v > 4096 || (*end && *end != ',') ||
            *n >= OC_MLP_MAX_LAYERS - 1) {
            cli_error("--hidden: expected up to %d widths in [1, 4096] like 32,64,128, got '%s'",
                      OC_MLP_MAX_LAYERS - 1, s);
            return EXIT_USAGE;
        }
        hidden[(*n)++] = (int)v;
        p = *end ? end + 1 : end;
    }
    return 0;
}

typedef struct progress_state {
    bool quiet;
    int last_member;
    int fold, n_folds; /* n_folds 0: not cross-validating */
} progress_state;

static int on_epoch(void *ud, int member, int n_members, const oc_mlp_epoch *e,
                    double log_scale)
{
    progress_state *ps = ud;
    /* RMSE of ln(t): a typical multiplicative error of exp(rmse) - 1. */
    double rmse = sqrt(e->val_mse) * log_scale;
    if (!ps->quiet)
        fprintf(stderr,
                "[member %d/%d] epoch %3d  train loss %.4f  val loss %.4f  val rmse(ln t) "
                "%.3f (~%.1f%%)  best loss %.4f @%d  lr %.2g\n",
                member + 1, n_members, e->epoch, e->train_loss, e->val_loss, rmse,
                100 * (exp(rmse) - 1), e->best_val, e->best_epoch, e->lr);
    else if (e->epoch % 50 == 0 || member != ps->last_member) {
        if (ps->n_folds)
            fprintf(stderr, "[fold %d/%d] ", ps->fold + 1, ps->n_folds);
        fprintf(stderr, "[member %d/%d] epoch %d  val rmse(ln t) %.3f (best loss @%d)\n",
                member + 1, n_members, e->epoch, rmse, e->best_epoch);
    }
    ps->last_member = member;
    return 0;
}

/* A fold's first epoch line says which fold it is. */
static void on_fold(void *ud, int fold, int folds)
{
    progress_state *ps = ud;
    ps->fold = fold;
    ps->n_folds = folds;
    ps->last_member = -1;
}

/* K-fold cross-validation, every sample's held-out error printed. */
static int cross_validate(const oc_train_set *s, const oc_hw *hws, size_t n_hws,
                          oc_tmodel_train_opts o,
                          int folds, oc_score_by by, out_format fmt, bool list_samples,
                          progress_state *ps)
{
    int rc = EXIT_OK;
    oc_error err;
    oc_error_clear(&err);
    oc_score *sc = oc_score_new(by, list_samples);
    if (!sc) {
        cli_error("out of memory");
        return EXIT_IO;
    }
    if (oc_score_cross_validate(sc, s, hws, n_hws, o, folds, on_fold, ps, &cli_log, &err) !=
        OC_OK) {
        rc = cli_fail(&err, 0);
        goto out;
    }
    if (fmt == FMT_JSON) {
        json_t *j = json_pack("{s:i, s:s, s:I}", "folds", folds, "target", s->target,
                              "samples", (json_int_t)oc_score_count(sc));
        if (j) {
            json_object_set_new(j, "groups", oc_score_json(sc));
            if (list_samples)
                json_object_set_new(j, "predictions", oc_score_predictions(sc));
        }
        rc = cli_json_print(j);
        goto out;
    }
    printf("%d-fold cross-validation, %zu samples (target %s): each scored by the fold\n"
           "that held it out; absolute percentage error: median / mean\n\n",
           folds, oc_score_count(sc), s->target);
    oc_score_table(sc, stdout);
out:
    oc_score_free(sc);
    return rc;
}

/* The in-graph fit of file `path` stored in tm. */
static int set_fit_file(oc_tmodel *tm, const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)n + 1)) && fread(text, 1, (size_t)n, f) == (size_t)n)
        text[n] = '\0';
    else
        n = -1;
    if (f)
        fclose(f);
    if (n < 0) {
        free(text);
        cli_error("train: cannot read %s", path);
        return EXIT_IO;
    }
    oc_error err;
    oc_error_clear(&err);
    oc_status st = oc_tmodel_set_fit(tm, text, path, &err);
    free(text);
    return st == OC_OK ? 0 : cli_fail(&err, 1);
}

/* --merge: the models read, their members appended to the first's, the
 * result written to `output`. */
static int merge_models(char **paths, int n, const char *output)
{
    oc_error err;
    oc_error_clear(&err);
    oc_tmodel *tm = NULL;
    if (oc_tmodel_load(paths[0], &tm, &err) != OC_OK)
        return cli_fail(&err, 1);
    int rc = 0;
    for (int i = 1; i < n && !rc; i++) {
        oc_tmodel *other = NULL;
        if (oc_tmodel_load(paths[i], &other, &err) != OC_OK)
            rc = cli_fail(&err, 1);
        else if (oc_tmodel_merge(tm, other, &err) != OC_OK) {
            cli_error("train: %s: %s", paths[i], err.msg);
            rc = EXIT_USAGE;
        }
        oc_tmodel_free(other);
    }
    if (!rc && oc_tmodel_save(tm, output, &err) != OC_OK)
        rc = cli_fail(&err, 0);
    if (!rc)
        fprintf(stderr, "wrote %s: the %s timing model, %d members from %d models\n", output,
                oc_tmodel_get_info(tm)->target, oc_tmodel_get_info(tm)->ensemble, n);
    oc_tmodel_free(tm);
    return rc;
}

/* --embed: the model read, the fit stored, the model written back. */
static int embed_fit(const char *model, const char *fit, const char *output)
{
    oc_error err;
    oc_error_clear(&err);
    oc_tmodel *tm;
    if (oc_tmodel_load(model, &tm, &err) != OC_OK)
        return cli_fail(&err, 1);
    int rc = set_fit_file(tm, fit);
    if (!rc && oc_tmodel_save(tm, output ? output : model, &err) != OC_OK)
        rc = cli_fail(&err, 0);
    if (!rc)
        fprintf(stderr, "wrote %s: the %s timing model with the in-graph fit %s\n",
                output ? output : model, oc_tmodel_get_info(tm)->target,
                oc_tmodel_fit_source(tm) ? oc_tmodel_fit_source(tm) : fit);
    oc_tmodel_free(tm);
    return rc;
}

int cmd_train(int argc, char **argv)
{
    enum { O_HW = 256, O_HIDDEN, O_EPOCHS, O_PATIENCE, O_LR, O_BATCH, O_L2, O_DROPOUT,
           O_ENSEMBLE, O_SEED, O_VAL, O_TEST, O_NO_BASE, O_CV, O_BY, O_HUBER, O_SAMPLES,
           O_OVERHEAD, O_EMBED, O_MERGE };
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"hw", required_argument, NULL, O_HW},
        {"hidden", required_argument, NULL, O_HIDDEN},
        {"epochs", required_argument, NULL, O_EPOCHS},
        {"patience", required_argument, NULL, O_PATIENCE},
        {"lr", required_argument, NULL, O_LR},
        {"batch", required_argument, NULL, O_BATCH},
        {"l2", required_argument, NULL, O_L2},
        {"dropout", required_argument, NULL, O_DROPOUT},
        {"huber", required_argument, NULL, O_HUBER},
        {"ensemble", required_argument, NULL, O_ENSEMBLE},
        {"seed", required_argument, NULL, O_SEED},
        {"val-frac", required_argument, NULL, O_VAL},
        {"test-frac", required_argument, NULL, O_TEST},
        {"no-roofline-base", no_argument, NULL, O_NO_BASE},
        {"cv", required_argument, NULL, O_CV},
        {"by", required_argument, NULL, O_BY},
        {"format", required_argument, NULL, 'f'},
        {"samples", no_argument, NULL, O_SAMPLES},
        {"overhead", required_argument, NULL, O_OVERHEAD},
        {"embed", required_argument, NULL, O_EMBED},
        {"merge", no_argument, NULL, O_MERGE},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    oc_tmodel_train_opts o = oc_tmodel_train_defaults();
    int hidden[OC_MLP_MAX_LAYERS];
    for (int i = 0; i < o.mlp.n_hidden; i++)
        hidden[i] = o.mlp.hidden[i];
    int n_hidden = o.mlp.n_hidden;
    const char *output = NULL, *fit_path = NULL, *embed = NULL;
    const char *hw_paths[OC_TMODEL_MAX_MACHINES];
    size_t n_hw_paths = 0;
    progress_state ps = {false, -1, 0, 0};
    int folds = 0;
    bool by_given = false, test_given = false;
    oc_score_by by = OC_SCORE_BY_FAMILY;
    out_format fmt = FMT_TABLE;
    bool fmt_given = false, list_samples = false, merge = false;
    int64_t iv;
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:f:qh", opts, NULL)) != -1) {
        rc = 0;
        switch (c) {
        case 'o': output = optarg; break;
        case O_HW:
            if (n_hw_paths == OC_TMODEL_MAX_MACHINES) {
                cli_error("train: at most %d --hw profiles", OC_TMODEL_MAX_MACHINES);
                return EXIT_USAGE;
            }
            hw_paths[n_hw_paths++] = optarg;
            break;
        case O_HIDDEN: rc = parse_hidden(optarg, hidden, &n_hidden); break;
        case O_EPOCHS:
            if (!(rc = cli_parse_i64("--epochs", optarg, 1, 1000000, &iv)))
                o.mlp.epochs = (int)iv;
            break;
        case O_PATIENCE:
            if (!(rc = cli_parse_i64("--patience", optarg, 0, 1000000, &iv)))
                o.mlp.patience = (int)iv;
            break;
        case O_BATCH:
            if (!(rc = cli_parse_i64("--batch", optarg, 1, 1 << 20, &iv)))
                o.mlp.batch = (int)iv;
            break;
        case O_ENSEMBLE:
            if (!(rc = cli_parse_i64("--ensemble", optarg, 1, OC_TMODEL_MAX_ENSEMBLE, &iv)))
                o.ensemble = (int)iv;
            break;
        case O_SEED:
            if (!(rc = cli_parse_i64("--seed", optarg, 0, INT64_MAX, &iv)))
                o.mlp.seed = (uint64_t)iv;
            break;
        case O_LR: rc = parse_double("--lr", optarg, 1e-9, 10, &o.mlp.lr); break;
        case O_L2: rc = parse_double("--l2", optarg, 0, 100, &o.mlp.l2); break;
        case O_DROPOUT: rc = parse_double("--dropout", optarg, 0, 0.95, &o.mlp.dropout); break;
        case O_HUBER: rc = parse_double("--huber", optarg, 0, 100, &o.mlp.huber); break;
        case O_VAL: rc = parse_double("--val-frac", optarg, 0, 0.9, &o.val_frac); break;
        case O_TEST:
            rc = parse_double("--test-frac", optarg, 0, 0.9, &o.test_frac);
            test_given = true;
            break;
        case O_CV:
            if (!(rc = cli_parse_i64("--cv", optarg, 2, 100, &iv)))
                folds = (int)iv;
            break;
        case O_BY:
            rc = cli_parse_score_by(optarg, &by);
            by_given = true;
            break;
        case 'f':
            rc = cli_parse_format(optarg, &fmt, 0);
            fmt_given = true;
            break;
        case O_SAMPLES: list_samples = true; break;
        case O_OVERHEAD: fit_path = optarg; break;
        case O_EMBED: embed = optarg; break;
        case O_MERGE: merge = true; break;
        case O_NO_BASE: o.roofline_base = false; break;
        case 'q': ps.quiet = true; break;
        case 'h': fputs(train_help, stdout); return EXIT_OK;
        default: return cli_bad_option("train", argv, "o:f:qh");
        }
        if (rc)
            return rc;
    }
    o.mlp.hidden = hidden;
    o.mlp.n_hidden = n_hidden;
    if (merge) {
        if (!output || embed || fit_path || folds || argc - optind < 2) {
            cli_error("train: --merge takes -o FILE and two or more models, nothing else");
            return EXIT_USAGE;
        }
        return merge_models(argv + optind, argc - optind, output);
    }
    if (embed) {
        if (!fit_path || folds || optind < argc) {
            cli_error("train: --embed MODEL takes --overhead FIT.json (and -o), no dataset");
            return EXIT_USAGE;
        }
        return embed_fit(embed, fit_path, output);
    }
    if (fit_path && folds) {
        cli_error("train: --cv writes no model: drop --overhead");
        return EXIT_USAGE;
    }
    if (folds && (output || test_given)) {
        cli_error("train: --cv writes no model and sets the test fraction to 1/K: "
                  "drop %s", output ? "-o" : "--test-frac");
        return EXIT_USAGE;
    }
    if ((by_given || fmt_given || list_samples) && !folds) {
        cli_error("train: --by, --format and --samples go with --cv");
        return EXIT_USAGE;
    }
    if (list_samples && fmt != FMT_JSON) {
        cli_error("train: --samples needs --format json");
        return EXIT_USAGE;
    }
    if (folds)
        o.test_frac = 1.0 / (double)folds;
    if (!output && !folds) {
        cli_error("train: -o FILE is required (try 'onnxcost train --help')");
        return EXIT_USAGE;
    }
    if (optind >= argc) {
        cli_error("train: no dataset given (try 'onnxcost train --help')");
        return EXIT_USAGE;
    }
    if (o.val_frac + o.test_frac >= 0.95) {
        cli_error("train: --val-frac + --test-frac must stay below 0.95");
        return EXIT_USAGE;
    }

    /* The datasets must be there before the machine is measured for them. */
    for (int i = optind; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            cli_error("%s: %s", argv[i], strerror(errno));
            return EXIT_IO;
        }
        fclose(f);
    }
    oc_error err;
    oc_error_clear(&err);
    oc_hw hws[OC_TMODEL_MAX_MACHINES];
    size_t n_hws = n_hw_paths ? n_hw_paths : 1;
    for (size_t i = 0; i < n_hw_paths; i++) {
        if (oc_hw_load(hw_paths[i], &hws[i], &err) != OC_OK)
            return cli_fail(&err, 1);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(hws[i].machine, hws[j].machine)) {
                cli_error("train: %s and %s are profiles of the same machine (%s)",
                          hw_paths[j], hw_paths[i],
                          hws[i].machine[0] ? hws[i].machine : "no fingerprint");
                return EXIT_USAGE;
            }
    }
    if (!n_hw_paths) {
        fprintf(stderr, "onnxcost: note: no --hw profile: measuring this machine "
                        "(save one with 'onnxcost hw -o FILE')\n");
        if (oc_hw_measure(0, &hws[0], &err) != OC_OK)
            return cli_fail(&err, 0);
    }
    const oc_hw hw = hws[0];
    oc_train_set s;
    oc_train_set_init(&s);
    /* one profile takes every sample; several, each its machine's */
    for (int i = optind; i < argc; i++)
        if ((n_hws == 1 ? oc_train_set_load(&s, argv[i], &hw, &err)
                        : oc_train_set_load_machines(&s, argv[i], hws, n_hws, NULL, &err)) !=
            OC_OK) {
            oc_train_set_free(&s);
            return cli_fail(&err, 1);
        }
    if (s.n == 0) {
        cli_error("train: %s: no samples%s", argc - optind == 1 ? argv[optind] : "the datasets",
                  s.n_cut_off ? " (a cut-off or corrupt chunk)" : "");
        oc_train_set_free(&s);
        return EXIT_INPUT;
    }
    fprintf(stderr, "hardware: %s, sgemm %.1f / %.1f GFLOP/s at 1 / %d threads, "
                    "copy %.1f / %.1f GB/s\n",
            hw.cpu, hw.gflops_1, hw.gflops_n, hw.max_threads, hw.gbps_1, hw.gbps_n);
    size_t counts[3] = {0};
    for (size_t i = 0; i < s.n; i++)
        counts[oc_split_of(s.s[i].id, o.val_frac, o.test_frac)]++;
    fprintf(stderr, "data: %zu samples from %d file(s): %zu train, %zu validation, "
                    "%zu test (held out)",
            s.n, argc - optind, counts[OC_SPLIT_TRAIN], counts[OC_SPLIT_VAL],
            counts[OC_SPLIT_TEST]);
    if (s.n_skipped || s.n_duplicates || s.n_unfeaturised || s.n_cut_off)
        fprintf(stderr, "; skipped %zu without a time, %zu duplicate ids, %zu without "
                        "features, %zu cut-off chunk(s)",
                s.n_skipped, s.n_duplicates, s.n_unfeaturised, s.n_cut_off);
    fputc('\n', stderr);
    if (s.mixed_target)
        fprintf(stderr, "onnxcost: warning: the data mixes target names; the model is "
                        "labelled '%s'\n", s.target);
    if (n_hws == 1 && (s.mixed_cpu || (s.cpu[0] && hw.cpu[0] && strcmp(s.cpu, hw.cpu))))
        fprintf(stderr, "onnxcost: warning: the data was measured on '%s'%s, the hardware "
                        "profile is of '%s'\n",
                s.cpu, s.mixed_cpu ? " (and other CPUs)" : "", hw.cpu);

    /* One BLAS thread: the layers are small, and the weights must not
     * depend on how OpenBLAS splits the work. */
    openblas_set_num_threads(1);
    fprintf(stderr, "training %d member(s): %d features -> ", o.ensemble, OC_N_FEATURES);
    for (int i = 0; i < n_hidden; i++)
        fprintf(stderr, "%d -> ", hidden[i]);
    fprintf(stderr, "1; up to %d epochs, patience %d, batch %d, lr %g, l2 %g, dropout %g, "
                    "huber %g, seed %llu\n",
            o.mlp.epochs, o.mlp.patience, o.mlp.batch, o.mlp.lr, o.mlp.l2, o.mlp.dropout,
            o.mlp.huber, (unsigned long long)o.mlp.seed);
    o.progress = on_epoch;
    o.ud = &ps;
    if (folds) {
        rc = cross_validate(&s, hws, n_hws, o, folds, by, fmt, list_samples, &ps);
        oc_train_set_free(&s);
        return rc;
    }
    oc_tmodel *tm;
    if (oc_tmodel_train(&s, hws, n_hws, &o, &tm, &err) != OC_OK) {
        oc_train_set_free(&s);
        return cli_fail(&err, 0);
    }
    const oc_tmodel_info *in = oc_tmodel_get_info(tm);
    for (int i = 0; i < in->n_linear; i++)
        fprintf(stderr, "linear-FLOPs baseline, %d thread(s): t = %.4g us per MFLOP "
                        "+ %.4g us (%zu samples)\n",
                in->linear[i].threads, in->linear[i].a * 1e6, in->linear[i].b,
                in->linear[i].n);
    size_t nv;
    double med[3];
    if (oc_score_val(tm, &s, &nv, med, &err) == OC_OK && nv)
        fprintf(stderr,
                "validation split (%zu samples): median abs. %% error  model %.1f%%  "
                "linear-FLOPs %.1f%%  roofline %.1f%%\n",
                nv, med[0], med[1], med[2]);
    oc_train_set_free(&s);
    if (fit_path && (rc = set_fit_file(tm, fit_path))) {
        oc_tmodel_free(tm);
        return rc;
    }
    if (oc_tmodel_save(tm, output, &err) != OC_OK) {
        oc_tmodel_free(tm);
        return cli_fail(&err, 0);
    }
    fprintf(stderr, "wrote %s: %d member(s) of %zu parameters, target '%s', threads %d\n",
            output, in->ensemble, oc_mlp_n_params(oc_tmodel_member(tm, 0)), in->target,
            in->threads);
    oc_tmodel_free(tm);
    return EXIT_OK;
}
