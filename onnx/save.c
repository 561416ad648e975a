/*
 * save.c - annotations and writing a model back, atomically.
 */
#define _DEFAULT_SOURCE /* madvise(MADV_DONTNEED): posix_madvise's is a no-op */
#include "onnx/model-impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static oc_status nomem(oc_error *err)
{
    return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
}

/* Node `node` of graph ir (NULL: the main graph); the IR is built from the
 * model's messages, which the model owns and annotations edit. */
static oc_status node_at(oc_model *m, const oc_graph *ir, size_t node, Onnx__NodeProto **out,
                         oc_error *err)
{
    Onnx__GraphProto *g = ir && ir->proto_ ? (Onnx__GraphProto *)ir->proto_ : m->proto->graph;
    if (node >= g->n_node)
        return oc_error_set(err, OC_ERR_INTERNAL, NULL, "node %zu out of range",
                            node);
    *out = g->node[node];
    return OC_OK;
}

oc_status oc_model_node_append_doc(oc_model *m, size_t node, const char *line,
                                   oc_error *err)
{
    return oc_model_graph_node_append_doc(m, NULL, node, line, err);
}

oc_status oc_model_graph_node_append_doc(oc_model *m, const oc_graph *ir, size_t node,
                                         const char *line, oc_error *err)
{
    Onnx__NodeProto *n = NULL;
    oc_status st = node_at(m, ir, node, &n, err);
    if (st)
        return st;
    const char *old = n->doc_string ? n->doc_string : "";
    char *doc = old[0] ? oc_arena_printf(m->arena, "%s\n%s", old, line)
                       : oc_arena_strdup(m->arena, line);
    if (!doc)
        return nomem(err);
    n->doc_string = doc;
    return OC_OK;
}

/* Bytes of a length-prefixed StringStringEntryProto {key = 1, value = 2},
 * as protobuf-c keeps an unknown field: everything after the tag. */
static uint8_t *encode_entry(oc_arena *a, const char *key, const char *value,
                             size_t *len)
{
    size_t kl = strlen(key), vl = strlen(value);
    uint8_t *p = oc_arena_alloc(a, kl + vl + 40);
    if (!p)
        return NULL;
    unsigned char tmp[10];
    size_t body = 2 + oc_varint_put(tmp, kl) + kl + oc_varint_put(tmp, vl) + vl;
    size_t n = oc_varint_put(p, body);
    p[n++] = (1 << 3) | 2;
    n += oc_varint_put(p + n, kl);
    memcpy(p + n, key, kl);
    n += kl;
    p[n++] = (2 << 3) | 2;
    n += oc_varint_put(p + n, vl);
    memcpy(p + n, value, vl);
    n += vl;
    *len = n;
    return p;
}

/* Key of an encoded entry, compared with `key`. */
static bool entry_has_key(const uint8_t *p, size_t len, const char *key)
{
    size_t kl = strlen(key), pos = 0;
    uint64_t body;
    size_t pre = oc_varint_get(p, len, &body);
    if (!pre || body != len - pre)
        return false;
    pos = pre;
    while (pos < len) {
        uint64_t tag, l;
        size_t n = oc_varint_get(p + pos, len - pos, &tag);
        if (!n || (tag & 7) != 2)
            return false;
        pos += n;
        n = oc_varint_get(p + pos, len - pos, &l);
        if (!n || l > len - pos - n)
            return false;
        pos += n;
        if (tag >> 3 == 1)
            return l == kl && memcmp(p + pos, key, kl) == 0;
        pos += l;
    }
    return false;
}

enum { NODE_METADATA_PROPS = 9 };

oc_status oc_model_node_set_meta(oc_model *m, size_t node, const char *key,
                                 const char *value, oc_error *err)
{
    return oc_model_graph_node_set_meta(m, NULL, node, key, value, err);
}

