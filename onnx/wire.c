/*
 * wire.c - a framing check and weight elision ahead of protobuf-c.
 *
 * protobuf-c copies every bytes field while unpacking, so a 100 MB model
 * would cost its size twice in memory.  Analysis never needs the weight
 * bytes, so the fields that carry them (TensorProto.raw_data under graphs
 * and node attributes) are replaced here by small placeholders; the loader
 * then points the unpacked fields back into the (mapped) source buffer.
 * The weights are touched again only if the model is saved.
 *
 * Field numbers are from onnx.proto: ModelProto.graph = 7,
 * GraphProto.node = 1, .initializer = 5, NodeProto.attribute = 5,
 * AttributeProto.t = 5, .g = 6, .tensors = 10, .graphs = 11,
 * TensorProto.raw_data = 9.
 */
#include "onnx/wire.h"

#include "onnx.pb-c.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_SGROUP = 3, WT_EGROUP = 4,
       WT_I32 = 5 };

size_t oc_varint_put(unsigned char *p, uint64_t v)
{
    size_t n = 0;
    do {
        unsigned char b = v & 0x7f;
        v >>= 7;
        p[n++] = b | (v ? 0x80 : 0);
    } while (v);
    return n;
}

size_t oc_varint_get(const unsigned char *p, size_t avail, uint64_t *v)
{
    uint64_t r = 0;
    for (size_t i = 0; i < avail && i < 10; i++) {
        r |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) {
            *v = r;
            return i + 1;
        }
    }
    return 0;
}

typedef struct {
    unsigned char *buf;
    size_t len, cap;
} obuf;

static bool ob_reserve(obuf *o, size_t extra)
{
    if (o->cap - o->len >= extra)
        return true;
    size_t cap = o->cap ? o->cap : 4096;
    while (cap - o->len < extra) {
        if (cap > SIZE_MAX / 2)
            return false;
        cap *= 2;
    }
    unsigned char *nb = realloc(o->buf, cap);
    if (!nb)
        return false;
    o->buf = nb;
    o->cap = cap;
    return true;
}

static bool ob_put(obuf *o, const void *p, size_t n)
{
    if (!n)
        return true;
    if (!ob_reserve(o, n))
        return false;
    memcpy(o->buf + o->len, p, n);
    o->len += n;
    return true;
}

static bool ob_varint(obuf *o, uint64_t v)
{
    unsigned char tmp[10];
    return ob_put(o, tmp, oc_varint_put(tmp, v));
}

typedef struct {
    const unsigned char *base;
    size_t size;
    size_t threshold;
    oc_wire_out *out;
    size_t cap_elided;
    const char *label;
    oc_error *err;
    bool changed;
} wctx;

/* Messages rebuilt on the way to TensorProto.raw_data; every other message
 * is checked but copied verbatim. */
static bool on_path(const ProtobufCMessageDescriptor *d)
{
    return d == &onnx__model_proto__descriptor || d == &onnx__graph_proto__descriptor ||
           d == &onnx__node_proto__descriptor ||
           d == &onnx__attribute_proto__descriptor ||
           d == &onnx__tensor_proto__descriptor;
}

/* Descriptor of message field `field` of d, or NULL if it is no message. */
static const ProtobufCMessageDescriptor *
child_desc(const ProtobufCMessageDescriptor *d, uint64_t field)
{
    if (!d || field > UINT32_MAX)
        return NULL;
    const ProtobufCFieldDescriptor *f =
        protobuf_c_message_descriptor_get_field(d, (unsigned)field);
    if (!f || f->type != PROTOBUF_C_TYPE_MESSAGE)
        return NULL;
    return f->descriptor;
}

static oc_status corrupt(wctx *w, size_t at, const char *what)
{
    return oc_error_set(w->err, OC_ERR_INPUT, NULL,
                        "%s: not a valid ONNX model: %s at byte %zu of %zu "
                        "(truncated or corrupt file)",
                        w->label, what, at, w->size);
}

static oc_status add_elided(wctx *w, size_t off, size_t len, uint64_t *index)
{
    oc_wire_out *o = w->out;
    if (o->n_elided == w->cap_elided) {
        size_t cap = w->cap_elided ? w->cap_elided * 2 : 64;
        oc_elided *ne = realloc(o->elided, cap * sizeof *ne);
        if (!ne)
            return oc_error_set(w->err, OC_ERR_NOMEM, NULL, "%s: out of memory",
                                w->label);
        o->elided = ne;
        w->cap_elided = cap;
    }
    o->elided[o->n_elided] = (oc_elided){off, len, false};
    *index = o->n_elided++;
    return OC_OK;
}

/* Check message [pos, end) of type d, and copy it into o when o != NULL.
 * `path` is false below a message that is not on the way to tensors: such
 * a message is only checked. */
