/*
 * common.h - status codes, error records, dtypes and the arena shared by
 * every layer of onnxcost.
 *
 * Every fallible function returns an oc_status (OC_OK == 0) and, on failure,
 * fills a caller-owned oc_error with a one-line reason and, where there is
 * one, the node it concerns.  The library never prints.
 */
#ifndef OC_COMMON_H
#define OC_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/onnxcost.h"

/* The status codes are the public header's (include/onnxcost.h), value for
 * value: one map for both. */
#define OC_STATUS_MAP(XX) ONNXCOST_STATUS_MAP(XX)

typedef enum oc_status {
#define XX(name, str) OC_##name,
    OC_STATUS_MAP(XX)
#undef XX
} oc_status;

/* Human-readable name of a status; never NULL. */
const char *oc_status_str(oc_status s);

typedef struct oc_error {
    oc_status status;
    char node[128]; /* node name (or op type) concerned, "" when none */
    char msg[1024]; /* one line, no trailing newline; " ..." ends a shortened one */
} oc_error;

/* The median of v[0..n) (the mean of the middle two for even n; 0 when
 * n is 0).  Sorts v. */
double oc_median(double *v, size_t n);

/* FNV-1a over n bytes, or over a string's bytes: for hash tables. */
uint64_t oc_hash_bytes(const void *p, size_t n);
uint64_t oc_hash_str(const char *s);

/* A name a model chose (node, tensor) as messages show it: itself when
 * shorter than OC_NAME_SHOWN, else its start, ended at a space where there
 * is one, and " ...".  Returns s or buf. */
#define OC_NAME_SHOWN 96
const char *oc_name_shown(const char *s, char buf[OC_NAME_SHOWN + 8]);

/* Fill err (which may be NULL) and return status.  printf-style. */
oc_status oc_error_set(oc_error *err, oc_status status, const char *node,
                       const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
oc_status oc_error_setv(oc_error *err, oc_status status, const char *node,
                        const char *fmt, va_list ap);
void oc_error_clear(oc_error *err);

/* ONNX TensorProto.DataType values. */
typedef enum oc_dtype {
    OC_DT_UNDEFINED = 0,
    OC_DT_FLOAT = 1,
    OC_DT_UINT8 = 2,
    OC_DT_INT8 = 3,
    OC_DT_UINT16 = 4,
    OC_DT_INT16 = 5,
    OC_DT_INT32 = 6,
    OC_DT_INT64 = 7,
    OC_DT_STRING = 8,
    OC_DT_BOOL = 9,
    OC_DT_FLOAT16 = 10,
    OC_DT_DOUBLE = 11,
    OC_DT_UINT32 = 12,
    OC_DT_UINT64 = 13,
    OC_DT_COMPLEX64 = 14,
    OC_DT_COMPLEX128 = 15,
    OC_DT_BFLOAT16 = 16,
    OC_DT_COUNT_
} oc_dtype;

/* "float32", "int64", ...; "undefined" for unknown values. */
const char *oc_dtype_name(oc_dtype t);
/* Size of one element in bytes; 0 for undefined/string. */
size_t oc_dtype_size(oc_dtype t);
bool oc_dtype_is_float(oc_dtype t);
bool oc_dtype_is_int(oc_dtype t); /* integer or bool */
bool oc_dtype_valid(int64_t t);

/* Checked unsigned arithmetic: return false on overflow. */
static inline bool oc_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}
static inline bool oc_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}
static inline bool oc_mul_i64(int64_t a, int64_t b, int64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}
static inline bool oc_add_i64(int64_t a, int64_t b, int64_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}

/*
 * Arena: bump allocator in large blocks.  One per loaded model (it also
 * serves as protobuf-c's allocator) and one per analysis.  Freed at once.
 */
typedef struct oc_arena oc_arena;
oc_arena *oc_arena_new(void);
void oc_arena_free(oc_arena *a);
/* 16-byte aligned; NULL on exhaustion or size overflow. */
void *oc_arena_alloc(oc_arena *a, size_t size);
/* 8-byte aligned (enough for pointers, int64_t and double), for the many
 * small allocations of protobuf-c: a 5-byte name takes 8 bytes, not 16. */
void *oc_arena_alloc8(oc_arena *a, size_t size);
void *oc_arena_calloc(oc_arena *a, size_t n, size_t size);
char *oc_arena_strdup(oc_arena *a, const char *s);
char *oc_arena_strndup(oc_arena *a, const char *s, size_t n);
char *oc_arena_printf(oc_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
size_t oc_arena_used(const oc_arena *a);

/* What a file that is not a regular file is, for messages ("a FIFO
 * (named pipe)", "a directory", ...), from its st_mode. */
const char *oc_file_kind(unsigned mode);

#endif
