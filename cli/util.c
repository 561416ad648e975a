/* util.c - argument parsing, loading and formatting shared by commands. */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void drop_details(bool print);

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("onnxcost: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_fail(const oc_error *err, int load_phase)
{
    cli_error("%s", err->msg[0] ? err->msg : oc_status_str(err->status));
    drop_details(true);
    switch (err->status) {
    case OC_ERR_USAGE:
        return EXIT_USAGE;
    case OC_ERR_INPUT:
    case OC_ERR_OVERFLOW:
        return EXIT_INPUT;
    case OC_ERR_IO:
        return load_phase ? EXIT_INPUT : EXIT_IO;
    default:
        return EXIT_IO;
    }
}

/* The library's lines (training/log.h) on stderr; a failed run's DETAIL
 * lines wait for its error line (cli_fail). */
static char *details[64];
static size_t n_details;

static void drop_details(bool print)
{
    for (size_t i = 0; i < n_details; i++) {
        if (print)
            fprintf(stderr, "%s\n", details[i]);
        free(details[i]);
    }
    n_details = 0;
}

static void log_line(void *ud, oc_log_level level, const char *line)
{
    (void)ud;
    switch (level) {
    case OC_LOG_PROGRESS: fprintf(stderr, "%s\n", line); break;
    case OC_LOG_NOTICE: fprintf(stderr, "\nonnxcost: %s\n", line); break;
    case OC_LOG_WARNING: fprintf(stderr, "onnxcost: warning: %s\n", line); break;
    case OC_LOG_DETAIL:
        if (n_details < sizeof details / sizeof details[0])
            details[n_details++] = strdup(line);
        break;
    }
}

const oc_log cli_log = {log_line, NULL};

int cli_fail_run(const oc_error *err, bool abandoned)
{
    if (abandoned) {
        drop_details(false);
        return EXIT_INTERRUPTED;
    }
    return cli_fail(err, 0);
}

int cli_parse_i64(const char *opt, const char *s, int64_t min, int64_t max,
                  int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max) {
        cli_error("%s: '%s' is not an integer in [%lld, %lld]", opt, s,
                  (long long)min, (long long)max);
        return EXIT_USAGE;
    }
    *out = v;
    return 0;
}

int cli_parse_input(analyze_args *a, const char *spec)
{
    const char *eq = strrchr(spec, '=');
    if (!eq || eq == spec || !eq[1]) {
        cli_error("--input: expected NAME=DIMS (e.g. input=1x3x224x224), got '%s'",
                  spec);
        return EXIT_USAGE;
    }
    if (a->opts.n_overrides >= sizeof a->overrides / sizeof a->overrides[0]) {
        cli_error("--input: too many overrides");
        return EXIT_USAGE;
    }
    oc_input_override *o = &a->overrides[a->opts.n_overrides];
    size_t nl = (size_t)(eq - spec);
    char *name = a->names[a->opts.n_overrides];
    if (nl >= sizeof a->names[0]) {
        cli_error("--input: name too long");
        return EXIT_USAGE;
    }
    memcpy(name, spec, nl);
    name[nl] = '\0';
    o->name = name;
    o->rank = 0;
    const char *p = eq + 1;
    if (strcmp(p, "scalar") != 0) {
        while (*p) {
            char *end;
            errno = 0;
            long long v = strtoll(p, &end, 10);
            if (errno || end == p || v < 0 || v > ((int64_t)1 << 40) ||
                (*end && *end != 'x' && *end != ',') || o->rank >= OC_MAX_RANK) {
                cli_error("--input %s: bad dimensions '%s' (use e.g. 1x3x224x224)",
                          name, eq + 1);
                return EXIT_USAGE;
            }
            o->dims[o->rank++] = v;
            p = *end ? end + 1 : end;
        }
    }
    a->opts.n_overrides++;
    a->opts.overrides = a->overrides;
    return 0;
}

/* NAME=VALUE for option opt into binds[*n], its name into names[*n]. */
static int parse_binding(const char *opt, const char *spec, oc_dim_binding *binds,
                         char (*names)[256], size_t *n, size_t max)
{
    const char *eq = strrchr(spec, '=');
    if (!eq || eq == spec || !eq[1]) {
        cli_error("%s: expected NAME=VALUE (e.g. %s), got '%s'", opt,
                  strcmp(opt, "--dim") ? "nz:1=1000" : "batch_size=8", spec);
        return EXIT_USAGE;
    }
    size_t nl = (size_t)(eq - spec);
    if (*n >= max) {
        cli_error("%s: at most %zu", opt, max);
        return EXIT_USAGE;
    }
    if (nl >= sizeof names[0]) {
        cli_error("%s: name too long", opt);
        return EXIT_USAGE;
    }
    char *end;
    errno = 0;
    long long v = strtoll(eq + 1, &end, 10);
    if (errno || *end || v < 0 || v > ((int64_t)1 << 40)) {
        cli_error("%s %.*s: '%s' is not an integer in [0, 2^40]", opt, (int)nl, spec,
                  eq + 1);
        return EXIT_USAGE;
    }
    memcpy(names[*n], spec, nl);
    names[*n][nl] = '\0';
    binds[*n] = (oc_dim_binding){names[*n], v};
    ++*n;
    return 0;
}

