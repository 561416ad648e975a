/* targets.c - the target table (targets.def) and its lookups. */
#include "predictor/targets.h"

#include <stddef.h>
#include <string.h>

static const oc_target_entry table[OC_TARGET_COUNT] = {
#define OC_TARGET(id_, name_, runtime_, plan_, mode_, driver_, env_, interp_, vkey_)          \
    [OC_TARGET_##id_] = {.id = OC_TARGET_##id_,                                              \
                         .name = name_,                                                      \
                         .runtime = runtime_,                                                \
                         .plan = OC_PLAN_RULES_##plan_,                                      \
                         .mode = OC_TARGET_##mode_,                                          \
                         .driver = driver_,                                                  \
                         .interp_env = env_,                                                 \
                         .interp = interp_,                                                  \
                         .version_key = vkey_},
#include "predictor/targets.def"
#undef OC_TARGET
};

static const char names[] = ""
#define OC_TARGET(id_, name_, ...) ", " name_
#include "predictor/targets.def"
#undef OC_TARGET
    ;

oc_target_id oc_target_lookup(const char *name)
{
    for (int i = 0; name && i < OC_TARGET_COUNT; i++)
        if (!strcmp(table[i].name, name))
            return (oc_target_id)i;
    return OC_TARGET_UNKNOWN;
}

const oc_target_entry *oc_target_entry_of(oc_target_id id)
{
    return id >= 0 && id < OC_TARGET_COUNT ? &table[id] : NULL;
}

const oc_target_entry *oc_target_of_mode(oc_target_mode mode)
{
    for (int i = 0; i < OC_TARGET_COUNT; i++)
        if (table[i].mode == mode)
            return &table[i];
    return NULL;
}

oc_plan_rules oc_target_plan_rules(const char *name)
{
    const oc_target_entry *t = oc_target_entry_of(oc_target_lookup(name));
    return t ? t->plan : OC_PLAN_RULES_PLAIN;
}

const char *oc_target_names(void) { return names + 2; }
