/*
 * load.c - reading model files: plain or gzip, from a path or a buffer.
 */
#include "onnx/model-impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* raw_data fields larger than this stay in the source buffer. */
enum { OC_ELIDE_THRESHOLD = 4096 };
/* A decompressed model larger than this is refused (protobuf's own 2 GiB
 * message limit, with room for external data models). */
#define OC_MAX_MODEL_BYTES ((size_t)4 << 30)

static void *pb_alloc(void *data, size_t size)
{
    return oc_arena_alloc(data, size);
}
static void pb_free(void *data, void *ptr)
{
    (void)data;
    (void)ptr; /* the arena frees everything at once */
}

static bool is_gzip(const unsigned char *p, size_t n)
{
    return n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

static oc_status gunzip(const unsigned char *src, size_t n, const char *label,
                        unsigned char **out, size_t *out_len, oc_error *err)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
        return oc_error_set(err, OC_ERR_INTERNAL, NULL, "%s: zlib init failed",
                            label);
    size_t cap = n * 4 + 4096, len = 0;
    unsigned char *buf = malloc(cap);
    if (!buf) {
        inflateEnd(&zs);
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "%s: out of memory", label);
    }
    zs.next_in = (unsigned char *)src;
    size_t in_left = n;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        if (len == cap) {
            if (cap >= OC_MAX_MODEL_BYTES) {
                free(buf);
                inflateEnd(&zs);
                return oc_error_set(err, OC_ERR_INPUT, NULL,
                                    "%s: decompresses to more than %zu bytes",
                                    label, OC_MAX_MODEL_BYTES);
            }
            cap *= 2;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                inflateEnd(&zs);
                return oc_error_set(err, OC_ERR_NOMEM, NULL, "%s: out of memory",
                                    label);
            }
            buf = nb;
        }
        if (zs.avail_in == 0) {
            unsigned chunk = in_left > (1u << 30) ? (1u << 30) : (unsigned)in_left;
            zs.avail_in = chunk;
            in_left -= chunk;
        }
        size_t room = cap - len;
        zs.next_out = buf + len;
        zs.avail_out = room > (1u << 30) ? (1u << 30) : (unsigned)room;
        unsigned before = zs.avail_out;
        rc = inflate(&zs, Z_NO_FLUSH);
        len += before - zs.avail_out;
        if (rc == Z_BUF_ERROR && zs.avail_in == 0 && in_left == 0)
            break;
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
            break;
    }
    inflateEnd(&zs);
    if (rc != Z_STREAM_END) {
        free(buf);
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "%s: corrupt or truncated gzip data", label);
    }
    *out = buf;
    *out_len = len;
    return OC_OK;
}

/* Point every placeholder raw_data back into the source bytes. */
static void patch_tensor(oc_model *m, const unsigned char *src,
                         Onnx__TensorProto *t);
static void patch_graph(oc_model *m, const unsigned char *src,
                        Onnx__GraphProto *g);

static void patch_tensor(oc_model *m, const unsigned char *src,
                         Onnx__TensorProto *t)
{
    if (!t || !t->has_raw_data)
        return;
    long i = oc_wire_placeholder_index(&m->wire, t->raw_data.data,
                                       t->raw_data.len);
    if (i < 0)
        return;
    oc_elided *e = &m->wire.elided[i];
    e->used = true;
    t->raw_data.data = (uint8_t *)src + e->offset;
    t->raw_data.len = e->len;
}

static void patch_graph(oc_model *m, const unsigned char *src,
                        Onnx__GraphProto *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n_initializer; i++)
        patch_tensor(m, src, g->initializer[i]);
    for (size_t i = 0; i < g->n_node; i++) {
        Onnx__NodeProto *n = g->node[i];
        for (size_t j = 0; j < n->n_attribute; j++) {
            Onnx__AttributeProto *a = n->attribute[j];
            patch_tensor(m, src, a->t);
            for (size_t k = 0; k < a->n_tensors; k++)
                patch_tensor(m, src, a->tensors[k]);
            patch_graph(m, src, a->g);
            for (size_t k = 0; k < a->n_graphs; k++)
                patch_graph(m, src, a->graphs[k]);
        }
    }
}

/* Parse src (which must stay alive as long as m). */
static oc_status parse(oc_model *m, const unsigned char *src, size_t n,
                       oc_error *err)
{
    const char *label = m->source;
    if (n == 0)
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "%s: empty file, not an ONNX model", label);
    oc_status st = oc_wire_elide(src, n, OC_ELIDE_THRESHOLD, &m->wire, label, err);
    if (st)
        return st;
    ProtobufCAllocator alloc = {pb_alloc, pb_free, m->arena};
    const unsigned char *pb = m->wire.buf ? m->wire.buf : src;
    size_t pb_len = m->wire.buf ? m->wire.size : n;
    m->proto = onnx__model_proto__unpack(&alloc, pb_len, pb);
    /* The rewritten buffer is not referenced by the unpacked tree. */
    free(m->wire.buf);
    m->wire.buf = NULL;
    if (!m->proto)
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "%s: not a valid ONNX model (protobuf decoding "
                            "failed: wrong field types or truncated data)",
                            label);
    patch_graph(m, src, m->proto->graph);
    if (!m->proto->graph)
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "%s: not an ONNX model: the ModelProto has no graph",
                            label);
    return oc__model_build_ir(m, err);
}

