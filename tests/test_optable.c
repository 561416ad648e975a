/*
 * test_optable.c - the operator table of analyzer/ops.def: every row
 * resolvable name <-> id, ids dense, families and kernel traits as the
 * predictor's own tables said before they moved into the rows (those
 * tables are kept below as the expectation), unknown operators.
 */
#include <stdlib.h>

#include "analyzer/op.h"
#include "harness.h"
#include "onnx/build.h"
#include "predictor/features.h"

/* predictor/features.c's family table before issue 17 (deliverable 4). */
static const struct {
    const char *op;
    oc_op_family fam;
} old_families[] = {
    {"Conv", OC_OPF_CONV}, {"ConvInteger", OC_OPF_CONV}, {"QLinearConv", OC_OPF_CONV},
    {"DeformConv", OC_OPF_CONV},
    {"ConvTranspose", OC_OPF_CONV_TRANSPOSE},
    {"Gemm", OC_OPF_GEMM},
    {"MatMul", OC_OPF_MATMUL}, {"MatMulInteger", OC_OPF_MATMUL},
    {"QLinearMatMul", OC_OPF_MATMUL}, {"Einsum", OC_OPF_MATMUL},
    {"MaxPool", OC_OPF_POOL}, {"AveragePool", OC_OPF_POOL}, {"LpPool", OC_OPF_POOL},
    {"MaxUnpool", OC_OPF_POOL}, {"MaxRoiPool", OC_OPF_POOL}, {"RoiAlign", OC_OPF_POOL},
    {"GlobalAveragePool", OC_OPF_GLOBAL_POOL}, {"GlobalMaxPool", OC_OPF_GLOBAL_POOL},
    {"GlobalLpPool", OC_OPF_GLOBAL_POOL},
    {"BatchNormalization", OC_OPF_NORM}, {"InstanceNormalization", OC_OPF_NORM},
    {"LayerNormalization", OC_OPF_NORM}, {"GroupNormalization", OC_OPF_NORM},
    {"LRN", OC_OPF_NORM}, {"MeanVarianceNormalization", OC_OPF_NORM},
    {"LpNormalization", OC_OPF_NORM},
    {"Softmax", OC_OPF_SOFTMAX}, {"LogSoftmax", OC_OPF_SOFTMAX}, {"Hardmax", OC_OPF_SOFTMAX},
    /* activations */
    {"Relu", OC_OPF_ACTIVATION}, {"LeakyRelu", OC_OPF_ACTIVATION},
    {"PRelu", OC_OPF_ACTIVATION}, {"Elu", OC_OPF_ACTIVATION}, {"Celu", OC_OPF_ACTIVATION},
    {"Selu", OC_OPF_ACTIVATION}, {"Sigmoid", OC_OPF_ACTIVATION},
    {"HardSigmoid", OC_OPF_ACTIVATION}, {"HardSwish", OC_OPF_ACTIVATION},
    {"Softplus", OC_OPF_ACTIVATION}, {"Softsign", OC_OPF_ACTIVATION},
    {"ThresholdedRelu", OC_OPF_ACTIVATION}, {"Shrink", OC_OPF_ACTIVATION},
    {"Gelu", OC_OPF_ACTIVATION}, {"Mish", OC_OPF_ACTIVATION}, {"Clip", OC_OPF_ACTIVATION},
    {"Tanh", OC_OPF_ACTIVATION},
    /* elementwise arithmetic, logic and math */
    {"Add", OC_OPF_ELEMENTWISE}, {"Sub", OC_OPF_ELEMENTWISE}, {"Mul", OC_OPF_ELEMENTWISE},
    {"Div", OC_OPF_ELEMENTWISE}, {"Pow", OC_OPF_ELEMENTWISE}, {"Mod", OC_OPF_ELEMENTWISE},
    {"BitShift", OC_OPF_ELEMENTWISE}, {"And", OC_OPF_ELEMENTWISE},
    {"Or", OC_OPF_ELEMENTWISE}, {"Xor", OC_OPF_ELEMENTWISE},
    {"BitwiseAnd", OC_OPF_ELEMENTWISE}, {"BitwiseOr", OC_OPF_ELEMENTWISE},
    {"BitwiseXor", OC_OPF_ELEMENTWISE}, {"BitwiseNot", OC_OPF_ELEMENTWISE},
    {"Equal", OC_OPF_ELEMENTWISE}, {"Greater", OC_OPF_ELEMENTWISE},
    {"GreaterOrEqual", OC_OPF_ELEMENTWISE}, {"Less", OC_OPF_ELEMENTWISE},
    {"LessOrEqual", OC_OPF_ELEMENTWISE}, {"Sum", OC_OPF_ELEMENTWISE},
    {"Mean", OC_OPF_ELEMENTWISE}, {"Max", OC_OPF_ELEMENTWISE}, {"Min", OC_OPF_ELEMENTWISE},
    {"Where", OC_OPF_ELEMENTWISE}, {"Not", OC_OPF_ELEMENTWISE},
    {"Abs", OC_OPF_ELEMENTWISE}, {"Neg", OC_OPF_ELEMENTWISE}, {"Exp", OC_OPF_ELEMENTWISE},
    {"Log", OC_OPF_ELEMENTWISE}, {"Sqrt", OC_OPF_ELEMENTWISE},
    {"Reciprocal", OC_OPF_ELEMENTWISE}, {"Floor", OC_OPF_ELEMENTWISE},
    {"Ceil", OC_OPF_ELEMENTWISE}, {"Round", OC_OPF_ELEMENTWISE},
    {"Sign", OC_OPF_ELEMENTWISE}, {"Erf", OC_OPF_ELEMENTWISE}, {"Sin", OC_OPF_ELEMENTWISE},
    {"Cos", OC_OPF_ELEMENTWISE}, {"Tan", OC_OPF_ELEMENTWISE}, {"Asin", OC_OPF_ELEMENTWISE},
    {"Acos", OC_OPF_ELEMENTWISE}, {"Atan", OC_OPF_ELEMENTWISE},
    {"Sinh", OC_OPF_ELEMENTWISE}, {"Cosh", OC_OPF_ELEMENTWISE},
    {"Asinh", OC_OPF_ELEMENTWISE}, {"Acosh", OC_OPF_ELEMENTWISE},
    {"Atanh", OC_OPF_ELEMENTWISE}, {"IsInf", OC_OPF_ELEMENTWISE},
    {"IsNaN", OC_OPF_ELEMENTWISE}, {"Cast", OC_OPF_ELEMENTWISE},
    {"CastLike", OC_OPF_ELEMENTWISE},
    /* reductions */
    {"ReduceSum", OC_OPF_REDUCE}, {"ReduceMean", OC_OPF_REDUCE}, {"ReduceMax", OC_OPF_REDUCE},
    {"ReduceMin", OC_OPF_REDUCE}, {"ReduceProd", OC_OPF_REDUCE}, {"ReduceL1", OC_OPF_REDUCE},
    {"ReduceL2", OC_OPF_REDUCE}, {"ReduceLogSum", OC_OPF_REDUCE},
    {"ReduceLogSumExp", OC_OPF_REDUCE}, {"ReduceSumSquare", OC_OPF_REDUCE},
    {"ArgMax", OC_OPF_REDUCE}, {"ArgMin", OC_OPF_REDUCE},
    /* data movement */
    {"Transpose", OC_OPF_DATA_MOVEMENT}, {"Reshape", OC_OPF_DATA_MOVEMENT},
    {"Flatten", OC_OPF_DATA_MOVEMENT}, {"Squeeze", OC_OPF_DATA_MOVEMENT},
    {"Unsqueeze", OC_OPF_DATA_MOVEMENT}, {"Identity", OC_OPF_DATA_MOVEMENT},
    {"Expand", OC_OPF_DATA_MOVEMENT}, {"Tile", OC_OPF_DATA_MOVEMENT},
    {"Concat", OC_OPF_DATA_MOVEMENT}, {"Split", OC_OPF_DATA_MOVEMENT},
    {"Slice", OC_OPF_DATA_MOVEMENT}, {"Pad", OC_OPF_DATA_MOVEMENT},
    {"Gather", OC_OPF_DATA_MOVEMENT}, {"GatherElements", OC_OPF_DATA_MOVEMENT},
    {"GatherND", OC_OPF_DATA_MOVEMENT}, {"Scatter", OC_OPF_DATA_MOVEMENT},
    {"ScatterElements", OC_OPF_DATA_MOVEMENT}, {"ScatterND", OC_OPF_DATA_MOVEMENT},
    {"DepthToSpace", OC_OPF_DATA_MOVEMENT}, {"SpaceToDepth", OC_OPF_DATA_MOVEMENT},
    {"Resize", OC_OPF_DATA_MOVEMENT}, {"Upsample", OC_OPF_DATA_MOVEMENT},
    {"Compress", OC_OPF_DATA_MOVEMENT}, {"ReverseSequence", OC_OPF_DATA_MOVEMENT},
};

