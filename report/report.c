/* report.c - the HTML page of 'onnxcost report': a header with the totals,
 * four SVG charts (slowest nodes, shares by operator, prediction against
 * the baselines, the batch sweep) and tables of the sweep and of every
 * node.  No scripts, no external resources. */
#include "report/report.h"
#include "report/format.h"
#include "report/svg.h"
#include "predictor/sweep.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef OC_VERSION
#define OC_VERSION "dev"
#endif

/* One colour per operator, by rank of predicted time; the rest share grey. */
static const char *const palette[] = {"#3b6fb6", "#e0803a", "#4f9d5d", "#c9474b",
                                      "#8a6bbf", "#3fa3a8", "#d36fa8", "#a07850",
                                      "#b9a334", "#6b7f99"};
enum { N_COLORS = sizeof palette / sizeof palette[0] };
static const char other_color[] = "#b4b4b4";
/* The series of the baseline chart. */
static const char pred_color[] = "#1f3d7a", lin_color[] = "#e39b32", roof_color[] = "#7f8c8d";

enum { PAGE_W = 1180 };

/* ---- grouping ---- */

static const char *kernel_op(const oc_graph *g, const oc_estimate *e, size_t i)
{
    const oc_kernel *k = &e->plan.kernels[e->plan.kernel_of[i]];
    if (k->kind != OC_KERNEL_RUN)
        return g->nodes[i].op;
    return k->as_op ? k->as_op : g->nodes[k->main].op;
}

static int by_op_time(const void *x, const void *y)
{
    const oc_report_op *a = x, *b = y;
    if (a->us != b->us)
        return a->us < b->us ? 1 : -1;
    if (a->macs != b->macs)
        return a->macs < b->macs ? 1 : -1;
    return strcmp(a->op, b->op);
}

oc_status oc_report_group_ops(oc_report *r, oc_arena *arena, oc_error *err)
{
    const oc_graph *g = oc_model_graph(r->m);
    const oc_estimate *e = r->e;
    size_t n = g->n_nodes;
    r->ops = oc_arena_calloc(arena, n + 1, sizeof *r->ops);
    r->op_of = oc_arena_calloc(arena, n + 1, sizeof *r->op_of);
    if (!r->ops || !r->op_of)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    r->n_ops = 0;
    for (size_t i = 0; i < n; i++) {
        const char *op = kernel_op(g, e, i);
        size_t k = 0;
        while (k < r->n_ops && strcmp(r->ops[k].op, op) != 0)
            k++;
        if (k == r->n_ops)
            r->ops[r->n_ops++].op = op;
        oc_report_op *o = &r->ops[k];
        o->us += e->node_us[i];
        o->linear_us += e->node_linear_us[i];
        o->roofline_us += e->node_roofline_us[i];
        o->macs += oc_analysis_node_cost(r->a, i)->macs;
        const oc_kernel *kn = &e->plan.kernels[e->plan.kernel_of[i]];
        if (kn->kind == OC_KERNEL_RUN && kn->main == i)
            o->kernels++;
    }
    qsort(r->ops, r->n_ops, sizeof *r->ops, by_op_time);
    for (size_t k = 0; k < r->n_ops; k++)
        r->ops[k].color = k < N_COLORS ? palette[k] : other_color;
    for (size_t i = 0; i < n; i++) {
        const char *op = kernel_op(g, e, i);
        size_t k = 0;
        while (strcmp(r->ops[k].op, op) != 0)
            k++;
        r->op_of[i] = k;
    }
    return OC_OK;
}

/* ---- formatting ---- */

/* Axis labels: round numbers in the unit that suits the largest tick. */
typedef enum { U_TIME_US, U_BYTES, U_COUNT } unit_kind;

static const char *tick_label(double v, double vmax, unit_kind u, char *buf, size_t n)
{
    static const char *const si[] = {"", "K", "M", "G", "T", "P"};
    if (v == 0) {
        snprintf(buf, n, "0");
        return buf;
    }
    if (u == U_TIME_US) {
        if (vmax >= 1e6)
            snprintf(buf, n, "%g s", v / 1e6);
        else if (vmax >= 1e3)
            snprintf(buf, n, "%g ms", v / 1e3);
        else
            snprintf(buf, n, "%g us", v);
        return buf;
    }
    int k = 0;
    while (k < 5 && vmax >= 1000 * pow(1000, k))
        k++;
    snprintf(buf, n, "%g%s%s%s", v / pow(1000, k), k || u == U_BYTES ? " " : "", si[k],
             u == U_BYTES ? "B" : "");
    return buf;
}

static const char *time_str(double us, char *buf, size_t n)
{
    if (us > 0 && us < 0.1)
        snprintf(buf, n, "%.3f us", us);
    else
        oc_fmt_time(us, buf, n);
    return buf;
}

static double pct(double part, double whole) { return whole > 0 ? 100 * part / whole : 0; }

/* What the kernels' times add up to: the total, and the profiler's cost
 * per kernel that they hold and the total leaves out (a calibration's
 * kernel chains) */
static double kernels_sum_us(const oc_estimate *e) { return e->total_us + e->profiler_us; }

/* Dark or light text, whichever reads better on a fill "#rrggbb". */
static const char *text_class_on(const char *fill)
{
    unsigned rgb = (unsigned)strtoul(fill + 1, NULL, 16);
    double lum = 0.299 * (rgb >> 16) + 0.587 * (rgb >> 8 & 255) + 0.114 * (rgb & 255);
    return lum > 150 ? "in dark" : "in";
}

