#include "BuildRevision.h"

const char *shortcuts_build_revision(void) {
#ifdef SHORTCUTS_REVISION
    return SHORTCUTS_REVISION;
#else
    return "";
#endif
}
