#ifndef EK_MATRIX_H
#define EK_MATRIX_H

#include <stddef.h>

/// Multiplies `a` (m × k, rows contiguous) by the transpose of `b` (n × k, rows contiguous, the
/// layout of a linear layer's weight) into `c` (m × n): `c[i][j] = bias[j] + Σ a[i][p]·b[j][p]`.
/// `bias` may be NULL.
void ek_matmul_transposed(int m, int n, int k, const float *a, const float *b, const float *bias, float *c);

/// The dot product of two float vectors of `count` elements.
float ek_dot(const float *x, const float *y, int count);

/// Which variant of the kernels the processor runs: "x86-64-v3" (AVX2 and FMA) or "baseline".
const char *ek_variant(void);

#endif