static oc_model *model_new(const char *label)
{
    oc_model *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->arena = oc_arena_new();
    if (!m->arena) {
        free(m);
        return NULL;
    }
    m->source = oc_arena_strdup(m->arena, label ? label : "<buffer>");
    if (!m->source) {
        oc_arena_free(m->arena);
        free(m);
        return NULL;
    }
    return m;
}

void oc_model_free(oc_model *m)
{
    if (!m)
        return;
    if (m->map)
        munmap(m->map, m->map_size);
    free(m->owned);
    oc_wire_out_free(&m->wire);
    oc_arena_free(m->arena);
    free(m);
}

static oc_status finish(oc_model *m, const unsigned char *src, size_t n,
                        oc_model **out, oc_error *err)
{
    oc_status st;
    m->file_size = n;
    if (is_gzip(src, n)) {
        unsigned char *raw = NULL;
        size_t raw_len = 0;
        st = gunzip(src, n, m->source, &raw, &raw_len, err);
        if (st) {
            oc_model_free(m);
            return st;
        }
        if (m->map) {
            munmap(m->map, m->map_size);
            m->map = NULL;
        }
        free(m->owned);
        m->owned = raw;
        m->compression = OC_GZIP;
        src = raw;
        n = raw_len;
    }
    st = parse(m, src, n, err);
    if (st) {
        oc_model_free(m);
        return st;
    }
    *out = m;
    return OC_OK;
}

oc_status oc_model_load_buffer(const void *data, size_t size, const char *label,
                               oc_model **out, oc_error *err)
{
    *out = NULL;
    oc_model *m = model_new(label);
    if (!m)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    /* The IR points into the source for elided weights: keep a copy. */
    if (size) {
        m->owned = malloc(size);
        if (!m->owned) {
            oc_model_free(m);
            return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        }
        memcpy(m->owned, data, size);
    }
    return finish(m, m->owned, size, out, err);
}

oc_status oc_model_load_file(const char *path, oc_model **out, oc_error *err)
{
    *out = NULL;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot open: %s", path,
                            strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot stat: %s", path,
                            strerror(e));
    }
    if (S_ISDIR(sb.st_mode)) {
        close(fd);
        return oc_error_set(err, OC_ERR_IO, NULL,
                            "%s: is a directory, not a model file", path);
    }
    oc_model *m = model_new(path);
    if (!m) {
        close(fd);
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    }
    size_t n = 0;
    const unsigned char *src = NULL;
    if (S_ISREG(sb.st_mode) && sb.st_size > 0) {
        if ((uint64_t)sb.st_size > OC_MAX_MODEL_BYTES) {
            close(fd);
            oc_model_free(m);
            return oc_error_set(err, OC_ERR_INPUT, NULL,
                                "%s: %lld bytes is larger than the %zu-byte limit",
                                path, (long long)sb.st_size, OC_MAX_MODEL_BYTES);
        }
        n = (size_t)sb.st_size;
        void *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            close(fd);
            oc_model_free(m);
            return oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot map: %s", path,
                                strerror(e));
        }
        m->map = p;
        m->map_size = n;
        src = p;
    } else if (!S_ISREG(sb.st_mode)) {
        /* A pipe or device: read it whole. */
        size_t cap = 1 << 16;
        unsigned char *buf = malloc(cap);
        ssize_t r;
        while (buf && (r = read(fd, buf + n, cap - n)) > 0) {
            n += (size_t)r;
            if (n == cap) {
                unsigned char *nb = cap < OC_MAX_MODEL_BYTES ? realloc(buf, cap * 2) : NULL;
                if (!nb) {
                    free(buf);
                    buf = NULL;
                    break;
                }
                buf = nb;
                cap *= 2;
            }
        }
        if (!buf) {
            close(fd);
            oc_model_free(m);
            return oc_error_set(err, OC_ERR_NOMEM, NULL, "%s: out of memory", path);
        }
        m->owned = buf;
        src = buf;
    }
    close(fd);
    return finish(m, src, n, out, err);
}

/* ---- accessors ---- */

const oc_graph *oc_model_graph(const oc_model *m) { return m->graph; }
int64_t oc_model_ir_version(const oc_model *m)
{
    return m->proto->has_ir_version ? m->proto->ir_version : 0;
}
const char *oc_model_producer(const oc_model *m)
{
    return m->proto->producer_name ? m->proto->producer_name : "";
}
const char *oc_model_producer_version(const oc_model *m)
{
    return m->proto->producer_version ? m->proto->producer_version : "";
}
size_t oc_model_n_opsets(const oc_model *m) { return m->n_opsets; }
const oc_opset *oc_model_opsets(const oc_model *m) { return m->opsets; }
const char *oc_model_source(const oc_model *m) { return m->source; }
oc_compression oc_model_compression(const oc_model *m) { return m->compression; }
size_t oc_model_file_size(const oc_model *m) { return m->file_size; }

int64_t oc_model_opset(const oc_model *m, const char *domain)
{
    if (!domain || strcmp(domain, "ai.onnx") == 0)
        domain = "";
    for (size_t i = 0; i < m->n_opsets; i++)
        if (strcmp(m->opsets[i].domain, domain) == 0)
            return m->opsets[i].version;
    return 0;
}
