/*
 * mlp.h - a dense ReLU multilayer perceptron on OpenBLAS, with Adam,
 * mini-batches, L2, dropout and early stopping; and the seeded PRNG every
 * random choice of the predictor goes through.
 *
 *     int hidden[] = {32, 64, 128};
 *     oc_mlp_train_opts o = oc_mlp_train_defaults();
 *     o.hidden = hidden; o.n_hidden = 3; o.seed = 7;
 *     oc_mlp *m;
 *     if (oc_mlp_train(&o, X, y, n, d, Xv, yv, nv, &m, &rep, &err) != OC_OK) ...
 *     oc_mlp_forward(m, Xq, nq, yq, &err);
 *     oc_mlp_free(m);
 *
 * Layout: every matrix is row-major float32.  A batch X is n x sizes[0];
 * layer l maps n x sizes[l] to n x sizes[l+1] as Z = A W[l] + b[l] with
 * W[l] stored sizes[l] x sizes[l+1]; hidden layers apply ReLU, the last is
 * linear.  One output per row is the usual case (the timing model predicts
 * one standardised log time), but n_out is general.
 *
 * Loss: mean squared error over the batch, L = (1/(n*n_out)) sum (yhat-y)^2,
 * plus (l2/2) sum W^2 over the weights (not the biases).  On log-time
 * targets MSE penalises a ratio (2x too slow, 2x too fast) the same
 * whatever the operator's size, which is what a percentage error needs.
 *
 * Determinism: training draws its initial weights, its shuffles and its
 * dropout masks from one xoshiro256** stream seeded by splitmix64(seed);
 * nothing uses rand().  With the same seed, data, options and OpenBLAS
 * thread count, two trainings give bit-identical weights.
 */
#ifndef OC_PREDICTOR_MLP_H
#define OC_PREDICTOR_MLP_H

#include "onnx/common.h"

/* ---- PRNG: xoshiro256** seeded through splitmix64 ---- */

typedef struct oc_rng {
    uint64_t s[4];
} oc_rng;

/* Advance a splitmix64 state and return the next output (also a good
 * 64-bit mixer for hashing). */
uint64_t oc_splitmix64(uint64_t *state);
void oc_rng_seed(oc_rng *r, uint64_t seed);
uint64_t oc_rng_next(oc_rng *r);
double oc_rng_uniform(oc_rng *r);           /* [0, 1), 53 bits */
double oc_rng_normal(oc_rng *r);            /* N(0, 1), Box-Muller */
uint64_t oc_rng_below(oc_rng *r, uint64_t n); /* [0, n), unbiased; n > 0 */

/* ---- the network ---- */

enum { OC_MLP_MAX_LAYERS = 16, OC_MLP_MAX_WIDTH = 65536 };

typedef struct oc_mlp {
    int n_layers;                       /* weight layers: hidden + 1 */
    int sizes[OC_MLP_MAX_LAYERS + 1];   /* [0] inputs ... [n_layers] outputs */
    float *W[OC_MLP_MAX_LAYERS];        /* sizes[l] x sizes[l+1] */
    float *b[OC_MLP_MAX_LAYERS];        /* sizes[l+1] */
} oc_mlp;

/* A network of the given shape with all weights zero (initialise it with
 * oc_mlp_init_weights or fill W/b yourself).  n_hidden may be 0 (a linear
 * model).  Errors: OC_ERR_USAGE (a size < 1 or > OC_MLP_MAX_WIDTH, too
 * many layers), OC_ERR_NOMEM.  Free with oc_mlp_free (NULL accepted). */
oc_status oc_mlp_new(int n_in, const int *hidden, int n_hidden, int n_out,
                     oc_mlp **out, oc_error *err);
void oc_mlp_free(oc_mlp *m);
/* A deep copy; NULL on allocation failure. */
oc_mlp *oc_mlp_clone(const oc_mlp *m);
/* Copy the weights of src into dst of the same shape. */
void oc_mlp_copy_weights(oc_mlp *dst, const oc_mlp *src);
/* Total weights + biases. */
size_t oc_mlp_n_params(const oc_mlp *m);

