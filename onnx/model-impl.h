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
    const char *dir;          /* the model file's folder; NULL for a buffer or stdin */
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
    /* Domain -> index into opsets, built once (ir.c): open addressing,
     * slot = index + 1, 0 empty.  A domain imported twice maps to its last
     * import, as in ONNX Runtime. */
    size_t opset_cap;
    int *opset_slots;
    /* Tensors whose data is in external files, and the first one's
     * location (extdata.c). */
    size_t n_external;
    const char *first_external;
};

/* Check t's external data location (o is its IR, named; o->location is
 * set): relative, inside the model's folder, a regular file if there
 * (extdata.c).  OC_ERR_INPUT naming the tensor and the location. */
oc_status oc__check_external(oc_model *m, const Onnx__TensorProto *t, oc_tensor *o,
                             oc_error *err);

/* The opsets entry of `domain` ("" for ai.onnx), or NULL (ir.c). */
const oc_opset *oc__model_find_opset(const oc_model *m, const char *domain);

/* Build the IR of m->proto (ir.c). */
oc_status oc__model_build_ir(oc_model *m, oc_error *err);

#endif
