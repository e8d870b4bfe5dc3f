/* float32 2-D convolution and its two adjoints through oneDNN's C API
   (interp/backends/c/onednn_c.py compiles it against the installed oneDNN).

   A plan (`conv_plan`) is one primitive (FORWARD: dst = x * K; DATA: the image
   gradient from g and K; WEIGHTS: the kernel gradient summed over the batch
   from x and g) on the caller's plain arrays: x, g, the image gradient as
   nchw, K as oihw (goihw with groups).  The primitive picks its own layouts
   (format `any`: oneDNN's blocked nChw16c/OIhw16i16o kernels); an operand
   whose layout differs from the plain one goes through a reorder into the
   caller's work buffer (`conv_plan_work` bytes, shared by every plan: one
   runs at a time), and an output back.  Each call runs on the calling
   thread's OpenMP team, of `threads` threads. */
#include <stdlib.h>
#include <dnnl.h>

/* weak: resolved from the OpenMP runtime oneDNN loads (GNU or Intel's); absent
   under a oneDNN built on another threading runtime, which then keeps its own count */
void omp_set_num_threads(int) __attribute__((weak));

enum { FORWARD = 0, DATA = 1, WEIGHTS = 2 };

typedef struct {               /* one operand: the caller's array and the primitive's */
    dnnl_memory_t plain, own;  /* own: NULL when the primitive reads the plain layout */
    size_t at;                 /* own's place in the work buffer */
    dnnl_primitive_t reorder;  /* plain -> own (an input) or own -> plain (the output) */
    int arg;                   /* the primitive's argument (DNNL_ARG_SRC...) */
} operand;

typedef struct {
    dnnl_primitive_t prim;
    operand in[2], out;
    int threads;
    size_t work;               /* the work buffer's bytes it needs */
} conv_plan;

static dnnl_engine_t engine;
static int forked;             /* set in a forked child: its OpenMP team's threads are gone */

/* From now on every call runs on one thread (GNU OpenMP's pool does not
   survive fork: a child's parallel region on the parent's team waits forever). */
void conv_after_fork(void) { forked = 1; }
static dnnl_stream_t stream;

static int started(void) {
    if (engine) return 1;
    if (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success) return 0;
    return dnnl_stream_create(&stream, engine, dnnl_stream_default_flags) == dnnl_success;
}

static dnnl_memory_desc_t desc(int n, const dnnl_dims_t dims, dnnl_format_tag_t tag) {
    dnnl_memory_desc_t md = NULL;
    dnnl_memory_desc_create_with_tag(&md, n, dims, dnnl_f32, tag);
    return md;
}

/* The operand of `pd`'s `query` whose caller's layout is `plain_md`; `input`: copied in. */
static int bind(operand *o, dnnl_primitive_desc_t pd, dnnl_query_t query, int arg,
                const_dnnl_memory_desc_t plain_md, int input, size_t *work) {
    const_dnnl_memory_desc_t md = dnnl_primitive_desc_query_md(pd, query, 0);
    dnnl_primitive_desc_t rpd;
    o->arg = arg;
    if (dnnl_memory_create(&o->plain, plain_md, engine, DNNL_MEMORY_NONE)) return 0;
    if (dnnl_memory_desc_equal(md, plain_md)) return 1;
    if (dnnl_memory_create(&o->own, md, engine, DNNL_MEMORY_NONE)) return 0;
    o->at = *work;
    *work += (dnnl_memory_desc_get_size(md) + 63) / 64 * 64;   /* each at 64 bytes */
    if (dnnl_reorder_primitive_desc_create(&rpd, input ? plain_md : md, engine,
                                           input ? md : plain_md, engine, NULL)) return 0;
    int ok = dnnl_primitive_create(&o->reorder, rpd) == dnnl_success;
    dnnl_primitive_desc_destroy(rpd);
    return ok;
}

typedef struct { dnnl_memory_desc_t x, k, y, any_x, any_k, any_y; } descs;

