/* test_plan.c - the ort-cpu fusion plan on real exported graphs. */
#include "harness.h"
#include "predictor/plan.h"

#include <string.h>

typedef struct counts {
    size_t run, folded, removed, as_layernorm, as_gelu, conv_with_act, conv_with_add;
    size_t swish, sigmoid_alone; /* Sigmoid kernels with and without a fused Mul */
    size_t inserted;             /* kernels with no node of their own */
} counts;

static counts plan_counts(const char *path, int64_t batch, const char *seq_input)
{
    counts c = {0};
    oc_model *m;
    oc_analysis *a;
    oc_error e;
    if (oc_model_load_file(path, &m, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        t_failed++;
        return c;
    }
    oc_input_override ov = {.name = seq_input, .rank = 2, .dims = {batch, 128}};
    oc_analyze_opts o = {.batch = batch, .overrides = &ov, .n_overrides = seq_input ? 1 : 0};
    if (oc_analyze(m, &o, &a, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        t_failed++;
        oc_model_free(m);
        return c;
    }
    oc_arena *ar = oc_arena_new();
    oc_plan p;
    oc_plan_opts po = {.target = "ort-cpu", .nchwc_block = 0};
    CHECK_EQ_INT(oc_plan_build(a, &po, &p, ar, &e), OC_OK);
    const oc_graph *g = oc_model_graph(m);
    size_t covered = 0;
    for (size_t k = 0; k < p.n_kernels; k++) {
        const oc_kernel *kn = &p.kernels[k];
        if (kn->main == OC_PLAN_INSERTED) {
            c.inserted++;
            continue;
        }
        covered += 1 + kn->n_fused;
        c.run += kn->kind == OC_KERNEL_RUN;
        c.folded += kn->kind == OC_KERNEL_FOLDED;
        c.removed += kn->kind == OC_KERNEL_REMOVED;
        if (kn->as_op && !strcmp(kn->as_op, "LayerNormalization"))
            c.as_layernorm++;
        if (kn->as_op && !strcmp(kn->as_op, "Gelu"))
            c.as_gelu++;
        if (!strcmp(g->nodes[kn->main].op, "Sigmoid") && kn->kind == OC_KERNEL_RUN) {
            bool mul = kn->n_fused == 1 && !strcmp(g->nodes[kn->fused[0]].op, "Mul");
            c.swish += mul;
            c.sigmoid_alone += kn->n_fused == 0;
        }
        if (!strcmp(g->nodes[kn->main].op, "Conv")) {
            for (size_t f = 0; f < kn->n_fused; f++) {
                const char *op = g->nodes[kn->fused[f]].op;
                c.conv_with_act += !strcmp(op, "Relu") || !strcmp(op, "Clip");
                c.conv_with_add += !strcmp(op, "Add");
            }
        }
    }
    CHECK_EQ_INT(covered, g->n_nodes); /* every node in exactly one kernel */
    for (size_t i = 0; i < g->n_nodes; i++)
        CHECK(p.kernel_of[i] < p.n_kernels);
    oc_arena_free(ar);
    oc_analysis_free(a);
    oc_model_free(m);
    return c;
}

int main(void)
{
    /* resnet50: 53 convs, 49 followed by Relu (the rest feed the residual
     * Add), 16 residual Adds each followed by Relu. */
    counts r = plan_counts(OC_TESTS_DIR "/reference/models/resnet50.onnx", 1, NULL);
    CHECK_EQ_INT(r.conv_with_add, 16);
    CHECK(r.conv_with_act >= 49);
    CHECK(r.run < 80);
    /* mobilenet_v2: Clip (ReLU6) fused into its convs */
    counts mb = plan_counts(OC_SAMPLES "/mobilenet_v2.onnx", 1, NULL);
    CHECK_EQ_INT(mb.conv_with_act, 35);
    /* efficientnet_b0: ONNX Runtime's profile shows 49 QuickGelu kernels
     * (x * Sigmoid(x)) and 16 Muls (the squeeze-excitation scale, whose
     * Sigmoid runs inside the Conv before it) */
    counts ef = plan_counts(OC_TESTS_DIR "/reference/models/efficientnet_b0.onnx", 1, NULL);
    CHECK_EQ_INT(ef.swish, 49);
    CHECK_EQ_INT(ef.sigmoid_alone, 0);
    /* bert_base: 25 LayerNorms (embeddings + 2 per layer), 12 Gelus */
    counts b = plan_counts(OC_TESTS_DIR "/reference/models/bert_base.onnx", 1, "input_ids");
    CHECK_EQ_INT(b.as_layernorm, 25);
    CHECK_EQ_INT(b.as_gelu, 12);
    CHECK(b.folded > 0);
    return t_report("test_plan");
}
