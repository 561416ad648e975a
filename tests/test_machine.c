/* test_machine.c - fingerprints from /proc/cpuinfo fixtures (Intel, AMD,
 * ARM), and calibrations: the fit recovers known factors, the file round
 * trips, and corrupt or foreign files are refused. */
#include "harness.h"
#include "predictor/calib.h"
#include "predictor/machine.h"
#include "predictor/tmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *slurp(const char *name, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/data/cpuinfo/%s", OC_TESTS_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 16);
    *n = buf ? fread(buf, 1, 1 << 16, f) : 0;
    fclose(f);
    return buf;
}

static void parse(const char *name, oc_machine *m, oc_status want)
{
    size_t n = 0;
    char *text = slurp(name, &n);
    CHECK(text != NULL);
    oc_error e;
    oc_error_clear(&e);
    CHECK_EQ_INT(oc_machine_parse_cpuinfo(text ? text : "", n, m, &e), want);
    free(text);
}

static void fingerprints(void)
{
    oc_machine m;
    parse("amd-epyc-f26.txt", &m, OC_OK);
    CHECK_EQ_STR(m.id, "cpu-AuthenticAMD-f26-m2");
    CHECK_EQ_STR(m.vendor, "AuthenticAMD");
    CHECK_EQ_STR(m.model_name, "AMD EPYC");
    CHECK_EQ_INT(m.family, 26);
    CHECK_EQ_INT(m.stepping, 1);
    CHECK(oc_machine_has(&m, OC_ISA_AVX2) && oc_machine_has(&m, OC_ISA_FMA));
    CHECK(oc_machine_has(&m, OC_ISA_AVX512F) && oc_machine_has(&m, OC_ISA_AVX512_VNNI));
    CHECK(oc_machine_has(&m, OC_ISA_AVX512_BF16) && !oc_machine_has(&m, OC_ISA_AMX_TILE));
    CHECK_EQ_INT(oc_machine_nchwc_block(&m), 16);
    char isa[128];
    oc_machine_isa_str(&m, isa, sizeof isa);
    CHECK_EQ_STR(isa, "avx2 fma avx512f avx512_vnni avx512_bf16");

    parse("amd-zen3-noavx512.txt", &m, OC_OK);
    CHECK_EQ_STR(m.id, "cpu-AuthenticAMD-f25-m1");
    CHECK(oc_machine_has(&m, OC_ISA_AVX2) && !oc_machine_has(&m, OC_ISA_AVX512F));
    CHECK_EQ_INT(oc_machine_nchwc_block(&m), 8);

    /* Intel: the first processor's block only (the second has no AVX). */
    parse("intel-xeon-skx.txt", &m, OC_OK);
    CHECK_EQ_STR(m.id, "cpu-GenuineIntel-f6-m85");
    CHECK_EQ_INT(m.stepping, 4);
    CHECK_EQ_STR(m.model_name, "Intel(R) Xeon(R) Platinum 8175M CPU @ 2.50GHz");
    CHECK(oc_machine_has(&m, OC_ISA_AVX512F) && !oc_machine_has(&m, OC_ISA_AVX512_VNNI));
    CHECK_EQ_INT(oc_machine_nchwc_block(&m), 16);

    parse("arm-neoverse-n1.txt", &m, OC_OK);
    CHECK_EQ_STR(m.id, "cpu-ARM-i0x41-p0xd0c");
    CHECK_EQ_STR(m.vendor, "ARM");
    CHECK_EQ_INT(m.model, 0xd0c);
    CHECK_EQ_INT(m.stepping, 3);
    CHECK(oc_machine_has(&m, OC_ISA_ASIMD) && !oc_machine_has(&m, OC_ISA_SVE));
    CHECK(!oc_machine_has(&m, OC_ISA_AVX2));
    CHECK_EQ_INT(oc_machine_nchwc_block(&m), 0);

    /* Text that names no CPU, and text cut short. */
    oc_error e;
    CHECK_EQ_INT(oc_machine_parse_cpuinfo("hello\nworld\n", 12, &m, &e), OC_ERR_INPUT);
    CHECK_EQ_INT(oc_machine_parse_cpuinfo("", 0, &m, &e), OC_ERR_INPUT);
    const char cut[] = "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmod";
    CHECK_EQ_INT(oc_machine_parse_cpuinfo(cut, sizeof cut - 1, &m, &e), OC_ERR_INPUT);
    /* An ARM implementer or part wider than MIDR_EL1's 8 and 12 bits. */
    const char wide[] = "CPU implementer\t: 0x41\nCPU part\t: 0x12345678\n";
    CHECK_EQ_INT(oc_machine_parse_cpuinfo(wide, sizeof wide - 1, &m, &e), OC_ERR_INPUT);
    const char wide_impl[] = "CPU implementer\t: 0x1ff\nCPU part\t: 0xd0c\n";
    CHECK_EQ_INT(oc_machine_parse_cpuinfo(wide_impl, sizeof wide_impl - 1, &m, &e), OC_ERR_INPUT);
    const char arm_ok[] = "CPU implementer\t: 0x41\nCPU part\t: 0xd0c\n";
    CHECK_EQ_INT(oc_machine_parse_cpuinfo(arm_ok, sizeof arm_ok - 1, &m, &e), OC_OK);
    CHECK_EQ_STR(m.id, "cpu-ARM-i0x41-p0xd0c");
    /* A vendor with characters a file name cannot keep. */
    const char odd[] = "vendor_id : Odd/Vendor X\ncpu family : 1\nmodel : 2\n";
    CHECK_EQ_INT(oc_machine_parse_cpuinfo(odd, sizeof odd - 1, &m, &e), OC_OK);
    CHECK_EQ_STR(m.id, "cpu-Odd_Vendor_X-f1-m2");

    /* This machine: never fails, always an id. */
    oc_machine_detect(&m);
    CHECK(m.id[0] != '\0' && m.cores >= 1);
    json_t *j = oc_machine_to_json(&m);
    CHECK(j && json_is_string(json_object_get(j, "id")));
    json_decref(j);
}