oc_status oc_model_graph_node_set_meta(oc_model *m, const oc_graph *ir, size_t node,
                                       const char *key, const char *value, oc_error *err)
{
    Onnx__NodeProto *n = NULL;
    oc_status st = node_at(m, ir, node, &n, err);
    if (st)
        return st;
    size_t len;
    uint8_t *data = encode_entry(m->arena, key, value, &len);
    if (!data)
        return nomem(err);
    ProtobufCMessage *base = &n->base;
    for (unsigned i = 0; i < base->n_unknown_fields; i++) {
        ProtobufCMessageUnknownField *u = &base->unknown_fields[i];
        if (u->tag == NODE_METADATA_PROPS &&
            u->wire_type == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED &&
            entry_has_key(u->data, u->len, key)) {
            u->data = data;
            u->len = len;
            return OC_OK;
        }
    }
    ProtobufCMessageUnknownField *nu =
        oc_arena_alloc(m->arena, (base->n_unknown_fields + 1) * sizeof *nu);
    if (!nu)
        return nomem(err);
    if (base->n_unknown_fields)
        memcpy(nu, base->unknown_fields, base->n_unknown_fields * sizeof *nu);
    nu[base->n_unknown_fields] = (ProtobufCMessageUnknownField){
        NODE_METADATA_PROPS, PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED, len, data};
    base->unknown_fields = nu;
    base->n_unknown_fields++;
    return OC_OK;
}

oc_status oc_model_set_meta(oc_model *m, const char *key, const char *value,
                            oc_error *err)
{
    Onnx__ModelProto *p = m->proto;
    char *v = oc_arena_strdup(m->arena, value);
    if (!v)
        return nomem(err);
    for (size_t i = 0; i < p->n_metadata_props; i++)
        if (p->metadata_props[i]->key && strcmp(p->metadata_props[i]->key, key) == 0) {
            p->metadata_props[i]->value = v;
            return OC_OK;
        }
    Onnx__StringStringEntryProto *e = oc_arena_alloc(m->arena, sizeof *e);
    Onnx__StringStringEntryProto **list =
        oc_arena_alloc(m->arena, (p->n_metadata_props + 1) * sizeof *list);
    char *k = oc_arena_strdup(m->arena, key);
    if (!e || !list || !k)
        return nomem(err);
    onnx__string_string_entry_proto__init(e);
    e->key = k;
    e->value = v;
    if (p->n_metadata_props)
        memcpy(list, p->metadata_props, p->n_metadata_props * sizeof *list);
    list[p->n_metadata_props++] = e;
    p->metadata_props = list;
    return OC_OK;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static oc_status write_all(int fd, const void *data, size_t size,
                           const char *path, oc_error *err)
{
    const unsigned char *p = data;
    while (size) {
        ssize_t w = write(fd, p, size);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return oc_error_set(err, OC_ERR_IO, NULL, "%s: write failed: %s",
                                path, strerror(errno));
        }
        p += w;
        size -= (size_t)w;
    }
    return OC_OK;
}

/* The file a write to `path` lands in: path itself, or the file its
 * symbolic links lead to (the links stay links; a dangling one is written
 * through, as a shell's > does).  *exists says whether it is there (then
 * *sb is its stat); anything there but a regular file is refused.  *real
 * is malloc'd. */
static oc_status output_target(const char *path, char **real, struct stat *sb,
                               bool *exists, oc_error *err)
{
    *real = NULL;
    *exists = false;
    if (!path[0])
        return oc_error_set(err, OC_ERR_IO, NULL, "an empty output path");
    char *cur = strdup(path);
    if (!cur)
        return nomem(err);
    for (int hops = 0;; hops++) {
        if (lstat(cur, sb) != 0) {
            if (errno == ENOENT) {
                *real = cur;
                return OC_OK;
            }
            oc_status st = oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot write: %s",
                                        path, strerror(errno));
            free(cur);
            return st;
        }
        if (!S_ISLNK(sb->st_mode))
            break;
        char to[4096];
        ssize_t n = hops < 40 ? readlink(cur, to, sizeof to - 1) : -1;
        if (n < 0 || n == (ssize_t)sizeof to - 1) {
            oc_status st = oc_error_set(err, OC_ERR_IO, NULL,
                                        "%s: cannot follow its symbolic link: %s", path,
                                        hops < 40 ? strerror(n < 0 ? errno : ENAMETOOLONG)
                                                  : strerror(ELOOP));
            free(cur);
            return st;
        }
        to[n] = '\0';
        /* A relative link is relative to the link's folder. */
        const char *slash = strrchr(cur, '/');
        size_t dl = to[0] != '/' && slash ? (size_t)(slash - cur) + 1 : 0;
        char *next = malloc(dl + (size_t)n + 1);
        if (!next) {
            free(cur);
            return nomem(err);
        }
        memcpy(next, cur, dl);
        memcpy(next + dl, to, (size_t)n + 1);
        free(cur);
        cur = next;
    }
    *exists = true;
    if (!S_ISREG(sb->st_mode)) {
        oc_status st = oc_error_set(err, OC_ERR_IO, NULL,
                                    "%s: is %s, not a regular file; refusing to "
                                    "write over it",
                                    path, oc_file_kind(sb->st_mode));
        free(cur);
        return st;
    }
    *real = cur;
    return OC_OK;
}

