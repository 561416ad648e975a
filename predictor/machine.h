/*
 * machine.h - which machine this is: the CPU's identity and the ISA
 * features that change what a runtime's kernels do, and the short
 * fingerprint every measurement, timing model and calibration carries.
 *
 *     oc_machine m;
 *     oc_machine_detect(&m);              // /proc/cpuinfo, sysfs, sysconf
 *     printf("%s\n", m.id);               // "cpu-AuthenticAMD-f26-m2"
 *
 * The fingerprint is the vendor, CPU family and model (x86), or the
 * implementer and part (ARM): what tells one CPU generation from another.
 * Two hosts with one fingerprint may still differ (clock, cache share,
 * neighbours), which is why calibration measures rather than looks up;
 * two with different fingerprints almost surely run the same kernel at
 * different speeds (AVX-512 against AVX2: another MLAS code path, another
 * NCHWc block size).
 */
#ifndef OC_PREDICTOR_MACHINE_H
#define OC_PREDICTOR_MACHINE_H

#include <jansson.h>

#include "onnx/common.h"

/* XX(id, cpuinfo flag): the ISA features that matter to ORT's MLAS and
 * PyTorch's kernels. */
#define OC_ISA_LIST(XX)                                                       \
    XX(AVX2, "avx2")                                                          \
    XX(FMA, "fma")                                                            \
    XX(AVX512F, "avx512f")                                                    \
    XX(AVX512_VNNI, "avx512_vnni")                                            \
    XX(AVX512_BF16, "avx512_bf16")                                            \
    XX(AMX_TILE, "amx_tile")                                                  \
    XX(ASIMD, "asimd")                                                        \
    XX(SVE, "sve")

typedef enum oc_isa {
#define XX(id, flag) OC_ISA_##id,
    OC_ISA_LIST(XX)
#undef XX
    OC_ISA_COUNT
} oc_isa;

typedef struct oc_machine {
    char id[64];          /* "cpu-AuthenticAMD-f26-m2", "cpu-ARM-i0x41-p0xd0c" */
    char vendor[32];      /* vendor_id, or the ARM implementer's name */
    char model_name[128]; /* "model name" ("" when the kernel gives none) */
    int family, model, stepping; /* x86; ARM: 0, the part, the revision */
    unsigned isa;         /* bit (1 << OC_ISA_x) per feature present */
    int cores;            /* online CPUs */
    int64_t l2_bytes, l3_bytes; /* per cache instance; 0 when unknown */
} oc_machine;

/* Parse the text of a /proc/cpuinfo (its first processor).  Leaves cores
 * and cache sizes 0.  Errors: OC_ERR_INPUT when the text names neither an
 * x86 vendor nor an ARM implementer. */
oc_status oc_machine_parse_cpuinfo(const char *text, size_t n, oc_machine *out,
                                   oc_error *err);

/* This machine: /proc/cpuinfo, online CPUs, cpu0's L2 and L3 from sysfs.
 * Never fails: what cannot be read is left empty, and the id is then
 * "cpu-unknown". */
void oc_machine_detect(oc_machine *out);

bool oc_machine_has(const oc_machine *m, oc_isa f);
const char *oc_isa_name(oc_isa f);
/* "avx2 fma avx512f ..." (the features present, in OC_ISA_LIST order). */
void oc_machine_isa_str(const oc_machine *m, char *buf, size_t size);

/* ONNX Runtime's NCHWc channel block on this CPU: 16 with AVX-512F, 8
 * with AVX2 or FMA, 0 where MLAS has no NCHWc kernels. */
int oc_machine_nchwc_block(const oc_machine *m);

/* The ISA bits of a space-separated list of feature names ("avx2 fma"),
 * as /proc/cpuinfo's flags line has them; other words are ignored. */
unsigned oc_isa_bits_from_flags(const char *flags);

/* The ISA bits of a JSON array of feature names ("isa" of
 * oc_machine_to_json); names not in OC_ISA_LIST, and non-strings, are
 * ignored; 0 for a non-array. */
unsigned oc_isa_bits_from_json(const json_t *names);

/* {"id", "vendor", "model_name", "family", "model", "stepping", "isa":
 * [...], "cores", "l2_bytes", "l3_bytes"}; a new reference or NULL. */
json_t *oc_machine_to_json(const oc_machine *m);

/* Its inverse: m from such an object (the ISA names as
 * oc_isa_bits_from_json reads them); false, m zeroed, when a field is
 * missing, of the wrong type, too long or out of range. */
bool oc_machine_from_json(const json_t *j, oc_machine *m);

#endif
