#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs that keep their own `main` (from
/// libclang_rt.fuzzer_no_main): runs the fuzzer with the command-line flags in argv.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
