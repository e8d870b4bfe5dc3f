/* Convolution and pooling kernels of tenflang/interp/backends/c/image_c.py, compiled once per dtype:
   TYPE (float or double) and WIDE (tenflang/native/clib.py's: the hot loops also in an
   AVX2 copy, chosen when the library loads on a CPU that has it) are defined before
   this text. */
#include <stdlib.h>
#include <string.h>
typedef TYPE T;

/* A short copy (a row of an image) inline: memcpy's call costs more than its few elements
   (the library is built with -fno-tree-loop-distribute-patterns, which keeps this a loop) */
static inline void copy(T *restrict to, const T *restrict from, long n)
{
    for (long i = 0; i < n; i++) to[i] = from[i];
}

/* The outputs ox in [*lo, *hi) whose tap j reads inside a row of W (ox*s - p + j in 0..W-1) */
static void inside(long W, long j, long s, long p, long WO, long *lo, long *hi)
{
    long a = p - j, b = W - 1 + p - j;
    *lo = a <= 0 ? 0 : (a + s - 1) / s;
    *hi = b < 0 ? 0 : b / s + 1;
    if (*lo > WO) *lo = WO;
    if (*hi > WO) *hi = WO;
    if (*hi < *lo) *hi = *lo;
}

#define NARROW 16   /* output rows narrower than this: im2col and col2im by the plane (below) */

/* With stride 1, the narrow loops are made once per output width (`switch (WO)` over these):
   a copy of a row of a constant few elements is one or two vector moves, where a loop over a
   variable few is scalar code (2.3x slower im2col, 1.5x slower col2im on 4x4 planes). */
#define NARROW_WIDTHS(X) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) \
    X(14) X(15)
#define INLINE static inline __attribute__((always_inline))
#define STAGE_MAX (1 << 15)   /* elements col2im_unit may stage: its border grows with the kernel
                                 (a 101x101 kernel padded 50 would stage 470M); past it, col2im_narrow */

/* Narrow outputs (small images) with a stride > 1: per tap, a copy of the whole plane through
   one table of offsets, off[oy*WO + ox] = oy*s*WP + ox*s into a plane of width WP (the image
   itself, or a copy with its zero padding), instead of a copy per output row of a few elements
   (stride 1 copies whole rows: im2col_planes). */
static void offsets(long *off, long WP, long s, long HO, long WO)
{
    for (long oy = 0; oy < HO; oy++)
        for (long ox = 0; ox < WO; ox++) off[oy * WO + ox] = oy * s * WP + ox * s;
}

/* Plane img [H, W] into pad [HP, WP] at (p, p), zeros around (what the windows reach) */
static void pad_plane(const T *restrict img, T *restrict pad, long H, long W, long p, long HP, long WP)
{
    memset(pad, 0, HP * WP * sizeof(T));
    for (long y = 0; y < H && y + p < HP; y++) {
        long n = W + p <= WP ? W : WP - p;
        for (long x = 0; x < n; x++) pad[(y + p) * WP + p + x] = img[y * W + x];
    }
}

/* The columns of planes b0..b1 (WO < NARROW): each plane padded (p > 0), each tap's window
   rows copied out of it, by rows with stride 1 (called with s = 1 and WO constants: one copy
   of the loops per width), else gathered through `off` */
INLINE void im2col_planes(long b0, long b1, const T *restrict x, T *restrict cols, long B,
                          long C, long H, long W, long kh, long kw, const long s, long p,
                          long HO, const long WO, long HP, long WP, const long *restrict off,
                          T *restrict pad)
{
    const long N = B * HO * WO, M = HO * WO;
    for (long b = b0; b < b1; b++)
        for (long c = 0; c < C; c++) {
            const T *src = x + (b * C + c) * H * W;
            if (p) {
                pad_plane(src, pad, H, W, p, HP, WP);
                src = pad;
            }
            for (long i = 0; i < kh; i++)
                for (long j = 0; j < kw; j++) {
                    T *restrict o = cols + ((c * kh + i) * kw + j) * N + b * M;
                    const T *restrict at = src + i * WP + j;
                    if (s == 1)
                        for (long y = 0; y < HO; y++) memcpy(o + y * WO, at + y * WP, WO * sizeof(T));
                    else
                        for (long t = 0; t < M; t++) o[t] = at[off[t]];
                }
        }
}

