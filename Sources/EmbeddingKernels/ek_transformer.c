#include "ek_transformer.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#ifndef EK_PACKED_ROWS
#define EK_PACKED_ROWS 64
#endif

#include "ek_simd.h"

/// Two rows of `a` against four rows of `b` at a time (eight accumulators and six loads per step
/// fit AVX2's sixteen registers), over blocks of `b` small enough to stay in the L2 cache while
/// every row of `a` passes over them.
EK_CLONES
static void ek_linear_avx2(int m, int n, int k, const float *a, int lda, const float *b, const float *bias, float *c, int ldc) {
    int k8 = k & ~7;
    int block = (int)(96 * 1024 / ((size_t)k * sizeof(float))) & ~3;
    if (block < 4) block = 4;
    for (int j0 = 0; j0 < n; j0 += block) {
        int j1 = j0 + block < n ? j0 + block : n;
        int i = 0;
        for (; i + 2 <= m; i += 2) {
            const float *a0 = a + (size_t)i * lda, *a1 = a0 + lda;
            float *c0 = c + (size_t)i * ldc, *c1 = c0 + ldc;
            int j = j0;
            for (; j + 4 <= j1; j += 4) {
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
                    c0[j + q] = s[q] + add;
                    c1[j + q] = s[4 + q] + add;
                }
            }
            for (; j < j1; j++) {
                const float *bj = b + (size_t)j * k;
                float add = bias ? bias[j] : 0;
                c0[j] = ek_inline_dot(a0, bj, k) + add;
                c1[j] = ek_inline_dot(a1, bj, k) + add;
            }
        }
        for (; i < m; i++) {
            const float *ai = a + (size_t)i * lda;
            for (int j = j0; j < j1; j++) {
                c[(size_t)i * ldc + j] = ek_inline_dot(ai, b + (size_t)j * k, k) + (bias ? bias[j] : 0);
            }
        }
    }
}

#if defined(__x86_64__) && defined(__ELF__)
typedef float ek_v16 __attribute__((vector_size(64), aligned(4)));

#define ek_sum16(v) (ek_sum8(((ek_v8){(v)[0], (v)[1], (v)[2], (v)[3], (v)[4], (v)[5], (v)[6], (v)[7]}) + \
                             ((ek_v8){(v)[8], (v)[9], (v)[10], (v)[11], (v)[12], (v)[13], (v)[14], (v)[15]})))

/// One row of `a` against one row of `b`, sixteen floats at a time.
static inline __attribute__((always_inline, target("arch=x86-64-v4"), min_vector_width(512))) float ek_dot16(const float *x, const float *y, int k) {
    ek_v16 acc = {0};
    int p = 0;
    for (; p + 16 <= k; p += 16) acc += *(const ek_v16 *)(x + p) * *(const ek_v16 *)(y + p);
    float sum = ek_sum16(acc);
    for (; p < k; p++) sum += x[p] * y[p];
    return sum;
}

/// With AVX-512: four rows of `a` against four rows of `b` at a time, sixteen accumulators and
/// eight loads per step in AVX-512's thirty-two registers.
__attribute__((target("arch=x86-64-v4"), min_vector_width(512)))
static void ek_linear_avx512(int m, int n, int k, const float *a, int lda, const float *b, const float *bias, float *c, int ldc) {
    int k16 = k & ~15;
    int block = (int)(128 * 1024 / ((size_t)k * sizeof(float))) & ~3;
    if (block < 4) block = 4;
    for (int j0 = 0; j0 < n; j0 += block) {
        int j1 = j0 + block < n ? j0 + block : n;
        int i = 0;
        for (; i + 4 <= m; i += 4) {
            const float *a0 = a + (size_t)i * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
            int j = j0;
            for (; j + 4 <= j1; j += 4) {
                const float *b0 = b + (size_t)j * k, *b1 = b0 + k, *b2 = b1 + k, *b3 = b2 + k;
                ek_v16 acc[4][4] = {{{0}}};
                for (int p = 0; p < k16; p += 16) {
                    ek_v16 w0 = *(const ek_v16 *)(b0 + p), w1 = *(const ek_v16 *)(b1 + p);
                    ek_v16 w2 = *(const ek_v16 *)(b2 + p), w3 = *(const ek_v16 *)(b3 + p);
                    ek_v16 x;
                    x = *(const ek_v16 *)(a0 + p); acc[0][0] += x * w0; acc[0][1] += x * w1; acc[0][2] += x * w2; acc[0][3] += x * w3;
                    x = *(const ek_v16 *)(a1 + p); acc[1][0] += x * w0; acc[1][1] += x * w1; acc[1][2] += x * w2; acc[1][3] += x * w3;
                    x = *(const ek_v16 *)(a2 + p); acc[2][0] += x * w0; acc[2][1] += x * w1; acc[2][2] += x * w2; acc[2][3] += x * w3;
                    x = *(const ek_v16 *)(a3 + p); acc[3][0] += x * w0; acc[3][1] += x * w1; acc[3][2] += x * w2; acc[3][3] += x * w3;
                }
                const float *rows[4] = {a0, a1, a2, a3}, *columns[4] = {b0, b1, b2, b3};
                for (int r = 0; r < 4; r++) {
                    for (int q = 0; q < 4; q++) {
                        float sum = ek_sum16(acc[r][q]);
                        for (int p = k16; p < k; p++) sum += rows[r][p] * columns[q][p];
                        c[(size_t)(i + r) * ldc + j + q] = sum + (bias ? bias[j + q] : 0);
                    }
                }
            }
            for (; j < j1; j++) {
                for (int r = 0; r < 4; r++) {
                    c[(size_t)(i + r) * ldc + j] = ek_dot16(a + (size_t)(i + r) * lda, b + (size_t)j * k, k) + (bias ? bias[j] : 0);
                }
            }
        }
        for (; i < m; i++) {
            for (int j = j0; j < j1; j++) {
                c[(size_t)i * ldc + j] = ek_dot16(a + (size_t)i * lda, b + (size_t)j * k, k) + (bias ? bias[j] : 0);
            }
        }
    }
}

