/* tmodel.c - the target the predicting commands use: a timing model, the
 * calibration that fits it to a machine, and the machine it then speaks
 * for. */
#include "cli/cli.h"
#include "predictor/estimate.h"

#include <errno.h>
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

void cli_this_machine(oc_machine *m)
{
    oc_machine_detect(m);
    const char *id = getenv("ONNXCOST_MACHINE");
    if (id && *id)
        snprintf(m->id, sizeof m->id, "%s", id);
}

int cli_cache_dir(char *buf, size_t n)
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

int cli_calib_cache_path(const char *machine, const char *target, const char *runtime,
                         const char *mode, char *buf, size_t n)
{
    char dir[4096], rt[96], fp[64];
    if (cli_cache_dir(dir, sizeof dir))
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
        if (!strcmp(nm, name) && !strcmp(c->mode, mode))
            return 0;
    }
    return -1;
}

static void date_of(const char *iso, char *buf, size_t n)
{
    snprintf(buf, n, "%.10s", iso);
}

int cli_load_tmodel(const char *spec, int64_t threads, const cli_mode *mode, oc_tmodel **tm,
                    oc_overhead *ov, cli_target *tgt)
{
    oc_error err;
    oc_error_clear(&err);
    *tm = NULL;
    cli_target dummy;
    if (!tgt)
        tgt = &dummy;
    memset(tgt, 0, sizeof *tgt);
    bool training = mode->optimizer != OC_OPT_NONE;
    const char *mode_name = training ? "training" : "inference";
    const char *builtin = training ? "torch-cpu" : "ort-cpu";
    oc_machine here;
    cli_this_machine(&here);

    /* What the spec names: a timing-model file, a calibration file, a
     * built-in target ("ort-cpu"), or a shipped calibration
     * ("ort-cpu@FINGERPRINT"). */
    oc_calib calib;
    bool have_calib = false, explicit_machine = false, shipped = false;
    const char *tm_path = NULL;
    bool named = spec && (!strcmp(spec, "ort-cpu") || !strcmp(spec, "torch-cpu"));
    if (spec && strchr(spec, '@') && !is_file(spec)) {
        if (find_builtin_calib(spec, mode_name, &calib)) {
            cli_error("--target: no %s target '%s' (see 'onnxcost targets')", mode_name, spec);
            return EXIT_USAGE;
        }
        have_calib = true;
        explicit_machine = true;
        snprintf(tgt->source, sizeof tgt->source, "built-in %s", spec);
    } else if (named && strcmp(spec, builtin)) {
        cli_error("--target %s predicts %s; %s", spec, training ? "inference" : "training steps",
                  training ? "use torch-cpu with --mode training" : "add --mode training");
        return EXIT_USAGE;
    } else if (spec && !named) {
        /* A file: a calibration (JSON) or a timing model. */
        if (!is_file(spec) || !is_json_file(spec)) {
            tm_path = spec;
        } else {
            if (oc_calib_load(spec, &calib, &err) != OC_OK)
                return cli_fail(&err, 1);
            have_calib = true;
            explicit_machine = true;
            snprintf(tgt->source, sizeof tgt->source, "%s", spec);
        }
    }
    if (have_calib && strcmp(calib.mode, mode_name)) {
        cli_error("%s: the calibration is for %s; %s", tgt->source, calib.mode,
                  training ? "drop --mode training" : "add --mode training");
        return EXIT_USAGE;
    }
    const char *base = have_calib ? calib.target : builtin;
    if (have_calib && calib.base_path[0])
        tm_path = calib.base_path; /* a calibration of a timing-model file */
    oc_status st = tm_path ? oc_tmodel_load(tm_path, tm, &err)
                           : oc_default_tmodel(base, tm, ov, &err);
    if (st)
        return cli_fail(&err, tm_path != NULL);
    const oc_tmodel_info *info = oc_tmodel_get_info(*tm);
    const char *target = info->target;
    int rc = 0;
    if (predicts_training(*tm) != training) {
        cli_error("%s: the %s timing model predicts %s; %s", tm_path ? tm_path : "built-in",
                  target, training ? "inference" : "training steps",
                  training ? "give a training model (onnxcost train on torch-cpu samples)"
                           : "add --mode training");
        rc = EXIT_USAGE;
    } else if (training && oc_tmodel_set_optimizer(*tm, mode->optimizer, &err) != OC_OK) {
        rc = cli_fail(&err, 0);
    } else if (threads && oc_tmodel_set_threads(*tm, (int)threads, &err) != OC_OK) {
        rc = cli_fail(&err, 0);
    }
    /* No calibration named: the one `onnxcost calibrate` left in the cache
     * for this machine, this model's target and runtime, and this mode. */
    if (!rc && !have_calib && !tm_path) {
        char path[4096];
        if (!cli_calib_cache_path(here.id, target, info->runtime, mode_name, path, sizeof path) &&
            is_file(path)) {
            if (oc_calib_load(path, &calib, &err) != OC_OK) {
                fprintf(stderr, "onnxcost: warning: %s; ignored (run 'onnxcost calibrate' "
                                "again)\n", err.msg);
                oc_error_clear(&err);
            } else if (strcmp(calib.machine.id, here.id) != 0) {
                fprintf(stderr, "onnxcost: warning: %s was made on %s, not this machine "
                                "(%s); ignored\n", path, calib.machine.id, here.id);
            } else {
                have_calib = true;
                snprintf(tgt->source, sizeof tgt->source, "%s", path);
            }
        }
        /* None made here: the probe this project measured on a machine of
         * the same fingerprint, if any (hosts of one kind may still
         * differ: the label says whose probe it is). */
        char name[160];
        snprintf(name, sizeof name, "%s@%s", target, here.id);
        if (!have_calib && !find_builtin_calib(name, mode_name, &calib)) {
            have_calib = true;
            shipped = true;
            snprintf(tgt->source, sizeof tgt->source, "built-in %s", name);
        }
    }
    if (!rc && have_calib) {
        if (info->created[0] && calib.base_created[0] &&
            strcmp(info->created, calib.base_created) != 0)
            fprintf(stderr, "onnxcost: warning: %s was fitted to the %s timing model of %s, "
                            "this one is of %s: run 'onnxcost calibrate' again\n",
                    tgt->source, target, calib.base_created, info->created);
        if (oc_tmodel_set_calib(*tm, &calib, &err) != OC_OK)
            rc = cli_fail(&err, 0);
    }
    if (rc) {
        oc_tmodel_free(*tm);
        *tm = NULL;
        return rc;
    }
    /* The in-graph fit is per thread count: take it after set_threads. */
    oc_default_tmodel_overhead(target, ov, info->threads);
    const oc_calib_fit *cf = oc_tmodel_calib_fit(*tm);
    if (cf) {
        ov->kernel_scale = cf->kernel_scale;
        ov->per_kernel_us = cf->per_kernel_us;
        if (cf->output_us_per_mb > 0)
            ov->output_us_per_mb = cf->output_us_per_mb;
    }
    if (threads && !oc_tmodel_has_threads(*tm, (int)threads))
        fprintf(stderr, "onnxcost: warning: the timing model was not trained at %lld "
                        "threads; this is an extrapolation\n", (long long)threads);

    /* Which machine the predictions speak for, said once. */
    char date[16];
    if (have_calib) {
        snprintf(tgt->machine, sizeof tgt->machine, "%s", calib.machine.id);
        date_of(calib.created, date, sizeof date);
        bool here_too = strcmp(calib.machine.id, here.id) == 0;
        if (!cf) {
            fprintf(stderr, "onnxcost: warning: %s has no fit at %d thread%s: the times are "
                            "the uncalibrated %s model's (run 'onnxcost calibrate --threads "
                            "%d')\n", tgt->source, info->threads, info->threads == 1 ? "" : "s",
                    target, info->threads);
            snprintf(tgt->label, sizeof tgt->label,
                     "measured on %s, NOT calibrated at %d thread%s for %s",
                     info->machine[0] ? info->machine : "an unrecorded machine", info->threads,
                     info->threads == 1 ? "" : "s", calib.machine.id);
        } else {
            tgt->calibrated = true;
            if (shipped)
                snprintf(tgt->label, sizeof tgt->label,
                         "calibrated on another host of this machine's kind (%s, shipped, %s)",
                         calib.machine.id, date);
            else
                snprintf(tgt->label, sizeof tgt->label, "calibrated on %s%s%s, %s",
                         here_too ? "this machine (" : "", calib.machine.id,
                         here_too ? ")" : "", date);
        }
    } else {
        snprintf(tgt->machine, sizeof tgt->machine, "%s", info->machine);
        snprintf(tgt->label, sizeof tgt->label, "measured on %s%s",
                 info->machine[0] ? info->machine : "an unrecorded machine",
                 strcmp(info->machine, here.id) ? ", not this machine" : " (this machine)");
    }
    tgt->this_machine = strcmp(tgt->machine, here.id) == 0;
    if (!tgt->this_machine && !explicit_machine)
        fprintf(stderr, "onnxcost: warning: the %s timing model was measured on %s, this "
                        "machine is %s: its times may be off by 2x or more; run 'onnxcost "
                        "calibrate%s' to fit it to this machine\n",
                target, tgt->machine[0] ? tgt->machine : "a machine it did not record", here.id,
                training ? " --mode training" : "");
    return 0;
}

