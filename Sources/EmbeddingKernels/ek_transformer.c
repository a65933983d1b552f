#include "ek_transformer.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#if defined(__x86_64__) && defined(__ELF__)
#define EK_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define EK_CLONES
#endif

typedef float ek_v8 __attribute__((vector_size(32), aligned(4)));

#define ek_sum8(v) ((((v)[0] + (v)[4]) + ((v)[1] + (v)[5])) + (((v)[2] + (v)[6]) + ((v)[3] + (v)[7])))

/// A dot product inlined into each variant (a call between clones would pass vectors through memory).
static inline __attribute__((always_inline)) float ek_inline_dot(const float *x, const float *y, int count) {
    ek_v8 acc0 = {0}, acc1 = {0};
    int p = 0;
    for (; p + 16 <= count; p += 16) {
        acc0 += *(const ek_v8 *)(x + p) * *(const ek_v8 *)(y + p);
        acc1 += *(const ek_v8 *)(x + p + 8) * *(const ek_v8 *)(y + p + 8);
    }
    for (; p + 8 <= count; p += 8) acc0 += *(const ek_v8 *)(x + p) * *(const ek_v8 *)(y + p);
    float sum = ek_sum8(acc0 + acc1);
    for (; p < count; p++) sum += x[p] * y[p];
    return sum;
}

/// Two rows of `a` against four rows of `b` at a time (eight accumulators and six loads per step
/// fit AVX2's sixteen registers), over blocks of `b` small enough to stay in the L2 cache while
/// every row of `a` passes over them.
EK_CLONES
void ek_linear(int m, int n, int k, const float *a, int lda, const float *b, const float *bias, float *c, int ldc) {
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

EK_CLONES
void ek_attention(int count, int heads, int headSize, const float *qkv, int ldqkv, float *output, int ldout, float *scratch) {
    int hidden = heads * headSize;
    float scale = 1.0f / sqrtf((float)headSize);
    for (int h = 0; h < heads; h++) {
        for (int i = 0; i < count; i++) {
            const float *q = qkv + (size_t)i * ldqkv + h * headSize;
            float largest = -INFINITY;
            for (int j = 0; j < count; j++) {
                float score = ek_inline_dot(q, qkv + (size_t)j * ldqkv + hidden + h * headSize, headSize) * scale;
                scratch[j] = score;
                if (score > largest) largest = score;
            }
            float total = 0;
            for (int j = 0; j < count; j++) {
                float e = expf(scratch[j] - largest);
                scratch[j] = e;
                total += e;
            }
            float *out = output + (size_t)i * ldout + h * headSize;
            memset(out, 0, sizeof(float) * (size_t)headSize);
            for (int j = 0; j < count; j++) {
                const float *v = qkv + (size_t)j * ldqkv + 2 * hidden + h * headSize;
                float weight = scratch[j];
                for (int d = 0; d < headSize; d++) out[d] += weight * v[d];
            }
            float inverse = 1.0f / total;
            for (int d = 0; d < headSize; d++) out[d] *= inverse;
        }
    }
}

EK_CLONES
void ek_gelu(float *values, long count) {
    for (long i = 0; i < count; i++) {
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