static oc_status walk(wctx *w, const ProtobufCMessageDescriptor *d, size_t pos,
                      size_t end, obuf *o, int depth, bool path)
{
    if (depth > OC_WIRE_MAX_DEPTH)
        return oc_error_set(w->err, OC_ERR_INPUT, NULL,
                            "%s: messages nested more than %d deep (graphs within "
                            "graphs, or types within types)",
                            w->label, OC_WIRE_MAX_DEPTH);
    bool is_tensor = path && d == &onnx__tensor_proto__descriptor;
    const unsigned char *p = w->base;
    while (pos < end) {
        size_t start = pos;
        uint64_t key;
        size_t n = oc_varint_get(p + pos, end - pos, &key);
        if (!n)
            return corrupt(w, pos, "bad field key");
        pos += n;
        uint64_t field = key >> 3;
        unsigned wt = key & 7;
        if (field == 0)
            return corrupt(w, start, "field number 0");
        switch (wt) {
        case WT_VARINT: {
            uint64_t v;
            n = oc_varint_get(p + pos, end - pos, &v);
            if (!n)
                return corrupt(w, pos, "bad varint");
            pos += n;
            break;
        }
        case WT_I64:
            if (end - pos < 8)
                return corrupt(w, pos, "8-byte field runs past the end");
            pos += 8;
            break;
        case WT_I32:
            if (end - pos < 4)
                return corrupt(w, pos, "4-byte field runs past the end");
            pos += 4;
            break;
        case WT_LEN: {
            uint64_t len;
            n = oc_varint_get(p + pos, end - pos, &len);
            if (!n)
                return corrupt(w, pos, "bad length");
            pos += n;
            if (len > end - pos)
                return corrupt(w, start, "field runs past the end");
            const ProtobufCMessageDescriptor *cd = child_desc(d, field);
            bool elide = is_tensor && field == 9 && len > w->threshold;
            if (elide) {
                uint64_t idx = 0;
                oc_status st = add_elided(w, pos, (size_t)len, &idx);
                if (st)
                    return st;
                w->changed = true;
                if (o) {
                    unsigned char ph[OC_WIRE_PLACEHOLDER];
                    memcpy(ph, &w->out->nonce, 8);
                    memcpy(ph + 8, &idx, 8);
                    if (!ob_varint(o, key) || !ob_varint(o, sizeof ph) ||
                        !ob_put(o, ph, sizeof ph))
                        return oc_error_set(w->err, OC_ERR_NOMEM, NULL,
                                            "%s: out of memory", w->label);
                }
            } else if (cd) {
                bool cpath = path && on_path(cd);
                if (o && cpath) {
                    obuf sub = {0};
                    oc_status st = walk(w, cd, pos, pos + len, &sub, depth + 1, true);
                    if (st) {
                        free(sub.buf);
                        return st;
                    }
                    bool ok = ob_varint(o, key) && ob_varint(o, sub.len) &&
                              ob_put(o, sub.buf, sub.len);
                    free(sub.buf);
                    if (!ok)
                        return oc_error_set(w->err, OC_ERR_NOMEM, NULL,
                                            "%s: out of memory", w->label);
                    pos += len;
                    continue;
                }
                if (!o) {
                    oc_status st = walk(w, cd, pos, pos + len, NULL, depth + 1, cpath);
                    if (st)
                        return st;
                }
                pos += len;
                break; /* copied verbatim below */
            }
            pos += len;
            if (elide)
                continue; /* placeholder already written */
            break;
        }
        default:
            return corrupt(w, start, "unsupported wire type");
        }
        if (o && !ob_put(o, p + start, pos - start))
            return oc_error_set(w->err, OC_ERR_NOMEM, NULL, "%s: out of memory",
                                w->label);
    }
    return OC_OK;
}

oc_status oc_wire_elide(const unsigned char *src, size_t size, size_t threshold,
                        oc_wire_out *out, const char *label, oc_error *err)
{
    memset(out, 0, sizeof *out);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    out->nonce = ((uint64_t)ts.tv_nsec << 32) ^ (uint64_t)ts.tv_sec ^
                 (uint64_t)(uintptr_t)src ^ 0x6f6e6e78636f7374ull;
    wctx w = {src, size, threshold, out, 0, label, err, false};
    /* First a check-only pass, so that the copy is made only when there is
     * something to leave out. */
    oc_status st = walk(&w, &onnx__model_proto__descriptor, 0, size, NULL, 0, true);
    if (st) {
        oc_wire_out_free(out);
        return st;
    }
    if (!w.changed)
        return OC_OK;
    out->n_elided = 0;
    obuf o = {0};
    st = walk(&w, &onnx__model_proto__descriptor, 0, size, &o, 0, true);
    if (st) {
        free(o.buf);
        oc_wire_out_free(out);
        return st;
    }
    out->buf = o.buf;
    out->size = o.len;
    return OC_OK;
}

void oc_wire_out_free(oc_wire_out *w)
{
    free(w->buf);
    free(w->elided);
    memset(w, 0, sizeof *w);
}

long oc_wire_placeholder_index(const oc_wire_out *w, const void *p, size_t len)
{
    if (len != OC_WIRE_PLACEHOLDER || !w->n_elided)
        return -1;
    uint64_t nonce, idx;
    memcpy(&nonce, p, 8);
    memcpy(&idx, (const unsigned char *)p + 8, 8);
    if (nonce != w->nonce || idx >= w->n_elided)
        return -1;
    return (long)idx;
}
