// sm_61_intrinsics.h: part of the CPU emulation shim. The integer dot products (__dp4a, __dp2a_lo, __dp2a_hi) live in cuda_runtime.h, which nvcc includes anyway.
#include "cuda_runtime.h"
