/*
 * optable.c - the operator table generated from analyzer/ops.def: the
 * descriptors indexed by id, and the (domain, name) -> id lookup.
 */
#include <string.h>

#include "analyzer/op.h"

static const oc_op_desc op_table[OC_OPID_COUNT] = {
#define OC_OP(name, domain, since, infer, cost, fam, traits)                  \
    [OC_OPID_##name] = {#name, domain, since, infer, cost,                    \
                        OC_OPID_##name, OC_OPF_##fam, traits},
#define OC_OP_NOCOST(name, domain, since, infer, fam, traits)                 \
    [OC_OPID_##name] = {#name, domain, since, infer, NULL,                    \
                        OC_OPID_##name, OC_OPF_##fam, traits},
#define OC_OP_AS(id, name, domain, since, infer, cost, fam, traits)          \
    [OC_OPID_##id] = {#name, domain, since, infer, cost,                      \
                      OC_OPID_##id, OC_OPF_##fam, traits},
#define OC_OP_AS_NOCOST(id, name, domain, since, infer, fam, traits)         \
    [OC_OPID_##id] = {#name, domain, since, infer, NULL,                      \
                      OC_OPID_##id, OC_OPF_##fam, traits},
#include "analyzer/ops.def"
#undef OC_OP
#undef OC_OP_NOCOST
#undef OC_OP_AS
#undef OC_OP_AS_NOCOST
};

static const char *const family_names[OC_OPF_COUNT] = {
#define XX(id, name) [OC_OPF_##id] = name,
    OC_OP_FAMILY_LIST(XX)
#undef XX
};

enum { OP_HASH = 1024 };
_Static_assert(OC_OPID_COUNT < OP_HASH / 2, "grow OP_HASH");
static short op_hash[OP_HASH]; /* id, 0 = empty */
static bool op_hash_ready;

static unsigned op_key(const char *domain, const char *op)
{
    unsigned h = 2166136261u;
    for (const char *p = domain; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    h = (h ^ '/') * 16777619u;
    for (const char *p = op; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    return h & (OP_HASH - 1);
}

static void op_hash_build(void)
{
    for (int i = 1; i < OC_OPID_COUNT; i++) {
        unsigned k = op_key(op_table[i].domain, op_table[i].name);
        while (op_hash[k])
            k = (k + 1) & (OP_HASH - 1);
        op_hash[k] = (short)i;
    }
    op_hash_ready = true;
}

const oc_op_desc *oc_op_lookup(const char *domain, const char *op)
{
    if (!op)
        return NULL;
    if (!op_hash_ready)
        op_hash_build();
    if (!domain || strcmp(domain, "ai.onnx") == 0)
        domain = "";
    for (unsigned k = op_key(domain, op); op_hash[k]; k = (k + 1) & (OP_HASH - 1)) {
        const oc_op_desc *d = &op_table[op_hash[k]];
        if (strcmp(d->name, op) == 0 && strcmp(d->domain, domain) == 0)
            return d;
    }
    return NULL;
}

const oc_op_desc *oc_op_desc_of(oc_op_id id)
{
    return id > OC_OPID_UNKNOWN && id < OC_OPID_COUNT ? &op_table[id] : NULL;
}

oc_op_id oc_op_id_of(const char *domain, const char *op)
{
    const oc_op_desc *d = oc_op_lookup(domain, op);
    return d ? d->id : OC_OPID_UNKNOWN;
}

const char *oc_op_id_name(oc_op_id id)
{
    const oc_op_desc *d = oc_op_desc_of(id);
    return d ? d->name : "?";
}

const char *oc_op_id_domain(oc_op_id id)
{
    const oc_op_desc *d = oc_op_desc_of(id);
    return d ? d->domain : "";
}

int oc_op_id_since(oc_op_id id)
{
    const oc_op_desc *d = oc_op_desc_of(id);
    return d ? d->since : 0;
}

oc_op_family oc_op_id_family(oc_op_id id)
{
    const oc_op_desc *d = oc_op_desc_of(id);
    return d ? d->family : OC_OPF_OTHER;
}

unsigned oc_op_id_traits(oc_op_id id)
{
    const oc_op_desc *d = oc_op_desc_of(id);
    return d ? d->traits : 0;
}

const char *oc_op_family_name(oc_op_family f)
{
    return (f >= 0 && f < OC_OPF_COUNT) ? family_names[f] : "other";
}
