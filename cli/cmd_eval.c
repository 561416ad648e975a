/* cmd_eval.c - onnxcost eval --timing-model FILE DATASET...: held-out error. */
#include "cli/cli.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "training/score.h"
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
    "      --timing-model FILE  the model (required)\n"
    "      --calibration FILE   apply this calibration (onnxcost calibrate) to\n"
    "                           the model's predictions: score it on data of\n"
    "                           the machine it was fitted to\n"
    "      --split S            test (default), val, train or all\n"
    "      --by KEY             group by family (default), op (the sample's\n"
    "                           operator) or pattern (\"Conv+Relu\")\n"
    "      --samples            JSON: add \"predictions\", every scored sample\n"
    "                           with its measured and predicted time\n"
    "  -f, --format FMT         table (default) or json\n"
    "  -h, --help               this text\n";

int cmd_eval(int argc, char **argv)
{
    enum { O_SPLIT = 256, O_BY, O_SAMPLES };
    static const struct option opts[] = {
        {"timing-model", required_argument, NULL, 'm'},
        {"calibration", required_argument, NULL, 'c'},
        {"split", required_argument, NULL, O_SPLIT},
        {"by", required_argument, NULL, O_BY},
        {"samples", no_argument, NULL, O_SAMPLES},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *model_path = NULL, *calib_path = NULL;
    int split = OC_SPLIT_TEST; /* -1: all */
    out_format fmt = FMT_TABLE;
    oc_score_by by = OC_SCORE_BY_FAMILY;
    bool list_samples = false;
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
        switch (c) {
        case 'm':
            model_path = optarg;
            break;
        case 'c':
            calib_path = optarg;
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
        case O_BY:
            if ((rc = cli_parse_score_by(optarg, &by)))
                return rc;
            break;
        case O_SAMPLES:
            list_samples = true;
            break;
        case 'f':
            if ((rc = cli_parse_format(optarg, &fmt, 0)))
                return rc;
            break;
        case 'h':
            fputs(eval_help, stdout);
            return EXIT_OK;
        default:
            return cli_bad_option("eval", argv, "f:h");
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
    if (list_samples && fmt != FMT_JSON) {
        cli_error("eval: --samples needs --format json");
        return EXIT_USAGE;
    }
    oc_error err;
    oc_error_clear(&err);
    oc_tmodel *tm;
    if (oc_tmodel_load(model_path, &tm, &err) != OC_OK)
        return cli_fail(&err, 1);
    if (calib_path) {
        oc_calib cal;
        if (oc_calib_load(calib_path, &cal, &err) != OC_OK ||
            oc_tmodel_set_calib(tm, &cal, &err) != OC_OK) {
            oc_tmodel_free(tm);
            return cli_fail(&err, 1);
        }
    }
    const oc_tmodel_info *in = oc_tmodel_get_info(tm);

    /* Features from the profile of the machine that measured each sample,
     * as at training; samples of a machine the model was not trained on
     * take the profile predictions use (the calibration's machine). */
    oc_train_set s;
    oc_train_set_init(&s);
    const oc_hw *fallback = oc_tmodel_hw_for(tm, calib_path ? oc_tmodel_calib(tm)->machine.id
                                                            : NULL);
    for (int i = optind; i < argc; i++)
        if (oc_train_set_load_machines(&s, argv[i], in->machines, (size_t)in->n_machines,
                                       fallback, &err) != OC_OK) {
            oc_train_set_free(&s);
            oc_tmodel_free(tm);
            return cli_fail(&err, 1);
        }
    if (s.target[0] && in->target[0] && strcmp(s.target, in->target))
        fprintf(stderr, "onnxcost: warning: the data is of target '%s', the model of '%s'\n",
                s.target, in->target);

    size_t m = 0;
    int exit_code = EXIT_OK;
    oc_score *sc = oc_score_new(by, list_samples);
    if (!sc) {
        cli_error("out of memory");
        exit_code = EXIT_IO;
        goto out;
    }
    if (oc_score_split(sc, tm, &s, split, 0, &m, &err) != OC_OK) {
        exit_code = cli_fail(&err, 0);
        goto out;
    }
    if (m == 0) {
        cli_error("eval: %s: no samples of the %s split (%zu samples read)",
                  argc - optind == 1 ? argv[optind] : "the datasets",
                  split < 0 ? "requested" : split == OC_SPLIT_TEST ? "test"
                                            : split == OC_SPLIT_VAL ? "validation"
                                                                    : "training",
                  s.n);
        exit_code = EXIT_INPUT;
        goto out;
    }

    const char *split_name = split < 0 ? "all" : split == OC_SPLIT_TEST ? "test"
                                             : split == OC_SPLIT_VAL    ? "val"
                                                                        : "train";
    if (fmt == FMT_JSON) {
        json_t *j = json_object();
        json_object_set_new(j, "timing_model", json_string(model_path));
        json_object_set_new(j, "target", json_string(in->target));
        json_object_set_new(j, "split", json_string(split_name));
        json_object_set_new(j, "samples", json_integer((json_int_t)m));
        json_object_set_new(j, "groups", oc_score_json(sc));
        if (list_samples)
            json_object_set_new(j, "predictions", oc_score_predictions(sc));
        exit_code = cli_json_print(j);
        goto out;
    }
    printf("timing model %s (target %s, %d member(s)), %s split: %zu samples\n", model_path,
           in->target, in->ensemble, split_name, m);
    printf("absolute percentage error: median / mean\n\n");
    oc_score_table(sc, stdout);
out:
    oc_score_free(sc);
    oc_train_set_free(&s);
    oc_tmodel_free(tm);
    return exit_code;
}