int cli_parse_dim(analyze_args *a, const char *spec)
{
    a->opts.dims = a->dims;
    return parse_binding("--dim", spec, a->dims, a->dim_names, &a->opts.n_dims,
                         sizeof a->dims / sizeof a->dims[0]);
}

int cli_parse_assume(analyze_args *a, const char *spec)
{
    a->opts.assumes = a->assumes;
    return parse_binding("--assume", spec, a->assumes, a->assume_names, &a->opts.n_assumes,
                         sizeof a->assumes / sizeof a->assumes[0]);
}

int cli_parse_format(const char *s, out_format *f, int allow_csv)
{
    if (strcmp(s, "table") == 0)
        *f = FMT_TABLE;
    else if (strcmp(s, "json") == 0)
        *f = FMT_JSON;
    else if (allow_csv && strcmp(s, "csv") == 0)
        *f = FMT_CSV;
    else {
        cli_error("--format: '%s' is not one of table, json%s", s,
                  allow_csv ? ", csv" : "");
        return EXIT_USAGE;
    }
    return 0;
}

int cli_parse_mode(const char *s, cli_mode *m)
{
    if (strcmp(s, "inference") && strcmp(s, "training")) {
        cli_error("--mode: '%s' is not one of inference, training", s);
        return EXIT_USAGE;
    }
    m->training = strcmp(s, "training") == 0;
    return 0;
}

int cli_parse_optimizer(const char *s, cli_mode *m)
{
    if (!oc_optimizer_parse(s, &m->optimizer) || m->optimizer == OC_OPT_NONE) {
        cli_error("--optimizer: '%s' is not one of sgd, adam", s);
        return EXIT_USAGE;
    }
    m->optimizer_given = true;
    return 0;
}

int cli_mode_resolve(cli_mode *m)
{
    if (!m->training) {
        if (m->optimizer_given) {
            cli_error("--optimizer applies to training steps: add --mode training");
            return EXIT_USAGE;
        }
        m->optimizer = OC_OPT_NONE;
    } else if (!m->optimizer_given) {
        m->optimizer = OC_OPT_SGD;
    }
    return 0;
}

const char *cli_mode_name(const cli_mode *m) { return m->training ? "training" : "inference"; }

int cli_parse_list(const char *opt, const char *s, int64_t *out, size_t *n)
{
    *n = 0;
    const char *p = s;
    while (*p) {
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (errno || end == p || v < 1 || v > ((int64_t)1 << 32) || *n == CLI_MAX_STEPS ||
            (*end && *end != ',')) {
            cli_error("%s: '%s' is not a list of positive integers like 1,2,4", opt, s);
            return EXIT_USAGE;
        }
        out[(*n)++] = v;
        p = *end ? end + 1 : end;
    }
    if (*n == 0) {
        cli_error("%s: the list is empty", opt);
        return EXIT_USAGE;
    }
    return 0;
}

int cli_parse_size(const char *opt, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    static const struct {
        const char *suffix;
        double mul;
    } units[] = {{"", 1},      {"B", 1},        {"KB", 1e3},          {"MB", 1e6},
                 {"GB", 1e9},  {"TB", 1e12},    {"KiB", 1024.0},      {"MiB", 1048576.0},
                 {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};
    for (size_t i = 0; !errno && v > 0 && i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].suffix) == 0 && v * units[i].mul < 1.8e19) {
            *out = (uint64_t)(v * units[i].mul);
            return 0;
        }
    cli_error("%s: '%s' is not a size like 8GiB or 512MB", opt, s);
    return EXIT_USAGE;
}

bool cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return true;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* --max-model-size (main.c), else $ONNXCOST_MAX_MODEL_SIZE, else the
 * library's default. */
static uint64_t max_model_size;

/* A size as cli_parse_size takes it, or with a one-letter binary suffix
 * as GNU tools write them (100M = 100 MiB, 2G = 2 GiB). */
static int parse_model_size(const char *opt, const char *s, uint64_t *out)
{
    size_t n = strlen(s);
    char buf[64];
    if (n > 1 && n + 3 < sizeof buf && strchr("KMGT", s[n - 1]) &&
        (s[n - 2] == '.' || (s[n - 2] >= '0' && s[n - 2] <= '9'))) {
        snprintf(buf, sizeof buf, "%siB", s);
        s = buf;
    }
    return cli_parse_size(opt, s, out);
}

