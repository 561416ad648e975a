/* cmd_predict.c - onnxcost predict MODEL */
#include "cli/cli.h"
#include "predictor/estimate.h"
#include "predictor/memory.h"
#include "predictor/result.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char predict_help[] =
    "usage: onnxcost predict [options] MODEL\n"
    "\n"
    "Predict the model's inference time, or one training step's, per node and\n"
    "per batch, on the timing model's target (default: the built-in ort-cpu\n"
    "model, ONNX Runtime's CPU provider on the machine it was measured on;\n"
    "with --mode training the built-in torch-cpu model, PyTorch's forward,\n"
    "backward and optimizer step).\n"
    "\n"
    "  -b, --batch N            bind the leading symbolic dim of the inputs\n"
    "                           (default 1)\n"
    "  -i, --input NAME=DIMS    give an input a shape (repeatable)\n"
    CLI_DIM_HELP
    CLI_STRICT_HELP
    "  -T, --threads N          intra-op threads (default: the model's)\n"
    "  -m, --target SPEC        ort-cpu or torch-cpu (built-in), NAME@MACHINE\n"
    "                           ('onnxcost targets'), or a file: a calibration\n"
    "                           or a timing model ('--timing-model' too).\n"
    "                           Repeat it to compare targets side by side\n"
    "      --mode MODE          inference (default) or training\n"
    "      --optimizer NAME     training: sgd (default; momentum) or adam\n"
    "  -B, --baseline NAME      report this baseline as the time: linear\n"
    "                           (a*FLOPs + b, fitted on the same data) or\n"
    "                           roofline (max(FLOPs/peak, bytes/bandwidth))\n"
    "  -D, --dataset-size N     samples per epoch: prints the epoch time,\n"
    "                           ceil(N / batch) x batch time\n"
    "  -E, --epochs N           epochs (with --dataset-size; default 1)\n"
    "  -f, --format FMT         table (default) or json\n"
    "  -t, --top N              table: only the N slowest nodes (default 25)\n"
    "      --by WHAT            table rows: node (default) or kernel (what the\n"
    "                           runtime runs, with the nodes each one covers)\n"
    "      --nchwc-block N      plan for a CPU whose NCHWc block is N: 8 (AVX2),\n"
    "                           16 (AVX-512) or 0 (none: not x86); default this\n"
    "                           machine's\n"
    "  -h, --help               this text\n"
    "\n"
    "Nodes the runtime fuses into another kernel (a Relu after a Conv), folds\n"
    "from constants or removes (Identity) cost 0 and name the kernel that runs\n"
    "them. JSON lists the kernels in run order ('kernels'), named as ONNX\n"
    "Runtime's profiler names them ('onnxcost compare' checks them against a\n"
    "profile). A kernel's range is the spread of the model's ensemble; the\n"
    "whole model's reaches at least as far as the timing model's errors on\n"
    "architectures no fit had seen (its central 85%, when the model carries\n"
    "it: bench/fit_range.py). A node whose\n"
    "shapes stay unknown (data-dependent sizes: NonZero, NonMaxSuppression,\n"
    "Unique; operators without a shape rule) is not counted: the rest is\n"
    "predicted and the node marked ('unknown' in JSON). An If, Loop or Scan\n"
    "runs its subgraph's kernels: an If whose condition is constant when the\n"
    "session is created is replaced by its branch (its kernels listed in its\n"
    "place), a kept If, Loop or Scan lists them under its own 'kernels' with\n"
    "'times' (the trip count); an unknown branch or trip count is not\n"
    "counted. Training memory is the weights, their gradients, the\n"
    "optimizer's state and the activations kept for the backward pass (an\n"
    "estimate from the graph).\n";

typedef struct popts {
    analyze_args aa;
    int64_t threads, dataset_size, epochs, top;
    const char *targets[8];
    size_t n_targets;
    const char *baseline;
    out_format fmt;
    cli_mode mode;
    bool by_kernel;
    int64_t nchwc_block; /* -1: this machine's */
} popts;

