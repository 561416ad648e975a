/* test_load.c - the loader, the IR, validation and saving. */
#include "harness.h"
#include "onnx.pb-c.h"
#include "onnx/model.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

static char tmpdir[256];

static char *tmp_path(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static void write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(p, 1, n, f) != n)) {
        perror(path);
        exit(3);
    }
    fclose(f);
}

static unsigned char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *p = malloc((size_t)sz + 1);
    *n = fread(p, 1, (size_t)sz, f);
    fclose(f);
    return p;
}

/* ---- building small models with protobuf-c ---- */

typedef struct mb {
    Onnx__ModelProto m;
    Onnx__GraphProto g;
    Onnx__OperatorSetIdProto ops;
    Onnx__OperatorSetIdProto *opsp[1];
    Onnx__NodeProto nodes[4];
    Onnx__NodeProto *nodep[4];
    char *ins[4][2], *outs[4][1];
    Onnx__ValueInfoProto vi[2];
    Onnx__ValueInfoProto *vip[2];
    Onnx__TypeProto tp;
    Onnx__TypeProto__Tensor tt;
    Onnx__TensorShapeProto sh;
    Onnx__TensorShapeProto__Dimension d[2];
    Onnx__TensorShapeProto__Dimension *dp[2];
    Onnx__TensorProto init;
    Onnx__TensorProto *initp[1];
    int64_t init_dims[2];
} mb;

/* X[N,4] -> nodes (each Relu of its one input) -> declared output. */
static void mb_init(mb *b, const char *out_name)
{
    memset(b, 0, sizeof *b);
    onnx__model_proto__init(&b->m);
    onnx__graph_proto__init(&b->g);
    onnx__operator_set_id_proto__init(&b->ops);
    b->ops.domain = "";
    b->ops.has_version = 1;
    b->ops.version = 13;
    b->opsp[0] = &b->ops;
    b->m.n_opset_import = 1;
    b->m.opset_import = b->opsp;
    b->m.has_ir_version = 1;
    b->m.ir_version = 8;
    b->m.producer_name = "test";
    b->m.graph = &b->g;
    b->g.name = "g";
    onnx__tensor_shape_proto__dimension__init(&b->d[0]);
    onnx__tensor_shape_proto__dimension__init(&b->d[1]);
    b->d[0].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
    b->d[0].dim_param = "N";
    b->d[1].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
    b->d[1].dim_value = 4;
    b->dp[0] = &b->d[0];
    b->dp[1] = &b->d[1];
    onnx__tensor_shape_proto__init(&b->sh);
    b->sh.n_dim = 2;
    b->sh.dim = b->dp;
    onnx__type_proto__tensor__init(&b->tt);
    b->tt.has_elem_type = 1;
    b->tt.elem_type = 1;
    b->tt.shape = &b->sh;
    onnx__type_proto__init(&b->tp);
    b->tp.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    b->tp.tensor_type = &b->tt;
    for (int i = 0; i < 2; i++) {
        onnx__value_info_proto__init(&b->vi[i]);
        b->vi[i].type = &b->tp;
        b->vip[i] = &b->vi[i];
    }
    b->vi[0].name = "X";
    b->vi[1].name = (char *)out_name;
    b->g.n_input = 1;
    b->g.input = b->vip;
    b->g.n_output = 1;
    b->g.output = b->vip + 1;
}

static void mb_node(mb *b, const char *name, const char *in, const char *out)
{
    size_t i = b->g.n_node;
    Onnx__NodeProto *n = &b->nodes[i];
    onnx__node_proto__init(n);
    n->name = (char *)name;
    n->op_type = "Relu";
    b->ins[i][0] = (char *)in;
    b->outs[i][0] = (char *)out;
    n->n_input = 1;
    n->input = b->ins[i];
    n->n_output = 1;
    n->output = b->outs[i];
    b->nodep[i] = n;
    b->g.node = b->nodep;
    b->g.n_node = i + 1;
}

static unsigned char *mb_pack(mb *b, size_t *n)
{
    *n = onnx__model_proto__get_packed_size(&b->m);
    unsigned char *p = malloc(*n + 64);
    onnx__model_proto__pack(&b->m, p);
    return p;
}

static oc_status load_mb(mb *b, oc_model **m, oc_error *e)
{
    size_t n;
    unsigned char *p = mb_pack(b, &n);
    oc_status st = oc_model_load_buffer(p, n, "mem.onnx", m, e);
    free(p);
    return st;
}