WIDE static void im2col_narrow(long b0, long b1, const T *restrict x, T *restrict cols, long B,
                               long C, long H, long W, long kh, long kw, long s, long p, long HO,
                               long WO)
{
    const long HP = (HO - 1) * s + kh, WP = p ? (WO - 1) * s + kw : W;
    T *pad = malloc(HP * WP * sizeof(T));
    if (!pad) abort();
    if (s == 1) {
        switch (WO) {
#define UNIT(n) case n: im2col_planes(b0, b1, x, cols, B, C, H, W, kh, kw, 1, p, HO, n, HP, WP, \
                                      NULL, pad); break;
        NARROW_WIDTHS(UNIT)
#undef UNIT
        }
    } else {
        long *off = malloc(HO * WO * sizeof(long));
        if (!off) abort();
        offsets(off, WP, s, HO, WO);
        im2col_planes(b0, b1, x, cols, B, C, H, W, kh, kw, s, p, HO, WO, HP, WP, off, pad);
        free(off);
    }
    free(pad);
}

/* col2im of narrow outputs with stride 1, W = W' a constant: each tap's plane staged inside a
   border of zeros (`stage`, zeroed once), then each image row the sum of its taps' rows in tap
   order (col2im_narrow's sums; the border's +0s change no sum, which starts at +0).  Summing
   rows into a padded plane instead stalled: each add re-read a store it overlapped. */
INLINE void col2im_unit(long b0, long b1, const T *restrict cols, T *restrict x, long B, long C,
                        long H, long W, long kh, long kw, long p, long HO, const long WO,
                        T *restrict stage)
{
    const long N = B * HO * WO, M = HO * WO, R = kh * kw;
    const long HZ = HO + 2 * (kh - 1), WZ = WO + 2 * (kw - 1), Z = HZ * WZ;
    memset(stage, 0, R * Z * sizeof(T));
    for (long b = b0; b < b1; b++)
        for (long c = 0; c < C; c++) {
            for (long r = 0; r < R; r++) {
                const T *restrict o = cols + (c * R + r) * N + b * M;
                T *restrict z = stage + r * Z + (kh - 1) * WZ + kw - 1;
                for (long y = 0; y < HO; y++) memcpy(z + y * WZ, o + y * WO, WO * sizeof(T));
            }
            T *restrict img = x + (b * C + c) * H * W;
            for (long y = 0; y < H; y++) {
                T *restrict row = img + y * W;
                for (long t = 0; t < W; t++) row[t] = 0;
                for (long i = 0; i < kh; i++)
                    for (long j = 0; j < kw; j++) {
                        const T *restrict z = stage + (i * kw + j) * Z
                                              + (y + p - i + kh - 1) * WZ + p - j + kw - 1;
                        for (long t = 0; t < W; t++) row[t] += z[t];
                    }
            }
        }
}

/* tab[r*H*W + y*W + x] = the window t = oy*WO + ox whose tap r = i*kw + j reads pixel (y, x)
   of the image, or M = HO*WO where none does */
static void taps_table(int *tab, long H, long W, long kh, long kw, long s, long p, long HO, long WO)
{
    for (long r = 0; r < kh * kw; r++)
        for (long y = 0; y < H; y++)
            for (long x = 0; x < W; x++) {
                long oy = y + p - r / kw, ox = x + p - r % kw, t = HO * WO;
                if (oy >= 0 && ox >= 0 && oy % s == 0 && ox % s == 0 && oy / s < HO && ox / s < WO)
                    t = oy / s * WO + ox / s;
                tab[(r * H + y) * W + x] = (int)t;
            }
}

/* col2im of narrow outputs (no more pixels than windows): a plane's columns staged one tap after another, each followed by a
   zero (window M), and each pixel gathering its taps' values through `taps_table` (in tap order:
   the sums col2im takes, in its order) */
WIDE static void col2im_narrow(long b0, long b1, const T *restrict cols, T *restrict x, long B,
                               long C, long H, long W, long kh, long kw, long s, long p, long HO,
                               long WO)
{
    const long N = B * HO * WO, M = HO * WO, R = kh * kw, HW = H * W;
    int *tab = malloc(R * HW * sizeof(int));
    T *stage = malloc(R * (M + 1) * sizeof(T));
    if (!tab || !stage) abort();
    taps_table(tab, H, W, kh, kw, s, p, HO, WO);
    for (long b = b0; b < b1; b++)
        for (long c = 0; c < C; c++) {
            for (long r = 0; r < R; r++) {
                copy(stage + r * (M + 1), cols + (c * R + r) * N + b * M, M);
                stage[r * (M + 1) + M] = 0;
            }
            T *restrict img = x + (b * C + c) * HW;
            for (long q = 0; q < HW; q++) img[q] = 0;
            for (long r = 0; r < R; r++) {
                const T *restrict from = stage + r * (M + 1);
                const int *restrict at = tab + r * HW;
                for (long q = 0; q < HW; q++) img[q] += from[at[q]];
            }
        }
    free(stage);
    free(tab);
}

