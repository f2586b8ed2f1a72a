// cuda_runtime_api.h: part of the CPU emulation shim; everything lives in
// cuda_runtime.h.
#include "cuda_runtime.h"
