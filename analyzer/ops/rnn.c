/*
 * rnn.c - RNN, GRU, LSTM.
 *
 * Shapes: X is seq x batch x input (layout 1, opset 14+: batch x seq x
 * input); W is dirs x gates*hidden x input, R is dirs x gates*hidden x
 * hidden, with gates = 1 (RNN), 3 (GRU), 4 (LSTM) and dirs = 2 for
 * "bidirectional", else 1.  hidden_size comes from the attribute, else R or
 * W.  Outputs: Y seq x dirs x batch x hidden (layout 1: batch x seq x dirs x
 * hidden); Y_h and LSTM's Y_c dirs x batch x hidden (layout 1: batch x dirs
 * x hidden).
 *
 * Costs, per time step and direction (seq steps; sequence_lens is data and
 * not consulted):
 *   MACs  = gates x (input + hidden) x hidden x batch
 *   FLOPs = 2 x MACs + batch x hidden x (cell + 2 x gates when B is given),
 *   counting an activation as 1 FLOP; cell = 2 for RNN (add the two
 *   products, activation), 11 for GRU (3 adds, 2 sigmoids, reset product,
 *   tanh, 4 for the update), 13 for LSTM (4 adds, 4 activations, 3 for the
 *   cell state, 2 for the output) and 6 more for LSTM peepholes P.
 */
#include <string.h>

#include "analyzer/values.h"

typedef struct rnn_kind {
    const char *name;
    int gates;
    uint64_t cell_flops;
    size_t init_h; /* index of initial_h */
} rnn_kind;

static const rnn_kind K_RNN = {"RNN", 1, 2, 5};
static const rnn_kind K_GRU = {"GRU", 3, 11, 5};
static const rnn_kind K_LSTM = {"LSTM", 4, 13, 5};

static oc_dim dim_pick(oc_dim a, oc_dim b)
{
    return oc_dim_is_unknown(a) ? b : a;
}

/* What the inputs and attributes say about the sizes. */
typedef struct rnn_sizes {
    int layout;
    int64_t dirs;
    oc_dim seq, batch, input, hidden;
} rnn_sizes;

static oc_status read_attrs(oc_op_ctx *c, const rnn_kind *k, rnn_sizes *s)
{
    const char *dir = oc_attr_str(c, "direction", "forward");
    if (!strcmp(dir, "forward") || !strcmp(dir, "reverse"))
        s->dirs = 1;
    else if (!strcmp(dir, "bidirectional"))
        s->dirs = 2;
    else
        return oc_fail(c, "%s: direction '%s' is not forward, reverse or "
                          "bidirectional", k->name, dir);
    int64_t layout = oc_ctx_opset(c) >= 14 ? oc_attr_int(c, "layout", 0) : 0;
    if (layout != 0 && layout != 1)
        return oc_fail(c, "%s: layout = %lld (0 or 1)", k->name,
                       (long long)layout);
    s->layout = (int)layout;
    int64_t h = oc_attr_int(c, "hidden_size", -1);
    if (oc_ctx_attr(c, "hidden_size") && h < 1)
        return oc_fail(c, "%s: hidden_size = %lld", k->name, (long long)h);
    s->hidden = h > 0 ? oc_dim_of(h) : OC_DIM_UNKNOWN;
    return OC_OK;
}

/* A rank-3 input, or NULL when absent/unknown; wrong rank fails. */
static oc_status rank3(oc_op_ctx *c, const rnn_kind *k, size_t i,
                       const char *what, const oc_tinfo **out)
{
    const oc_tinfo *t = oc_ctx_in(c, i);
    *out = NULL;
    if (!t || t->rank < 0)
        return OC_OK;
    if (t->rank != 3)
        return oc_fail(c, "%s: %s has rank %d (expected 3)", k->name, what,
                       t->rank);
    *out = t;
    return OC_OK;
}

/* A weight W or R: dirs x gates*hidden x last. */
static oc_status check_weight(oc_op_ctx *c, const rnn_kind *k,
                              const oc_tinfo *w, const char *what,
                              rnn_sizes *s, oc_dim *last)
{
    if (!w)
        return OC_OK;
    if (oc_dims_differ(w->dims[0], oc_dim_of(s->dirs)))
        return oc_fail(c, "%s: %s has %lld directions, direction says %lld",
                       k->name, what, (long long)w->dims[0].v,
                       (long long)s->dirs);
    oc_dim gh = w->dims[1];
    if (oc_dim_is_known(gh) && gh.v % k->gates)
        return oc_fail(c, "%s: %s has %lld rows, not a multiple of %d gates",
                       k->name, what, (long long)gh.v, k->gates);
    int64_t want;
    if (oc_dim_is_known(s->hidden) &&
        !oc_mul_i64(k->gates, s->hidden.v, &want))
        return oc_fail(c, "%s: hidden_size %lld overflows", k->name,
                       (long long)s->hidden.v);
    if (oc_dim_is_known(gh) && oc_dim_is_known(s->hidden) && gh.v != want)
        return oc_fail(c, "%s: %s has %lld rows for %d gates of hidden size "
                          "%lld", k->name, what, (long long)gh.v, k->gates,
                       (long long)s->hidden.v);
    if (oc_dim_is_known(gh) && !oc_dim_is_known(s->hidden))
        s->hidden = oc_dim_of(gh.v / k->gates);
    if (oc_dims_differ(*last, w->dims[2]))
        return oc_fail(c, "%s: %s has %lld columns, expected %lld", k->name,
                       what, (long long)w->dims[2].v, (long long)last->v);
    *last = dim_pick(*last, w->dims[2]);
    return OC_OK;
}

