/* cmd_hw.c - onnxcost hw: measure this machine's peak sgemm and bandwidth. */
#include "cli/cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "predictor/hw.h"

static const char hw_help[] =
    "usage: onnxcost hw [--threads N] [--format table|json] [-o FILE]\n"
    "\n"
    "Measure this machine: peak single-precision GEMM throughput (OpenBLAS\n"
    "sgemm, 1024x1024x1024, best of 5) at 1 and N threads, and a STREAM-like\n"
    "copy bandwidth (two 64 MiB arrays, best of 6; bytes read + written) at 1\n"
    "and N threads.  Takes a few seconds; run it on a quiet machine, as\n"
    "other load only lowers the figures.  'onnxcost train --hw FILE' reads\n"
    "the profile, and the timing model stores it.\n"
    "\n"
    "  -t, --threads N    the N of the N-thread figures (default: online CPUs)\n"
    "  -f, --format FMT   table (default) or json\n"
    "  -o, --output FILE  also write the profile as JSON to FILE\n"
    "  -h, --help         this text\n";

int cmd_hw(int argc, char **argv)
{
    static const struct option opts[] = {
        {"threads", required_argument, NULL, 't'},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int64_t threads = 0;
    out_format fmt = FMT_TABLE;
    const char *output = NULL;
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:f:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 't':
            if ((rc = cli_parse_i64("--threads", optarg, 1, 256, &threads)))
                return rc;
            break;
        case 'f':
            if ((rc = cli_parse_format(optarg, &fmt, 0)))
                return rc;
            break;
        case 'o':
            output = optarg;
            break;
        case 'h':
            fputs(hw_help, stdout);
            return EXIT_OK;
        default:
            fputs(hw_help, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind != argc) {
        cli_error("hw takes no operands (try 'onnxcost hw --help')");
        return EXIT_USAGE;
    }
    oc_hw hw;
    oc_error err;
    oc_error_clear(&err);
    if (oc_hw_measure((int)threads, &hw, &err) != OC_OK)
        return cli_fail(&err, 0);
    if (output) {
        json_t *j = oc_hw_to_json(&hw);
        char *text = j ? json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER) : NULL;
        json_decref(j);
        if (!text) {
            cli_error("out of memory");
            return EXIT_IO;
        }
        size_t n = strlen(text);
        text[n] = '\n'; /* json_dumps's NUL becomes the final newline */
        oc_status st = oc_write_file_atomic(output, text, n + 1, &err);
        free(text);
        if (st != OC_OK)
            return cli_fail(&err, 0);
    }
    if (fmt == FMT_JSON)
        return cli_json_print(oc_hw_to_json(&hw));
    printf("cpu             %s (%d online CPUs)\n", hw.cpu[0] ? hw.cpu : "?", hw.cores);
    printf("sgemm peak      1 thread %7.1f GFLOP/s   %d threads %7.1f GFLOP/s   (%d^3)\n",
           hw.gflops_1, hw.max_threads, hw.gflops_n, hw.sgemm_n);
    printf("copy bandwidth  1 thread %7.1f GB/s      %d threads %7.1f GB/s      (2 x %.0f MiB)\n",
           hw.gbps_1, hw.max_threads, hw.gbps_n, hw.copy_mib);
    if (output)
        printf("wrote %s\n", output);
    return EXIT_OK;
}