enum { BIN = OC_EW_BINARY, SEL = OC_EW_SELECT, DIV = OC_EW_DIVIDE, EXP = OC_EW_EXP,
       ERF = OC_EW_ERF, GATE = OC_EW_GATED };

/* predictor/features.c's elementwise trait table before issue 17, and the
 * reductions' traits added since. */
static const struct {
    const char *op;
    unsigned traits;
} old_traits[] = {
    {"Add", BIN}, {"Sub", BIN}, {"Mul", BIN}, {"Sum", BIN}, {"Mean", BIN},
    {"BitShift", BIN}, {"And", BIN}, {"Or", BIN}, {"Xor", BIN}, {"BitwiseAnd", BIN},
    {"BitwiseOr", BIN}, {"BitwiseXor", BIN},
    {"Div", BIN | DIV}, {"Mod", BIN | DIV}, {"Pow", BIN | EXP},
    {"Max", BIN | SEL}, {"Min", BIN | SEL}, {"Where", BIN | SEL}, {"Equal", BIN | SEL},
    {"Greater", BIN | SEL}, {"GreaterOrEqual", BIN | SEL}, {"Less", BIN | SEL},
    {"LessOrEqual", BIN | SEL}, {"PRelu", BIN | SEL},
    {"Relu", SEL}, {"LeakyRelu", SEL}, {"Clip", SEL}, {"ThresholdedRelu", SEL},
    {"Shrink", SEL}, {"HardSigmoid", SEL}, {"Abs", SEL}, {"Sign", SEL},
    {"HardSwish", SEL | GATE},
    {"Reciprocal", DIV}, {"Sqrt", DIV}, {"Softsign", DIV},
    {"Exp", EXP}, {"Log", EXP}, {"Softplus", EXP}, {"Tanh", EXP | DIV},
    {"Sigmoid", EXP | DIV}, {"Elu", EXP | SEL}, {"Selu", EXP | SEL}, {"Celu", EXP | SEL},
    {"Mish", EXP | GATE},
    {"Erf", ERF}, {"Sin", ERF}, {"Cos", ERF}, {"Tan", ERF}, {"Asin", ERF}, {"Acos", ERF},
    {"Atan", ERF}, {"Sinh", ERF | EXP}, {"Cosh", ERF | EXP}, {"Asinh", ERF | EXP},
    {"Acosh", ERF | EXP}, {"Atanh", ERF | EXP},
    /* what a reduction does per element (2026-12-05) */
    {"ReduceMax", SEL}, {"ReduceMin", SEL}, {"ArgMax", SEL}, {"ArgMin", SEL},
    {"ReduceLogSumExp", EXP},
};

