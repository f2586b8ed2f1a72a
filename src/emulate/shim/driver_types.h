// driver_types.h: part of the CPU emulation shim. The runtime's types (cudaError_t, cudaDeviceProp, cudaMemcpyKind, ...) live in cuda_runtime.h, which defines __DRIVER_TYPES_H__ as the real header does.
#include "cuda_runtime.h"