/* cols[(c*kh + i)*kw + j][b*HO*WO + oy*WO + ox] = x[b][c][oy*s - p + i][ox*s - p + j] (0 outside) */
WIDE void im2col(long b0, long b1, const T *restrict x, T *restrict cols, long B, long C, long H, long W,
            long kh, long kw, long s, long p, long HO, long WO)
{
    if (WO < NARROW) {
        im2col_narrow(b0, b1, x, cols, B, C, H, W, kh, kw, s, p, HO, WO);
        return;
    }
    const long N = B * HO * WO;
    for (long b = b0; b < b1; b++)
        for (long c = 0; c < C; c++) {
            const T *img = x + (b * C + c) * H * W;
            for (long i = 0; i < kh; i++)
                for (long j = 0; j < kw; j++) {
                    T *o = cols + ((c * kh + i) * kw + j) * N + b * HO * WO;
                    long lo, hi;
                    inside(W, j, s, p, WO, &lo, &hi);
                    for (long oy = 0; oy < HO; oy++, o += WO) {
                        long y = oy * s - p + i;
                        if (y < 0 || y >= H) { memset(o, 0, WO * sizeof(T)); continue; }
                        const T *row = img + y * W - p + j;
                        for (long ox = 0; ox < lo; ox++) o[ox] = 0;
                        if (s == 1) memcpy(o + lo, row + lo, (hi - lo) * sizeof(T));
                        else for (long ox = lo; ox < hi; ox++) o[ox] = row[ox * s];
                        for (long ox = hi; ox < WO; ox++) o[ox] = 0;
                    }
                }
        }
}

/* The adjoint of im2col: x[b] = the sum of its windows' columns (x's examples b0..b1 zeroed first) */
WIDE void col2im(long b0, long b1, const T *restrict cols, T *restrict x, long B, long C, long H, long W,
            long kh, long kw, long s, long p, long HO, long WO)
{
    const long staged = kh * kw * (HO + 2 * kh - 2) * (WO + 2 * kw - 2);
    if (WO < NARROW && s == 1 && W == WO && staged <= STAGE_MAX) {
        T *stage = malloc(staged * sizeof(T));
        if (!stage) abort();
        switch (WO) {
#define UNIT(n) case n: col2im_unit(b0, b1, cols, x, B, C, H, n, kh, kw, p, HO, n, stage); break;
        NARROW_WIDTHS(UNIT)
#undef UNIT
        }
        free(stage);
        return;
    }
    if (WO < NARROW && H * W <= HO * WO) {     /* (else gathering costs more than adding) */
        col2im_narrow(b0, b1, cols, x, B, C, H, W, kh, kw, s, p, HO, WO);
        return;
    }
    const long N = B * HO * WO;
    for (long b = b0; b < b1; b++)
        for (long c = 0; c < C; c++) {
            T *img = x + (b * C + c) * H * W;
            memset(img, 0, H * W * sizeof(T));
            for (long i = 0; i < kh; i++)
                for (long j = 0; j < kw; j++) {
                    const T *o = cols + ((c * kh + i) * kw + j) * N + b * HO * WO;
                    long lo, hi;
                    inside(W, j, s, p, WO, &lo, &hi);
                    for (long oy = 0; oy < HO; oy++, o += WO) {
                        long y = oy * s - p + i;
                        if (y < 0 || y >= H) continue;
                        T *restrict row = img + y * W - p + j;
                        if (s == 1) for (long ox = lo; ox < hi; ox++) row[ox] += o[ox];
                        else for (long ox = lo; ox < hi; ox++) row[ox * s] += o[ox];
                    }
                }
        }
}

/* Example b's images [C, H, W] copied into pad [C, HP, WP], zeros around (HP, WP: what the
   windows reach) and in the `slack` elements after it */
