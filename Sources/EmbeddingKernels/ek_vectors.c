#include "ek_vectors.h"

#include <stddef.h>

#include "ek_simd.h"

EK_CLONES
void ek_int8_scan(const int8_t *matrix, const float *scales, int rows, int dimension, const int8_t *query, float queryScale,
                  float *scores) {
    for (int r = 0; r < rows; r++) {
        const int8_t *row = matrix + (size_t)r * dimension;
        int32_t sum = 0;
        for (int i = 0; i < dimension; i++) sum += (int16_t)row[i] * (int16_t)query[i];
        scores[r] = scales[r] * queryScale * (float)sum;
    }
}

void ek_sign_bits(const int8_t *vector, int dimension, uint64_t *bits) {
    int words = (dimension + 63) / 64;
    for (int w = 0; w < words; w++) bits[w] = 0;
    for (int i = 0; i < dimension; i++)
        if (vector[i] > 0) bits[i / 64] |= (uint64_t)1 << (i % 64);
}

EK_CLONES
void ek_hamming_scan(const uint64_t *matrix, int rows, int words, const uint64_t *query, uint16_t *distances,
                     uint32_t *histogram) {
    for (int r = 0; r < rows; r++) {
        const uint64_t *row = matrix + (size_t)r * words;
        int distance = 0;
        for (int w = 0; w < words; w++) distance += __builtin_popcountll(row[w] ^ query[w]);
        distances[r] = (uint16_t)distance;
        histogram[distance]++;
    }
}

int ek_hamming_select(const uint16_t *distances, int rows, int cutoff, int tiesWanted, int32_t *selected) {
    // Branch-free: the distances are in no order, so a branch would be mispredicted often.
    int count = 0;
    for (int r = 0; r < rows; r++) {
        int distance = distances[r];
        int tie = (distance == cutoff) & (tiesWanted > 0);
        int keep = (distance < cutoff) | tie;
        selected[count] = r;
        count += keep;
        tiesWanted -= tie;
    }
    return count;
}

EK_CLONES
void ek_int8_score_rows(const int8_t *matrix, const float *scales, int dimension, const int32_t *rowIndices, int count,
                        const int8_t *query, float queryScale, float *scores) {
    enum { ahead = 16 };
    for (int c = 0; c < count; c++) {
        // The rows are scattered, so the hardware prefetcher does not see them coming.
        if (c + ahead < count) {
            const char *next = (const char *)(matrix + (size_t)rowIndices[c + ahead] * dimension);
            for (int offset = 0; offset < dimension; offset += 64) __builtin_prefetch(next + offset);
        }
        int r = rowIndices[c];
        const int8_t *row = matrix + (size_t)r * dimension;
        int32_t sum = 0;
        for (int i = 0; i < dimension; i++) sum += (int16_t)row[i] * (int16_t)query[i];
        scores[c] = scales[r] * queryScale * (float)sum;
    }
}