static int old_family(const char *op)
{
    for (size_t i = 0; i < sizeof old_families / sizeof old_families[0]; i++)
        if (!strcmp(old_families[i].op, op))
            return (int)old_families[i].fam;
    return OC_OPF_OTHER;
}

static unsigned old_trait(const char *op)
{
    for (size_t i = 0; i < sizeof old_traits / sizeof old_traits[0]; i++)
        if (!strcmp(old_traits[i].op, op))
            return old_traits[i].traits;
    return 0;
}


/* The rows of analyzer/ops/contrib.def and the family each must have. */
static int runtime_op_family(oc_op_id id)
{
    static const struct {
        oc_op_id id;
        oc_op_family fam;
    } rows[] = {
        {OC_OPID_MS_FusedConv, OC_OPF_CONV},
        {OC_OPID_MS_FusedGemm, OC_OPF_GEMM},
        {OC_OPID_MS_FusedMatMul, OC_OPF_MATMUL},
        {OC_OPID_MS_Gelu, OC_OPF_ACTIVATION},
        {OC_OPID_MS_BiasGelu, OC_OPF_ACTIVATION},
        {OC_OPID_MS_FastGelu, OC_OPF_ACTIVATION},
        {OC_OPID_MS_QuickGelu, OC_OPF_ACTIVATION},
        {OC_OPID_MS_SkipLayerNormalization, OC_OPF_NORM},
        {OC_OPID_MS_SkipSimplifiedLayerNormalization, OC_OPF_NORM},
        {OC_OPID_SimplifiedLayerNormalization, OC_OPF_NORM},
        {OC_OPID_NCHWC_Conv, OC_OPF_CONV},
        {OC_OPID_NCHWC_MaxPool, OC_OPF_POOL},
        {OC_OPID_NCHWC_AveragePool, OC_OPF_POOL},
        {OC_OPID_NCHWC_GlobalAveragePool, OC_OPF_GLOBAL_POOL},
        {OC_OPID_NCHWC_GlobalMaxPool, OC_OPF_GLOBAL_POOL},
        {OC_OPID_NCHWC_Upsample, OC_OPF_DATA_MOVEMENT},
        {OC_OPID_NCHWC_ReorderInput, OC_OPF_DATA_MOVEMENT},
        {OC_OPID_NCHWC_ReorderOutput, OC_OPF_DATA_MOVEMENT},
        {OC_OPID_MS_Attention, OC_OPF_MATMUL},
        {OC_OPID_MS_MultiHeadAttention, OC_OPF_MATMUL},
        {OC_OPID_MS_GroupQueryAttention, OC_OPF_MATMUL},
        {OC_OPID_MS_RotaryEmbedding, OC_OPF_ELEMENTWISE},
        {OC_OPID_MS_MatMulNBits, OC_OPF_MATMUL},
        {OC_OPID_MS_QLinearAdd, OC_OPF_ELEMENTWISE},
        {OC_OPID_MS_QLinearMul, OC_OPF_ELEMENTWISE},
        {OC_OPID_MS_QLinearSigmoid, OC_OPF_ACTIVATION},
        {OC_OPID_MS_QLinearLeakyRelu, OC_OPF_ACTIVATION},
        {OC_OPID_MS_QLinearAveragePool, OC_OPF_POOL},
        {OC_OPID_MS_QLinearGlobalAveragePool, OC_OPF_GLOBAL_POOL},
        {OC_OPID_MS_QLinearConcat, OC_OPF_DATA_MOVEMENT},
        {OC_OPID_MS_QLinearConv, OC_OPF_CONV},
        {OC_OPID_MS_QGemm, OC_OPF_GEMM},
        {OC_OPID_MS_MatMulIntegerToFloat, OC_OPF_MATMUL},
        {OC_OPID_MS_DynamicQuantizeMatMul, OC_OPF_MATMUL},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].id == id)
            return (int)rows[i].fam;
    return -1;
}

