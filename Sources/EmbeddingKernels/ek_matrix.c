#include "ek_matrix.h"

#include "ek_simd.h"

EK_CLONES
float ek_dot(const float *x, const float *y, int count) { return ek_inline_dot(x, y, count); }

const char *ek_variant(void) {
#if defined(__x86_64__) && defined(__ELF__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "x86-64-v3";
#endif
    return "baseline";
}
