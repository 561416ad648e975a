/* mlp.c - dense ReLU MLP: forward, backward (cblas_sgemm), Adam. */
#include "predictor/mlp.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

/* ---- PRNG ---- */

uint64_t oc_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void oc_rng_seed(oc_rng *r, uint64_t seed)
{
    uint64_t s = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = oc_splitmix64(&s);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t oc_rng_next(oc_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double oc_rng_uniform(oc_rng *r)
{
    return (double)(oc_rng_next(r) >> 11) * 0x1.0p-53;
}

double oc_rng_normal(oc_rng *r)
{
    /* One Box-Muller draw per call (the second value is discarded) keeps
     * the stream position a function of the number of calls only. */
    double u1 = oc_rng_uniform(r), u2 = oc_rng_uniform(r);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

uint64_t oc_rng_below(oc_rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = oc_rng_next(r);
    while (x >= limit);
    return x % n;
}

/* ---- network ---- */

oc_status oc_mlp_new(int n_in, const int *hidden, int n_hidden, int n_out,
                     oc_mlp **out, oc_error *err)
{
    *out = NULL;
    if (n_hidden < 0 || n_hidden + 1 > OC_MLP_MAX_LAYERS)
        return oc_error_set(err, OC_ERR_USAGE, "", "an MLP has at most %d hidden layers",
                            OC_MLP_MAX_LAYERS - 1);
    if (n_hidden > 0 && !hidden)
        return oc_error_set(err, OC_ERR_USAGE, "", "hidden layer sizes missing");
    oc_mlp *m = calloc(1, sizeof *m);
    if (!m)
        return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
    m->n_layers = n_hidden + 1;
    m->sizes[0] = n_in;
    for (int i = 0; i < n_hidden; i++)
        m->sizes[i + 1] = hidden[i];
    m->sizes[m->n_layers] = n_out;
    for (int l = 0; l <= m->n_layers; l++)
        if (m->sizes[l] < 1 || m->sizes[l] > OC_MLP_MAX_WIDTH) {
            int w = m->sizes[l];
            oc_mlp_free(m);
            return oc_error_set(err, OC_ERR_USAGE, "", "layer width %d is not in [1, %d]",
                                w, OC_MLP_MAX_WIDTH);
        }
    for (int l = 0; l < m->n_layers; l++) {
        m->W[l] = calloc((size_t)m->sizes[l] * (size_t)m->sizes[l + 1], sizeof(float));
        m->b[l] = calloc((size_t)m->sizes[l + 1], sizeof(float));
        if (!m->W[l] || !m->b[l]) {
            oc_mlp_free(m);
            return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
        }
    }
    *out = m;
    return OC_OK;
}

void oc_mlp_free(oc_mlp *m)
{
    if (!m)
        return;
    for (int l = 0; l < m->n_layers; l++) {
        free(m->W[l]);
        free(m->b[l]);
    }
    free(m);
}

static size_t wcount(const oc_mlp *m, int l)
{
    return (size_t)m->sizes[l] * (size_t)m->sizes[l + 1];
}

oc_mlp *oc_mlp_clone(const oc_mlp *m)
{
    oc_mlp *c;
    if (oc_mlp_new(m->sizes[0], m->sizes + 1, m->n_layers - 1, m->sizes[m->n_layers],
                   &c, NULL) != OC_OK)
        return NULL;
    oc_mlp_copy_weights(c, m);
    return c;
}

void oc_mlp_copy_weights(oc_mlp *dst, const oc_mlp *src)
{
    for (int l = 0; l < src->n_layers; l++) {
        memcpy(dst->W[l], src->W[l], wcount(src, l) * sizeof(float));
        memcpy(dst->b[l], src->b[l], (size_t)src->sizes[l + 1] * sizeof(float));
    }
}

size_t oc_mlp_n_params(const oc_mlp *m)
{
    size_t n = 0;
    for (int l = 0; l < m->n_layers; l++)
        n += wcount(m, l) + (size_t)m->sizes[l + 1];
    return n;
}

void oc_mlp_init_weights(oc_mlp *m, oc_rng *rng)
{
    for (int l = 0; l < m->n_layers; l++) {
        double sd = sqrt(2.0 / m->sizes[l]);
        size_t nw = wcount(m, l);
        for (size_t i = 0; i < nw; i++)
            m->W[l][i] = (float)(sd * oc_rng_normal(rng));
        memset(m->b[l], 0, (size_t)m->sizes[l + 1] * sizeof(float));
    }
}

static int max_width(const oc_mlp *m)
{
    int w = 0;
    for (int l = 0; l <= m->n_layers; l++)
        if (m->sizes[l] > w)
            w = m->sizes[l];
    return w;
}

/* Z (n x o) = A (n x i) W (i x o) + b. */
static void dense(const float *A, size_t n, int i, int o, const float *W,
                  const float *b, float *Z)
{
    for (size_t r = 0; r < n; r++)
        memcpy(Z + r * (size_t)o, b, (size_t)o * sizeof(float));
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, o, i, 1.0f, A,
                i, W, o, 1.0f, Z, o);
}

static void relu(float *Z, size_t count)
{
    for (size_t k = 0; k < count; k++)
        if (!(Z[k] > 0.0f))
            Z[k] = 0.0f;
}

enum { FWD_CHUNK = 256 };

oc_status oc_mlp_forward(const oc_mlp *m, const float *X, size_t n, float *Y,
                         oc_error *err)
{
    size_t w = (size_t)max_width(m);
    float *buf = malloc(2 * FWD_CHUNK * w * sizeof(float));
    if (!buf)
        return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
    int L = m->n_layers, n_out = m->sizes[L];
    for (size_t r0 = 0; r0 < n; r0 += FWD_CHUNK) {
        size_t rows = n - r0 < FWD_CHUNK ? n - r0 : FWD_CHUNK;
        const float *A = X + r0 * (size_t)m->sizes[0];
        float *bufs[2] = {buf, buf + FWD_CHUNK * w};
        for (int l = 0; l < L; l++) {
            float *Z = l == L - 1 ? Y + r0 * (size_t)n_out : bufs[l & 1];
            dense(A, rows, m->sizes[l], m->sizes[l + 1], m->W[l], m->b[l], Z);
            if (l < L - 1)
                relu(Z, rows * (size_t)m->sizes[l + 1]);
            A = Z;
        }
    }
    free(buf);
    return OC_OK;
}

/* The loss of one residual e: e^2, or with a Huber threshold h > 0,
 * e^2 inside [-h, h] and 2h|e| - h^2 outside (the same slope at h); its
 * derivative in *de. */
static double point_loss(double e, double h, double *de)
{
    if (h > 0 && fabs(e) > h) {
        *de = e > 0 ? 2 * h : -2 * h;
        return 2 * h * fabs(e) - h * h;
    }
    *de = 2 * e;
    return e * e;
}

/* Mean loss (Huber threshold h; 0: squared error) and mean squared error
 * of m on (X, y). */
static oc_status losses(const oc_mlp *m, const float *X, const float *y, size_t n, double h,
                        double *loss, double *mse, oc_error *err)
{
    int n_out = m->sizes[m->n_layers];
    float *Y = malloc((n ? n : 1) * (size_t)n_out * sizeof(float));
    if (!Y)
        return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
    oc_status st = oc_mlp_forward(m, X, n, Y, err);
    if (st == OC_OK) {
        double s = 0, sq = 0, de;
        for (size_t k = 0; k < n * (size_t)n_out; k++) {
            double e = (double)Y[k] - (double)y[k];
            s += point_loss(e, h, &de);
            sq += e * e;
        }
        double cnt = (double)n * n_out;
        *loss = n ? s / cnt : 0.0;
        *mse = n ? sq / cnt : 0.0;
    }
    free(Y);
    return st;
}

oc_status oc_mlp_mse(const oc_mlp *m, const float *X, const float *y, size_t n,
                     double *mse, oc_error *err)
{
    double loss;
    return losses(m, X, y, n, 0, &loss, mse, err);
}

/* ---- backward ---- */

/* Activations of every layer for one batch of at most `cap` rows. */
typedef struct workspace {
    size_t cap;
    float *A[OC_MLP_MAX_LAYERS + 1]; /* A[0] input copy, A[l] post-ReLU */
    float *dA, *dZ;                  /* cap x max width each */
} workspace;

static void ws_free(workspace *ws)
{
    for (int l = 0; l <= OC_MLP_MAX_LAYERS; l++)
        free(ws->A[l]);
    free(ws->dA);
    free(ws->dZ);
    memset(ws, 0, sizeof *ws);
}

static bool ws_init(workspace *ws, const oc_mlp *m, size_t cap)
{
    memset(ws, 0, sizeof *ws);
    ws->cap = cap;
    size_t w = (size_t)max_width(m);
    for (int l = 0; l <= m->n_layers; l++)
        if (!(ws->A[l] = malloc(cap * (size_t)m->sizes[l] * sizeof(float))))
            goto fail;
    ws->dA = malloc(cap * w * sizeof(float));
    ws->dZ = malloc(cap * w * sizeof(float));
    if (ws->dA && ws->dZ)
        return true;
fail:
    ws_free(ws);
    return false;
}

/* Forward with inverted dropout on the hidden layers (p = 0: none), keeping
 * activations in ws; ws->A[0] already holds the n input rows. */
static void forward_train(const oc_mlp *m, workspace *ws, size_t n, double p,
                          oc_rng *rng)
{
    int L = m->n_layers;
    float keep_scale = p > 0 ? (float)(1.0 / (1.0 - p)) : 1.0f;
    for (int l = 0; l < L; l++) {
        float *Z = ws->A[l + 1];
        dense(ws->A[l], n, m->sizes[l], m->sizes[l + 1], m->W[l], m->b[l], Z);
        if (l < L - 1) {
            size_t cnt = n * (size_t)m->sizes[l + 1];
            relu(Z, cnt);
            if (p > 0)
                for (size_t k = 0; k < cnt; k++)
                    Z[k] = oc_rng_uniform(rng) < p ? 0.0f : Z[k] * keep_scale;
        }
    }
}

/* Gradient of the batch loss (+ L2) into g; returns the batch loss. */
static double backward(const oc_mlp *m, workspace *ws, const float *y, size_t n,
                       double p, double l2, double huber, oc_mlp *g)
{
    int L = m->n_layers, n_out = m->sizes[L];
    const float *Yhat = ws->A[L];
    float *dZ = ws->dZ, *dA = ws->dA;
    double sum = 0, inv = 1.0 / ((double)n * n_out);
    for (size_t k = 0; k < n * (size_t)n_out; k++) {
        double de;
        sum += point_loss((double)Yhat[k] - (double)y[k], huber, &de);
        dZ[k] = (float)(inv * de);
    }
    float keep_scale = p > 0 ? (float)(1.0 / (1.0 - p)) : 1.0f;
    for (int l = L - 1; l >= 0; l--) {
        int i = m->sizes[l], o = m->sizes[l + 1];
        const float *A = ws->A[l];
        /* dW = A^T dZ + l2 W */
        memcpy(g->W[l], m->W[l], wcount(m, l) * sizeof(float));
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, i, o, (int)n, 1.0f, A, i,
                    dZ, o, (float)l2, g->W[l], o);
        for (int c = 0; c < o; c++)
            g->b[l][c] = 0;
        for (size_t r = 0; r < n; r++) {
            const float *row = dZ + r * (size_t)o;
            for (int c = 0; c < o; c++)
                g->b[l][c] += row[c];
        }
        if (l == 0)
            break;
        /* dA = dZ W^T, then through dropout and ReLU of layer l's output */
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, i, o, 1.0f, dZ, o,
                    m->W[l], o, 0.0f, dA, i);
        for (size_t k = 0; k < n * (size_t)i; k++)
            dA[k] = A[k] > 0.0f ? dA[k] * keep_scale : 0.0f;
        float *t = dZ;
        dZ = dA;
        dA = t;
    }
    return sum * inv;
}