static void test_small_graph(void)
{
    mb b;
    mb_init(&b, "Z");
    mb_node(&b, "second", "Y", "Z"); /* listed out of order on purpose */
    mb_node(&b, "first", "X", "Y");
    oc_model *m;
    oc_error e;
    CHECK_EQ_INT(load_mb(&b, &m, &e), OC_OK);
    if (!m)
        return;
    const oc_graph *g = oc_model_graph(m);
    CHECK_EQ_INT(g->n_nodes, 2);
    CHECK_EQ_STR(g->nodes[g->topo[0]].name, "first");
    CHECK_EQ_STR(g->nodes[g->topo[1]].name, "second");
    CHECK_EQ_INT(g->n_inputs, 1);
    const oc_value *x = &g->values[g->inputs[0]];
    CHECK_EQ_STR(x->name, "X");
    CHECK_EQ_INT(x->rank, 2);
    CHECK_EQ_STR(x->dims[0].sym, "N");
    CHECK_EQ_INT(x->dims[1].v, 4);
    CHECK_EQ_INT(oc_model_opset(m, ""), 13);
    CHECK_EQ_INT(oc_model_opset(m, "ai.onnx"), 13);
    CHECK_EQ_INT(oc_model_opset(m, "com.microsoft"), 0);
    CHECK_EQ_STR(oc_model_producer(m), "test");
    int y = oc_graph_find(g, "Y");
    CHECK(y >= 0 && g->values[y].producer >= 0);
    CHECK_EQ_INT(oc_graph_find(g, "nope"), -1);
    oc_model_free(m);
}

static void test_invalid_graphs(void)
{
    mb b;
    oc_model *m;
    oc_error e;
    /* a cycle: a reads Z, b reads Y */
    mb_init(&b, "Z");
    mb_node(&b, "a", "Z", "Y");
    mb_node(&b, "b", "Y", "Z");
    CHECK_EQ_INT(load_mb(&b, &m, &e), OC_ERR_INPUT);
    CHECK(m == NULL);
    CHECK_CONTAINS(e.msg, "cycle");
    CHECK_CONTAINS(e.msg, "'a'");
    CHECK_CONTAINS(e.msg, "mem.onnx");

    /* an undefined input */
    mb_init(&b, "Y");
    mb_node(&b, "r", "missing", "Y");
    CHECK_EQ_INT(load_mb(&b, &m, &e), OC_ERR_INPUT);
    CHECK_CONTAINS(e.msg, "'missing'");
    CHECK_CONTAINS(e.msg, "node 'r'");

    /* a value produced twice */
    mb_init(&b, "Y");
    mb_node(&b, "r1", "X", "Y");
    mb_node(&b, "r2", "X", "Y");
    CHECK_EQ_INT(load_mb(&b, &m, &e), OC_ERR_INPUT);
    CHECK_CONTAINS(e.msg, "already produces");

    /* an output nobody produces */
    mb_init(&b, "W");
    mb_node(&b, "r", "X", "Y");
    CHECK_EQ_INT(load_mb(&b, &m, &e), OC_ERR_INPUT);
    CHECK_CONTAINS(e.msg, "graph output 'W'");

    /* a negative declared dim */
    mb_init(&b, "Y");
    mb_node(&b, "r", "X", "Y");
    b.d[1].dim_value = -3;
    CHECK_EQ_INT(load_mb(&b, &m, &e), OC_ERR_INPUT);
    CHECK_CONTAINS(e.msg, "negative");

    /* an initializer whose data does not match its dims */
    mb_init(&b, "Y");
    mb_node(&b, "r", "X", "Y");
    onnx__tensor_proto__init(&b.init);
    b.init.name = "W";
    b.init.has_data_type = 1;
    b.init.data_type = 1;
    b.init_dims[0] = 3;
    b.init.n_dims = 1;
    b.init.dims = b.init_dims;
    float fl[2] = {1, 2};
    b.init.n_float_data = 2;
    b.init.float_data = fl;
    b.initp[0] = &b.init;
    b.g.n_initializer = 1;
    b.g.initializer = b.initp;
    CHECK_EQ_INT(load_mb(&b, &m, &e), OC_ERR_INPUT);
    CHECK_CONTAINS(e.msg, "declares 3 elements but holds 2");

    /* the same initializer stored externally is fine without its file */
    b.init.n_float_data = 0;
    b.init.has_data_location = 1;
    b.init.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    CHECK_EQ_INT(load_mb(&b, &m, &e), OC_OK);
    if (m) {
        const oc_graph *g = oc_model_graph(m);
        int w = oc_graph_find(g, "W");
        CHECK(w >= 0 && g->values[w].constant && g->values[w].constant->external);
        CHECK_EQ_INT(oc_model_param_count(m), 3);
        CHECK_EQ_INT(oc_model_weight_bytes(m), 12);
        oc_model_free(m);
    }
}

