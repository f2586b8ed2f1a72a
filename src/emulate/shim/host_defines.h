// host_defines.h: part of the CPU emulation shim. __host__, __device__, __global__, __align__ and the rest live in cuda_runtime.h. (nvcc 13 warns that this header is internal; the program still compiles, as here.)
#include "cuda_runtime.h"
