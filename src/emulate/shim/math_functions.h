// math_functions.h: part of the CPU emulation shim. A header of the CUDA toolkit that programs include by name; CUDA's math functions (sinf, expf, ...) live in cuda_runtime.h, which nvcc includes anyway.
#include "cuda_runtime.h"