/* Synthetic probe rows: conv kernels 2x slower than predicted, gemm 2x
 * faster, everything else as predicted, with a little noise. */
enum { NROWS = 60 };
static float X[NROWS][OC_N_FEATURES];
static oc_calib_row rows[NROWS];

static void make_rows(void)
{
    unsigned seed = 7;
    for (int i = 0; i < NROWS; i++) {
        memset(X[i], 0, sizeof X[i]);
        int fam = i % 3 == 0 ? OC_OPF_CONV : i % 3 == 1 ? OC_OPF_GEMM : OC_OPF_ELEMENTWISE;
        X[i][OC_F_FAM_CONV + fam] = 1;
        X[i][OC_F_LOG_INTENSITY] = (float)(i % 7);
        X[i][OC_F_THREADS] = 1;
        seed = seed * 1103515245u + 12345u;
        double noise = 1 + 0.04 * ((double)(seed >> 16 & 1023) / 1023.0 - 0.5);
        double pred = 10.0 * (1 + i);
        double factor = fam == OC_OPF_CONV ? 2.0 : fam == OC_OPF_GEMM ? 0.5 : 1.0;
        rows[i] = (oc_calib_row){X[i], pred, pred * factor * noise};
    }
}

/* What a kernel of predicted time x adds to a run under the curve through
 * (0, 0) and (knots[j], w[j]), slope 1 beyond the last. */
static double curve_at(const double *w, double x)
{
    double x0 = 0, w0 = 0;
    for (int j = 0; j < OC_CALIB_CURVE_KNOTS; j++) {
        if (x <= oc_calib_curve_knots[j])
            return w0 + (w[j] - w0) * (x - x0) / (oc_calib_curve_knots[j] - x0);
        x0 = oc_calib_curve_knots[j];
        w0 = w[j];
    }
    return w0 + x - x0;
}

/* The kernel curve fitted on whole-network runs (calibrate's curve
 * networks): it finds the curve the runs were made with, is left out on
 * too few runs or one network, keeps its last point at least the chains'
 * rule, and round-trips through the file without a "from". */
