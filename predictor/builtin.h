/*
 * builtin.h - the timing models built into the library (generated at build
 * time by tools/embed_models.c from data/<target>.tmodel, which carries
 * its in-graph fit and coverage, and the shipped calibrations).  Read them
 * through estimate.h.
 */
#ifndef OC_PREDICTOR_BUILTIN_H
#define OC_PREDICTOR_BUILTIN_H

#include <stddef.h>
#include <stdint.h>

typedef struct oc_builtin_tmodel {
    const char *target;           /* "ort-cpu"; NULL ends the table */
    uint32_t version, n_features; /* from the file's header */
    const unsigned char *payload; /* inflated, CRC-checked at build time */
    size_t size;
} oc_builtin_tmodel;

extern const oc_builtin_tmodel oc_builtin_tmodels[];
extern const size_t oc_n_builtin_tmodels;

/* The calibrations of the machines this project measured
 * (data/machines/<fingerprint>/TARGET-MODE-calibration.json): the text of each. */
typedef struct oc_builtin_calib {
    const char *path; /* relative to data/, for messages */
    const char *json;
} oc_builtin_calib;

extern const oc_builtin_calib oc_builtin_calibs[];
extern const size_t oc_n_builtin_calibs;

#endif
