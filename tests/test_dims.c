/* test_dims.c - symbolic dimension arithmetic. */
#include "analyzer/analyzer-impl.h"
#include "harness.h"

static const char *str(oc_dim d)
{
    static char buf[8][64];
    static int k;
    k = (k + 1) % 8;
    return oc_dim_str(d, buf[k], sizeof buf[k]);
}

int main(void)
{
    oc_arena *a = oc_arena_new();
    oc_dim N = {1, "N"}, L = {1, "L"}, u = OC_DIM_UNKNOWN;
    oc_dim c8 = oc_dim_of(8), c768 = oc_dim_of(768);

    CHECK_EQ_STR(str(oc__dim_mul(a, N, c8)), "8*N");
    CHECK_EQ_STR(str(oc__dim_mul(a, N, L)), "L*N");
    CHECK_EQ_STR(str(oc__dim_mul(a, L, N)), "L*N"); /* canonical order */
    CHECK_EQ_STR(str(oc__dim_mul(a, N, oc_dim_of(0))), "0");
    CHECK(oc_dim_is_unknown(oc__dim_mul(a, N, u)));
    CHECK(oc_dim_is_unknown(oc__dim_mul(a, oc_dim_of(INT64_MAX), c8)));

    /* Reshape's -1: (N*L*768) / 768 = N*L, / L = N */
    oc_dim total = oc__dim_mul(a, oc__dim_mul(a, N, L), c768);
    CHECK_EQ_STR(str(total), "768*L*N");
    CHECK_EQ_STR(str(oc__dim_div(a, total, c768, false)), "L*N");
    CHECK_EQ_STR(str(oc__dim_div(a, oc__dim_div(a, total, c768, false), L, false)),
                 "N");
    CHECK_EQ_STR(str(oc__dim_div(a, total, oc__dim_mul(a, N, c768), false)), "L");
    CHECK_EQ_INT(oc__dim_div(a, oc_dim_of(7), oc_dim_of(2), false).v, 3);
    CHECK_EQ_INT(oc__dim_div(a, oc_dim_of(7), oc_dim_of(2), true).v, 4);
    CHECK(oc_dim_is_unknown(oc__dim_div(a, c8, oc_dim_of(0), false)));
    CHECK_EQ_STR(str(oc__dim_div(a, N, oc_dim_of(2), false)), "(N/2)");

    CHECK_EQ_STR(str(oc__dim_add(a, N, N, 1)), "2*N");
    CHECK_EQ_STR(str(oc__dim_add(a, N, N, -1)), "0");
    CHECK_EQ_STR(str(oc__dim_add(a, N, oc_dim_of(1), 1)), "(1+N)");
    CHECK_EQ_STR(str(oc__dim_add(a, oc_dim_of(1), N, 1)), "(1+N)"); /* commutes */
    CHECK_EQ_STR(str(oc__dim_add(a, N, oc_dim_of(0), 1)), "N");
    CHECK_EQ_INT(oc__dim_add(a, c8, c768, 1).v, 776);

    CHECK_EQ_INT(oc_dim_eq(N, N), 1);
    CHECK_EQ_INT(oc_dim_eq(N, L), -1);
    CHECK_EQ_INT(oc_dim_eq(c8, c768), 0);
    CHECK_EQ_INT(oc_dim_eq(c8, oc_dim_of(8)), 1);
    CHECK_EQ_INT(oc_dim_eq(u, c8), -1);
    CHECK_EQ_STR(str(u), "?");
    CHECK_EQ_INT(oc_dim_cost(oc__dim_mul(a, N, c8)), 8);
    CHECK_EQ_INT(oc_dim_cost(u), -1);
    oc_arena_free(a);
    return t_report("test_dims");
}
