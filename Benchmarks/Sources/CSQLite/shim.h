#ifndef QUARRY_CSQLITE_SHIM_H
#define QUARRY_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
