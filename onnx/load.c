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

static void *pb_alloc(void *data, size_t size)
{
    return oc_arena_alloc8(data, size);
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

static uint64_t limit_of(const oc_load_opts *o)
{
    uint64_t l = o && o->max_bytes ? o->max_bytes : OC_DEFAULT_MAX_MODEL_BYTES;
    return l < SIZE_MAX ? l : SIZE_MAX - 1;
}

static oc_status too_large(oc_error *err, const char *label, const char *what,
                           uint64_t limit)
{
    return oc_error_set(err, OC_ERR_INPUT, NULL,
                        "%s: %s larger than the limit (%llu bytes; --max-model-size)",
                        label, what, (unsigned long long)limit);
}

enum { OVER_LIMIT = 1000 }; /* not a zlib code */

/* One inflate pass over src.  With out == NULL the output goes to a small
 * scratch buffer and is only counted, stopping as soon as it passes
 * `limit`: a gzip bomb costs time up to the limit, never memory.  With
 * out (cap bytes), the output is stored; a stream longer than cap stops
 * there.  Returns Z_STREAM_END when the stream is whole, OVER_LIMIT, or
 * another zlib code. */
static int inflate_pass(const unsigned char *src, size_t n, unsigned char *out,
                        size_t cap, uint64_t limit, uint64_t *total)
{
    enum { SCRATCH = 1 << 18 };
    unsigned char *scratch = out ? NULL : malloc(SCRATCH);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if ((!out && !scratch) || inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
        free(scratch);
        return Z_MEM_ERROR;
    }
    zs.next_in = (unsigned char *)src;
    size_t in_left = n, len = 0;
    uint64_t count = 0;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
        if (zs.avail_in == 0 && in_left) {
            unsigned chunk = in_left > (1u << 30) ? (1u << 30) : (unsigned)in_left;
            zs.avail_in = chunk;
            in_left -= chunk;
        }
        unsigned room = SCRATCH;
        zs.next_out = scratch;
        if (out) {
            size_t r = cap - len;
            if (!r) {
                rc = Z_DATA_ERROR;
                break;
            }
            room = r > (1u << 30) ? (1u << 30) : (unsigned)r;
            zs.next_out = out + len;
        }
        zs.avail_out = room;
        rc = inflate(&zs, Z_NO_FLUSH);
        unsigned got = room - zs.avail_out;
        len += got;
        count += got;
        if (count > limit) {
            rc = OVER_LIMIT;
            break;
        }
        if (rc == Z_BUF_ERROR && zs.avail_in == 0 && in_left == 0)
            break;
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
            break;
    }
    inflateEnd(&zs);
    free(scratch);
    *total = count;
    return rc;
}

static oc_status gunzip(const unsigned char *src, size_t n, const char *label,
                        uint64_t limit, unsigned char **out, size_t *out_len,
                        oc_error *err)
{
    uint64_t total = 0;
    int rc = inflate_pass(src, n, NULL, 0, limit, &total);
    if (rc == OVER_LIMIT)
        return too_large(err, label, "the decompressed model is", limit);
    if (rc == Z_MEM_ERROR)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "%s: zlib: out of memory", label);
    if (rc != Z_STREAM_END)
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "%s: corrupt or truncated gzip data", label);
    /* One byte more than counted: a second pass that disagrees shows. */
    unsigned char *buf = malloc((size_t)total + 1);
    if (!buf)
        return oc_error_set(err, OC_ERR_NOMEM, NULL,
                            "%s: out of memory for its %llu decompressed bytes", label,
                            (unsigned long long)total);
    uint64_t again = 0;
    rc = inflate_pass(src, n, buf, (size_t)total + 1, limit, &again);
    if (rc != Z_STREAM_END || again != total) {
        free(buf);
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "%s: corrupt or truncated gzip data", label);
    }
    *out = buf;
    *out_len = (size_t)total;
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

/* The folder of a model file, against which its external data locations
 * are resolved ("." for a bare name). */
