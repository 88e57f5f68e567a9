// Shims for SQLite APIs that Swift cannot import directly. Each wraps one macro, with a prefix, and
// holds no logic.
#ifndef HERALD_CSQLITE_SHIM_H
#define HERALD_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift's macro importer rejects:
// binds made with it make SQLite copy the value before the call returns.
static inline sqlite3_destructor_type herald_sqlite3_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
