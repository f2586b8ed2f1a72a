// device_functions.h: part of the CPU emulation shim. The device intrinsics (__syncthreads, __popc, __fdividef, ...) live in cuda_runtime.h. (nvcc 13 warns that this header is internal; the program still compiles, as here.)
#include "cuda_runtime.h"
