// builtin_types.h: part of the CPU emulation shim. The built-in vector and runtime types live in cuda_runtime.h.
#include "cuda_runtime.h"
