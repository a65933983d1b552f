#ifndef EK_TRANSFORMER_H
#define EK_TRANSFORMER_H

#include <stdint.h>

/// The steps of a transformer encoder layer besides its matrix products, for rows of `width`
/// floats stored `stride` floats apart.

/// Multiplies `a` (m × k, rows `lda` apart) by the transpose of `b` (n × k, rows contiguous, the
/// layout of a linear layer's weight) into `c` (m × n, rows `ldc` apart), adding `bias` (n floats,
/// may be NULL): `c[i][j] = bias[j] + Σ a[i][p]·b[j][p]`. Writing into a column range of a wider
/// `c` lets three weights (query, key, value) fill one matrix without being copied together.
/// On processors with AVX-512 a kernel for it is used, otherwise the AVX2/FMA or baseline one.
void ek_linear(int m, int n, int k, const float *a, int lda, const float *b, const float *bias, float *c, int ldc);

/// Scaled dot-product self-attention of one sequence of `count` tokens, for `heads` heads.
///
/// Row t of `query`, `key` and `value` (each `ld` floats apart) holds the token's projections,
/// `heads · headSize` floats from the given pointers. Row t of `output` (rows `ldout` apart)
/// receives softmax(q·kᵀ/√headSize)·v for each head. `scratch` holds `count · (headSize + 4)` floats. A subset of
/// the heads is computed by offsetting the four pointers by `firstHead · headSize`.
void ek_attention(int count, int heads, int headSize, const float *query, const float *key, const float *value, int ld,
                  float *output, int ldout, float *scratch);

/// GELU, in place: x · ½ · (1 + erf(x / √2)), with erf approximated to 1.5e-7.
void ek_gelu(float *values, long count);

/// `rows` rows of `width` floats become LayerNorm(x + residual) · gamma + beta, in place in `x`.
/// `residual` may be NULL.
void ek_add_layer_norm(int rows, int width, float *x, const float *residual, const float *gamma, const float *beta, float epsilon);

/// Whether the processor runs the AVX-512 matrix product (AVX-512 F, VL, DQ and BW).
int ek_has_avx512(void);

/// Converts IEEE half-precision floats to single precision.
void ek_half_to_float(const uint16_t *half, float *single, long count);

#endif