static dnnl_status_t forward_pd(dnnl_primitive_desc_t *pd, descs *d, const dnnl_dims_t s,
                                const dnnl_dims_t pl, const dnnl_dims_t pr) {
    dnnl_dims_t dil = {0, 0};
    return dnnl_convolution_forward_primitive_desc_create(pd, engine, dnnl_forward_training,
        dnnl_convolution_direct, d->any_x, d->any_k, NULL, d->any_y, s, dil, pl, pr, NULL);
}

static dnnl_status_t make_pd(int kind, dnnl_primitive_desc_t *pd, descs *d, const dnnl_dims_t s,
                             const dnnl_dims_t pl, const dnnl_dims_t pr) {
    dnnl_primitive_desc_t hint;
    dnnl_dims_t dil = {0, 0};
    if (kind == FORWARD) return forward_pd(pd, d, s, pl, pr);
    dnnl_status_t st = forward_pd(&hint, d, s, pl, pr);
    if (st) return st;
    if (kind == DATA)
        st = dnnl_convolution_backward_data_primitive_desc_create(pd, engine,
            dnnl_convolution_direct, d->any_x, d->any_k, d->any_y, s, dil, pl, pr, hint, NULL);
    else
        st = dnnl_convolution_backward_weights_primitive_desc_create(pd, engine,
            dnnl_convolution_direct, d->any_x, d->any_k, NULL, d->any_y, s, dil, pl, pr, hint,
            NULL);
    dnnl_primitive_desc_destroy(hint);
    return st;
}

/* The operands of each kind: (query, argument, which plain desc: 0 x, 1 K, 2 y). */
static const int ROLES[3][3][3] = {
    {{dnnl_query_src_md, DNNL_ARG_SRC, 0}, {dnnl_query_weights_md, DNNL_ARG_WEIGHTS, 1},
     {dnnl_query_dst_md, DNNL_ARG_DST, 2}},
    {{dnnl_query_diff_dst_md, DNNL_ARG_DIFF_DST, 2}, {dnnl_query_weights_md, DNNL_ARG_WEIGHTS, 1},
     {dnnl_query_diff_src_md, DNNL_ARG_DIFF_SRC, 0}},
    {{dnnl_query_src_md, DNNL_ARG_SRC, 0}, {dnnl_query_diff_dst_md, DNNL_ARG_DIFF_DST, 2},
     {dnnl_query_diff_weights_md, DNNL_ARG_DIFF_WEIGHTS, 1}}};

static void describe(descs *d, long b, long c, long h, long w, long f, long kh, long kw,
                     long ho, long wo, long groups) {
    dnnl_dims_t xd = {b, c, h, w}, yd = {b, f, ho, wo};
    dnnl_dims_t kd = {f, c, kh, kw}, gkd = {groups, f / groups, c / groups, kh, kw};
    int kn = groups > 1 ? 5 : 4;
    d->x = desc(4, xd, dnnl_nchw);
    d->y = desc(4, yd, dnnl_nchw);
    d->k = desc(kn, groups > 1 ? gkd : kd, groups > 1 ? dnnl_goihw : dnnl_oihw);
    d->any_x = desc(4, xd, dnnl_format_tag_any);
    d->any_y = desc(4, yd, dnnl_format_tag_any);
    d->any_k = desc(kn, groups > 1 ? gkd : kd, dnnl_format_tag_any);
}

static void forget(descs *d) {
    dnnl_memory_desc_t all[6] = {d->x, d->k, d->y, d->any_x, d->any_k, d->any_y};
    for (int i = 0; i < 6; i++) dnnl_memory_desc_destroy(all[i]);
}

void conv_plan_free(void *plan);

/* A plan for `kind` on these sizes (x [b, c, h, w], K [f, c/groups, kh, kw],
   y [b, f, ho, wo]), NULL when oneDNN refuses it. */