static void test_bad_bytes(void)
{
    oc_model *m;
    oc_error e;
    CHECK_EQ_INT(oc_model_load_file(tmp_path("does-not-exist.onnx"), &m, &e), OC_ERR_IO);
    CHECK_CONTAINS(e.msg, "does-not-exist.onnx");
    CHECK_EQ_INT(oc_model_load_file(tmpdir, &m, &e), OC_ERR_IO);
    CHECK_CONTAINS(e.msg, "directory");
    write_file(tmp_path("empty.onnx"), "", 0);
    CHECK_EQ_INT(oc_model_load_file(tmp_path("empty.onnx"), &m, &e), OC_ERR_INPUT);
    CHECK_CONTAINS(e.msg, "empty");
    write_file(tmp_path("one.onnx"), "\x08", 1);
    CHECK_EQ_INT(oc_model_load_file(tmp_path("one.onnx"), &m, &e), OC_ERR_INPUT);
    /* ModelProto {ir_version: 7} and nothing else */
    write_file(tmp_path("nograph.onnx"), "\x08\x07", 2);
    CHECK_EQ_INT(oc_model_load_file(tmp_path("nograph.onnx"), &m, &e), OC_ERR_INPUT);
    CHECK_CONTAINS(e.msg, "no graph");
    /* random bytes, many seeds */
    unsigned char buf[4096];
    uint64_t s = 12345;
    int failed = 0;
    for (int k = 0; k < 200; k++) {
        size_t n = 1 + (size_t)(s % sizeof buf);
        for (size_t i = 0; i < n; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            buf[i] = (unsigned char)(s >> 56);
        }
        oc_status st = oc_model_load_buffer(buf, n, "random", &m, &e);
        failed += st == OC_ERR_INPUT;
        if (st == OC_OK)
            oc_model_free(m);
    }
    CHECK_EQ_INT(failed, 200);
}

