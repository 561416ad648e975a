/* cmd_targets.c - onnxcost targets: what predictions can be made for. */
#include "cli/cli.h"

#include <dirent.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "predictor/estimate.h"
#include "predictor/target.h"

static const char targets_help[] =
    "usage: onnxcost targets [--format table|json]\n"
    "\n"
    "List the targets predict, sweep, annotate and report can use (--target):\n"
    "the built-in timing models (the runtime, mode and machine they were\n"
    "measured on), the calibrations of the machines this project measured\n"
    "(NAME@FINGERPRINT), and this user's own calibrations in the cache\n"
    "(give their file).  This machine's fingerprint is marked.\n"
    "\n"
    "  -f, --format FMT   table (default) or json\n"
    "  -h, --help         this text\n";

typedef struct row {
    char name[160], kind[16], mode[16], runtime[96], machine[64], threads[64], created[32];
    char note[160];
} row;

/* The row of an opened target: a calibration's fits and probe error, a
 * timing model's thread counts and CPU. */
static void target_row(const oc_target_value *t, row *r)
{
    static const char *const kinds[] = {
        [OC_TARGET_KIND_BUILTIN] = "built-in", [OC_TARGET_KIND_SHIPPED] = "measured",
        [OC_TARGET_KIND_CALIBRATION] = "calibration", [OC_TARGET_KIND_MODEL_FILE] = "model"};
    const oc_calib *c = &t->calib;
    const oc_tmodel_info *in = oc_tmodel_get_info(t->tm);
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%.159s", t->name);
    snprintf(r->kind, sizeof r->kind, "%s", kinds[t->kind]);
    snprintf(r->mode, sizeof r->mode, "%s",
             t->has_calib ? c->mode : t->mode == OC_TARGET_TRAINING ? "training" : "inference");
    snprintf(r->runtime, sizeof r->runtime, "%s", t->runtime);
    snprintf(r->machine, sizeof r->machine, "%s", t->machine[0] ? t->machine : "?");
    size_t used = 0;
    int n = t->has_calib ? c->n_fits : in->n_thread_counts;
    for (int k = 0; k < n && used < sizeof r->threads; k++)
        used += (size_t)snprintf(r->threads + used, sizeof r->threads - used, "%s%d",
                                 k ? "," : "", t->has_calib ? c->fits[k].threads
                                                            : in->thread_counts[k]);
    snprintf(r->created, sizeof r->created, "%.10s", t->created);
    if (!t->has_calib)
        snprintf(r->note, sizeof r->note, "%s", in->cpu);
    else if (c->n_fits)
        snprintf(r->note, sizeof r->note, "probe error %.0f%% -> %.0f%% at %d thread%s",
                 100 * c->fits[0].err_before, 100 * c->fits[0].err_after, c->fits[0].threads,
                 c->fits[0].threads == 1 ? "" : "s");
    if (t->has_calib && c->speed.factor > 0) {
        size_t l = strlen(r->note);
        snprintf(r->note + l, sizeof r->note - l, "; speed checked %.10s: times x%.2f",
                 c->speed.checked, c->speed.factor);
    }
}

/* The row of the target `spec` names (oc_target_open, any mode); a
 * target that does not open is left out, said when `warn`. */
static void add_row(const char *spec, bool warn, const char *suffix, row *rows, size_t *n)
{
    oc_target_value *t = malloc(sizeof *t);
    oc_error err;
    oc_error_clear(&err);
    if (!t)
        return;
    if (oc_target_open(spec, OC_TARGET_ANY_MODE, t, &err) == OC_OK)
        target_row(t, &rows[(*n)++]);
    else if (warn)
        fprintf(stderr, "onnxcost: warning: %s%s\n", err.msg, suffix);
    oc_target_close(t);
    free(t);
}

int cmd_targets(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    out_format fmt = FMT_TABLE;
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if ((rc = cli_parse_format(optarg, &fmt, 0)))
                return rc;
            break;
        case 'h': fputs(targets_help, stdout); return EXIT_OK;
        default: return cli_bad_option("targets", argv, "f:h");
        }
    }
    if (optind != argc) {
        cli_error("targets takes no operands (try 'onnxcost targets --help')");
        return EXIT_USAGE;
    }
    oc_machine here;
    oc_this_machine(&here);
    row rows[256];
    size_t n = 0;
    oc_error err;
    for (int i = 0; i < OC_TARGET_COUNT && n < 256; i++)
        add_row(oc_target_entry_of((oc_target_id)i)->name, false, "", rows, &n);
    oc_calib cal;
    for (size_t i = 0; i < oc_builtin_calib_count() && n < 256; i++) {
        oc_error_clear(&err);
        if (oc_builtin_calib_get(i, &cal, NULL, &err) != OC_OK) {
            fprintf(stderr, "onnxcost: warning: %s\n", err.msg);
            continue;
        }
        char name[160];
        snprintf(name, sizeof name, "%s@%s", cal.target, cal.machine.id);
        add_row(name, true, "", rows, &n);
    }
    char dir[4096];
    DIR *d = oc_cache_dir(dir, sizeof dir) ? NULL : opendir(dir);
    if (d) {
        struct dirent *e;
        char names[128][256];
        size_t nn = 0;
        while ((e = readdir(d)) && nn < 128) {
            size_t len = strlen(e->d_name);
            if (len > 5 && len < 256 && !strcmp(e->d_name + len - 5, ".json"))
                snprintf(names[nn++], 256, "%s", e->d_name);
        }
        closedir(d);
        qsort(names, nn, sizeof names[0], (int (*)(const void *, const void *))strcmp);
        for (size_t i = 0; i < nn && n < 256; i++) {
            char path[4400];
            snprintf(path, sizeof path, "%s/%.255s", dir, names[i]);
            add_row(path, true, " (ignored)", rows, &n);
        }
    }
    if (fmt == FMT_JSON) {
        json_t *arr = json_array();
        for (size_t i = 0; i < n; i++) {
            const row *r = &rows[i];
            json_array_append_new(
                arr, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:s}", "name",
                               r->name, "kind", r->kind, "mode", r->mode, "runtime",
                               r->runtime, "machine", r->machine, "threads", r->threads,
                               "created", r->created, "this_machine",
                               !strcmp(r->machine, here.id), "note", r->note));
        }
        return cli_json_print(json_pack("{s:s, s:o}", "this_machine", here.id, "targets", arr));
    }
    printf("this machine: %s (%s)\n\n", here.id, here.model_name[0] ? here.model_name : "?");
    printf("%-34s %-11s %-9s %-24s %-30s %-7s %-10s %s\n", "target", "kind", "mode", "runtime",
           "machine", "threads", "date", "");
    for (size_t i = 0; i < n; i++) {
        const row *r = &rows[i];
        bool mine = !strcmp(r->machine, here.id);
        printf("%-34s %-11s %-9s %-24s %-30s %-7s %-10s %s%s\n", r->name, r->kind, r->mode,
               r->runtime, r->machine, r->threads, r->created, mine ? "* this machine; " : "",
               r->note);
    }
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_IO;
}
