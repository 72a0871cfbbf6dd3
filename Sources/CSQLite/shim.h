#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro Swift cannot import: tell SQLite to copy bound
// text and blobs before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return (sqlite3_destructor_type)-1;
}
#endif
