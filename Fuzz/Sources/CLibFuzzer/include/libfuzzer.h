// libFuzzer's driver entry point (compiler-rt, linked by -sanitize=fuzzer): runs the fuzzing
// loop with the command line's options over `callback`.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
