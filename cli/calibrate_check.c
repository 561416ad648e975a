/* calibrate_check.c - onnxcost calibrate --check: is the calibration in
 * use still this machine's?
 *
 * Every calibration records its check kernel (the 256x256x256 MatMul the
 * drivers time before and after each chunk of the probe) at each thread
 * count.  A host of one fingerprint is not always one speed: on
 * cpu-GenuineIntel-f6-m167 it read 253 us on one day and 294 us on the
 * next, and whole networks measured in different sessions moved about 0.6
 * times as much as the check kernel did.  --check times that kernel alone,
 * as the probe does, in a few seconds, and says how far this machine has
 * moved from its calibration; --save keeps the calibration with that move
 * as a speed factor (calib.h's oc_calib_speed) for predict to apply. */
#include "cli/cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "predictor/target.h"
#include "training/calibrate.h"
#include "training/collect.h"
#include "training/driver.h"

/* Driver runs per thread count, interleaved over the thread counts; each
 * reads the kernel twice (after the driver's warm-up, and again). */
enum { ROUNDS = 3 };
/* A move beyond this is said as a warning: sessions of one host here
 * moved the check kernel up to about 10% apart while nothing changed. */
#define CHECK_TOLERANCE 0.10

const char *cli_calibrate_driver_args(bool training, int64_t threads)
{
    /* As the release data: five repeats in two interleaved passes; at two
     * or more threads ORT's pool does not spin (it stole a core from the
     * next session). */
    return training      ? "--repeats 5 --passes 2 --warmup 2"
           : threads > 1 ? "--repeats 5 --passes 2 --warmup 2 --no-spin"
                         : "--repeats 5 --passes 2 --warmup 2";
}

/* Ctrl-C or SIGTERM: the driver run is abandoned at once (a check is a
 * few seconds; nothing is half-written), its folder removed. */
static volatile sig_atomic_t check_stop;
static void on_check_signal(int sig)
{
    (void)sig;
    check_stop = 2;
}

typedef struct check_row {
    int64_t threads;
    double then_us, now_us;
    double reads[2 * ROUNDS];
    size_t n_reads;
} check_row;

/* The kernel timed at `threads` in a driver run of its own (workdir `dir`). */
static oc_status time_check(const oc_target_entry *entry, int64_t threads, const char *dir,
                            bool training, double us[2], oc_error *err)
{
    oc_collect *c = calloc(1, sizeof *c);
    if (!c)
        return oc_error_set(err, OC_ERR_NOMEM, NULL, "out of memory");
    c->target = entry->name;
    c->entry = entry;
    c->threads = threads;
    c->quiet = true;
    c->stop = &check_stop;
    if (training)
        c->optimizer = "sgd";
    snprintf(c->workdir, sizeof c->workdir, "%s", dir);
    oc_collect_use_driver(c);
    oc_status st = oc_collect_add_driver_args(c, cli_calibrate_driver_args(training, threads), err);
    if (!st)
        st = oc_collect_calibration_model(c, err);
    if (!st)
        st = oc_collect_check_kernel(c, us, err);
    for (size_t i = 0; i < c->n_driver_args; i++)
        free(c->driver_argv[i]);
    free(c);
    return st;
}