/// `rows` (a constant after inlining) rows of `a` against a packed panel of 32 columns of `b`
/// (`panel[p·32 + q]` = b[j + q][p]): each row's 32 sums stay in two registers, `a`'s value is
/// broadcast, so no horizontal sums are needed.
static inline __attribute__((always_inline, target("arch=x86-64-v4"), min_vector_width(512))) void
ek_panel_rows(int rows, int k, const float *a, int lda, const float *panel, const float *bias, int columns, float *c, int ldc) {
    ek_v16 acc[8][2];
    for (int r = 0; r < rows; r++) acc[r][0] = acc[r][1] = (ek_v16){0};
    for (int p = 0; p < k; p++) {
        ek_v16 w0 = *(const ek_v16 *)(panel + (size_t)p * 32), w1 = *(const ek_v16 *)(panel + (size_t)p * 32 + 16);
        for (int r = 0; r < rows; r++) {
            float x = a[(size_t)r * lda + p];
            acc[r][0] += x * w0;
            acc[r][1] += x * w1;
        }
    }
    for (int r = 0; r < rows; r++) {
        float *out = c + (size_t)r * ldc;
        if (columns == 32) {
            ek_v16 sum0 = acc[r][0], sum1 = acc[r][1];
            if (bias) {
                sum0 += *(const ek_v16 *)bias;
                sum1 += *(const ek_v16 *)(bias + 16);
            }
            *(ek_v16 *)out = sum0;
            *(ek_v16 *)(out + 16) = sum1;
        } else {
            for (int q = 0; q < columns; q++) out[q] = acc[r][q / 16][q % 16] + (bias ? bias[q] : 0);
        }
    }
}

/// With AVX-512 and enough rows: 32 columns of `b` at a time are copied into a panel laid out by
/// `k` (48 kB for k = 384, in the L1 or L2 cache), then every row of `a` passes over it, eight at a time.
__attribute__((target("arch=x86-64-v4"), min_vector_width(512)))
static void ek_linear_avx512_packed(int m, int n, int k, const float *a, int lda, const float *b, const float *bias, float *c,
                                    int ldc, float *panel) {
    for (int j = 0; j < n; j += 32) {
        int columns = n - j < 32 ? n - j : 32;
        for (int p = 0; p < k; p++) {
            for (int q = 0; q < 32; q++) panel[(size_t)p * 32 + q] = q < columns ? b[(size_t)(j + q) * k + p] : 0;
        }
        const float *columnBias = bias ? bias + j : 0;
        int i = 0;
        for (; i + 8 <= m; i += 8) ek_panel_rows(8, k, a + (size_t)i * lda, lda, panel, columnBias, columns, c + (size_t)i * ldc + j, ldc);
        if (i + 4 <= m) {
            ek_panel_rows(4, k, a + (size_t)i * lda, lda, panel, columnBias, columns, c + (size_t)i * ldc + j, ldc);
            i += 4;
        }
        for (; i < m; i++) ek_panel_rows(1, k, a + (size_t)i * lda, lda, panel, columnBias, columns, c + (size_t)i * ldc + j, ldc);
    }
}
#endif

