#include "ek_matrix.h"

#if defined(__x86_64__) && defined(__ELF__)
#define EK_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define EK_CLONES
#endif

typedef float ek_v8 __attribute__((vector_size(32), aligned(4)));

/// The sum of a vector's eight lanes (a macro: an AVX vector passed to a function would change
/// the calling convention between the two variants).
#define ek_sum8(v) ((((v)[0] + (v)[4]) + ((v)[1] + (v)[5])) + (((v)[2] + (v)[6]) + ((v)[3] + (v)[7])))

EK_CLONES
float ek_dot(const float *x, const float *y, int count) {
    ek_v8 acc0 = {0}, acc1 = {0};
    int p = 0;
    for (; p + 16 <= count; p += 16) {
        acc0 += *(const ek_v8 *)(x + p) * *(const ek_v8 *)(y + p);
        acc1 += *(const ek_v8 *)(x + p + 8) * *(const ek_v8 *)(y + p + 8);
    }
    float sum = ek_sum8(acc0 + acc1);
    for (; p < count; p++) sum += x[p] * y[p];
    return sum;
}

/// Two rows of `a` against four rows of `b`: eight accumulators, six loads per step, all in
/// registers with AVX2.
EK_CLONES
void ek_matmul_transposed(int m, int n, int k, const float *a, const float *b, const float *bias, float *c) {
    int k8 = k & ~7;
    int i = 0;
    for (; i + 2 <= m; i += 2) {
        const float *a0 = a + (size_t)i * k, *a1 = a0 + k;
        int j = 0;
        for (; j + 4 <= n; j += 4) {
            const float *b0 = b + (size_t)j * k, *b1 = b0 + k, *b2 = b1 + k, *b3 = b2 + k;
            ek_v8 c00 = {0}, c01 = {0}, c02 = {0}, c03 = {0}, c10 = {0}, c11 = {0}, c12 = {0}, c13 = {0};
            for (int p = 0; p < k8; p += 8) {
                ek_v8 x0 = *(const ek_v8 *)(a0 + p), x1 = *(const ek_v8 *)(a1 + p);
                ek_v8 w0 = *(const ek_v8 *)(b0 + p), w1 = *(const ek_v8 *)(b1 + p);
                ek_v8 w2 = *(const ek_v8 *)(b2 + p), w3 = *(const ek_v8 *)(b3 + p);
                c00 += x0 * w0; c01 += x0 * w1; c02 += x0 * w2; c03 += x0 * w3;
                c10 += x1 * w0; c11 += x1 * w1; c12 += x1 * w2; c13 += x1 * w3;
            }
            float s[8] = {ek_sum8(c00), ek_sum8(c01), ek_sum8(c02), ek_sum8(c03),
                          ek_sum8(c10), ek_sum8(c11), ek_sum8(c12), ek_sum8(c13)};
            for (int p = k8; p < k; p++) {
                s[0] += a0[p] * b0[p]; s[1] += a0[p] * b1[p]; s[2] += a0[p] * b2[p]; s[3] += a0[p] * b3[p];
                s[4] += a1[p] * b0[p]; s[5] += a1[p] * b1[p]; s[6] += a1[p] * b2[p]; s[7] += a1[p] * b3[p];
            }
            for (int q = 0; q < 4; q++) {
                float add = bias ? bias[j + q] : 0;
                c[(size_t)i * n + j + q] = s[q] + add;
                c[(size_t)(i + 1) * n + j + q] = s[4 + q] + add;
            }
        }
        for (; j < n; j++) {
            const float *bj = b + (size_t)j * k;
            float add = bias ? bias[j] : 0;
            c[(size_t)i * n + j] = ek_dot(a0, bj, k) + add;
            c[(size_t)(i + 1) * n + j] = ek_dot(a1, bj, k) + add;
        }
    }
    for (; i < m; i++) {
        for (int j = 0; j < n; j++) {
            c[(size_t)i * n + j] = ek_dot(a + (size_t)i * k, b + (size_t)j * k, k) + (bias ? bias[j] : 0);
        }
    }
}

const char *ek_variant(void) {
#if defined(__x86_64__) && defined(__ELF__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "x86-64-v3";
#endif
    return "baseline";
}