/* ---- page ---- */

static const char css[] =
    "body{margin:0;background:#eef0f3;color:#222;font:14px/1.45 'DejaVu Sans',Arial,"
    "sans-serif}\n"
    "main{max-width:1180px;margin:0 auto;padding:18px 24px 32px;background:#fff}\n"
    "h1{font-size:22px;margin:0 0 4px}\n"
    "h2{font-size:16px;margin:26px 0 2px;padding-bottom:3px;border-bottom:1px solid #ddd}\n"
    ".meta{margin:0;color:#444;font-size:13px}\n"
    ".note{margin:2px 0 8px;color:#666;font-size:12.5px}\n"
    "code,.mono{font-family:'DejaVu Sans Mono',monospace;font-size:12px}\n"
    ".cards{display:flex;flex-wrap:wrap;gap:8px;margin:12px 0 4px}\n"
    ".card{border:1px solid #d8dce3;border-radius:4px;padding:5px 12px;min-width:118px}\n"
    ".card b{display:block;font-size:17px}\n"
    ".card span{color:#666;font-size:12px}\n"
    "svg{display:block;margin:6px 0}\n"
    "svg text{font-family:'DejaVu Sans',Arial,sans-serif;font-size:11px;fill:#333}\n"
    "svg text.mono{font-family:'DejaVu Sans Mono',monospace}\n"
    "svg .ax{fill:#777;font-size:10px}\n"
    "svg .ttl{font-size:12px;font-weight:bold}\n"
    "svg .in{fill:#fff;font-size:10.5px}\n"
    "svg .dark{fill:#222}\n"
    "svg .grid{stroke:#e6e6e6}\n"
    "svg .axis{stroke:#999}\n"
    "svg .whisker{stroke:#333;stroke-width:1}\n"
    "svg .limit{stroke:#c0392b;stroke-width:1.5;stroke-dasharray:6 4}\n"
    "svg .warn{fill:#c0392b}\n"
    "span.warn{color:#b03a2e}\n"
    ".nw{white-space:nowrap}\n"
    "table{border-collapse:collapse;font-size:12px;margin:6px 0}\n"
    "th{background:#f3f4f6}\n"
    "td,th{padding:2px 8px;border-bottom:1px solid #eceef1;text-align:right;"
    "vertical-align:top;white-space:nowrap}\n"
    "td.l,th.l{text-align:left}\n"
    "td.mono{white-space:normal;word-break:break-all}\n"
    "footer{margin-top:24px;color:#777;font-size:12px}\n";

static const char *basename_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

static void card(FILE *f, const char *value, const char *label)
{
    fputs("<div class=\"card\"><b>", f);
    html_escape(f, value);
    fputs("</b><span>", f);
    html_escape(f, label);
    fputs("</span></div>\n", f);
}

static void header(FILE *f, const oc_report *r)
{
    const oc_graph *g = oc_model_graph(r->m);
    const oc_totals *t = oc_analysis_totals(r->a);
    const oc_estimate *e = r->e;
    const char *src = oc_model_source(r->m);
    char b1[64], b2[64], b3[160];
    fputs("<header>\n<h1>onnxcost report: ", f);
    html_escape(f, basename_of(src));
    fputs("</h1>\n<p class=\"meta\">file <code>", f);
    html_escape(f, src);
    fprintf(f, "</code> (%s)", oc_fmt_bytes((double)oc_model_file_size(r->m), b1, sizeof b1));
    if (g->name && g->name[0]) {
        fputs(" &#183; graph <code>", f);
        html_escape(f, g->name);
        fputs("</code>", f);
    }
    if (oc_model_producer(r->m)[0]) {
        fputs(" &#183; producer ", f);
        html_escape(f, oc_model_producer(r->m));
        fputc(' ', f);
        html_escape(f, oc_model_producer_version(r->m));
    }
    fprintf(f, " &#183; IR %" PRId64 " &#183; opset", oc_model_ir_version(r->m));
    for (size_t i = 0; i < oc_model_n_opsets(r->m); i++) {
        const oc_opset *o = &oc_model_opsets(r->m)[i];
        fputs(i ? ", " : " ", f);
        html_escape(f, o->domain[0] ? o->domain : "ai.onnx");
        fprintf(f, " %" PRId64, o->version);
    }
    fputs("</p>\n<p class=\"meta\">target <b>", f);
    html_escape(f, r->target->target);
    fputs("</b> (", f);
    html_escape(f, r->target->runtime);
    fprintf(f, "), %d thread%s, ", r->target->threads, r->target->threads == 1 ? "" : "s");
    html_escape(f, r->target->cpu);
    if (r->target_label) {
        fputs("; ", f);
        html_escape(f, r->target_label);
    }
    if (r->target->optimizer != OC_OPT_NONE)
        fprintf(f, " &#183; training step (%s) at batch <b>%" PRId64 "</b>",
                oc_optimizer_name(r->target->optimizer), r->batch);
    else
        fprintf(f, " &#183; inference at batch <b>%" PRId64 "</b>", r->batch);
    const char *assumed = oc_analysis_assumed(r->a);
    if (assumed[0]) {
        fputs(" &#183; <span class=\"warn\">symbolic dims costed as 1: <code>", f);
        html_escape(f, assumed);
        fputs("</code> (bind them with --dim NAME=VALUE)</span>", f);
    }
    if (e->n_uncounted_nodes)
        fprintf(f, " &#183; <span class=\"warn\">%zu node%s not counted: shapes unknown or "
                   "no kernel (marked in the table of nodes)</span>",
                e->n_uncounted_nodes, e->n_uncounted_nodes == 1 ? "" : "s");
    fputs("</p>\n", f);

    fputs("<div class=\"cards\">\n", f);
    snprintf(b3, sizeof b3, "predicted (range %s to %s)", time_str(e->total_low_us, b1, sizeof b1),
             time_str(e->total_high_us, b2, sizeof b2));
    card(f, time_str(e->total_us, b1, sizeof b1), b3);
    double tput = e->total_us > 0 ? (double)r->batch * 1e6 / e->total_us : 0;
    if (tput < 1e4)
        snprintf(b1, sizeof b1, "%.1f /s", tput);
    else
        oc_fmt_si(tput, "/s", b1, sizeof b1);
    card(f, b1, "throughput (samples)");
    card(f, time_str(e->linear_us + e->overhead_us, b1, sizeof b1), "linear-FLOPs baseline");
    card(f, time_str(e->roofline_us + e->overhead_us, b1, sizeof b1), "roofline baseline");
    card(f, oc_fmt_si((double)t->macs, "MAC", b1, sizeof b1), "multiply-accumulates");
    card(f, oc_fmt_si((double)t->flops, "FLOP", b1, sizeof b1), "FLOPs");
    card(f, oc_fmt_si((double)t->params, "", b1, sizeof b1), "parameters");
    card(f, oc_fmt_bytes((double)t->weight_bytes, b1, sizeof b1), "weights");
    card(f, oc_fmt_bytes((double)t->peak_activation_bytes, b1, sizeof b1), "activation peak");
    snprintf(b1, sizeof b1, "%zu", e->n_run);
    snprintf(b3, sizeof b3, "kernels for %zu nodes", g->n_nodes);
    card(f, b1, b3);
    fputs("</div>\n</header>\n", f);
}


