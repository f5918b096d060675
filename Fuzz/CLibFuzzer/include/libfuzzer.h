// libFuzzer's entry for programs that keep their own main (compiler-rt's
// FuzzerInterface.h). SwiftPM renames an executable's main and points `main`
// at it, so the harness cannot use libFuzzer's main and calls this instead.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
