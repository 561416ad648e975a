/*
 * dataset.c - gzip JSON Lines datasets, appended one member per chunk.
 */
#include "predictor/dataset.h"
#include "onnx/model.h"

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

static oc_status write_all(int fd, const void *data, size_t n, const char *path,
                           oc_error *err)
{
    const unsigned char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return oc_error_set(err, OC_ERR_IO, NULL, "%s: write failed: %s", path,
                                w < 0 ? strerror(errno) : "no progress");
        p += w;
        n -= (size_t)w;
    }
    return OC_OK;
}

/* ---- appending ---- */

static oc_status gzip_lines(const char *const *lines, size_t n, unsigned char **out,
                            size_t *out_len, oc_error *err)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (strchr(lines[i], '\n'))
            return oc_error_set(err, OC_ERR_USAGE, NULL,
                                "dataset line %zu contains a newline", i + 1);
        total += strlen(lines[i]) + 1;
    }
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return oc_error_set(err, OC_ERR_INTERNAL, NULL, "zlib: deflateInit failed");
    size_t cap = deflateBound(&zs, total) + 64;
    unsigned char *buf = malloc(cap);
    if (!buf) {
        deflateEnd(&zs);
        return nomem(err);
    }
    zs.next_out = buf;
    zs.avail_out = (uInt)cap;
    for (size_t i = 0; i <= n; i++) {
        /* each line, then its newline; one Z_FINISH at the end */
        const char *s = i < n ? lines[i] : "";
        size_t len = strlen(s);
        for (int part = 0; part < 2; part++) {
            zs.next_in = (Bytef *)(part ? (const Bytef *)"\n" : (const Bytef *)s);
            zs.avail_in = (uInt)(part ? (i < n) : len);
            int flush = (i == n && part == 1) ? Z_FINISH : Z_NO_FLUSH;
            int rc = deflate(&zs, flush);
            if (rc == Z_STREAM_ERROR || (flush == Z_FINISH && rc != Z_STREAM_END) ||
                zs.avail_in) {
                deflateEnd(&zs);
                free(buf);
                return oc_error_set(err, OC_ERR_INTERNAL, NULL, "zlib: deflate failed");
            }
        }
    }
    *out_len = cap - zs.avail_out;
    deflateEnd(&zs);
    *out = buf;
    return OC_OK;
}

oc_status oc_dataset_append(const char *path, const char *const *lines, size_t n,
                            oc_error *err)
{
    unsigned char *gz = NULL;
    size_t gz_len = 0;
    oc_status st = gzip_lines(lines, n, &gz, &gz_len, err);
    if (st)
        return st;

    /* Only to a regular file (or a new one): a FIFO or device would block
     * or swallow the chunk. */
    if ((st = oc_check_output_path(path, err))) {
        free(gz);
        return st;
    }
    /* 1. the member, durable in a file of its own, beside the dataset with
     * a short name (whatever name fits the folder, it does) */
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    char *tmp = malloc(dl + 20);
    if (!tmp) {
        free(gz);
        return nomem(err);
    }
    snprintf(tmp, dl + 20, "%.*s.oc-chunk-XXXXXX", (int)dl, path);
    int tfd = mkstemp(tmp);
    if (tfd < 0) {
        st = oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot create a file beside it: %s",
                          path, strerror(errno));
        free(tmp);
        free(gz);
        return st;
    }
    st = write_all(tfd, gz, gz_len, tmp, err);
    if (!st && fsync(tfd) != 0)
        st = oc_error_set(err, OC_ERR_IO, NULL, "%s: fsync failed: %s", tmp,
                          strerror(errno));
    if (close(tfd) != 0 && !st)
        st = oc_error_set(err, OC_ERR_IO, NULL, "%s: close failed: %s", tmp,
                          strerror(errno));
    if (st) {
        unlink(tmp);
        free(tmp);
        free(gz);
        return st;
    }

    /* 2. appended whole: one write, then fsync */
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        st = oc_error_set(err, OC_ERR_IO, NULL,
                          "%s: cannot open for appending: %s "
                          "(the chunk is kept in %s)",
                          path, strerror(errno), tmp);
        if (fd >= 0)
            close(fd);
        free(tmp);
        free(gz);
        return st;
    }
    st = write_all(fd, gz, gz_len, path, err);
    if (!st && fsync(fd) != 0)
        st = oc_error_set(err, OC_ERR_IO, NULL, "%s: fsync failed: %s", path,
                          strerror(errno));
    if (st) {
        /* No half chunk left behind: cut back to the old end. */
        if (ftruncate(fd, sb.st_size) == 0)
            fsync(fd);
        size_t l = strlen(err ? err->msg : "");
        if (err && l + 40 < sizeof err->msg)
            snprintf(err->msg + l, sizeof err->msg - l, " (the chunk is kept in %s)",
                     tmp);
    }
    if (close(fd) != 0 && !st)
        st = oc_error_set(err, OC_ERR_IO, NULL, "%s: close failed: %s", path,
                          strerror(errno));
    if (!st)
        unlink(tmp);
    free(tmp);
    free(gz);
    return st;
}