/* ---- chart pieces ---- */

/* Colour swatches with names in rows from (x0, y), wrapping at width w;
 * returns the height used.  f NULL only measures. */
typedef struct legend_item {
    const char *color, *label;
} legend_item;

static double legend(FILE *f, const legend_item *it, size_t n, double x0, double y, double w)
{
    double x = x0, row = 0;
    for (size_t i = 0; i < n; i++) {
        double iw = 34 + 6.6 * (double)strlen(it[i].label);
        if (x > x0 && x + iw > x0 + w) {
            x = x0;
            row += 18;
        }
        if (f) {
            svg_rect(f, x, y + row + 1, 11, 11, it[i].color, NULL);
            svg_text(f, x + 16, y + row + 11, NULL, NULL, "%s", it[i].label);
        }
        x += iw;
    }
    return n ? row + 18 : 0;
}

/* Gridlines from y0 to y1 at the ticks of a linear x axis starting at x0,
 * w wide, labelled under y1. */
static void x_axis(FILE *f, double x0, double w, double y0, double y1, const double *ticks,
                   size_t nt, unit_kind u)
{
    char b[32];
    double hi = ticks[nt - 1];
    for (size_t k = 0; k < nt; k++) {
        double x = x0 + w * ticks[k] / hi;
        svg_line(f, x, y0, x, y1, k ? "grid" : "axis");
        svg_text(f, x, y1 + 13, "middle", "ax", "%s", tick_label(ticks[k], hi, u, b, sizeof b));
    }
}

/* ---- (a) the slowest kernels ---- */

typedef struct ranked {
    double us;
    size_t i;
} ranked;

static int by_us(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->us != b->us)
        return a->us < b->us ? 1 : -1;
    return (a->i > b->i) - (a->i < b->i);
}

/* A hover text: the node, its operator, the nodes fused into it, times. */
static void node_title(FILE *f, const oc_report *r, size_t i)
{
    const oc_graph *g = oc_model_graph(r->m);
    const oc_estimate *e = r->e;
    const oc_kernel *k = &e->plan.kernels[e->plan.kernel_of[i]];
    char b1[32], b2[32], b3[32];
    fputs("<title>", f);
    html_escape(f, g->nodes[i].name);
    fputs(" (", f);
    html_escape(f, r->ops[r->op_of[i]].op);
    fputc(')', f);
    for (size_t q = 0; q < k->n_fused; q++) {
        fputs(q ? ", " : "; fused: ", f);
        html_escape(f, g->nodes[k->fused[q]].name);
    }
    fprintf(f, ": %s, range %s to %s</title>", time_str(e->node_us[i], b1, sizeof b1),
            time_str(e->node_low_us[i], b2, sizeof b2),
            time_str(e->node_high_us[i], b3, sizeof b3));
}

