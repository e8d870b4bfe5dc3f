/* The helpers of a native step (interp/backends/c/native_step.py): products through
   numpy's BLAS, strided copies, sums.  TYPE is defined first. */
#define MAX_RANK 8
#if defined(__GNUC__) && !defined(__clang__)
#define HOT __attribute__((optimize("O3")))     /* vectorised inner loops */
#else
#define HOT
#endif
#define SMALL_PRODUCT 4096      /* multiply-adds of a product below which loops beat BLAS */
#define ROW 101
#define NO 111
#define TR 112
typedef void (*gemm_t)(int, int, int, long, long, long, TYPE, const TYPE *, long,
                       const TYPE *, long, TYPE, TYPE *, long);
static gemm_t gemm;
void tenflang_set_gemm(void *f) { gemm = (gemm_t)f; }

/* c[i] = a[i] b[i] for `count` items (M×K times K×N, row-major; a stride of 0:
   one matrix for every item) */
HOT static void matmul_items(long count, long M, long N, long K, const TYPE *a, long sa,
                             const TYPE *b, long sb, TYPE *c, long sc)
{
    if (count > 1 && sb == 0 && sa == M * K && sc == M * N)     /* stack a's rows */
        gemm(ROW, NO, NO, count * M, N, K, 1, a, K, b, N, 0, c, N);
    else if (count > 1 && sa == 0 && N == 1 && sb == K && sc == M) /* rows of b times aᵀ */
        gemm(ROW, NO, TR, count, M, K, 1, b, K, a, K, 0, c, M);
    else if (M * N * K <= SMALL_PRODUCT)          /* a BLAS call costs more: loops */
        for (long i = 0; i < count; i++) {
            const TYPE *restrict x = a + i * sa, *restrict y = b + i * sb;
            TYPE *restrict z = c + i * sc;
            for (long m = 0; m < M; m++) {
                for (long n = 0; n < N; n++) z[m * N + n] = 0;
                for (long k = 0; k < K; k++) {
                    const TYPE xk = x[m * K + k];
                    for (long n = 0; n < N; n++) z[m * N + n] += xk * y[k * N + n];
                }
            }
        }
    else
        for (long i = 0; i < count; i++)
            gemm(ROW, NO, NO, M, N, K, 1, a + i * sa, K, b + i * sb, N, 0, c + i * sc, N);
}

/* Σ_i a[i] ⊗ b[i] = aᵀb, a [count, M], b [count, N]: one GEMM */
static void outer_sum(long count, long M, long N, const TYPE *a, const TYPE *b, TYPE *c)
{
    gemm(ROW, TR, NO, M, N, count, 1, a, M, b, N, 0, c, N);
}

/* Σ_i a[i] b[i] (M×K times K×N, b's items stacked [count·K, N]) where a[i] is
   the transpose of at[i] (K×M, stacked [count·K, M]): atᵀb, one GEMM */
static void transposed_sum(long count, long M, long N, long K, const TYPE *at, const TYPE *b,
                           TYPE *c)
{
    gemm(ROW, TR, NO, M, N, count * K, 1, at, M, b, N, 0, c, N);
}

/* c[j] = value for j < n */
static void fill(long n, double value, TYPE *c)
{
    for (long j = 0; j < n; j++) c[j] = (TYPE)value;
}

/* c's B rows: a's (a stride of 0: the same row for every example) */
static void copy_rows(long B, long n, const TYPE *a, long sa, TYPE *c)
{
    for (long i = 0; i < B; i++) memcpy(c + i * n, a + i * sa, sizeof(TYPE) * n);
}

/* c divided by `divisor` in place (a sum made a mean) */
static void divide(long n, TYPE *c, double divisor)
{
    if (divisor != 1)
        for (long j = 0; j < n; j++) c[j] = (TYPE)(c[j] / divisor);
}

/* c[i] = Σ_j a[i, j] b[i, j] (a stride of 0: one vector for every item) */
static void dot_items(long count, long n, const TYPE *a, long sa, const TYPE *b, long sb,
                      TYPE *c)
{
    for (long i = 0; i < count; i++) {
        double total = 0;
        for (long j = 0; j < n; j++) total += (double)a[i * sa + j] * b[i * sb + j];
        c[i] = (TYPE)total;
    }
}

/* the last two axes of `count` M×N matrices swapped */
static void transpose_items(long count, long M, long N, const TYPE *a, TYPE *c)
{
    for (long i = 0; i < count; i++)
        for (long m = 0; m < M; m++)
            for (long n = 0; n < N; n++) c[i * M * N + n * M + m] = a[i * M * N + m * N + n];
}

/* For every item i and index (k_0, …) of `dims`: c[i·ci + co + Σ k_j cs_j] = (or +=)
   a[i·ai + ao + Σ k_j as_j], the strides in elements (0 reads or adds one place
   again): a permute, a slice, a broadcast, a part of a concat, a sum over axes */
HOT static void strided(long count, int rank, const long *dims, const TYPE *a, long ai, long ao,
                    const long *as, TYPE *c, long ci, long co, const long *cs, int add)
{
    const long n = rank ? dims[rank - 1] : 1, an = rank ? as[rank - 1] : 0,
               cn = rank ? cs[rank - 1] : 0;
    long runs = 1;
    for (int j = 0; j < rank - 1; j++) runs *= dims[j];
    for (long i = 0; i < count; i++) {
        long k[MAX_RANK] = {0}, from = i * ai + ao, to = i * ci + co;
        for (long r = 0; r < runs; r++) {
            if (add) for (long q = 0; q < n; q++) c[to + q * cn] += a[from + q * an];
            else for (long q = 0; q < n; q++) c[to + q * cn] = a[from + q * an];
            for (int j = rank - 2; j >= 0; j--) {       /* the next run: an odometer */
                from += as[j], to += cs[j];
                if (++k[j] < dims[j]) break;
                from -= as[j] * dims[j], to -= cs[j] * dims[j], k[j] = 0;
            }
        }
    }
}

/* c[o, q] = Σ_k a[o, k, q] / divisor, a [outer, n, inner] */
static void sum_axis(long outer, long n, long inner, const TYPE *a, TYPE *c, double divisor)
{
    for (long o = 0; o < outer; o++)
        for (long q = 0; q < inner; q++) {
            double total = 0;
            for (long k = 0; k < n; k++) total += a[(o * n + k) * inner + q];
            c[o * inner + q] = (TYPE)(total / divisor);
        }
}

/* c[j] = Σ_i a[i, j] over `rows` rows, times `scale`, divided by `divisor` */
static void add_rows(long rows, long n, const TYPE *a, TYPE *c, double scale, double divisor)
{   /* row after row, in the values' type (numpy's sum: round-off apart) */
    for (long j = 0; j < n; j++) c[j] = a[j];
    for (long i = 1; i < rows; i++)
        for (long j = 0; j < n; j++) c[j] += a[i * n + j];
    if (scale != 1 || divisor != 1)
        for (long j = 0; j < n; j++) c[j] = (TYPE)(c[j] * scale / divisor);
}