static double l2_term(const oc_mlp *m, double l2)
{
    if (l2 == 0)
        return 0;
    double s = 0;
    for (int l = 0; l < m->n_layers; l++) {
        size_t nw = wcount(m, l);
        for (size_t k = 0; k < nw; k++)
            s += (double)m->W[l][k] * m->W[l][k];
    }
    return 0.5 * l2 * s;
}

oc_status oc_mlp_loss_grad(const oc_mlp *m, const float *X, const float *y,
                           size_t n, double l2, double huber, oc_mlp *grad,
                           double *loss, oc_error *err)
{
    workspace ws;
    if (n == 0)
        return oc_error_set(err, OC_ERR_USAGE, "", "no rows");
    if (!ws_init(&ws, m, n))
        return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
    memcpy(ws.A[0], X, n * (size_t)m->sizes[0] * sizeof(float));
    forward_train(m, &ws, n, 0, NULL);
    double data_loss = backward(m, &ws, y, n, 0, l2, huber, grad);
    *loss = data_loss + l2_term(m, l2);
    ws_free(&ws);
    return OC_OK;
}

/* ---- training ---- */

/* Subnormal floats cost x86 cores a microcode assist per operation, and
 * training makes many: Adam's moments of a weight whose gradient is nearly
 * always 0 (a dead ReLU's) decay towards 0 step by step, and so do the
 * gradients backpropagated through them.  Training flushes them to zero
 * (MXCSR's flush-to-zero and denormals-are-zero) and gives the caller its
 * mode back; the result stays a function of the seed and the data. */