static void chart_top_nodes(FILE *f, const oc_report *r)
{
    const oc_graph *g = oc_model_graph(r->m);
    const oc_estimate *e = r->e;
    ranked *rk = malloc((g->n_nodes + 1) * sizeof *rk);
    legend_item *leg = malloc((r->n_ops + 1) * sizeof *leg);
    size_t n = 0, nl = 0;
    for (size_t i = 0; rk && i < g->n_nodes; i++)
        if (e->node_us[i] > 0)
            rk[n++] = (ranked){e->node_us[i], i};
    if (rk)
        qsort(rk, n, sizeof *rk, by_us);
    size_t shown = n < r->top ? n : r->top;
    fprintf(f, "<h2>Slowest kernels</h2>\n<p class=\"note\">The %zu slowest of the %zu "
               "kernels that run at batch %" PRId64 ", named by their main node and coloured "
               "by the operator they run as. The whisker is the range of the timing model's "
               "ensemble, the percentage its share of the kernels' time; hover a bar for "
               "the nodes fused into its kernel.</p>\n",
            shown, e->n_run, r->batch);
    for (size_t k = 0; leg && k < r->n_ops; k++)
        for (size_t q = 0; q < shown; q++)
            if (r->op_of[rk[q].i] == k) {
                leg[nl++] = (legend_item){r->ops[k].color, r->ops[k].op};
                break;
            }
    const double LBL = 420, VAL = 150, ROW = 20, BAR = 13, plot = PAGE_W - LBL - VAL;
    double hi = 0;
    for (size_t q = 0; q < shown; q++)
        hi = fmax(hi, fmax(e->node_us[rk[q].i], e->node_high_us[rk[q].i]));
    double ticks[16];
    size_t nt = svg_ticks(hi, ticks, 16);
    double scale = plot / ticks[nt - 1], total = kernels_sum_us(e);
    double y0 = legend(NULL, leg, nl, LBL, 0, plot + VAL) + 10, y1 = y0 + ROW * (double)shown;
    svg_open(f, PAGE_W, y1 + 22, "Slowest kernels by predicted time");
    legend(f, leg, nl, LBL, 0, plot + VAL);
    x_axis(f, LBL, plot, y0 - 4, y1, ticks, nt, U_TIME_US);
    /* Names go in a nested <svg>, which clips them: wide characters can
     * make a label longer than its column. */
    fprintf(f, "<svg x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\">\n", LBL - 6, y1);
    for (size_t q = 0; q < shown; q++) {
        double ym = y0 + ROW * (double)q + ROW / 2;
        svg_text_tail(f, LBL - 8, ym + 4, "end", "mono", g->nodes[rk[q].i].name, 60);
    }
    svg_close(f);
    for (size_t q = 0; q < shown; q++) {
        size_t i = rk[q].i;
        double y = y0 + ROW * (double)q, ym = y + ROW / 2;
        double xb = LBL + e->node_us[i] * scale;
        double xl = LBL + e->node_low_us[i] * scale, xh = LBL + e->node_high_us[i] * scale;
        char b[32];
        fputs("<g>", f);
        node_title(f, r, i);
        svg_rect(f, LBL, y + (ROW - BAR) / 2, xb - LBL, BAR, r->ops[r->op_of[i]].color, "bar");
        svg_line(f, xl, ym, xh, ym, "whisker");
        svg_line(f, xl, ym - 3, xl, ym + 3, "whisker");
        svg_line(f, xh, ym - 3, xh, ym + 3, "whisker");
        svg_text(f, fmax(xb, xh) + 6, ym + 4, NULL, NULL, "%s \xC2\xB7 %.1f%%",
                 time_str(e->node_us[i], b, sizeof b), pct(e->node_us[i], total));
        fputs("</g>\n", f);
    }
    svg_close(f);
    free(rk);
    free(leg);
}

/* ---- (b) shares by operator ---- */

static void share_bar(FILE *f, const char *name, double y, double x0, double w, double h,
                      const legend_item *it, const double *v, size_t n)
{
    double total = 0;
    for (size_t k = 0; k < n; k++)
        total += v[k];
    svg_text(f, x0 - 8, y + h / 2 + 4, "end", "ttl", "%s", name);
    if (!(total > 0)) {
        svg_rect(f, x0, y, w, h, "#f3f4f6", NULL);
        svg_text(f, x0 + w / 2, y + h / 2 + 4, "middle", "ax", "none in this model");
        return;
    }
    double x = x0;
    for (size_t k = 0; k < n; k++) {
        double sw = w * v[k] / total, p = pct(v[k], total);
        if (!(sw > 0))
            continue;
        fprintf(f, "<g><title>");
        html_escape(f, it[k].label);
        fprintf(f, ": %.1f%% of %s</title>", p, name);
        svg_rect(f, x, y, sw, h, it[k].color, "bar");
        double need = 6.2 * (double)strlen(it[k].label) + 44;
        if (sw >= need)
            svg_text(f, x + sw / 2, y + h / 2 + 4, "middle", text_class_on(it[k].color),
                     "%s %.0f%%", it[k].label, p);
        else if (sw >= 32)
            svg_text(f, x + sw / 2, y + h / 2 + 4, "middle", text_class_on(it[k].color),
                     "%.0f%%", p);
        fputs("</g>\n", f);
        x += sw;
    }
}

