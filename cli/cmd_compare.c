/* cmd_compare.c - onnxcost compare MODEL PROFILE.json
 *
 * The plan's kernels (oc_json_kernels, named as ONNX Runtime names them)
 * against the kernels of an ONNX Runtime profile: median time per kernel
 * over the profile's runs, matched by name, then by op in run order. */
#include "cli/cli.h"
#include "predictor/estimate.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A profile larger than this is refused: jansson holds the whole tree,
 * several times the text. */
#define PROFILE_LIMIT ((uint64_t)1 << 30)
#define KERNEL_SUFFIX "_kernel_time"

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

/* ---- the profile ---- */

typedef struct pevent {
    const char *name; /* into the JSON tree, not terminated at len */
    size_t len;
    const char *op;
    double ts, dur, rel; /* rel: ts from the start of its run */
    size_t run, occ;     /* occ: the how-manieth kernel of this name in its run */
} pevent;

/* A kernel of the profile: its events over the runs, reduced. */
typedef struct pkernel {
    char *name;
    const char *op;
    double us, order; /* median dur; position in the run (rel of its first run) */
    size_t runs;
    long match; /* index of the planned kernel, -1 none */
} pkernel;

typedef struct profile {
    json_t *root;
    pevent *ev;
    size_t n_ev;
    pkernel *k;
    size_t n;
    size_t runs;   /* model_run events (0: none, the run time is unknown) */
    double run_us; /* their median dur */
} profile;

static void profile_free(profile *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->k[i].name);
    free(p->k);
    free(p->ev);
    json_decref(p->root);
}

static int cmp_name(const pevent *a, const pevent *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->name, b->name, n);
    return c ? c : a->len < b->len ? -1 : a->len > b->len;
}

