/*
 * optable.h - operator ids, families and kernel traits, generated from the
 * one list of operators (analyzer/ops.def):
 *
 *     oc_op_id id = oc_op_id_of(node->domain, node->op);
 *     if (id == OC_OPID_Conv) ...
 *     oc_op_family f = oc_op_id_family(id);
 *
 * Ids are dense, from 1 to OC_OPID_COUNT - 1, in list order;
 * OC_OPID_UNKNOWN (0) is any operator the list does not have (the node's
 * own op string still names it in messages).  The analysis stores each
 * main-graph node's id (oc_node_cost.op), so that the predictor switches
 * on ids instead of comparing strings.
 */
#ifndef OC_OPTABLE_H
#define OC_OPTABLE_H

#include <stdbool.h>

/* Operator families: the predictor's one-hot columns and the grouping of
 * eval.  Each row of ops.def names its family (ONNX Runtime's own operators
 * that of the ONNX operators they fuse). */
#define OC_OP_FAMILY_LIST(XX)                                                    \
    XX(CONV, "conv")                       /* Conv, ConvInteger, QLinearConv */ \
    XX(CONV_TRANSPOSE, "conv_transpose")                                      \
    XX(GEMM, "gemm")                                                          \
    XX(MATMUL, "matmul")                   /* MatMul, *MatMul*, Einsum */     \
    XX(POOL, "pool")                       /* Max/Average/LpPool, RoiAlign */ \
    XX(GLOBAL_POOL, "global_pool")                                            \
    XX(NORM, "norm")                       /* Batch/Instance/Layer/Group, LRN */ \
    XX(SOFTMAX, "softmax")                 /* Softmax, LogSoftmax, Hardmax */ \
    XX(ELEMENTWISE, "elementwise")         /* arithmetic, logic, math, Cast */ \
    XX(ACTIVATION, "activation")           /* Relu, Sigmoid, Gelu, Clip, ... */ \
    XX(REDUCE, "reduce")                   /* Reduce*, ArgMax, ArgMin */      \
    XX(DATA_MOVEMENT, "data_movement")     /* Transpose, Concat, Gather, ... */ \
    XX(OTHER, "other")

typedef enum oc_op_family {
#define XX(id, name) OC_OPF_##id,
    OC_OP_FAMILY_LIST(XX)
#undef XX
    OC_OPF_COUNT
} oc_op_family;

/* Kernel traits of an elementwise or activation operator, as OC_EW_* bits
 * (0 for other operators and plain unary ops such as Neg, Abs or Floor):
 * what its per-element work involves, which sets its cost more than its
 * FLOP count does (an Erf costs about three Relus).  Traits, not one
 * column per operator, so that an operator seldom or never measured
 * shares what is known of the ones alike (Softplus: exp; Mish: exp and
 * gated).  Gelu's depend on its attribute (oc_ew_traits in
 * predictor/features.h): its row says 0. */
enum {
    OC_EW_BINARY = 1 << 0,
    OC_EW_SELECT = 1 << 1,
    OC_EW_DIVIDE = 1 << 2,
    OC_EW_EXP = 1 << 3,
    OC_EW_ERF = 1 << 4,
    OC_EW_GATED = 1 << 5,
};

typedef enum oc_op_id {
    OC_OPID_UNKNOWN = 0,
#define OC_OP(name, domain, since, infer, cost, fam, traits) OC_OPID_##name,
#define OC_OP_NOCOST(name, domain, since, infer, fam, traits) OC_OPID_##name,
#define OC_OP_AS(id, name, domain, since, infer, cost, fam, traits) OC_OPID_##id,
#define OC_OP_AS_NOCOST(id, name, domain, since, infer, fam, traits) OC_OPID_##id,
#include "analyzer/ops.def"
#undef OC_OP
#undef OC_OP_NOCOST
#undef OC_OP_AS
#undef OC_OP_AS_NOCOST
    OC_OPID_COUNT
} oc_op_id;

/* The id of (domain, op); the default domain is "", "ai.onnx" or NULL.
 * OC_OPID_UNKNOWN when the list does not have it (or op is NULL). */
oc_op_id oc_op_id_of(const char *domain, const char *op);
/* Name ("Conv") and domain ("") of an id; "?" and "" for UNKNOWN or an
 * id out of range. */
const char *oc_op_id_name(oc_op_id id);
const char *oc_op_id_domain(oc_op_id id);
/* First opset of the operator; 0 for UNKNOWN. */
int oc_op_id_since(oc_op_id id);
/* Family (OTHER for UNKNOWN) and OC_EW_* traits (0 for UNKNOWN). */
oc_op_family oc_op_id_family(oc_op_id id);
unsigned oc_op_id_traits(oc_op_id id);
/* "conv"; "other" for a value out of range. */
const char *oc_op_family_name(oc_op_family f);

#endif
