/* test_mlp.c - the MLP, the feature vector, the timing-model file (with its
 * in-graph fit and coverage) and the target table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "harness.h"
#include "predictor/baseline.h"
#include "predictor/features.h"
#include "predictor/mlp.h"
#include "predictor/predict.h"
#include "predictor/target.h"
#include "predictor/targets.h"
#include "predictor/tmodel.h"

/* ---- an independent double-precision forward pass, for finite differences ---- */

static double ref_loss(const oc_mlp *m, const float *X, const float *y, size_t n, double l2,
                       double huber)
{
    double sse = 0, a[2][OC_MLP_MAX_WIDTH > 256 ? 256 : OC_MLP_MAX_WIDTH];
    for (size_t r = 0; r < n; r++) {
        for (int i = 0; i < m->sizes[0]; i++)
            a[0][i] = X[r * m->sizes[0] + i];
        int cur = 0;
        for (int l = 0; l < m->n_layers; l++) {
            int in = m->sizes[l], out = m->sizes[l + 1];
            for (int o = 0; o < out; o++) {
                double z = m->b[l][o];
                for (int i = 0; i < in; i++)
                    z += a[cur][i] * (double)m->W[l][i * out + o];
                a[!cur][o] = (l < m->n_layers - 1 && z < 0) ? 0 : z;
            }
            cur = !cur;
        }
        double e = a[cur][0] - y[r];
        sse += huber > 0 && fabs(e) > huber ? 2 * huber * fabs(e) - huber * huber : e * e;
    }
    double w2 = 0;
    for (int l = 0; l < m->n_layers; l++)
        for (int k = 0; k < m->sizes[l] * m->sizes[l + 1]; k++)
            w2 += (double)m->W[l][k] * m->W[l][k];
    return sse / (double)n + 0.5 * l2 * w2;
}

/* huber 0: squared error; > 0: Huber, with residuals on both sides of it. */
static void gradient_check(double huber)
{
    int hidden[] = {5, 4};
    oc_mlp *m, *g;
    oc_error err;
    CHECK(oc_mlp_new(3, hidden, 2, 1, &m, &err) == OC_OK);
    CHECK(oc_mlp_new(3, hidden, 2, 1, &g, &err) == OC_OK);
    oc_rng rng;
    oc_rng_seed(&rng, 42);
    oc_mlp_init_weights(m, &rng);
    for (int l = 0; l < m->n_layers; l++) /* nonzero biases exercise their gradient */
        for (int k = 0; k < m->sizes[l + 1]; k++)
            m->b[l][k] = (float)(0.1 * oc_rng_normal(&rng));
    enum { N = 7 };
    float X[N * 3], y[N];
    for (int k = 0; k < N * 3; k++)
        X[k] = (float)(2 * oc_rng_uniform(&rng) - 1);
    for (int k = 0; k < N; k++)
        y[k] = (float)oc_rng_normal(&rng);
    double l2 = 0.05, loss;
    CHECK(oc_mlp_loss_grad(m, X, y, N, l2, huber, g, &loss, &err) == OC_OK);
    CHECK(fabs(loss - ref_loss(m, X, y, N, l2, huber)) < 1e-5 * (1 + loss));

    /* Central differences on every weight and bias, in double precision on
     * a float32 parameter nudged by eps (the parameter itself stays a
     * float, so use its actual float step). */
    int checked = 0, bad = 0;
    double worst = 0;
    for (int l = 0; l < m->n_layers; l++) {
        for (int pass = 0; pass < 2; pass++) {
            int cnt = pass ? m->sizes[l + 1] : m->sizes[l] * m->sizes[l + 1];
            float *p = pass ? m->b[l] : m->W[l];
            float *gp = pass ? g->b[l] : g->W[l];
            for (int k = 0; k < cnt; k++) {
                float orig = p[k];
                float hi = orig + 1e-3f, lo = orig - 1e-3f;
                p[k] = hi;
                double fp = ref_loss(m, X, y, N, l2, huber);
                p[k] = lo;
                double fm = ref_loss(m, X, y, N, l2, huber);
                p[k] = orig;
                double num = (fp - fm) / ((double)hi - (double)lo);
                double diff = fabs(num - gp[k]) / (1e-3 + fabs(num) + fabs(gp[k]));
                if (diff > worst)
                    worst = diff;
                bad += diff > 1e-3;
                checked++;
            }
        }
    }
    CHECK_EQ_INT(checked, (int)oc_mlp_n_params(m));
    CHECK_EQ_INT(bad, 0);
    printf("gradient check (huber %g): %d parameters, worst relative difference %.2e\n", huber,
           checked, worst);
    oc_mlp_free(m);
    oc_mlp_free(g);
}

static void test_gradient_check(void)
{
    gradient_check(0);
    gradient_check(0.3);
}

/* y = sin(2 x0) + 0.5 x1^2 - x0 x2 over [-1.5, 1.5]^3. */
static float smooth(const float *x)
{
    return (float)(sin(2.0 * x[0]) + 0.5 * x[1] * x[1] - x[0] * x[2]);
}

static void make_data(uint64_t seed, size_t n, float *X, float *y)
{
    oc_rng r;
    oc_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < 3; j++)
            X[i * 3 + j] = (float)(3 * oc_rng_uniform(&r) - 1.5);
        y[i] = smooth(X + i * 3);
    }
}

static int quiet_progress(void *ud, const oc_mlp_epoch *e)
{
    int *n = ud;
    (*n)++;
    return e->val_loss != e->val_loss; /* stop on NaN only */
}

static void test_learns_smooth_function(void)
{
    enum { NT = 3000, NV = 600 };
    static float X[NT * 3], y[NT], Xv[NV * 3], yv[NV];
    make_data(1, NT, X, y);
    make_data(2, NV, Xv, yv);
    double var = 0, mean = 0;
    for (int i = 0; i < NV; i++)
        mean += yv[i] / NV;
    for (int i = 0; i < NV; i++)
        var += (yv[i] - mean) * (yv[i] - mean) / NV;
    int hidden[] = {64, 64};
    oc_mlp_train_opts o = oc_mlp_train_defaults();
    o.hidden = hidden;
    o.n_hidden = 2;
    o.epochs = 150;
    o.batch = 64;
    o.lr = 3e-3;
    o.patience = 30;
    o.seed = 11;
    int epochs_seen = 0;
    o.progress = quiet_progress;
    o.ud = &epochs_seen;
    oc_mlp *m = NULL;
    oc_mlp_train_report rep;
    oc_error err;
    CHECK(oc_mlp_train(&o, X, y, NT, 3, Xv, yv, NV, &m, &rep, &err) == OC_OK);
    if (!m)
        return;
    double mse;
    CHECK(oc_mlp_mse(m, Xv, yv, NV, &mse, &err) == OC_OK);
    printf("smooth function: validation MSE %.5f (variance %.3f, R^2 %.4f) after %d epochs, "
           "best %d\n", mse, var, 1 - mse / var, rep.epochs_run, rep.best_epoch);
    CHECK(mse < 0.01 * var);
    CHECK(fabs(mse - rep.best_val) < 1e-9);
    CHECK_EQ_INT(epochs_seen, rep.epochs_run);
    oc_mlp_free(m);
}

/* A few wild labels (1 in 12 shifted by +3, as a stalled measurement
 * would be) pull a squared-error fit off the clean function; a Huber fit
 * stays closer. */
static void test_huber_resists_outliers(void)
{
    enum { NT = 2000, NV = 500 };
    static float X[NT * 3], y[NT], Xv[NV * 3], yv[NV];
    make_data(5, NT, X, y);
    make_data(6, NV, Xv, yv);
    for (int i = 0; i < NT; i += 12)
        y[i] += 3;
    int hidden[] = {32, 32};
    double clean[2];
    for (int k = 0; k < 2; k++) {
        oc_mlp_train_opts o = oc_mlp_train_defaults();
        o.hidden = hidden;
        o.n_hidden = 2;
        o.epochs = 80;
        o.batch = 64;
        o.lr = 3e-3;
        o.patience = 0;
        o.seed = 3;
        o.huber = k ? 0.2 : 0;
        oc_mlp *m = NULL;
        oc_error err;
        /* validation on the clean labels */
        CHECK(oc_mlp_train(&o, X, y, NT, 3, Xv, yv, NV, &m, NULL, &err) == OC_OK);
        if (!m)
            return;
        CHECK(oc_mlp_mse(m, Xv, yv, NV, &clean[k], &err) == OC_OK);
        oc_mlp_free(m);
    }
    printf("outliers: clean validation MSE %.4f squared error, %.4f Huber\n", clean[0],
           clean[1]);
    CHECK(clean[1] < 0.5 * clean[0]);
}

static bool same_weights(const oc_mlp *a, const oc_mlp *b)
{
    if (a->n_layers != b->n_layers)
        return false;
    for (int l = 0; l < a->n_layers; l++) {
        size_t nw = (size_t)a->sizes[l] * a->sizes[l + 1];
        if (memcmp(a->W[l], b->W[l], nw * sizeof(float)) ||
            memcmp(a->b[l], b->b[l], (size_t)a->sizes[l + 1] * sizeof(float)))
            return false;
    }
    return true;
}

