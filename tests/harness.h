/* harness.h - a tiny test harness: CHECK prints got/expected and counts. */
#ifndef OC_HARNESS_H
#define OC_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int t_failed, t_passed;

#define CHECK(cond)                                                           \
    do {                                                                      \
        if (cond) {                                                           \
            t_passed++;                                                       \
        } else {                                                              \
            t_failed++;                                                       \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,  \
                    #cond);                                                   \
        }                                                                     \
    } while (0)

#define CHECK_EQ_INT(got, want)                                               \
    do {                                                                      \
        long long g_ = (long long)(got), w_ = (long long)(want);              \
        if (g_ == w_) {                                                       \
            t_passed++;                                                       \
        } else {                                                              \
            t_failed++;                                                       \
            fprintf(stderr, "%s:%d: %s: got %lld, expected %lld\n", __FILE__, \
                    __LINE__, #got, g_, w_);                                  \
        }                                                                     \
    } while (0)

#define CHECK_EQ_STR(got, want)                                               \
    do {                                                                      \
        const char *g_ = (got), *w_ = (want);                                 \
        if (g_ && w_ && strcmp(g_, w_) == 0) {                                \
            t_passed++;                                                       \
        } else {                                                              \
            t_failed++;                                                       \
            fprintf(stderr, "%s:%d: %s: got \"%s\", expected \"%s\"\n",       \
                    __FILE__, __LINE__, #got, g_ ? g_ : "(null)",             \
                    w_ ? w_ : "(null)");                                      \
        }                                                                     \
    } while (0)

#define CHECK_CONTAINS(hay, needle)                                           \
    do {                                                                      \
        const char *h_ = (hay), *n_ = (needle);                               \
        if (h_ && strstr(h_, n_)) {                                           \
            t_passed++;                                                       \
        } else {                                                              \
            t_failed++;                                                       \
            fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n",        \
                    __FILE__, __LINE__, h_ ? h_ : "(null)", n_);              \
        }                                                                     \
    } while (0)

static inline int t_report(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, t_passed, t_failed);
    return t_failed ? 1 : 0;
}

#endif