static int parse(int argc, char **argv, popts *p)
{
    static const struct option opts[] = {
        {"batch", required_argument, NULL, 'b'},  {"input", required_argument, NULL, 'i'},
        {"threads", required_argument, NULL, 'T'}, {"timing-model", required_argument, NULL, 'm'},
        {"target", required_argument, NULL, 'm'},
        {"baseline", required_argument, NULL, 'B'}, {"dataset-size", required_argument, NULL, 'D'},
        {"epochs", required_argument, NULL, 'E'},  {"format", required_argument, NULL, 'f'},
        {"top", required_argument, NULL, 't'},     {"help", no_argument, NULL, 'h'},
        {"mode", required_argument, NULL, 'o'},    {"optimizer", required_argument, NULL, 'O'},
        {"by", required_argument, NULL, 'y'},      {"nchwc-block", required_argument, NULL, 'n'},
        CLI_DIM_OPTIONS,                           {NULL, 0, NULL, 0}};
    memset(p, 0, sizeof *p);
    p->aa.opts.batch = 1;
    p->epochs = 1;
    p->top = 25;
    p->nchwc_block = -1;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:i:T:m:B:D:E:f:t:h", opts, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'b': rc = cli_parse_i64("--batch", optarg, 1, (int64_t)1 << 32, &p->aa.opts.batch); break;
        case 'i': rc = cli_parse_input(&p->aa, optarg); break;
        case CLI_OPT_DIM: rc = cli_parse_dim(&p->aa, optarg); break;
        case CLI_OPT_ASSUME: rc = cli_parse_assume(&p->aa, optarg); break;
        case CLI_OPT_STRICT: p->aa.strict = true; break;
        case 'T': rc = cli_parse_i64("--threads", optarg, 1, 256, &p->threads); break;
        case 'm':
            if (p->n_targets == sizeof p->targets / sizeof p->targets[0]) {
                cli_error("--target: at most %zu targets", p->n_targets);
                rc = EXIT_USAGE;
            } else {
                p->targets[p->n_targets++] = optarg;
            }
            break;
        case 'B':
            if (strcmp(optarg, "linear") && strcmp(optarg, "roofline")) {
                cli_error("--baseline: '%s' is not one of linear, roofline", optarg);
                rc = EXIT_USAGE;
            }
            p->baseline = optarg;
            break;
        case 'D': rc = cli_parse_i64("--dataset-size", optarg, 1, INT64_MAX / 2, &p->dataset_size); break;
        case 'E': rc = cli_parse_i64("--epochs", optarg, 1, 1000000, &p->epochs); break;
        case 'f': rc = cli_parse_format(optarg, &p->fmt, 0); break;
        case 't': rc = cli_parse_i64("--top", optarg, 1, INT32_MAX, &p->top); break;
        case 'o': rc = cli_parse_mode(optarg, &p->mode); break;
        case 'O': rc = cli_parse_optimizer(optarg, &p->mode); break;
        case 'y':
            if (strcmp(optarg, "node") && strcmp(optarg, "kernel")) {
                cli_error("--by: '%s' is not one of node, kernel", optarg);
                rc = EXIT_USAGE;
            }
            p->by_kernel = !strcmp(optarg, "kernel");
            break;
        case 'n':
            rc = cli_parse_nchwc_block(optarg, &p->nchwc_block);
            break;
        case 'h': fputs(predict_help, stdout); return -1;
        default: return cli_bad_option("predict", argv, "b:i:T:m:B:D:E:f:t:h");
        }
        if (rc)
            return EXIT_USAGE;
    }
    if (optind != argc - 1) {
        cli_error("predict: expected exactly one MODEL (see 'onnxcost predict --help')");
        return EXIT_USAGE;
    }
    return cli_mode_resolve(&p->mode);
}

static const oc_estimate *sort_e;
static const popts *sort_p;
static int by_time(const void *x, const void *y)
{
    double a = oc_baseline_node_us(sort_e, sort_p->baseline, *(const size_t *)x);
    double b = oc_baseline_node_us(sort_e, sort_p->baseline, *(const size_t *)y);
    return a < b ? 1 : a > b ? -1 : 0;
}

/* A row of --by kernel: kernel q of estimate e (the main graph's, or the
 * branch of an If the runtime inlined), named as the runtime names it. */
typedef struct krow {
    const oc_estimate *e;
    size_t q;
    char name[512];
} krow;