static void test_determinism(void)
{
    enum { NT = 500, NV = 100 };
    static float X[NT * 3], y[NT], Xv[NV * 3], yv[NV];
    make_data(3, NT, X, y);
    make_data(4, NV, Xv, yv);
    int hidden[] = {16, 16};
    oc_mlp_train_opts o = oc_mlp_train_defaults();
    o.hidden = hidden;
    o.n_hidden = 2;
    o.epochs = 15;
    o.dropout = 0.1; /* the masks come from the seeded stream too */
    o.seed = 99;
    oc_mlp *a = NULL, *b = NULL, *c = NULL;
    oc_error err;
    volatile float tiny = 1e-39f; /* subnormal */
    CHECK(tiny * 0.5f > 0.0f);
    CHECK(oc_mlp_train(&o, X, y, NT, 3, Xv, yv, NV, &a, NULL, &err) == OC_OK);
    CHECK(oc_mlp_train(&o, X, y, NT, 3, Xv, yv, NV, &b, NULL, &err) == OC_OK);
    o.seed = 100;
    CHECK(oc_mlp_train(&o, X, y, NT, 3, Xv, yv, NV, &c, NULL, &err) == OC_OK);
    if (a && b && c) {
        CHECK(same_weights(a, b));
        CHECK(!same_weights(a, c));
    }
    /* Training flushes subnormal floats to zero inside and gives the
     * caller its floating-point mode back: a subnormal computes as one
     * after it, as it did before. */
    CHECK(tiny * 0.5f > 0.0f);
    oc_mlp_free(a);
    oc_mlp_free(b);
    oc_mlp_free(c);

    /* Bad options are refused, not trained on. */
    o.lr = -1;
    CHECK(oc_mlp_train(&o, X, y, NT, 3, Xv, yv, NV, &a, NULL, &err) == OC_ERR_USAGE);
    CHECK(a == NULL);
    o.lr = 1e-3;
    X[5] = NAN;
    CHECK(oc_mlp_train(&o, X, y, NT, 3, Xv, yv, NV, &a, NULL, &err) == OC_ERR_INPUT);
}

static void test_rng(void)
{
    oc_rng a, b;
    oc_rng_seed(&a, 5);
    oc_rng_seed(&b, 5);
    bool same = true;
    double sum = 0;
    for (int i = 0; i < 10000; i++) {
        uint64_t x = oc_rng_next(&a);
        same &= x == oc_rng_next(&b);
        sum += oc_rng_uniform(&a);
        (void)oc_rng_uniform(&b);
    }
    CHECK(same);
    CHECK(fabs(sum / 10000 - 0.5) < 0.02);
    for (int i = 0; i < 1000; i++)
        if (oc_rng_below(&a, 7) >= 7)
            CHECK(0);
}

/* ---- features ---- */

static void test_features(void)
{
    int64_t xd[] = {1, 32, 56, 56}, wd[] = {32, 1, 3, 3}, yd[] = {1, 32, 28, 28};
    int64_t ks[] = {3, 3}, st[] = {2, 2};
    oc_desc_attr attrs[] = {
        {.name = "kernel_shape", .type = OC_ATTR_INTS, .n = 2, .ints = ks},
        {.name = "strides", .type = OC_ATTR_INTS, .n = 2, .ints = st},
        {.name = "group", .type = OC_ATTR_INT, .i = 32},
    };
    oc_desc_value ins[] = {
        {.present = true, .dtype = OC_DT_FLOAT, .rank = 4, .dims = xd},
        {.present = true, .dtype = OC_DT_FLOAT, .rank = 4, .dims = wd, .weight = true},
    };
    oc_desc_value outs[] = {{.present = true, .dtype = OC_DT_FLOAT, .rank = 4, .dims = yd}};
    oc_node_desc d = {.op = "Conv", .domain = "", .opset = 17, .n_attrs = 3, .attrs = attrs,
                      .n_inputs = 2, .inputs = ins, .n_outputs = 1, .outputs = outs,
                      .n_fused = 1, .fused = {"Relu"}};
    d.cost.macs = 32 * 28 * 28 * 9;
    d.cost.flops = 2 * d.cost.macs + 32 * 28 * 28;
    d.cost.params = 288;
    d.cost.bytes_read = 4 * (32 * 56 * 56 + 288);
    d.cost.bytes_written = 4 * 32 * 28 * 28;
    oc_target t = {.name = "ort-cpu", .threads = 2, .gflops = 100, .gbps = 20};
    float x[OC_N_FEATURES];
    oc_error err;
    CHECK(oc_features_from_desc(&d, &t, x, &err) == OC_OK);
    CHECK_EQ_STR(oc_feature_name(OC_F_LOG_MACS), "log_macs");
    CHECK(oc_feature_name(OC_N_FEATURES) == NULL);
    CHECK(fabs(x[OC_F_LOG_MACS] - log1p((double)d.cost.macs)) < 1e-5);
    CHECK_EQ_INT((int)x[OC_F_FAM_CONV], 1);
    float fam_sum = 0;
    for (int i = OC_F_FAM_CONV; i <= OC_F_FAM_OTHER; i++)
        fam_sum += x[i];
    CHECK_EQ_INT((int)fam_sum, 1);
    /* sizes and steps on a log2 scale; dilations capped at 8 */
    CHECK(fabs(x[OC_F_KERNEL_H] - log2(3)) < 1e-6);
    CHECK(x[OC_F_STRIDE_W] == 1);
    CHECK(x[OC_F_DILATION_H] == 0);
    int64_t dil[] = {512, 4};
    oc_desc_attr dattrs[4] = {attrs[0], attrs[1], attrs[2],
                              {.name = "dilations", .type = OC_ATTR_INTS, .n = 2, .ints = dil}};
    oc_node_desc dd = d;
    dd.attrs = dattrs;
    dd.n_attrs = 4;
    float xdil[OC_N_FEATURES];
    CHECK(oc_features_from_desc(&dd, &t, xdil, &err) == OC_OK);
    CHECK(xdil[OC_F_DILATION_H] == 3 && xdil[OC_F_DILATION_W] == 2);

    /* A dense Conv ORT runs blocked: its output channels padded to whole
     * blocks of the target's (3 -> 16: 16/3 the work); a grouped one, or no
     * block, as it is. */
    int64_t dxd[] = {1, 32, 56, 56}, dwd[] = {3, 32, 3, 3}, dyd[] = {1, 3, 28, 28};
    oc_desc_value dins[] = {
        {.present = true, .dtype = OC_DT_FLOAT, .rank = 4, .dims = dxd},
        {.present = true, .dtype = OC_DT_FLOAT, .rank = 4, .dims = dwd, .weight = true}};
    oc_desc_value douts[] = {{.present = true, .dtype = OC_DT_FLOAT, .rank = 4, .dims = dyd}};
    oc_node_desc dc = {.op = "Conv", .domain = "", .opset = 17, .n_attrs = 2, .attrs = attrs,
                       .n_inputs = 2, .inputs = dins, .n_outputs = 1, .outputs = douts};
    dc.cost.macs = 3 * 28 * 28 * 32 * 9;
    dc.cost.flops = 2 * dc.cost.macs;
    dc.cost.bytes_read = 4 * (32 * 56 * 56);
    dc.cost.bytes_written = 4 * 3 * 28 * 28;
    oc_target tb = t;
    float xb[OC_N_FEATURES], xn[OC_N_FEATURES];
    tb.nchwc_block = 16;
    CHECK(oc_features_from_desc(&dc, &tb, xb, &err) == OC_OK);
    tb.nchwc_block = 0;
    CHECK(oc_features_from_desc(&dc, &tb, xn, &err) == OC_OK);
    CHECK(fabs(xb[OC_F_LOG_MACS] - log1p(16.0 / 3 * (double)dc.cost.macs)) < 1e-5);
    CHECK(fabs(xn[OC_F_LOG_MACS] - log1p((double)dc.cost.macs)) < 1e-5);
    CHECK(fabs(xb[OC_F_LOG_C_OUT] - log1p(16)) < 1e-5 && fabs(xn[OC_F_LOG_C_OUT] - log1p(3)) < 1e-5);
    tb.nchwc_block = 16;
    oc_desc_attr gattrs[3] = {attrs[0], attrs[1], {.name = "group", .type = OC_ATTR_INT, .i = 2}};
    dc.attrs = gattrs;
    dc.n_attrs = 3;
    CHECK(oc_features_from_desc(&dc, &tb, xb, &err) == OC_OK);
    CHECK(fabs(xb[OC_F_LOG_MACS] - log1p((double)dc.cost.macs)) < 1e-5);
    CHECK_EQ_INT((int)x[OC_F_DEPTHWISE], 1);
    CHECK(fabs(x[OC_F_LOG_C_IN] - log1p(32)) < 1e-5);
    CHECK(fabs(x[OC_F_LOG_SPATIAL_OUT] - log1p(784)) < 1e-4);
    CHECK(fabs(x[OC_F_LOG_BATCH] - log1p(1)) < 1e-6);
    CHECK_EQ_INT((int)x[OC_F_FUSED_RELU], 1);
    CHECK_EQ_INT((int)x[OC_F_FUSED_ADD_RELU], 0);
    CHECK_EQ_INT((int)x[OC_F_THREADS], 2);
    CHECK_EQ_INT((int)x[OC_F_N_ACT_INPUTS], 1);
    CHECK_EQ_INT((int)x[OC_F_DTYPE_BYTES], 4);
    double roof = oc_roofline_time_us(&t, (double)d.cost.flops,
                                      (double)(d.cost.bytes_read + d.cost.bytes_written));
    CHECK(fabs(x[OC_F_LOG_ROOFLINE_US] - log1p(roof)) < 1e-5);

    /* Unknown shapes are refused, not guessed. */
    int64_t unk[] = {1, -1, 56, 56};
    ins[0].dims = unk;
    CHECK(oc_features_from_desc(&d, &t, x, &err) == OC_ERR_INPUT);
    CHECK_CONTAINS(err.msg, "unknown shape");

    CHECK(oc_op_family_of("MatMul", "") == OC_OPF_MATMUL);
    CHECK(oc_op_family_of("Relu", "") == OC_OPF_ACTIVATION);
    CHECK(oc_op_family_of("Conv", "com.microsoft") == OC_OPF_OTHER);
    CHECK(oc_op_family_of("NoSuchOp", "") == OC_OPF_OTHER);
    CHECK_EQ_STR(oc_op_family_name(OC_OPF_DATA_MOVEMENT), "data_movement");
}

