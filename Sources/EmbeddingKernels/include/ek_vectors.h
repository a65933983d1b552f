#ifndef EK_VECTORS_H
#define EK_VECTORS_H

#include <stdint.h>

/// Scores every row of an int8 matrix (`rows` × `dimension`, rows contiguous) against an int8
/// query: `scores[r] = scales[r] · queryScale · Σ matrix[r][i]·query[i]`.
void ek_int8_scan(const int8_t *matrix, const float *scales, int rows, int dimension, const int8_t *query, float queryScale,
                  float *scores);

#endif