static void padded(const T *restrict img, T *restrict pad, long C, long H, long W, long p,
                   long HP, long WP, long slack)
{
    memset(pad, 0, (C * HP * WP + slack) * sizeof(T));
    for (long c = 0; c < C; c++)
        for (long y = 0; y < H && y + p < HP; y++) {
            long n = W + p <= WP ? W : WP - p;
            if (n > 0) copy(pad + (c * HP + y + p) * WP + p, img + (c * H + y) * W, n);
        }
}

#define SUMS 32      /* interleaved partial sums of a dot product (four AVX registers of
                        floats); the positions of a plane are rounded up to a multiple */
/* Direct convolution (for few input channels and taps: no columns).  With stride 1
   the outputs of a plane are computed as rows of the padded width WP (the columns
   past W' are computed and dropped), so that each tap reads the plane as one long row:
   blocks of positions in the forward (filters_block), blocks of filters by taps in the kernel
   gradient (taps_block). */
struct direct { long C, H, W, F, kh, kw, s, p, HO, WO, HP, WP, n, slack; };

static struct direct shape(long C, long H, long W, long F, long kh, long kw, long s, long p,
                           long HO, long WO)
{
    struct direct d = {C, H, W, F, kh, kw, s, p, HO, WO};
    d.HP = (HO - 1) * s + kh;
    d.WP = (WO - 1) * s + kw;
    d.n = (HO * d.WP + SUMS - 1) / SUMS * SUMS;        /* positions computed per plane */
    d.slack = d.n + 2 * d.WP + SUMS;                   /* read past the planes by the last taps */
    return d;
}

/* Vectors of GCC's vector extension, 32 bytes (an AVX register; two SSE ones in the copy
   without AVX), loaded from any address */
typedef T vec __attribute__((vector_size(32)));
typedef T vec_any __attribute__((vector_size(32), aligned(sizeof(T))));
#define LANES (32 / (long)sizeof(T))
#define BLOCK (2 * LANES)               /* positions computed at once */
#define FILTERS 4                       /* filters computed at once for a block of positions */
#define FILTER_COUNTS(X) X(1) X(2) X(3) X(4)

/* stage[q*n + t0 + l] = the sum over the taps (c, i, j), in order, of k[q][c][i][j] *
   pad[c][i*WP + j + t0 + l], l < BLOCK, for nf filters (a constant at each call: the sums
   stay in registers, and each input vector loaded serves all the filters) */
INLINE void filters_block(T *restrict stage, const T *restrict pad, const T *restrict k,
                          const long nf, long C, long kh, long kw, long plane, long WP,
                          long t0, long n)
{
    vec acc[FILTERS][2];
#pragma GCC unroll 4
    for (long q = 0; q < nf; q++) acc[q][0] = acc[q][1] = (vec){0};
    const long taps = C * kh * kw;
    for (long c = 0; c < C; c++)
        for (long i = 0; i < kh; i++) {
            const T *restrict row = pad + c * plane + i * WP + t0;
            const T *restrict w = k + (c * kh + i) * kw;
            for (long j = 0; j < kw; j++) {
                const vec a0 = *(const vec_any *)(row + j), a1 = *(const vec_any *)(row + j + LANES);
#pragma GCC unroll 4
                for (long q = 0; q < nf; q++) {
                    const T wq = w[q * taps + j];
                    acc[q][0] = acc[q][0] + wq * a0;
                    acc[q][1] = acc[q][1] + wq * a1;
                }
            }
        }
#pragma GCC unroll 4
    for (long q = 0; q < nf; q++) {
        *(vec_any *)(stage + q * n + t0) = acc[q][0];
        *(vec_any *)(stage + q * n + t0 + LANES) = acc[q][1];
    }
}

/* out[b][f][oy][ox] = sum over (c, i, j) in order of K[f][c][i][j] * x[b][c][oy*s - p + i][ox*s - p + j],
   examples b0..b1 */
