/* test_target.c - every kind of target --target names opens as one value
 * (predictor/target.h): a built-in name, a shipped calibration
 * (NAME@FINGERPRINT), a calibration file and a timing-model file, each
 * with its fields; a target of the other mode or an unknown one is a
 * usage error; oc_target_select readies the same value for a prediction. */
#include "harness.h"
#include "predictor/estimate.h"
#include "predictor/target.h"

#include <stdlib.h>
#include <unistd.h>

static oc_target_value t;

static void builtin(void)
{
    oc_error e;
    oc_error_clear(&e);
    CHECK_EQ_INT(oc_target_open("ort-cpu", OC_TARGET_INFERENCE, &t, &e), OC_OK);
    CHECK_EQ_INT(t.kind, OC_TARGET_KIND_BUILTIN);
    CHECK_EQ_STR(t.name, "ort-cpu");
    CHECK_EQ_STR(t.target, "ort-cpu");
    CHECK(t.entry && t.entry->id == OC_TARGET_ORT_CPU);
    CHECK_EQ_INT(t.mode, OC_TARGET_INFERENCE);
    CHECK_CONTAINS(t.runtime, "onnxruntime");
    CHECK_EQ_STR(t.machine, oc_tmodel_get_info(t.tm)->machine);
    CHECK(!t.has_calib && !t.source[0] && !t.base[0] && t.tm);
    oc_target_close(&t);
    /* NULL: the built-in target of the mode */
    CHECK_EQ_INT(oc_target_open(NULL, OC_TARGET_TRAINING, &t, &e), OC_OK);
    CHECK_EQ_STR(t.target, "torch-cpu");
    CHECK_EQ_INT(t.mode, OC_TARGET_TRAINING);
    oc_target_close(&t);
    /* the other mode, an unknown name */
    CHECK_EQ_INT(oc_target_open("torch-cpu", OC_TARGET_INFERENCE, &t, &e), OC_ERR_USAGE);
    CHECK_CONTAINS(e.msg, "predicts training steps");
    CHECK_EQ_INT(oc_target_open("torch-cpu", OC_TARGET_ANY_MODE, &t, &e), OC_OK);
    CHECK_EQ_INT(t.mode, OC_TARGET_TRAINING);
    oc_target_close(&t);
    CHECK_EQ_INT(oc_target_open("ort-cpu@no-such-machine", OC_TARGET_INFERENCE, &t, &e),
                 OC_ERR_USAGE);
    CHECK_CONTAINS(e.msg, "no inference target 'ort-cpu@no-such-machine'");
    CHECK_EQ_INT(oc_target_open("/no/such/file", OC_TARGET_INFERENCE, &t, &e), OC_ERR_IO);
    CHECK(t.load_error);
}

/* A shipped calibration, then the same saved as a file. */
static void calibrations(const char *dir)
{
    oc_error e;
    oc_error_clear(&e);
    oc_calib c;
    const char *path;
    CHECK(oc_builtin_calib_count() > 0);
    if (!oc_builtin_calib_count() || oc_builtin_calib_get(0, &c, &path, &e) != OC_OK)
        return;
    char name[160];
    snprintf(name, sizeof name, "%s@%s", c.target, c.machine.id);
    int mode = strcmp(c.mode, "training") ? OC_TARGET_INFERENCE : OC_TARGET_TRAINING;
    CHECK_EQ_INT(oc_target_open(name, mode, &t, &e), OC_OK);
    CHECK_EQ_INT(t.kind, OC_TARGET_KIND_SHIPPED);
    CHECK_EQ_STR(t.name, name);
    CHECK_EQ_STR(t.target, c.target);
    CHECK_EQ_INT(t.mode, mode);
    CHECK_EQ_STR(t.runtime, c.runtime);
    CHECK_EQ_STR(t.machine, c.machine.id);
    CHECK_EQ_STR(t.created, c.created);
    CHECK(t.has_calib && t.calib.n_fits == c.n_fits && t.tm && !t.base[0]);
    char src[200];
    snprintf(src, sizeof src, "built-in %s", name);
    CHECK_EQ_STR(t.source, src);
    oc_target_close(&t);
    /* the other mode */
    CHECK_EQ_INT(oc_target_open(name, mode == OC_TARGET_INFERENCE ? OC_TARGET_TRAINING
                                                                : OC_TARGET_INFERENCE,
                                &t, &e),
                 OC_ERR_USAGE);

    char file[512];
    snprintf(file, sizeof file, "%s/cal.json", dir);
    CHECK_EQ_INT(oc_calib_save(&c, file, &e), OC_OK);
    CHECK_EQ_INT(oc_target_open(file, OC_TARGET_ANY_MODE, &t, &e), OC_OK);
    CHECK_EQ_INT(t.kind, OC_TARGET_KIND_CALIBRATION);
    CHECK_EQ_STR(t.name, file);
    CHECK_EQ_STR(t.source, file);
    CHECK_EQ_STR(t.target, c.target);
    CHECK_EQ_STR(t.machine, c.machine.id);
    CHECK_EQ_STR(t.runtime, c.runtime);
    CHECK(t.has_calib && t.tm && !t.base[0]);
    oc_target_close(&t);
    unlink(file);
}