#if defined(__SSE__)
enum { MXCSR_DAZ = 0x0040u, MXCSR_FTZ = 0x8000u };

static unsigned subnormals_off(void)
{
    unsigned saved = _mm_getcsr();
    _mm_setcsr(saved | MXCSR_FTZ | MXCSR_DAZ);
    return saved;
}

static void subnormals_restore(unsigned saved) { _mm_setcsr(saved); }
#else
static unsigned subnormals_off(void) { return 0; }
static void subnormals_restore(unsigned saved) { (void)saved; }
#endif

oc_mlp_train_opts oc_mlp_train_defaults(void)
{
    return (oc_mlp_train_opts){
        .epochs = 200, .batch = 128, .lr = 1e-3, .beta1 = 0.9, .beta2 = 0.999,
        .eps = 1e-8, .l2 = 1e-5, .dropout = 0, .patience = 25, .seed = 1,
    };
}

static bool all_finite(const float *v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!isfinite(v[k]))
            return false;
    return true;
}

static void adam_step(oc_mlp *m, const oc_mlp *g, oc_mlp *mm, oc_mlp *vv,
                      const oc_mlp_train_opts *o, double lr, long t)
{
    double b1 = o->beta1, b2 = o->beta2;
    double c1 = 1.0 - pow(b1, (double)t), c2 = 1.0 - pow(b2, (double)t);
    float step = (float)(lr * sqrt(c2) / c1);
    float fb1 = (float)b1, fb2 = (float)b2, eps = (float)(o->eps * sqrt(c2));
    for (int l = 0; l < m->n_layers; l++) {
        for (int pass = 0; pass < 2; pass++) {
            size_t cnt = pass ? (size_t)m->sizes[l + 1] : wcount(m, l);
            float *w = pass ? m->b[l] : m->W[l];
            const float *gr = pass ? g->b[l] : g->W[l];
            float *m1 = pass ? mm->b[l] : mm->W[l];
            float *v1 = pass ? vv->b[l] : vv->W[l];
            for (size_t k = 0; k < cnt; k++) {
                m1[k] = fb1 * m1[k] + (1 - fb1) * gr[k];
                v1[k] = fb2 * v1[k] + (1 - fb2) * gr[k] * gr[k];
                w[k] -= step * m1[k] / (sqrtf(v1[k]) + eps);
            }
        }
    }
}

