#ifndef QUARRY_BENCH_CSQLITE_SHIM_H
#define QUARRY_BENCH_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
