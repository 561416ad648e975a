/*
 * extdata.c - where a tensor's external data may live.
 *
 * A TensorProto stored outside the model names its file in external_data
 * ("location").  ONNX Runtime (and ONNX's checker) take a location only when
 * it is relative, stays inside the model's folder once normalised, and
 * names a regular file; anything else is refused, so that a model cannot
 * make whoever loads it read /etc/passwd or /dev/zero.  onnxcost never
 * reads the weights, but a model its runtime would refuse is refused here
 * too, the tensor and the location named.  The data files need not exist:
 * only what is there is looked at (stat, never open).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "onnx/model-impl.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Whether the relative path p, normalised ("a/./b", "a/../b"), stays
 * below its starting folder. */
static bool stays_inside(const char *p)
{
    long depth = 0;
    while (*p) {
        const char *e = strchr(p, '/');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (--depth < 0)
                return false;
        } else if (n && !(n == 1 && p[0] == '.')) {
            depth++;
        }
        p += n + (e != NULL);
    }
    return true;
}

/* A non-negative decimal number, else 0. */
static uint64_t decimal(const char *s)
{
    uint64_t v = 0;
    if (!s || !*s)
        return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
            return 0;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    return v;
}

oc_status oc__check_external(oc_model *m, const Onnx__TensorProto *t, oc_tensor *o,
                             oc_error *err)
{
    const char *loc = NULL;
    for (size_t i = 0; i < t->n_external_data; i++) {
        const Onnx__StringStringEntryProto *e = t->external_data[i];
        if (!e || !e->key)
            continue;
        if (strcmp(e->key, "location") == 0)
            loc = e->value ? e->value : "";
        else if (strcmp(e->key, "offset") == 0)
            o->ext_offset = decimal(e->value);
        else if (strcmp(e->key, "length") == 0)
            o->ext_length = decimal(e->value);
    }
    if (!loc)
        return OC_OK; /* nothing to resolve: the weights are never read */
    o->location = loc;
    if (!m->n_external++)
        m->first_external = loc;
    const char *src = m->source, *name = o->name;
#define REFUSE(...)                                                                \
    return oc_error_set(err, OC_ERR_INPUT, name,                                   \
                        "%s: tensor '%s': external data location '%s' %s", src, \
                        name, loc, __VA_ARGS__)
    if (!loc[0])
        REFUSE("is empty");
    if (loc[0] == '/')
        REFUSE("is an absolute path (ONNX Runtime takes only paths relative to "
               "the model's folder)");
    if (!stays_inside(loc))
        REFUSE("leads outside the model's folder");
    if (!m->dir)
        return OC_OK; /* a buffer or standard input: no folder to look in */
    size_t dl = strlen(m->dir), ll = strlen(loc);
    char *path = malloc(dl + ll + 2);
    if (!path)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "%s: out of memory", src);
    memcpy(path, m->dir, dl);
    path[dl] = '/';
    memcpy(path + dl + 1, loc, ll + 1);
    struct stat sb;
    oc_status st = OC_OK;
    if (stat(path, &sb) == 0) {
        /* There: a regular file, and (symbolic links followed) still
         * inside the folder, as ONNX Runtime's canonical-path check has it. */
        char *rd = realpath(m->dir, NULL), *rp = realpath(path, NULL);
        size_t rl = rd ? strlen(rd) : 0;
        if (!S_ISREG(sb.st_mode))
            st = oc_error_set(err, OC_ERR_INPUT, name,
                              "%s: tensor '%s': external data location '%s' is %s, "
                              "not a regular file",
                              src, name, loc, oc_file_kind(sb.st_mode));
        else if (rd && rp &&
                 !(strncmp(rp, rd, rl) == 0 && (rp[rl] == '/' || (rl == 1 && rd[0] == '/'))))
            st = oc_error_set(err, OC_ERR_INPUT, name,
                              "%s: tensor '%s': external data location '%s' leads "
                              "outside the model's folder (to %s)",
                              src, name, loc, rp);
        free(rd);
        free(rp);
    } else if (errno == ELOOP) {
        st = oc_error_set(err, OC_ERR_INPUT, name,
                          "%s: tensor '%s': external data location '%s' is a loop of "
                          "symbolic links",
                          src, name, loc);
    }
    free(path);
    return st;
#undef REFUSE
}

size_t oc_model_external_count(const oc_model *m, const char **example)
{
    if (example)
        *example = m->first_external;
    return m->n_external;
}
