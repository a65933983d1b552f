#include "ek_vectors.h"

#include <stddef.h>

#if defined(__x86_64__) && defined(__ELF__)
#define EK_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define EK_CLONES
#endif

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
