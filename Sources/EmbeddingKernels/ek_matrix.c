#include "ek_matrix.h"

#if defined(__x86_64__) && defined(__ELF__)
#define EK_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define EK_CLONES
#endif

typedef float ek_v8 __attribute__((vector_size(32), aligned(4)));

/// The sum of a vector's eight lanes (a macro: an AVX vector passed to a function would change
/// the calling convention between the two variants).
#define ek_sum8(v) ((((v)[0] + (v)[4]) + ((v)[1] + (v)[5])) + (((v)[2] + (v)[6]) + ((v)[3] + (v)[7])))

EK_CLONES
float ek_dot(const float *x, const float *y, int count) {
    ek_v8 acc0 = {0}, acc1 = {0};
    int p = 0;
    for (; p + 16 <= count; p += 16) {
        acc0 += *(const ek_v8 *)(x + p) * *(const ek_v8 *)(y + p);
        acc1 += *(const ek_v8 *)(x + p + 8) * *(const ek_v8 *)(y + p + 8);
    }
    float sum = ek_sum8(acc0 + acc1);
    for (; p < count; p++) sum += x[p] * y[p];
    return sum;
}

const char *ek_variant(void) {
#if defined(__x86_64__) && defined(__ELF__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "x86-64-v3";
#endif
    return "baseline";
}
