#include "digests_compare.h"

int digests_equal_in_constant_time(const uint8_t *first, const uint8_t *second, size_t count) {
    // The difference is gathered through a volatile, so the compiler cannot stop at the first
    // byte that differs.
    volatile uint8_t difference = 0;
    for (size_t index = 0; index < count; index++) difference |= first[index] ^ second[index];
    return difference == 0;
}
