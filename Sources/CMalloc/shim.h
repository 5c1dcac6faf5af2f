#ifndef QUARRY_CMALLOC_SHIM_H
#define QUARRY_CMALLOC_SHIM_H
// glibc's heap statistics (mallinfo2), for the bench's memory figure; not in Swift's Glibc module.
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
#endif