WIDE void conv_direct(long b0, long b1, const T *restrict x, const T *restrict K, T *restrict out,
                      long C, long H, long W, long F, long kh, long kw, long s, long p, long HO, long WO)
{
    const struct direct d = shape(C, H, W, F, kh, kw, s, p, HO, WO);
    const long plane = d.HP * d.WP, taps = C * kh * kw;
    T *pad = malloc((C * plane + d.slack + FILTERS * d.n) * sizeof(T));
    if (!pad) abort();
    T *restrict stage = pad + C * plane + d.slack;
    for (long b = b0; b < b1; b++) {
        padded(x + b * C * H * W, pad, C, H, W, p, d.HP, d.WP, d.slack);
        if (s == 1) {
            for (long f = 0; f < F; f += FILTERS) {
                const long nf = F - f < FILTERS ? F - f : FILTERS;
                for (long t0 = 0; t0 < d.n; t0 += BLOCK)
                    switch (nf) {
#define UNIT(m) case m: filters_block(stage, pad, K + f * taps, m, C, kh, kw, plane, d.WP, t0, \
                                      d.n); break;
                        FILTER_COUNTS(UNIT)
#undef UNIT
                    }
                for (long q = 0; q < nf; q++)
                    for (long oy = 0; oy < HO; oy++)
                        copy(out + ((b * F + f + q) * HO + oy) * WO, stage + q * d.n + oy * d.WP, WO);
            }
            continue;
        }
        for (long f = 0; f < F; f++) {
            T *restrict o = out + (b * F + f) * HO * WO;
            const T *restrict k = K + f * taps;
            memset(o, 0, HO * WO * sizeof(T));
            for (long c = 0; c < C; c++)
                for (long i = 0; i < kh; i++)
                    for (long j = 0; j < kw; j++) {
                        const T w = k[(c * kh + i) * kw + j];
                        for (long oy = 0; oy < HO; oy++) {
                            const T *restrict row = pad + c * plane + (oy * s + i) * d.WP + j;
                            T *restrict orow = o + oy * WO;
                            for (long ox = 0; ox < WO; ox++) orow[ox] += w * row[ox * s];
                        }
                    }
        }
    }
    free(pad);
}

/* The sum of lane[0..n), halves added: a tree (n a power of 2) */
static inline T tree(T *restrict lane, long n)
{
    for (long w = n / 2; w > 0; w /= 2)
        for (long l = 0; l < w; l++) lane[l] += lane[l + w];
    return lane[0];
}

/* sum over t < m of a[t] * b[t], in SUMS interleaved partial sums (m a multiple of SUMS) */
static inline T dot(const T *restrict a, const T *restrict b, long m)
{
    T lane[SUMS] = {0};
    for (long t = 0; t < m; t += SUMS)
        for (long l = 0; l < SUMS; l++) lane[l] += a[t + l] * b[t + l];
    return tree(lane, SUMS);
}

#define KFILTERS 3          /* filters of the kernel gradient taken at once, */
#define KTAPS 3             /* by taps of a kernel row: 9 sums, 3 + 1 vectors in registers */
#define KERNEL_COUNTS(X) X(1, 1) X(1, 2) X(1, 3) X(2, 1) X(2, 2) X(2, 3) X(3, 1) X(3, 2) X(3, 3)

/* out[q*stride + j] = the sum over t < m of g[q*m + t] * src[t + j], for nf filters q and
   nt taps j (constants at each call: the sums stay in registers, each vector of src loaded
   serves every filter and each of g every tap), in LANES interleaved partial sums added
   pairwise at the end */
INLINE void taps_block(T *restrict out, long stride, const T *restrict g, const T *restrict src,
                       const long nf, const long nt, long m)
{
    vec acc[KFILTERS][KTAPS];
#pragma GCC unroll 3
    for (long q = 0; q < nf; q++)
#pragma GCC unroll 3
        for (long j = 0; j < nt; j++) acc[q][j] = (vec){0};
    for (long t = 0; t < m; t += LANES) {
        vec gq[KFILTERS];
#pragma GCC unroll 3
        for (long q = 0; q < nf; q++) gq[q] = *(const vec_any *)(g + q * m + t);
#pragma GCC unroll 3
        for (long j = 0; j < nt; j++) {
            const vec a = *(const vec_any *)(src + t + j);
#pragma GCC unroll 3
            for (long q = 0; q < nf; q++) acc[q][j] = acc[q][j] + gq[q] * a;
        }
    }
#pragma GCC unroll 3
    for (long q = 0; q < nf; q++)
#pragma GCC unroll 3
        for (long j = 0; j < nt; j++) {
            T lane[LANES];
            memcpy(lane, &acc[q][j], sizeof lane);
            out[q * stride + j] = tree(lane, LANES);
        }
}

/* The kernel gradient of example b's filters f..f+nf, stride 1: g staged as rows of the
   padded width WP (zeros past W' and past H' rows), one plane of m per filter in gw, then
   taps_block over every kernel row of every channel */