static void chart_shares(FILE *f, const oc_report *r)
{
    legend_item it[N_COLORS + 1], leg[N_COLORS + 1];
    double us[N_COLORS + 1] = {0}, macs[N_COLORS + 1] = {0}, sum_us = 0, sum_macs = 0;
    char labels[N_COLORS + 1][160];
    size_t n = 0;
    for (size_t k = 0; k < r->n_ops; k++) {
        size_t b = k < N_COLORS ? k : N_COLORS;
        if (b == n) {
            it[n++] = (legend_item){r->ops[k].color, b < N_COLORS ? r->ops[k].op : "other"};
        }
        us[b] += r->ops[k].us;
        macs[b] += (double)r->ops[k].macs;
        sum_us += r->ops[k].us;
        sum_macs += (double)r->ops[k].macs;
    }
    size_t nl = 0;
    for (size_t k = 0; k < n; k++) {
        if (!(us[k] > 0) && !(macs[k] > 0))
            continue;
        snprintf(labels[nl], sizeof labels[nl], "%s: %.1f%% time, %.1f%% MACs", it[k].label,
                 pct(us[k], sum_us), pct(macs[k], sum_macs));
        leg[nl] = (legend_item){it[k].color, labels[nl]};
        nl++;
    }
    fputs("<h2>Time and MACs by operator</h2>\n<p class=\"note\">Shares of the predicted "
          "kernel time (the per-run overhead apart) and of the multiply-accumulates, by the "
          "operator a kernel runs as (a Relu fused into a Conv counts as Conv); the ten "
          "operators with the most time, the rest as other.</p>\n", f);
    const double LBL = 64, H = 30, w = PAGE_W - LBL - 2;
    double lh = legend(NULL, leg, nl, LBL, 0, w);
    svg_open(f, PAGE_W, 2 * H + 30 + lh, "Shares of time and MACs by operator");
    share_bar(f, "time", 2, LBL, w, H, it, us, n);
    share_bar(f, "MACs", H + 12, LBL, w, H, it, macs, n);
    legend(f, leg, nl, LBL, 2 * H + 24, w);
    svg_close(f);
}

/* ---- (c) the prediction against the baselines ---- */

static void chart_baselines(FILE *f, const oc_report *r)
{
    enum { MAX_ROWS = 11 };
    struct {
        const char *label;
        double v[3];
    } rows[MAX_ROWS];
    const oc_estimate *e = r->e;
    size_t n = 0;
    rows[n].label = "whole model";
    rows[n].v[0] = e->total_us;
    rows[n].v[1] = e->linear_us + e->overhead_us;
    rows[n].v[2] = e->roofline_us + e->overhead_us;
    n++;
    for (size_t k = 0; k < r->n_ops && n < MAX_ROWS; k++) {
        const oc_report_op *o = &r->ops[k];
        if (o->us > 0 || o->linear_us > 0 || o->roofline_us > 0) {
            rows[n].label = o->op;
            rows[n].v[0] = o->us;
            rows[n].v[1] = o->linear_us;
            rows[n].v[2] = o->roofline_us;
            n++;
        }
    }
    double lo = INFINITY, hi = 0;
    for (size_t q = 0; q < n; q++)
        for (int s = 0; s < 3; s++)
            if (rows[q].v[s] > 0) {
                lo = fmin(lo, rows[q].v[s]);
                hi = fmax(hi, rows[q].v[s]);
            }
    fputs("<h2>Prediction and the FLOPs baselines</h2>\n<p class=\"note\">The predicted time "
          "next to the paper's linear baseline (a&#183;FLOPs + b, fitted on the same "
          "measurements) and a roofline (max(FLOPs / peak, bytes / bandwidth)) over the same "
          "kernels, for the whole model and the operators with the most time; "
          "&#215; is a baseline's ratio to the prediction. Log scale.</p>\n", f);
    if (!(hi > 0)) {
        fputs("<p>No kernel has a time.</p>\n", f);
        return;
    }
    double dlo = floor(log10(lo)), dhi = ceil(log10(hi));
    if (dhi <= dlo)
        dhi = dlo + 1;
    const double LBL = 150, VAL = 190, LANE = 10, BAR = 8, PITCH = 3 * LANE + 12;
    const double plot = PAGE_W - LBL - VAL;
    static const char *const names[3] = {"predicted (onnxcost)", "linear-FLOPs baseline",
                                         "roofline"};
    const char *colors[3] = {pred_color, lin_color, roof_color};
    legend_item leg[3];
    for (int s = 0; s < 3; s++)
        leg[s] = (legend_item){colors[s], names[s]};
    double y0 = legend(NULL, leg, 3, LBL, 0, plot) + 8, y1 = y0 + PITCH * (double)n;
    svg_open(f, PAGE_W, y1 + 22, "Predicted time against the linear-FLOPs and roofline "
                                 "baselines");
    legend(f, leg, 3, LBL, 0, plot);
    char b[48];
    for (double d = dlo; d <= dhi; d++) {
        double x = LBL + plot * (d - dlo) / (dhi - dlo);
        svg_line(f, x, y0 - 4, x, y1, d > dlo ? "grid" : "axis");
        svg_text(f, x, y1 + 13, "middle", "ax", "%s",
                 tick_label(pow(10, d), pow(10, d), U_TIME_US, b, sizeof b));
    }
    for (size_t q = 0; q < n; q++) {
        double y = y0 + PITCH * (double)q + 4;
        svg_text(f, LBL - 8, y + 1.5 * LANE + 4, "end", q ? NULL : "ttl", "%s", rows[q].label);
        for (int s = 0; s < 3; s++) {
            double v = rows[q].v[s], ys = y + LANE * s;
            if (!(v > 0)) {
                svg_text(f, LBL + 4, ys + BAR, NULL, "ax", "0");
                continue;
            }
            double x = LBL + plot * (log10(v) - dlo) / (dhi - dlo);
            svg_rect(f, LBL, ys, fmax(x - LBL, 1), BAR, colors[s], "bar");
            time_str(v, b, sizeof b);
            double ratio = rows[q].v[0] > 0 ? v / rows[q].v[0] : 0;
            if (s && ratio > 0 && ratio < 0.01)
                svg_text(f, fmax(x, LBL + 1) + 5, ys + BAR, NULL, "ax", "%s (<0.01\xC3\x97)", b);
            else if (s && ratio > 0)
                svg_text(f, fmax(x, LBL + 1) + 5, ys + BAR, NULL, "ax", "%s (%.*f\xC3\x97)", b,
                         ratio < 1 ? 2 : ratio < 10 ? 1 : 0, ratio);
            else
                svg_text(f, fmax(x, LBL + 1) + 5, ys + BAR, NULL, "ax", "%s", b);
        }
    }
    svg_close(f);
}

