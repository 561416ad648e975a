/*
 * tensormisc.c - string and decoding operators with data-dependent sizes:
 * StringNormalizer (10), StringSplit (20), ImageDecoder (20).
 *
 * Costs: not counted (string work has no FLOPs; decoding is not modelled).
 */
#include <string.h>

#include "analyzer/op.h"

oc_status oc_stringnormalizer_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    size_t nstop = 0;
    const oc_attr *stop = oc_ctx_attr(c, "stopwords");
    if (stop && stop->type == OC_ATTR_STRINGS)
        nstop = stop->n;
    if (!x || x->rank < 0)
        return oc_out_set(c, 0, OC_DT_STRING, -1, NULL);
    if (x->rank != 1 && !(x->rank == 2 && oc_dim_eq(x->dims[0],
                                                    oc_dim_of(1)) != 0))
        return oc_fail(c, "StringNormalizer: input must be [C] or [1, C], "
                          "has rank %d", x->rank);
    /* Stop words remove a data-dependent number of elements. */
    oc_dim out[2] = {oc_dim_of(1), nstop ? OC_DIM_UNKNOWN
                                         : x->dims[x->rank - 1]};
    if (x->rank == 1)
        return oc_out_set(c, 0, OC_DT_STRING, 1, &out[1]);
    return oc_out_set(c, 0, OC_DT_STRING, 2, out);
}

oc_status oc_stringsplit_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    if (!x || x->rank < 0 || x->rank + 1 > OC_MAX_RANK) {
        oc_status s = oc_out_set(c, 0, OC_DT_STRING, -1, NULL);
        return s ? s : oc_out_set(c, 1, OC_DT_INT64, -1, NULL);
    }
    if (oc_attr_int(c, "maxsplit", 0) < 0)
        return oc_fail(c, "StringSplit: maxsplit %lld",
                       (long long)oc_attr_int(c, "maxsplit", 0));
    /* Y gets one trailing dim: the most substrings of any element. */
    oc_dim out[OC_MAX_RANK];
    for (int i = 0; i < x->rank; i++)
        out[i] = x->dims[i];
    out[x->rank] = OC_DIM_UNKNOWN;
    oc_status s = oc_out_set(c, 0, OC_DT_STRING, x->rank + 1, out);
    if (s != OC_OK)
        return s;
    return oc_out_set(c, 1, OC_DT_INT64, x->rank, x->dims);
}

oc_status oc_imagedecoder_infer(oc_op_ctx *c)
{
    const oc_tinfo *x = oc_ctx_in(c, 0);
    const char *fmt = oc_attr_str(c, "pixel_format", "RGB");
    if (x && x->rank >= 0 && x->rank != 1)
        return oc_fail(c, "ImageDecoder: encoded stream has rank %d, not 1",
                       x->rank);
    int64_t ch;
    if (strcmp(fmt, "RGB") == 0 || strcmp(fmt, "BGR") == 0)
        ch = 3;
    else if (strcmp(fmt, "Grayscale") == 0)
        ch = 1;
    else
        return oc_fail(c, "ImageDecoder: unknown pixel_format '%s'", fmt);
    oc_dim out[3] = {OC_DIM_UNKNOWN, OC_DIM_UNKNOWN, oc_dim_of(ch)};
    return oc_out_set(c, 0, OC_DT_UINT8, 3, out);
}
