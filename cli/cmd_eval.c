/* cmd_eval.c - onnxcost eval --timing-model FILE DATASET...: held-out error. */
#include "cli/cli.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predictor/tmodel.h"

static const char eval_help[] =
    "usage: onnxcost eval --timing-model FILE [options] DATASET...\n"
    "\n"
    "Score a timing model on the test split it held out (the same hash of\n"
    "the sample ids 'onnxcost train' used): median and mean absolute\n"
    "percentage error per family and thread count, next to the linear-FLOPs\n"
    "baseline (fitted on the same training split) and the roofline\n"
    "max(FLOPs/peak, bytes/bandwidth).  'in range' is the share of\n"
    "measurements within the ensemble's low..high spread.\n"
    "\n"
    "  -m, --timing-model FILE  the model (required)\n"
    "      --split S            test (default), val, train or all\n"
    "  -f, --format FMT         table (default) or json\n"
    "  -h, --help               this text\n";

typedef struct group {
    char name[96];
    int threads;
    size_t n, cap;
    double *ape[3]; /* model, linear, roofline */
    size_t in_range;
} group;

typedef struct stats {
    double med[3], mean[3];
} stats;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void summarise(group *g, stats *st)
{
    for (int k = 0; k < 3; k++) {
        double *v = g->ape[k], sum = 0;
        qsort(v, g->n, sizeof *v, cmp_double);
        for (size_t i = 0; i < g->n; i++)
            sum += v[i];
        st->mean[k] = g->n ? sum / (double)g->n : NAN;
        st->med[k] = g->n == 0 ? NAN
                     : g->n % 2 ? v[g->n / 2]
                                : 0.5 * (v[g->n / 2 - 1] + v[g->n / 2]);
    }
}

static bool group_add(group *g, const double ape[3], bool in_range)
{
    if (g->n == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 64;
        for (int k = 0; k < 3; k++) {
            double *nv = realloc(g->ape[k], cap * sizeof *nv);
            if (!nv)
                return false;
            g->ape[k] = nv;
        }
        g->cap = cap;
    }
    for (int k = 0; k < 3; k++)
        g->ape[k][g->n] = ape[k];
    g->n++;
    g->in_range += in_range;
    return true;
}

static int by_name(const void *a, const void *b)
{
    const group *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->threads - y->threads;
}