/* A one-input, one-output node of `op` with the given attributes. */
static oc_node_desc unary(const char *op, int rank, const int64_t *in, const int64_t *out,
                          const oc_desc_attr *attrs, size_t n_attrs, oc_desc_value io[2])
{
    io[0] = (oc_desc_value){.present = true, .dtype = OC_DT_FLOAT, .rank = rank, .dims = in};
    io[1] = (oc_desc_value){.present = true, .dtype = OC_DT_FLOAT, .rank = rank, .dims = out};
    return (oc_node_desc){.op = op, .domain = "", .opset = 17, .n_attrs = n_attrs,
                          .attrs = attrs, .n_inputs = 1, .inputs = &io[0], .n_outputs = 1,
                          .outputs = &io[1]};
}

static float feature(const oc_node_desc *d, int col)
{
    oc_target t = {.name = "ort-cpu", .threads = 1, .gflops = 50, .gbps = 15};
    float x[OC_N_FEATURES];
    oc_error err;
    CHECK(oc_features_from_desc(d, &t, x, &err) == OC_OK);
    return x[col];
}

static void test_kernel_and_layout_features(void)
{
    /* kernel traits: what an elementwise/activation op's work involves */
    int64_t a[] = {2, 64, 28, 28};
    oc_desc_value io[2];
    oc_node_desc d = unary("Erf", 4, a, a, NULL, 0, io);
    CHECK(oc_ew_traits(&d) == OC_EW_ERF);
    CHECK(feature(&d, OC_F_K_ERF) == 1 && feature(&d, OC_F_K_EXP) == 0);
    d.op = "Sigmoid";
    CHECK(oc_ew_traits(&d) == (OC_EW_EXP | OC_EW_DIVIDE));
    CHECK(feature(&d, OC_F_K_EXP) == 1 && feature(&d, OC_F_K_DIVIDE) == 1 &&
          feature(&d, OC_F_K_SELECT) == 0);
    d.op = "HardSwish";
    CHECK(oc_ew_traits(&d) == (OC_EW_SELECT | OC_EW_GATED));
    d.op = "Max";
    CHECK(oc_ew_traits(&d) == (OC_EW_BINARY | OC_EW_SELECT));
    d.op = "Neg"; /* plain unary: no trait */
    CHECK(oc_ew_traits(&d) == 0);
    oc_desc_attr approx = {.name = "approximate", .type = OC_ATTR_STRING, .s = "tanh"};
    d = unary("Gelu", 4, a, a, NULL, 0, io);
    CHECK(oc_ew_traits(&d) == (OC_EW_ERF | OC_EW_GATED));
    d = unary("Gelu", 4, a, a, &approx, 1, io);
    CHECK(oc_ew_traits(&d) == (OC_EW_EXP | OC_EW_GATED));
    d = unary("Relu", 4, a, a, NULL, 0, io);
    d.domain = "com.microsoft"; /* another domain's op is not ONNX's */
    CHECK(oc_ew_traits(&d) == 0);
    d = unary("Transpose", 4, a, a, NULL, 0, io); /* no traits outside the families */
    float ksum = 0;
    for (int c = OC_F_K_BINARY; c <= OC_F_K_GATED; c++)
        ksum += feature(&d, c);
    CHECK(ksum == 0);

    /* Transpose: the trailing axes perm leaves in place */
    int64_t heads_in[] = {2, 50, 8, 64}, heads_out[] = {2, 8, 50, 64};
    int64_t p0213[] = {0, 2, 1, 3}, p0231[] = {0, 2, 3, 1};
    oc_desc_attr perm = {.name = "perm", .type = OC_ATTR_INTS, .n = 4, .ints = p0213};
    d = unary("Transpose", 4, heads_in, heads_out, &perm, 1, io);
    CHECK(fabs(feature(&d, OC_F_LOG_INNER_RUN) - log1p(64)) < 1e-5);
    perm.ints = p0231; /* NCHW -> NHWC moves the last axis */
    int64_t nhwc[] = {2, 28, 28, 64};
    d = unary("Transpose", 4, a, nhwc, &perm, 1, io);
    CHECK(fabs(feature(&d, OC_F_LOG_INNER_RUN) - log1p(1)) < 1e-6);

    /* Slice and Pad: the block from the last axis they change */
    int64_t crop[] = {2, 64, 26, 26}, half[] = {2, 32, 28, 28};
    d = unary("Slice", 4, a, crop, NULL, 0, io);
    CHECK(fabs(feature(&d, OC_F_LOG_INNER_RUN) - log1p(26)) < 1e-5);
    d = unary("Slice", 4, a, half, NULL, 0, io);
    CHECK(fabs(feature(&d, OC_F_LOG_INNER_RUN) - log1p(32 * 28 * 28)) < 1e-5);
    int64_t padded[] = {2, 64, 30, 30};
    oc_desc_attr mode = {.name = "mode", .type = OC_ATTR_STRING, .s = "reflect"};
    d = unary("Pad", 4, a, padded, &mode, 1, io);
    CHECK(fabs(feature(&d, OC_F_LOG_INNER_RUN) - log1p(28)) < 1e-5);
    CHECK(feature(&d, OC_F_PAD_REFLECT) == 1 && feature(&d, OC_F_PAD_EDGE) == 0);
    mode.s = "edge";
    CHECK(feature(&d, OC_F_PAD_REFLECT) == 0 && feature(&d, OC_F_PAD_EDGE) == 1);
    mode.s = "linear";
    d = unary("Resize", 4, a, padded, &mode, 1, io);
    CHECK(feature(&d, OC_F_RESIZE_INTERP) == 1 && feature(&d, OC_F_PAD_EDGE) == 0);

    /* Reductions, with and without keepdims and an axes attribute */
    int64_t bld[] = {4, 50, 768}, keep_last[] = {4, 50, 1}, drop_mid[] = {4, 768};
    d = unary("ReduceMean", 3, bld, keep_last, NULL, 0, io);
    CHECK(feature(&d, OC_F_INNER_REDUCED) == 1);
    CHECK(fabs(feature(&d, OC_F_LOG_INNER_RUN) - log1p(768)) < 1e-5);
    io[1].rank = 2;
    io[1].dims = drop_mid;
    CHECK(feature(&d, OC_F_INNER_REDUCED) == 0);
    CHECK(fabs(feature(&d, OC_F_LOG_INNER_RUN) - log1p(768)) < 1e-5);
    int64_t ax[] = {1};
    oc_desc_attr axes = {.name = "axes", .type = OC_ATTR_INTS, .n = 1, .ints = ax};
    d.attrs = &axes;
    d.n_attrs = 1;
    CHECK(feature(&d, OC_F_INNER_REDUCED) == 0);

    /* Broadcast: the innermost span over which every operand runs along
     * or stays constant */
    int64_t ch[] = {64, 1, 1};
    oc_desc_value bin[3] = {
        {.present = true, .dtype = OC_DT_FLOAT, .rank = 4, .dims = a},
        {.present = true, .dtype = OC_DT_FLOAT, .rank = 3, .dims = ch, .weight = true},
        {.present = true, .dtype = OC_DT_FLOAT, .rank = 4, .dims = a},
    };
    d = (oc_node_desc){.op = "Mul", .domain = "", .opset = 17, .n_inputs = 2,
                       .inputs = bin, .n_outputs = 1, .outputs = &bin[2]};
    CHECK(fabs(feature(&d, OC_F_LOG_INNER_RUN) - log1p(28 * 28)) < 1e-4);
    CHECK(feature(&d, OC_F_K_BINARY) == 1 && feature(&d, OC_F_K_SELECT) == 0);
    /* an outer product [16, 256, 1] op [14] goes 14 at a time, a bias [256]
     * on [16, 50, 256] 256 at a time, pairwise [4, 50, 1] op [4, 1, 60] 60 */
    int64_t col[] = {16, 256, 1}, grid[] = {14}, outer[] = {16, 256, 14};
    bin[0] = (oc_desc_value){.present = true, .dtype = OC_DT_FLOAT, .rank = 3, .dims = col};
    bin[1] = (oc_desc_value){.present = true, .dtype = OC_DT_FLOAT, .rank = 1, .dims = grid};
    bin[2] = (oc_desc_value){.present = true, .dtype = OC_DT_BOOL, .rank = 3, .dims = outer};
    d.op = "Less";
    CHECK(fabs(feature(&d, OC_F_LOG_INNER_RUN) - log1p(14)) < 1e-5);
    CHECK(feature(&d, OC_F_K_SELECT) == 1);
    int64_t act[] = {16, 50, 256}, bias[] = {256};
    bin[0].dims = act;
    bin[1].dims = bias;
    bin[2] = bin[0];
    d.op = "Add";
    CHECK(fabs(feature(&d, OC_F_LOG_INNER_RUN) - log1p(256)) < 1e-4);
    int64_t rows[] = {4, 50, 1}, cols[] = {4, 1, 60}, pair[] = {4, 50, 60};
    bin[0].dims = rows;
    bin[1] = bin[0];
    bin[1].dims = cols;
    bin[2].dims = pair;
    CHECK(fabs(feature(&d, OC_F_LOG_INNER_RUN) - log1p(60)) < 1e-5);
    bin[1].dims = pair; /* same shapes: no broadcast */
    bin[0].dims = pair;
    CHECK(feature(&d, OC_F_LOG_INNER_RUN) == 0);

    /* Transpose: more than one axis moving (ORT's element-wise walk) or
     * one (its block copies); axes of size 1 do not count; no perm
     * reverses the axes. */
    {
        int64_t t3[] = {16, 4096, 128}, r3[] = {128, 4096, 16}, s3[] = {16, 128, 4096};
        int64_t rev[] = {2, 1, 0}, swap[] = {0, 2, 1}, cyc[] = {1, 2, 0};
        oc_desc_attr pa = {.name = "perm", .type = OC_ATTR_INTS, .n = 3, .ints = rev};
        d = unary("Transpose", 3, t3, r3, &pa, 1, io);
        CHECK(feature(&d, OC_F_GENERIC_MOVE) == 1);
        d = unary("Transpose", 3, t3, r3, NULL, 0, io);
        CHECK(feature(&d, OC_F_GENERIC_MOVE) == 1);
        pa.ints = swap;
        d = unary("Transpose", 3, t3, s3, &pa, 1, io);
        CHECK(feature(&d, OC_F_GENERIC_MOVE) == 0);
        pa.ints = cyc; /* axis 0 moves last: one axis */
        d = unary("Transpose", 3, t3, r3, &pa, 1, io);
        CHECK(feature(&d, OC_F_GENERIC_MOVE) == 0);
        int64_t u3[] = {1, 4096, 128}, ur[] = {128, 4096, 1};
        pa.ints = rev; /* [1, A, B] reversed: A and B swap, one move */
        d = unary("Transpose", 3, u3, ur, &pa, 1, io);
        CHECK(feature(&d, OC_F_GENERIC_MOVE) == 0);
        int64_t t4[] = {2, 3, 4, 5}, o4[] = {5, 3, 2, 4}, p4[] = {3, 1, 0, 2};
        oc_desc_attr p4a = {.name = "perm", .type = OC_ATTR_INTS, .n = 4, .ints = p4};
        d = unary("Transpose", 4, t4, o4, &p4a, 1, io);
        CHECK(feature(&d, OC_F_GENERIC_MOVE) == 1);
        d = unary("Relu", 3, t3, t3, NULL, 0, io);
        CHECK(feature(&d, OC_F_GENERIC_MOVE) == 0);
    }

    /* Softmax: the elements after its axis (ORT moves another axis last);
     * reductions: a compare for ReduceMax, an exp for ReduceLogSumExp */
    int64_t logits[] = {2, 256, 3, 32, 32}, ax1[] = {1};
    oc_desc_attr sax = {.name = "axis", .type = OC_ATTR_INT, .i = 1};
    d = unary("LogSoftmax", 5, logits, logits, &sax, 1, io);
    CHECK(fabs(feature(&d, OC_F_LOG_AXIS_INNER) - log1p(3 * 32 * 32)) < 1e-4);
    CHECK(feature(&d, OC_F_LOG_INNER_RUN) == 0);
    sax.i = -1;
    CHECK(fabs(feature(&d, OC_F_LOG_AXIS_INNER) - log1p(1)) < 1e-6);
    d.opset = 11; /* coerced to 2-D: the last axis of that */
    sax.i = 1;
    CHECK(fabs(feature(&d, OC_F_LOG_AXIS_INNER) - log1p(1)) < 1e-6);
    d = unary("Relu", 5, logits, logits, NULL, 0, io);
    CHECK(feature(&d, OC_F_LOG_AXIS_INNER) == 0);
    oc_desc_attr rax = {.name = "axes", .type = OC_ATTR_INTS, .n = 1, .ints = ax1};
    int64_t red[] = {2, 1, 3, 32, 32};
    d = unary("ReduceLogSumExp", 5, logits, red, &rax, 1, io);
    CHECK(feature(&d, OC_F_K_EXP) == 1 && feature(&d, OC_F_K_SELECT) == 0);
    d = unary("ReduceMax", 5, logits, red, &rax, 1, io);
    CHECK(feature(&d, OC_F_K_SELECT) == 1 && feature(&d, OC_F_K_EXP) == 0);
    d = unary("ReduceSum", 5, logits, red, &rax, 1, io);
    CHECK(feature(&d, OC_F_K_SELECT) == 0 && feature(&d, OC_F_K_EXP) == 0);
}