static double krow_us(const krow *r)
{
    const oc_kernel *k = &r->e->plan.kernels[r->q];
    return k->main == OC_PLAN_INSERTED ? 0 : r->e->node_us[k->main];
}

static int by_kernel_time(const void *x, const void *y)
{
    double ta = krow_us(x), tb = krow_us(y);
    return ta < tb ? 1 : ta > tb ? -1 : 0;
}

typedef struct krows {
    krow *r;
    size_t n, cap;
} krows;

static bool krow_add(const oc_estimate *e, size_t q, const char *name, const char *from,
                     void *ud)
{
    (void)from;
    krows *rs = ud;
    if (rs->n == rs->cap)
        return false;
    krow *r = &rs->r[rs->n++];
    r->e = e;
    r->q = q;
    snprintf(r->name, sizeof r->name, "%s", name);
    return true;
}

/* --by kernel: the kernels the runtime runs (oc_estimate_each_kernel),
 * slowest first; an If, Loop or Scan it keeps is one row, with the time of
 * what runs inside it. */
static void kernel_rows(const oc_estimate *e, const popts *p, double share_of)
{
    krows rs = {NULL, 0, oc_estimate_n_kernels(e)};
    if (!(rs.r = malloc((rs.cap + 1) * sizeof *rs.r)))
        return;
    oc_estimate_each_kernel(e, krow_add, &rs);
    krow *rows = rs.r;
    size_t n = rs.n;
    qsort(rows, n, sizeof *rows, by_kernel_time);
    printf("%-34s %-22s %6s %10s %20s %7s\n", "kernel", "op", "nodes", "time", "range",
           "share");
    for (size_t r = 0; r < n && r < (size_t)p->top; r++) {
        const oc_estimate *ke = rows[r].e;
        const oc_kernel *k = &ke->plan.kernels[rows[r].q];
        char b1[32], b2[32], b3[32], range[80], op[64];
        bool ins = k->main == OC_PLAN_INSERTED;
        double us = krow_us(&rows[r]);
        snprintf(range, sizeof range, "%s-%s",
                 oc_fmt_time(ins ? 0 : ke->node_low_us[k->main], b2, sizeof b2),
                 oc_fmt_time(ins ? 0 : ke->node_high_us[k->main], b3, sizeof b3));
        if (ke->kernel_sub[rows[r].q])
            snprintf(op, sizeof op, "%s x%lld", k->op, (long long)ke->kernel_times[rows[r].q]);
        else
            snprintf(op, sizeof op, "%s", k->op);
        printf("%-34.34s %-22.22s %6zu %10s %20s %6.1f%%\n", oc_fmt_tail(rows[r].name, 34), op,
               ins ? (size_t)0 : 1 + k->n_fused,
               ins ? "(in op)" : oc_fmt_time(us, b1, sizeof b1), ins ? "" : range,
               share_of > 0 ? 100 * us / share_of : 0);
    }
    free(rows);
}

