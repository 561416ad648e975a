/*
 * dataset.h - the collector's dataset: gzip-compressed JSON Lines, one
 * sample per line (docs/dataset.md), grown by appending whole chunks.
 *
 *     // append one chunk of lines (each a JSON text without a newline)
 *     oc_dataset_append("data/ort-cpu.jsonl.gz", lines, n, &err);
 *
 *     // read it back
 *     oc_dataset_reader *r;
 *     if (oc_dataset_open(path, &r, &err) != OC_OK) ...
 *     const char *line; size_t len;
 *     while ((st = oc_dataset_next(r, &line, &len, &err)) == OC_OK && line)
 *         ... json_loadb(line, len, 0, NULL) ...
 *     oc_dataset_close(r);
 *
 * Each chunk is one gzip member (gzip readers - zcat, Python's gzip - read
 * concatenated members as one stream).  An append is one write() followed
 * by fsync(), so after a crash the file holds every earlier chunk intact
 * plus at most one cut-off member at its end.  The reader yields the lines
 * of a member only once the whole member has been read and its CRC checked,
 * so a cut-off member contributes nothing; oc_dataset_ids() reports it and
 * oc_dataset_truncate() removes it before the next append.
 */
#ifndef OC_PREDICTOR_DATASET_H
#define OC_PREDICTOR_DATASET_H

#include <jansson.h>

#include "onnx/common.h"

/* Flags for json_dumps() of dataset lines: compact, keys in insertion
 * order, 9 significant digits (float32 attributes print as written). */
#define OC_DATASET_JSON_FLAGS                                                 \
    (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9))

/* Append lines[0..n) as one gzip member.  The member is first written to
 * a temporary file beside the dataset ("PATH.chunk.XXXXXX", fsync'd), then
 * appended to PATH (created if absent) with one write and an fsync, then
 * the temporary file is removed.  On a failed append the dataset is cut
 * back to its old size and the temporary file is kept (err names it).
 * Lines must not contain a newline.  Errors: OC_ERR_IO, OC_ERR_NOMEM,
 * OC_ERR_USAGE (a line with a newline). */
oc_status oc_dataset_append(const char *path, const char *const *lines, size_t n,
                            oc_error *err);

typedef struct oc_dataset_reader oc_dataset_reader;

/* Open for reading.  Errors: OC_ERR_IO (missing, unreadable). */
oc_status oc_dataset_open(const char *path, oc_dataset_reader **out, oc_error *err);

/* The next line (without its newline, NUL-terminated, valid until the next
 * call) in *line and its length in *len; *line = NULL at the end.  A member
 * cut off at the end of the file ends the stream without an error (see
 * oc_dataset_cut_off()).  Errors: OC_ERR_INPUT (not gzip, a corrupt
 * member, a member not ending with a newline), OC_ERR_IO, OC_ERR_NOMEM. */
oc_status oc_dataset_next(oc_dataset_reader *r, const char **line, size_t *len,
                          oc_error *err);

/* Bytes of the file made of complete members read so far. */
uint64_t oc_dataset_good_size(const oc_dataset_reader *r);
/* After the end was reached: whether a cut-off member followed the last
 * complete one. */
bool oc_dataset_cut_off(const oc_dataset_reader *r);
/* Lines yielded so far. */
uint64_t oc_dataset_lines(const oc_dataset_reader *r);

void oc_dataset_close(oc_dataset_reader *r); /* NULL is accepted */

/* The sample ids of a dataset, sorted, for resuming a collection. */
typedef struct oc_idset {
    char **ids;
    size_t n;
} oc_idset;

/* Read every line's "id".  A missing file is an empty dataset.  *good_size
 * and *cut_off (either may be NULL) as for the reader.  Errors: as for
 * oc_dataset_next, plus OC_ERR_INPUT for a line that is not a JSON object
 * with a string "id" (the message gives the line number). */
oc_status oc_dataset_ids(const char *path, oc_idset *out, uint64_t *good_size,
                         bool *cut_off, oc_error *err);
bool oc_idset_has(const oc_idset *s, const char *id);
void oc_idset_free(oc_idset *s);

/* Cut the file back to `size` bytes (removing a cut-off member). */
oc_status oc_dataset_truncate(const char *path, uint64_t size, oc_error *err);

/* Hold an exclusive advisory lock (fcntl) on PATH.lock for as long as the
 * process keeps *fd open, so that two collectors cannot append to the same
 * dataset at once.  Errors: OC_ERR_IO (held by another process: the message
 * says so). */
oc_status oc_dataset_lock(const char *path, int *fd, oc_error *err);

#endif