oc_status oc_check_output_path(const char *path, oc_error *err)
{
    char *real;
    struct stat sb;
    bool exists;
    oc_status st = output_target(path, &real, &sb, &exists, err);
    free(real);
    return st;
}

/* Copy the temporary (open as src, `size` bytes) over the file open as fd
 * in place (its inode, and so its other hard links, owner and permissions,
 * stay).  Room is reserved first: a full disk fails before a byte of the
 * old contents changes. */
static oc_status overwrite_in_place(int fd, off_t old_size, int src, size_t size,
                                    const char *path, bool *touched, oc_error *err)
{
    *touched = false;
    if (size > (size_t)old_size) {
        int e = posix_fallocate(fd, 0, (off_t)size);
        if (e != 0) {
            if (ftruncate(fd, old_size) != 0) { /* nothing else to do */
            }
            return oc_error_set(err, OC_ERR_IO, NULL, "%s: no room for %zu bytes: %s",
                                path, size, strerror(e));
        }
    }
    enum { CHUNK = 1 << 20 };
    unsigned char *buf = malloc(CHUNK);
    if (!buf)
        return nomem(err);
    *touched = true;
    oc_status st = OC_OK;
    size_t done = 0;
    while (done < size && !st) {
        size_t want = size - done < CHUNK ? size - done : CHUNK;
        ssize_t r = pread(src, buf, want, (off_t)done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            st = oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot read back the new contents: %s",
                              path, r < 0 ? strerror(errno) : "file shrank");
            break;
        }
        for (size_t w = 0; w < (size_t)r && !st;) {
            ssize_t k = pwrite(fd, buf + w, (size_t)r - w, (off_t)(done + w));
            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0)
                st = oc_error_set(err, OC_ERR_IO, NULL, "%s: write failed: %s", path,
                                  strerror(errno));
            else
                w += (size_t)k;
        }
        done += (size_t)r;
    }
    free(buf);
    if (st)
        return st;
    if (ftruncate(fd, (off_t)size) != 0)
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: truncate failed: %s", path,
                            strerror(errno));
    if (fsync(fd) != 0)
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: fsync failed: %s", path,
                            strerror(errno));
    return OC_OK;
}

/* What writes a file's contents to the temporary (open as fd). */
typedef oc_status (*emit_fn)(int fd, void *ctx, const char *path, oc_error *err);

typedef struct {
    const void *data;
    size_t size;
} mem_src;

static oc_status emit_mem(int fd, void *ctx, const char *path, oc_error *err)
{
    const mem_src *m = ctx;
    return write_all(fd, m->data, m->size, path, err);
}

/* The atomic writer (oc_write_file_atomic's contract) around any emitter
 * of the contents. */
