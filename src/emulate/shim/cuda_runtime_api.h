// cuda_runtime_api.h: part of the CPU emulation shim. everything lives in cuda_runtime.h, which defines __CUDA_RUNTIME_API_H__ as the real header does.
#include "cuda_runtime.h"
