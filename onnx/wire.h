/* wire.h - protobuf wire-level pass over a ModelProto (internal). */
#ifndef OC_WIRE_H
#define OC_WIRE_H

#include "onnx/common.h"

/* A raw_data payload left out of the buffer handed to protobuf-c. */
typedef struct oc_elided {
    size_t offset, len; /* in the source buffer */
    bool used;
} oc_elided;

typedef struct oc_wire_out {
    unsigned char *buf; /* malloc'd rewritten message, or NULL if unchanged */
    size_t size;
    oc_elided *elided; /* malloc'd */
    size_t n_elided;
    uint64_t nonce;    /* marks the placeholders written in place of data */
} oc_wire_out;

enum { OC_WIRE_PLACEHOLDER = 16, OC_WIRE_MAX_DEPTH = 1024 };

/*
 * Walk src as a ModelProto, checking the framing of every message on the
 * path to tensors (model, graphs, nodes, attributes, tensors), and copy it
 * with each TensorProto.raw_data larger than `threshold` replaced by a
 * 16-byte placeholder (nonce, index).  Reports truncation and nesting past
 * OC_WIRE_MAX_DEPTH graphs as OC_ERR_INPUT with the byte offset.
 */
oc_status oc_wire_elide(const unsigned char *src, size_t size, size_t threshold,
                        oc_wire_out *out, const char *label, oc_error *err);
void oc_wire_out_free(oc_wire_out *w);

/* Index of the elided payload that placeholder bytes p (len bytes) refer
 * to, or -1 when p is not a placeholder of this pass. */
long oc_wire_placeholder_index(const oc_wire_out *w, const void *p, size_t len);

/* Encode/decode a varint; return bytes used (0 on error for decode). */
size_t oc_varint_put(unsigned char *p, uint64_t v);
size_t oc_varint_get(const unsigned char *p, size_t avail, uint64_t *v);

#endif
