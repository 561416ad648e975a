/* hw.c - peak sgemm GFLOP/s and copy bandwidth of this machine. */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS: a fresh mapping to fault in */
#include "predictor/hw.h"
#include "predictor/machine.h"

#include <cblas.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void oc_hw_cpu_name(char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        char *p = strchr(line, ':');
        if (!p)
            continue;
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strcspn(p, "\r\n");
        if (n >= size)
            n = size - 1;
        memcpy(buf, p, n);
        buf[n] = '\0';
        break;
    }
    fclose(f);
}

int oc_hw_online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* Best of `reps` square sgemms of size n at the current thread count. */
static double sgemm_gflops(const float *A, const float *B, float *C, int n, int reps)
{
    double best = 1e30;
    /* One untimed call: OpenBLAS starts its threads and faults in buffers. */
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A, n, B, n,
                0.0f, C, n);
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A, n, B,
                    n, 0.0f, C, n);
        double dt = now_s() - t0;
        if (dt < best)
            best = dt;
    }
    return 2.0 * (double)n * n * n / best / 1e9;
}

/* Workers wait for one start signal, so the timed interval covers the
 * copies and not the thread creation. */
enum { MAX_WORKERS = 256 };

/* A job of run_workers: its share of the work, `bytes` from `off` (0 bytes:
 * nothing to do). */
typedef struct worker_job {
    const char *src;
    char *dst;
    size_t off, bytes, page;
} worker_job;

typedef struct worker {
    worker_job job;
    void (*fn)(const worker_job *);
    pthread_mutex_t *mu;
    pthread_cond_t *cv;
    const int *go;
} worker;

static void *worker_main(void *arg)
{
    worker *w = arg;
    pthread_mutex_lock(w->mu);
    while (!*w->go)
        pthread_cond_wait(w->cv, w->mu);
    pthread_mutex_unlock(w->mu);
    if (w->job.bytes)
        w->fn(&w->job);
    return NULL;
}

/* Seconds for `threads` threads (at most MAX_WORKERS) to run fn on their
 * shares of `bytes` (the last one takes the rest; shares a multiple of
 * `align`), released together once all are started; -1 when a thread
 * cannot be started (the started ones are let run out on nothing). */
static double run_workers(int threads, void (*fn)(const worker_job *), worker_job tmpl,
                          size_t bytes, size_t align)
{
    pthread_t tid[MAX_WORKERS];
    worker w[MAX_WORKERS];
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    int go = 0, started = 0;
    size_t per = bytes / (size_t)threads / align * align;
    for (int t = 0; t < threads; t++) {
        w[t] = (worker){tmpl, fn, &mu, &cv, &go};
        w[t].job.off = per * (size_t)t;
        w[t].job.bytes = t == threads - 1 ? bytes - w[t].job.off : per;
        if (pthread_create(&tid[t], NULL, worker_main, &w[t]) != 0)
            break;
        started++;
    }
    pthread_mutex_lock(&mu);
    if (started < threads)
        for (int t = 0; t < started; t++)
            w[t].job.bytes = 0;
    go = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    double t0 = now_s();
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    return started < threads ? -1 : now_s() - t0;
}

static void copy_part(const worker_job *j)
{
    memcpy(j->dst + j->off, j->src + j->off, j->bytes);
}

/* Best of `reps` copies of `bytes` split over `threads` threads; GB/s of
 * bytes read plus bytes written (STREAM's convention for Copy). */
static int copy_gbps(const char *src, char *dst, size_t bytes, int threads, int reps,
                     double *out)
{
    double best = 1e30;
    if (threads > MAX_WORKERS)
        threads = MAX_WORKERS;
    for (int r = 0; r < reps; r++) {
        double dt;
        if (threads == 1) {
            double t0 = now_s();
            memcpy(dst, src, bytes);
            dt = now_s() - t0;
        } else if ((dt = run_workers(threads, copy_part, (worker_job){src, dst, 0, 0, 0}, bytes,
                                     64)) < 0) {
            return -1;
        }
        if (dt < best)
            best = dt;
    }
    *out = 2.0 * (double)bytes / best / 1e9;
    return 0;
}

static void touch_part(const worker_job *j)
{
    volatile char *p = j->dst + j->off;
    for (size_t off = 0; off < j->bytes; off += j->page)
        p[off] = 1;
}

/* Microseconds per MB (10^6 bytes) to fault in fresh anonymous pages, the
 * pages of a 64 MiB mapping split among `threads` threads, each page
 * written once: the quickest of five mappings; -1 when the system refuses
 * a mapping or a thread. */
