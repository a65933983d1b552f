#ifndef DIGESTS_SHA256_H
#define DIGESTS_SHA256_H

#include <stddef.h>
#include <stdint.h>

/// The running state of a SHA-256 digest (FIPS 180-4), fed in pieces of any size.
///
///     digests_sha256_context context;
///     digests_sha256_init(&context);
///     digests_sha256_update(&context, bytes, count);
///     uint8_t digest[32];
///     digests_sha256_final(&context, digest);
typedef struct digests_sha256_context {
    uint32_t state[8];
    uint64_t length;
    uint8_t block[64];
    size_t blockFill;
} digests_sha256_context;

/// Starts a digest.
void digests_sha256_init(digests_sha256_context *context);

/// Adds `count` bytes to a digest.
void digests_sha256_update(digests_sha256_context *context, const void *bytes, size_t count);

/// Ends a digest and writes its 32 bytes to `digest`.
void digests_sha256_final(digests_sha256_context *context, uint8_t digest[32]);

#endif