static void kernel_curve(oc_calib *c)
{
    enum { NETS = 4, RUNS = 6, KERNELS = 40 };
    const double truth[OC_CALIB_CURVE_KNOTS] = {0.2, 0.3, 0.6, 2.0, 8.0, 24.0, 62.0};
    static double xs[NETS * RUNS][KERNELS];
    oc_calib_curve_run runs[NETS * RUNS];
    for (int r = 0; r < NETS * RUNS; r++) {
        double wall = 50;
        for (int k = 0; k < KERNELS; k++) {
            /* 0.5 .. 100 us, a different mix in each run */
            xs[r][k] = 0.5 * pow(200.0, fmod(0.618 * (k + 1) * (r + 3), 1.0));
            wall += curve_at(truth, xs[r][k]);
        }
        runs[r] = (oc_calib_curve_run){wall, 2 * wall, 50, xs[r], KERNELS, r / RUNS};
    }
    oc_calib_fit f = {.threads = 1, .n_chains = 1, .kernel_floor_us = 0.2,
                      .per_kernel_us = -3};
    oc_error e;
    double before = -1, after = -1;
    CHECK_EQ_INT(oc_calib_fit_curve(&f, runs, NETS * RUNS, 1e-14, &before, &after, &e), OC_OK);
    CHECK(fabs(before - 1) < 1e-9); /* each run's total was twice its wall time */
    CHECK(f.n_curve == OC_CALIB_CURVE_KNOTS && f.curve_runs == NETS * RUNS &&
          !f.curve_from[0]);
    for (int j = 0; j < OC_CALIB_CURVE_KNOTS; j++)
        CHECK(fabs(f.curve_w[j] - truth[j]) < 1e-3 && f.curve_x[j] == oc_calib_curve_knots[j]);
    CHECK(after < 1e-4);
    /* saved in c's fit at 1 thread as this machine's: no "from" */
    oc_calib_fit *cf = (oc_calib_fit *)oc_calib_fit_for(c, 1), keep = *cf;
    cf->n_curve = f.n_curve;
    cf->curve_runs = f.curve_runs;
    memcpy(cf->curve_x, f.curve_x, sizeof f.curve_x);
    memcpy(cf->curve_w, f.curve_w, sizeof f.curve_w);
    cf->curve_from[0] = 0;
    json_t *j = oc_calib_to_json(c);
    char *s = j ? json_dumps(j, 0) : NULL;
    oc_calib back;
    CHECK(s && strstr(s, "\"kernel_curve\"") && !strstr(s, "\"from\"") &&
          oc_calib_loadb(s, strlen(s), "curve.json", &back, &e) == OC_OK &&
          oc_calib_fit_for(&back, 1)->n_curve == OC_CALIB_CURVE_KNOTS &&
          fabs(oc_calib_fit_for(&back, 1)->curve_w[3] - truth[3]) < 1e-3);
    free(s);
    json_decref(j);
    *cf = keep;
    /* too few runs, or one network: no curve, the fit as it was */
    oc_calib_fit g = {.threads = 1};
    CHECK_EQ_INT(oc_calib_fit_curve(&g, runs, OC_CALIB_CURVE_MIN_RUNS - 1, 1e-8, NULL, &after,
                                    &e), OC_OK);
    CHECK(g.n_curve == 0 && after == 0);
    CHECK_EQ_INT(oc_calib_fit_curve(&g, runs, RUNS, 1e-8, NULL, NULL, &e), OC_OK);
    CHECK(g.n_curve == 0);
    /* runs that say large kernels add little: the last point stays at
     * the chains' rule (64 - 3 us), the curve rising and at most x */
    for (int r = 0; r < NETS * RUNS; r++) {
        double wall = 50;
        for (int k = 0; k < KERNELS; k++)
            wall += fmin(xs[r][k], 0.3);
        runs[r].wall_us = wall;
    }
    CHECK_EQ_INT(oc_calib_fit_curve(&f, runs, NETS * RUNS, 1e-8, NULL, NULL, &e), OC_OK);
    CHECK(fabs(f.curve_w[OC_CALIB_CURVE_KNOTS - 1] - 61) < 1e-9);
    for (int k = 0; k < OC_CALIB_CURVE_KNOTS; k++)
        CHECK(f.curve_w[k] >= (k ? f.curve_w[k - 1] : 0) && f.curve_w[k] <= f.curve_x[k]);
    /* a run without a time */
    runs[3].wall_us = 0;
    CHECK_EQ_INT(oc_calib_fit_curve(&f, runs, NETS * RUNS, 1e-8, NULL, NULL, &e),
                 OC_ERR_USAGE);
}