INLINE void kernel_rows(T *restrict part, const T *restrict g, const T *restrict pad,
                        T *restrict gw, struct direct d, long b, long f, long nf, long m)
{
    const long plane = d.HP * d.WP, taps = d.C * d.kh * d.kw;
    memset(gw, 0, nf * m * sizeof(T));
    for (long q = 0; q < nf; q++)
        for (long oy = 0; oy < d.HO; oy++)
            memcpy(gw + q * m + oy * d.WP, g + ((b * d.F + f + q) * d.HO + oy) * d.WO,
                   d.WO * sizeof(T));
    for (long c = 0; c < d.C; c++)
        for (long i = 0; i < d.kh; i++) {
            const T *restrict src = pad + c * plane + i * d.WP;
            T *restrict o = part + ((b * d.F + f) * d.C + c) * d.kh * d.kw + i * d.kw;
            for (long j = 0; j < d.kw; j += KTAPS) {
                const long nt = d.kw - j < KTAPS ? d.kw - j : KTAPS;
                switch (nf * (KTAPS + 1) + nt) {     /* one case per (nf, nt) */
#define UNIT(a, z) case a * (KTAPS + 1) + z: taps_block(o + j, taps, gw, src + j, a, z, m); break;
                    KERNEL_COUNTS(UNIT)
#undef UNIT
                }
            }
        }
}

/* The kernel gradient of each example b0..b1: part[b][f][c][i][j] = the sum over (oy, ox) of
   g[b][f][oy][ox] * x[b][c][oy*s - p + i][ox*s - p + j], taken in interleaved partial
   sums added pairwise at the end (the batch sum is the caller's, in one order whatever the
   threads).  With stride 1, `kernel_rows` (g laid out as rows of the padded width WP); else
   each window's taps gathered, a dot product per tap. */
WIDE void conv_kernel_direct(long b0, long b1, const T *restrict x, const T *restrict g,
                             T *restrict part, long C, long H, long W, long F, long kh, long kw,
                             long s, long p, long HO, long WO)
{
    const struct direct d = shape(C, H, W, F, kh, kw, s, p, HO, WO);
    const long plane = d.HP * d.WP, m = s == 1 ? d.n : (HO * WO + SUMS - 1) / SUMS * SUMS;
    T *pad = malloc((C * plane + d.slack + (KFILTERS + 1) * m) * sizeof(T));
    if (!pad) abort();
    T *restrict gw = pad + C * plane + d.slack, *restrict win = gw + KFILTERS * m;
    memset(win, 0, m * sizeof(T));      /* past the H'*W' taps gathered: zeros */
    for (long b = b0; b < b1; b++) {
        padded(x + b * C * H * W, pad, C, H, W, p, d.HP, d.WP, d.slack);
        if (s == 1) {
            for (long f = 0; f < F; f += KFILTERS)
                kernel_rows(part, g, pad, gw, d, b, f, F - f < KFILTERS ? F - f : KFILTERS, m);
            continue;
        }
        for (long f = 0; f < F; f++) {
            memset(gw + HO * WO, 0, (m - HO * WO) * sizeof(T));
            memcpy(gw, g + (b * F + f) * HO * WO, HO * WO * sizeof(T));
            for (long c = 0; c < C; c++)
                for (long i = 0; i < kh; i++)
                    for (long j = 0; j < kw; j++) {
                        const T *restrict src = pad + c * plane + i * d.WP + j;
                        for (long oy = 0; oy < HO; oy++)     /* the window's taps, as g is laid out */
                            for (long ox = 0; ox < WO; ox++)
                                win[oy * WO + ox] = src[oy * s * d.WP + ox * s];
                        part[(((b * F + f) * C + c) * kh + i) * kw + j] = dot(gw, win, m);
                    }
        }
    }
    free(pad);
}

/* The rows (or columns) of window o along an axis of n: k, fewer for a ceil-mode
   window reaching past the image (pooling without padding: the only kind run here) */
static inline long reach(long n, long k, long s, long o)
{
    return n - o * s < k ? n - o * s : k;
}

/* The flat index in its plane of window (oy, ox)'s first maximum (row-major), the
   window ku rows by kv columns */
