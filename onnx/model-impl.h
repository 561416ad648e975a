/* model-impl.h - the oc_model behind the opaque handle (onnx/ only). */
#ifndef OC_MODEL_IMPL_H
#define OC_MODEL_IMPL_H

#include "onnx.pb-c.h"
#include "onnx/model.h"
#include "onnx/wire.h"

struct oc_model {
    oc_arena *arena;          /* IR, strings, and the unpacked protobuf tree */
    Onnx__ModelProto *proto;
    const char *source;
    oc_compression compression;
    size_t file_size;
    /* The bytes the elided raw_data fields point into. */
    void *map;               /* mmap'd file, or NULL */
    size_t map_size;
    void *owned;             /* malloc'd buffer (gzip or copied), or NULL */
    oc_wire_out wire;

    oc_graph *graph;
    size_t n_opsets;
    oc_opset *opsets;
};

/* Build the IR of m->proto (ir.c). */
oc_status oc__model_build_ir(oc_model *m, oc_error *err);

#endif