json_t *cli_target_json(const oc_tmodel *tm, const cli_target *tgt, const cli_mode *mode)
{
    const oc_tmodel_info *info = oc_tmodel_get_info(tm);
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(info->target));
    json_object_set_new(o, "runtime", json_string(info->runtime));
    json_object_set_new(o, "cpu", json_string(info->cpu));
    json_object_set_new(o, "threads", json_integer(info->threads));
    json_object_set_new(o, "mode", json_string(cli_mode_name(mode)));
    json_object_set_new(o, "optimizer", mode->training
                                            ? json_string(oc_optimizer_name(mode->optimizer))
                                            : json_null());
    json_object_set_new(o, "machine", tgt->machine[0] ? json_string(tgt->machine) : json_null());
    json_object_set_new(o, "model_machine",
                        info->machine[0] ? json_string(info->machine) : json_null());
    json_object_set_new(o, "calibrated", json_boolean(tgt->calibrated));
    json_object_set_new(o, "calibration", tgt->source[0] ? json_string(tgt->source) : json_null());
    json_object_set_new(o, "this_machine", json_boolean(tgt->this_machine));
    json_object_set_new(o, "label", json_string(tgt->label));
    return o;
}

void cli_print_target(const oc_tmodel *tm, const cli_target *tgt, const cli_mode *mode)
{
    const oc_tmodel_info *info = oc_tmodel_get_info(tm);
    printf("target: %s (%s), %d thread%s%s%s; %s\n", info->target, info->runtime,
           info->threads, info->threads == 1 ? "" : "s",
           mode->training ? "; training step with " : "",
           mode->training ? oc_optimizer_name(mode->optimizer) : "", tgt->label);
}
