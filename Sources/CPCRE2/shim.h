#ifndef QUARRY_CPCRE2_SHIM_H
#define QUARRY_CPCRE2_SHIM_H
// pcre2.h needs the code unit width chosen before inclusion; Quarry uses the 8-bit (UTF-8) library.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
