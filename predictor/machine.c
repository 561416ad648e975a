/* machine.c - the CPU's identity and fingerprint (see machine.h). */
#include "predictor/machine.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const isa_names[OC_ISA_COUNT] = {
#define XX(id, flag) flag,
    OC_ISA_LIST(XX)
#undef XX
};

const char *oc_isa_name(oc_isa f)
{
    return (unsigned)f < OC_ISA_COUNT ? isa_names[f] : "?";
}

bool oc_machine_has(const oc_machine *m, oc_isa f)
{
    return (m->isa >> f) & 1u;
}

/* The value of "key : value" when line's key is exactly `key` (cpuinfo
 * pads keys with tabs), else NULL; *vn is the value's length. */
static const char *field(const char *line, size_t n, const char *key, size_t *vn)
{
    size_t k = strlen(key);
    if (n < k || memcmp(line, key, k) != 0)
        return NULL;
    size_t i = k;
    while (i < n && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i >= n || line[i] != ':')
        return NULL;
    i++;
    while (i < n && (line[i] == ' ' || line[i] == '\t'))
        i++;
    size_t e = n;
    while (e > i && isspace((unsigned char)line[e - 1]))
        e--;
    *vn = e - i;
    return line + i;
}

static void copy_str(char *dst, size_t size, const char *s, size_t n)
{
    if (n >= size)
        n = size - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

static long parse_num(const char *s, size_t n)
{
    char buf[32];
    copy_str(buf, sizeof buf, s, n);
    return strtol(buf, NULL, 0); /* "0x41" and "26" alike */
}

/* Set the ISA bits for every word of a flags line found in the list. */
static unsigned isa_bits(const char *s, size_t n)
{
    unsigned bits = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && s[i] == ' ')
            i++;
        size_t j = i;
        while (j < n && s[j] != ' ')
            j++;
        for (int f = 0; f < OC_ISA_COUNT; f++)
            if (strlen(isa_names[f]) == j - i && memcmp(s + i, isa_names[f], j - i) == 0)
                bits |= 1u << f;
        i = j;
    }
    return bits;
}

static const char *arm_vendor(long impl)
{
    switch (impl) {
    case 0x41: return "ARM";
    case 0x42: return "Broadcom";
    case 0x43: return "Cavium";
    case 0x46: return "Fujitsu";
    case 0x48: return "HiSilicon";
    case 0x4e: return "NVIDIA";
    case 0x51: return "Qualcomm";
    case 0x61: return "Apple";
    case 0xc0: return "Ampere";
    default: return NULL;
    }
}

/* Vendor names end up in file names: keep [A-Za-z0-9_]. */
static void sanitize(char *s)
{
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            *s = '_';
}

oc_status oc_machine_parse_cpuinfo(const char *text, size_t n, oc_machine *out,
                                   oc_error *err)
{
    memset(out, 0, sizeof *out);
    long impl = -1, part = -1, variant = 0;
    bool have_family = false, have_model = false, seen_processor = false;
    size_t pos = 0;
    while (pos < n) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', n - pos);
        size_t len = nl ? (size_t)(nl - line) : n - pos;
        pos += len + 1;
        size_t vn;
        const char *v;
        /* The first processor's block only: a second "processor" line ends it. */
        if (field(line, len, "processor", &vn)) {
            if (seen_processor)
                break;
            seen_processor = true;
            continue;
        }
        if ((v = field(line, len, "vendor_id", &vn)))
            copy_str(out->vendor, sizeof out->vendor, v, vn);
        else if ((v = field(line, len, "cpu family", &vn))) {
            out->family = (int)parse_num(v, vn);
            have_family = true;
        } else if ((v = field(line, len, "model name", &vn)))
            copy_str(out->model_name, sizeof out->model_name, v, vn);
        else if ((v = field(line, len, "model", &vn))) {
            out->model = (int)parse_num(v, vn);
            have_model = true;
        } else if ((v = field(line, len, "stepping", &vn)))
            out->stepping = (int)parse_num(v, vn);
        else if ((v = field(line, len, "flags", &vn)) || (v = field(line, len, "Features", &vn)))
            out->isa |= isa_bits(v, vn);
        else if ((v = field(line, len, "CPU implementer", &vn)))
            impl = parse_num(v, vn);
        else if ((v = field(line, len, "CPU part", &vn)))
            part = parse_num(v, vn);
        else if ((v = field(line, len, "CPU variant", &vn)))
            variant = parse_num(v, vn);
    }
    if (out->vendor[0] && have_family && have_model) {
        sanitize(out->vendor);
        snprintf(out->id, sizeof out->id, "cpu-%s-f%d-m%d", out->vendor, out->family,
                 out->model);
        return OC_OK;
    }
    if (impl > 0xff || part > 0xfff) /* 8 and 12 bits in MIDR_EL1 */
        return oc_error_set(err, OC_ERR_INPUT, NULL,
                            "cpuinfo's CPU implementer 0x%lx or part 0x%lx is out of range",
                            impl, part);
    if (impl >= 0 && part >= 0) {
        const char *name = arm_vendor(impl);
        if (name)
            snprintf(out->vendor, sizeof out->vendor, "%s", name);
        else
            snprintf(out->vendor, sizeof out->vendor, "arm_0x%02lx", impl);
        out->family = 0;
        out->model = (int)part;
        out->stepping = (int)variant;
        int w = snprintf(out->id, sizeof out->id, "cpu-%s-i0x%02lx-p0x%03lx", out->vendor,
                         impl, part);
        if (w < 0 || (size_t)w >= sizeof out->id)
            return oc_error_set(err, OC_ERR_INPUT, NULL, "the CPU id that cpuinfo gives is too long");
        return OC_OK;
    }
    return oc_error_set(err, OC_ERR_INPUT, NULL,
                        "cpuinfo names no x86 vendor, family and model nor an ARM "
                        "implementer and part");
}