static void rows(void)
{
    CHECK(oc_op_desc_of(OC_OPID_UNKNOWN) == NULL);
    CHECK(oc_op_desc_of(OC_OPID_COUNT) == NULL);
    CHECK(OC_OPID_COUNT > 150);
    for (int i = 1; i < OC_OPID_COUNT; i++) {
        const oc_op_desc *d = oc_op_desc_of((oc_op_id)i);
        if (!d || !d->name || !d->domain || !d->infer) {
            fprintf(stderr, "id %d: no row\n", i);
            t_failed++;
            continue;
        }
        /* dense and in order: the row of id i says i */
        CHECK_EQ_INT(d->id, i);
        CHECK(d->since >= 1);
        /* name <-> id, both ways */
        CHECK_EQ_INT(oc_op_id_of(d->domain, d->name), i);
        CHECK_EQ_STR(oc_op_id_name((oc_op_id)i), d->name);
        CHECK_EQ_STR(oc_op_id_domain((oc_op_id)i), d->domain);
        CHECK_EQ_INT(oc_op_id_since((oc_op_id)i), d->since);
        CHECK(oc_op_lookup(d->domain, d->name) == d);
        if (!d->domain[0]) {
            CHECK_EQ_INT(oc_op_id_of("ai.onnx", d->name), i);
            CHECK_EQ_INT(oc_op_id_of(NULL, d->name), i);
            CHECK_EQ_INT(oc_op_id_of("com.example", d->name), OC_OPID_UNKNOWN);
        }
        /* ONNX Runtime's own operators: their ONNX counterpart's family */
        int rt = runtime_op_family((oc_op_id)i);
        if (rt >= 0) {
            CHECK_EQ_INT(d->family, rt);
            CHECK_EQ_INT(oc_op_family_of(d->name, d->domain), rt);
            continue;
        }
        /* the family and traits the predictor's tables gave */
        int fam = d->domain[0] ? OC_OPF_OTHER : old_family(d->name);
        if ((int)d->family != fam)
            fprintf(stderr, "%s: family %s, was %s\n", d->name,
                    oc_op_family_name(d->family), oc_op_family_name((oc_op_family)fam));
        CHECK_EQ_INT(d->family, fam);
        CHECK_EQ_INT(oc_op_id_family((oc_op_id)i), fam);
        CHECK_EQ_INT(oc_op_family_of(d->name, d->domain), fam);
        unsigned tr = (fam == OC_OPF_ELEMENTWISE || fam == OC_OPF_ACTIVATION ||
                       fam == OC_OPF_REDUCE)
                          ? old_trait(d->name) : 0;
        if (d->traits != tr)
            fprintf(stderr, "%s: traits %#x, were %#x\n", d->name, d->traits, tr);
        CHECK_EQ_INT(d->traits, tr);
        CHECK_EQ_INT(oc_op_id_traits((oc_op_id)i), tr);
    }
    /* every operator the old tables named has a row */
    for (size_t i = 0; i < sizeof old_families / sizeof old_families[0]; i++)
        CHECK(oc_op_id_of("", old_families[i].op) != OC_OPID_UNKNOWN);
    for (size_t i = 0; i < sizeof old_traits / sizeof old_traits[0]; i++)
        CHECK(oc_op_id_of("", old_traits[i].op) != OC_OPID_UNKNOWN);
    /* a few by hand */
    CHECK_EQ_INT(oc_op_id_family(OC_OPID_Conv), OC_OPF_CONV);
    CHECK_EQ_INT(oc_op_id_family(OC_OPID_Gelu), OC_OPF_ACTIVATION);
    CHECK_EQ_INT(oc_op_id_traits(OC_OPID_Gelu), 0); /* by attribute */
    CHECK_EQ_INT(oc_op_id_traits(OC_OPID_Div), OC_EW_BINARY | OC_EW_DIVIDE);
    CHECK_EQ_INT(oc_op_id_family(OC_OPID_Adam), OC_OPF_OTHER);
    CHECK_EQ_STR(oc_op_id_domain(OC_OPID_Adam), "ai.onnx.preview.training");
    CHECK_EQ_STR(oc_op_family_name(OC_OPF_DATA_MOVEMENT), "data_movement");
    CHECK_EQ_STR(oc_op_family_name(OC_OPF_COUNT), "other");
}

