/* malloc_trace.c - an LD_PRELOAD library for bench/malloc_trace.py: every
 * malloc, free, calloc, realloc and aligned allocation of the process, with
 * its result, the process's minor page faults so far and the program break
 * after it, as 48-byte records written to $OC_MALLOC_TRACE at exit.  The
 * records go to an anonymous mapping reserved up front, so that logging
 * allocates nothing itself. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

enum { OP_MALLOC = 1, OP_FREE, OP_REALLOC, OP_ALIGNED, OP_CALLOC };

typedef struct rec {
    uint64_t op, a, b, result, minflt, brk;
} rec;

#define CAP ((size_t)1 << 34) /* bytes reserved for records */

static rec *recs;
static atomic_size_t n_recs;
static int tracing;
static void *(*real_malloc)(size_t);
static void (*real_free)(void *);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);

/* dlsym may calloc before the real calloc is known: served from here */
static char boot[1 << 16];
static size_t boot_used;

static int from_boot(const void *p)
{
    return (const char *)p >= boot && (const char *)p < boot + sizeof boot;
}

static int initializing;

/* The real functions; an allocation dlsym makes meanwhile is served from
 * boot. */
static void init(void)
{
    if (real_malloc || initializing)
        return;
    initializing = 1;
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    real_free = dlsym(RTLD_NEXT, "free");
    real_realloc = dlsym(RTLD_NEXT, "realloc");
    real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    real_memalign = dlsym(RTLD_NEXT, "memalign");
    real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
    real_malloc = dlsym(RTLD_NEXT, "malloc");
    if (getenv("OC_MALLOC_TRACE")) {
        void *m = mmap(NULL, CAP, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        recs = m == MAP_FAILED ? NULL : m;
        tracing = recs != NULL;
    }
    initializing = 0;
}

__attribute__((constructor)) static void start(void)
{
    init();
}

static void log_op(uint64_t op, uint64_t a, uint64_t b, const void *result)
{
    if (!tracing)
        return;
    size_t i = atomic_fetch_add(&n_recs, 1);
    if ((i + 1) * sizeof(rec) > CAP)
        return;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    recs[i] = (rec){op, a, b, (uint64_t)(uintptr_t)result, (uint64_t)ru.ru_minflt,
                    (uint64_t)(uintptr_t)sbrk(0)};
}

void *malloc(size_t size)
{
    if (!real_malloc)
        init();
    if (!real_malloc) { /* inside dlsym */
        size_t at = boot_used;
        boot_used += (size + 15) & ~(size_t)15;
        return boot_used <= sizeof boot ? boot + at : NULL;
    }
    void *p = real_malloc(size);
    log_op(OP_MALLOC, size, 0, p);
    return p;
}

void free(void *p)
{
    if (!p || from_boot(p))
        return;
    init();
    log_op(OP_FREE, (uint64_t)(uintptr_t)p, 0, NULL);
    real_free(p);
}

void *calloc(size_t n, size_t size)
{
    if (!real_calloc)
        init();
    if (!real_calloc) {
        void *p = malloc(n * size); /* dlsym's own, from boot */
        if (p)
            memset(p, 0, n * size);
        return p;
    }
    void *p = real_calloc(n, size);
    log_op(OP_CALLOC, n, size, p);
    return p;
}

void *realloc(void *q, size_t size)
{
    init();
    if (from_boot(q)) {
        void *p = malloc(size);
        if (p)
            memcpy(p, q, size);
        return p;
    }
    void *p = real_realloc(q, size);
    log_op(OP_REALLOC, (uint64_t)(uintptr_t)q, size, p);
    return p;
}

int posix_memalign(void **out, size_t align, size_t size)
{
    init();
    int rc = real_posix_memalign(out, align, size);
    log_op(OP_ALIGNED, align, size, rc ? NULL : *out);
    return rc;
}

void *memalign(size_t align, size_t size)
{
    init();
    void *p = real_memalign(align, size);
    log_op(OP_ALIGNED, align, size, p);
    return p;
}

void *aligned_alloc(size_t align, size_t size)
{
    init();
    void *p = real_aligned_alloc(align, size);
    log_op(OP_ALIGNED, align, size, p);
    return p;
}

__attribute__((destructor)) static void write_records(void)
{
    const char *path = getenv("OC_MALLOC_TRACE");
    if (!tracing || !path)
        return;
    tracing = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    size_t n = atomic_load(&n_recs);
    if (n * sizeof(rec) > CAP)
        n = CAP / sizeof(rec);
    const char *p = (const char *)recs;
    size_t left = n * sizeof(rec);
    while (left) {
        ssize_t w = write(fd, p, left > (1u << 30) ? (1u << 30) : left);
        if (w <= 0)
            break;
        p += w;
        left -= (size_t)w;
    }
    close(fd);
}