int ek_has_avx512(void) {
#if defined(__x86_64__) && defined(__ELF__)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512bw");
#else
    return 0;
#endif
}

void ek_linear(int m, int n, int k, const float *a, int lda, const float *b, const float *bias, float *c, int ldc) {
#if defined(__x86_64__) && defined(__ELF__)
    if (ek_has_avx512()) {
        float *panel = m >= EK_PACKED_ROWS ? malloc(sizeof(float) * 32 * (size_t)k) : NULL;
        if (panel) {
            ek_linear_avx512_packed(m, n, k, a, lda, b, bias, c, ldc, panel);
            free(panel);
        } else {
            ek_linear_avx512(m, n, k, a, lda, b, bias, c, ldc);
        }
        return;
    }
#endif
    ek_linear_avx2(m, n, k, a, lda, b, bias, c, ldc);
}

typedef int ek_i8 __attribute__((vector_size(32)));

/// `out` = e^x for eight floats x ≤ 0 (a macro: a vector passed to a function would change the
/// calling convention between the variants): x = n·ln 2 + f with |f| ≤ ln 2 / 2, e^f by a
/// degree-6 polynomial (relative error about 2e-7), 2^n added in the exponent bits; below -87 it is 0.
#define EK_EXP8(input, out)                                                                        \
    do {                                                                                           \
        const ek_v8 ek_lowest = {-87.0f, -87.0f, -87.0f, -87.0f, -87.0f, -87.0f, -87.0f, -87.0f};  \
        ek_v8 ek_x = (input);                                                                      \
        ek_i8 ek_underflow = ek_x < ek_lowest;                                                     \
        ek_x = __builtin_elementwise_max(ek_x, ek_lowest);                                         \
        ek_v8 ek_shifted = ek_x * 1.44269504088896341f + 12582912.0f; /* 1.5·2²³ rounds */         \
        ek_v8 ek_n = ek_shifted - 12582912.0f;                                                     \
        ek_v8 ek_f = ek_x - ek_n * 0.693359375f;                                                   \
        ek_f = ek_f - ek_n * -2.12194440e-4f;                                                      \
        ek_v8 ek_p = 1.9875691500e-4f * ek_f + 1.3981999507e-3f;                                   \
        ek_p = ek_p * ek_f + 8.3334519073e-3f;                                                     \
        ek_p = ek_p * ek_f + 4.1665795894e-2f;                                                     \
        ek_p = ek_p * ek_f + 1.6666665459e-1f;                                                     \
        ek_p = ek_p * ek_f + 5.0000001201e-1f;                                                     \
        ek_p = ek_p * ek_f * ek_f + ek_f + 1.0f;                                                   \
        ek_i8 ek_bits, ek_result;                                                                  \
        __builtin_memcpy(&ek_bits, &ek_shifted, sizeof ek_bits);                                   \
        __builtin_memcpy(&ek_result, &ek_p, sizeof ek_result);                                     \
        ek_result = (ek_result + ((ek_bits - 0x4B400000) << 23)) & ~ek_underflow;                  \
        __builtin_memcpy(&(out), &ek_result, sizeof ek_result);                                    \
    } while (0)