static void test_sample(void)
{
    const char *path = OC_SAMPLES "/squeezenet1_1.onnx";
    size_t n;
    unsigned char *bytes = read_file(path, &n);
    CHECK(bytes != NULL);
    if (!bytes)
        return;
    oc_model *m;
    oc_error e;
    CHECK_EQ_INT(oc_model_load_file(path, &m, &e), OC_OK);
    if (!m)
        return;
    const oc_graph *g = oc_model_graph(m);
    CHECK_EQ_INT(g->n_nodes, 83);
    CHECK_EQ_INT(oc_model_param_count(m), 1233288);
    CHECK_EQ_INT(oc_model_compression(m), OC_PLAIN);

    /* Saving gives back the same bytes (weights come from the mapped file). */
    CHECK_EQ_INT(oc_model_save(m, tmp_path("copy.onnx"), &e), OC_OK);
    size_t n2;
    unsigned char *copy = read_file(tmp_path("copy.onnx"), &n2);
    CHECK(copy && n2 == n && memcmp(copy, bytes, n) == 0);
    free(copy);

    /* The same through a memory buffer. */
    oc_model *mb2;
    CHECK_EQ_INT(oc_model_load_buffer(bytes, n, "buf", &mb2, &e), OC_OK);
    if (mb2) {
        CHECK_EQ_INT(oc_model_graph(mb2)->n_nodes, 83);
        oc_model_free(mb2);
    }

    /* gzip, detected by magic bytes */
    gzFile gz = gzopen(tmp_path("model.onnx.gz"), "wb");
    gzwrite(gz, bytes, (unsigned)n);
    gzclose(gz);
    oc_model *mz;
    CHECK_EQ_INT(oc_model_load_file(tmp_path("model.onnx.gz"), &mz, &e), OC_OK);
    if (mz) {
        CHECK_EQ_INT(oc_model_compression(mz), OC_GZIP);
        CHECK_EQ_INT(oc_model_graph(mz)->n_nodes, 83);
        oc_model_free(mz);
    }
    /* truncated gzip */
    size_t gn;
    unsigned char *gzb = read_file(tmp_path("model.onnx.gz"), &gn);
    write_file(tmp_path("trunc.onnx.gz"), gzb, gn / 2);
    free(gzb);
    CHECK_EQ_INT(oc_model_load_file(tmp_path("trunc.onnx.gz"), &mz, &e), OC_ERR_INPUT);
    CHECK_CONTAINS(e.msg, "gzip");

    /* truncation at many offsets: never a crash, always a clear error */
    size_t cuts[] = {1, 2, 7, 10, 100, 1000, 4096, 65536, n / 3, n / 2, n - 100, n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        oc_model *mt;
        oc_status st = oc_model_load_buffer(bytes, cuts[i], "trunc", &mt, &e);
        if (st != OC_ERR_INPUT)
            fprintf(stderr, "truncation at %zu: status %d\n", cuts[i], st);
        CHECK_EQ_INT(st, OC_ERR_INPUT);
    }
    /* bit flips: must not crash (the result may be valid) */
    unsigned char *flip = malloc(n);
    for (int k = 0; k < 60; k++) {
        memcpy(flip, bytes, n);
        size_t at = (size_t)k * 7919 % (n < 200000 ? n : 200000);
        flip[at] ^= (unsigned char)(1u << (k % 8));
        oc_model *mf;
        if (oc_model_load_buffer(flip, n, "flip", &mf, &e) == OC_OK)
            oc_model_free(mf);
        else
            CHECK(e.msg[0] != '\0');
    }
    free(flip);

    /* Unknown fields survive a load and a save: field 1000 (varint 5). */
    unsigned char *ext = malloc(n + 3);
    memcpy(ext, bytes, n);
    ext[n] = 0xc0;
    ext[n + 1] = 0x3e;
    ext[n + 2] = 0x05;
    oc_model *mu;
    CHECK_EQ_INT(oc_model_load_buffer(ext, n + 3, "unknown", &mu, &e), OC_OK);
    if (mu) {
        CHECK_EQ_INT(oc_model_save(mu, tmp_path("unknown.onnx"), &e), OC_OK);
        size_t un;
        unsigned char *ub = read_file(tmp_path("unknown.onnx"), &un);
        CHECK(ub && un == n + 3 && memcmp(ub + n, "\xc0\x3e\x05", 3) == 0);
        free(ub);
        oc_model_free(mu);
    }
    free(ext);

    /* Annotations. */
    CHECK_EQ_INT(oc_model_node_append_doc(m, 0, "onnxcost: time_us=1", &e), OC_OK);
    CHECK_EQ_INT(oc_model_node_set_meta(m, 0, "onnxcost.time_us", "1.5", &e), OC_OK);
    CHECK_EQ_INT(oc_model_node_set_meta(m, 0, "onnxcost.time_us", "2.5", &e), OC_OK);
    CHECK_EQ_INT(oc_model_set_meta(m, "onnxcost.time_ms", "3", &e), OC_OK);
    CHECK_EQ_INT(oc_model_node_set_meta(m, 100000, "k", "v", &e), OC_ERR_INTERNAL);
    CHECK_EQ_INT(oc_model_save(m, tmp_path("annotated.onnx"), &e), OC_OK);
    size_t an;
    unsigned char *ab = read_file(tmp_path("annotated.onnx"), &an);
    Onnx__ModelProto *p = ab ? onnx__model_proto__unpack(NULL, an, ab) : NULL;
    CHECK(p != NULL);
    if (p) {
        Onnx__NodeProto *n0 = p->graph->node[0];
        CHECK_CONTAINS(n0->doc_string, "onnxcost: time_us=1");
        CHECK_EQ_INT(n0->base.n_unknown_fields, 1); /* replaced, not added */
        CHECK_EQ_INT(n0->base.unknown_fields[0].tag, 9);
        const ProtobufCMessageUnknownField *u = &n0->base.unknown_fields[0];
        CHECK(u->len >= 3 && memcmp(u->data + u->len - 3, "2.5", 3) == 0);
        CHECK_EQ_INT(p->n_metadata_props, 1);
        CHECK_EQ_STR(p->metadata_props[0]->key, "onnxcost.time_ms");
        onnx__model_proto__free_unpacked(p, NULL);
    }
    free(ab);
    /* A failed save leaves the target alone. */
    CHECK(oc_model_save(m, "/nonexistent-dir/x.onnx", &e) == OC_ERR_IO);
    oc_model_free(m);
    if (getenv("OC_KEEP_TMP"))
        return;
    free(bytes);
}