/* He-normal weights (std sqrt(2/fan_in)), zero biases, drawn from rng. */
void oc_mlp_init_weights(oc_mlp *m, oc_rng *rng);

/* Y (n x n_out) = network(X (n x n_in)).  Works in chunks, so any n.
 * Errors: OC_ERR_NOMEM. */
oc_status oc_mlp_forward(const oc_mlp *m, const float *X, size_t n, float *Y,
                         oc_error *err);

/* Loss (mean squared error, or Huber with threshold huber > 0 as in
 * oc_mlp_train_opts, + the L2 term) of m on (X, y) and its gradient with
 * respect to every weight and bias, written into grad (a network of the
 * same shape, overwritten).  No dropout.  For gradient checks and for
 * callers that run their own optimiser.  Errors: OC_ERR_NOMEM. */
oc_status oc_mlp_loss_grad(const oc_mlp *m, const float *X, const float *y,
                           size_t n, double l2, double huber, oc_mlp *grad,
                           double *loss, oc_error *err);

/* Mean squared error of m on (X, y) (no L2 term). */
oc_status oc_mlp_mse(const oc_mlp *m, const float *X, const float *y,
                     size_t n, double *mse, oc_error *err);

/* ---- training ---- */

typedef struct oc_mlp_epoch {
    int epoch;          /* 1-based */
    double train_loss;  /* mean loss of the epoch's mini-batches (dropout on) */
    double val_loss;    /* loss on the validation set (train set if none) */
    double val_mse;     /* its mean squared error (val_loss without Huber) */
    double best_val;    /* best val_loss so far */
    int best_epoch;
    double lr;          /* learning rate used in this epoch */
} oc_mlp_epoch;

typedef struct oc_mlp_train_opts {
    const int *hidden;
    int n_hidden;
    int epochs;      /* maximum number of passes over the data */
    int batch;       /* mini-batch rows */
    double lr;       /* Adam step size */
    double beta1, beta2, eps; /* Adam */
    double l2;       /* weight penalty (l2/2) sum W^2 */
    double dropout;  /* probability of zeroing a hidden unit in training */
    /* Loss: squared error (0), or Huber with this threshold on the
     * residual (squared inside, linear outside), which lets a few wild
     * measurements pull the fit less; early stopping uses the same loss. */
    double huber;
    /* Early stopping: stop after `patience` epochs without a better
     * validation loss (0 = run all epochs); the weights returned are the
     * best epoch's.  After patience/3 (at least 1) epochs without progress
     * the learning rate halves, down to lr/64. */
    int patience;
    uint64_t seed;
    /* Called after every epoch; a nonzero return stops training (the best
     * weights so far are returned).  May be NULL. */
    int (*progress)(void *ud, const oc_mlp_epoch *e);
    void *ud;
} oc_mlp_train_opts;

typedef struct oc_mlp_train_report {
    int epochs_run;
    int best_epoch;
    double best_val;     /* validation loss of the returned weights */
    double best_val_mse; /* ... and their validation MSE */
    double final_train;  /* last epoch's training loss */
    bool stopped_early;
} oc_mlp_train_report;

/* Defaults: epochs 200, batch 128, lr 1e-3, Adam 0.9/0.999/1e-8, l2 1e-5,
 * dropout 0, patience 25, seed 1, no hidden layers set. */
oc_mlp_train_opts oc_mlp_train_defaults(void);

/* Train a fresh network on X (n x d), y (n x 1), validating on (Xv, yv)
 * (nv rows; nv == 0 validates on the training set, i.e. no early stopping
 * signal beyond the training loss).  The data is not modified.
 * Errors: OC_ERR_USAGE (bad options, n == 0), OC_ERR_INPUT (a non-finite
 * value in the data, or training diverged), OC_ERR_NOMEM.
 * rep may be NULL. */
oc_status oc_mlp_train(const oc_mlp_train_opts *o, const float *X,
                       const float *y, size_t n, size_t d, const float *Xv,
                       const float *yv, size_t nv, oc_mlp **out,
                       oc_mlp_train_report *rep, oc_error *err);

#endif