static int print_rows(const check_row *rows, size_t n, const oc_target_sel *sel, const char *fp,
                      const char *created, out_format fmt)
{
    if (fmt == FMT_JSON) {
        json_t *arr = json_array();
        for (size_t i = 0; i < n; i++) {
            json_t *reads = json_array();
            for (size_t k = 0; k < rows[i].n_reads; k++)
                json_array_append_new(reads, json_real(rows[i].reads[k]));
            json_array_append_new(
                arr, json_pack("{s:I, s:f, s:f, s:f, s:o}", "threads", (json_int_t)rows[i].threads,
                               "calibration_us", rows[i].then_us, "now_us", rows[i].now_us,
                               "change", rows[i].now_us / rows[i].then_us - 1, "reads_us", reads));
        }
        return cli_json_print(json_pack("{s:s, s:s, s:s, s:s, s:f, s:o}", "machine", fp,
                                        "calibration", sel->source, "created", created, "kernel",
                                        "MatMul 256x256x256", "tolerance", CHECK_TOLERANCE,
                                        "threads", arr));
    }
    printf("check kernel (a 256x256x256 MatMul, timed as the probe times it) on %s\n", fp);
    printf("calibration: %s, %s\n", sel->source, created);
    printf("%-8s %16s %12s %8s\n", "threads", "at calibration", "now", "change");
    for (size_t i = 0; i < n; i++)
        printf("%-8lld %13.0f us %9.0f us %+7.0f%%\n", (long long)rows[i].threads,
               rows[i].then_us, rows[i].now_us, 100 * (rows[i].now_us / rows[i].then_us - 1));
    return EXIT_OK;
}

/* The calibration in use with its speed found (rows: the 1-thread one's
 * check now) written to `output`, or the cache. */
static int save_speed(const oc_calib *in_use, const check_row *one, const char *output,
                      const char *fp)
{
    oc_calib *cal = malloc(sizeof *cal);
    if (!cal) {
        cli_error("out of memory");
        return EXIT_IO;
    }
    *cal = *in_use;
    char path[4096];
    oc_error err;
    oc_error_clear(&err);
    int rc = EXIT_OK;
    if (oc_calib_set_speed(cal, one->now_us, &err) != OC_OK)
        rc = cli_fail(&err, 0);
    else if (!output)
        rc = cli_calib_cache_file(fp, cal->target, cal->runtime, cal->mode, path, sizeof path);
    if (!rc) {
        const char *to = output ? output : path;
        if (oc_calib_save(cal, to, &err) != OC_OK)
            rc = cli_fail(&err, 0);
        else
            fprintf(stderr, "onnxcost: saved %s: its times x%.2f from now on (%s)\n", to,
                    cal->speed.factor,
                    output ? "--target it" : "predict, sweep, annotate and report take it here");
    }
    free(cal);
    return rc;
}