static int count_temps(const char *prefix)
{
    DIR *d = opendir(tmpdir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    if (d)
        closedir(d);
    return n;
}

/* A save that fails half-way (the disk fills: RLIMIT_FSIZE makes write()
 * fail with EFBIG) leaves the old file as it was and no temporary behind;
 * so does a kill in the middle of writing. */
static void test_save_under_failure(void)
{
    const char *path = OC_SAMPLES "/squeezenet1_1.onnx";
    oc_model *m;
    oc_error e;
    if (oc_model_load_file(path, &m, &e) != OC_OK) {
        CHECK(!"load");
        return;
    }
    const char *target = tmp_path("target.onnx");
    write_file(target, "old contents", 12);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {1 << 20, 1 << 20};
        setrlimit(RLIMIT_FSIZE, &rl);
        _exit(oc_model_save(m, target, &e) == OC_ERR_IO ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    size_t n;
    unsigned char *after = read_file(target, &n);
    CHECK(after && n == 12 && memcmp(after, "old contents", 12) == 0);
    free(after);
    CHECK_EQ_INT(count_temps(".oc-"), 0);
    /* killed while writing: stop it with SIGKILL from its own write path */
    pid = fork();
    if (pid == 0) {
        struct rlimit rl = {1 << 20, 1 << 20};
        setrlimit(RLIMIT_FSIZE, &rl);
        signal(SIGXFSZ, SIG_DFL); /* the default action kills the process */
        oc_model_save(m, target, &e);
        _exit(0);
    }
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status));
    after = read_file(target, &n);
    CHECK(after && n == 12 && memcmp(after, "old contents", 12) == 0);
    free(after);
    oc_model_free(m);
}

/* Issue 18: the opset of each node comes from a table built once (a domain
 * imported twice: the last import, as ONNX Runtime takes it); a repeated
 * attribute is refused. */
static void test_opset_table(void)
{
    mb b;
    mb_init(&b, "Y");
    mb_node(&b, "r", "X", "Y");
    enum { N = 5000 };
    Onnx__OperatorSetIdProto *ops = calloc(N + 2, sizeof *ops), **opp = calloc(N + 2, sizeof *opp);
    char(*names)[16] = calloc(N, sizeof *names);
    for (size_t i = 0; i < N + 2; i++) {
        onnx__operator_set_id_proto__init(&ops[i]);
        ops[i].has_version = 1;
        ops[i].version = 1;
        if (i < N) {
            snprintf(names[i], sizeof names[i], "d%zu", i);
            ops[i].domain = names[i];
        }
        opp[i] = &ops[i];
    }
    ops[N].domain = "";
    ops[N].version = 11;
    ops[N + 1].domain = "ai.onnx"; /* the same domain again: it wins */
    ops[N + 1].version = 13;
    ops[7].version = 4;
    b.m.n_opset_import = N + 2;
    b.m.opset_import = opp;
    oc_model *m;
    oc_error e;
    CHECK_EQ_INT(load_mb(&b, &m, &e), OC_OK);
    if (m) {
        CHECK_EQ_INT(oc_model_opset(m, ""), 13);
        CHECK_EQ_INT(oc_model_opset(m, "d7"), 4);
        CHECK_EQ_INT(oc_model_opset(m, "d4999"), 1);
        CHECK_EQ_INT(oc_model_opset(m, "d5000"), 0);
        CHECK_EQ_INT(oc_model_graph(m)->nodes[0].opset, 13);
        CHECK_EQ_INT(oc_model_n_opsets(m), N + 2);
        oc_model_free(m);
    }
    free(ops);
    free(opp);
    free(names);

    /* a repeated attribute, among few and among many */
    for (size_t n_attr = 3; n_attr <= 3000; n_attr *= 1000) {
        mb_init(&b, "Y");
        mb_node(&b, "r", "X", "Y");
        Onnx__AttributeProto *at = calloc(n_attr, sizeof *at), **atp = calloc(n_attr, sizeof *atp);
        char(*an)[16] = calloc(n_attr, sizeof *an);
        for (size_t i = 0; i < n_attr; i++) {
            onnx__attribute_proto__init(&at[i]);
            snprintf(an[i], sizeof an[i], "a%zu", i == n_attr - 1 ? n_attr / 2 : i);
            at[i].name = an[i];
            at[i].has_type = 1;
            at[i].type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
            at[i].has_i = 1;
            atp[i] = &at[i];
        }
        b.nodes[0].n_attribute = n_attr;
        b.nodes[0].attribute = atp;
        CHECK_EQ_INT(load_mb(&b, &m, &e), OC_ERR_INPUT);
        char want[64];
        snprintf(want, sizeof want, "attribute 'a%zu' is given more than once", n_attr / 2);
        CHECK_CONTAINS(e.msg, want);
        CHECK_CONTAINS(e.msg, "node 'r' (Relu)");
        /* all distinct: fine */
        snprintf(an[n_attr - 1], sizeof an[0], "last");
        CHECK_EQ_INT(load_mb(&b, &m, &e), OC_OK);
        oc_model_free(m);
        free(at);
        free(atp);
        free(an);
    }
}