static void unknown(void)
{
    CHECK_EQ_INT(oc_op_id_of("", "NoSuchOp"), OC_OPID_UNKNOWN);
    CHECK_EQ_INT(oc_op_id_of("", NULL), OC_OPID_UNKNOWN);
    CHECK_EQ_INT(oc_op_id_of("", "conv"), OC_OPID_UNKNOWN); /* case matters */
    CHECK_EQ_INT(oc_op_id_of("com.microsoft", "Conv"), OC_OPID_UNKNOWN);
    /* one op type in two domains: two ids */
    CHECK_EQ_INT(oc_op_id_of("com.microsoft.nchwc", "Conv"), OC_OPID_NCHWC_Conv);
    CHECK_EQ_INT(oc_op_id_of("com.microsoft", "Gelu"), OC_OPID_MS_Gelu);
    CHECK_EQ_INT(oc_op_id_of("", "Gelu"), OC_OPID_Gelu);
    CHECK_EQ_STR(oc_op_id_name(OC_OPID_NCHWC_Conv), "Conv");
    CHECK_EQ_STR(oc_op_id_domain(OC_OPID_NCHWC_Conv), "com.microsoft.nchwc");
    CHECK_EQ_INT(oc_op_id_of("", "Adam"), OC_OPID_UNKNOWN); /* other domain */
    CHECK_EQ_STR(oc_op_id_name(OC_OPID_UNKNOWN), "?");
    CHECK_EQ_STR(oc_op_id_name((oc_op_id)-3), "?");
    CHECK_EQ_INT(oc_op_id_family(OC_OPID_UNKNOWN), OC_OPF_OTHER);
    CHECK_EQ_INT(oc_op_id_traits(OC_OPID_UNKNOWN), 0);
    CHECK_EQ_INT(oc_op_family_of("NoSuchOp", ""), OC_OPF_OTHER);
    CHECK_EQ_INT(oc_op_family_of(NULL, ""), OC_OPF_OTHER);
    CHECK_EQ_INT(oc_op_family_of("Relu", "com.microsoft"), OC_OPF_OTHER);
}

