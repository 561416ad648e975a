/* analyzer-impl.h - internals shared by analyzer/core.c and dims.c. */
#ifndef OC_ANALYZER_IMPL_H
#define OC_ANALYZER_IMPL_H

#include "analyzer/op.h"

oc_dim oc__dim_mul(oc_arena *a, oc_dim x, oc_dim y);
oc_dim oc__dim_add(oc_arena *a, oc_dim x, oc_dim y, int sign);
oc_dim oc__dim_div(oc_arena *a, oc_dim x, oc_dim y, bool ceil);

#endif