static oc_status write_atomic(const char *path, emit_fn emit, void *ctx, oc_error *err)
{
    char *real;
    struct stat sb;
    bool exists;
    oc_status st = output_target(path, &real, &sb, &exists, err);
    if (st)
        return st;
    /* The temporary beside the real file (a rename stays in one file
     * system), with a short name: any name that fits the target's folder
     * fits it. */
    const char *slash = strrchr(real, '/');
    size_t dl = slash ? (size_t)(slash - real) + 1 : 0;
    char *tmp = malloc(dl + 16);
    if (!tmp) {
        free(real);
        return nomem(err);
    }
    memcpy(tmp, real, dl);
    memcpy(tmp + dl, ".oc-XXXXXX", 11);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        st = oc_error_set(err, OC_ERR_IO, NULL,
                          "%s: cannot create a temporary file beside it: %s", path,
                          strerror(errno));
        free(tmp);
        free(real);
        return st;
    }
    mode_t mode;
    if (exists) {
        mode = sb.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    st = emit(fd, ctx, path, err);
    if (!st && fchmod(fd, mode) != 0)
        st = oc_error_set(err, OC_ERR_IO, NULL, "%s: chmod failed: %s", path,
                          strerror(errno));
    /* Someone else's file keeps its owner where we may give it (root). */
    if (!st && exists && (sb.st_uid != geteuid() || sb.st_gid != getegid()) &&
        fchown(fd, sb.st_uid, sb.st_gid) != 0) { /* best effort */
    }
    if (!st && fsync(fd) != 0)
        st = oc_error_set(err, OC_ERR_IO, NULL, "%s: fsync failed: %s", path,
                          strerror(errno));
    bool keep_tmp = false;
    if (!st && exists && sb.st_nlink > 1) {
        /* A rename would cut the file from its other names: copy the
         * contents over it instead, the temporary kept until that is done. */
        int ofd = open(real, O_WRONLY | O_NOCTTY | O_NONBLOCK);
        struct stat now;
        bool touched = false;
        if (ofd < 0 || fstat(ofd, &now) != 0)
            st = oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot open for writing: %s",
                              path, strerror(errno));
        else if (now.st_dev != sb.st_dev || now.st_ino != sb.st_ino || !S_ISREG(now.st_mode))
            st = oc_error_set(err, OC_ERR_IO, NULL, "%s: changed while being written",
                              path);
        else {
            struct stat ts;
            if (fstat(fd, &ts) != 0)
                st = oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot stat its temporary: %s",
                                  path, strerror(errno));
            else
                st = overwrite_in_place(ofd, now.st_size, fd, (size_t)ts.st_size, path,
                                        &touched, err);
        }
        if (ofd >= 0 && close(ofd) != 0 && !st)
            st = oc_error_set(err, OC_ERR_IO, NULL, "%s: close failed: %s", path,
                              strerror(errno));
        if (st && touched) {
            /* The old contents are partly gone: the new ones stay whole. */
            keep_tmp = true;
            size_t l = strlen(err ? err->msg : "");
            if (err && l + 30 < sizeof err->msg)
                snprintf(err->msg + l, sizeof err->msg - l, " (the new contents are in %s)",
                         tmp);
        }
        if (!st)
            unlink(tmp);
    }
    if (close(fd) != 0 && !st)
        st = oc_error_set(err, OC_ERR_IO, NULL, "%s: close failed: %s", path,
                          strerror(errno));
    if (!st && !(exists && sb.st_nlink > 1) && rename(tmp, real) != 0) {
        st = oc_error_set(err, OC_ERR_IO, NULL, "%s: rename failed: %s", path,
                          strerror(errno));
    }
    if (st && !keep_tmp)
        unlink(tmp);
    if (!st) {
        /* The rename itself made durable. */
        tmp[dl] = '\0';
        int dfd = open(dl ? tmp : ".", O_RDONLY | O_NOCTTY);
        if (dfd >= 0) {
            if (fsync(dfd) != 0) { /* not every file system can */
            }
            close(dfd);
        }
    }
    free(tmp);
    free(real);
    return st;
}

oc_status oc_write_file_atomic(const char *path, const void *data, size_t size,
                               oc_error *err)
{
    mem_src m = {data, size};
    return write_atomic(path, emit_mem, &m, err);
}

/* protobuf-c's output, written as it is packed: the bytes fields that
 * point into the model's mapped file (the weights) go from the mapping
 * to the file a piece at a time, each piece's pages dropped once written,
 * so that saving costs the graph's size in memory, not the weights'. */
