#ifndef EK_TRANSFORMER_H
#define EK_TRANSFORMER_H

#include <stdint.h>

/// The steps of a transformer encoder layer besides its matrix products, for rows of `width`
/// floats stored `stride` floats apart.

/// Multiplies `a` (m × k, rows `lda` apart) by the transpose of `b` (n × k, rows contiguous, the
/// layout of a linear layer's weight) into `c` (m × n, rows `ldc` apart), adding `bias` (n floats,
/// may be NULL): `c[i][j] = bias[j] + Σ a[i][p]·b[j][p]`. Writing into a column range of a wider
/// `c` lets three weights (query, key, value) fill one matrix without being copied together.
void ek_linear(int m, int n, int k, const float *a, int lda, const float *b, const float *bias, float *c, int ldc);

/// Scaled dot-product self-attention of one sequence of `count` tokens, every head at once.
///
/// Row t of `qkv` (rows `ldqkv` apart) holds the token's query, key and value projections, each
/// `heads · headSize` floats, one after the other. Row t of `output` (rows `ldout` apart) receives
/// the `heads · headSize` floats of softmax(q·kᵀ/√headSize)·v. `scratch` holds `count` floats.
void ek_attention(int count, int heads, int headSize, const float *qkv, int ldqkv, float *output, int ldout, float *scratch);

/// GELU with the exact error function, in place: x · ½ · (1 + erf(x / √2)).
void ek_gelu(float *values, long count);

/// `rows` rows of `width` floats become LayerNorm(x + residual) · gamma + beta, in place in `x`.
/// `residual` may be NULL.
void ek_add_layer_norm(int rows, int width, float *x, const float *residual, const float *gamma, const float *beta, float epsilon);

/// Converts IEEE half-precision floats to single precision.
void ek_half_to_float(const uint16_t *half, float *single, long count);

#endif