int cli_calibrate_check(const cli_check_opts *o)
{
    bool training = o->training;
    const char *spec = o->spec;
    out_format fmt = o->format;
    /* --save needs the 1-thread check, whatever else is asked */
    int64_t threads[OC_CALIB_MAX_THREADS + 1];
    size_t n_threads = 0;
    if (o->save)
        threads[n_threads++] = 1;
    for (size_t i = 0; i < o->n_threads && n_threads < OC_CALIB_MAX_THREADS + 1; i++)
        if (!(o->save && o->threads[i] == 1))
            threads[n_threads++] = o->threads[i];
    oc_error err;
    oc_error_clear(&err);
    if (oc_calib_check_runtime(training, &err))
        return cli_fail(&err, 0);
    oc_machine here;
    oc_this_machine(&here);
    /* The calibration predict takes here (or the one --target names). */
    oc_tmodel *tm = NULL;
    oc_overhead ov;
    oc_target_sel *sel = calloc(1, sizeof *sel);
    check_row *rows = calloc(n_threads, sizeof *rows);
    if (!sel || !rows) {
        free(sel);
        free(rows);
        cli_error("out of memory");
        return EXIT_IO;
    }
    int rc = EXIT_OK;
    char created[32] = "";
    const oc_target_entry *entry = NULL;
    if (oc_target_select(spec, (int)threads[0], training ? o->optimizer : OC_OPT_NONE, &tm, &ov,
                         sel, &err) != OC_OK) {
        rc = cli_fail(&err, sel->load_error);
        goto done;
    }
    entry = oc_target_entry_of(oc_target_lookup(oc_tmodel_get_info(tm)->target));
    if (!sel->calibrated || !sel->source[0] || !entry) {
        cli_error("calibrate --check: predictions here use no calibration (%s): nothing to check; "
                  "run 'onnxcost calibrate%s'",
                  sel->label, training ? " --mode training" : "");
        rc = EXIT_USAGE;
        goto done;
    }
    if (!sel->this_machine) {
        cli_error("calibrate --check: %s is of %s, this machine is %s: its check kernel was timed "
                  "there; run 'onnxcost calibrate%s' here",
                  sel->source, sel->machine, here.id, training ? " --mode training" : "");
        rc = EXIT_USAGE;
        goto done;
    }
    for (size_t i = 0; i < n_threads; i++) {
        const oc_calib_fit *cf = NULL;
        if (oc_tmodel_set_threads(tm, (int)threads[i], &err) == OC_OK)
            cf = oc_tmodel_calib_fit(tm);
        if (!cf || !(cf->check_us > 0)) {
            cli_error("calibrate --check: %s has no check kernel at %lld thread%s (calibrate "
                      "with --threads %lld)",
                      sel->source, (long long)threads[i], threads[i] == 1 ? "" : "s",
                      (long long)threads[i]);
            rc = EXIT_USAGE;
            goto done;
        }
        rows[i].threads = threads[i];
        rows[i].then_us = cf->check_us;
    }
    snprintf(created, sizeof created, "%.10s", oc_tmodel_calib(tm)->created);

    char dir[PATH_MAX];
    if (!cli_mkdtemp("check", dir, sizeof dir)) {
        cli_error("cannot create a directory like %s: %s", dir, strerror(errno));
        rc = EXIT_IO;
        goto done;
    }
    if (training) /* as collect runs PyTorch */
        setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    struct sigaction old_sig[2];
    cli_signals_catch(on_check_signal, old_sig);
    for (int r = 0; r < ROUNDS && !rc && !check_stop; r++)
        for (size_t i = 0; i < n_threads && !rc && !check_stop; i++) {
            double us[2];
            if (time_check(entry, rows[i].threads, dir, training, us, &err) != OC_OK) {
                if (!check_stop)
                    rc = cli_fail(&err, 0);
                break;
            }
            rows[i].reads[rows[i].n_reads++] = us[0];
            rows[i].reads[rows[i].n_reads++] = us[1];
        }
    oc_rm_tree(dir);
    cli_signals_restore(old_sig);
    if (check_stop && !rc) {
        cli_error("calibrate --check: interrupted; nothing written");
        rc = EXIT_INTERRUPTED;
    }
    if (rc)
        goto done;
    for (size_t i = 0; i < n_threads; i++) {
        double s[2 * ROUNDS]; /* oc_median sorts: the readings stay in order */
        memcpy(s, rows[i].reads, rows[i].n_reads * sizeof *s);
        rows[i].now_us = oc_median(s, rows[i].n_reads);
    }
    rc = print_rows(rows, n_threads, sel, here.id, created, fmt);
    if (!rc && o->save)
        rc = save_speed(oc_tmodel_calib(tm), &rows[0], o->output, here.id);
    for (size_t i = 0; i < n_threads && !o->save; i++) {
        double d = rows[i].now_us / rows[i].then_us - 1;
        if (fabs(d) > CHECK_TOLERANCE)
            fprintf(stderr,
                    "onnxcost: warning: this machine runs the check kernel %.0f%% %s at %lld "
                    "thread%s than when %s was made (%s): its predictions may be off as well; "
                    "%srun 'onnxcost calibrate%s' when the machine is quiet\n",
                    100 * fabs(d), d > 0 ? "slower" : "faster", (long long)rows[i].threads,
                    rows[i].threads == 1 ? "" : "s", sel->source, created,
                    training ? "" : "add --save to scale them by this machine's speed, or ",
                    training ? " --mode training" : "");
    }
done:
    oc_tmodel_free(tm);
    free(rows);
    free(sel);
    return rc;
}