static void calibrations(void)
{
    make_rows();
    oc_machine m;
    size_t n = 0;
    char *text = slurp("amd-epyc-f26.txt", &n);
    oc_error e;
    CHECK(text && oc_machine_parse_cpuinfo(text, n, &m, &e) == OC_OK);
    free(text);
    m.cores = 2;
    oc_calib c;
    oc_calib_init(&c, &m, "ort-cpu", "onnxruntime-node 1.30.0", "inference", "cpu-x",
                  "2026-12-03T08:18:01Z");
    CHECK_EQ_INT(oc_calib_fit_threads(&c, 1, rows, 5, 1, 0, &e), OC_ERR_USAGE); /* too few */
    CHECK_EQ_INT(oc_calib_fit_threads(&c, 1, rows, NROWS, 0.98, 3.8, &e), OC_OK);
    const oc_calib_fit *f = oc_calib_fit_for(&c, 1);
    CHECK(f != NULL && oc_calib_fit_for(&c, 2) == NULL);
    /* The factors come back, pulled a little towards the machine-wide
     * ratio (20 kernels a group against a prior worth 3). */
    double fc = oc_calib_factor(f, X[0], rows[0].pred_us);
    double fg = oc_calib_factor(f, X[1], rows[1].pred_us);
    double fe = oc_calib_factor(f, X[2], rows[2].pred_us);
    CHECK(fc > 1.75 && fc < 2.0);
    CHECK(fg > 0.5 && fg < 0.6);
    CHECK(fe > 0.9 && fe < 1.1);
    CHECK(f->err_before > 0.4 && f->err_after < 0.12);
    CHECK_EQ_INT(f->n_group[OC_OPF_CONV], 20);
    /* The probe takes the size form when it beats the model alone; every
     * form is kept for the anchors to choose among, "none" at the model's
     * own error, "scale" a factor per group with no slope. */
    CHECK_EQ_INT(f->form, OC_CALIB_SIZE);
    CHECK(f->form_err[OC_CALIB_NONE] == f->err_before &&
          f->form_err[OC_CALIB_SCALE] < 0.12 && f->form_err[OC_CALIB_SIZE] == f->err_after);
    {
        oc_calib_fit g = *f;
        oc_calib_use_form(&g, OC_CALIB_NONE);
        CHECK(oc_calib_factor(&g, X[0], rows[0].pred_us) == 1 && g.err_after == g.err_before);
        oc_calib_use_form(&g, OC_CALIB_SCALE);
        CHECK(g.form == OC_CALIB_SCALE && g.w[OC_OPF_CONV][1] == 0 && g.w[OC_OPF_CONV][2] == 0);
        CHECK(fabs(oc_calib_factor(&g, X[0], 10) - oc_calib_factor(&g, X[0], 1e4)) < 1e-12);
        CHECK(oc_calib_factor(&g, X[0], 10) > 1.75 && oc_calib_factor(&g, X[0], 10) < 2.0);
        CHECK_EQ_STR(oc_calib_form_name(OC_CALIB_SCALE), "scale");
    }
    /* A group the probe never saw gets the machine-wide ratio. */
    float other[OC_N_FEATURES] = {0};
    other[OC_F_FAM_CONV + OC_OPF_POOL] = 1;
    double fp = oc_calib_factor(f, other, 100);
    CHECK(fp > 0.6 && fp < 1.6);
    CHECK_EQ_INT(oc_calib_group_of(other), OC_OPF_POOL);
    other[OC_F_FAM_CONV + OC_OPF_POOL] = 0;
    other[OC_F_FAM_CONV + OC_OPF_CONV] = 1;
    other[OC_F_DEPTHWISE] = 1;
    CHECK_EQ_INT(oc_calib_group_of(other), OC_CALIB_DEPTHWISE);
    CHECK_EQ_STR(oc_calib_group_name(OC_CALIB_DEPTHWISE), "conv_depthwise");

    /* Conv 2x slower at 10 us, 4x at the largest: slopes on the size;
     * no error at all: no correction. */
    {
        static oc_calib_row sized[NROWS], exact[NROWS];
        for (int i = 0; i < NROWS; i++) {
            sized[i] = exact[i] = rows[i];
            double fam = rows[i].meas_us / rows[i].pred_us;
            sized[i].meas_us = rows[i].pred_us * fam * pow(1 + i, 0.17);
            exact[i].meas_us = rows[i].pred_us;
        }
        oc_calib cs;
        oc_calib_init(&cs, &m, "ort-cpu", "onnxruntime-node 1.30.0", "inference", "cpu-x", "");
        CHECK_EQ_INT(oc_calib_fit_threads(&cs, 1, sized, NROWS, 1, 0, &e), OC_OK);
        CHECK_EQ_INT(oc_calib_fit_for(&cs, 1)->form, OC_CALIB_SIZE);
        CHECK_EQ_INT(oc_calib_fit_threads(&cs, 1, exact, NROWS, 1, 0, &e), OC_OK);
        const oc_calib_fit *fx = oc_calib_fit_for(&cs, 1);
        CHECK(fx->form == OC_CALIB_NONE && fx->err_before == 0 &&
              oc_calib_factor(fx, X[0], 10) == 1);
    }
    /* Shape kernels cost what a kernel of the chains cost as profiled,
     * where chains were timed; else the timing model's figure. */
    {
        oc_calib_fit g = *f;
        CHECK(oc_calib_small_kernel_us(&g, 5.0) == 5.0 && oc_calib_small_kernel_us(NULL, 5.0) == 5.0);
        g.n_chains = 4;
        g.profiled_kernel_us = 2.34;
        CHECK(oc_calib_small_kernel_us(&g, 5.0) == 2.34 && oc_calib_small_kernel_us(&g, 0) == 0);
    }

    /* Round trip through JSON and a file. */
    CHECK_EQ_INT(oc_calib_fit_threads(&c, 2, rows, NROWS, 0.87, 0, &e), OC_OK);
    char path[] = "/tmp/oc-calib-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    CHECK_EQ_INT(oc_calib_save(&c, path, &e), OC_OK);
    oc_calib back;
    CHECK_EQ_INT(oc_calib_load(path, &back, &e), OC_OK);
    CHECK_EQ_STR(back.machine.id, "cpu-AuthenticAMD-f26-m2");
    CHECK_EQ_STR(back.base_machine, "cpu-x");
    CHECK_EQ_INT(back.n_fits, 2);
    CHECK(back.machine.isa == m.isa);
    const oc_calib_fit *bf = oc_calib_fit_for(&back, 1);
    CHECK(bf && fabs(oc_calib_factor(bf, X[0], rows[0].pred_us) - fc) < 1e-6);
    CHECK(bf && bf->form == OC_CALIB_SIZE);
    CHECK(bf && fabs(bf->kernel_scale - 0.98) < 1e-9 && fabs(bf->per_kernel_us - 3.8) < 1e-9);

    /* The in-graph scale from whole networks: measured = 1.2 x kernels +
     * 3.8 us a kernel is found exactly; the base scale and both errors are
     * kept, and survive the file. */
    oc_calib_fit *wf = (oc_calib_fit *)oc_calib_fit_for(&c, 1);
    oc_calib_anchor an[4] = {{"a", 1000, 20, 0}, {"a", 4000, 20, 0}, {"b", 500, 60, 0},
                             {"c", 9000, 30, 0}};
    for (int i = 0; i < 4; i++)
        an[i].meas_us = 1.2 * an[i].kernels_us + 3.8 * (double)an[i].kernels;
    CHECK_EQ_INT(oc_calib_fit_in_graph(wf, an, 0, &e), OC_ERR_USAGE);
    CHECK_EQ_INT(oc_calib_fit_in_graph(wf, an, 4, &e), OC_OK);
    CHECK(fabs(wf->kernel_scale - 1.2) < 1e-9 && fabs(wf->base_kernel_scale - 0.98) < 1e-9);
    CHECK(wf->n_anchors == 4 && wf->anchor_err_before > 0.15 && wf->anchor_err_after < 1e-9);
    CHECK_EQ_INT(oc_calib_save(&c, path, &e), OC_OK);
    CHECK_EQ_INT(oc_calib_load(path, &back, &e), OC_OK);
    bf = oc_calib_fit_for(&back, 1);
    CHECK(bf && fabs(bf->kernel_scale - 1.2) < 1e-6 && bf->n_anchors == 4 &&
          fabs(bf->base_kernel_scale - 0.98) < 1e-6 && bf->anchor_err_before > 0.15);
    /* One network alone: nothing to leave it out for; an absurd ratio is
     * kept within [0.25, 4]. */
    an[0].meas_us = 100 * an[0].kernels_us;
    CHECK_EQ_INT(oc_calib_fit_in_graph(wf, an, 1, &e), OC_OK);
    CHECK(fabs(wf->kernel_scale - 4) < 1e-9 && fabs(wf->anchor_err_after - wf->anchor_err_before) < 1e-9);
    an[1].meas_us = 0;
    CHECK_EQ_INT(oc_calib_fit_in_graph(wf, an, 2, &e), OC_ERR_USAGE);
    /* Per-group in-graph factors: every network counts by the group's share
     * of it, not by its length.  Conv runs 0.5x its prediction in a long
     * network where it is all the time, 2x in a short one where it is too:
     * the factor is 1, where summed times would give ~0.5.  A group with
     * under 20 kernels, or under 2% of the time, gets none. */
    {
        oc_calib_group_sum gs[OC_CALIB_GROUPS] = {{0}};
        double meas[OC_CALIB_GROUPS] = {0}, pred[OC_CALIB_GROUPS] = {0};
        size_t n[OC_CALIB_GROUPS] = {0};
        meas[OC_OPF_CONV] = 50000, pred[OC_OPF_CONV] = 100000, n[OC_OPF_CONV] = 40;
        meas[OC_OPF_GEMM] = 10, pred[OC_OPF_GEMM] = 10, n[OC_OPF_GEMM] = 30;
        oc_calib_group_sum_add(gs, meas, pred, n, 100010);
        meas[OC_OPF_CONV] = 2000, pred[OC_OPF_CONV] = 1000;
        meas[OC_OPF_GEMM] = 0, n[OC_OPF_GEMM] = 0;
        oc_calib_group_sum_add(gs, meas, pred, n, 1000);
        CHECK(gs[OC_OPF_CONV].n == 80 && gs[OC_OPF_GEMM].n == 30);
        oc_calib_fit_in_graph_groups(wf, gs);
        CHECK(fabs(oc_calib_in_graph_factor(wf, OC_OPF_CONV) - 1) < 1e-3);
        CHECK(oc_calib_in_graph_factor(wf, OC_OPF_GEMM) == 1 && wf->in_graph[OC_OPF_GEMM] == 0);
        /* one network alone: its ratio, within [0.5, 2] */
        oc_calib_group_sum one[OC_CALIB_GROUPS] = {{0}};
        meas[OC_OPF_CONV] = 9000;
        oc_calib_group_sum_add(one, meas, pred, n, 1000);
        oc_calib_fit_in_graph_groups(wf, one);
        CHECK(fabs(wf->in_graph[OC_OPF_CONV] - 2) < 1e-9);
        memset(wf->in_graph, 0, sizeof wf->in_graph);
    }
    /* Handing outputs back: the median per MB beyond the kernels over the
     * large outputs, never below 0; a small output's cost says nothing. */
    oc_calib_output op[4] = {{165000, 5000, 40000000},
                             {325000, 5000, 80000000},
                             {100, 900, 40000000},
                             {90000, 1000, 16000000}};
    CHECK_EQ_INT(oc_calib_fit_output(wf, op, 0, &e), OC_ERR_USAGE);
    CHECK_EQ_INT(oc_calib_fit_output(wf, op, 2, &e), OC_OK);
    CHECK(fabs(wf->output_us_per_mb - 4000) < 1e-9);
    CHECK_EQ_INT(oc_calib_fit_output(wf, op, 4, &e), OC_OK);
    CHECK(fabs(wf->output_us_per_mb - 4000) < 1e-9);
    CHECK_EQ_INT(oc_calib_fit_output(wf, op + 2, 1, &e), OC_OK);
    CHECK(wf->output_us_per_mb == 0);
    CHECK_EQ_INT(oc_calib_fit_output(wf, op + 3, 1, &e), OC_OK);
    CHECK(wf->output_us_per_mb == 0);
    op[0].bytes = 0;
    CHECK_EQ_INT(oc_calib_fit_output(wf, op, 1, &e), OC_ERR_USAGE);
    /* Chains of tiny kernels: per_kernel_us is the run's slope less the
     * one the calibrated model predicts (less the profiled one where the
     * chains were not predicted); both saved and read back. */
    {
        oc_calib_fit keep = *wf;
        oc_calib_chain ch[2] = {{8, 30, 20, 24}, {256, 80, 600, 768}};
        CHECK_EQ_INT(oc_calib_fit_chain(wf, ch, 2, &e), OC_OK);
        CHECK(fabs(wf->kernel_floor_us - 50.0 / 248) < 1e-9);
        CHECK(fabs(wf->predicted_kernel_us - 3.0) < 1e-9);
        CHECK(fabs(wf->per_kernel_us - (50.0 / 248 - 3.0)) < 1e-9);
        json_t *cj = oc_calib_to_json(&c);
        char *cs = cj ? json_dumps(cj, 0) : NULL;
        oc_calib cb;
        CHECK(cs && strstr(cs, "\"predicted_us_per_kernel\"") &&
              oc_calib_loadb(cs, strlen(cs), "chains.json", &cb, &e) == OC_OK &&
              fabs(oc_calib_fit_for(&cb, wf->threads)->predicted_kernel_us - 3.0) < 1e-6);
        free(cs);
        json_decref(cj);
        ch[0].predicted_us = 0;
        CHECK_EQ_INT(oc_calib_fit_chain(wf, ch, 2, &e), OC_OK);
        CHECK(wf->predicted_kernel_us == 0 &&
              fabs(wf->per_kernel_us - (50.0 - 580.0) / 248) < 1e-9);
        /* Chains of recurrent steps: per_kernel_us becomes their run's
         * slope less their predicted one; the chains' floor stays. */
        ch[0].predicted_us = 24;
        CHECK_EQ_INT(oc_calib_fit_chain(wf, ch, 2, &e), OC_OK);
        oc_calib_chain st[3] = {{80, 50, 300, 250}, {640, 260, 2800, 2000}, {640, 280, 2900, 2100}};
        CHECK_EQ_INT(oc_calib_fit_steps(wf, st, 3, &e), OC_OK);
        CHECK(wf->n_steps == 3 && fabs(wf->kernel_floor_us - 50.0 / 248) < 1e-9);
        CHECK(fabs(wf->step_wall_us - 220.0 / 560) < 1e-9);
        CHECK(fabs(wf->step_predicted_us - 1800.0 / 560) < 1e-9);
        CHECK(fabs(wf->per_kernel_us - (220.0 - 1800.0) / 560) < 1e-9);
        cj = oc_calib_to_json(&c);
        cs = cj ? json_dumps(cj, 0) : NULL;
        CHECK(cs && strstr(cs, "\"step_chain\"") &&
              oc_calib_loadb(cs, strlen(cs), "steps.json", &cb, &e) == OC_OK &&
              oc_calib_fit_for(&cb, wf->threads)->n_steps == 3 &&
              fabs(oc_calib_fit_for(&cb, wf->threads)->step_predicted_us - 1800.0 / 560) <
                  1e-6 &&
              fabs(oc_calib_fit_for(&cb, wf->threads)->per_kernel_us - wf->per_kernel_us) < 1e-6);
        /* a step chain that is not whole is a corrupt file */
        char *bad = cs ? strstr(cs, "\"step_chain\"") : NULL;
        char *pk = bad ? strstr(bad, "\"predicted_us_per_kernel\"") : NULL;
        if (pk)
            memcpy(pk, "\"predicted_us_per_kernex\"", 25);
        CHECK(pk && oc_calib_loadb(cs, strlen(cs), "steps.json", &cb, &e) == OC_ERR_INPUT &&
              strstr(e.msg, "step_chain"));
        free(cs);
        json_decref(cj);
        /* one length, or chains not predicted: no fit */
        CHECK_EQ_INT(oc_calib_fit_steps(wf, st + 1, 2, &e), OC_ERR_USAGE);
        st[0].predicted_us = 0;
        CHECK_EQ_INT(oc_calib_fit_steps(wf, st, 3, &e), OC_ERR_USAGE);
        *wf = keep;
    }

    kernel_curve(&c);

    /* A file older than the forms: slopes say "size", else "scale". */
    json_t *j = oc_calib_to_json(&c);
    for (size_t k = 0; k < json_array_size(json_object_get(j, "threads")); k++)
        json_object_del(json_array_get(json_object_get(j, "threads"), k), "correction");
    char *old = json_dumps(j, 0);
    CHECK(old && oc_calib_loadb(old, strlen(old), "old.json", &back, &e) == OC_OK);
    CHECK(old && oc_calib_fit_for(&back, 1)->form == OC_CALIB_SIZE);
    free(old);
    json_decref(j);

    /* Refusals: corrupt, foreign, another version, not one at all. */
    j = oc_calib_to_json(&c);
    char *good = json_dumps(j, 0);
    json_decref(j);
    struct {
        const char *from, *to, *why;
    } bad[] = {
        {"\"version\": 1", "\"version\": 9", "calibration format version 9"},
        {"\"fingerprint\": \"cpu-AuthenticAMD-f26-m2\"", "\"fingerprint\": \"cpu-X\"",
         "fingerprint cpu-X but machine"},
        {"\"target\": \"ort-cpu\"", "\"target\": 5", "header"},
        {"\"mode\": \"inference\"", "\"mode\": \"dreaming\"", "header"},
        {"\"threads\": 1,", "\"threads\": 0,", "bad entry"},
        {"\"correction\": \"size\"", "\"correction\": \"huge\"", "bad \"correction\""},
        {"\"format\": \"onnxcost-calibration\"", "\"format\": \"x\"", "not an onnxcost"},
    };
    for (size_t k = 0; good && k < sizeof bad / sizeof bad[0]; k++) {
        char *p = strstr(good, bad[k].from);
        CHECK(p != NULL);
        if (!p)
            continue;
        size_t len = strlen(good), fl = strlen(bad[k].from), tl = strlen(bad[k].to);
        char *t = malloc(len + tl + 1);
        memcpy(t, good, (size_t)(p - good));
        memcpy(t + (p - good), bad[k].to, tl);
        strcpy(t + (p - good) + tl, p + fl);
        oc_error_clear(&e);
        CHECK_EQ_INT(oc_calib_loadb(t, strlen(t), "x.json", &back, &e), OC_ERR_INPUT);
        if (!strstr(e.msg, bad[k].why))
            fprintf(stderr, "  message '%s' lacks '%s'\n", e.msg, bad[k].why);
        CHECK(strstr(e.msg, bad[k].why) != NULL);
        free(t);
    }
    /* Truncated at every tenth byte: refused, never a crash. */
    size_t glen = good ? strlen(good) : 0;
    int refused = 0, tried = 0;
    for (size_t cut = 0; cut + 1 < glen; cut += 10, tried++)
        refused += oc_calib_loadb(good, cut, "x.json", &back, &e) == OC_ERR_INPUT;
    CHECK_EQ_INT(refused, tried);
    free(good);
    CHECK_EQ_INT(oc_calib_load("/nonexistent/c.json", &back, &e), OC_ERR_IO);
    remove(path);

    /* The timing model applies it, and only to its own target and mode. */
    oc_tmodel *tm;
    char tpath[512];
    snprintf(tpath, sizeof tpath, "%s/../data/ort-cpu.tmodel", OC_TESTS_DIR);
    if (oc_tmodel_load(tpath, &tm, &e) == OC_OK) {
        double t0, t1;
        CHECK_EQ_INT(oc_tmodel_predict_features(tm, X[0], 1, &t0, NULL, NULL, &e), OC_OK);
        CHECK_EQ_INT(oc_tmodel_set_calib(tm, &c, &e), OC_OK);
        CHECK_EQ_INT(oc_tmodel_predict_features(tm, X[0], 1, &t1, NULL, NULL, &e), OC_OK);
        const oc_calib_fit *tf = oc_tmodel_calib_fit(tm);
        CHECK(tf != NULL && fabs(t1 - t0 * oc_calib_factor(tf, X[0], t0)) < 1e-9 * t1);
        oc_calib other_mode = c;
        snprintf(other_mode.mode, sizeof other_mode.mode, "training");
        CHECK_EQ_INT(oc_tmodel_set_calib(tm, &other_mode, &e), OC_ERR_USAGE);
        CHECK(oc_tmodel_set_threads(tm, 3, &e) == OC_OK && oc_tmodel_calib_fit(tm) == NULL);
        /* Each row takes the fit of its own thread count: none at 3. */
        float x3[OC_N_FEATURES];
        memcpy(x3, X[0], sizeof x3);
        x3[OC_F_THREADS] = 3;
        double t3;
        CHECK_EQ_INT(oc_tmodel_predict_features(tm, x3, 1, &t3, NULL, NULL, &e), OC_OK);
        oc_tmodel_set_calib(tm, NULL, &e);
        double t3u;
        CHECK_EQ_INT(oc_tmodel_predict_features(tm, x3, 1, &t3u, NULL, NULL, &e), OC_OK);
        CHECK(t3 == t3u);
        oc_tmodel_free(tm);
    } else {
        CHECK(!"data/ort-cpu.tmodel loads");
    }
    /* An integer kernel (one-byte operands of a computing op) is a group
     * of its own, whatever its family; an int8 Transpose stays data
     * movement.  A calibration written before the group existed (the
     * shipped one) gives it the machine-wide correction. */
    {
        float q[OC_N_FEATURES] = {0};
        q[OC_F_FAM_CONV] = 1;
        q[OC_F_DTYPE_BYTES] = 4;
        CHECK_EQ_INT(oc_calib_group_of(q), OC_OPF_CONV);
        q[OC_F_DTYPE_BYTES] = 1;
        CHECK_EQ_INT(oc_calib_group_of(q), OC_CALIB_QUANTIZED);
        q[OC_F_FAM_CONV] = 0;
        q[OC_F_FAM_DATA_MOVEMENT] = 1;
        CHECK_EQ_INT(oc_calib_group_of(q), OC_OPF_DATA_MOVEMENT);
        CHECK_EQ_STR(oc_calib_group_name(OC_CALIB_QUANTIZED), "quantized");
        char sp[4096];
        oc_calib shipped;
        snprintf(sp, sizeof sp,
                 "%s/../data/machines/cpu-AuthenticAMD-f26-m2/ort-cpu-inference-calibration.json",
                 OC_TESTS_DIR);
        CHECK_EQ_INT(oc_calib_load(sp, &shipped, &e), OC_OK);
        const oc_calib_fit *sf = oc_calib_fit_for(&shipped, 1);
        CHECK(sf && !memcmp(sf->w[OC_CALIB_QUANTIZED], sf->global, sizeof sf->global));
    }
}

