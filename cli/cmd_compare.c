/* cmd_compare.c - onnxcost compare MODEL PROFILE.json
 *
 * The plan's kernels (oc_json_kernels, named as ONNX Runtime names them)
 * against the kernels of an ONNX Runtime profile: median time per kernel
 * over the profile's runs, matched by name, then by op in run order. */
#include "cli/cli.h"
#include "predictor/estimate.h"
#include "report/profile.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A profile larger than this is refused: jansson holds the whole tree,
 * several times the text. */

static const char compare_help[] =
    "usage: onnxcost compare [options] MODEL PROFILE.json\n"
    "\n"
    "Compare the predicted time of each kernel with what ONNX Runtime measured:\n"
    "PROFILE.json is the profile of a session of MODEL (enableProfiling), with\n"
    "one or more runs. The measured time of a kernel is its median over the\n"
    "runs, the measured run time the median 'model_run'. Kernels are matched\n"
    "by name, then by op in run order (inserted reorders are matched by op).\n"
    "\n"
    "  -b, --batch N            bind the leading symbolic dim of the inputs\n"
    "                           (default 1; use the batch the profile ran)\n"
    "  -i, --input NAME=DIMS    give an input a shape (repeatable)\n"
    CLI_DIM_HELP
    "  -T, --threads N          intra-op threads (default: the model's)\n"
    "  -m, --target SPEC        as for predict (default: the built-in ort-cpu)\n"
    "      --nchwc-block N      plan for a CPU whose NCHWc block is N: 8, 16 or\n"
    "                           0 (default: this machine's)\n"
    "  -f, --format FMT         table (default) or json\n"
    "  -t, --top N              table: the N matched kernels with the largest\n"
    "                           |predicted - measured| (default 25)\n"
    "  -h, --help               this text\n"
    "\n"
    "Table columns: predicted and measured time of the kernel, and their ratio\n"
    "(predicted / measured). Inserted reorders are costed inside the blocked\n"
    "op ('in op'). The totals compare the kernels' sums and the run time\n"
    "(prediction with overhead vs the median model_run).\n";

typedef struct copts {
    analyze_args aa;
    int64_t threads, top, nchwc_block;
    const char *target;
    out_format fmt;
    cli_mode mode;
} copts;

static int parse(int argc, char **argv, copts *p)
{
    static const struct option opts[] = {
        {"batch", required_argument, NULL, 'b'},   {"input", required_argument, NULL, 'i'},
        {"threads", required_argument, NULL, 'T'}, {"target", required_argument, NULL, 'm'},
        {"format", required_argument, NULL, 'f'},  {"top", required_argument, NULL, 't'},
        {"nchwc-block", required_argument, NULL, 'n'}, {"help", no_argument, NULL, 'h'},
        {"dim", required_argument, NULL, CLI_OPT_DIM},
        {"assume", required_argument, NULL, CLI_OPT_ASSUME},
        {NULL, 0, NULL, 0}};
    memset(p, 0, sizeof *p);
    p->aa.opts.batch = 1;
    p->top = 25;
    p->nchwc_block = -1;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:i:T:m:f:t:h", opts, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'b': rc = cli_parse_i64("--batch", optarg, 1, (int64_t)1 << 32, &p->aa.opts.batch); break;
        case 'i': rc = cli_parse_input(&p->aa, optarg); break;
        case CLI_OPT_DIM: rc = cli_parse_dim(&p->aa, optarg); break;
        case CLI_OPT_ASSUME: rc = cli_parse_assume(&p->aa, optarg); break;
        case 'T': rc = cli_parse_i64("--threads", optarg, 1, 256, &p->threads); break;
        case 'm': p->target = optarg; break;
        case 'f': rc = cli_parse_format(optarg, &p->fmt, 0); break;
        case 't': rc = cli_parse_i64("--top", optarg, 1, INT32_MAX, &p->top); break;
        case 'n':
            rc = cli_parse_nchwc_block(optarg, &p->nchwc_block);
            break;
        case 'h': fputs(compare_help, stdout); return -1;
        default: return cli_bad_option("compare", argv, "b:i:T:m:f:t:h");
        }
        if (rc)
            return EXIT_USAGE;
    }
    if (optind != argc - 2) {
        cli_error("compare: expected MODEL and PROFILE.json (see 'onnxcost compare --help')");
        return EXIT_USAGE;
    }
    return cli_mode_resolve(&p->mode);
}