static double fault_us_per_mb(int threads)
{
    const size_t bytes = (size_t)64 << 20;
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    if (threads > MAX_WORKERS)
        threads = MAX_WORKERS;
    if (threads < 1)
        threads = 1;
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        char *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return -1;
        double dt = run_workers(threads, touch_part, (worker_job){NULL, m, 0, 0, page}, bytes,
                                page);
        munmap(m, bytes);
        if (dt < 0)
            return -1;
        if (dt < best)
            best = dt;
    }
    return best * 1e6 / ((double)bytes / 1e6);
}

oc_status oc_hw_measure(int threads, oc_hw *out, oc_error *err)
{
    memset(out, 0, sizeof *out);
    oc_hw_cpu_name(out->cpu, sizeof out->cpu);
    out->cores = oc_hw_online_cpus();
    out->max_threads = threads > 0 ? threads : out->cores;
    if (out->max_threads > 256)
        out->max_threads = 256;

    int n = 1024;
    size_t mat = (size_t)n * n;
    float *A = malloc(mat * sizeof(float)), *B = malloc(mat * sizeof(float)),
          *C = malloc(mat * sizeof(float));
    if (!A || !B || !C) {
        free(A), free(B), free(C);
        return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
    }
    for (size_t k = 0; k < mat; k++) {
        A[k] = (float)((k * 7 % 13) - 6) / 8.0f;
        B[k] = (float)((k * 5 % 11) - 5) / 8.0f;
    }
    int saved = openblas_get_num_threads();
    openblas_set_num_threads(1);
    out->gflops_1 = sgemm_gflops(A, B, C, n, 5);
    openblas_set_num_threads(out->max_threads);
    out->gflops_n = out->max_threads == 1 ? out->gflops_1 : sgemm_gflops(A, B, C, n, 5);
    openblas_set_num_threads(saved);
    out->sgemm_n = n;
    free(A), free(B), free(C);

    /* Two 64 MiB arrays: twice a large L3, so the copy streams from DRAM. */
    size_t bytes = (size_t)64 << 20;
    char *src = malloc(bytes), *dst = malloc(bytes);
    if (!src || !dst) {
        free(src), free(dst);
        return oc_error_set(err, OC_ERR_NOMEM, "", "out of memory");
    }
    memset(src, 1, bytes); /* first touch: no page faults while timed */
    memset(dst, 0, bytes);
    out->copy_mib = (double)(bytes >> 20);
    int rc = copy_gbps(src, dst, bytes, 1, 6, &out->gbps_1);
    if (rc == 0)
        rc = out->max_threads == 1
                 ? (out->gbps_n = out->gbps_1, 0)
                 : copy_gbps(src, dst, bytes, out->max_threads, 6, &out->gbps_n);
    free(src), free(dst);
    if (rc != 0)
        return oc_error_set(err, OC_ERR_INTERNAL, "", "cannot start copy threads");
    out->fault_us_per_mb = fault_us_per_mb(1);
    out->fault_us_per_mb_n =
        out->max_threads == 1 ? out->fault_us_per_mb : fault_us_per_mb(out->max_threads);
    if (out->fault_us_per_mb < 0 || out->fault_us_per_mb_n < 0)
        return oc_error_set(err, OC_ERR_INTERNAL, "", "cannot map 64 MiB or start its threads");
    return OC_OK;
}

const char *oc_optimizer_name(oc_optimizer o)
{
    return o == OC_OPT_SGD ? "sgd" : o == OC_OPT_ADAM ? "adam" : "none";
}

bool oc_optimizer_parse(const char *s, oc_optimizer *out)
{
    static const oc_optimizer all[] = {OC_OPT_NONE, OC_OPT_SGD, OC_OPT_ADAM};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (s && strcmp(s, oc_optimizer_name(all[i])) == 0) {
            *out = all[i];
            return true;
        }
    return false;
}

void oc_hw_target(const oc_hw *hw, const char *name, int threads, oc_target *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name ? name : "");
    snprintf(out->cpu, sizeof out->cpu, "%s", hw->cpu);
    out->threads = threads < 1 ? 1 : threads;
    out->nchwc_block = hw->nchwc_block;
    int N = hw->max_threads > 1 ? hw->max_threads : 1;
    if (out->threads <= 1 || N == 1) {
        out->gflops = out->threads <= 1 ? hw->gflops_1 : hw->gflops_n;
        out->gbps = out->threads <= 1 ? hw->gbps_1 : hw->gbps_n;
        out->fault_us_per_mb = out->threads <= 1 ? hw->fault_us_per_mb : hw->fault_us_per_mb_n;
    } else if (out->threads >= N) {
        out->gflops = hw->gflops_n;
        out->gbps = hw->gbps_n;
        out->fault_us_per_mb = hw->fault_us_per_mb_n;
    } else {
        double f = (double)(out->threads - 1) / (double)(N - 1);
        out->gflops = hw->gflops_1 + f * (hw->gflops_n - hw->gflops_1);
        out->gbps = hw->gbps_1 + f * (hw->gbps_n - hw->gbps_1);
        out->fault_us_per_mb =
            hw->fault_us_per_mb + f * (hw->fault_us_per_mb_n - hw->fault_us_per_mb);
    }
}

