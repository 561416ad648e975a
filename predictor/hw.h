/*
 * hw.h - what the machine can do: peak sgemm GFLOP/s at 1 and N threads
 * (OpenBLAS), a STREAM-like copy bandwidth at 1 and N threads and the cost
 * of faulting in fresh pages; and the
 * target descriptor the timing model's features and the roofline baseline
 * read.
 *
 *     oc_hw hw;
 *     if (oc_hw_measure(0, &hw, &err) != OC_OK) ...    // 0: all online CPUs
 *     oc_target t;
 *     oc_hw_target(&hw, "ort-cpu", 2, &t);             // figures for 2 threads
 *
 * Measuring takes a few seconds and is only as good as the machine is
 * quiet: each figure is the best of several repetitions (contention only
 * makes a kernel slower).  The profile is saved with the timing model, so
 * prediction uses the figures the model was trained with.
 */
#ifndef OC_PREDICTOR_HW_H
#define OC_PREDICTOR_HW_H

#include <jansson.h>

#include "onnx/common.h"

typedef struct oc_hw {
    char cpu[128];     /* "model name" from /proc/cpuinfo, "" if unknown */
    int cores;         /* online CPUs */
    int max_threads;   /* N: the thread count of the *_n figures */
    double gflops_1;   /* sgemm peak, 1 thread */
    double gflops_n;   /* sgemm peak, N threads */
    double gbps_1;     /* copy bandwidth (read + write bytes / s), 1 thread */
    double gbps_n;     /* copy bandwidth, N threads */
    int sgemm_n;       /* matrix size used for the sgemm figure */
    double copy_mib;   /* size of each copy array */
    char machine[64];  /* the machine's fingerprint (machine.h) as the
                          profile's "machine": {"id"} records it; "" if not */
    double fault_us_per_mb; /* writing to fresh anonymous pages (a new
                          mapping), us per MB (10^6 bytes), 1 thread: what a
                          block malloc takes from the kernel costs on first
                          touch; 0 when not measured (older profiles) */
    double fault_us_per_mb_n; /* the same, N threads writing its parts */
    int nchwc_block;   /* ONNX Runtime's NCHWc block there: "nchwc_block",
                          else from "machine": {"isa"} (16 with avx512f, 8
                          with avx2 or fma); 0 when unknown */
} oc_hw;

/* What a training step updates the weights with; NONE for inference. */
typedef enum oc_optimizer { OC_OPT_NONE = 0, OC_OPT_SGD, OC_OPT_ADAM } oc_optimizer;

/* "none", "sgd", "adam" */
const char *oc_optimizer_name(oc_optimizer o);
/* false when s is none of those names */
bool oc_optimizer_parse(const char *s, oc_optimizer *out);

/* The machine as one target sees it. */
typedef struct oc_target {
    char name[64];  /* "ort-cpu" */
    char cpu[128];
    int threads;    /* intra-op threads of the runtime */
    double gflops;  /* peak at `threads` */
    double gbps;    /* bandwidth at `threads` */
    oc_optimizer optimizer; /* training targets (torch-cpu); NONE otherwise */
    int nchwc_block; /* ORT's NCHWc block on the CPU planned for; 0: none */
    double fault_us_per_mb; /* fresh pages at `threads`, us per MB; 0: not
                               measured */
} oc_target;

/* Measure this machine.  threads <= 0 means all online CPUs.  Sets
 * OpenBLAS's thread count while measuring and restores it after.
 * Errors: OC_ERR_NOMEM, OC_ERR_INTERNAL (a timer or thread failed). */
oc_status oc_hw_measure(int threads, oc_hw *out, oc_error *err);

/* "model name" of the first CPU in /proc/cpuinfo into buf ("" if none). */
void oc_hw_cpu_name(char *buf, size_t size);
int oc_hw_online_cpus(void);

/* Figures for `threads` threads (peak, bandwidth, fresh pages): the
 * 1-thread figure at 1, the N-thread one at N or more, linear in between;
 * optimizer NONE. */
void oc_hw_target(const oc_hw *hw, const char *name, int threads, oc_target *out);

/* JSON: {"cpu", "cores", "max_threads", "gflops_1", "gflops_n", "gbps_1",
 * "gbps_n", "sgemm_n", "copy_mib", "fault_us_per_mb" and "fault_us_per_mb_n"
 * (when measured)}.  to_json returns a new reference (NULL
 * on allocation failure); from_json fails with OC_ERR_INPUT naming the
 * missing or non-positive field. */
json_t *oc_hw_to_json(const oc_hw *hw);
oc_status oc_hw_from_json(const json_t *j, oc_hw *out, oc_error *err);
/* Read a profile written by `onnxcost hw --json`. */
oc_status oc_hw_load(const char *path, oc_hw *out, oc_error *err);

#endif