void *conv_plan_new(int kind, long b, long c, long h, long w, long f, long kh, long kw,
                    long stride, long pad, long ho, long wo, long groups, int threads) {
    dnnl_dims_t s = {stride, stride}, pl = {pad, pad};
    dnnl_dims_t pr = {(ho - 1) * stride + kh - h - pad, (wo - 1) * stride + kw - w - pad};
    dnnl_primitive_desc_t pd = NULL;
    descs d;
    if (!started()) return NULL;
    /* oneDNN cuts its work for the threads it sees when the primitive is made */
    if (omp_set_num_threads) omp_set_num_threads(forked ? 1 : threads);
    conv_plan *p = calloc(1, sizeof *p);
    describe(&d, b, c, h, w, f, kh, kw, ho, wo, groups);
    const_dnnl_memory_desc_t plain[3] = {d.x, d.k, d.y};
    int ok = make_pd(kind, &pd, &d, s, pl, pr) == dnnl_success;
    for (int i = 0; ok && i < 3; i++) {
        const int *r = ROLES[kind][i];
        ok = bind(i < 2 ? &p->in[i] : &p->out, pd, r[0], r[1], plain[r[2]], i < 2, &p->work);
    }
    if (ok) ok = dnnl_primitive_create(&p->prim, pd) == dnnl_success;
    if (pd) dnnl_primitive_desc_destroy(pd);
    forget(&d);
    p->threads = threads;
    if (!ok) { conv_plan_free(p); return NULL; }
    return p;
}

static dnnl_memory_t used(operand *o) { return o->own ? o->own : o->plain; }

static void reorder(dnnl_primitive_t r, dnnl_memory_t from, dnnl_memory_t to) {
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
    dnnl_primitive_execute(r, stream, 2, args);
}

/* The bytes of work buffer a plan needs (64-byte aligned). */
size_t conv_plan_work(void *plan) { return ((conv_plan *)plan)->work; }

/* Run a plan on the caller's arrays: in0, in1 (the kind's inputs, in ROLES'
   order) and out, with `work` (64-byte aligned, `conv_plan_work` bytes).
   Returns 0, else oneDNN's status. */
int conv_plan_run(void *plan, void *in0, void *in1, void *out, char *work) {
    conv_plan *p = plan;
    void *data[3] = {in0, in1, out};
    operand *ops[3] = {&p->in[0], &p->in[1], &p->out};
    if (omp_set_num_threads) omp_set_num_threads(forked ? 1 : p->threads);
    for (int i = 0; i < 3; i++) {
        dnnl_memory_set_data_handle(ops[i]->plain, data[i]);
        if (ops[i]->own) dnnl_memory_set_data_handle(ops[i]->own, work + ops[i]->at);
    }
    for (int i = 0; i < 2; i++)
        if (ops[i]->reorder) reorder(ops[i]->reorder, ops[i]->plain, ops[i]->own);
    dnnl_exec_arg_t args[3];
    for (int i = 0; i < 3; i++) { args[i].arg = ops[i]->arg; args[i].memory = used(ops[i]); }
    dnnl_status_t st = dnnl_primitive_execute(p->prim, stream, 3, args);
    if (!st && p->out.reorder) reorder(p->out.reorder, p->out.own, p->out.plain);
    if (!st) st = dnnl_stream_wait(stream);
    return st;
}

/* The name of the oneDNN implementation a plan runs (brg:avx512_core, gemm:jit, ...). */
const char *conv_plan_impl(void *plan) {
    const_dnnl_primitive_desc_t pd;
    const char *name = "";
    dnnl_primitive_get_primitive_desc(((conv_plan *)plan)->prim, &pd);
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
    return name;
}

static void release(operand *o) {
    if (o->reorder) dnnl_primitive_destroy(o->reorder);
    if (o->own) dnnl_memory_destroy(o->own);
    if (o->plain) dnnl_memory_destroy(o->plain);
}

void conv_plan_free(void *plan) {
    conv_plan *p = plan;
    release(&p->in[0]);
    release(&p->in[1]);
    release(&p->out);
    if (p->prim) dnnl_primitive_destroy(p->prim);
    free(p);
}