/* ---- (d) the batch sweep ---- */

typedef struct panel {
    const char *title;
    unit_kind unit;
    double y[OC_SWEEP_MAX_STEPS];
    const double *lo, *hi;  /* a band, or NULL */
    double limit;           /* a dashed line, or 0 */
    size_t mark;            /* a ringed point, or SIZE_MAX */
    const char *mark_label;
    const char *color;
} panel;

static void draw_panel(FILE *f, const oc_report *r, const panel *p, double x0, double w, double h)
{
    const double PL = 58, PR = 14, PT = 30, PB = 40;
    double px0 = x0 + PL, px1 = x0 + w - PR, py0 = PT, py1 = h - PB;
    size_t n = r->n_steps;
    double ymax = 0, bmin = INFINITY, bmax = 0;
    for (size_t k = 0; k < n; k++) {
        ymax = fmax(ymax, p->hi ? p->hi[k] : p->y[k]);
        bmin = fmin(bmin, log2((double)r->steps[k].batch));
        bmax = fmax(bmax, log2((double)r->steps[k].batch));
    }
    bool limit_in = p->limit > 0 && p->limit <= 3 * ymax;
    if (limit_in)
        ymax = fmax(ymax, p->limit * 1.08);
    double ticks[16];
    size_t nt = svg_ticks(ymax, ticks, 16);
    double ytop = ticks[nt - 1];
    char b[48];
#define PX(k) (bmax > bmin ? px0 + 12 + (px1 - px0 - 24) * \
               (log2((double)r->steps[k].batch) - bmin) / (bmax - bmin) : (px0 + px1) / 2)
#define PY(v) (py1 - (py1 - py0) * (v) / ytop)
    svg_text(f, x0 + 4, 16, NULL, "ttl", "%s", p->title);
    for (size_t t = 0; t < nt; t++) {
        svg_line(f, px0, PY(ticks[t]), px1, PY(ticks[t]), t ? "grid" : "axis");
        svg_text(f, px0 - 6, PY(ticks[t]) + 3.5, "end", "ax", "%s",
                 tick_label(ticks[t], ytop, p->unit, b, sizeof b));
    }
    svg_line(f, px0, py0, px0, py1, "axis");
    double last = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        snprintf(b, sizeof b, "%" PRId64, r->steps[k].batch);
        double x = PX(k), half = 3.2 * (double)strlen(b) + 3;
        if (x - half < last)
            continue;
        svg_line(f, x, py1, x, py1 + 4, "axis");
        svg_text(f, x, py1 + 15, "middle", "ax", "%s", b);
        last = x + half;
    }
    svg_text(f, (px0 + px1) / 2, py1 + 31, "middle", "ax", "batch size");
    if (p->lo && p->hi) {
        fputs("<polygon fill-opacity=\"0.16\" stroke=\"none\" fill=\"", f);
        fprintf(f, "%s\" points=\"", p->color);
        for (size_t k = 0; k < n; k++)
            fprintf(f, "%.1f,%.1f ", PX(k), PY(p->lo[k]));
        for (size_t k = n; k-- > 0;)
            fprintf(f, "%.1f,%.1f ", PX(k), PY(p->hi[k]));
        fputs("\"/>\n", f);
    }
    /* The limit's label goes on the side away from the marked point. */
    bool mark_left = p->mark < n && PX(p->mark) < (px0 + px1) / 2;
    if (p->limit > 0 && limit_in) {
        svg_line(f, px0, PY(p->limit), px1, PY(p->limit), "limit");
        svg_text(f, mark_left ? px1 - 2 : px0 + 4, PY(p->limit) - 5, mark_left ? "end" : NULL,
                 "ax warn", "limit %s", oc_fmt_bytes(p->limit, b, sizeof b));
    } else if (p->limit > 0) {
        svg_text(f, px1 - 2, py0 - 6, "end", "ax warn", "limit %s (above the chart)",
                 oc_fmt_bytes(p->limit, b, sizeof b));
    }
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", p->color);
    for (size_t k = 0; k < n; k++)
        fprintf(f, "%.1f,%.1f ", PX(k), PY(p->y[k]));
    fputs("\"/>\n", f);
    for (size_t k = 0; k < n; k++) {
        bool over = !r->steps[k].fits;
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>batch %" PRId64
                   ": %s</title></circle>",
                PX(k), PY(p->y[k]), over ? "#c0392b" : p->color, r->steps[k].batch,
                tick_label(p->y[k], p->y[k], p->unit, b, sizeof b));
    }
    if (p->mark < n) {
        double x = PX(p->mark), y = PY(p->y[p->mark]);
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" stroke=\"#222\" "
                   "stroke-width=\"1.5\"/>",
                x, y);
        double half = 3.1 * (double)strlen(p->mark_label);
        double tx = fmin(fmax(x, px0 + half + 4), px1 - half - 2);
        double ty = y - 13;
        if (limit_in && p->y[p->mark] <= p->limit) /* above the limit line, not across it */
            ty = fmin(ty, PY(p->limit) - 6);
        if (ty < py0 + 12)
            ty = y + 21;
        svg_text(f, tx, ty, "middle", "ttl", "%s", p->mark_label);
    }