int cmd_eval(int argc, char **argv)
{
    enum { O_SPLIT = 256 };
    static const struct option opts[] = {
        {"timing-model", required_argument, NULL, 'm'},
        {"split", required_argument, NULL, O_SPLIT},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *model_path = NULL;
    int split = OC_SPLIT_TEST; /* -1: all */
    out_format fmt = FMT_TABLE;
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:f:h", opts, NULL)) != -1) {
        switch (c) {
        case 'm':
            model_path = optarg;
            break;
        case O_SPLIT:
            if (!strcmp(optarg, "test"))
                split = OC_SPLIT_TEST;
            else if (!strcmp(optarg, "val"))
                split = OC_SPLIT_VAL;
            else if (!strcmp(optarg, "train"))
                split = OC_SPLIT_TRAIN;
            else if (!strcmp(optarg, "all"))
                split = -1;
            else {
                cli_error("--split: '%s' is not one of test, val, train, all", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'f':
            if ((rc = cli_parse_format(optarg, &fmt, 0)))
                return rc;
            break;
        case 'h':
            fputs(eval_help, stdout);
            return EXIT_OK;
        default:
            fputs(eval_help, stderr);
            return EXIT_USAGE;
        }
    }
    if (!model_path) {
        cli_error("eval: --timing-model FILE is required (try 'onnxcost eval --help')");
        return EXIT_USAGE;
    }
    if (optind >= argc) {
        cli_error("eval: no dataset given (try 'onnxcost eval --help')");
        return EXIT_USAGE;
    }
    oc_error err;
    oc_error_clear(&err);
    oc_tmodel *tm;
    if (oc_tmodel_load(model_path, &tm, &err) != OC_OK)
        return cli_fail(&err, 1);
    const oc_tmodel_info *in = oc_tmodel_get_info(tm);

    /* Features from the model's own hardware profile, as at training. */
    oc_train_set s;
    oc_train_set_init(&s);
    for (int i = optind; i < argc; i++)
        if (oc_train_set_load(&s, argv[i], &in->hw, &err) != OC_OK) {
            oc_train_set_free(&s);
            oc_tmodel_free(tm);
            return cli_fail(&err, 1);
        }
    if (s.target[0] && in->target[0] && strcmp(s.target, in->target))
        fprintf(stderr, "onnxcost: warning: the data is of target '%s', the model of '%s'\n",
                s.target, in->target);

    size_t m = 0;
    size_t *idx = malloc((s.n ? s.n : 1) * sizeof *idx);
    float *X = malloc((s.n ? s.n : 1) * OC_N_FEATURES * sizeof *X);
    double *t = malloc((s.n ? s.n : 1) * sizeof *t), *lo = malloc((s.n ? s.n : 1) * sizeof *lo),
           *hi = malloc((s.n ? s.n : 1) * sizeof *hi);
    group *groups = NULL;
    size_t n_groups = 0;
    int exit_code = EXIT_OK;
    if (!idx || !X || !t || !lo || !hi) {
        cli_error("out of memory");
        exit_code = EXIT_IO;
        goto out;
    }
    for (size_t i = 0; i < s.n; i++)
        if (split < 0 || (int)oc_split_of(s.s[i].id, in->val_frac, in->test_frac) == split) {
            memcpy(X + m * OC_N_FEATURES, s.X + i * OC_N_FEATURES, OC_N_FEATURES * sizeof *X);
            idx[m++] = i;
        }
    if (m == 0) {
        cli_error("eval: no samples of the %s split in the data (%zu samples read)",
                  split < 0 ? "requested" : split == OC_SPLIT_TEST ? "test"
                                            : split == OC_SPLIT_VAL ? "validation"
                                                                    : "training",
                  s.n);
        exit_code = EXIT_INPUT;
        goto out;
    }
    if (oc_tmodel_predict_features(tm, X, m, t, lo, hi, &err) != OC_OK) {
        exit_code = cli_fail(&err, 0);
        goto out;
    }
    /* Groups: one per (family, threads), plus "all" per thread count. */
    groups = calloc(2 * m + 1, sizeof *groups);
    if (!groups) {
        cli_error("out of memory");
        exit_code = EXIT_IO;
        goto out;
    }
    for (size_t r = 0; r < m; r++) {
        const oc_train_sample *sm = &s.s[idx[r]];
        const oc_linear *L = oc_tmodel_linear(tm, sm->threads);
        oc_target tg;
        oc_hw_target(&in->hw, in->target, sm->threads, &tg);
        double pred[3] = {t[r], L ? oc_linear_predict(L, sm->flops) : 0,
                          oc_roofline_time_us(&tg, sm->flops, sm->bytes)};
        double ape[3];
        for (int k = 0; k < 3; k++)
            ape[k] = 100 * fabs(pred[k] - sm->time_us) / sm->time_us;
        bool inr = lo[r] <= sm->time_us && sm->time_us <= hi[r];
        for (int pass = 0; pass < 2; pass++) {
            const char *name = pass ? "~all" : sm->family; /* '~' sorts last */
            size_t g;
            for (g = 0; g < n_groups; g++)
                if (groups[g].threads == sm->threads && !strcmp(groups[g].name, name))
                    break;
            if (g == n_groups) {
                snprintf(groups[g].name, sizeof groups[g].name, "%s", name);
                groups[g].threads = sm->threads;
                n_groups++;
            }
            if (!group_add(&groups[g], ape, inr)) {
                cli_error("out of memory");
                exit_code = EXIT_IO;
                goto out;
            }
        }
    }
    qsort(groups, n_groups, sizeof *groups, by_name);

    const char *split_name = split < 0 ? "all" : split == OC_SPLIT_TEST ? "test"
                                             : split == OC_SPLIT_VAL    ? "val"
                                                                        : "train";
    if (fmt == FMT_JSON) {
        json_t *j = json_object();
        json_object_set_new(j, "timing_model", json_string(model_path));
        json_object_set_new(j, "target", json_string(in->target));
        json_object_set_new(j, "split", json_string(split_name));
        json_object_set_new(j, "samples", json_integer((json_int_t)m));
        json_t *a = json_array();
        for (size_t g = 0; g < n_groups; g++) {
            stats st;
            summarise(&groups[g], &st);
            json_t *o = json_pack(
                "{s:s, s:i, s:I, s:{s:f, s:f, s:f}, s:{s:f, s:f}, s:{s:f, s:f}}", "family",
                strcmp(groups[g].name, "~all") ? groups[g].name : "all", "threads",
                groups[g].threads, "n", (json_int_t)groups[g].n, "model", "median_ape",
                st.med[0], "mape", st.mean[0], "in_range",
                (double)groups[g].in_range / (double)groups[g].n, "linear_flops",
                "median_ape", st.med[1], "mape", st.mean[1], "roofline", "median_ape",
                st.med[2], "mape", st.mean[2]);
            json_array_append_new(a, o);
        }
        json_object_set_new(j, "groups", a);
        exit_code = cli_json_print(j);
        goto out;
    }
    printf("timing model %s (target %s, %d member(s)), %s split: %zu samples\n", model_path,
           in->target, in->ensemble, split_name, m);
    printf("absolute percentage error: median / mean\n\n");
    printf("%-20s %3s %6s   %-17s %6s   %-17s   %-17s\n", "family", "thr", "n",
           "model", "range", "linear-FLOPs", "roofline");
    for (size_t g = 0; g < n_groups; g++) {
        stats st;
        summarise(&groups[g], &st);
        char cell[3][40];
        for (int k = 0; k < 3; k++)
            snprintf(cell[k], sizeof cell[k], "%6.1f%% / %6.1f%%", st.med[k], st.mean[k]);
        bool all = !strcmp(groups[g].name, "~all");
        if (all && g > 0 && strcmp(groups[g - 1].name, "~all"))
            printf("%.*s\n", 96, "------------------------------------------------"
                                 "------------------------------------------------");
        printf("%-20s %3d %6zu   %-17s %5.0f%%   %-17s   %-17s\n",
               all ? "all" : groups[g].name, groups[g].threads, groups[g].n, cell[0],
               100.0 * (double)groups[g].in_range / (double)groups[g].n, cell[1], cell[2]);
    }
out:
    for (size_t g = 0; g < n_groups; g++)
        for (int k = 0; k < 3; k++)
            free(groups[g].ape[k]);
    free(groups);
    free(idx);
    free(X);
    free(t);
    free(lo);
    free(hi);
    oc_train_set_free(&s);
    oc_tmodel_free(tm);
    return exit_code;
}