/// Per head: the keys are first transposed into `scratch` (headSize rows of `count`), so that
/// each query's scores are built eight keys at a time without horizontal sums; the softmax uses
/// a vectorised exponential.
EK_CLONES
void ek_attention(int count, int heads, int headSize, const float *query, const float *key, const float *value, int ld,
                  float *output, int ldout, float *scratch) {
    float scale = 1.0f / sqrtf((float)headSize);
    float *keys = scratch, *scores = scratch + (size_t)count * headSize;  // four rows of scores
    int count8 = count & ~7;
    for (int h = 0; h < heads; h++) {
        for (int j = 0; j < count; j++) {
            const float *k = key + (size_t)j * ld + h * headSize;
            for (int d = 0; d < headSize; d++) keys[(size_t)d * count + j] = k[d];
        }
        for (int i0 = 0; i0 < count; i0 += 4) {
            // Scores of up to four queries at once: each loaded key vector serves four of them.
            int block = count - i0 < 4 ? count - i0 : 4;
            const float *q[4];
            for (int r = 0; r < 4; r++) q[r] = query + (size_t)(i0 + (r < block ? r : 0)) * ld + h * headSize;
            int j = 0;
            for (; j < count8; j += 8) {
                ek_v8 acc0 = {0}, acc1 = {0}, acc2 = {0}, acc3 = {0};
                for (int d = 0; d < headSize; d++) {
                    ek_v8 k8 = *(const ek_v8 *)(keys + (size_t)d * count + j);
                    acc0 += q[0][d] * k8;
                    acc1 += q[1][d] * k8;
                    acc2 += q[2][d] * k8;
                    acc3 += q[3][d] * k8;
                }
                *(ek_v8 *)(scores + j) = acc0 * scale;
                *(ek_v8 *)(scores + (size_t)count + j) = acc1 * scale;
                *(ek_v8 *)(scores + 2 * (size_t)count + j) = acc2 * scale;
                *(ek_v8 *)(scores + 3 * (size_t)count + j) = acc3 * scale;
            }
            for (; j < count; j++) {
                for (int r = 0; r < 4; r++) {
                    float acc = 0;
                    for (int d = 0; d < headSize; d++) acc += q[r][d] * keys[(size_t)d * count + j];
                    scores[(size_t)r * count + j] = acc * scale;
                }
            }
            for (int r = 0; r < block; r++) {
            int i = i0 + r;
            float *row = scores + (size_t)r * count;
            float largest = -INFINITY;
            for (j = 0; j < count; j++) largest = row[j] > largest ? row[j] : largest;
            float total = 0;
            for (j = 0; j < count8; j += 8) {
                ek_v8 e;
                EK_EXP8(*(ek_v8 *)(row + j) - largest, e);
                *(ek_v8 *)(row + j) = e;
                total += ek_sum8(e);
            }
            for (; j < count; j++) {
                float e = expf(row[j] - largest);
                row[j] = e;
                total += e;
            }
            float *out = output + (size_t)i * ldout + h * headSize;
            memset(out, 0, sizeof(float) * (size_t)headSize);
            for (j = 0; j < count; j++) {
                const float *v = value + (size_t)j * ld + h * headSize;
                float weight = row[j];
                for (int d = 0; d < headSize; d++) out[d] += weight * v[d];
            }
            float inverse = 1.0f / total;
            for (int d = 0; d < headSize; d++) out[d] *= inverse;
            }
        }
    }
}

/// erf by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7), eight at a time, with the
/// vectorised exponential.
EK_CLONES
void ek_gelu(float *values, long count) {
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        ek_v8 x = *(ek_v8 *)(values + i);
        ek_v8 z = x * 0.70710678118654752f;
        ek_i8 negative = z < (ek_v8){0};
        ek_v8 a = __builtin_elementwise_abs(z);
        ek_v8 t = 1.0f / (1.0f + 0.3275911f * a);
        ek_v8 poly = t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
        ek_v8 e;
        EK_EXP8(-a * a, e);
        ek_v8 erf = 1.0f - poly * e;
        ek_i8 bits, sign = negative & (ek_i8){(int)0x80000000, (int)0x80000000, (int)0x80000000, (int)0x80000000,
                                              (int)0x80000000, (int)0x80000000, (int)0x80000000, (int)0x80000000};
        __builtin_memcpy(&bits, &erf, sizeof bits);
        bits ^= sign;
        __builtin_memcpy(&erf, &bits, sizeof bits);
        *(ek_v8 *)(values + i) = 0.5f * x * (1.0f + erf);
    }
    for (; i < count; i++) {
        float x = values[i];
        values[i] = 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
    }
}

EK_CLONES
void ek_add_layer_norm(int rows, int width, float *x, const float *residual, const float *gamma, const float *beta, float epsilon) {
    for (int r = 0; r < rows; r++) {
        float *row = x + (size_t)r * width;
        if (residual) {
            const float *add = residual + (size_t)r * width;
            for (int i = 0; i < width; i++) row[i] += add[i];
        }
        double sum = 0;
        for (int i = 0; i < width; i++) sum += row[i];
        float mean = (float)(sum / width);
        double squares = 0;
        for (int i = 0; i < width; i++) {
            float d = row[i] - mean;
            squares += (double)d * d;
        }
        float inverse = (float)(1.0 / sqrt(squares / width + epsilon));
        for (int i = 0; i < width; i++) row[i] = (row[i] - mean) * inverse * gamma[i] + beta[i];
    }
}

void ek_half_to_float(const uint16_t *half, float *single, long count) {
    for (long i = 0; i < count; i++) {
        uint32_t h = half[i];
        uint32_t sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff, bits;
        if (exponent == 0x1f) {
            bits = sign | 0x7f800000u | (mantissa << 13);
        } else if (exponent != 0) {
            bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
        } else if (mantissa == 0) {
            bits = sign;
        } else {
            int shift = 0;
            while (!(mantissa & 0x400)) {
                mantissa <<= 1;
                shift++;
            }
            bits = sign | ((uint32_t)(113 - shift) << 23) | ((mantissa & 0x3ff) << 13);
        }
        memcpy(single + i, &bits, sizeof bits);
    }
}