#undef PX
#undef PY
}

static void chart_sweep(FILE *f, const oc_report *r)
{
    char b[48], best[96] = "", fit[96] = "";
    bool training = r->target->optimizer != OC_OPT_NONE;
    fputs("<h2>Batch sweep</h2>\n<p class=\"note\">The same prediction at each batch size "
          "(one model load); memory is the weights plus ", f);
    fputs(training ? "their gradients, the optimizer state and the activations kept for "
                     "the backward pass. "
                   : "the activation peak. ",
          f);
    if (r->best < r->n_steps)
        fprintf(f, "Best throughput%s: batch %" PRId64 " (<span class=\"nw\">%.1f "
                   "samples/s</span>). ",
                r->memory_limit ? " within the limit" : "", r->steps[r->best].batch,
                r->steps[r->best].throughput);
    if (r->memory_limit)
        fprintf(f, "Memory limit <span class=\"nw\">%s</span>: ",
                oc_fmt_bytes((double)r->memory_limit, b, sizeof b));
    if (r->memory_limit && r->fit < r->n_steps)
        fprintf(f, "the largest batch that fits is %" PRId64 " (red points do not fit).",
                r->steps[r->fit].batch);
    else if (r->memory_limit)
        fputs("no batch size fits.", f);
    else
        fputs("No memory limit given.", f);
    fputs("</p>\n", f);
    if (!r->n_steps)
        return;
    double lo[OC_SWEEP_MAX_STEPS], hi[OC_SWEEP_MAX_STEPS];
    panel tp = {.title = "Time per batch", .unit = U_TIME_US, .lo = lo, .hi = hi,
                .mark = SIZE_MAX, .color = pred_color};
    panel th = {.title = "Throughput (samples/s)", .unit = U_COUNT, .mark = r->best,
                .color = palette[2]};
    panel me = {.title = training ? "Training memory" : "Memory (weights + activation peak)",
                .unit = U_BYTES,
                .limit = (double)r->memory_limit, .mark = r->memory_limit ? r->fit : SIZE_MAX,
                .color = palette[4]};
    for (size_t k = 0; k < r->n_steps; k++) {
        tp.y[k] = r->steps[k].time_ms * 1e3;
        lo[k] = r->steps[k].low_ms * 1e3;
        hi[k] = r->steps[k].high_ms * 1e3;
        th.y[k] = r->steps[k].throughput;
        me.y[k] = (double)r->steps[k].memory;
    }
    if (r->best < r->n_steps)
        snprintf(best, sizeof best, "best: batch %" PRId64, r->steps[r->best].batch);
    if (r->fit < r->n_steps)
        snprintf(fit, sizeof fit, "largest that fits: %" PRId64, r->steps[r->fit].batch);
    th.mark_label = best;
    me.mark_label = fit;
    const double GAP = 22, H = 270, w = (PAGE_W - 2 * GAP) / 3;
    svg_open(f, PAGE_W, H, "Time, throughput and memory over batch sizes");
    draw_panel(f, r, &tp, 0, w, H);
    draw_panel(f, r, &th, w + GAP, w, H);
    draw_panel(f, r, &me, 2 * (w + GAP), w, H);
    svg_close(f);
}

/* ---- tables ---- */

static void sweep_table(FILE *f, const oc_report *r)
{
    char b1[32], b2[32], b3[32], b4[32];
    fputs("<table>\n<tr><th>batch</th><th>time</th><th>range</th><th>samples/s</th>"
          "<th>memory</th><th class=\"l\"></th></tr>\n", f);
    for (size_t k = 0; k < r->n_steps; k++) {
        const oc_report_step *s = &r->steps[k];
        fprintf(f, "<tr><td>%" PRId64 "</td><td>%s</td><td>%s &#8211; %s</td><td>%.1f</td>"
                   "<td>%s</td><td class=\"l\">%s%s%s</td></tr>\n",
                s->batch, time_str(s->time_ms * 1e3, b1, sizeof b1),
                time_str(s->low_ms * 1e3, b2, sizeof b2),
                time_str(s->high_ms * 1e3, b3, sizeof b3), s->throughput,
                oc_fmt_bytes((double)s->memory, b4, sizeof b4), s->fits ? "" : "over the limit ",
                r->memory_limit && k == r->fit ? "largest that fits " : "",
                k == r->best ? "best throughput" : "");
    }
    fputs("</table>\n", f);
}

