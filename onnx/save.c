/*
 * save.c - annotations and writing a model back, atomically.
 */
#include "onnx/model-impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static oc_status nomem(oc_error *err)
{
    return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
}

static oc_status node_at(oc_model *m, size_t node, Onnx__NodeProto **out,
                         oc_error *err)
{
    Onnx__GraphProto *g = m->proto->graph;
    if (node >= g->n_node)
        return oc_error_set(err, OC_ERR_INTERNAL, NULL, "node %zu out of range",
                            node);
    *out = g->node[node];
    return OC_OK;
}

oc_status oc_model_node_append_doc(oc_model *m, size_t node, const char *line,
                                   oc_error *err)
{
    Onnx__NodeProto *n = NULL;
    oc_status st = node_at(m, node, &n, err);
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
    Onnx__NodeProto *n = NULL;
    oc_status st = node_at(m, node, &n, err);
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

/* Write data over the file open as fd in place (its inode, and so its
 * other hard links, owner and permissions, stay).  Room is reserved
 * first: a full disk fails before a byte of the old contents changes. */
static oc_status overwrite_in_place(int fd, off_t old_size, const void *data, size_t size,
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
    *touched = true;
    const unsigned char *p = data;
    size_t done = 0;
    while (done < size) {
        ssize_t w = pwrite(fd, p + done, size - done, (off_t)done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return oc_error_set(err, OC_ERR_IO, NULL, "%s: write failed: %s", path,
                                strerror(errno));
        done += (size_t)w;
    }
    if (ftruncate(fd, (off_t)size) != 0)
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: truncate failed: %s", path,
                            strerror(errno));
    if (fsync(fd) != 0)
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: fsync failed: %s", path,
                            strerror(errno));
    return OC_OK;
}

oc_status oc_write_file_atomic(const char *path, const void *data, size_t size,
                               oc_error *err)
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
    st = write_all(fd, data, size, path, err);
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
    if (close(fd) != 0 && !st)
        st = oc_error_set(err, OC_ERR_IO, NULL, "%s: close failed: %s", path,
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
        else
            st = overwrite_in_place(ofd, now.st_size, data, size, path, &touched, err);
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
    } else if (!st && rename(tmp, real) != 0) {
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

static oc_status gzip_buffer(const uint8_t *in, size_t n, uint8_t **out,
                             size_t *out_len, oc_error *err)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return oc_error_set(err, OC_ERR_INTERNAL, NULL, "zlib init failed");
    size_t cap = deflateBound(&zs, n) + 64;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        deflateEnd(&zs);
        return nomem(err);
    }
    zs.next_in = (uint8_t *)in;
    zs.next_out = buf;
    size_t in_left = n, out_left = cap;
    int rc;
    do {
        if (!zs.avail_in && in_left) {
            zs.avail_in = in_left > (1u << 30) ? (1u << 30) : (unsigned)in_left;
            in_left -= zs.avail_in;
        }
        if (!zs.avail_out) {
            zs.avail_out = out_left > (1u << 30) ? (1u << 30) : (unsigned)out_left;
            out_left -= zs.avail_out;
        }
        rc = deflate(&zs, in_left || zs.avail_in ? Z_NO_FLUSH : Z_FINISH);
    } while (rc == Z_OK || rc == Z_BUF_ERROR);
    size_t len = zs.total_out;
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) {
        free(buf);
        return oc_error_set(err, OC_ERR_INTERNAL, NULL, "zlib compression failed");
    }
    *out = buf;
    *out_len = len;
    return OC_OK;
}

oc_status oc_model_save(const oc_model *m, const char *path, oc_error *err)
{
    size_t n = onnx__model_proto__get_packed_size(m->proto);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf)
        return nomem(err);
    size_t packed = onnx__model_proto__pack(m->proto, buf);
    if (packed != n) {
        free(buf);
        return oc_error_set(err, OC_ERR_INTERNAL, NULL,
                            "%s: protobuf packing wrote %zu of %zu bytes", path,
                            packed, n);
    }
    oc_status st;
    if (ends_with(path, ".gz")) {
        uint8_t *gz = NULL;
        size_t gz_len = 0;
        st = gzip_buffer(buf, n, &gz, &gz_len, err);
        free(buf);
        if (st)
            return st;
        buf = gz;
        n = gz_len;
    }
    st = oc_write_file_atomic(path, buf, n, err);
    free(buf);
    return st;
}