static long first_max(const T *img, long W, long ku, long kv, long s, long oy, long ox)
{
    long at = oy * s * W + ox * s;
    T best = img[at];
    for (long u = 0; u < ku; u++)
        for (long v = 0; v < kv; v++) {
            long here = (oy * s + u) * W + ox * s + v;
            if (img[here] > best) { best = img[here]; at = here; }
        }
    return at;
}

/* Max-pooling of 2x2 windows at stride 2, the commonest, in a loop without branches
   (the same comparisons in the same order as pool's general loop) */
WIDE static void max2(const T *restrict x, T *restrict out, long W, long HO, long WO)
{
    for (long oy = 0; oy < HO; oy++) {
        const T *restrict r0 = x + 2 * oy * W, *restrict r1 = r0 + W;
        T *restrict o = out + oy * WO;
        for (long ox = 0; ox < WO; ox++) {
            T m = r0[2 * ox], b = r0[2 * ox + 1], c = r1[2 * ox], d = r1[2 * ox + 1];
            m = b > m ? b : m;
            m = c > m ? c : m;
            o[ox] = d > m ? d : m;
        }
    }
}

/* Planes q0..q1 of [B*C, H, W]: MODE 0 max-pool, 1 average-pool into out [B*C, HO, WO];
   a ceil-mode last window reaching past the image covers what it reaches of it, and an
   average divides by that (the numpy path's sums, in its order) */
void pool(long q0, long q1, long mode, const T *x, T *out, long H, long W, long k, long s,
          long HO, long WO)
{
    const T scale = (T)1 / (T)(k * k);
    const int inside = (HO - 1) * s + k <= H && (WO - 1) * s + k <= W;
    if (mode == 0 && k == 2 && s == 2 && H == 2 * HO && W == 2 * WO) {
        /* the planes are one after another: one plane of (q1 - q0)*HO rows of windows */
        max2(x + q0 * H * W, out + q0 * HO * WO, W, (q1 - q0) * HO, WO);
        return;
    }
    for (long q = q0; q < q1; q++) {
        const T *img = x + q * H * W;
        T *o = out + q * HO * WO;
        if (mode == 0 && k == 2 && s == 2 && inside) {
            max2(img, o, W, HO, WO);
            continue;
        }
        for (long oy = 0; oy < HO; oy++)
            for (long ox = 0; ox < WO; ox++) {
                const long ku = reach(H, k, s, oy), kv = reach(W, k, s, ox);
                const T *w = img + oy * s * W + ox * s;
                T acc = w[0];
                for (long u = 0; u < ku; u++)
                    for (long v = (u == 0); v < kv; v++) {
                        T a = w[u * W + v];
                        if (mode == 0) acc = a > acc ? a : acc;
                        else acc += a;
                    }
                o[oy * WO + ox] = mode == 0 ? acc
                                  : acc * (ku * kv == k * k ? scale : (T)1 / (T)(ku * kv));
            }
    }
}

/* maxpool2d_grad of 2x2 windows at stride 2 without branches: g sent to each window's first
   maximum, whose place `at` is kept in a T so that every select is of one width and the loop
   vectorises (in SSE registers: an AVX2 copy of it ran slower) */
static void max2_grad(const T *restrict x, const T *restrict g, T *restrict img,
                      long H, long W, long HO, long WO)
{
    if (H != 2 * HO || W != 2 * WO) memset(img, 0, H * W * sizeof(T));
    for (long oy = 0; oy < HO; oy++) {
        const T *restrict r0 = x + 2 * oy * W, *restrict r1 = r0 + W, *restrict go = g + oy * WO;
        T *restrict i0 = img + 2 * oy * W, *restrict i1 = i0 + W;
        for (long ox = 0; ox < WO; ox++) {
            T m = r0[2 * ox], b = r0[2 * ox + 1], c = r1[2 * ox], d = r1[2 * ox + 1], at = 0;
            at = b > m ? 1 : at;
            m = b > m ? b : m;
            at = c > m ? 2 : at;
            m = c > m ? c : m;
            at = d > m ? 3 : at;
            const T v = go[ox];
            i0[2 * ox] = at == 0 ? v : 0;
            i0[2 * ox + 1] = at == 1 ? v : 0;
            i1[2 * ox] = at == 2 ? v : 0;
            i1[2 * ox + 1] = at == 3 ? v : 0;
        }
    }
}

