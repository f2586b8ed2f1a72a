// vector_functions.h: part of the CPU emulation shim. make_int2, make_float4, ... live in cuda_runtime.h, which defines __VECTOR_FUNCTIONS_H__ as the real header does.
#include "cuda_runtime.h"
