// vector_types.h: part of the CPU emulation shim. char1..double4, dim3 and uint3 live in cuda_runtime.h, which defines __VECTOR_TYPES_H__ as the real header does.
#include "cuda_runtime.h"