static int by_name_run_ts(const void *x, const void *y)
{
    const pevent *a = x, *b = y;
    int c = cmp_name(a, b);
    if (c)
        return c;
    if (a->run != b->run)
        return a->run < b->run ? -1 : 1;
    return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static int by_name_occ_run(const void *x, const void *y)
{
    const pevent *a = x, *b = y;
    int c = cmp_name(a, b);
    if (c)
        return c;
    if (a->occ != b->occ)
        return a->occ < b->occ ? -1 : 1;
    if (a->run != b->run)
        return a->run < b->run ? -1 : 1;
    return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static int by_order(const void *x, const void *y)
{
    const pkernel *a = x, *b = y;
    if (a->order != b->order)
        return a->order < b->order ? -1 : 1;
    return strcmp(a->name, b->name);
}

typedef struct window {
    double ts, dur;
} window;

static int by_ts(const void *x, const void *y)
{
    const window *a = x, *b = y;
    return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static int by_event_ts(const void *x, const void *y)
{
    const pevent *a = x, *b = y;
    return a->ts < b->ts ? -1 : a->ts > b->ts;
}

/* Read and reduce the profile.  Returns 0 or an exit code (message printed). */
static int profile_load(const char *path, profile *p)
{
    memset(p, 0, sizeof *p);
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("%s: cannot open: %s", path, strerror(errno));
        return EXIT_INPUT;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            fclose(f);
            cli_error("%s: is a directory, not a profile", path);
            return EXIT_INPUT;
        }
        if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > PROFILE_LIMIT) {
            fclose(f);
            cli_error("%s: %lld bytes, larger than the limit of 1 GiB for a profile", path,
                      (long long)st.st_size);
            return EXIT_INPUT;
        }
    }
    json_error_t je;
    p->root = json_loadf(f, JSON_DECODE_INT_AS_REAL, &je);
    int rerr = ferror(f);
    fclose(f);
    if (!p->root) {
        if (rerr)
            cli_error("%s: cannot read: %s", path, je.text);
        else
            cli_error("%s: not valid JSON (truncated?): line %d column %d: %s", path, je.line,
                      je.column, je.text);
        return rerr ? EXIT_IO : EXIT_INPUT;
    }
    if (!json_is_array(p->root)) {
        cli_error("%s: not an ONNX Runtime profile (not a JSON array of trace events)", path);
        return EXIT_INPUT;
    }
    size_t n = json_array_size(p->root), nw = 0;
    window *w = malloc((n + 1) * sizeof *w);
    p->ev = malloc((n + 1) * sizeof *p->ev);
    if (!w || !p->ev) {
        free(w);
        cli_error("%s: out of memory", path);
        return EXIT_IO;
    }
    size_t sl = strlen(KERNEL_SUFFIX);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(p->root, i);
        const char *cat = json_string_value(json_object_get(e, "cat"));
        const char *name = json_string_value(json_object_get(e, "name"));
        json_t *dur = json_object_get(e, "dur"), *ts = json_object_get(e, "ts");
        if (!cat || !name || !json_is_number(dur) || !json_is_number(ts))
            continue;
        if (!strcmp(cat, "Session") && !strcmp(name, "model_run")) {
            w[nw++] = (window){json_number_value(ts), json_number_value(dur)};
            continue;
        }
        size_t len = json_string_length(json_object_get(e, "name"));
        if (strcmp(cat, "Node") || len < sl || memcmp(name + len - sl, KERNEL_SUFFIX, sl))
            continue;
        const char *op = json_string_value(json_object_get(json_object_get(e, "args"), "op_name"));
        p->ev[p->n_ev++] = (pevent){name, len - sl, op ? op : "?", json_number_value(ts),
                                    json_number_value(dur), 0, 0, 0};
    }
    if (!p->n_ev) {
        free(w);
        cli_error("%s: not an ONNX Runtime profile (no kernel events: \"cat\": \"Node\", "
                  "\"name\": \"..._kernel_time\")",
                  path);
        return EXIT_INPUT;
    }
    /* A kernel belongs to the run whose window holds it (collector/ort_bench.js);
     * without model_run events all of them are one run, and kernels of one name
     * are one kernel. */
    p->runs = nw;
    if (nw) {
        qsort(w, nw, sizeof *w, by_ts);
        qsort(p->ev, p->n_ev, sizeof *p->ev, by_event_ts);
        size_t r = 0, keep = 0;
        for (size_t i = 0; i < p->n_ev; i++) {
            pevent *e = &p->ev[i];
            while (r < nw && e->ts > w[r].ts + w[r].dur)
                r++;
            if (r >= nw)
                break;
            if (e->ts < w[r].ts)
                continue;
            e->run = r;
            e->rel = e->ts - w[r].ts;
            p->ev[keep++] = *e;
        }
        p->n_ev = keep;
        double *d = malloc(nw * sizeof *d);
        if (!d) {
            free(w);
            cli_error("%s: out of memory", path);
            return EXIT_IO;
        }
        for (size_t i = 0; i < nw; i++)
            d[i] = w[i].dur;
        p->run_us = oc_median(d, nw);
        free(d);
        qsort(p->ev, p->n_ev, sizeof *p->ev, by_name_run_ts);
        for (size_t i = 0; i < p->n_ev; i++)
            p->ev[i].occ = i && !cmp_name(&p->ev[i], &p->ev[i - 1]) &&
                                   p->ev[i].run == p->ev[i - 1].run
                               ? p->ev[i - 1].occ + 1
                               : 0;
    } else {
        for (size_t i = 0; i < p->n_ev; i++)
            p->ev[i].rel = p->ev[i].ts;
    }
    free(w);
    if (!p->n_ev) {
        cli_error("%s: no kernel event lies inside a model_run", path);
        return EXIT_INPUT;
    }
    qsort(p->ev, p->n_ev, sizeof *p->ev, by_name_occ_run);
    p->k = calloc(p->n_ev, sizeof *p->k);
    double *d = malloc(p->n_ev * sizeof *d);
    if (!p->k || !d) {
        free(d);
        cli_error("%s: out of memory", path);
        return EXIT_IO;
    }
    for (size_t i = 0, j; i < p->n_ev; i = j) {
        for (j = i; j < p->n_ev && !cmp_name(&p->ev[j], &p->ev[i]) &&
                    p->ev[j].occ == p->ev[i].occ;
             j++)
            d[j - i] = p->ev[j].dur;
        pkernel *k = &p->k[p->n];
        if (!(k->name = malloc(p->ev[i].len + 1))) {
            free(d);
            cli_error("%s: out of memory", path);
            return EXIT_IO;
        }
        p->n++;
        memcpy(k->name, p->ev[i].name, p->ev[i].len);
        k->name[p->ev[i].len] = '\0';
        k->op = p->ev[i].op;
        k->us = oc_median(d, j - i);
        k->runs = j - i;
        k->order = p->ev[i].rel;
        k->match = -1;
    }
    free(d);
    qsort(p->k, p->n, sizeof *p->k, by_order);
    return 0;
}

