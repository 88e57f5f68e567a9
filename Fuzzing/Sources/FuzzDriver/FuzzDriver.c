// The declaration in include/FuzzDriver.h is the whole module; libFuzzer (linked by -sanitize=fuzzer) defines it.
#include "FuzzDriver.h"