static int predict_table(const oc_model *m, const oc_analysis *a, const oc_estimate *e,
                         const popts *p, const oc_tmodel *tm, const cli_target *tgt)
{
    const oc_graph *g = oc_model_graph(m);
    size_t *order = malloc((g->n_nodes + 1) * sizeof *order);
    if (!order)
        return EXIT_IO;
    for (size_t i = 0; i < g->n_nodes; i++)
        order[i] = i;
    sort_e = e;
    sort_p = p;
    qsort(order, g->n_nodes, sizeof *order, by_time);
    double total = oc_baseline_total_us(e, p->baseline);
    /* shares of what the listed times add up to: they are as profiled,
     * with the profiler's cost per kernel that the total leaves out */
    double share_of = total + (p->baseline ? 0 : e->profiler_us);
    char b1[32], b2[32], b3[32], b4[32], s[256];
    cli_print_target(tm, tgt, &p->mode);
    if (p->baseline)
        printf("showing the %s baseline, not the timing model\n", p->baseline);
    if (p->by_kernel)
        kernel_rows(e, p, share_of);
    else
        printf("%-34s %-18s %-20s %10s %20s %7s\n", "node", "op", "output", "time",
               "range", "share");
    size_t shown = (size_t)p->top < g->n_nodes ? (size_t)p->top : g->n_nodes;
    if (p->by_kernel)
        shown = 0;
    for (size_t k = 0; k < shown; k++) {
        size_t i = order[k];
        if (oc_baseline_node_us(e, p->baseline, i) <= 0)
            break;
        const oc_node *n = &g->nodes[i];
        s[0] = '\0';
        if (n->n_outputs && n->outputs[0] >= 0)
            oc_fmt_shape(oc_analysis_value(a, n->outputs[0]), s, sizeof s);
        const oc_kernel *kn = &e->plan.kernels[e->plan.kernel_of[i]];
        char op[64];
        snprintf(op, sizeof op, "%s%s", kn->as_op ? kn->as_op : n->op,
                 kn->n_fused && !kn->as_op ? "+" : "");
        char range[80];
        snprintf(range, sizeof range, "%s-%s", oc_fmt_time(e->node_low_us[i], b2, sizeof b2),
                 oc_fmt_time(e->node_high_us[i], b3, sizeof b3));
        printf("%-34.34s %-18.18s %-20.20s %10s %20s %6.1f%%\n", oc_fmt_tail(n->name, 34), op, s,
               oc_fmt_time(oc_baseline_node_us(e, p->baseline, i), b1, sizeof b1), p->baseline ? "" : range,
               share_of > 0 ? 100 * oc_baseline_node_us(e, p->baseline, i) / share_of : 0);
    }
    free(order);
    if (e->n_uncounted_nodes && !p->by_kernel) {
        printf("not counted (shapes unknown, or no kernel to run them):\n");
        size_t shown_u = 0;
        for (size_t k = 0; k < g->n_nodes && shown_u < (size_t)p->top; k++) {
            size_t i = (size_t)g->topo[k];
            if (!e->node_unknown[i])
                continue;
            printf("  %-34.34s %-18.18s %s\n", oc_fmt_tail(g->nodes[i].name, 34), g->nodes[i].op,
                   e->node_unknown[i]);
            shown_u++;
        }
        if (shown_u < e->n_uncounted_nodes)
            printf("  ... %zu more\n", e->n_uncounted_nodes - shown_u);
    }
    const oc_totals *t = oc_analysis_totals(a);
    int64_t batch = oc_analysis_batch(a);
    printf("\n%s %lld: %s (range %s to %s), %llu kernels for %llu nodes, "
           "overhead %s\n",
           p->mode.training ? "training step, batch" : "batch", (long long)batch,
           oc_fmt_time(total, b1, sizeof b1),
           oc_fmt_time(e->total_low_us, b2, sizeof b2), oc_fmt_time(e->total_high_us, b3, sizeof b3),
           (unsigned long long)(e->plan.n_run + e->n_inner_run), (unsigned long long)t->nodes,
           oc_fmt_time(e->overhead_us, b4, sizeof b4));
    if (e->profiler_us > 0)
        printf("kernel times as profiled, less ONNX Runtime's profiler cost per kernel, "
               "which a run has not: %s\n",
               oc_fmt_time(e->profiler_us, b1, sizeof b1));
    if (e->output_us > 0)
        printf("of which handing back the large outputs (%s): %s\n",
               oc_fmt_bytes((double)e->output_fresh_bytes, b1, sizeof b1),
               oc_fmt_time(e->output_us, b2, sizeof b2));
    oc_train_memory mem = {0};
    if (p->mode.training)
        oc_training_memory(a, &e->plan, p->mode.optimizer, &mem);
    if (e->fault_us > 0) {
        printf("of which page faults: %s a step that glibc's malloc takes afresh from the "
               "kernel: %s\n",
               oc_fmt_bytes((double)mem.fresh, b1, sizeof b1),
               oc_fmt_time(e->fault_us, b2, sizeof b2));
        /* glibc's tunables by environment (mallopt(3)): no mmap, no trim */
        if (e->fault_us >= 0.1 * total)
            printf("  a process that keeps freed memory (MALLOC_MMAP_MAX_=0 "
                   "MALLOC_TRIM_THRESHOLD_=18446744073709551615 in its environment) "
                   "skips them: %s a step\n",
                   oc_fmt_time(total - e->fault_us, b1, sizeof b1));
    }
    if (e->n_uncounted_nodes)
        printf("not counted: %zu nodes (%zu kernels), for the reasons above: the time is "
               "for the rest\n",
               e->n_uncounted_nodes, e->n_uncounted);
    printf("throughput: %.1f samples/s; %s, peak activations %s\n",
           total > 0 ? batch * 1e6 / total : 0.0, oc_fmt_si((double)t->macs, "MAC", b1, sizeof b1),
           oc_fmt_bytes((double)t->peak_activation_bytes, b2, sizeof b2));
    if (p->mode.training) {
        char b5[32];
        printf("training memory: %s = weights %s + gradients %s + optimizer state %s + "
               "saved activations %s\n",
               oc_fmt_bytes((double)mem.total, b1, sizeof b1),
               oc_fmt_bytes((double)mem.weights, b2, sizeof b2),
               oc_fmt_bytes((double)mem.gradients, b3, sizeof b3),
               oc_fmt_bytes((double)mem.optimizer_state, b4, sizeof b4),
               oc_fmt_bytes((double)mem.activations, b5, sizeof b5));
    }
    printf("baselines: linear-FLOPs %s, roofline %s\n",
           oc_fmt_time(e->linear_us + e->overhead_us, b1, sizeof b1),
           oc_fmt_time(e->roofline_us + e->overhead_us, b2, sizeof b2));
    if (p->dataset_size) {
        int64_t steps = (p->dataset_size + batch - 1) / batch;
        printf("epoch: %lld batches x %s = %s; %lld epochs: %s\n", (long long)steps,
               oc_fmt_time(total, b1, sizeof b1), oc_fmt_time(steps * total, b2, sizeof b2),
               (long long)p->epochs, oc_fmt_time(p->epochs * steps * total, b3, sizeof b3));
    }
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_IO;
}