json_t *oc_hw_to_json(const oc_hw *hw)
{
    json_t *j = json_pack("{s:s, s:i, s:i, s:f, s:f, s:f, s:f, s:i, s:f}", "cpu", hw->cpu,
                          "cores", hw->cores, "max_threads", hw->max_threads, "gflops_1",
                          hw->gflops_1, "gflops_n", hw->gflops_n, "gbps_1", hw->gbps_1,
                          "gbps_n", hw->gbps_n, "sgemm_n", hw->sgemm_n, "copy_mib",
                          hw->copy_mib);
    if (j && hw->fault_us_per_mb > 0 &&
        (json_object_set_new(j, "fault_us_per_mb", json_real(hw->fault_us_per_mb)) != 0 ||
         json_object_set_new(j, "fault_us_per_mb_n", json_real(hw->fault_us_per_mb_n)) != 0)) {
        json_decref(j);
        return NULL;
    }
    return j;
}

static oc_status get_num(const json_t *j, const char *key, double *v, oc_error *err)
{
    const json_t *x = json_object_get(j, key);
    if (!json_is_number(x) || !(json_number_value(x) > 0))
        return oc_error_set(err, OC_ERR_INPUT, "",
                            "hardware profile: '%s' missing or not a positive number", key);
    *v = json_number_value(x);
    return OC_OK;
}

oc_status oc_hw_from_json(const json_t *j, oc_hw *out, oc_error *err)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(j))
        return oc_error_set(err, OC_ERR_INPUT, "", "hardware profile: not a JSON object");
    const json_t *cpu = json_object_get(j, "cpu");
    snprintf(out->cpu, sizeof out->cpu, "%s", json_is_string(cpu) ? json_string_value(cpu) : "");
    double cores = 0, mt = 0, sn = 0, mib = 0;
    oc_status st;
    if ((st = get_num(j, "cores", &cores, err)) || (st = get_num(j, "max_threads", &mt, err)) ||
        (st = get_num(j, "gflops_1", &out->gflops_1, err)) ||
        (st = get_num(j, "gflops_n", &out->gflops_n, err)) ||
        (st = get_num(j, "gbps_1", &out->gbps_1, err)) ||
        (st = get_num(j, "gbps_n", &out->gbps_n, err)))
        return st;
    if (cores > 65536 || mt > 65536)
        return oc_error_set(err, OC_ERR_INPUT, "", "hardware profile: implausible core count");
    out->cores = (int)cores;
    out->max_threads = (int)mt;
    const json_t *x;
    if (json_is_number(x = json_object_get(j, "sgemm_n")))
        sn = json_number_value(x);
    if (json_is_number(x = json_object_get(j, "copy_mib")))
        mib = json_number_value(x);
    out->sgemm_n = sn > 0 && sn < 1e6 ? (int)sn : 0;
    out->copy_mib = mib;
    /* absent in profiles measured before it was (0: not known) */
    if ((x = json_object_get(j, "fault_us_per_mb")) &&
        ((st = get_num(j, "fault_us_per_mb", &out->fault_us_per_mb, err)) ||
         (st = get_num(j, "fault_us_per_mb_n", &out->fault_us_per_mb_n, err))))
        return st;
    if (out->fault_us_per_mb > 1e6 || out->fault_us_per_mb_n > 1e6)
        return oc_error_set(err, OC_ERR_INPUT, "",
                            "hardware profile: implausible \"fault_us_per_mb\"");
    const json_t *mj = json_object_get(j, "machine"), *id = json_object_get(mj, "id");
    if (json_is_string(id))
        snprintf(out->machine, sizeof out->machine, "%s", json_string_value(id));
    oc_machine m = {.isa = oc_isa_bits_from_json(json_object_get(mj, "isa"))};
    out->nchwc_block = oc_machine_nchwc_block(&m);
    const json_t *nb = json_object_get(j, "nchwc_block");
    if (nb && (!json_is_integer(nb) || json_integer_value(nb) < 0 ||
               json_integer_value(nb) > 64))
        return oc_error_set(err, OC_ERR_INPUT, "", "hardware profile: bad \"nchwc_block\"");
    if (nb)
        out->nchwc_block = (int)json_integer_value(nb);
    return OC_OK;
}

oc_status oc_hw_load(const char *path, oc_hw *out, oc_error *err)
{
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j)
        return oc_error_set(err, OC_ERR_INPUT, "", "%s:%d: %s", path, je.line, je.text);
    oc_error e;
    oc_error_clear(&e);
    oc_status st = oc_hw_from_json(j, out, &e);
    json_decref(j);
    if (st != OC_OK)
        oc_error_set(err, st, "", "%s: %s", path, e.msg);
    return st;
}
