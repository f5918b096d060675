// A C target needs a source file; the declaration in include/ is all it offers.
#include "libfuzzer.h"
