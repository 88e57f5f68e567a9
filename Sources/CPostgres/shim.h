// libpq (PostgreSQL's client library) from Debian's libpq-dev. Swift imports libpq-fe.h as it is:
// no shims are needed so far; this header exists because a system-library target names one.
#ifndef HERALD_CPOSTGRES_SHIM_H
#define HERALD_CPOSTGRES_SHIM_H

#include <libpq-fe.h>

#endif