/* A timing-model file, and a calibration of it (base.path). */
static void model_file(const char *dir)
{
    oc_error e;
    oc_error_clear(&e);
    oc_tmodel *tm;
    oc_overhead ov;
    char file[512], cfile[512];
    snprintf(file, sizeof file, "%s/m.tmodel", dir);
    snprintf(cfile, sizeof cfile, "%s/mcal.json", dir);
    CHECK_EQ_INT(oc_default_tmodel("ort-cpu", &tm, &ov, &e), OC_OK);
    CHECK_EQ_INT(oc_tmodel_save(tm, file, &e), OC_OK);
    const oc_tmodel_info *in = oc_tmodel_get_info(tm);
    CHECK_EQ_INT(oc_target_open(file, OC_TARGET_INFERENCE, &t, &e), OC_OK);
    CHECK_EQ_INT(t.kind, OC_TARGET_KIND_MODEL_FILE);
    CHECK_EQ_STR(t.name, file);
    CHECK_EQ_STR(t.base, file);
    CHECK_EQ_STR(t.target, in->target);
    CHECK_EQ_STR(t.runtime, in->runtime);
    CHECK_EQ_STR(t.machine, in->machine);
    CHECK_EQ_STR(t.created, in->created);
    CHECK(!t.has_calib && !t.source[0] && t.tm);
    oc_target_close(&t);
    CHECK_EQ_INT(oc_target_open(file, OC_TARGET_TRAINING, &t, &e), OC_ERR_USAGE);

    /* a shipped calibration made a calibration of the file */
    oc_calib c;
    const char *path;
    CHECK_EQ_INT(oc_builtin_calib_get(0, &c, &path, &e), OC_OK);
    snprintf(c.machine.id, sizeof c.machine.id, "test-machine");
    snprintf(c.base_path, sizeof c.base_path, "%s", file);
    CHECK_EQ_INT(oc_calib_save(&c, cfile, &e), OC_OK);
    CHECK_EQ_INT(oc_target_open(cfile, OC_TARGET_INFERENCE, &t, &e), OC_OK);
    CHECK_EQ_INT(t.kind, OC_TARGET_KIND_CALIBRATION);
    CHECK_EQ_STR(t.base, file);
    CHECK_EQ_STR(t.source, cfile);
    CHECK_EQ_STR(t.machine, "test-machine");
    oc_target_close(&t);

    /* select: the same value, readied */
    oc_tmodel *st;
    oc_target_sel sel;
    CHECK_EQ_INT(oc_target_select(cfile, 1, OC_OPT_NONE, &st, &ov, &sel, &e), OC_OK);
    CHECK_EQ_STR(sel.source, cfile);
    CHECK_EQ_STR(sel.machine, "test-machine");
    oc_tmodel_free(st);
    oc_tmodel_free(tm);
    unlink(cfile);
    unlink(file);
}

int main(void)
{
    char dir[] = "/tmp/test_target.XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    setenv("XDG_CACHE_HOME", dir, 1); /* no user calibration interferes */
    builtin();
    calibrations(dir);
    model_file(dir);
    rmdir(dir);
    return t_report("test_target");
}
