// Only the header matters: the symbol comes from libFuzzer at link time.
#include "libfuzzer.h"