/* "1024K", "32768K", "1M" from sysfs into bytes (0 when unreadable). */
static int64_t cache_size(int index)
{
    char path[96], buf[32];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int64_t v = 0;
    if (fgets(buf, sizeof buf, f)) {
        char *end;
        v = strtoll(buf, &end, 10);
        if (*end == 'K')
            v *= 1024;
        else if (*end == 'M')
            v *= 1024 * 1024;
    }
    fclose(f);
    return v > 0 ? v : 0;
}

static int cache_level(int index)
{
    char path[96], buf[16];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", index);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int lv = fgets(buf, sizeof buf, f) ? atoi(buf) : -1;
    fclose(f);
    return lv;
}

void oc_machine_detect(oc_machine *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        /* The first processor's block is within the first few KiB. */
        char buf[16384];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        if (oc_machine_parse_cpuinfo(buf, n, out, NULL) != OC_OK)
            memset(out, 0, sizeof *out);
    }
    if (!out->id[0])
        snprintf(out->id, sizeof out->id, "cpu-unknown");
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    out->cores = c > 0 ? (int)c : 1;
    for (int i = 0; i < 8; i++) {
        int lv = cache_level(i);
        if (lv == 2)
            out->l2_bytes = cache_size(i);
        else if (lv == 3)
            out->l3_bytes = cache_size(i);
    }
}

void oc_machine_isa_str(const oc_machine *m, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int f = 0; f < OC_ISA_COUNT && used < size; f++)
        if (oc_machine_has(m, (oc_isa)f))
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? " " : "",
                                     isa_names[f]);
}

int oc_machine_nchwc_block(const oc_machine *m)
{
    if (oc_machine_has(m, OC_ISA_AVX512F))
        return 16;
    if (oc_machine_has(m, OC_ISA_AVX2) || oc_machine_has(m, OC_ISA_FMA))
        return 8;
    return 0;
}

unsigned oc_isa_bits_from_flags(const char *flags)
{
    return isa_bits(flags, flags ? strlen(flags) : 0);
}

unsigned oc_isa_bits_from_json(const json_t *names)
{
    unsigned bits = 0;
    size_t i;
    const json_t *v;
    json_array_foreach(names, i, v) {
        const char *s = json_string_value(v);
        for (int f = 0; s && f < OC_ISA_COUNT; f++)
            if (!strcmp(s, isa_names[f]))
                bits |= 1u << f;
    }
    return bits;
}

json_t *oc_machine_to_json(const oc_machine *m)
{
    json_t *isa = json_array();
    for (int f = 0; isa && f < OC_ISA_COUNT; f++)
        if (oc_machine_has(m, (oc_isa)f))
            json_array_append_new(isa, json_string(isa_names[f]));
    return json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:o*, s:i, s:I, s:I}", "id", m->id,
                     "vendor", m->vendor, "model_name", m->model_name, "family", m->family,
                     "model", m->model, "stepping", m->stepping, "isa", isa, "cores",
                     m->cores, "l2_bytes", (json_int_t)m->l2_bytes, "l3_bytes",
                     (json_int_t)m->l3_bytes);
}

/* s (len bytes, from json_unpack's "s%") into dst: false when too long or
 * holding a NUL. */
static bool take_str(const char *s, size_t len, char *dst, size_t size)
{
    if (len >= size || strlen(s) != len)
        return false;
    copy_str(dst, size, s, len);
    return true;
}

bool oc_machine_from_json(const json_t *j, oc_machine *m)
{
    const char *id, *vendor, *name;
    size_t n_id, n_vendor, n_name;
    double fam, mod, step, cores, l2, l3;
    json_t *isa;
    memset(m, 0, sizeof *m);
    if (json_unpack((json_t *)j, "{s:s%, s:s%, s:s%, s:F, s:F, s:F, s:o, s:F, s:F, s:F}", "id",
                    &id, &n_id, "vendor", &vendor, &n_vendor, "model_name", &name, &n_name,
                    "family", &fam, "model", &mod, "stepping", &step, "isa", &isa, "cores",
                    &cores, "l2_bytes", &l2, "l3_bytes", &l3) ||
        !n_id || !take_str(id, n_id, m->id, sizeof m->id) ||
        !take_str(vendor, n_vendor, m->vendor, sizeof m->vendor) ||
        !take_str(name, n_name, m->model_name, sizeof m->model_name) || !json_is_array(isa) ||
        !(fam >= 0 && fam <= 1e6 && mod >= 0 && mod <= 1e6 && step >= 0 && step <= 1e6 &&
          cores >= 1 && cores <= 1e6 && l2 >= 0 && l2 <= 1e15 && l3 >= 0 && l3 <= 1e15)) {
        memset(m, 0, sizeof *m);
        return false;
    }
    m->family = (int)fam;
    m->model = (int)mod;
    m->stepping = (int)step;
    m->cores = (int)cores;
    m->l2_bytes = (int64_t)l2;
    m->l3_bytes = (int64_t)l3;
    m->isa = oc_isa_bits_from_json(isa);
    return true;
}