static void node_table(FILE *f, const oc_report *r)
{
    const oc_graph *g = oc_model_graph(r->m);
    const oc_estimate *e = r->e;
    char b1[32], b2[32], shape[256];
    fprintf(f, "<h2>All nodes</h2>\n<p class=\"note\">%zu nodes in topological order. A node "
               "fused into another kernel, folded from constants or removed by the runtime "
               "costs no time of its own.</p>\n",
            g->n_nodes);
    fputs("<table>\n<tr><th>#</th><th class=\"l\">node</th><th class=\"l\">op</th>"
          "<th class=\"l\">output</th><th>time</th><th>share</th><th>MACs</th><th>bytes</th>"
          "<th class=\"l\">kernel</th></tr>\n", f);
    for (size_t q = 0; q < g->n_nodes; q++) {
        size_t i = (size_t)g->topo[q];
        const oc_node *nd = &g->nodes[i];
        const oc_node_cost *c = oc_analysis_node_cost(r->a, i);
        const oc_kernel *k = &e->plan.kernels[e->plan.kernel_of[i]];
        shape[0] = '\0';
        if (nd->n_outputs && nd->outputs[0] >= 0)
            oc_fmt_shape(oc_analysis_value(r->a, nd->outputs[0]), shape, sizeof shape);
        fprintf(f, "<tr><td>%zu</td><td class=\"l mono\">", q + 1);
        html_escape(f, nd->name);
        fputs("</td><td class=\"l\">", f);
        html_escape(f, nd->op);
        fputs("</td><td class=\"l mono\">", f);
        html_escape(f, shape);
        if (e->node_us[i] > 0)
            fprintf(f, "</td><td>%s</td><td>%.1f%%</td>", time_str(e->node_us[i], b1, sizeof b1),
                    pct(e->node_us[i], kernels_sum_us(e)));
        else
            fputs("</td><td>&#8211;</td><td></td>", f);
        fprintf(f, "<td>%s</td><td>%s</td><td class=\"l\">",
                c->macs ? oc_fmt_si((double)c->macs, "", b1, sizeof b1) : "0",
                oc_fmt_bytes((double)(c->bytes_read + c->bytes_written), b2, sizeof b2));
        if (e->node_unknown[i]) {
            fputs("<span class=\"warn\">not counted: ", f);
            html_escape(f, e->node_unknown[i]);
            fputs("</span>", f);
        } else if (k->kind == OC_KERNEL_FOLDED)
            fputs("folded (constant)", f);
        else if (k->kind == OC_KERNEL_REMOVED)
            fputs("removed", f);
        else if (k->main != i) {
            fputs("fused into <span class=\"mono\">", f);
            html_escape(f, g->nodes[k->main].name);
            fputs("</span>", f);
        } else if (k->as_op || k->n_fused) {
            html_escape(f, r->ops[r->op_of[i]].op);
            if (k->n_fused)
                fprintf(f, " + %zu fused", k->n_fused);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void warnings(FILE *f, const oc_report *r)
{
    size_t n = oc_analysis_n_warnings(r->a);
    if (!n)
        return;
    fprintf(f, "<h2>Warnings</h2>\n<p class=\"note\">%zu from the analysis%s.</p>\n<ul>\n", n,
            n > 50 ? "; the first 50" : "");
    for (size_t i = 0; i < n && i < 50; i++) {
        const oc_warning *w = oc_analysis_warning(r->a, i);
        fputs("<li><span class=\"mono\">", f);
        html_escape(f, w->node);
        fputs("</span>: ", f);
        html_escape(f, w->msg);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
}

void oc_report_html(FILE *f, const oc_report *r)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
          "<meta name=\"generator\" content=\"onnxcost " OC_VERSION "\"/>\n<title>onnxcost "
          "report: ", f);
    html_escape(f, basename_of(oc_model_source(r->m)));
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", css);
    header(f, r);
    chart_top_nodes(f, r);
    chart_shares(f, r);
    chart_baselines(f, r);
    chart_sweep(f, r);
    sweep_table(f, r);
    node_table(f, r);
    warnings(f, r);
    fputs("<footer>Made by onnxcost " OC_VERSION " from the model file alone: predictions, "
          "not measurements. Times are ONNX Runtime kernels as the timing model predicts them "
          "on its target; the range is the spread of its ensemble.</footer>\n"
          "</main>\n</body>\n</html>\n", f);
}

oc_status oc_report_render(const oc_report *r, char **html, size_t *size, oc_error *err)
{
    *html = NULL;
    *size = 0;
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    oc_report_html(f, r);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        free(buf);
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory while rendering the report");
    }
    *html = buf;
    *size = n;
    return OC_OK;
}

void oc_report_steps_of(const oc_sweep *s, size_t n, oc_report_step *steps)
{
    for (size_t k = 0; k < n; k++) {
        const oc_sweep_step *o = &s->steps[k];
        oc_report_step *c = &steps[k];
        c->batch = o->batch;
        c->time_ms = o->time_ms;
        c->low_ms = o->low_ms;
        c->high_ms = o->high_ms;
        c->throughput = o->throughput;
        c->memory = o->memory;
        c->macs = o->macs;
        c->fits = o->fits;
        c->uncounted = o->uncounted;
        snprintf(c->unbound, sizeof c->unbound, "%s", oc_analysis_assumed(s->an[k]));
        snprintf(c->data_dims, sizeof c->data_dims, "%s", oc_analysis_unknown_dims(s->an[k]));
    }
}