static const char *dir_of(oc_arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return oc_arena_strdup(a, ".");
    if (slash == path)
        return oc_arena_strdup(a, "/");
    return oc_arena_strndup(a, path, (size_t)(slash - path));
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
                        uint64_t limit, oc_model **out, oc_error *err)
{
    oc_status st;
    m->file_size = n;
    if (is_gzip(src, n)) {
        unsigned char *raw = NULL;
        size_t raw_len = 0;
        st = gunzip(src, n, m->source, limit, &raw, &raw_len, err);
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
    return finish(m, m->owned, size, limit_of(NULL), out, err);
}

/* Read fd to its end, refusing more than `limit` bytes as they arrive. */
static oc_status read_stream(int fd, const char *label, uint64_t limit,
                             unsigned char **out, size_t *out_len, oc_error *err)
{
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "%s: out of memory", label);
    for (;;) {
        if (n == cap) {
            /* Never hold more than limit + 1 bytes: one past it is enough
             * to know the input is too large. */
            size_t ncap = cap > (size_t)limit / 2 ? (size_t)limit + 1 : cap * 2;
            unsigned char *nb = ncap > cap ? realloc(buf, ncap) : NULL;
            if (!nb) {
                free(buf);
                if (ncap > cap)
                    return oc_error_set(err, OC_ERR_NOMEM, NULL,
                                        "%s: out of memory after %zu bytes", label, n);
                return too_large(err, label, "the model is", limit);
            }
            buf = nb;
            cap = ncap;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(buf);
            return oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot read: %s", label,
                                strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (n > limit) {
            free(buf);
            return too_large(err, label, "the model is", limit);
        }
    }
    *out = buf;
    *out_len = n;
    return OC_OK;
}

static bool is_stdin_path(const char *path)
{
    return strcmp(path, "-") == 0 || strcmp(path, "/dev/stdin") == 0;
}

oc_status oc_model_load(const char *path, const oc_load_opts *opts, oc_model **out,
                        oc_error *err)
{
    *out = NULL;
    uint64_t limit = limit_of(opts);
    bool streamed = is_stdin_path(path);
    const char *label = streamed ? "<stdin>" : path;
    /* O_NONBLOCK: a FIFO without a writer must not hang the open. */
    int fd = streamed ? 0 : open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot open: %s", path,
                            strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        if (!streamed)
            close(fd);
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot stat: %s", label,
                            strerror(e));
    }
    if (!streamed && !S_ISREG(sb.st_mode)) {
        close(fd);
        if (S_ISDIR(sb.st_mode))
            return oc_error_set(err, OC_ERR_IO, NULL,
                                "%s: is a directory, not a model file", path);
        return oc_error_set(err, OC_ERR_IO, NULL,
                            "%s: is %s, not a regular file (give - to read a model "
                            "from standard input)",
                            path, oc_file_kind(sb.st_mode));
    }
    if (streamed && S_ISDIR(sb.st_mode))
        return oc_error_set(err, OC_ERR_IO, NULL,
                            "%s: standard input is a directory, not a model", label);
    oc_model *m = model_new(label);
    if (!m) {
        if (!streamed)
            close(fd);
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    }
    if (!streamed) {
        m->dir = dir_of(m->arena, path);
        if (!m->dir) {
            close(fd);
            oc_model_free(m);
            return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
        }
    }
    size_t n = 0;
    const unsigned char *src = NULL;
    /* A regular file is mapped (standard input too, when it is a file
     * read from its start); anything else is read as it comes. */
    bool map = S_ISREG(sb.st_mode) && (!streamed || lseek(fd, 0, SEEK_CUR) == 0);
    if (map && (uint64_t)sb.st_size > limit) {
        if (!streamed)
            close(fd);
        oc_model_free(m);
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "%s: %lld bytes, larger than the limit (%llu bytes; "
                            "--max-model-size)",
                            label, (long long)sb.st_size, (unsigned long long)limit);
    }
    if (map && sb.st_size > 0) {
        n = (size_t)sb.st_size;
        void *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            if (!streamed)
                close(fd);
            oc_model_free(m);
            return oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot map: %s", label,
                                strerror(e));
        }
        m->map = p;
        m->map_size = n;
        src = p;
    } else if (!map) {
        unsigned char *buf = NULL;
        oc_status st = read_stream(fd, label, limit, &buf, &n, err);
        if (st) {
            oc_model_free(m);
            return st;
        }
        m->owned = buf;
        src = buf;
    }
    if (!streamed)
        close(fd);
    return finish(m, src, n, limit, out, err);
}

oc_status oc_model_load_file(const char *path, oc_model **out, oc_error *err)
{
    return oc_model_load(path, NULL, out, err);
}

const char *oc_model_dir(const oc_model *m) { return m->dir; }

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
    const oc_opset *o = oc__model_find_opset(m, domain);
    return o ? o->version : 0;
}
