/*
 * targets.h - the targets onnxcost knows (predictor/targets.def), by id:
 * every question about a target (which plan rules, which mode, which
 * timing driver) is a field of its row, never a comparison of its name.
 *
 *     oc_target_id id = oc_target_lookup(info->target);
 *     const oc_target_entry *t = oc_target_entry_of(id);   // NULL: unknown
 *     if (t && t->plan == OC_PLAN_RULES_ORT) ...
 */
#ifndef OC_PREDICTOR_TARGETS_H
#define OC_PREDICTOR_TARGETS_H

#include <stdbool.h>

typedef enum oc_target_id {
    OC_TARGET_UNKNOWN = -1, /* a name no row has (a user's own data) */
#define OC_TARGET(id, ...) OC_TARGET_##id,
#include "predictor/targets.def"
#undef OC_TARGET
    OC_TARGET_COUNT
} oc_target_id;

/* The rules the plan (plan.h) replays for a target's runtime. */
typedef enum oc_plan_rules {
    OC_PLAN_RULES_PLAIN, /* one kernel per node; Identity and Shape free */
    OC_PLAN_RULES_ORT,   /* ONNX Runtime's graph optimizer (fusions, layouts) */
    OC_PLAN_RULES_EAGER  /* an eager framework: views and no-ops removed */
} oc_plan_rules;

typedef enum oc_target_mode { OC_TARGET_INFERENCE, OC_TARGET_TRAINING } oc_target_mode;

typedef struct oc_target_entry {
    oc_target_id id;
    const char *name;    /* "ort-cpu" */
    const char *runtime; /* "onnxruntime-node" */
    oc_plan_rules plan;
    oc_target_mode mode;
    const char *driver;      /* "collector/ort_bench.js", under the source tree */
    const char *interp_env;  /* "ONNXCOST_NODE": the driver's interpreter, */
    const char *interp;      /* else this one */
    const char *version_key; /* "ort_version": the driver's runtime version */
} oc_target_entry;

/* The row of a name, OC_TARGET_UNKNOWN for none (NULL accepted). */
oc_target_id oc_target_lookup(const char *name);
/* The row of an id; NULL for OC_TARGET_UNKNOWN or out of range. */
const oc_target_entry *oc_target_entry_of(oc_target_id id);
/* The built-in target of a mode: the first row of that mode. */
const oc_target_entry *oc_target_of_mode(oc_target_mode mode);
/* The plan rules of a target name: PLAIN for a name no row has. */
oc_plan_rules oc_target_plan_rules(const char *name);
/* "ort-cpu, torch-cpu": every row's name, for messages. */
const char *oc_target_names(void);

#endif
