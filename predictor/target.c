/* target.c - the target a prediction speaks for: a timing model, the
 * calibration that fits it to a machine, and the machine it then speaks
 * for (moved from the command so that the API chooses the same way). */
#include "predictor/target.h"
#include "predictor/targets.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool predicts_training(const oc_tmodel *tm)
{
    return (oc_tmodel_get_info(tm)->optimizers & ~(1u << OC_OPT_NONE)) != 0;
}

/* The runtime part of a cache file name: "onnxruntime-node_1.30.0". */
static void sanitize(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        out[k++] = (char)((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                                  (*s >= '0' && *s <= '9') || *s == '.' || *s == '-'
                              ? *s
                              : '_');
    out[k] = '\0';
}

void oc_this_machine(oc_machine *m)
{
    oc_machine_detect(m);
    const char *id = getenv("ONNXCOST_MACHINE");
    if (id && *id)
        snprintf(m->id, sizeof m->id, "%s", id);
    const char *isa = getenv("ONNXCOST_ISA");
    if (isa)
        m->isa = oc_isa_bits_from_flags(isa);
}

int oc_cache_dir(char *buf, size_t n)
{
    const char *x = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int w;
    if (x && x[0] == '/')
        w = snprintf(buf, n, "%s/onnxcost", x);
    else if (home && home[0])
        w = snprintf(buf, n, "%s/.cache/onnxcost", home);
    else
        return -1;
    return w > 0 && (size_t)w < n ? 0 : -1;
}

int oc_calib_cache_path(const char *machine, const char *target, const char *runtime,
                        const char *mode, char *buf, size_t n)
{
    char dir[4096], rt[96], fp[64];
    if (oc_cache_dir(dir, sizeof dir))
        return -1;
    sanitize(runtime, rt, sizeof rt);
    sanitize(machine, fp, sizeof fp);
    int w = snprintf(buf, n, "%s/%s-%s-%s-%s.json", dir, fp, target, rt, mode);
    return w > 0 && (size_t)w < n ? 0 : -1;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether the file looks like JSON (a calibration) rather than a timing
 * model: its first non-blank byte is '{'. */
static bool is_json_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    int ch = ' ';
    while (f && (ch = fgetc(f)) != EOF && (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r'))
        ;
    if (f)
        fclose(f);
    return ch == '{';
}

/* "ort-cpu@cpu-AuthenticAMD-f26-m2": a shipped calibration. */
static int find_builtin_calib(const char *name, const char *mode, oc_calib *c)
{
    oc_error err;
    for (size_t i = 0; i < oc_builtin_calib_count(); i++) {
        oc_error_clear(&err);
        if (oc_builtin_calib_get(i, c, NULL, &err) != OC_OK)
            continue;
        char nm[160];
        snprintf(nm, sizeof nm, "%s@%s", c->target, c->machine.id);
        if (!strcmp(nm, name) && (!mode || !strcmp(c->mode, mode)))
            return 0;
    }
    return -1;
}

static int popcount(unsigned v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

int oc_calib_nearest_builtin(const oc_machine *here, const char *target, const char *mode,
                             oc_calib *out)
{
    int block = oc_machine_nchwc_block(here), best_key = -1;
    oc_calib c;
    oc_error err;
    for (size_t i = 0; i < oc_builtin_calib_count(); i++) {
        oc_error_clear(&err);
        if (oc_builtin_calib_get(i, &c, NULL, &err) != OC_OK || strcmp(c.target, target) ||
            strcmp(c.mode, mode) || oc_machine_nchwc_block(&c.machine) != block)
            continue;
        /* fewer ISA features apart first, then the vendor, then the cores */
        int key = (OC_ISA_COUNT - popcount(c.machine.isa ^ here->isa)) * 4 +
                  2 * !strcmp(c.machine.vendor, here->vendor) + (c.machine.cores == here->cores);
        if (key > best_key) {
            best_key = key;
            *out = c;
        }
    }
    return best_key >= 0 ? 0 : -1;
}

static void warn_to(size_t *n, char (*w)[1024], const char *fmt, va_list ap)
{
    if (*n < OC_TARGET_MAX_WARNINGS)
        vsnprintf(w[(*n)++], sizeof w[0], fmt, ap);
}

static void warn(oc_target_sel *sel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(oc_target_sel *sel, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    warn_to(&sel->n_warnings, sel->warnings, fmt, ap);
    va_end(ap);
}

static void twarn(oc_target_value *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void twarn(oc_target_value *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    warn_to(&t->n_warnings, t->warnings, fmt, ap);
    va_end(ap);
}

/* A failure of this step: *tm freed, the status returned. */
static oc_status fail(oc_tmodel **tm, oc_status st)
{
    oc_tmodel_free(*tm);
    *tm = NULL;
    return st;
}

oc_status oc_tmodel_fit_legacy(oc_tmodel *tm, bool *fitted, oc_error *err)
{
    const oc_tmodel_info *info = oc_tmodel_get_info(tm);
    *fitted = info->version >= 5;
    if (*fitted)
        return OC_OK;
    oc_tmodel *b = NULL;
    oc_overhead ov;
    oc_error e;
    oc_error_clear(&e);
    oc_status st = OC_OK;
    if (oc_default_tmodel(info->target, &b, &ov, &e) == OC_OK &&
        !strcmp(oc_tmodel_get_info(b)->created, info->created)) {
        st = oc_tmodel_copy_fit(tm, b, err);
        *fitted = st == OC_OK;
    }
    oc_tmodel_free(b);
    return st;
}

/* A file of format 3 or 4 carries no in-graph fit: the built-in's when
 * it is the built-in model, else none, said once. */
static oc_status legacy_fit(oc_tmodel *tm, const char *path, oc_target_value *t, oc_error *err)
{
    bool fitted;
    oc_status st = oc_tmodel_fit_legacy(tm, &fitted, err);
    if (st == OC_OK && !fitted)
        twarn(t, "%s: timing-model format %u carries no in-graph fit: whole-graph times are "
                  "the sum of its kernels (embed one: 'onnxcost train --overhead FIT.json --embed "
                  "%s')",
             path, (unsigned)oc_tmodel_get_info(tm)->version, path);
    return st;
}

/* The opened target t readied for a prediction (oc_target_select). */
static oc_status ready(oc_target_value *t, int threads, oc_optimizer optimizer, oc_tmodel **tm,
                       oc_overhead *ov, oc_target_sel *sel, const oc_machine *hp,
                       oc_error *err)
{
    bool training = optimizer != OC_OPT_NONE;
    const char *mode_name = training ? "training" : "inference";
    const oc_machine here = *hp;
    oc_calib calib_; /* the calibration found for a built-in target */
    oc_calib *cal = t->has_calib ? &t->calib : &calib_;
    bool have_calib = t->has_calib, explicit_machine = t->has_calib, shipped = false;
    bool nearest = false; /* the calibration of the measured machine nearest this one */
    const oc_tmodel_info *info = oc_tmodel_get_info(*tm);
    const char *target = info->target;
    oc_status st;
    if (training && (st = oc_tmodel_set_optimizer(*tm, optimizer, err)) != OC_OK)
        return fail(tm, st);
    if (threads && (st = oc_tmodel_set_threads(*tm, threads, err)) != OC_OK)
        return fail(tm, st);
    /* No calibration named: the one `onnxcost calibrate` left in the cache
     * for this machine, this model's target and runtime, and this mode. */
    if (t->kind == OC_TARGET_KIND_BUILTIN) {
        char path[4096];
        oc_error cerr;
        oc_error_clear(&cerr);
        if (!oc_calib_cache_path(here.id, target, info->runtime, mode_name, path, sizeof path) &&
            is_file(path)) {
            if (oc_calib_load(path, cal, &cerr) != OC_OK)
                warn(sel, "%s; ignored (run 'onnxcost calibrate' again)", cerr.msg);
            else if (strcmp(cal->machine.id, here.id) != 0)
                warn(sel, "%s was made on %s, not this machine (%s); ignored", path,
                     cal->machine.id, here.id);
            else {
                have_calib = true;
                snprintf(sel->source, sizeof sel->source, "%s", path);
            }
        }
        /* None made here: the probe this project measured on a machine of
         * the same fingerprint, if any (hosts of one kind may still
         * differ: the label says whose probe it is). */
        char name[160];
        snprintf(name, sizeof name, "%s@%s", target, here.id);
        if (!have_calib && !find_builtin_calib(name, mode_name, cal)) {
            have_calib = true;
            shipped = true;
            snprintf(sel->source, sizeof sel->source, "built-in %s", name);
        }
        /* None of this kind either, and the model did not learn this
         * machine: for inference, the shipped calibration of the measured
         * machine nearest this one (oc_calib_nearest_builtin), rather than
         * the raw model of the machine it learnt.  Not for training steps:
         * no machine has shown yet that another's training calibration
         * (its page-fault cost above all) beats the raw model there. */
        if (!have_calib && !training && strcmp(info->machine, here.id) &&
            !(info->n_machines > 1 && oc_tmodel_trained_on(*tm, here.id)) &&
            !oc_calib_nearest_builtin(&here, target, mode_name, cal)) {
            have_calib = true;
            nearest = true;
            snprintf(sel->source, sizeof sel->source, "built-in %s@%s", target,
                     cal->machine.id);
        }
    }
    if (have_calib) {
        if (info->created[0] && cal->base_created[0] &&
            strcmp(info->created, cal->base_created) != 0)
            warn(sel, "%s was fitted to the %s timing model of %s, this one is of %s: run "
                      "'onnxcost calibrate' again",
                 sel->source, target, cal->base_created, info->created);
        if ((st = oc_tmodel_set_calib(*tm, cal, err)) != OC_OK)
            return fail(tm, st);
    }
    /* The in-graph fit is per thread count: take it after set_threads. */
    const oc_calib_fit *cf = oc_tmodel_calib_fit(*tm);
    oc_overhead_calibrated(*tm, 0, cf, ov);
    if (threads && !oc_tmodel_has_threads(*tm, threads))
        warn(sel, "the timing model was not trained at %d threads; this is an extrapolation",
             threads);

    /* Which machine the predictions speak for, said once. */
    if (have_calib) {
        snprintf(sel->machine, sizeof sel->machine, "%s", cal->machine.id);
        char date[16];
        snprintf(date, sizeof date, "%.10s", cal->created);
        bool here_too = strcmp(cal->machine.id, here.id) == 0;
        if (!cf) {
            warn(sel, "%s has no fit at %d thread%s: the times are the uncalibrated %s model's "
                      "(run 'onnxcost calibrate --threads %d')",
                 sel->source, info->threads, info->threads == 1 ? "" : "s", target,
                 info->threads);
            snprintf(sel->label, sizeof sel->label,
                     "measured on %s, NOT calibrated at %d thread%s for %s",
                     info->machine[0] ? info->machine : "an unrecorded machine", info->threads,
                     info->threads == 1 ? "" : "s", cal->machine.id);
        } else {
            sel->calibrated = true;
            if (nearest)
                snprintf(sel->label, sizeof sel->label,
                         "calibrated on %s, the measured machine nearest this one (shipped, %s)",
                         cal->machine.id, date);
            else if (shipped)
                snprintf(sel->label, sizeof sel->label,
                         "calibrated on another host of this machine's kind (%s, shipped, %s)",
                         cal->machine.id, date);
            else
                snprintf(sel->label, sizeof sel->label, "calibrated on %s%s%s, %s",
                         here_too ? "this machine (" : "", cal->machine.id,
                         here_too ? ")" : "", date);
            if (cal->speed.factor > 0) {
                size_t l = strlen(sel->label);
                snprintf(sel->label + l, sizeof sel->label - l,
                         "; speed checked %.10s: times x%.2f", cal->speed.checked,
                         cal->speed.factor);
            }
        }
    } else if (info->n_machines > 1 && oc_tmodel_trained_on(*tm, here.id)) {
        /* Trained on several machines, this one among them: its own
         * profile, no calibration needed. */
        oc_tmodel_speak_for(*tm, here.id);
        snprintf(sel->machine, sizeof sel->machine, "%s", here.id);
        snprintf(sel->label, sizeof sel->label,
                 "trained on this machine's samples (%s) and %d other machine%s", here.id,
                 info->n_machines - 1, info->n_machines == 2 ? "'s" : "s'");
    } else {
        snprintf(sel->machine, sizeof sel->machine, "%s", info->machine);
        snprintf(sel->label, sizeof sel->label, "measured on %s%s",
                 info->machine[0] ? info->machine : "an unrecorded machine",
                 strcmp(info->machine, here.id) ? ", not this machine" : " (this machine)");
    }
    sel->this_machine = strcmp(sel->machine, here.id) == 0;
    sel->nearest = nearest;
    if (nearest) {
        int apart = popcount(cal->machine.isa ^ here.isa);
        warn(sel, "no calibration for this machine (%s): predicting with that of %s, the "
                  "measured machine nearest it (the same NCHWc block, %d ISA feature%s apart); "
                  "its times may be off by 2x or more; run 'onnxcost calibrate' to fit this "
                  "machine",
             here.id, cal->machine.id, apart, apart == 1 ? "" : "s");
    } else if (!sel->this_machine && !explicit_machine)
        warn(sel, "the %s timing model was measured on %s, this machine is %s: its times may "
                  "be off by 2x or more; run 'onnxcost calibrate%s' to fit it to this machine",
             target, sel->machine[0] ? sel->machine : "a machine it did not record", here.id,
             training ? " --mode training" : "");
    return OC_OK;
}

oc_status oc_target_open(const char *spec, int mode, oc_target_value *t, oc_error *err)
{
    memset(t, 0, sizeof *t);
    bool any = mode == OC_TARGET_ANY_MODE, training = mode == OC_TARGET_TRAINING;
    const char *mode_name = any ? NULL : training ? "training" : "inference";
    const oc_target_entry *mode_target =
        oc_target_of_mode(training ? OC_TARGET_TRAINING : OC_TARGET_INFERENCE);

    /* What the spec names: a timing-model file, a calibration file, a
     * built-in target ("ort-cpu"), or a shipped calibration
     * ("ort-cpu@FINGERPRINT"). */
    const char *tm_path = NULL;
    oc_target_id named_id = oc_target_lookup(spec);
    bool named = named_id != OC_TARGET_UNKNOWN;
    t->kind = OC_TARGET_KIND_BUILTIN;
    snprintf(t->name, sizeof t->name, "%s", spec ? spec : mode_target->name);
    if (spec && strchr(spec, '@') && !is_file(spec)) {
        if (find_builtin_calib(spec, mode_name, &t->calib))
            return oc_error_set(err, OC_ERR_USAGE, NULL,
                                "--target: no %s%starget '%s' (see 'onnxcost targets')",
                                any ? "" : mode_name, any ? "" : " ", spec);
        t->kind = OC_TARGET_KIND_SHIPPED;
        t->has_calib = true;
        snprintf(t->source, sizeof t->source, "built-in %s", spec);
    } else if (named && !any && named_id != mode_target->id) {
        return oc_error_set(err, OC_ERR_USAGE, NULL, "--target %s predicts %s; %s", spec,
                            training ? "inference" : "training steps",
                            training ? "use torch-cpu with --mode training"
                                     : "add --mode training");
    } else if (spec && !named) {
        /* A file: a calibration (JSON) or a timing model. */
        if (!is_file(spec) || !is_json_file(spec)) {
            tm_path = spec;
            t->kind = OC_TARGET_KIND_MODEL_FILE;
        } else {
            oc_status st = oc_calib_load(spec, &t->calib, err);
            if (st != OC_OK) {
                t->load_error = true;
                return st;
            }
            t->kind = OC_TARGET_KIND_CALIBRATION;
            t->has_calib = true;
            snprintf(t->source, sizeof t->source, "%s", spec);
        }
    }
    if (t->has_calib && !any && strcmp(t->calib.mode, mode_name))
        return oc_error_set(err, OC_ERR_USAGE, NULL, "%s: the calibration is for %s; %s",
                            t->source, t->calib.mode,
                            training ? "drop --mode training" : "add --mode training");
    const char *base = t->has_calib ? t->calib.target
                       : named      ? oc_target_entry_of(named_id)->name
                                    : mode_target->name;
    if (t->has_calib && t->calib.base_path[0])
        tm_path = t->calib.base_path; /* a calibration of a timing-model file */
    oc_overhead ov;
    oc_status st = tm_path ? oc_tmodel_load(tm_path, &t->tm, err)
                           : oc_default_tmodel(base, &t->tm, &ov, err);
    if (st != OC_OK) {
        t->load_error = tm_path != NULL;
        return st;
    }
    if (tm_path) {
        snprintf(t->base, sizeof t->base, "%s", tm_path);
        if ((st = legacy_fit(t->tm, tm_path, t, err)) != OC_OK)
            return fail(&t->tm, st);
    }
    const oc_tmodel_info *info = oc_tmodel_get_info(t->tm);
    bool trains = predicts_training(t->tm);
    if (!any && trains != training)
        return fail(&t->tm, oc_error_set(err, OC_ERR_USAGE, NULL,
                                         "%s: the %s timing model predicts %s; %s",
                                         tm_path ? tm_path : "built-in", info->target,
                                         training ? "inference" : "training steps",
                                         training ? "give a training model (onnxcost train on "
                                                    "torch-cpu samples)"
                                                  : "add --mode training"));
    t->mode = trains ? OC_TARGET_TRAINING : OC_TARGET_INFERENCE;
    snprintf(t->target, sizeof t->target, "%s", info->target);
    t->entry = oc_target_entry_of(oc_target_lookup(info->target));
    snprintf(t->runtime, sizeof t->runtime, "%s", t->has_calib ? t->calib.runtime : info->runtime);
    snprintf(t->machine, sizeof t->machine, "%s",
             t->has_calib ? t->calib.machine.id : info->machine);
    snprintf(t->created, sizeof t->created, "%s", t->has_calib ? t->calib.created : info->created);
    return OC_OK;
}

void oc_target_close(oc_target_value *t)
{
    oc_tmodel_free(t->tm);
    t->tm = NULL;
}

/* The target opened, its warnings and source in sel, its model in *tm. */
static oc_status open_into(const char *spec, bool training, oc_target_value *t, oc_tmodel **tm,
                           oc_target_sel *sel, oc_error *err)
{
    oc_status st = oc_target_open(spec, training ? OC_TARGET_TRAINING : OC_TARGET_INFERENCE, t,
                                  err);
    for (size_t k = 0; k < t->n_warnings; k++)
        warn(sel, "%s", t->warnings[k]);
    sel->load_error = t->load_error;
    snprintf(sel->source, sizeof sel->source, "%s", t->source);
    *tm = t->tm;
    t->tm = NULL;
    return st;
}

oc_status oc_target_select(const char *spec, int threads, oc_optimizer optimizer,
                           oc_tmodel **tm, oc_overhead *ov, oc_target_sel *sel,
                           oc_error *err)
{
    *tm = NULL;
    memset(sel, 0, sizeof *sel);
    bool training = optimizer != OC_OPT_NONE;
    oc_machine here;
    oc_this_machine(&here);
    oc_target_value *t = malloc(sizeof *t);
    if (!t)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    oc_status st = open_into(spec, training, t, tm, sel, err);
    if (st == OC_OK)
        st = ready(t, threads, optimizer, tm, ov, sel, &here, err);
    free(t);
    return st;
}