typedef struct result {
    const copts *o;
    const char *model, *profile_path;
    const oc_model *m;
    const oc_analysis *a;
    const oc_profile *pf;
    oc_planned *pl;
    size_t np;
    size_t matched;
    double pred_sum, meas_sum, pred_total;
} result;

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static double err_pct(double pred, double meas)
{
    return meas > 0 ? 100 * (pred - meas) / meas : 0;
}

static const result *sort_r;
static int by_abs_diff(const void *x, const void *y)
{
    const oc_planned *a = &sort_r->pl[*(const size_t *)x], *b = &sort_r->pl[*(const size_t *)y];
    double da = fabs(a->us - sort_r->pf->k[a->match].us);
    double db = fabs(b->us - sort_r->pf->k[b->match].us);
    if (da != db)
        return da < db ? 1 : -1;
    return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

/* "Conv 3, ReorderInput 1" over the unmatched of one side, then the first
 * few names. */
static void unmatched_line(const char *label, const char *const *name, const char *const *op,
                           size_t n)
{
    printf("%s: %zu kernel%s", label, n, n == 1 ? "" : "s");
    if (!n) {
        printf("\n");
        return;
    }
    const char **ops = malloc(n * sizeof *ops);
    if (ops) {
        memcpy(ops, op, n * sizeof *ops);
        qsort(ops, n, sizeof *ops, cmp_str);
        printf(" (");
        for (size_t i = 0, j; i < n; i = j) {
            for (j = i; j < n && !strcmp(ops[j], ops[i]); j++)
                ;
            printf("%s%s %zu", i ? ", " : "", ops[i], j - i);
        }
        printf(")");
        free(ops);
    }
    printf(":");
    for (size_t i = 0; i < n && i < 5; i++)
        printf("%s %s", i ? "," : "", oc_fmt_tail(name[i], 60));
    printf("%s\n", n > 5 ? ", ..." : "");
}

static int compare_table(const result *r, const oc_tmodel *tm, const cli_target *tgt)
{
    const oc_profile *pf = r->pf;
    char b1[32], b2[32], b3[32], b4[32];
    cli_print_target(tm, tgt, &r->o->mode);
    printf("model: %s, batch %lld; profile: %s, %zu run%s (median per kernel)\n", r->model,
           (long long)r->o->aa.opts.batch, r->profile_path, pf->runs, pf->runs == 1 ? "" : "s");
    size_t *order = malloc((r->matched + 1) * sizeof *order), n = 0;
    const char **un_name = malloc((r->np + pf->n + 1) * sizeof *un_name);
    const char **un_op = malloc((r->np + pf->n + 1) * sizeof *un_op);
    if (!order || !un_name || !un_op) {
        free(order);
        free(un_name);
        free(un_op);
        cli_error("out of memory");
        return EXIT_IO;
    }
    for (size_t q = 0; q < r->np; q++)
        if (r->pl[q].match >= 0)
            order[n++] = q;
    sort_r = r;
    qsort(order, n, sizeof *order, by_abs_diff);
    printf("matched kernels, the largest |predicted - measured| first:\n");
    printf("%-34s %-18s %10s %10s %7s\n", "kernel", "op", "predicted", "measured", "ratio");
    for (size_t i = 0; i < n && i < (size_t)r->o->top; i++) {
        const oc_planned *k = &r->pl[order[i]];
        double meas = pf->k[k->match].us;
        char ratio[32];
        if (meas <= 0)
            snprintf(ratio, sizeof ratio, "-");
        else
            snprintf(ratio, sizeof ratio, "%.2f", k->us / meas);
        printf("%-34.34s %-18.18s %10s %10s %7s\n", oc_fmt_tail(k->name, 34), k->op,
               oc_fmt_time(k->us, b1, sizeof b1),
               oc_fmt_time(meas, b2, sizeof b2), ratio);
    }
    if (n > (size_t)r->o->top)
        printf("(%zu more matched kernels; --top)\n", n - (size_t)r->o->top);
    printf("\n");
    size_t nu = 0;
    for (size_t q = 0; q < r->np; q++)
        if (r->pl[q].match < 0) {
            un_name[nu] = r->pl[q].name;
            un_op[nu++] = r->pl[q].op;
        }
    unmatched_line("planned only", un_name, un_op, nu);
    nu = 0;
    for (size_t i = 0; i < pf->n; i++)
        if (pf->k[i].match < 0) {
            un_name[nu] = pf->k[i].name;
            un_op[nu++] = pf->k[i].op;
        }
    unmatched_line("ran only", un_name, un_op, nu);
    const char *hint = oc_profile_nchwc_hint(r->pl, r->np, r->pf);
    if (hint)
        printf("hint: %s\n", hint);
    free(order);
    free(un_name);
    free(un_op);
    printf("\nkernels: %zu planned, %zu ran, %zu matched\n", r->np, pf->n, r->matched);
    printf("kernel time: predicted %s, measured %s (%+.1f%%)\n",
           oc_fmt_time(r->pred_sum, b1, sizeof b1), oc_fmt_time(r->meas_sum, b2, sizeof b2),
           err_pct(r->pred_sum, r->meas_sum));
    if (pf->runs)
        printf("run time: predicted %s (with overhead), measured %s (median model_run) "
               "(%+.1f%%)\n",
               oc_fmt_time(r->pred_total, b3, sizeof b3), oc_fmt_time(pf->run_us, b4, sizeof b4),
               err_pct(r->pred_total, pf->run_us));
    else
        printf("run time: predicted %s (with overhead), measured unknown (no model_run "
               "events)\n",
               oc_fmt_time(r->pred_total, b3, sizeof b3));
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_IO;
}

static int compare_json(const result *r, const oc_tmodel *tm, const cli_target *tgt)
{
    const oc_profile *pf = r->pf;
    json_t *j = json_object(), *ks = json_array(), *po = json_array(), *ro = json_array();
    json_object_set_new(j, "model", oc_json_model(r->m));
    json_object_set_new(j, "unbound_dims", oc_json_list(oc_analysis_assumed(r->a)));
    json_object_set_new(j, "data_dims", oc_json_list(oc_analysis_unknown_dims(r->a)));
    json_object_set_new(j, "profile", json_string(r->profile_path));
    json_object_set_new(j, "runs", json_integer((json_int_t)pf->runs));
    json_object_set_new(j, "batch", json_integer(r->o->aa.opts.batch));
    json_object_set_new(j, "target", oc_json_target(tm, tgt, r->o->mode.optimizer));
    for (size_t q = 0; q < r->np; q++) {
        const oc_planned *k = &r->pl[q];
        if (k->match < 0) {
            json_array_append_new(po, json_pack("{s:s, s:s, s:f}", "name", k->name, "op", k->op,
                                                "predicted_us", k->us));
            continue;
        }
        const oc_pkernel *m = &pf->k[k->match];
        json_t *o = json_pack("{s:s, s:s, s:f, s:f, s:I, s:s}", "name", k->name, "op", k->op,
                              "predicted_us", k->us, "measured_us", m->us, "measured_runs",
                              (json_int_t)m->runs, "matched_by", k->by_op ? "op" : "name");
        if (k->by_op)
            json_object_set_new(o, "measured_name", json_string(m->name));
        if (k->inserted)
            json_object_set_new(o, "costed_as", json_string("Transpose"));
        json_array_append_new(ks, o);
    }
    for (size_t i = 0; i < pf->n; i++)
        if (pf->k[i].match < 0)
            json_array_append_new(ro, json_pack("{s:s, s:s, s:f, s:I}", "name", pf->k[i].name,
                                                "op", pf->k[i].op, "measured_us", pf->k[i].us,
                                                "measured_runs", (json_int_t)pf->k[i].runs));
    json_object_set_new(j, "kernels", ks);
    json_object_set_new(j, "planned_only", po);
    json_object_set_new(j, "ran_only", ro);
    json_t *t = json_pack("{s:I, s:I, s:I, s:f, s:f, s:f, s:f}", "kernels_planned",
                          (json_int_t)r->np, "kernels_ran", (json_int_t)pf->n, "kernels_matched",
                          (json_int_t)r->matched, "kernel_time_predicted_us", r->pred_sum,
                          "kernel_time_measured_us", r->meas_sum, "kernel_time_error_pct",
                          err_pct(r->pred_sum, r->meas_sum), "run_time_predicted_us",
                          r->pred_total);
    json_object_set_new(t, "run_time_measured_us",
                        pf->runs ? json_real(pf->run_us) : json_null());
    json_object_set_new(t, "run_time_error_pct",
                        pf->runs ? json_real(err_pct(r->pred_total, pf->run_us)) : json_null());
    json_object_set_new(j, "totals", t);
    const char *hint = oc_profile_nchwc_hint(r->pl, r->np, r->pf);
    if (hint)
        json_object_set_new(j, "hint", json_string(hint));
    return cli_json_print(j);
}

int cmd_compare(int argc, char **argv)
{
    copts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    const char *model_path = argv[optind], *prof_path = argv[optind + 1];
    oc_error err;
    oc_error_clear(&err);
    oc_profile pf;
    if (oc_profile_load(prof_path, &pf, &err)) {
        oc_profile_free(&pf);
        return cli_fail(&err, 0);
    }
    oc_tmodel *tm = NULL;
    oc_overhead ov = {.kernel_scale = 1};
    cli_target tgt;
    oc_model *m = NULL;
    oc_analysis *a = NULL;
    oc_arena *ar = NULL;
    oc_profile_matched mt = {0};
    if ((rc = cli_load_tmodel(o.target, o.threads, &o.mode, &tm, &ov, &tgt)))
        goto out;
    if (o.nchwc_block >= 0)
        oc_tmodel_set_nchwc_block(tm, o.nchwc_block ? (int)o.nchwc_block : OC_NCHWC_NONE);
    if ((rc = cli_load(model_path, &m)))
        goto out;
    oc_estimate e;
    if (!(ar = oc_arena_new())) {
        cli_error("out of memory");
        rc = EXIT_IO;
        goto out;
    }
    if (oc_analyze(m, &o.aa.opts, &a, &err) != OC_OK ||
        oc_estimate_run(a, tm, &ov, &e, ar, &err) != OC_OK) {
        rc = cli_fail(&err, 1);
        goto out;
    }
    for (size_t i = 0; i < oc_analysis_n_warnings(a) && i < 20; i++) {
        const oc_warning *w = oc_analysis_warning(a, i);
        fprintf(stderr, "onnxcost: warning: node '%s': %s\n", w->node, w->msg);
    }
    if ((rc = cli_check_bound(&o.aa, a)))
        goto out;
    if (oc_profile_match(model_path, prof_path, oc_model_graph(m), &e, &pf, &mt, &err)) {
        rc = cli_fail(&err, 0);
        goto out;
    }
    result r = {.o = &o, .model = model_path, .m = m, .a = a, .profile_path = prof_path, .pf = &pf,
                .pl = mt.pl, .np = mt.np, .pred_total = e.total_us, .pred_sum = mt.pred_sum,
                .matched = mt.matched};
    for (size_t i = 0; i < pf.n; i++)
        r.meas_sum += pf.k[i].us;
    rc = o.fmt == FMT_JSON ? compare_json(&r, tm, &tgt) : compare_table(&r, tm, &tgt);
out:
    oc_profile_matched_free(&mt);
    oc_arena_free(ar);
    oc_analysis_free(a);
    oc_model_free(m);
    oc_tmodel_free(tm);
    oc_profile_free(&pf);
    return rc;
}