/* v where `keep`, else +0: a select by a mask of bits, which no compiler makes a branch */
static inline T kept(int keep, T v)
{
    if (sizeof(T) == 4) {
        unsigned int u;
        memcpy(&u, &v, 4);
        u &= -(unsigned int)keep;
        memcpy(&v, &u, 4);
    } else {
        unsigned long long u;
        memcpy(&u, &v, 8);
        u &= -(unsigned long long)keep;
        memcpy(&v, &u, 8);
    }
    return v;
}

/* max2_grad of rows of fewer windows than a vector loop needs (planes of 2x2 to 6x6): the
   compiler makes max2_grad's short rows scalar code with a branch per comparison, which
   real activations (ties, zeros) mispredict; here every select is a max or a bit mask */
static inline void max2_grad_rows(const T *restrict x, const T *restrict g, T *restrict img,
                                  long HO, long W, long WO)
{
    for (long oy = 0; oy < HO; oy++) {
        const T *restrict r0 = x + 2 * oy * W, *restrict r1 = r0 + W, *restrict go = g + oy * WO;
        T *restrict i0 = img + 2 * oy * W, *restrict i1 = i0 + W;
        for (long ox = 0; ox < WO; ox++) {
            T m = r0[2 * ox], b = r0[2 * ox + 1], c = r1[2 * ox], d = r1[2 * ox + 1];
            const int over_b = b > m;
            m = b > m ? b : m;
            const int over_c = c > m;
            m = c > m ? c : m;
            const int at_d = d > m, at_c = over_c & !at_d, at_b = over_b & !over_c & !at_d;
            const T v = go[ox];
            i0[2 * ox] = kept(!(over_b | over_c | at_d), v);
            i0[2 * ox + 1] = kept(at_b, v);
            i1[2 * ox] = kept(at_c, v);
            i1[2 * ox + 1] = kept(at_d, v);
        }
    }
}

/* rows of 2 windows (4x4 planes) in a copy of their own, unrolled: 122 -> 38 us a step for
   the digits LeNet's second layer; rows of 4 (8x8 planes) ran 10% slower than max2_grad */
static void max2_grad_narrow(const T *restrict x, const T *restrict g, T *restrict img,
                             long HO, long W, long WO)
{
    if (WO == 2) max2_grad_rows(x, g, img, HO, 4, 2);
    else max2_grad_rows(x, g, img, HO, W, WO);
}

/* MODE 0: img = maxpool2d_grad (g to each window's first maximum of x);
   1: g = maxpool2d_gather (img read at those maxima); 2: img = avgpool2d_grad. */
void pool_adjoint(long q0, long q1, long mode, const T *x, T *g, T *img, long H, long W,
                  long k, long s, long HO, long WO)
{
    const T scale = (T)1 / (T)(k * k);
    const int inside = (HO - 1) * s + k <= H && (WO - 1) * s + k <= W;
    if (mode == 0 && k == 2 && s == 2 && H == 2 * HO && W == 2 * WO) {     /* as in pool */
        if (WO < 4)
            max2_grad_narrow(x + q0 * H * W, g + q0 * HO * WO, img + q0 * H * W, (q1 - q0) * HO,
                             W, WO);
        else
            max2_grad(x + q0 * H * W, g + q0 * HO * WO, img + q0 * H * W, 2 * (q1 - q0) * HO, W,
                      (q1 - q0) * HO, WO);
        return;
    }
    for (long q = q0; q < q1; q++) {
        const T *xq = x + q * H * W;
        T *iq = img + q * H * W, *gq = g + q * HO * WO;
        if (mode == 0 && k == 2 && s == 2 && inside) {
            max2_grad(xq, gq, iq, H, W, HO, WO);
            continue;
        }
        if (mode != 1) memset(iq, 0, H * W * sizeof(T));
        for (long oy = 0; oy < HO; oy++)
            for (long ox = 0; ox < WO; ox++) {
                const long ku = reach(H, k, s, oy), kv = reach(W, k, s, ox);
                if (mode == 2) {
                    T share = gq[oy * WO + ox]
                              * (ku * kv == k * k ? scale : (T)1 / (T)(ku * kv));
                    for (long u = 0; u < ku; u++)
                        for (long v = 0; v < kv; v++)
                            iq[(oy * s + u) * W + ox * s + v] += share;
                    continue;
                }
                long at = first_max(xq, W, ku, kv, s, oy, ox);
                if (mode == 0) iq[at] += gq[oy * WO + ox];
                else gq[oy * WO + ox] = iq[at];
            }
    }
}
