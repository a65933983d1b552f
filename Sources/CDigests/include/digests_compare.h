#ifndef DIGESTS_COMPARE_H
#define DIGESTS_COMPARE_H

#include <stddef.h>
#include <stdint.h>

/// Whether two byte strings of `count` bytes are equal, in a time that depends on `count` only:
/// every byte is read, whatever the first difference, so that comparing a secret code with a
/// guess tells nothing of how much of the guess was right.
///
///     if (digests_equal_in_constant_time(expected, received, 32)) { ... }
int digests_equal_in_constant_time(const uint8_t *first, const uint8_t *second, size_t count);

#endif