/* predict --target A --target B ...: one row per target. */
static int predict_compare(const popts *p, const char *path)
{
    oc_model *m;
    int rc = cli_load(path, &m);
    if (rc)
        return rc;
    oc_error err;
    oc_error_clear(&err);
    oc_analysis *a = NULL;
    if (oc_analyze(m, &p->aa.opts, &a, &err) != OC_OK) {
        oc_model_free(m);
        return cli_fail(&err, 1);
    }
    if ((rc = cli_check_bound(&p->aa, a))) {
        oc_analysis_free(a);
        oc_model_free(m);
        return rc;
    }
    json_t *arr = json_array();
    int64_t batch = oc_analysis_batch(a);
    if (p->fmt != FMT_JSON)
        printf("%-40s %-8s %10s %22s %12s %10s  %s\n", "target", "threads", "time", "range",
               "samples/s", "memory", "machine");
    for (size_t k = 0; k < p->n_targets && !rc; k++) {
        oc_tmodel *tm = NULL;
        oc_overhead ov = {.kernel_scale = 1};
        cli_target tgt;
        if ((rc = cli_load_tmodel(p->targets[k], p->threads, &p->mode, &tm, &ov, &tgt)))
            break;
        if (p->nchwc_block >= 0)
            oc_tmodel_set_nchwc_block(tm, p->nchwc_block ? (int)p->nchwc_block : OC_NCHWC_NONE);
        oc_arena *ar = oc_arena_new();
        oc_estimate e;
        if (!ar || oc_estimate_run(a, tm, &ov, &e, ar, &err) != OC_OK) {
            rc = ar ? cli_fail(&err, 1) : EXIT_IO;
        } else if (k == 0 && (rc = cli_check_uncounted(&p->aa, a, &e))) {
            /* the same nodes for every target: said once */
        } else {
            double total = oc_baseline_total_us(&e, p->baseline);
            uint64_t mem = oc_step_memory(a, &e.plan, p->mode.optimizer);
            const oc_tmodel_info *info = oc_tmodel_get_info(tm);
            if (p->fmt == FMT_JSON) {
                json_t *o = json_object();
                json_object_set_new(o, "spec", json_string(p->targets[k]));
                json_object_set_new(o, "target", oc_json_target(tm, &tgt, p->mode.optimizer));
                json_object_set_new(o, "time_ms", json_real(total / 1e3));
                json_object_set_new(o, "time_ms_low", json_real(e.total_low_us / 1e3));
                json_object_set_new(o, "time_ms_high", json_real(e.total_high_us / 1e3));
                json_object_set_new(o, "throughput_per_s",
                                    json_real(total > 0 ? batch * 1e6 / total : 0));
                json_object_set_new(o, "memory_bytes", json_integer((json_int_t)mem));
                json_object_set_new(o, "kernels", json_integer((json_int_t)(e.plan.n_run + e.n_inner_run)));
                json_object_set_new(o, "uncounted_nodes",
                                    json_integer((json_int_t)e.n_uncounted_nodes));
                json_array_append_new(arr, o);
            } else {
                char b1[32], b2[32], b3[32], b4[32], range[80], th[16];
                snprintf(range, sizeof range, "%s-%s",
                         oc_fmt_time(e.total_low_us, b2, sizeof b2),
                         oc_fmt_time(e.total_high_us, b3, sizeof b3));
                snprintf(th, sizeof th, "%d", info->threads);
                printf("%-40.40s %-8s %10s %22s %12.1f %10s  %s\n", p->targets[k], th,
                       oc_fmt_time(total, b1, sizeof b1), range,
                       total > 0 ? batch * 1e6 / total : 0.0,
                       oc_fmt_bytes((double)mem, b4, sizeof b4), tgt.label);
            }
        }
        oc_arena_free(ar);
        oc_tmodel_free(tm);
    }
    if (!rc && p->fmt == FMT_JSON) {
        json_t *j = json_object();
        json_object_set_new(j, "model", oc_json_model(m));
        json_object_set_new(j, "batch", json_integer(batch));
        json_object_set_new(j, "unbound_dims", oc_json_list(oc_analysis_assumed(a)));
        json_object_set_new(j, "data_dims", oc_json_list(oc_analysis_unknown_dims(a)));
        json_object_set_new(j, "mode", json_string(cli_mode_name(&p->mode)));
        json_object_set_new(j, "targets", arr);
        arr = NULL;
        rc = cli_json_print(j);
    } else if (!rc) {
        printf("\nbatch %lld%s\n", (long long)batch,
               p->mode.training ? ", training step" : "");
        rc = fflush(stdout) == 0 ? EXIT_OK : EXIT_IO;
    }
    json_decref(arr);
    oc_analysis_free(a);
    oc_model_free(m);
    return rc;
}