/* Issue 18: the size limit holds for a file, for gzip'd bytes (decompressed
 * in a counting pass first: refused without the memory) and for buffers. */
static void test_size_limit(void)
{
    const char *path = OC_SAMPLES "/squeezenet1_1.onnx";
    oc_model *m;
    oc_error e;
    oc_load_opts lo = {.max_bytes = 1000000};
    CHECK_EQ_INT(oc_model_load(path, &lo, &m, &e), OC_ERR_INPUT);
    CHECK_CONTAINS(e.msg, "larger than the limit (1000000 bytes; --max-model-size)");
    size_t n;
    unsigned char *raw = read_file(path, &n);
    uLongf gz_cap = compressBound(n) + 64;
    unsigned char *gz = malloc(gz_cap);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    deflateInit2(&zs, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    zs.next_in = raw;
    zs.avail_in = (uInt)n;
    zs.next_out = gz;
    zs.avail_out = (uInt)gz_cap;
    CHECK_EQ_INT(deflate(&zs, Z_FINISH), Z_STREAM_END);
    size_t gz_len = zs.total_out;
    deflateEnd(&zs);
    write_file(tmp_path("sq.onnx.gz"), gz, gz_len);
    lo.max_bytes = gz_len + 1000; /* the file fits; decompressed, it does not */
    CHECK_EQ_INT(oc_model_load(tmp_path("sq.onnx.gz"), &lo, &m, &e), OC_ERR_INPUT);
    CHECK_CONTAINS(e.msg, "decompressed model is larger than the limit");
    lo.max_bytes = n; /* exactly its size: accepted */
    CHECK_EQ_INT(oc_model_load(tmp_path("sq.onnx.gz"), &lo, &m, &e), OC_OK);
    if (m) {
        CHECK_EQ_INT(oc_model_compression(m), OC_GZIP);
        oc_model_free(m);
    }
    lo.max_bytes = n - 1;
    CHECK_EQ_INT(oc_model_load(tmp_path("sq.onnx.gz"), &lo, &m, &e), OC_ERR_INPUT);
    /* cut short: still a clear error */
    write_file(tmp_path("cut.onnx.gz"), gz, gz_len / 2);
    CHECK_EQ_INT(oc_model_load_file(tmp_path("cut.onnx.gz"), &m, &e), OC_ERR_INPUT);
    CHECK_CONTAINS(e.msg, "truncated gzip");
    free(gz);
    free(raw);
}

/* Issue 18: the writer's refusals, links and names. */
static void test_writer_targets(void)
{
    oc_error e;
    int temps = count_temps(".oc-"); /* a killed writer's may be there */
    CHECK_EQ_INT(oc_write_file_atomic(tmpdir, "x", 1, &e), OC_ERR_IO);
    CHECK_CONTAINS(e.msg, "is a directory, not a regular file");
    CHECK_EQ_INT(oc_check_output_path(tmpdir, &e), OC_ERR_IO);
    CHECK_EQ_INT(oc_check_output_path(tmp_path("new-file"), &e), OC_OK);
    /* a dangling link is written through, as a shell's > does */
    CHECK_EQ_INT(symlink("made-by-link.txt", tmp_path("dangling")), 0);
    CHECK_EQ_INT(oc_write_file_atomic(tmp_path("dangling"), "abc", 3, &e), OC_OK);
    size_t n;
    unsigned char *got = read_file(tmp_path("made-by-link.txt"), &n);
    CHECK(got && n == 3 && memcmp(got, "abc", 3) == 0);
    free(got);
    struct stat sb;
    CHECK(lstat(tmp_path("dangling"), &sb) == 0 && S_ISLNK(sb.st_mode));
    /* a loop of links is an error, not a hang */
    CHECK_EQ_INT(symlink("loop-b", tmp_path("loop-a")), 0);
    CHECK_EQ_INT(symlink("loop-a", tmp_path("loop-b")), 0);
    CHECK_EQ_INT(oc_write_file_atomic(tmp_path("loop-a"), "x", 1, &e), OC_ERR_IO);
    CHECK_CONTAINS(e.msg, "loop-a");
    /* a new file: 0666 less the umask */
    mode_t old = umask(027);
    CHECK_EQ_INT(oc_write_file_atomic(tmp_path("fresh"), "x", 1, &e), OC_OK);
    umask(old);
    CHECK(stat(tmp_path("fresh"), &sb) == 0 && (sb.st_mode & 0777) == 0640);
    /* hard links: smaller and larger contents both land in the shared inode */
    write_file(tmp_path("hl1"), "0123456789", 10);
    CHECK_EQ_INT(link(tmp_path("hl1"), tmp_path("hl2")), 0);
    CHECK_EQ_INT(oc_write_file_atomic(tmp_path("hl1"), "ab", 2, &e), OC_OK);
    got = read_file(tmp_path("hl2"), &n);
    CHECK(got && n == 2 && memcmp(got, "ab", 2) == 0);
    free(got);
    char big[100000];
    memset(big, 'z', sizeof big);
    CHECK_EQ_INT(oc_write_file_atomic(tmp_path("hl2"), big, sizeof big, &e), OC_OK);
    got = read_file(tmp_path("hl1"), &n);
    CHECK(got && n == sizeof big && got[0] == 'z' && got[sizeof big - 1] == 'z');
    free(got);
    CHECK(stat(tmp_path("hl1"), &sb) == 0 && sb.st_nlink == 2);
    CHECK_EQ_INT(count_temps(".oc-"), temps);
}

/* Issue 18: external data locations, checked without the data files. */
static void test_external_locations(void)
{
    static const struct {
        const char *loc;
        oc_status want;
        const char *why;
    } cases[] = {
        {"w.bin", OC_OK, NULL},
        {"./a/./../w.bin", OC_OK, NULL},
        {"a/b/../../w.bin", OC_OK, NULL},
        {"../w.bin", OC_ERR_INPUT, "leads outside the model's folder"},
        {"a/../../w.bin", OC_ERR_INPUT, "leads outside the model's folder"},
        {"/etc/passwd", OC_ERR_INPUT, "is an absolute path"},
        {"", OC_ERR_INPUT, "is empty"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mb b;
        mb_init(&b, "Y");
        mb_node(&b, "r", "X", "Y");
        onnx__tensor_proto__init(&b.init);
        b.init.name = "W";
        b.init.has_data_type = 1;
        b.init.data_type = 1;
        b.init_dims[0] = 3;
        b.init.n_dims = 1;
        b.init.dims = b.init_dims;
        b.init.has_data_location = 1;
        b.init.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
        Onnx__StringStringEntryProto kv, *kvp = &kv;
        onnx__string_string_entry_proto__init(&kv);
        kv.key = "location";
        kv.value = (char *)cases[k].loc;
        b.init.n_external_data = 1;
        b.init.external_data = &kvp;
        b.initp[0] = &b.init;
        b.g.n_initializer = 1;
        b.g.initializer = b.initp;
        oc_model *m;
        oc_error e;
        CHECK_EQ_INT(load_mb(&b, &m, &e), cases[k].want);
        if (cases[k].why) {
            CHECK_CONTAINS(e.msg, cases[k].why);
            CHECK_CONTAINS(e.msg, "tensor 'W'");
        }
        if (m) {
            const char *ex = NULL;
            CHECK_EQ_INT(oc_model_external_count(m, &ex), 1);
            CHECK_EQ_STR(ex, cases[k].loc);
            oc_model_free(m);
        }
    }
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/oc-test-load-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 3;
    }
    test_small_graph();
    test_invalid_graphs();
    test_bad_bytes();
    test_sample();
    test_save_under_failure();
    test_opset_table();
    test_size_limit();
    test_writer_targets();
    test_external_locations();
    if (getenv("OC_KEEP_TMP"))
        return t_report("test_load");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return t_report("test_load");
}