/* ---- the plan ---- */

typedef struct planned {
    const char *name, *op;
    double us;
    bool inserted; /* a reorder the runtime inserts: matched by op (its name is ORT's) */
    long match;    /* index of the profiled kernel, -1 none */
    bool by_op;
} planned;

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Sort keys for the matching: index arrays over one side's kernels. */
static const pkernel *sort_pk;
static int pk_by_name(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    int c = strcmp(sort_pk[a].name, sort_pk[b].name);
    return c ? c : a < b ? -1 : a > b;
}
static int pk_by_op(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    int c = strcmp(sort_pk[a].op, sort_pk[b].op);
    return c ? c : a < b ? -1 : a > b;
}

/* First index in idx[0..n) (sorted by key) whose key is >= s. */
static size_t lower(const size_t *idx, size_t n, const char *s, bool op)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const pkernel *k = &sort_pk[idx[mid]];
        if (strcmp(op ? k->op : k->name, s) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Match pl[] and pk[]: by exact name (a planned reorder's name is the op,
 * ORT numbers its copies: those go by op), then the rest by op, each side
 * in run order.  Returns the number of pairs, or -1 out of memory. */
static long match(planned *pl, size_t np, pkernel *pk, size_t nk)
{
    size_t *idx = malloc((nk + 1) * sizeof *idx), *next = malloc((nk + 1) * sizeof *next);
    long pairs = -1;
    if (!idx || !next)
        goto out;
    pairs = 0;
    sort_pk = pk;
    for (int pass = 0; pass < 2; pass++) {
        bool op = pass == 1;
        for (size_t i = 0; i < nk; i++)
            idx[i] = next[i] = i;
        qsort(idx, nk, sizeof *idx, op ? pk_by_op : pk_by_name);
        for (size_t q = 0; q < np; q++) {
            if (pl[q].match >= 0 || (!op && pl[q].inserted))
                continue;
            const char *key = op ? pl[q].op : pl[q].name;
            size_t lb = lower(idx, nk, key, op);
            /* next[lb]: the first candidate of this key not yet taken */
            size_t j = next[lb];
            while (j < nk && pk[idx[j]].match >= 0 &&
                   !strcmp(op ? pk[idx[j]].op : pk[idx[j]].name, key))
                j++;
            if (j < nk && !strcmp(op ? pk[idx[j]].op : pk[idx[j]].name, key)) {
                pl[q].match = (long)idx[j];
                pl[q].by_op = op;
                pk[idx[j]].match = (long)q;
                pairs++;
                j++;
            }
            next[lb] = j;
        }
    }
out:
    free(idx);
    free(next);
    return pairs;
}

/* Whether s is "<tensor>_nchwc", ORT's name for a node it moved to the NCHWc
 * layout, of a tensor of g (the plan names it so only for the CPU's block). */
static bool nchwc_of_value(const oc_graph *g, const char *s)
{
    static const char sfx[] = "_nchwc";
    size_t n = strlen(s), sl = sizeof sfx - 1;
    if (n <= sl || strcmp(s + n - sl, sfx))
        return false;
    char *stem = malloc(n - sl + 1);
    if (!stem)
        return false;
    memcpy(stem, s, n - sl);
    stem[n - sl] = '\0';
    bool found = oc_graph_find(g, stem) >= 0;
    free(stem);
    return found;
}

/* How many profiled kernels name a planned kernel or a node of the model,
 * or are a kernel the runtime inserts and numbers ("ReorderOutput_token_3")
 * of an op the plan inserts too, or a tensor's NCHWc kernel. */
static size_t names_found(const oc_graph *g, const planned *pl, size_t np, const pkernel *pk,
                          size_t nk, bool *nomem)
{
    const char **names = malloc((np + g->n_nodes + 1) * sizeof *names);
    const char **ops = malloc((np + 1) * sizeof *ops);
    size_t nn = 0, no = 0, found = 0;
    *nomem = !names || !ops;
    if (*nomem)
        goto out;
    for (size_t q = 0; q < np; q++) {
        names[nn++] = pl[q].name;
        ops[no++] = pl[q].op;
    }
    for (size_t i = 0; i < g->n_nodes; i++)
        if (g->nodes[i].name)
            names[nn++] = g->nodes[i].name;
    qsort(names, nn, sizeof *names, cmp_str);
    qsort(ops, no, sizeof *ops, cmp_str);
    for (size_t i = 0; i < nk; i++) {
        const char *s = pk[i].name;
        size_t ol = strlen(pk[i].op);
        if (bsearch(&s, names, nn, sizeof *names, cmp_str))
            found++;
        else if (!strncmp(s, pk[i].op, ol) && s[ol] == '_' &&
                 bsearch(&pk[i].op, ops, no, sizeof *ops, cmp_str))
            found++;
        else if (nchwc_of_value(g, s))
            found++;
    }
out:
    free(names);
    free(ops);
    return found;
}

/* ---- output ---- */

typedef struct result {
    const copts *o;
    const char *model, *profile_path;
    const oc_model *m;
    const oc_analysis *a;
    const profile *pf;
    planned *pl;
    size_t np;
    size_t matched;
    double pred_sum, meas_sum, pred_total;
} result;

static double err_pct(double pred, double meas)
{
    return meas > 0 ? 100 * (pred - meas) / meas : 0;
}

static const result *sort_r;
static int by_abs_diff(const void *x, const void *y)
{
    const planned *a = &sort_r->pl[*(const size_t *)x], *b = &sort_r->pl[*(const size_t *)y];
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

static bool ends_nchwc(const char *s)
{
    size_t n = strlen(s);
    return n > 6 && !strcmp(s + n - 6, "_nchwc");
}

/* When only one side has NCHWc kernels, the plan was made for a CPU of
 * another block than the profile's: say which option fixes it. */
static const char *nchwc_hint(const result *r)
{
    bool plan = false, ran = false;
    for (size_t q = 0; q < r->np; q++)
        plan |= ends_nchwc(r->pl[q].name);
    for (size_t i = 0; i < r->pf->n; i++)
        ran |= ends_nchwc(r->pf->k[i].name);
    if (ran && !plan)
        return "the profile ran NCHWc kernels and the plan has none: its CPU has the "
               "layout (try --nchwc-block 8 or 16)";
    if (plan && !ran)
        return "the plan has NCHWc kernels and the profile none: its CPU lacks the "
               "layout (try --nchwc-block 0)";
    return NULL;
}

static int compare_table(const result *r, const oc_tmodel *tm, const cli_target *tgt)
{
    const profile *pf = r->pf;
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
        const planned *k = &r->pl[order[i]];
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
    const char *hint = nchwc_hint(r);
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
    const profile *pf = r->pf;
    json_t *j = json_object(), *ks = json_array(), *po = json_array(), *ro = json_array();
    json_object_set_new(j, "model", oc_json_model(r->m));
    json_object_set_new(j, "unbound_dims", oc_json_unbound(oc_analysis_assumed(r->a)));
    json_object_set_new(j, "profile", json_string(r->profile_path));
    json_object_set_new(j, "runs", json_integer((json_int_t)pf->runs));
    json_object_set_new(j, "batch", json_integer(r->o->aa.opts.batch));
    json_object_set_new(j, "target", oc_json_target(tm, tgt, r->o->mode.optimizer));
    for (size_t q = 0; q < r->np; q++) {
        const planned *k = &r->pl[q];
        if (k->match < 0) {
            json_array_append_new(po, json_pack("{s:s, s:s, s:f}", "name", k->name, "op", k->op,
                                                "predicted_us", k->us));
            continue;
        }
        const pkernel *m = &pf->k[k->match];
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
    const char *hint = nchwc_hint(r);
    if (hint)
        json_object_set_new(j, "hint", json_string(hint));
    return cli_json_print(j);
}

int cli_profile_kernel_times(const char *model_path, const char *prof_path, const oc_graph *g,
                             const struct oc_estimate *e, double *meas)
{
    profile pf;
    int rc = profile_load(prof_path, &pf);
    json_t *kj = rc ? NULL : oc_json_kernels(e);
    size_t np = json_array_size(kj);
    planned *pl = kj ? calloc(np + 1, sizeof *pl) : NULL;
    if (!rc && (!kj || !pl)) {
        cli_error("out of memory");
        rc = EXIT_IO;
    }
    for (size_t q = 0; !rc && q < np; q++) {
        json_t *k = json_array_get(kj, q);
        const char *name = json_string_value(json_object_get(k, "name"));
        const char *op = json_string_value(json_object_get(k, "op"));
        pl[q] = (planned){name ? name : "", op ? op : "?", 0,
                          json_array_size(json_object_get(k, "nodes")) == 0, -1, false};
    }
    bool nomem = false;
    size_t found = rc ? 0 : names_found(g, pl, np, pf.k, pf.n, &nomem);
    if (!rc && (nomem || match(pl, np, pf.k, pf.n) < 0)) {
        cli_error("out of memory");
        rc = EXIT_IO;
    }
    if (!rc && 2 * found < pf.n) {
        cli_error("%s does not look like a profile of %s (%zu of %zu kernel names found)",
                  prof_path, model_path, found, pf.n);
        rc = EXIT_INPUT;
    }
    /* plan kernel k is the next oc_kernel_entries entries (an inlined
     * If: the kernels of its branch, measured when all of them are) */
    for (size_t k = 0, q = 0; !rc && k < e->plan.n_kernels; k++) {
        size_t n = oc_kernel_entries(e, k);
        meas[k] = n ? 0 : -1;
        for (size_t r = q; r < q + n; r++)
            meas[k] = r < np && pl[r].match >= 0 && meas[k] >= 0 ? meas[k] + pf.k[pl[r].match].us
                                                              : -1;
        q += n;
    }
    free(pl);
    json_decref(kj);
    profile_free(&pf);
    return rc;
}

int cmd_compare(int argc, char **argv)
{
    copts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    const char *model_path = argv[optind], *prof_path = argv[optind + 1];
    profile pf;
    if ((rc = profile_load(prof_path, &pf))) {
        profile_free(&pf);
        return rc;
    }
    oc_error err;
    oc_error_clear(&err);
    oc_tmodel *tm = NULL;
    oc_overhead ov = {.kernel_scale = 1};
    cli_target tgt;
    oc_model *m = NULL;
    oc_analysis *a = NULL;
    oc_arena *ar = NULL;
    json_t *kj = NULL;
    planned *pl = NULL;
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
    const oc_graph *g = oc_model_graph(m);
    kj = oc_json_kernels(&e);
    size_t np = json_array_size(kj);
    pl = calloc(np + 1, sizeof *pl);
    if (!kj || !pl) {
        cli_error("out of memory");
        rc = EXIT_IO;
        goto out;
    }
    result r = {.o = &o, .model = model_path, .m = m, .a = a, .profile_path = prof_path, .pf = &pf, .pl = pl,
                .np = np, .pred_total = e.total_us};
    for (size_t q = 0; q < np; q++) {
        json_t *k = json_array_get(kj, q);
        const char *name = json_string_value(json_object_get(k, "name"));
        const char *op = json_string_value(json_object_get(k, "op"));
        pl[q] = (planned){name ? name : "", op ? op : "?",
                          json_number_value(json_object_get(k, "time_us")),
                          json_array_size(json_object_get(k, "nodes")) == 0, -1, false};
        r.pred_sum += pl[q].us;
    }
    /* A profile of another model matches by op alone: judge by names. */
    bool nomem;
    size_t found = names_found(g, pl, np, pf.k, pf.n, &nomem);
    long pairs = nomem ? -1 : match(pl, np, pf.k, pf.n);
    if (pairs < 0) {
        cli_error("out of memory");
        rc = EXIT_IO;
        goto out;
    }
    if (2 * found < pf.n) {
        cli_error("%s does not look like a profile of %s (%zu of %zu kernel names found)",
                  prof_path, model_path, found, pf.n);
        rc = EXIT_INPUT;
        goto out;
    }
    r.matched = (size_t)pairs;
    for (size_t i = 0; i < pf.n; i++)
        r.meas_sum += pf.k[i].us;
    rc = o.fmt == FMT_JSON ? compare_json(&r, tm, &tgt) : compare_table(&r, tm, &tgt);
out:
    free(pl);
    json_decref(kj);
    oc_arena_free(ar);
    oc_analysis_free(a);
    oc_model_free(m);
    oc_tmodel_free(tm);
    profile_free(&pf);
    return rc;
}
