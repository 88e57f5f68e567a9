// libpq (PostgreSQL's client library) from Debian's libpq-dev: its declarations only. Nothing links
// libpq: the Postgres module opens libpq.so.5 when the first connection is made (LibPQ.swift), so
// that processes which never use PostgreSQL do not map it and what it brings. The header is named
// by its path under /usr/include for the same reason: pkg-config's flags would link it.
#ifndef HERALD_CPOSTGRES_SHIM_H
#define HERALD_CPOSTGRES_SHIM_H

#include <postgresql/libpq-fe.h>

#endif
