#ifndef CDIGESTS_H
#define CDIGESTS_H

/// SHA-256 (FIPS 180-4) and a comparison of byte strings in constant time, in C: the kernels of
/// the Swift module `Digests`.

#include "digests_compare.h"
#include "digests_sha256.h"

#endif
