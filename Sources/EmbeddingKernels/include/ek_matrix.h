#ifndef EK_MATRIX_H
#define EK_MATRIX_H

#include <stddef.h>

/// The dot product of two float vectors of `count` elements.
float ek_dot(const float *x, const float *y, int count);

/// Which variant of the kernels the processor runs: "x86-64-v3" (AVX2 and FMA) or "baseline".
const char *ek_variant(void);

#endif
