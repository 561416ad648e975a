/* test_common.c - arena, errors, dtypes, checked arithmetic. */
#include "harness.h"
#include "onnx/common.h"

#include <stdint.h>

int main(void)
{
    oc_arena *a = oc_arena_new();
    CHECK(a != NULL);
    char *s = oc_arena_strdup(a, "hello");
    CHECK_EQ_STR(s, "hello");
    CHECK_EQ_STR(oc_arena_printf(a, "%d-%s", 42, "x"), "42-x");
    void *big = oc_arena_alloc(a, 1 << 20); /* bigger than a block */
    CHECK(big != NULL && ((uintptr_t)big % 16) == 0);
    memset(big, 1, 1 << 20);
    CHECK(oc_arena_alloc(a, SIZE_MAX) == NULL);
    CHECK(oc_arena_calloc(a, SIZE_MAX / 2, 4) == NULL);
    for (int i = 0; i < 10000; i++)
        CHECK(oc_arena_alloc(a, 24) != NULL);
    CHECK(oc_arena_used(a) >= (1u << 20));
    oc_arena_free(a);
    oc_arena_free(NULL);

    oc_error e;
    oc_error_clear(&e);
    CHECK_EQ_INT(oc_error_set(&e, OC_ERR_INPUT, "n1", "bad %s\nline", "thing"),
                 OC_ERR_INPUT);
    CHECK_EQ_STR(e.msg, "bad thing line"); /* kept to one line */
    CHECK_EQ_STR(e.node, "n1");
    CHECK_EQ_INT(oc_error_set(NULL, OC_ERR_IO, NULL, "x"), OC_ERR_IO);
    CHECK_EQ_STR(oc_status_str(OC_OK), "ok");

    CHECK_EQ_STR(oc_dtype_name(OC_DT_FLOAT), "float32");
    CHECK_EQ_STR(oc_dtype_name(OC_DT_DOUBLE), "float64");
    CHECK_EQ_STR(oc_dtype_name((oc_dtype)999), "undefined");
    CHECK_EQ_INT(oc_dtype_size(OC_DT_INT64), 8);
    CHECK_EQ_INT(oc_dtype_size(OC_DT_BFLOAT16), 2);
    CHECK_EQ_INT(oc_dtype_size(OC_DT_STRING), 0);
    CHECK(!oc_dtype_valid(0) && !oc_dtype_valid(17) && oc_dtype_valid(16));

    uint64_t u;
    CHECK(oc_mul_u64(1ull << 31, 1ull << 32, &u) && u == 1ull << 63);
    CHECK(!oc_mul_u64(1ull << 32, 1ull << 32, &u));
    CHECK(!oc_add_u64(UINT64_MAX, 1, &u));
    int64_t i;
    CHECK(!oc_mul_i64(INT64_MAX, 2, &i));
    return t_report("test_common");
}