typedef struct {
    ProtobufCBuffer base;
    int fd;
    const char *path;
    oc_error *err;
    oc_status st;
    unsigned char *buf; /* staging for small appends and deflate's output */
    size_t len;
    bool gz;
    z_stream zs;
    const unsigned char *map; /* the model's mapping, or NULL */
    size_t map_size;
} sink;

enum { SINK_BUF = 1 << 20, SINK_PIECE = 16 << 20 };

static void sink_flush(sink *s)
{
    if (!s->st && s->len)
        s->st = write_all(s->fd, s->buf, s->len, s->path, s->err);
    s->len = 0;
}

/* The mapping's pages under [p, p + n): read again from the file if ever
 * needed (a read-only private mapping holds nothing else). */
static void sink_drop(const sink *s, const unsigned char *p, size_t n)
{
    if (!s->map || p < s->map || p >= s->map + s->map_size)
        return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return;
    uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(page - 1);
    uintptr_t end = (uintptr_t)p + n, map_end = (uintptr_t)s->map + s->map_size;
    if (end > map_end)
        end = map_end;
    if (madvise((void *)lo, end - lo, MADV_DONTNEED) != 0) { /* only memory */
    }
}

static void sink_deflate(sink *s, const unsigned char *p, size_t n, int flush)
{
    s->zs.next_in = (unsigned char *)p;
    s->zs.avail_in = (unsigned)n;
    int rc;
    do {
        s->zs.next_out = s->buf + s->len;
        s->zs.avail_out = (unsigned)(SINK_BUF - s->len);
        rc = deflate(&s->zs, flush);
        s->len = SINK_BUF - s->zs.avail_out;
        if (s->len == SINK_BUF)
            sink_flush(s);
        if (rc == Z_STREAM_ERROR) {
            if (!s->st)
                s->st = oc_error_set(s->err, OC_ERR_INTERNAL, NULL,
                                     "%s: zlib compression failed", s->path);
            return;
        }
    } while (!s->st && (s->zs.avail_in || (flush == Z_FINISH && rc != Z_STREAM_END)));
}

static void sink_append(ProtobufCBuffer *b, size_t n, const uint8_t *data)
{
    sink *s = (sink *)b;
    while (n && !s->st) {
        size_t piece = n < SINK_PIECE ? n : SINK_PIECE;
        if (s->gz) {
            sink_deflate(s, data, piece, Z_NO_FLUSH);
        } else if (piece >= SINK_BUF / 4) {
            sink_flush(s);
            if (!s->st)
                s->st = write_all(s->fd, data, piece, s->path, s->err);
        } else {
            if (s->len + piece > SINK_BUF)
                sink_flush(s);
            memcpy(s->buf + s->len, data, piece);
            s->len += piece;
        }
        if (piece >= SINK_BUF / 4)
            sink_drop(s, data, piece);
        data += piece;
        n -= piece;
    }
}

static oc_status emit_model(int fd, void *ctx, const char *path, oc_error *err)
{
    const oc_model *m = ctx;
    sink s = {.base = {.append = sink_append}, .fd = fd, .path = path, .err = err,
              .gz = ends_with(path, ".gz"), .map = m->map, .map_size = m->map_size};
    s.buf = malloc(SINK_BUF);
    if (!s.buf)
        return nomem(err);
    if (s.gz && deflateInit2(&s.zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
                    Z_OK) {
        free(s.buf);
        return oc_error_set(err, OC_ERR_INTERNAL, NULL, "zlib init failed");
    }
    size_t want = onnx__model_proto__get_packed_size(m->proto);
    size_t packed = onnx__model_proto__pack_to_buffer(m->proto, &s.base);
    if (s.gz) {
        sink_deflate(&s, NULL, 0, Z_FINISH);
        deflateEnd(&s.zs);
    }
    sink_flush(&s);
    free(s.buf);
    if (!s.st && packed != want)
        s.st = oc_error_set(err, OC_ERR_INTERNAL, NULL,
                            "%s: protobuf packing wrote %zu of %zu bytes", path, packed,
                            want);
    return s.st;
}

oc_status oc_model_save(const oc_model *m, const char *path, oc_error *err)
{
    return write_atomic(path, emit_model, (void *)m, err);
}