static oc_status read_sizes(oc_op_ctx *c, const rnn_kind *k, rnn_sizes *s)
{
    const oc_tinfo *x, *w, *r, *h0;
    oc_status st;
    if ((st = read_attrs(c, k, s)) || (st = rank3(c, k, 0, "X", &x)) ||
        (st = rank3(c, k, 1, "W", &w)) || (st = rank3(c, k, 2, "R", &r)) ||
        (st = rank3(c, k, k->init_h, "initial_h", &h0)))
        return st;
    s->seq = x ? x->dims[s->layout ? 1 : 0] : OC_DIM_UNKNOWN;
    s->batch = x ? x->dims[s->layout ? 0 : 1] : OC_DIM_UNKNOWN;
    s->input = x ? x->dims[2] : OC_DIM_UNKNOWN;
    /* R's columns are the hidden size itself. */
    if (r && oc_dims_differ(r->dims[2], s->hidden))
        return oc_fail(c, "%s: R has %lld columns but hidden_size is %lld",
                       k->name, (long long)r->dims[2].v,
                       (long long)s->hidden.v);
    if (r)
        s->hidden = dim_pick(s->hidden, r->dims[2]);
    if ((st = check_weight(c, k, r, "R", s, &s->hidden)) ||
        (st = check_weight(c, k, w, "W", s, &s->input)))
        return st;
    if (h0) {
        oc_dim hb = h0->dims[s->layout ? 0 : 1];
        if (oc_dims_differ(hb, s->batch))
            return oc_fail(c, "%s: initial_h has batch %lld, X %lld", k->name,
                           (long long)hb.v, (long long)s->batch.v);
        s->batch = dim_pick(s->batch, hb);
    }
    return OC_OK;
}

static oc_status rnn_infer(oc_op_ctx *c, const rnn_kind *k)
{
    rnn_sizes s;
    oc_status st = read_sizes(c, k, &s);
    if (st)
        return st;
    const oc_tinfo *x = oc_ctx_in(c, 0);
    oc_dtype dt = x ? x->dtype : OC_DT_UNDEFINED;
    oc_dim nd = oc_dim_of(s.dirs);
    oc_dim y[4], yh[3];
    if (s.layout == 0) {
        y[0] = s.seq, y[1] = nd, y[2] = s.batch, y[3] = s.hidden;
        yh[0] = nd, yh[1] = s.batch, yh[2] = s.hidden;
    } else {
        y[0] = s.batch, y[1] = s.seq, y[2] = nd, y[3] = s.hidden;
        yh[0] = s.batch, yh[1] = nd, yh[2] = s.hidden;
    }
    if ((st = oc_out_set(c, 0, dt, 4, y)) || (st = oc_out_set(c, 1, dt, 3, yh)))
        return st;
    return k->gates == 4 ? oc_out_set(c, 2, dt, 3, yh) : OC_OK;
}

oc_status oc_rnn_infer(oc_op_ctx *c)
{
    return rnn_infer(c, &K_RNN);
}

oc_status oc_gru_infer(oc_op_ctx *c)
{
    return rnn_infer(c, &K_GRU);
}

oc_status oc_lstm_infer(oc_op_ctx *c)
{
    return rnn_infer(c, &K_LSTM);
}

/* ---- costs ---- */

static oc_status rnn_cost(oc_op_ctx *c, const rnn_kind *k, oc_cost *out)
{
    rnn_sizes s;
    oc_status st = read_sizes(c, k, &s);
    if (st)
        return st;
    int64_t seq = oc_dim_cost(s.seq), b = oc_dim_cost(s.batch);
    int64_t in = oc_dim_cost(s.input), h = oc_dim_cost(s.hidden);
    if (seq < 0 || b < 0 || in < 0 || h < 0)
        return OC_OK;
    /* units = seq x dirs x batch x hidden: one per hidden value produced */
    uint64_t units, fan, per, t;
    if ((st = oc_cmul(c, (uint64_t)seq, (uint64_t)s.dirs, &units)) ||
        (st = oc_cmul(c, units, (uint64_t)b, &units)) ||
        (st = oc_cmul(c, units, (uint64_t)h, &units)) ||
        (st = oc_cadd(c, (uint64_t)in, (uint64_t)h, &fan)) ||
        (st = oc_cmul(c, fan, (uint64_t)k->gates, &fan)) ||
        (st = oc_cmul(c, units, fan, &out->macs)))
        return st;
    per = k->cell_flops;
    if (oc_ctx_in(c, 3))
        per += 2 * (uint64_t)k->gates;
    if (k->gates == 4 && oc_ctx_in(c, 7))
        per += 6;
    if ((st = oc_cmul(c, out->macs, 2, &out->flops)) ||
        (st = oc_cmul(c, units, per, &t)))
        return st;
    return oc_cadd(c, out->flops, t, &out->flops);
}

oc_status oc_rnn_cost(oc_op_ctx *c, oc_cost *out)
{
    return rnn_cost(c, &K_RNN, out);
}

oc_status oc_gru_cost(oc_op_ctx *c, oc_cost *out)
{
    return rnn_cost(c, &K_GRU, out);
}

oc_status oc_lstm_cost(oc_op_ctx *c, oc_cost *out)
{
    return rnn_cost(c, &K_LSTM, out);
}
