/* cli.h - shared pieces of the onnxcost command. */
#ifndef OC_CLI_H
#define OC_CLI_H

#include <jansson.h>
#include <signal.h>
#include <stdio.h>

#include "analyzer/analyzer.h"
#include "predictor/hw.h"
#include "predictor/machine.h"
#include "predictor/sweep.h"
#include "predictor/target.h"
#include "report/format.h"
#include "report/json.h"
#include "report/report.h"
#include "training/anchors.h"
#include "training/driver.h"
#include "training/score.h"

enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_IO = 3, EXIT_INTERRUPTED = 130 };

typedef enum { FMT_TABLE, FMT_JSON, FMT_CSV } out_format;

typedef struct cmd {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} cmd;

int cmd_info(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_hw(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_targets(int argc, char **argv);
int cmd_compare(int argc, char **argv);

/* SIGINT and SIGTERM to `handler` (old[0], old[1]: the dispositions they
 * had), and back (calibrate's runs). */
void cli_signals_catch(void (*handler)(int), struct sigaction old[2]);
void cli_signals_restore(const struct sigaction old[2]);

/* A work folder $TMPDIR/onnxcost-NAME.XXXXXX (/tmp without $TMPDIR)
 * made into buf: buf, or NULL with errno set (buf then holds its
 * template). */
char *cli_mkdtemp(const char *name, char *buf, size_t n);
/* The cache file of a calibration of machine fp into path, its folder
 * made: 0, or an exit code after one line (no cache directory known, the
 * folder not made). */
int cli_calib_cache_file(const char *fp, const char *target, const char *runtime,
                         const char *mode, char *path, size_t n);

/* calibrate's driver arguments at `threads` (the probe's and --check's). */
const char *cli_calibrate_driver_args(bool training, int64_t threads);
/* onnxcost calibrate --check (cli/calibrate_check.c): the check kernel
 * timed here against the calibration in use (spec NULL) or spec's, at
 * each thread count; with save, that calibration with the speed found
 * written to output (NULL: the cache).  Returns an exit code. */
typedef struct cli_check_opts {
    bool training;
    oc_optimizer optimizer;
    const int64_t *threads;
    size_t n_threads;
    const char *spec;
    out_format format;
    bool save;
    const char *output;
} cli_check_opts;
int cli_calibrate_check(const cli_check_opts *o);

/* Print "onnxcost: msg" on stderr. */
/* An option getopt_long refused (opterr = 0): one line naming it, whether
 * unknown or missing its value; returns EXIT_USAGE. */
int cli_bad_option(const char *cmd, char **argv, const char *shortopts);
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit code for a failed library call, after printing err. */
int cli_fail(const oc_error *err, int load_phase);
/* The library's log (training/log.h) on stderr: progress lines as they
 * are, "onnxcost: warning: " before warnings, the DETAIL lines of a failed
 * run after its error line (cli_fail). */
extern const oc_log cli_log;
/* Exit code of a failed long run (collect, calibrate): EXIT_INTERRUPTED,
 * silently, when a second Ctrl-C abandoned it, else cli_fail(err, 0). */
int cli_fail_run(const oc_error *err, bool abandoned);

/* Options shared by the commands that analyse a model. */
typedef struct analyze_args {
    oc_analyze_opts opts;
    oc_input_override overrides[32];
    char names[32][256]; /* storage for the overrides' names */
    oc_dim_binding dims[32]; /* --dim NAME=VALUE */
    char dim_names[32][256];
    oc_dim_binding assumes[32]; /* --assume NAME=VALUE */
    char assume_names[32][256];
    bool strict; /* --strict: unbound dims and uncounted nodes are errors */
} analyze_args;

/* Parse "--input NAME=1x3x224x224" into args; returns 0 or EXIT_USAGE. */
int cli_parse_input(analyze_args *a, const char *spec);
/* Parse "--dim NAME=VALUE" into args; returns 0 or EXIT_USAGE. */
int cli_parse_dim(analyze_args *a, const char *spec);
/* Parse "--assume NAME=VALUE" (a data-dependent dim's size) into args;
 * returns 0 or EXIT_USAGE. */
int cli_parse_assume(analyze_args *a, const char *spec);
/* getopt_long codes of the long-only options --dim, --strict, --assume. */
enum { CLI_OPT_DIM = 0x100, CLI_OPT_STRICT, CLI_OPT_ASSUME };
#define CLI_DIM_OPTIONS                                                            \
    {"dim", required_argument, NULL, CLI_OPT_DIM},                                 \
    {"assume", required_argument, NULL, CLI_OPT_ASSUME},                           \
    {"strict", no_argument, NULL, CLI_OPT_STRICT}
/* The help lines of --dim and --assume. */
#define CLI_DIM_HELP                                                               \
    "      --dim NAME=VALUE     bind the symbolic dim NAME wherever the model\n"    \
    "                           declares it (repeatable; 'onnxcost info' lists\n"  \
    "                           them); the batch is the inputs' leading dim,\n"    \
    "                           whichever of --dim, --input, --batch binds it\n"   \
    "      --assume NAME=VALUE  the size of a dim that depends on the data\n"      \
    "                           (NonZero's count, a computed Resize), named\n"     \
    "                           OUTPUT:DIM as the not-counted warning lists them\n"
#define CLI_STRICT_HELP                                                            \
    "      --strict             refuse (exit 2) to predict with symbolic dims\n"   \
    "                           left unbound or nodes not counted\n"

/* After a predicting command's analysis (predict, sweep, annotate,
 * report): one warning line on stderr naming the symbolic dims left
 * unbound (costed as 1) and how to bind them; with --strict an error line
 * instead, returning EXIT_INPUT.  Also one line when --batch bound no dim
 * (the batch is the model's or another option's).  Returns 0 or
 * EXIT_INPUT. */
int cli_check_bound(const analyze_args *aa, const oc_analysis *a);
/* One warning line when an estimate left nodes out (shapes unknown); with
 * --strict an error line and EXIT_INPUT.  Returns 0 or EXIT_INPUT. */
struct oc_estimate;
int cli_check_uncounted(const analyze_args *aa, const oc_analysis *a,
                        const struct oc_estimate *e);
/* Parse a positive integer option; returns 0 or EXIT_USAGE. */
int cli_parse_i64(const char *opt, const char *s, int64_t min, int64_t max,
                  int64_t *out);
int cli_parse_format(const char *s, out_format *f, int allow_csv);
/* Parse a list of batch sizes "1,2,4" (at most CLI_MAX_STEPS, each in
 * [1, 2^32]) for option `opt`; returns 0 or EXIT_USAGE. */
enum { CLI_MAX_STEPS = OC_SWEEP_MAX_STEPS };
int cli_parse_list(const char *opt, const char *s, int64_t *out, size_t *n);
/* Parse a size such as 8GiB, 512MB or 1e9 for option `opt`. */
int cli_parse_size(const char *opt, const char *s, uint64_t *out);
/* Whether two paths name the same file (equal, or the same inode). */
bool cli_same_file(const char *a, const char *b);

/* Load (exit code on failure; message printed).  "-" reads standard
 * input.  The size limit is --max-model-size (cli_set_max_model_size),
 * else $ONNXCOST_MAX_MODEL_SIZE, else OC_DEFAULT_MAX_MODEL_BYTES. */
int cli_load(const char *path, oc_model **m);
/* The load options of --max-model-size or ONNXCOST_MAX_MODEL_SIZE. */
int cli_load_opts(oc_load_opts *lo);
/* --max-model-size SIZE (100M, 2G, 512MB, 1e9): 0 or EXIT_USAGE. */
int cli_set_max_model_size(const char *opt, const char *size);

/* --mode inference|training and --optimizer sgd|adam of the predicting
 * commands. */
typedef struct cli_mode {
    bool training;
    bool optimizer_given;
    oc_optimizer optimizer; /* after cli_mode_resolve: NONE for inference */
} cli_mode;
int cli_parse_mode(const char *s, cli_mode *m);      /* 0 or EXIT_USAGE */
int cli_parse_optimizer(const char *s, cli_mode *m); /* 0 or EXIT_USAGE */
/* Settle the optimizer (training: SGD unless given); --optimizer without
 * --mode training is a usage error.  Returns 0 or EXIT_USAGE. */
int cli_mode_resolve(cli_mode *m);
const char *cli_mode_name(const cli_mode *m); /* "inference", "training" */

/* The target of predict, sweep, annotate and report, chosen by the
 * library (predictor/target.h, oc_target_select: `spec` NULL, a built-in
 * name, NAME@MACHINE or a file), with the mode's optimizer and `threads`
 * (0: the model's own).  Its warnings are printed here, one line each;
 * returns 0 or an exit code (message printed). */
typedef oc_target_sel cli_target;
struct oc_tmodel;
struct oc_overhead;
int cli_load_tmodel(const char *spec, int64_t threads, const cli_mode *mode,
                    struct oc_tmodel **tm, struct oc_overhead *ov, cli_target *tgt);
void cli_print_target(const struct oc_tmodel *tm, const cli_target *tgt,
                      const cli_mode *mode);

/* Analyse and predict `m` at each of batches[0..n) into steps[]: aa's
 * --input overrides keep their dims but take each step's batch; a --dim
 * that binds the batch dim is a usage error.  limit 0 means none.  *fit
 * is the largest batch that fits and *best the best throughput among
 * those that fit (SIZE_MAX both when none fits).  With `warn`, dims left
 * unbound and nodes not counted are said once (cli_check_bound,
 * cli_check_uncounted; errors with --strict).  Returns 0 or an exit code
 * (message printed). */
int cli_sweep_steps(const oc_model *m, analyze_args *aa, const struct oc_tmodel *tm,
                    const struct oc_overhead *ov, const int64_t *batches, size_t n,
                    uint64_t limit, oc_report_step *steps, size_t *fit, size_t *best, bool warn);

int cli_json_print(json_t *j);
/* --nchwc-block N into *out: 0, 8 or 16; EXIT_USAGE (one line) otherwise. */
int cli_parse_nchwc_block(const char *arg, int64_t *out);
/* Parse --by family|op|pattern; 0 or EXIT_USAGE (message printed). */
int cli_parse_score_by(const char *s, oc_score_by *by);

#endif