static oc_status bad_opts(oc_error *err, const char *what)
{
    return oc_error_set(err, OC_ERR_USAGE, "", "MLP training: %s", what);
}

static oc_status train(const oc_mlp_train_opts *o, const float *X, const float *y,
                       size_t n, size_t d, const float *Xv, const float *yv, size_t nv,
                       oc_mlp **out, oc_mlp_train_report *rep, oc_error *err)
{
    *out = NULL;
    if (n == 0)
        return bad_opts(err, "no training rows");
    if (d == 0 || d > OC_MLP_MAX_WIDTH)
        return bad_opts(err, "bad input width");
    if (o->epochs < 1 || o->batch < 1 || !(o->lr > 0) || !(o->l2 >= 0) ||
        !(o->dropout >= 0 && o->dropout < 1) || o->patience < 0 ||
        !(o->beta1 >= 0 && o->beta1 < 1) || !(o->beta2 >= 0 && o->beta2 < 1) ||
        !(o->eps > 0) || !(o->huber >= 0))
        return bad_opts(err, "an option is out of range");
    if (!all_finite(X, n * d) || !all_finite(y, n) ||
        (nv && (!all_finite(Xv, nv * d) || !all_finite(yv, nv))))
        return oc_error_set(err, OC_ERR_INPUT, "", "MLP training: non-finite value in the data");

    oc_status st;
    oc_mlp *m = NULL, *best = NULL, *g = NULL, *m1 = NULL, *v1 = NULL;
    size_t *perm = NULL;
    workspace ws = {0};
    if ((st = oc_mlp_new((int)d, o->hidden, o->n_hidden, 1, &m, err)) != OC_OK)
        return st;
    oc_rng rng;
    oc_rng_seed(&rng, o->seed);
    oc_mlp_init_weights(m, &rng);
    size_t bs = (size_t)o->batch < n ? (size_t)o->batch : n;
    best = oc_mlp_clone(m);
    g = oc_mlp_clone(m);
    m1 = oc_mlp_clone(m);
    v1 = oc_mlp_clone(m);
    perm = malloc(n * sizeof *perm);
    if (!best || !g || !m1 || !v1 || !perm || !ws_init(&ws, m, bs)) {
        st = oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
        goto done;
    }
    for (int l = 0; l < m->n_layers; l++) {
        memset(m1->W[l], 0, wcount(m, l) * sizeof(float));
        memset(v1->W[l], 0, wcount(m, l) * sizeof(float));
        memset(m1->b[l], 0, (size_t)m->sizes[l + 1] * sizeof(float));
        memset(v1->b[l], 0, (size_t)m->sizes[l + 1] * sizeof(float));
    }
    for (size_t k = 0; k < n; k++)
        perm[k] = k;
    if (nv == 0) {
        Xv = X;
        yv = y;
        nv = n;
    }

    double lr = o->lr, best_val = INFINITY, best_mse = INFINITY, train_loss = 0;
    int best_epoch = 0, since_best = 0, since_decay = 0, epoch = 0;
    int decay_after = o->patience / 3 > 0 ? o->patience / 3 : 1;
    bool early = false;
    long t = 0;
    float *ybatch = malloc(bs * sizeof(float));
    if (!ybatch) {
        st = oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
        goto done;
    }
    for (epoch = 1; epoch <= o->epochs; epoch++) {
        /* Fisher-Yates shuffle from the seeded stream. */
        for (size_t k = n - 1; k > 0; k--) {
            size_t j = (size_t)oc_rng_below(&rng, k + 1);
            size_t tmp = perm[k];
            perm[k] = perm[j];
            perm[j] = tmp;
        }
        double sum = 0;
        size_t batches = 0;
        for (size_t r0 = 0; r0 < n; r0 += bs) {
            size_t rows = n - r0 < bs ? n - r0 : bs;
            for (size_t r = 0; r < rows; r++) {
                memcpy(ws.A[0] + r * d, X + perm[r0 + r] * d, d * sizeof(float));
                ybatch[r] = y[perm[r0 + r]];
            }
            forward_train(m, &ws, rows, o->dropout, &rng);
            sum += backward(m, &ws, ybatch, rows, o->dropout, o->l2, o->huber, g);
            batches++;
            adam_step(m, g, m1, v1, o, lr, ++t);
        }
        train_loss = sum / (double)batches;
        double val = 0, val_mse = 0;
        if ((st = losses(m, Xv, yv, nv, o->huber, &val, &val_mse, err)) != OC_OK) {
            free(ybatch);
            goto done;
        }
        if (!isfinite(val) || !isfinite(train_loss)) {
            free(ybatch);
            st = oc_error_set(err, OC_ERR_INPUT, "",
                              "MLP training diverged at epoch %d (try a smaller --lr)",
                              epoch);
            goto done;
        }
        double used_lr = lr;
        if (val < best_val) {
            best_val = val;
            best_mse = val_mse;
            best_epoch = epoch;
            since_best = 0;
            since_decay = 0;
            oc_mlp_copy_weights(best, m);
        } else {
            since_best++;
            if (++since_decay >= decay_after && lr > o->lr / 64) {
                lr *= 0.5;
                since_decay = 0;
            }
        }
        int stop = 0;
        if (o->progress) {
            oc_mlp_epoch e = {epoch, train_loss, val, val_mse, best_val, best_epoch, used_lr};
            stop = o->progress(o->ud, &e);
        }
        if (o->patience > 0 && since_best >= o->patience) {
            early = true;
            break;
        }
        if (stop)
            break;
    }
    free(ybatch);
    if (rep) {
        rep->epochs_run = epoch > o->epochs ? o->epochs : epoch;
        rep->best_epoch = best_epoch;
        rep->best_val = best_val;
        rep->best_val_mse = best_mse;
        rep->final_train = train_loss;
        rep->stopped_early = early;
    }
    *out = best;
    best = NULL;
    st = OC_OK;
done:
    ws_free(&ws);
    free(perm);
    oc_mlp_free(m);
    oc_mlp_free(best);
    oc_mlp_free(g);
    oc_mlp_free(m1);
    oc_mlp_free(v1);
    return st;
}

oc_status oc_mlp_train(const oc_mlp_train_opts *o, const float *X,
                       const float *y, size_t n, size_t d, const float *Xv,
                       const float *yv, size_t nv, oc_mlp **out,
                       oc_mlp_train_report *rep, oc_error *err)
{
    unsigned mode = subnormals_off();
    oc_status st = train(o, X, y, n, d, Xv, yv, nv, out, rep, err);
    subnormals_restore(mode);
    return st;
}
