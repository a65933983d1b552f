#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H

// libpq, PostgreSQL's own client library, from the system (Debian: libpq-dev), for the
// PostgreSQL trait's state database. Debian keeps its headers in a folder of their own.
#include <postgresql/libpq-fe.h>

#endif