/* ---- reading ---- */

enum { IN_BUF = 1 << 16 };

struct oc_dataset_reader {
    char *path;
    int fd;
    z_stream zs;
    bool zinit, eof, done, cut_off, in_member;
    unsigned char *in;
    uint64_t consumed;  /* file bytes handed to inflate and used */
    uint64_t good_size; /* end of the last complete member */
    char *text;         /* the current member's text */
    size_t len, cap, pos;
    uint64_t lines;
};

oc_status oc_dataset_open(const char *path, oc_dataset_reader **out, oc_error *err)
{
    *out = NULL;
    oc_dataset_reader *r = calloc(1, sizeof *r);
    if (!r)
        return nomem(err);
    r->fd = -1;
    r->path = strdup(path);
    r->in = malloc(IN_BUF);
    if (!r->path || !r->in) {
        oc_dataset_close(r);
        return nomem(err);
    }
    r->fd = open(path, O_RDONLY);
    if (r->fd < 0) {
        oc_status st =
            oc_error_set(err, OC_ERR_IO, NULL, "%s: %s", path, strerror(errno));
        oc_dataset_close(r);
        return st;
    }
    if (inflateInit2(&r->zs, 16 + MAX_WBITS) != Z_OK) {
        oc_dataset_close(r);
        return oc_error_set(err, OC_ERR_INTERNAL, NULL, "zlib: inflateInit failed");
    }
    r->zinit = true;
    *out = r;
    return OC_OK;
}

void oc_dataset_close(oc_dataset_reader *r)
{
    if (!r)
        return;
    if (r->zinit)
        inflateEnd(&r->zs);
    if (r->fd >= 0)
        close(r->fd);
    free(r->path);
    free(r->in);
    free(r->text);
    free(r);
}

uint64_t oc_dataset_good_size(const oc_dataset_reader *r)
{
    return r->good_size;
}
bool oc_dataset_cut_off(const oc_dataset_reader *r)
{
    return r->cut_off;
}
uint64_t oc_dataset_lines(const oc_dataset_reader *r)
{
    return r->lines;
}

/* Inflate the next whole member into r->text.  Returns OC_OK with r->done
 * set at the end of the file. */
static oc_status read_member(oc_dataset_reader *r, oc_error *err)
{
    r->len = r->pos = 0;
    r->in_member = false;
    for (;;) {
        if (r->zs.avail_in == 0 && !r->eof) {
            ssize_t n;
            do
                n = read(r->fd, r->in, IN_BUF);
            while (n < 0 && errno == EINTR);
            if (n < 0)
                return oc_error_set(err, OC_ERR_IO, NULL, "%s: read failed: %s", r->path,
                                    strerror(errno));
            if (n == 0)
                r->eof = true;
            r->zs.next_in = r->in;
            r->zs.avail_in = (uInt)n;
        }
        if (r->zs.avail_in == 0 && r->eof) {
            r->done = true;
            r->cut_off = r->in_member;
            r->len = 0;
            return OC_OK;
        }
        if (r->cap - r->len < IN_BUF) {
            size_t cap = r->cap ? r->cap * 2 : 4 * IN_BUF;
            char *t = realloc(r->text, cap);
            if (!t)
                return nomem(err);
            r->text = t;
            r->cap = cap;
        }
        uInt before = r->zs.avail_in;
        r->zs.next_out = (Bytef *)r->text + r->len;
        r->zs.avail_out = (uInt)(r->cap - r->len - 1);
        size_t out_before = r->zs.avail_out;
        int rc = inflate(&r->zs, Z_NO_FLUSH);
        r->consumed += before - r->zs.avail_in;
        r->len += out_before - r->zs.avail_out;
        if (before != r->zs.avail_in || out_before != r->zs.avail_out)
            r->in_member = true;
        if (rc == Z_STREAM_END) {
            r->good_size = r->consumed;
            inflateReset(&r->zs);
            r->in_member = false;
            if (r->len && r->text[r->len - 1] != '\n')
                return oc_error_set(err, OC_ERR_INPUT, NULL,
                                    "%s: a chunk ending at byte %llu does not end with "
                                    "a newline",
                                    r->path, (unsigned long long)r->good_size);
            if (r->len)
                return OC_OK;
            continue; /* an empty member */
        }
        if (rc == Z_BUF_ERROR && r->zs.avail_in == 0 && !r->eof)
            continue;
        if (rc == Z_BUF_ERROR && r->zs.avail_in == 0 && r->eof) {
            r->done = true;
            r->cut_off = true;
            r->len = 0;
            return OC_OK;
        }
        if (rc != Z_OK)
            return oc_error_set(err, OC_ERR_INPUT, NULL,
                                "%s: not a gzip dataset or corrupt after byte %llu (%s)",
                                r->path, (unsigned long long)r->good_size,
                                r->zs.msg ? r->zs.msg : "zlib error");
    }
}

