#ifndef EMBEDDING_KERNELS_H
#define EMBEDDING_KERNELS_H

/// The inner loops of text embedding and vector search, in C so that the compiler vectorises
/// them. On x86-64 each function is built twice, for AVX2 with FMA and for the baseline, and the
/// dynamic loader picks the variant the processor supports when the program starts.

#include "ek_matrix.h"
#include "ek_vectors.h"
#include "ek_transformer.h"

#endif