int cmd_predict(int argc, char **argv)
{
    popts p;
    int rc = parse(argc, argv, &p);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (p.n_targets > 1)
        return predict_compare(&p, argv[optind]);
    oc_error err;
    oc_error_clear(&err);
    oc_tmodel *tm = NULL;
    oc_overhead ov = {.kernel_scale = 1};
    cli_target tgt;
    rc = cli_load_tmodel(p.n_targets ? p.targets[0] : NULL, p.threads, &p.mode, &tm, &ov, &tgt);
    if (rc)
        return rc;
    if (p.nchwc_block >= 0)
        oc_tmodel_set_nchwc_block(tm, p.nchwc_block ? (int)p.nchwc_block : OC_NCHWC_NONE);
    oc_model *m;
    if ((rc = cli_load(argv[optind], &m))) {
        oc_tmodel_free(tm);
        return rc;
    }
    oc_analysis *a = NULL;
    oc_arena *ar = oc_arena_new();
    oc_estimate e;
    if (oc_analyze(m, &p.aa.opts, &a, &err) != OC_OK ||
        oc_estimate_run(a, tm, &ov, &e, ar, &err) != OC_OK) {
        rc = cli_fail(&err, 1);
    } else {
        for (size_t i = 0; i < oc_analysis_n_warnings(a) && i < 20; i++) {
            const oc_warning *w = oc_analysis_warning(a, i);
            fprintf(stderr, "onnxcost: warning: node '%s': %s\n", w->node, w->msg);
        }
        if (!(rc = cli_check_bound(&p.aa, a)) && !(rc = cli_check_uncounted(&p.aa, a, &e)))
            rc = p.fmt == FMT_JSON ? cli_json_print(oc_json_predict(m, a, &e, p.baseline, p.mode.optimizer, p.dataset_size, p.epochs, tm, &tgt))
                                   : predict_table(m, a, &e, &p, tm, &tgt);
    }
    oc_arena_free(ar);
    oc_analysis_free(a);
    oc_model_free(m);
    oc_tmodel_free(tm);
    return rc;
}