/* A machine's description through JSON and back (what a calibration and
 * a hardware profile hold), and the objects that are refused. */
static void machine_json(void)
{
    oc_machine m = {.family = 26, .model = 2, .stepping = 1, .cores = 2,
                    .l2_bytes = 1 << 20, .l3_bytes = 32 << 20};
    snprintf(m.id, sizeof m.id, "cpu-AuthenticAMD-f26-m2");
    snprintf(m.vendor, sizeof m.vendor, "AuthenticAMD");
    snprintf(m.model_name, sizeof m.model_name, "AMD EPYC");
    m.isa = oc_isa_bits_from_flags("avx2 fma avx512f");
    json_t *j = oc_machine_to_json(&m);
    oc_machine back;
    CHECK(j && oc_machine_from_json(j, &back));
    CHECK(!strcmp(back.id, m.id) && !strcmp(back.vendor, m.vendor) && back.isa == m.isa);
    CHECK(back.family == 26 && back.model == 2 && back.stepping == 1 && back.cores == 2);
    CHECK(back.l2_bytes == m.l2_bytes && back.l3_bytes == m.l3_bytes);
    CHECK_EQ_STR(back.model_name, "AMD EPYC");
    CHECK_EQ_INT(oc_machine_nchwc_block(&back), 16);
    json_object_set_new(j, "cores", json_integer(0)); /* out of range */
    CHECK(!oc_machine_from_json(j, &back) && !back.id[0]);
    json_object_set_new(j, "cores", json_real(2.0)); /* a number either way */
    CHECK(oc_machine_from_json(j, &back) && back.cores == 2);
    json_object_del(j, "vendor");
    CHECK(!oc_machine_from_json(j, &back));
    json_object_set_new(j, "vendor", json_stringn("Auth\0AMD", 8)); /* a NUL inside */
    CHECK(!oc_machine_from_json(j, &back));
    json_object_set_new(j, "vendor", json_string("AuthenticAMD"));
    json_object_set_new(j, "id", json_string(""));
    CHECK(!oc_machine_from_json(j, &back));
    json_object_set_new(j, "id", json_string("cpu-x"));
    json_object_set_new(j, "isa", json_string("avx2"));
    CHECK(!oc_machine_from_json(j, &back));
    CHECK(!oc_machine_from_json(NULL, &back));
    json_decref(j);
}

int main(void)
{
    fingerprints();
    machine_json();
    calibrations();
    return t_report("test_machine");
}