/* The analysis stores each node's id; an unlisted operator is UNKNOWN and
 * still named, by its own string, in the warning. */
static void analysis_ids(void)
{
    oc_builder *b = oc_builder_new(13);
    int64_t x[] = {1, 4};
    oc_builder_input(b, "X", OC_DT_FLOAT, 2, x);
    oc_builder_node(b, "Relu", "r", "X", "R");
    oc_builder_node(b, "FrobnicateOp", "f", "R", "F");
    oc_builder_node(b, "Add", "a", "R,R", "Y");
    oc_builder_output(b, "Y", OC_DT_FLOAT, -1, NULL);
    oc_builder_output(b, "F", OC_DT_FLOAT, -1, NULL);
    void *buf = NULL;
    size_t size = 0;
    oc_error e;
    oc_model *m = NULL;
    oc_analysis *a = NULL;
    CHECK_EQ_INT(oc_builder_pack(b, &buf, &size, &e), OC_OK);
    oc_builder_free(b);
    if (!buf || oc_model_load_buffer(buf, size, "built", &m, &e) != OC_OK) {
        t_failed++;
        free(buf);
        return;
    }
    oc_analyze_opts o = {0};
    CHECK_EQ_INT(oc_analyze(m, &o, &a, &e), OC_OK);
    if (a) {
        CHECK_EQ_INT(oc_analysis_node_cost(a, 0)->op, OC_OPID_Relu);
        CHECK_EQ_INT(oc_analysis_node_cost(a, 1)->op, OC_OPID_UNKNOWN);
        CHECK_EQ_INT(oc_analysis_node_cost(a, 2)->op, OC_OPID_Add);
        CHECK(!oc_analysis_node_cost(a, 1)->supported);
        bool named = false;
        for (size_t i = 0; i < oc_analysis_n_warnings(a); i++)
            named |= strstr(oc_analysis_warning(a, i)->msg, "FrobnicateOp") != NULL;
        CHECK(named);
    }
    oc_analysis_free(a);
    oc_model_free(m);
    free(buf);
}

int main(void)
{
    rows();
    unknown();
    analysis_ids();
    return t_report("optable");
}
