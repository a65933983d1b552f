#ifndef EK_SIMD_H
#define EK_SIMD_H

/// What the kernels' source files share (not part of the module's interface): the variants each
/// function is built for, an eight-float vector and the lane sum and dot product built on it.

#if defined(__x86_64__) && defined(__ELF__)
#define EK_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define EK_CLONES
#endif

typedef float ek_v8 __attribute__((vector_size(32), aligned(4)));

/// The sum of a vector's eight lanes (a macro: an AVX vector passed to a function would change
/// the calling convention between the two variants).
#define ek_sum8(v) ((((v)[0] + (v)[4]) + ((v)[1] + (v)[5])) + (((v)[2] + (v)[6]) + ((v)[3] + (v)[7])))

/// A dot product inlined into each variant (a call between clones would pass vectors through memory).
static inline __attribute__((always_inline)) float ek_inline_dot(const float *x, const float *y, int count) {
    ek_v8 acc0 = {0}, acc1 = {0};
    int p = 0;
    for (; p + 16 <= count; p += 16) {
        acc0 += *(const ek_v8 *)(x + p) * *(const ek_v8 *)(y + p);
        acc1 += *(const ek_v8 *)(x + p + 8) * *(const ek_v8 *)(y + p + 8);
    }
    for (; p + 8 <= count; p += 8) acc0 += *(const ek_v8 *)(x + p) * *(const ek_v8 *)(y + p);
    float sum = ek_sum8(acc0 + acc1);
    for (; p < count; p++) sum += x[p] * y[p];
    return sum;
}

#endif
