/*
 * calibrate.h - the fits of 'onnxcost calibrate' beyond predictor/calib.c:
 * the base timing model it corrects, and the in-graph scale and output
 * cost at one thread count from the whole-network runs (anchors.h).
 */
#ifndef OC_TRAINING_CALIBRATE_H
#define OC_TRAINING_CALIBRATE_H

#include "predictor/calib.h"
#include "predictor/tmodel.h"
#include "training/anchors.h"

/* The base model: the file `path` (a file of format 3 or 4 with the
 * built-in's in-graph fit when it is the built-in model), else (path
 * NULL) the built-in model of `target`. */
oc_status oc_calib_load_base(const char *path, const char *target, oc_tmodel **tm,
                             oc_error *err);

/* The rate at which cal's machine streams a graph's weights, stored in
 * every fit of cal (stream_gbps): from the hardware profile at hw_path
 * ('onnxcost hw -o FILE'; it must be of cal's machine), else (hw_path
 * NULL) measured now when `measure` and cal is of this machine (`here`),
 * else left unknown (*unknown set).  Errors: OC_ERR_IO (the file
 * unreadable), OC_ERR_INPUT (not a hardware profile, or another
 * machine's). */
oc_status oc_calib_set_stream(oc_calib *cal, const char *hw_path, bool measure,
                              const char *here, bool *unknown, oc_error *err);

/* The in-graph scale and the output cost of cal's fit at `threads` from
 * the anchor runs there (none: nothing to do), each network predicted by
 * the base model with cal applied.  Errors: those of loading the base
 * model and the anchor networks (OC_ERR_INPUT), of the fits. */
oc_status oc_calib_fit_anchors(const char *base_path, oc_calib *cal, const char *target,
                               int64_t threads, const oc_anchor_set *as, oc_error *err);

#endif
