#ifndef EK_VECTORS_H
#define EK_VECTORS_H

#include <stdint.h>

/// Scores every row of an int8 matrix (`rows` × `dimension`, rows contiguous) against an int8
/// query: `scores[r] = scales[r] · queryScale · Σ matrix[r][i]·query[i]`.
void ek_int8_scan(const int8_t *matrix, const float *scales, int rows, int dimension, const int8_t *query, float queryScale,
                  float *scores);

/// Packs the signs of an int8 vector into bits: bit `i` (word `i / 64`, bit `i % 64`) is set when
/// `vector[i] > 0`. `bits` holds `(dimension + 63) / 64` words.
void ek_sign_bits(const int8_t *vector, int dimension, uint64_t *bits);

/// The Hamming distance of every row of a sign-bit matrix (`rows` × `words`) to a query's bits:
/// `distances[r] = popcount(matrix[r] XOR query)`, and `histogram[distances[r]]` is incremented
/// (`histogram` holds `64 · words + 1` counters, zeroed by the caller).
void ek_hamming_scan(const uint64_t *matrix, int rows, int words, const uint64_t *query, uint16_t *distances,
                     uint32_t *histogram);

/// The positions of the rows closer than `cutoff`, and of the first `tiesWanted` rows at exactly
/// `cutoff`, in row order, written to `selected`; returns how many were written.
int ek_hamming_select(const uint16_t *distances, int rows, int cutoff, int tiesWanted, int32_t *selected);

/// Scores the chosen rows of an int8 matrix against an int8 query, as `ek_int8_scan` does:
/// `scores[c] = scales[r] · queryScale · Σ matrix[r][i]·query[i]` with `r = rowIndices[c]`.
void ek_int8_score_rows(const int8_t *matrix, const float *scales, int dimension, const int32_t *rowIndices, int count,
                        const int8_t *query, float queryScale, float *scores);

#endif