static void test_split_and_baseline(void)
{
    CHECK(oc_split_of("ort-cpu/t1/Conv/s0/000123", 0.1, 0.1) ==
          oc_split_of("ort-cpu/t2/Conv/s0/000123", 0.1, 0.1));
    /* an Adam step of a configuration shares the split of its SGD step */
    for (int i = 0; i < 64; i++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "torch-cpu/t1/Gemm/s0/%06d", i);
        snprintf(b, sizeof b, "torch-cpu/t1/adam/Gemm/s0/%06d", i);
        CHECK(oc_split_of(a, 0.1, 0.3) == oc_split_of(b, 0.1, 0.3));
    }
    int counts[3] = {0};
    char id[64];
    for (int i = 0; i < 20000; i++) {
        snprintf(id, sizeof id, "ort-cpu/t1/MatMul/s0/%06d", i);
        counts[oc_split_of(id, 0.1, 0.2)]++;
    }
    CHECK(abs(counts[OC_SPLIT_TEST] - 4000) < 300);
    CHECK(abs(counts[OC_SPLIT_VAL] - 2000) < 250);
    /* the folds of a 5-fold cross-validation hold out each sample once;
     * shift 0 is the plain split */
    bool once = true, same = true;
    for (int i = 0; i < 2000; i++) {
        snprintf(id, sizeof id, "ort-cpu/t1/Gemm/s0/%06d", i);
        int tests = 0;
        for (int k = 0; k < 5; k++)
            tests += oc_split_of_shifted(id, 0.1, 0.2, k / 5.0) == OC_SPLIT_TEST;
        once &= tests == 1;
        same &= oc_split_of_shifted(id, 0.1, 0.1, 0) == oc_split_of(id, 0.1, 0.1);
    }
    CHECK(once);
    CHECK(same);

    double xs[] = {1e6, 2e6, 5e6, 1e7}, ts[4];
    for (int i = 0; i < 4; i++)
        ts[i] = 3e-5 * xs[i] + 7;
    oc_linear L;
    oc_error err;
    CHECK(oc_linear_fit(xs, ts, 4, &L, &err) == OC_OK);
    CHECK(fabs(L.a - 3e-5) < 1e-12 && fabs(L.b - 7) < 1e-6);
    CHECK(oc_linear_fit(xs, ts, 0, &L, &err) == OC_ERR_USAGE);
}

/* ---- the timing-model file ---- */

/* A synthetic training set: features random, time a smooth function of
 * two of them.  Only the file and the prediction plumbing are under test. */
static void make_set(oc_train_set *s, size_t n)
{
    oc_train_set_init(s);
    s->n = s->cap = n;
    s->s = calloc(n, sizeof *s->s);
    s->X = calloc(n * OC_N_FEATURES, sizeof *s->X);
    static char ids[4000][40];
    oc_rng r;
    oc_rng_seed(&r, 77);
    for (size_t i = 0; i < n && i < 4000; i++) {
        snprintf(ids[i], sizeof ids[i], "test/t1/Conv/s0/%06zu", i);
        float *x = s->X + i * OC_N_FEATURES;
        for (int j = 0; j < OC_N_FEATURES; j++)
            x[j] = (float)oc_rng_uniform(&r);
        x[OC_F_THREADS] = 1;
        s->s[i] = (oc_train_sample){
            .id = ids[i], .family = "Conv", .pattern = "Conv", .threads = 1,
            .time_us = exp(2 * x[OC_F_LOG_FLOPS] + x[OC_F_LOG_BYTES_READ]),
            .flops = 1e6 * x[OC_F_LOG_FLOPS], .bytes = 1e5};
    }
    snprintf(s->target, sizeof s->target, "test");
}

/* Free what make_set allocated. */
static void free_set(oc_train_set *s)
{
    free(s->s);
    free(s->X);
}

static oc_tmodel *train_seeded(const oc_train_set *s, uint64_t seed)
{
    static const int hidden[] = {16, 16};
    oc_tmodel_train_opts o = oc_tmodel_train_defaults();
    o.mlp.seed = seed;
    o.mlp.hidden = hidden;
    o.mlp.n_hidden = 2;
    o.mlp.epochs = 20;
    o.ensemble = 3;
    o.mlp.huber = 0.15;
    oc_hw hw = {.cpu = "test cpu", .cores = 2, .max_threads = 2, .gflops_1 = 50,
                .gflops_n = 95, .gbps_1 = 15, .gbps_n = 22, .sgemm_n = 1024, .copy_mib = 64};
    oc_tmodel *tm = NULL;
    oc_error err;
    CHECK(oc_tmodel_train(s, &hw, 1, &o, &tm, &err) == OC_OK);
    return tm;
}

static oc_tmodel *train_small(const oc_train_set *s) { return train_seeded(s, 1); }

