#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

// zlib, from the system (Debian: zlib1g-dev), for the deflate streams of zip archives.
#include <zlib.h>

#endif
