/* cmd_hw.c - onnxcost hw: measure this machine's peak sgemm and bandwidth. */
#include "cli/cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "predictor/hw.h"

static const char hw_help[] =
    "usage: onnxcost hw [--threads N] [--format table|json] [-o FILE]\n"
    "\n"
    "Describe this machine: its fingerprint (the id every sample, timing\n"
    "model and calibration carries), CPU, ISA features and caches, the\n"
    "runtimes the collectors would use; and measure its peak single-precision\n"
    "GEMM throughput (OpenBLAS\n"
    "sgemm, 1024x1024x1024, best of 5) at 1 and N threads, and a STREAM-like\n"
    "copy bandwidth (two 64 MiB arrays, best of 6; bytes read + written) at 1\n"
    "and N threads.  Takes a few seconds; run it on a quiet machine, as\n"
    "other load only lowers the figures.  'onnxcost train --hw FILE' reads\n"
    "the profile, and the timing model stores it.\n"
    "\n"
    "  -T, --threads N    the N of the N-thread figures (default: online CPUs)\n"
    "  -f, --format FMT   table (default) or json\n"
    "  -o, --output FILE  also write the profile as JSON to FILE\n"
    "      --fingerprint  print the fingerprint and exit (measures nothing)\n"
    "  -h, --help         this text\n";

/* The runtime versions the collectors would use: the onnxruntime-node
 * package beside the ORT driver, and Debian's torch (its version.py), both
 * read as files: nothing is started.  "" where absent. */
static void read_quoted_after(const char *path, const char *key, char *out, size_t n)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *p = strstr(line, key);
        if (!p)
            continue;
        p += strlen(key);
        char *q = strpbrk(p, "\"'");
        if (!q)
            continue;
        char *e = strchr(q + 1, *q);
        if (e && (size_t)(e - q - 1) < n) {
            memcpy(out, q + 1, (size_t)(e - q - 1));
            out[e - q - 1] = '\0';
        }
        break;
    }
    fclose(f);
}

static void runtime_versions(char *ort, size_t on, char *torch, size_t tn)
{
    read_quoted_after(OC_SOURCE_DIR "/collector/node_modules/onnxruntime-node/package.json",
                      "\"version\":", ort, on);
    read_quoted_after("/usr/lib/python3/dist-packages/torch/version.py", "__version__ =",
                      torch, tn);
}

int cmd_hw(int argc, char **argv)
{
    static const struct option opts[] = {
        {"threads", required_argument, NULL, 'T'},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"fingerprint", no_argument, NULL, 'F'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int64_t threads = 0;
    out_format fmt = FMT_TABLE;
    const char *output = NULL;
    bool only_fp = false;
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "T:f:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'T':
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
        case 'F':
            only_fp = true;
            break;
        case 'h':
            fputs(hw_help, stdout);
            return EXIT_OK;
        default:
            return cli_bad_option("hw", argv, "T:f:o:h");
        }
    }
    if (optind != argc) {
        cli_error("hw takes no operands (try 'onnxcost hw --help')");
        return EXIT_USAGE;
    }
    oc_machine mach;
    oc_this_machine(&mach);
    if (only_fp) {
        printf("%s\n", mach.id);
        return fflush(stdout) == 0 ? EXIT_OK : EXIT_IO;
    }
    char ort[64], torch[64];
    runtime_versions(ort, sizeof ort, torch, sizeof torch);
    oc_hw hw;
    oc_error err;
    oc_error_clear(&err);
    if (oc_hw_measure((int)threads, &hw, &err) != OC_OK)
        return cli_fail(&err, 0);
    if (output) {
        json_t *j = oc_hw_to_json(&hw);
        if (j)
            json_object_set_new(j, "machine", oc_machine_to_json(&mach));
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
    if (fmt == FMT_JSON) {
        json_t *j = oc_hw_to_json(&hw);
        if (j) {
            json_object_set_new(j, "machine", oc_machine_to_json(&mach));
            json_object_set_new(j, "runtimes",
                                json_pack("{s:s?, s:s?}", "onnxruntime-node",
                                          ort[0] ? ort : NULL, "torch", torch[0] ? torch : NULL));
        }
        return cli_json_print(j);
    }
    char isa[160], l2[32], l3[32];
    oc_machine_isa_str(&mach, isa, sizeof isa);
    printf("fingerprint     %s\n", mach.id);
    printf("cpu             %s (%d online CPUs; %s family %d model %d stepping %d)\n",
           hw.cpu[0] ? hw.cpu : "?", hw.cores, mach.vendor[0] ? mach.vendor : "?", mach.family,
           mach.model, mach.stepping);
    printf("isa             %s (ONNX Runtime NCHWc block %d)\n", isa[0] ? isa : "-",
           oc_machine_nchwc_block(&mach));
    printf("caches          L2 %s, L3 %s (per instance)\n",
           mach.l2_bytes ? oc_fmt_bytes((double)mach.l2_bytes, l2, sizeof l2) : "unknown",
           mach.l3_bytes ? oc_fmt_bytes((double)mach.l3_bytes, l3, sizeof l3) : "unknown");
    printf("runtimes        onnxruntime-node %s, torch %s\n", ort[0] ? ort : "not installed",
           torch[0] ? torch : "not installed");
    printf("sgemm peak      1 thread %7.1f GFLOP/s   %d threads %7.1f GFLOP/s   (%d^3)\n",
           hw.gflops_1, hw.max_threads, hw.gflops_n, hw.sgemm_n);
    printf("copy bandwidth  1 thread %7.1f GB/s      %d threads %7.1f GB/s      (2 x %.0f MiB)\n",
           hw.gbps_1, hw.max_threads, hw.gbps_n, hw.copy_mib);
    printf("fresh pages     1 thread %7.2f ms/MB     %d threads %7.2f ms/MB     (page faults "
           "of a new 64 MiB mapping)\n",
           hw.fault_us_per_mb / 1e3, hw.max_threads, hw.fault_us_per_mb_n / 1e3);
    if (output)
        printf("wrote %s\n", output);
    return EXIT_OK;
}