static bool refused(const void *buf, size_t n, const char *needle)
{
    oc_tmodel *tm = NULL;
    oc_error err;
    oc_error_clear(&err);
    oc_status st = oc_tmodel_from_buffer(buf, n, "m.tmodel", &tm, &err);
    bool ok = st == OC_ERR_INPUT && tm == NULL && strstr(err.msg, needle) &&
              !strchr(err.msg, '\n');
    if (!ok)
        fprintf(stderr, "  expected refusal with '%s', got status %d: %s\n", needle, st,
                err.msg);
    oc_tmodel_free(tm);
    return ok;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Two ensembles trained on one set with two seeds merge into one of their
 * six members: each row's time the geometric mean of the two models'
 * (three members each), its range the widest; the merged file keeps them.
 * A model trained on other data is refused. */
static void test_tmodel_merge(void)
{
    oc_train_set s, other;
    make_set(&s, 1500);
    make_set(&other, 1200);
    oc_tmodel *a = train_seeded(&s, 1), *b = train_seeded(&s, 2),
              *c = train_seeded(&other, 3);
    enum { Q = 16 };
    double ta[Q], la[Q], ha[Q], tb[Q], lb[Q], hb[Q], tm_[Q], lm[Q], hm[Q];
    oc_error err;
    oc_error_clear(&err);
    if (a && b && c) {
        CHECK(oc_tmodel_predict_features(a, s.X, Q, ta, la, ha, &err) == OC_OK);
        CHECK(oc_tmodel_predict_features(b, s.X, Q, tb, lb, hb, &err) == OC_OK);
        CHECK(oc_tmodel_merge(a, c, &err) == OC_ERR_USAGE);
        CHECK(strstr(err.msg, "standardisation") != NULL);
        CHECK_EQ_INT(oc_tmodel_get_info(a)->ensemble, 3);
        CHECK(oc_tmodel_merge(a, b, &err) == OC_OK);
        CHECK_EQ_INT(oc_tmodel_get_info(a)->ensemble, 6);
        CHECK(oc_tmodel_predict_features(a, s.X, Q, tm_, lm, hm, &err) == OC_OK);
        int same = 0, differ = 0;
        for (int i = 0; i < Q; i++) {
            same += fabs(tm_[i] / sqrt(ta[i] * tb[i]) - 1) < 1e-9 &&
                    lm[i] == fmin(la[i], lb[i]) && hm[i] == fmax(ha[i], hb[i]);
            differ += fabs(ta[i] / tb[i] - 1) > 1e-6;
        }
        CHECK_EQ_INT(same, Q);
        CHECK(differ > 0); /* the seeds made other members */
        void *buf = NULL;
        size_t n = 0;
        oc_tmodel *back = NULL;
        CHECK(oc_tmodel_to_buffer(a, &buf, &n, &err) == OC_OK);
        CHECK(oc_tmodel_from_buffer(buf, n, "merged", &back, &err) == OC_OK);
        if (back) {
            double tr[Q];
            CHECK_EQ_INT(oc_tmodel_get_info(back)->ensemble, 6);
            CHECK(oc_tmodel_predict_features(back, s.X, Q, tr, NULL, NULL, &err) == OC_OK);
            CHECK(memcmp(tr, tm_, sizeof tr) == 0);
        }
        oc_tmodel_free(back);
        free(buf);
    }
    oc_tmodel_free(a);
    oc_tmodel_free(b);
    oc_tmodel_free(c);
    free_set(&s);
    free_set(&other);
}

static void test_tmodel_file(void)
{
    oc_train_set s;
    make_set(&s, 1500);
    oc_tmodel *tm = train_small(&s);
    if (!tm) {
        free_set(&s);
        return;
    }
    const oc_tmodel_info *in = oc_tmodel_get_info(tm);
    CHECK_EQ_INT(in->ensemble, 3);
    CHECK_EQ_INT(in->threads, 1);
    CHECK_EQ_INT((int)(in->n_train + in->n_val + in->n_test), 1500);
    CHECK_EQ_INT(in->n_linear, 1);

    enum { Q = 50 };
    double t1[Q], lo1[Q], hi1[Q], t2[Q], lo2[Q], hi2[Q];
    oc_error err;
    CHECK(oc_tmodel_predict_features(tm, s.X, Q, t1, lo1, hi1, &err) == OC_OK);
    int ordered = 0;
    for (int i = 0; i < Q; i++)
        ordered += lo1[i] <= t1[i] && t1[i] <= hi1[i] && lo1[i] > 0;
    CHECK_EQ_INT(ordered, Q);

    /* Round trip through a file: identical predictions. */
    char dir[] = "/tmp/test_mlp.XXXXXX", path[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/m.tmodel", dir);
    CHECK(oc_tmodel_save(tm, path, &err) == OC_OK);
    oc_tmodel *back = NULL;
    CHECK(oc_tmodel_load(path, &back, &err) == OC_OK);
    if (back) {
        CHECK(oc_tmodel_predict_features(back, s.X, Q, t2, lo2, hi2, &err) == OC_OK);
        CHECK(memcmp(t1, t2, sizeof t1) == 0 && memcmp(lo1, lo2, sizeof lo1) == 0 &&
              memcmp(hi1, hi2, sizeof hi1) == 0);
        for (int k = 0; k < 3; k++)
            CHECK(same_weights(oc_tmodel_member(tm, k), oc_tmodel_member(back, k)));
        const oc_tmodel_info *bi = oc_tmodel_get_info(back);
        CHECK_EQ_STR(bi->hw.cpu, "test cpu");
        CHECK(bi->hw.gflops_n == 95 && bi->linear[0].a == in->linear[0].a);
        CHECK(bi->test_frac == in->test_frac && bi->n_train == in->n_train);
        CHECK(bi->huber == 0.15 && in->huber == 0.15);
        CHECK(memcmp(oc_tmodel_means(back), oc_tmodel_means(tm),
                     OC_N_FEATURES * sizeof(double)) == 0);
        CHECK(oc_tmodel_set_threads(back, 2, &err) == OC_OK);
        CHECK(!oc_tmodel_has_threads(back, 2) && oc_tmodel_has_threads(back, 1));
        oc_target t;
        oc_tmodel_target(back, &t);
        CHECK(t.threads == 2 && t.gflops == 95 && t.gbps == 22);
    }
    oc_tmodel_free(back);
    back = NULL;
    CHECK(oc_tmodel_load("/nonexistent/m.tmodel", &back, &err) == OC_ERR_IO);

    /* Refusals. */
    void *buf;
    size_t n;
    CHECK(oc_tmodel_to_buffer(tm, &buf, &n, &err) == OC_OK);
    unsigned char *b = buf, *c = malloc(n + 64);
    CHECK(refused(b, 20, "corrupt"));                      /* truncated header */
    CHECK(refused(b, n - 10, "corrupt"));                  /* truncated body */
    memcpy(c, b, n);
    c[0] = 'X';
    CHECK(refused(c, n, "bad magic"));
    memcpy(c, b, n);
    put32(c + 8, OC_TMODEL_VERSION + 1);
    char vmsg[32];
    snprintf(vmsg, sizeof vmsg, "format version %d", OC_TMODEL_VERSION + 1);
    CHECK(refused(c, n, vmsg));
    put32(c + 8, 1); /* a version-1 file (before optimizers) */
    CHECK(refused(c, n, "format version 1"));
    put32(c + 8, 2); /* version 2 (before the Huber threshold) */
    CHECK(refused(c, n, "format version 2"));
    memcpy(c, b, n);
    put32(c + 12, OC_N_FEATURES + 1);
    CHECK(refused(c, n, "features, this onnxcost computes"));
    memcpy(c, b, n);
    c[n / 2] ^= 0x55;                                      /* a flipped bit */
    CHECK(refused(c, n, "corrupt"));
    memcpy(c, b, n);
    c[32] ^= 1;                                            /* the CRC */
    CHECK(refused(c, n, "corrupt"));

    /* Another schema: rename feature 0 inside a valid payload. */
    uLongf raw = 0;
    for (int i = 0; i < 8; i++)
        raw |= (uLongf)b[16 + i] << (8 * i);
    unsigned char *pl = malloc(raw);
    uLongf got = raw;
    CHECK(uncompress(pl, &got, b + 40, (uLong)(n - 40)) == Z_OK && got == raw);
    /* u32 n_features, u32 len, "log_macs" */
    CHECK(memcmp(pl + 8, "log_macs", 8) == 0);
    pl[15] = 'z';
    uLongf clen = compressBound(raw);
    unsigned char *d2 = malloc(40 + clen);
    CHECK(compress2(d2 + 40, &clen, pl, raw, 9) == Z_OK);
    memcpy(d2, b, 40);
    for (int i = 0; i < 8; i++)
        d2[24 + i] = (unsigned char)((uint64_t)clen >> (8 * i));
    put32(d2 + 32, (uint32_t)crc32(crc32(0L, Z_NULL, 0), pl, (uInt)raw));
    CHECK(refused(d2, 40 + clen, "feature 0 is 'log_macz', this onnxcost computes 'log_macs'"));
    /* and the same bytes with the right name load */
    pl[15] = 's';
    clen = compressBound(raw);
    CHECK(compress2(d2 + 40, &clen, pl, raw, 9) == Z_OK);
    for (int i = 0; i < 8; i++)
        d2[24 + i] = (unsigned char)((uint64_t)clen >> (8 * i));
    put32(d2 + 32, (uint32_t)crc32(crc32(0L, Z_NULL, 0), pl, (uInt)raw));
    oc_tmodel *re = NULL;
    CHECK(oc_tmodel_from_buffer(d2, 40 + clen, "re", &re, &err) == OC_OK);
    oc_tmodel_free(re);

    /* Hostile payloads behind a valid header and CRC: random bytes and
     * truncations reach the parser itself; each loads or is refused. */
    oc_rng fr;
    oc_rng_seed(&fr, 2024);
    int outcomes_ok = 0, tries = 0;
    unsigned char *mut = malloc(raw);
    for (int trial = 0; trial < 300; trial++) {
        memcpy(mut, pl, raw);
        uLongf len = raw;
        if (trial % 3 == 2)
            len = (uLongf)oc_rng_below(&fr, raw); /* truncated payload */
        else
            for (int k = 0; k < 1 + trial % 4; k++) {
                /* bias towards the header fields at the front */
                size_t pos = trial % 2 ? (size_t)oc_rng_below(&fr, raw)
                                       : (size_t)oc_rng_below(&fr, raw < 2048 ? raw : 2048);
                mut[pos] = (unsigned char)oc_rng_next(&fr);
            }
        uLongf cl = compressBound(len ? len : 1);
        unsigned char *f2 = malloc(40 + cl);
        compress2(f2 + 40, &cl, mut, len, 1);
        memcpy(f2, b, 40);
        for (int i = 0; i < 8; i++) {
            f2[16 + i] = (unsigned char)((uint64_t)len >> (8 * i));
            f2[24 + i] = (unsigned char)((uint64_t)cl >> (8 * i));
        }
        put32(f2 + 32, (uint32_t)crc32(crc32(0L, Z_NULL, 0), mut, (uInt)len));
        oc_tmodel *h = NULL;
        oc_status hs = oc_tmodel_from_buffer(f2, 40 + cl, "hostile", &h, &err);
        outcomes_ok += (hs == OC_OK && h) || (hs == OC_ERR_INPUT && !h);
        tries++;
        oc_tmodel_free(h);
        free(f2);
    }
    CHECK_EQ_INT(outcomes_ok, tries);
    free(mut);

    /* A corrupt file on disk is refused by load too. */
    FILE *f = fopen(path, "wb");
    fwrite(c, 1, n, f);
    fclose(f);
    CHECK(oc_tmodel_load(path, &back, &err) == OC_ERR_INPUT && back == NULL);
    CHECK_CONTAINS(err.msg, path);
    unlink(path);
    rmdir(dir);

    free(pl);
    free(d2);
    free(c);
    free(buf);
    oc_tmodel_free(tm);
    free_set(&s);
}

/* ---- the in-graph fit and the coverage inside the file (format 5) ---- */

static const char FIT_JSON[] =
    "{\"machine\": \"m-test\", \"fitted_on\": [\"a\", \"b\"], \"threads\": {"
    "\"1\": {\"kernel_scale\": 0.9, \"per_kernel_us\": 1.5, \"small_kernel_us\": 5},"
    "\"4\": {\"kernel_scale\": 0.8, \"per_kernel_us\": 0.5, \"output_us_per_mb\": 3000}},"
    "\"range\": {\"low\": 0.8, \"high\": 1.5},"
    "\"measured_ops\": {\"Conv\": {\"samples\": 10, \"log10_work\": [4.0, 9.0],"
    "\"dtypes\": [\"float32\", \"uint8\"], \"max_inputs\": 3},"
    "\"Relu\": {\"samples\": 3, \"log10_work\": [3.5, 7.0]}}}";

/* The inflated payload of tm's file (malloc'ed, *n bytes). */
static unsigned char *payload_of(const oc_tmodel *tm, size_t *n)
{
    void *buf;
    size_t size;
    oc_error err;
    if (oc_tmodel_to_buffer(tm, &buf, &size, &err) != OC_OK)
        return NULL;
    const unsigned char *b = buf;
    uLongf raw = 0;
    for (int i = 0; i < 8; i++)
        raw |= (uLongf)b[16 + i] << (8 * i);
    unsigned char *pl = malloc(raw);
    uLongf got = raw;
    bool ok = pl && uncompress(pl, &got, b + 40, (uLong)(size - 40)) == Z_OK && got == raw;
    free(buf);
    if (!ok) {
        free(pl);
        return NULL;
    }
    *n = raw;
    return pl;
}

/* The bytes of the machines section (format 6) at the end of tm's payload,
 * before "END1": u32 n, then per machine its fingerprint and profile. */
static size_t machines_bytes(const oc_tmodel *tm)
{
    const oc_tmodel_info *in = oc_tmodel_get_info(tm);
    size_t n = 4;
    for (int i = 0; i < in->n_machines; i++)
        n += 4 + strlen(in->machines[i].machine) + 4 + strlen(in->machines[i].cpu) + 52 + 4;
    return n;
}

static bool payload_refused(uint32_t version, const void *pl, size_t n, const char *needle)
{
    oc_tmodel *tm = NULL;
    oc_error err;
    oc_error_clear(&err);
    oc_status st = oc_tmodel_from_payload(version, OC_N_FEATURES, pl, n, "p", &tm, &err);
    bool ok = st == OC_ERR_INPUT && !tm && strstr(err.msg, needle) && !strchr(err.msg, '\n');
    if (!ok)
        fprintf(stderr, "  expected refusal with '%s', got status %d: %s\n", needle, st,
                err.msg);
    oc_tmodel_free(tm);
    return ok;
}

/* A file of `version` holding payload pl at path. */
static bool write_file(const char *path, uint32_t version, const unsigned char *pl, size_t n)
{
    uLongf cl = compressBound(n);
    unsigned char *f = malloc(40 + cl);
    if (!f || compress2(f + 40, &cl, pl, n, 9) != Z_OK) {
        free(f);
        return false;
    }
    memcpy(f, "OCTMODEL", 8);
    put32(f + 8, version);
    put32(f + 12, OC_N_FEATURES);
    for (int i = 0; i < 8; i++) {
        f[16 + i] = (unsigned char)((uint64_t)n >> (8 * i));
        f[24 + i] = (unsigned char)((uint64_t)cl >> (8 * i));
    }
    put32(f + 32, (uint32_t)crc32(crc32(0L, Z_NULL, 0), pl, (uInt)n));
    put32(f + 36, 0);
    FILE *o = fopen(path, "wb");
    bool ok = o && fwrite(f, 1, 40 + cl, o) == 40 + cl;
    ok = o && fclose(o) == 0 && ok;
    free(f);
    return ok;
}

static size_t count_warnings(const oc_target_sel *sel, const char *needle)
{
    size_t k = 0;
    for (size_t i = 0; i < sel->n_warnings; i++)
        k += strstr(sel->warnings[i], needle) != NULL;
    return k;
}

static void test_tmodel_fit(void)
{
    oc_train_set s;
    make_set(&s, 600);
    oc_tmodel *tm = train_small(&s);
    if (!tm) {
        free_set(&s);
        return;
    }
    oc_error err;
    oc_tmodel_fit f;
    CHECK(!oc_tmodel_fit_at(tm, 1, &f) && !oc_tmodel_has_coverage(tm));
    CHECK(oc_tmodel_fit_source(tm) == NULL);
    size_t n0;
    unsigned char *bare = payload_of(tm, &n0); /* no fit, no coverage */

    /* The fit's text: every thread count, the coverage, where it came from. */
    CHECK(oc_tmodel_set_fit(tm, "{\"threads\": [1]", "bad.json", &err) == OC_ERR_INPUT);
    CHECK_CONTAINS(err.msg, "bad.json");
    CHECK(oc_tmodel_set_fit(tm, "{\"range\": {\"low\": 1.2, \"high\": 2}}", "r.json", &err) ==
          OC_ERR_INPUT);
    CHECK_CONTAINS(err.msg, "range");
    CHECK(oc_tmodel_set_fit(tm,
                            "{\"measured_ops\": {\"Conv\": {\"samples\": 1, \"log10_work\": "
                            "[1, 2], \"dtypes\": [\"float99\"]}}}",
                            "dt.json", &err) == OC_ERR_INPUT);
    CHECK_CONTAINS(err.msg, "bad dtype of 'Conv'");
    CHECK(oc_tmodel_set_fit(tm,
                            "{\"measured_ops\": {\"Relu\": {\"samples\": 1, \"log10_work\": "
                            "[1, 2], \"dtypes\": \"float32\"}}}",
                            "dt.json", &err) == OC_ERR_INPUT);
    CHECK_CONTAINS(err.msg, "bad dtype of 'Relu'");
    CHECK(oc_tmodel_set_fit(tm,
                            "{\"measured_ops\": {\"Concat\": {\"samples\": 1, \"log10_work\": "
                            "[1, 2], \"max_inputs\": 0}}}",
                            "mi.json", &err) == OC_ERR_INPUT);
    CHECK_CONTAINS(err.msg, "bad max_inputs of 'Concat'");
    char machine[64];
    snprintf(machine, sizeof machine, "%s", oc_tmodel_get_info(tm)->machine);
    CHECK(oc_tmodel_set_fit(tm, FIT_JSON, "dir/fit.json", &err) == OC_OK);
    CHECK_EQ_STR(oc_tmodel_fit_source(tm), "fit.json (fitted on a, b)");
    /* the fit's machine only where the model records none */
    CHECK_EQ_STR(oc_tmodel_get_info(tm)->machine, machine[0] ? machine : "m-test");

    /* Round trip: the same fit and coverage come back. */
    size_t n;
    unsigned char *pl = payload_of(tm, &n);
    oc_tmodel *back = NULL;
    CHECK(pl && oc_tmodel_from_payload(OC_TMODEL_VERSION, OC_N_FEATURES, pl, n, "rt", &back,
                                       &err) == OC_OK);
    if (back) {
        CHECK_EQ_INT((int)oc_tmodel_get_info(back)->version, OC_TMODEL_VERSION);
        CHECK_EQ_INT(oc_tmodel_get_info(back)->n_machines, 1);
        CHECK_EQ_STR(oc_tmodel_get_info(back)->machines[0].cpu, "test cpu");
        CHECK(oc_tmodel_get_info(back)->machines[0].gflops_n == 95);
        CHECK(oc_tmodel_fit_at(back, 1, &f) && f.threads == 1 && f.kernel_scale == 0.9 &&
              f.per_kernel_us == 1.5 && f.small_kernel_us == 5 && f.output_us_per_mb == 0);
        CHECK(oc_tmodel_fit_at(back, 3, &f) && f.threads == 4 && f.kernel_scale == 0.8 &&
              f.output_us_per_mb == 3000);
        CHECK(oc_tmodel_fit_at(back, 2, &f) && f.threads == 1); /* the nearest */
        CHECK(f.range_low == 0.8 && f.range_high == 1.5);
        CHECK_EQ_STR(oc_tmodel_fit_source(back), "fit.json (fitted on a, b)");
        CHECK(oc_tmodel_has_coverage(back));
        oc_node_desc d = {.op = "Conv"};
        d.cost.flops = 1000000; /* log10 6: inside */
        char why[128];
        CHECK(oc_tmodel_outside(back, &d, why, sizeof why) == NULL);
        /* an element type no sample of the operator had (the first
         * input's); an operator whose types were not recorded: any */
        oc_desc_value in = {.present = true, .dtype = OC_DT_INT64};
        d.n_inputs = 1;
        d.inputs = &in;
        CHECK(oc_tmodel_outside(back, &d, why, sizeof why) != NULL);
        CHECK_EQ_STR(why, "no sample of Conv on int64 in the timing model's data");
        in.dtype = OC_DT_UINT8;
        CHECK(oc_tmodel_outside(back, &d, why, sizeof why) == NULL);
        /* more inputs present than any sample had (omitted ones do not
         * count); an operator whose input counts were not recorded: any */
        oc_desc_value four[4] = {in, in, {.present = false}, in};
        d.inputs = four;
        d.n_inputs = 4;
        CHECK(oc_tmodel_outside(back, &d, why, sizeof why) == NULL);
        four[2].present = true;
        CHECK(oc_tmodel_outside(back, &d, why, sizeof why) != NULL);
        CHECK_EQ_STR(why, "Conv of 4 inputs: its samples have at most 3");
        d.op = "Relu";
        CHECK(oc_tmodel_outside(back, &d, why, sizeof why) == NULL);
        d.inputs = &in;
        d.n_inputs = 1;
        in.dtype = OC_DT_INT64;
        CHECK(oc_tmodel_outside(back, &d, why, sizeof why) == NULL);
        d.op = "MatMul";
        CHECK(oc_tmodel_outside(back, &d, why, sizeof why) != NULL);
        CHECK_CONTAINS(why, "no sample of MatMul");
        oc_overhead ov;
        oc_tmodel_overhead(back, 4, &ov);
        CHECK(ov.kernel_scale == 0.8 && ov.per_kernel_us == 0.5);
        CHECK(ov.range_low == 0.8 && ov.range_high == 1.5);
    }
    oc_tmodel_free(back);

    /* Format 8: each coverage entry without its input count (4 bytes)
     * still loads, marking no count; format 7: without its element types
     * too (4 more), marking no type; format 6: each fit without its range
     * (16 bytes) too, with the ensemble's range alone. */
    size_t src = 4 + strlen("fit.json (fitted on a, b)"), mb = machines_bytes(tm);
    size_t at_known = n - 4 - mb - 80 - 8, at_nfit = at_known - src - 2 * 52 - 4;
    unsigned char *v6 = malloc(n), *v7 = malloc(n), *v8 = malloc(n);
    size_t n6 = 0, n7 = 0, n8 = 0;
    for (size_t i = 0; i < n; i++) {
        bool range = false, types = false, counts = false;
        for (size_t k = 0; k < 2; k++) {
            size_t at = at_nfit + 4 + k * 52 + 36, tt = at_known + 8 + k * 40 + 32;
            range |= i >= at && i < at + 16;
            types |= i >= tt && i < tt + 4;
            counts |= i >= tt + 4 && i < tt + 8;
        }
        if (!counts)
            v8[n8++] = pl[i];
        if (!types && !counts)
            v7[n7++] = pl[i];
        if (!range && !types && !counts)
            v6[n6++] = pl[i];
    }
    CHECK(oc_tmodel_from_payload(8, OC_N_FEATURES, v8, n8, "v8", &back, &err) == OC_OK);
    if (back) {
        oc_desc_value in[4] = {{.present = true, .dtype = OC_DT_FLOAT},
                               {.present = true, .dtype = OC_DT_FLOAT},
                               {.present = true, .dtype = OC_DT_FLOAT},
                               {.present = true, .dtype = OC_DT_FLOAT}};
        oc_node_desc d = {.op = "Conv", .n_inputs = 4, .inputs = in};
        d.cost.flops = 1000000;
        char why[128];
        CHECK(oc_tmodel_has_coverage(back) && !oc_tmodel_outside(back, &d, why, sizeof why));
        in[0].dtype = OC_DT_INT64; /* the element types are still there */
        CHECK(oc_tmodel_outside(back, &d, why, sizeof why) != NULL);
        oc_tmodel_free(back);
    }
    CHECK(oc_tmodel_from_payload(7, OC_N_FEATURES, v7, n7, "v7", &back, &err) == OC_OK);
    if (back) {
        oc_desc_value in = {.present = true, .dtype = OC_DT_INT64};
        oc_node_desc d = {.op = "Conv", .n_inputs = 1, .inputs = &in};
        d.cost.flops = 1000000;
        char why[128];
        CHECK(oc_tmodel_has_coverage(back) && !oc_tmodel_outside(back, &d, why, sizeof why));
        oc_tmodel_free(back);
    }
    CHECK(oc_tmodel_from_payload(6, OC_N_FEATURES, v6, n6, "v6", &back, &err) == OC_OK);
    if (back) {
        CHECK(oc_tmodel_fit_at(back, 4, &f) && f.kernel_scale == 0.8 && f.range_low == 0 &&
              f.range_high == 0);
        oc_tmodel_free(back);
    }
    free(v6);
    free(v7);
    free(v8);

    /* A corrupt or truncated section: one line.  The payload ends with
     * u32 n_fit, 2 x 52 bytes, str source, u32 known, u32 n, 2 x 40
     * bytes, the machines, "END1". */
    const uint32_t V = OC_TMODEL_VERSION;
    unsigned char *c = malloc(n);
    memcpy(c, pl, n);
    put32(c + at_nfit, 99);
    CHECK(payload_refused(V, c, n, "corrupt timing model (in-graph fit)"));
    memcpy(c, pl, n);
    put32(c + at_known, 7);
    CHECK(payload_refused(V, c, n, "corrupt timing model (coverage)"));
    memcpy(c, pl, n);
    put32(c + at_known + 8 + 32, 1u << 31); /* an element type no ONNX type */
    CHECK(payload_refused(V, c, n, "corrupt timing model (coverage)"));
    memcpy(c, pl, n);
    put32(c + at_known + 8 + 36, 70000); /* more inputs than any node has */
    CHECK(payload_refused(V, c, n, "corrupt timing model (coverage)"));
    memcpy(c, pl, n);
    memset(c + at_nfit + 8, 0xff, 8); /* kernel_scale NaN */
    CHECK(payload_refused(V, c, n, "(in-graph fit)"));
    memcpy(c, pl, n);
    memset(c + at_nfit + 4 + 36, 0xff, 8); /* range_low NaN */
    CHECK(payload_refused(V, c, n, "(in-graph fit)"));
    memcpy(c, pl, n);
    put32(c + n - 4 - mb, 0); /* no machine */
    CHECK(payload_refused(V, c, n, "corrupt timing model (machines)"));
    put32(c + n - 4 - mb, OC_TMODEL_MAX_MACHINES + 1);
    CHECK(payload_refused(V, c, n, "corrupt timing model (machines)"));
    CHECK(payload_refused(V, pl, n - mb - 40, "corrupt"));  /* cut in the coverage */
    CHECK(payload_refused(V, pl, n - 10, "corrupt"));       /* cut in the machines */
    CHECK(payload_refused(V, pl, at_nfit + 20, "corrupt")); /* cut in the fit */
    free(c);

    /* Format 4 (the same payload without the sections) still loads, with
     * no fit; the selection says so once and sums the kernels. */
    size_t mb0 = machines_bytes(tm);
    CHECK(bare && n0 > 20 + mb0 && memcmp(bare + n0 - 4, "END1", 4) == 0);
    static const unsigned char zeros[16];
    CHECK(memcmp(bare + n0 - 20 - mb0, zeros, 16) == 0); /* 0 fits, "", unknown, 0 */
    memmove(bare + n0 - 20 - mb0, bare + n0 - 4, 4);
    n0 -= mb0;
    oc_tmodel *old = NULL;
    CHECK(oc_tmodel_from_payload(4, OC_N_FEATURES, bare, n0 - 16, "v4", &old, &err) == OC_OK);
    if (old) {
        CHECK_EQ_INT((int)oc_tmodel_get_info(old)->version, 4);
        CHECK(!oc_tmodel_fit_at(old, 1, &f) && oc_tmodel_fit_source(old) == NULL);
        double t1[8], t2[8];
        CHECK(oc_tmodel_predict_features(old, s.X, 8, t1, NULL, NULL, &err) == OC_OK);
        CHECK(oc_tmodel_predict_features(tm, s.X, 8, t2, NULL, NULL, &err) == OC_OK);
        CHECK(memcmp(t1, t2, sizeof t1) == 0);
    }
    oc_tmodel_free(old);

    char dir[] = "/tmp/test_fit.XXXXXX", p4[64], p5[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(p4, sizeof p4, "%s/v4.tmodel", dir);
    snprintf(p5, sizeof p5, "%s/v5.tmodel", dir);
    CHECK(write_file(p4, 4, bare, n0 - 16));
    CHECK(oc_tmodel_save(tm, p5, &err) == OC_OK);
    oc_tmodel *sel_tm = NULL;
    oc_overhead ov;
    oc_target_sel sel;
    CHECK(oc_target_select(p4, 0, OC_OPT_NONE, &sel_tm, &ov, &sel, &err) == OC_OK);
    CHECK_EQ_INT((int)count_warnings(&sel, "carries no in-graph fit"), 1);
    CHECK(ov.kernel_scale == 1 && ov.per_kernel_us == 0 && ov.small_kernel_us == 0);
    oc_tmodel_free(sel_tm);
    /* A user's own file with its fit: that fit, and no such warning. */
    CHECK(oc_target_select(p5, 0, OC_OPT_NONE, &sel_tm, &ov, &sel, &err) == OC_OK);
    CHECK_EQ_INT((int)count_warnings(&sel, "in-graph fit"), 0);
    CHECK(ov.kernel_scale == 0.9 && ov.per_kernel_us == 1.5 && ov.small_kernel_us == 5);
    oc_tmodel_free(sel_tm);
    unlink(p4);
    unlink(p5);
    rmdir(dir);

    /* An empty fit removes both. */
    CHECK(oc_tmodel_set_fit(tm, "{}", "none.json", &err) == OC_OK);
    CHECK(!oc_tmodel_fit_at(tm, 1, &f) && !oc_tmodel_has_coverage(tm) &&
          oc_tmodel_fit_source(tm) == NULL);
    free(pl);
    free(bare);
    oc_tmodel_free(tm);
    free_set(&s);
}

/* ---- the target table ---- */

static void test_targets(void)
{
    CHECK_EQ_INT(oc_target_lookup("ort-cpu"), OC_TARGET_ORT_CPU);
    CHECK_EQ_INT(oc_target_lookup("torch-cpu"), OC_TARGET_TORCH_CPU);
    CHECK_EQ_INT(oc_target_lookup("ort-gpu"), OC_TARGET_UNKNOWN);
    CHECK_EQ_INT(oc_target_lookup(NULL), OC_TARGET_UNKNOWN);
    CHECK(oc_target_entry_of(OC_TARGET_UNKNOWN) == NULL);
    CHECK(oc_target_entry_of(OC_TARGET_COUNT) == NULL);
    CHECK_EQ_INT(oc_target_plan_rules("ort-cpu"), OC_PLAN_RULES_ORT);
    CHECK_EQ_INT(oc_target_plan_rules("torch-cpu"), OC_PLAN_RULES_EAGER);
    CHECK_EQ_INT(oc_target_plan_rules("test"), OC_PLAN_RULES_PLAIN);
    CHECK_EQ_STR(oc_target_of_mode(OC_TARGET_INFERENCE)->name, "ort-cpu");
    CHECK_EQ_STR(oc_target_of_mode(OC_TARGET_TRAINING)->name, "torch-cpu");
    CHECK_EQ_STR(oc_target_names(), "ort-cpu, torch-cpu");
    for (int i = 0; i < OC_TARGET_COUNT; i++) {
        const oc_target_entry *t = oc_target_entry_of((oc_target_id)i);
        CHECK(t && (int)t->id == i && oc_target_lookup(t->name) == t->id);
        CHECK(t->driver && t->interp_env && t->interp && t->version_key && t->runtime);
    }
}

/* Training-step targets: the optimizer is a feature, the most common one
 * the default; one the data lacks is refused; the file keeps them. */
static void test_optimizers(void)
{
    oc_train_set s;
    make_set(&s, 600);
    for (size_t i = 0; i < s.n; i++) {
        s.s[i].optimizer = i % 3 == 0 ? OC_OPT_ADAM : OC_OPT_SGD;
        s.X[i * OC_N_FEATURES + OC_F_OPT_ADAM] = s.s[i].optimizer == OC_OPT_ADAM;
        if (s.s[i].optimizer == OC_OPT_ADAM)
            s.s[i].time_us *= 1.5;
    }
    oc_tmodel *tm = train_small(&s);
    if (!tm) {
        free_set(&s);
        return;
    }
    const oc_tmodel_info *in = oc_tmodel_get_info(tm);
    oc_error err;
    oc_target t;
    CHECK_EQ_INT(in->optimizer, OC_OPT_SGD);
    CHECK_EQ_INT((int)in->optimizers, (1 << OC_OPT_SGD) | (1 << OC_OPT_ADAM));
    oc_tmodel_target(tm, &t);
    CHECK_EQ_INT(t.optimizer, OC_OPT_SGD);
    CHECK(oc_tmodel_set_optimizer(tm, OC_OPT_NONE, &err) == OC_ERR_USAGE);
    CHECK(strstr(err.msg, "predicts training steps") != NULL);
    CHECK(oc_tmodel_set_optimizer(tm, OC_OPT_ADAM, &err) == OC_OK);
    oc_tmodel_target(tm, &t);
    CHECK_EQ_INT(t.optimizer, OC_OPT_ADAM);
    void *buf = NULL;
    size_t n = 0;
    oc_tmodel *back = NULL;
    CHECK(oc_tmodel_to_buffer(tm, &buf, &n, &err) == OC_OK);
    CHECK(oc_tmodel_from_buffer(buf, n, "buffer", &back, &err) == OC_OK);
    if (back) {
        /* the file keeps the optimizer predictions are made for */
        CHECK_EQ_INT(oc_tmodel_get_info(back)->optimizer, OC_OPT_ADAM);
        CHECK_EQ_INT((int)oc_tmodel_get_info(back)->optimizers, (int)in->optimizers);
    }
    oc_tmodel_free(back);
    free(buf);
    oc_tmodel_free(tm);
    free_set(&s);

    oc_optimizer o;
    CHECK(oc_optimizer_parse("adam", &o) && o == OC_OPT_ADAM);
    CHECK(!oc_optimizer_parse("rmsprop", &o) && !oc_optimizer_parse(NULL, &o));
    CHECK(strcmp(oc_optimizer_name(OC_OPT_SGD), "sgd") == 0);
}

/* Data of two machines: each sample's features from its machine's profile,
 * an id once per machine, a machine with no profile refused; a model
 * trained on both keeps both profiles and predicts with the calibration's
 * machine's. */
static void test_machines(void)
{
    char path[] = "/tmp/test_machines.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    gzFile f = gzdopen(fd, "wb");
    static const char *line =
        "{\"id\":\"relu/%d\",\"node\":{\"op\":\"Relu\",\"domain\":\"\",\"opset\":17,"
        "\"attrs\":{},\"inputs\":[{\"dtype\":\"float32\",\"shape\":[1,%d]}],"
        "\"outputs\":[{\"dtype\":\"float32\",\"shape\":[1,%d]}]},\"time_us\":%d,"
        "\"target\":{\"name\":\"ort-cpu\",\"threads\":1%s%s%s}}\n";
    for (int i = 0; i < 40; i++) {
        gzprintf(f, line, i, 64 * (i + 1), 64 * (i + 1), 2 + i, "", "", "");
        gzprintf(f, line, i, 64 * (i + 1), 64 * (i + 1), 1 + i / 2, ",\"machine\":\"", "m-b",
                "\"");
    }
    gzclose(f);
    oc_hw hws[2] = {{.cpu = "a", .cores = 2, .max_threads = 2, .gflops_1 = 50, .gflops_n = 90,
                     .gbps_1 = 10, .gbps_n = 15},
                    {.cpu = "b", .cores = 2, .max_threads = 2, .gflops_1 = 100,
                     .gflops_n = 180, .gbps_1 = 30, .gbps_n = 50, .machine = "m-b",
                     .nchwc_block = 16}};
    oc_error err;
    oc_error_clear(&err);
    oc_train_set s;
    oc_train_set_init(&s);
    CHECK(oc_train_set_load_machines(&s, path, hws, 2, NULL, &err) == OC_OK);
    json_error_t je;
    json_t *hj = json_loads("{\"cpu\": \"x\", \"cores\": 2, \"max_threads\": 2, \"gflops_1\": 1, "
                            "\"gflops_n\": 2, \"gbps_1\": 1, \"gbps_n\": 2, \"machine\": "
                            "{\"id\": \"m-x\", \"isa\": [\"avx2\", \"avx512f\"]}}", 0, &je);
    oc_hw hx;
    CHECK(hj && oc_hw_from_json(hj, &hx, &err) == OC_OK);
    CHECK(!strcmp(hx.machine, "m-x") && hx.nchwc_block == 16);
    json_object_set_new(hj, "nchwc_block", json_integer(8));
    CHECK(oc_hw_from_json(hj, &hx, &err) == OC_OK && hx.nchwc_block == 8);
    /* the cost of fresh pages: absent in older profiles (0), else both
     * figures, positive, and back out as they came in */
    CHECK(hx.fault_us_per_mb == 0 && hx.fault_us_per_mb_n == 0);
    json_object_set_new(hj, "fault_us_per_mb", json_real(2500));
    CHECK(oc_hw_from_json(hj, &hx, &err) == OC_ERR_INPUT); /* without its N-thread figure */
    json_object_set_new(hj, "fault_us_per_mb_n", json_real(1500));
    CHECK(oc_hw_from_json(hj, &hx, &err) == OC_OK && hx.fault_us_per_mb == 2500 &&
          hx.fault_us_per_mb_n == 1500);
    json_t *back = oc_hw_to_json(&hx);
    CHECK(back && json_real_value(json_object_get(back, "fault_us_per_mb_n")) == 1500);
    json_decref(back);
    json_object_set_new(hj, "fault_us_per_mb_n", json_real(-1));
    CHECK(oc_hw_from_json(hj, &hx, &err) == OC_ERR_INPUT);
    json_decref(hj);
    CHECK_EQ_INT((int)s.n, 80);
    CHECK_EQ_INT((int)s.n_duplicates, 0);
    if (s.n == 80) {
        CHECK_EQ_STR(s.s[0].machine, "");
        CHECK_EQ_STR(s.s[1].machine, "m-b");
        CHECK(s.X[OC_F_LOG_GFLOPS] != s.X[OC_N_FEATURES + OC_F_LOG_GFLOPS]);
    }
    /* only a profile of m-b: the unrecorded lines have none */
    oc_train_set t;
    oc_train_set_init(&t);
    CHECK(oc_train_set_load_machines(&t, path, hws + 1, 1, NULL, &err) == OC_ERR_INPUT);
    CHECK_CONTAINS(err.msg, "no hardware profile of machine 'unrecorded'");
    oc_train_set_free(&t);

    oc_tmodel_train_opts o = oc_tmodel_train_defaults();
    o.ensemble = 1;
    o.mlp.epochs = 2;
    static const int hidden[] = {4};
    o.mlp.hidden = hidden;
    o.mlp.n_hidden = 1;
    oc_tmodel *tm = NULL;
    CHECK(oc_tmodel_train(&s, hws, 2, &o, &tm, &err) == OC_OK);
    if (tm) {
        size_t n;
        unsigned char *pl = payload_of(tm, &n);
        oc_tmodel *back = NULL;
        CHECK(pl && oc_tmodel_from_payload(OC_TMODEL_VERSION, OC_N_FEATURES, pl, n, "m", &back,
                                           &err) == OC_OK);
        if (back) {
            const oc_tmodel_info *in = oc_tmodel_get_info(back);
            CHECK_EQ_INT(in->n_machines, 2);
            CHECK_EQ_STR(in->machines[1].machine, "m-b");
            CHECK(oc_tmodel_hw_for(back, "m-b")->gflops_1 == 100);
            CHECK(in->machines[1].nchwc_block == 16 && in->machines[0].nchwc_block == 0);
            CHECK(oc_tmodel_hw_for(back, "m-c")->gflops_1 == 50);
            oc_target tg;
            oc_tmodel_target(back, &tg);
            CHECK(tg.gflops == 50); /* no calibration: the model's own */
        }
        oc_tmodel_free(back);
        free(pl);
    }
    oc_tmodel_free(tm);
    oc_train_set_free(&s);
    unlink(path);
}

int main(void)
{
    test_rng();
    test_gradient_check();
    test_learns_smooth_function();
    test_determinism();
    test_features();
    test_kernel_and_layout_features();
    test_huber_resists_outliers();
    test_split_and_baseline();
    test_tmodel_file();
    test_tmodel_merge();
    test_optimizers();
    test_tmodel_fit();
    test_targets();
    test_machines();
    return t_report("test_mlp");
}