int cli_set_max_model_size(const char *opt, const char *s)
{
    return parse_model_size(opt, s, &max_model_size);
}

int cli_load_opts(oc_load_opts *lo)
{
    *lo = (oc_load_opts){.max_bytes = max_model_size};
    const char *env = getenv("ONNXCOST_MAX_MODEL_SIZE");
    if (!lo->max_bytes && env && *env &&
        parse_model_size("ONNXCOST_MAX_MODEL_SIZE", env, &lo->max_bytes))
        return EXIT_USAGE;
    return 0;
}

int cli_load(const char *path, oc_model **m)
{
    oc_error err;
    oc_error_clear(&err);
    oc_load_opts lo;
    if (cli_load_opts(&lo))
        return EXIT_USAGE;
    if (oc_model_load(path, &lo, m, &err) != OC_OK)
        return cli_fail(&err, 1);
    return 0;
}

int cli_json_print(json_t *j)
{
    int rc = json_dumpf(j, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    fputc('\n', stdout);
    json_decref(j);
    if (rc != 0 || fflush(stdout) != 0) {
        cli_error("cannot write output");
        return EXIT_IO;
    }
    return 0;
}


int cli_parse_nchwc_block(const char *arg, int64_t *out)
{
    int rc = cli_parse_i64("--nchwc-block", arg, 0, 16, out);
    if (!rc && *out != 0 && *out != 8 && *out != 16) {
        cli_error("--nchwc-block: %lld is not one of 0, 8, 16", (long long)*out);
        rc = EXIT_USAGE;
    }
    return rc;
}

int cli_bad_option(const char *cmd, char **argv, const char *shortopts)
{
    /* getopt (opterr = 0) left the offending element at optind - 1, and in
     * optopt the option's character (0 for an unknown long option) */
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    size_t n = strcspn(arg, "=");
    const char *sp = optopt > 0 && optopt < 128 ? strchr(shortopts, optopt) : NULL;
    bool wants_value = optopt >= 128 || (sp && sp[1] == ':');
    if (optopt && arg[0] == '-' && arg[1] == '-' && arg[n] == '=')
        cli_error("%s: option '%.*s' takes no value (see 'onnxcost %s --help')", cmd, (int)n, arg,
                  cmd);
    else if (optopt && wants_value && arg[0] == '-')
        cli_error("%s: option '%.*s' needs a value (see 'onnxcost %s --help')", cmd, (int)n, arg,
                  cmd);
    else if (optopt > 0 && optopt < 128 && !(arg[0] == '-' && arg[1] == '-'))
        cli_error("%s: unknown option '-%c' (see 'onnxcost %s --help')", cmd, optopt, cmd);
    else
        cli_error("%s: unknown option '%.*s' (see 'onnxcost %s --help')", cmd, (int)n, arg, cmd);
    return EXIT_USAGE;
}

int cli_parse_score_by(const char *s, oc_score_by *by)
{
    if (!strcmp(s, "family"))
        *by = OC_SCORE_BY_FAMILY;
    else if (!strcmp(s, "op"))
        *by = OC_SCORE_BY_OP;
    else if (!strcmp(s, "pattern"))
        *by = OC_SCORE_BY_PATTERN;
    else {
        cli_error("--by: '%s' is not one of family, op, pattern", s);
        return EXIT_USAGE;
    }
    return 0;
}

void cli_signals_catch(void (*handler)(int), struct sigaction old[2])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old[0]);
    sigaction(SIGTERM, &sa, &old[1]);
}

void cli_signals_restore(const struct sigaction old[2])
{
    sigaction(SIGINT, &old[0], NULL);
    sigaction(SIGTERM, &old[1], NULL);
}

char *cli_mkdtemp(const char *name, char *buf, size_t n)
{
    const char *t = getenv("TMPDIR");
    snprintf(buf, n, "%s/onnxcost-%s.XXXXXX", t && *t ? t : "/tmp", name);
    return mkdtemp(buf);
}

int cli_calib_cache_file(const char *fp, const char *target, const char *runtime,
                         const char *mode, char *path, size_t n)
{
    char dir[4096];
    if (oc_cache_dir(dir, sizeof dir) ||
        oc_calib_cache_path(fp, target, runtime, mode, path, n)) {
        cli_error("calibrate: no cache directory (set XDG_CACHE_HOME or HOME, or give -o FILE)");
        return EXIT_USAGE;
    }
    if (oc_mkdir_p(dir) != 0) {
        cli_error("cannot create %s: %s", dir, strerror(errno));
        return EXIT_IO;
    }
    return 0;
}
