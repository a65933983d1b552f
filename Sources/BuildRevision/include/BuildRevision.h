#ifndef BUILD_REVISION_H
#define BUILD_REVISION_H

/// The source revision the binary was built from, given at build time with
/// `-Xcc -DSHORTCUTS_REVISION='"abc1234"'`, or an empty string.
const char *shortcuts_build_revision(void);

#endif