oc_status oc_dataset_next(oc_dataset_reader *r, const char **line, size_t *len,
                          oc_error *err)
{
    *line = NULL;
    *len = 0;
    while (r->pos >= r->len) {
        if (r->done)
            return OC_OK;
        oc_status st = read_member(r, err);
        if (st) {
            r->done = true;
            return st;
        }
    }
    char *s = r->text + r->pos;
    char *nl = memchr(s, '\n', r->len - r->pos);
    /* read_member guarantees the member ends with '\n' */
    *nl = '\0';
    *line = s;
    *len = (size_t)(nl - s);
    r->pos += *len + 1;
    r->lines++;
    return OC_OK;
}

/* ---- ids ---- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

oc_status oc_dataset_ids(const char *path, oc_idset *out, uint64_t *good_size,
                         bool *cut_off, oc_error *err)
{
    out->ids = NULL;
    out->n = 0;
    if (good_size)
        *good_size = 0;
    if (cut_off)
        *cut_off = false;
    if (access(path, F_OK) != 0 && errno == ENOENT)
        return OC_OK;
    oc_dataset_reader *r;
    oc_status st = oc_dataset_open(path, &r, err);
    if (st)
        return st;
    size_t cap = 0;
    const char *line;
    size_t len;
    while ((st = oc_dataset_next(r, &line, &len, err)) == OC_OK && line) {
        json_t *j = json_loadb(line, len, 0, NULL);
        const json_t *id = json_object_get(j, "id");
        if (!json_is_string(id)) {
            json_decref(j);
            st = oc_error_set(err, OC_ERR_INPUT, NULL,
                              "%s: line %llu is not a JSON object with a string \"id\"",
                              path, (unsigned long long)oc_dataset_lines(r));
            break;
        }
        if (out->n == cap) {
            cap = cap ? cap * 2 : 1024;
            char **v = realloc(out->ids, cap * sizeof *v);
            if (!v) {
                json_decref(j);
                st = nomem(err);
                break;
            }
            out->ids = v;
        }
        out->ids[out->n] = strdup(json_string_value(id));
        json_decref(j);
        if (!out->ids[out->n]) {
            st = nomem(err);
            break;
        }
        out->n++;
    }
    if (good_size)
        *good_size = oc_dataset_good_size(r);
    if (cut_off)
        *cut_off = oc_dataset_cut_off(r);
    oc_dataset_close(r);
    if (st) {
        oc_idset_free(out);
        return st;
    }
    if (out->n)
        qsort(out->ids, out->n, sizeof *out->ids, cmp_str);
    return OC_OK;
}

bool oc_idset_has(const oc_idset *s, const char *id)
{
    return s->n && bsearch(&id, s->ids, s->n, sizeof *s->ids, cmp_str) != NULL;
}

void oc_idset_free(oc_idset *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->ids[i]);
    free(s->ids);
    s->ids = NULL;
    s->n = 0;
}

oc_status oc_dataset_truncate(const char *path, uint64_t size, oc_error *err)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return oc_error_set(err, OC_ERR_IO, NULL, "%s: %s", path, strerror(errno));
    oc_status st = OC_OK;
    if (ftruncate(fd, (off_t)size) != 0 || fsync(fd) != 0)
        st = oc_error_set(err, OC_ERR_IO, NULL, "%s: cannot truncate: %s", path,
                          strerror(errno));
    close(fd);
    return st;
}

oc_status oc_dataset_lock(const char *path, int *fd, oc_error *err)
{
    oc_status cst = oc_check_output_path(path, err);
    if (cst)
        return cst;
    size_t pl = strlen(path);
    char *lp = malloc(pl + 24);
    if (!lp)
        return nomem(err);
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    if (pl - dl + 5 <= 255) {
        snprintf(lp, pl + 24, "%s.lock", path);
    } else {
        /* PATH.lock would not be a legal name: its first 200 bytes and a
         * hash of the whole name (FNV-1a), so that it still names one file */
        uint64_t h = oc_hash_str(path + dl);
        snprintf(lp, pl + 24, "%.*s-%08x.lock", (int)(dl + 200), path, (unsigned)(h ^ (h >> 32)));
    }
    int f = open(lp, O_RDWR | O_CREAT, 0644);
    if (f < 0) {
        oc_status st = oc_error_set(err, OC_ERR_IO, NULL, "%s: %s", lp, strerror(errno));
        free(lp);
        return st;
    }
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fcntl(f, F_SETLK, &fl) != 0) {
        oc_status st = oc_error_set(err, OC_ERR_IO, NULL,
                                    "%s: another collector is writing this dataset "
                                    "(%s is locked)",
                                    path, lp);
        close(f);
        free(lp);
        return st;
    }
    free(lp);
    *fd = f;
    return OC_OK;
}
